"""The package's seams, checked from its source: one driver of the rows, state chosen by name, adapters
apart, errors without the CLI's library, every front end naming every request field, the KV caches in one
module, no compatibility shims, no command-line option in a library message."""

import ast
import importlib
import re
import tomllib
from pathlib import Path
from typing import Optional

import click

PACKAGE = Path(__file__).resolve().parent.parent / "mlx_qwen3tts"
ADAPTERS = ("openai/api", "sockets/ours", "sockets/omni", "wyoming")  # paths under server/


def _imports(path: Path) -> set:
    """The modules `path` imports, as written (relative ones with their dots)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names.add(base)
            names.update(f"{base}.{alias.name}" if node.module else base + alias.name for alias in node.names)
    return names


def _sources():
    return [p for p in PACKAGE.rglob("*.py")]


def test_one_place_steps_the_rows():
    """`Rows.drain()` is the one driver: no other module of the package calls a zero-argument `.step()`."""
    callers = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step"
                    and not node.args and not node.keywords):
                callers.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert callers and all(c.startswith("loop/rows.py:") for c in callers), callers


def test_no_state_is_chosen_by_rank():
    """The loop picks arrays by field name (loop/state.py), never by `ndim`."""
    # The batch state lives in loop/ (the model is stateless; a mask's or a clip's layout is not state).
    loop = [p for p in _sources() if p.parent.name == "loop"]
    assert any(p.name == "state.py" for p in loop)
    offenders = [str(p.relative_to(PACKAGE)) for p in loop if re.search(r"\.ndim\s*==", p.read_text())]
    assert not offenders, offenders


def test_no_adapter_imports_another():
    for name in ADAPTERS:
        imported = _imports(PACKAGE / "server" / f"{name}.py")
        others = {o.split("/")[-1] for o in ADAPTERS if o != name}
        assert not {i for i in imported for o in others if i.endswith(f".{o}") or i == o}, (name, imported)


def test_the_command_line_imports_nothing_of_the_server():
    """What both use (the time stretch behind `--speed` and `speed`, formats) lives below both, in audio/."""
    for path in (PACKAGE / "cli").glob("*.py"):
        imported = _imports(path)
        assert not {i for i in imported if ".server" in i or i.startswith("mlx_qwen3tts.server")}, (path.name, imported)
    assert (PACKAGE / "audio" / "time_stretch.py").exists() and not (PACKAGE / "server" / "time_stretch.py").exists()


def test_errors_import_no_cli_library():
    assert "click" not in _imports(PACKAGE / "errors.py")


def test_the_top_level_stays_small():
    modules = [p.name for p in PACKAGE.glob("*.py")]
    assert len(modules) <= 18, modules


def test_every_front_end_names_every_request_field():
    """The field tables are derived from the one declaration (`request_fields.Asked`): a new field is named
    by the CLI, HTTP, WebSocket and Wyoming without touching them."""
    from mlx_qwen3tts.cli.generate import FLAGS
    from mlx_qwen3tts.request_fields import FIELDS
    from mlx_qwen3tts.server.params import JSON_NAMES
    from mlx_qwen3tts.server.sockets.ours import WS_NAMES
    from mlx_qwen3tts.server.wyoming import WYOMING_NAMES

    assert "text" in FIELDS and "max_tokens" in FIELDS
    for table in (FLAGS, JSON_NAMES, WS_NAMES, WYOMING_NAMES):
        assert set(FIELDS) <= set(table), set(FIELDS) - set(table)
    assert JSON_NAMES["max_tokens"] == "max_new_tokens" and FLAGS["deltas"] == "--text-stream"


def _code(path: Path) -> str:
    """`path`'s source without its docstrings and comments (what the code does, not what it says)."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body[0] = ast.Pass()
    return ast.unparse(tree)


def test_the_piece_rule_is_in_one_place():
    """How a text's pieces share its frame budget and which keeps the seed is written once, in the request
    layer's plan (plan.py): no other module sets a piece's seed by its place or a budget left by others."""
    rule = re.compile(r"seed=[^,)]*\bif\b[^,)]*\belse None|max_frames=left\b")
    holders = sorted(str(p.relative_to(PACKAGE)) for p in _sources() if rule.search(_code(p)))
    assert holders == ["plan.py"], holders


def test_audio_knows_no_requests():
    """audio/ fades, joins, encodes and plays: it imports no request module and reads no request's fields."""
    request_modules = (".request", ".plan", ".request_fields", "..request", "..plan", "..request_fields")
    for path in (PACKAGE / "audio").glob("*.py"):
        imported = _imports(path)
        assert not {i for i in imported for m in request_modules if i == m or i.startswith(m + ".")}, (path.name,
                                                                                                         imported)
        code = _code(path)
        assert not re.search(r"\brequest\b|\.seed\b|max_frames\s*=", code), path.name


def test_nothing_but_the_facade_calls_its_private_parts():
    """Long-form, the command line and the server use `TTS`'s public API only."""
    calls = [f"{p.relative_to(PACKAGE)}:{m.group(0)}" for p in _sources() if p.name != "tts.py"
             for m in re.finditer(r"\btts\._\w+", _code(p))]
    assert not calls, calls


def test_kv_caches_live_in_one_module():
    """The KV caches are in model/cache.py, as mlx-lm keeps its own in models/cache.py."""
    homes = {str(p.relative_to(PACKAGE)) for p in _sources() for node in ast.walk(ast.parse(p.read_text()))
             if isinstance(node, ast.ClassDef) and node.name.endswith("KVCache")}
    assert homes == {"model/cache.py"}, homes


def test_no_module_only_re_exports():
    """No compatibility shims (the package was never released): a module that is not a package's `__init__`
    holds more than imports (`generate.py`, the command's published name, runs it as `__main__`)."""
    shims = []
    for path in _sources():
        body = [node for node in ast.parse(path.read_text()).body
                if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]  # the docstring
        if path.name != "__init__.py" and all(isinstance(node, (ast.Import, ast.ImportFrom)) for node in body):
            shims.append(str(path.relative_to(PACKAGE)))
    assert not shims, shims


def _console_scripts() -> dict:
    """pyproject's [project.scripts]: {command name: "module:function"}."""
    return tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]["scripts"]


def _command_options() -> set:
    """Every `--option` of the console scripts, read from their click definitions."""
    options = set()
    for target in _console_scripts().values():
        module, function = target.split(":")
        command = getattr(importlib.import_module(module), function)
        assert isinstance(command, click.Command), target
        for param in command.params:
            options.update(o for o in param.opts + param.secondary_opts if o.startswith("--"))
    return options


def _strings(tree: ast.AST, skip: Optional[ast.AST] = None):
    """(line, text) of each string in a module's code, but docstrings and those in `skip`; an f-string as one
    text (its values as {})."""
    left_out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                left_out.add(id(first.value))
        if isinstance(node, ast.JoinedStr):
            left_out.update(id(n) for n in ast.walk(node) if n is not node)
    if skip is not None:
        left_out.update(id(n) for n in ast.walk(skip))
    for node in ast.walk(tree):
        if id(node) in left_out:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def test_no_library_message_names_a_command_line_option():
    """The library words its messages in its own names (`{field}` templates that each front end renames:
    `Qwen3TTSError.worded`); only the front ends (cli/, server/, the console scripts' functions) name their
    options. A command shown whole (it starts with a console script's name) names its own."""
    options, scripts = _command_options(), _console_scripts()
    mains = {}  # module file -> its console-script function
    for target in scripts.values():
        module, function = target.split(":")
        path = PACKAGE.parent.joinpath(*module.split("."))
        mains[path / "__main__.py" if path.is_dir() else path.with_suffix(".py")] = function
    assert {"--dtype", "--resume", "--max-tokens"} <= options, options
    offenders = []
    for path in _sources():
        if path.relative_to(PACKAGE).parts[0] in ("cli", "server"):
            continue
        tree = ast.parse(path.read_text())
        main = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == mains.get(path)), None)
        for line, text in _strings(tree, skip=main):
            named = {flag for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*", text) if flag in options}
            if named and not text.lstrip().startswith(tuple(f"{name} " for name in scripts)):
                offenders.append(f"{path.relative_to(PACKAGE)}:{line}: {', '.join(sorted(named))}")
    assert not offenders, offenders


def _function_lines(path: Path, name: str) -> int:
    """The lines of the top-level function `name` in `path`, from `def` to its last line (decorators not counted)."""
    node = next(n for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef) and n.name == name)
    return node.end_lineno - node.lineno + 1


def test_the_command_line_is_split_by_job():
    """cli/generate.py parses the options and picks the job; progress, signals, sinks and each job live in
    modules of their own; the server's start-up is a config object, its `main` short."""
    assert len((PACKAGE / "cli" / "generate.py").read_text().splitlines()) <= 250
    for name in ("options", "progress", "signals", "sinks", "voice", "speak", "batch", "longform", "from_codes"):
        assert (PACKAGE / "cli" / f"{name}.py").exists(), name
    assert _function_lines(PACKAGE / "server" / "__main__.py", "main") <= 30
    from mlx_qwen3tts.server.__main__ import Startup  # noqa: F401  (the start-up's config object)


def test_one_class_is_named_progress():
    """The command line's frame progress and long-form's progress have names of their own."""
    holders = [str(p.relative_to(PACKAGE)) for p in _sources()
               if any(isinstance(n, ast.ClassDef) and n.name == "Progress" for n in ast.walk(ast.parse(p.read_text())))]
    assert holders == ["longform/progress.py"], holders


def test_every_option_of_the_command_is_in_one_config():
    """The command's options are parsed into a config per job (`cli.options`), each option into one, named
    as the option."""
    from dataclasses import fields, is_dataclass

    from mlx_qwen3tts.cli.generate import main
    from mlx_qwen3tts.cli.options import Configs

    options = {p.name: None for p in main.params if p.expose_value}
    configs = Configs.from_click(options)
    taken = [f"{part.name}.{f.name}" if is_dataclass(value) else part.name
             for part in fields(configs) for value in [getattr(configs, part.name)]
             for f in (fields(value) if is_dataclass(value) else [part])]
    assert sorted(name.split(".")[-1] for name in taken) == sorted(options), taken


def test_the_command_lines_jobs_take_configs_not_long_argument_lists():
    """Issue 51: `cli/speak.py`'s `speak` took 9 required parameters, `_whole` and `_streamed` 8; a job's functions
    take its config objects (`cli.options`), so no function of the command line takes more than 5."""
    long = []
    for path in (PACKAGE / "cli").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                count = len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
                count -= bool(args.args) and args.args[0].arg in ("self", "cls")
                if count > 5:
                    long.append(f"cli/{path.name}:{node.lineno} {node.name} ({count})")
    assert not long, long


def _parameter_counts(fn) -> tuple:
    """(required, all) parameters of a function node, `self`/`cls` not counted (a keyword-only one without a
    default is required)."""
    a = fn.args
    positional = a.posonlyargs + a.args
    names = [p.arg for p in positional + a.kwonlyargs]
    skip = 1 if names and names[0] in ("self", "cls") else 0
    required = len(positional) - skip - len(a.defaults) + sum(d is None for d in a.kw_defaults)
    return required, len(names) - skip


def test_no_function_takes_more_than_6_required_or_12_parameters():
    over = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                required, total = _parameter_counts(node)
                if required > 6 or total > 12:
                    over.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({required} required, {total})")
    assert not over, over


def test_the_parameter_count_sees_keyword_only_and_self():
    fn = ast.parse("def f(self, a, b=1, *, c, d=2): pass").body[0]
    assert _parameter_counts(fn) == (2, 4)
