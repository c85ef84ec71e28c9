"""The README and the pages in docs/ say only what works: their commands and Python run as written,
and their relative links lead somewhere.

Commands: each page's ```sh blocks run in order (continuation lines joined, `&&` chains split) from the
repository's root (a fresh scratch copy of it, so that what they write stays there) holding the recording
`me.wav` (a recording of speech, the cloning fixture's) that the pages assume, with the hub ids
they name served from a local hub cache holding the tiny checkpoints of the same variants
(HF_HUB_OFFLINE=1). What needs the network, a server, a sound device, the reference implementation's
environment or a benchmark run is skipped by program (SKIP says why for each), and the test fails
when a command turns up that it does not know to skip. Every file a command names as its output must
be there afterwards. Python: each ```python block runs as pasted, in a fresh interpreter in that
copy of the root after its commands, except a client of a running server (the server tests run those
against a real one). Links: a relative link must name a file of the repository, and its `#anchor` a
heading of that file as GitHub makes its id."""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import soundfile as sf

from fixture_checkpoints import aligner_dir, asr_dir, checkpoint_dir

REPO = Path(__file__).resolve().parent.parent
PAGES = ["README.md"] + sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md"))
RUN = ("mlx_qwen3tts.generate", "mlx_qwen3tts.convert")
RUN_SHELL = ("printf", "echo")  # they make a page's input files in its scratch folder
SKIP = {
    "pip": "installs packages", "python3": "makes a virtual environment", ".": "activates it",
    "curl": "a client of a running server (tests/test_server.py runs those)",
    "huggingface-cli": "downloads a model on a machine with the network",
    "mlx_qwen3tts.server": "a server (tests/test_server*.py and tests/test_wyoming.py start real ones)",
    "haproxy": "a load balancer (docs/scaling.md's own test runs it)",
    "llm": "an LLM from the network", "git": "the repository's history", "hyperfine": "a benchmark",
    "$B": "a benchmark", "(cd": "a benchmark of an old commit",
    "cd": "the reference implementation's environment (docs/fidelity.md)",
    "$REF_PY": "the reference implementation's environment (docs/fidelity.md)",
    "$MLX_AUDIO_PYTHON": "installs mlx-audio, a benchmark's peer, into its own environment",
}
SKIP_PYTHON = {"-m pip": "installs packages", "-m build": "builds the wheel (tests/test_install.py builds one)", "-m pytest": "the test suite itself", "-m benchmarks": "a benchmark",
               "benchmarks/": "a benchmark", "convert/": "the maintainers' release scripts (released weights)"}
SERVER_CLIENT = ("http://127.0.0.1", "ws://127.0.0.1")  # Python blocks that talk to a running server
OUTPUT_FLAGS = ("-o", "--output", "--codes-output", "--save-voice", "--captions", "--read-along", ">")
VARIANTS = {"0.6B-CustomVoice": "custom_voice-0b6", "1.7B-CustomVoice": "custom_voice-1b7", "0.6B-Base": "base-0b6",
            "1.7B-Base": "base-1b7", "1.7B-VoiceDesign": "voice_design-1b7"}
DEFAULT_MODEL = "Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice"  # what a command without --model loads
ROOT_COPIED = ("README.md", "docs", "examples", "benchmarks", "convert")  # the package comes from PYTHONPATH
FENCE = re.compile(r"^ *```(\w*)\n(.*?)^ *```", re.M | re.S)


def page_text(page: str) -> str:
    return (REPO / page).read_text(encoding="utf-8")


def blocks(text: str, language: str) -> list:
    return [body for lang, body in FENCE.findall(text) if lang == language]


def commands(text: str) -> list:
    """Each command of the ```sh blocks, continuation lines joined, `&&` chains split."""
    found = []
    for block in blocks(text, "sh"):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):  # a chain is split unless a $(...) holds part of it
                found += [line] if "$(" in line else [part.strip() for part in line.split(" && ")]
    return found


def runnable(command: str) -> bool:
    words = shlex.split(command, comments=True)
    program = words[0]
    if program in RUN:
        return "--play" not in words  # a sound device
    if program in RUN_SHELL:
        return True
    if program == "python":
        return not any(skip in command for skip in SKIP_PYTHON)
    assert program in SKIP or "=" in program, f"command not known to this test: {command}"
    return False  # "=": a variable for a skipped benchmark or reference run


def named_outputs(command: str, work: Path) -> list:
    """The files a command says it writes: what follows an output flag (not stdout), each numbered
    output of a --batch-file."""
    words = shlex.split(command, comments=True)
    outputs = [words[i + 1] for i, word in enumerate(words[:-1]) if word in OUTPUT_FLAGS and words[i + 1] != "-"]
    if "--batch-file" in words and words[0] in RUN:
        lines = (work / words[words.index("--batch-file") + 1]).read_text(encoding="utf-8").splitlines()
        numbers = [n for n, line in enumerate(lines, 1) if line.strip()]
        out = Path(outputs.pop(outputs.index(words[words.index("--output") + 1])))
        outputs += [f"{out.stem}_{n:0{len(str(len(lines)))}d}{out.suffix}" for n in numbers]
    if "--split-chapters" in words:  # one file per chapter, named in order with its title
        outputs = [f"{Path(o).stem}_01_*{Path(o).suffix}" for o in outputs]
    if words[0] == "mlx_qwen3tts.convert" and "--output" in words:  # its --output is a folder
        outputs = [f"{words[words.index('--output') + 1]}/config.json"]
    return outputs


def hub_cache(root: Path, text: str, tiny_root) -> Path:
    """A Hugging Face cache serving each `Qwen/Qwen3-TTS-12Hz-*` id in `text` from a tiny checkpoint,
    Qwen/Qwen3-ForcedAligner-0.6B (the aligner's default) from the tiny aligner and Qwen/Qwen3-ASR-0.6B (the
    recognizer's) from the tiny Qwen3-ASR."""
    folders = {f"Qwen3-TTS-12Hz-{size_kind}": checkpoint_dir(VARIANTS[size_kind], tiny_root)
               for size_kind in sorted(set(re.findall(r"Qwen/Qwen3-TTS-12Hz-([\w.-]+)", text)))}
    folders["Qwen3-ForcedAligner-0.6B"] = aligner_dir(Path(tiny_root))
    folders["Qwen3-ASR-0.6B"] = asr_dir(Path(tiny_root))  # --asr's and asr='s default
    for name, folder in folders.items():
        repo = root / "hub" / f"models--Qwen--{name}"
        commit = "0" * 40
        shutil.copytree(folder, repo / "snapshots" / commit, ignore=shutil.ignore_patterns(".complete"))
        (repo / "refs").mkdir()
        (repo / "refs" / "main").write_text(commit)
    return root


@pytest.fixture(scope="module")
def hub_env(tmp_path_factory):
    everything = " ".join(page_text(page) for page in PAGES) + " " + DEFAULT_MODEL
    hf = hub_cache(tmp_path_factory.mktemp("hf"), everything, tmp_path_factory.getbasetemp())
    env = dict(os.environ, HF_HOME=str(hf), HF_HUB_OFFLINE="1", PYTHONPATH=str(REPO),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    env.pop("HF_HUB_CACHE", None)
    return env


def scratch_folder(tmp_path: Path) -> Path:
    """A copy of the repository's root (its pages, examples and scripts: a command names them as from there),
    with the recording `me.wav` the pages assume."""
    work = tmp_path / "work"
    work.mkdir()
    for name in ROOT_COPIED:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(REPO / name, work / name)
    shutil.copy(REPO / "tests" / "fixtures" / "clone" / "ref_16k.wav", work / "me.wav")  # the pages' me.wav: speech
    return work


def test_the_readme_shows_what_a_newcomer_runs_first():
    text = page_text("README.md")
    assert len(text.splitlines()) <= 260
    first_screen = "\n".join(text.splitlines()[:90])
    for shown in ('mlx_qwen3tts.generate --text "Hello"', "--ref-audio me.wav", "mlx_qwen3tts.server",
                  "```python", "mlx_qwen3tts.load("):
        assert shown in first_screen, shown
    found = commands(text)
    assert any("--bits 4 --recipe talker4-cp8" in c for c in found)
    assert any("--save-voice me.safetensors" in c for c in found)
    assert len(blocks(text, "python")) >= 1


@pytest.mark.parametrize("page", PAGES)
def test_no_command_names_a_folder_of_one_machine(page):
    """A newcomer has no /work/venvs/...: what a command needs is made by the page's own commands."""
    for command in commands(page_text(page)):
        assert not re.search(r"(?<![\w.~$])/(work|home|Users|opt|root)/", command), f"{page}: {command}"


def test_the_readme_says_how_long_the_tests_take():
    run_the_tests = page_text("README.md").split("## Run the tests", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"about \d+ minutes on two CPU cores", run_the_tests), run_the_tests


@pytest.mark.parametrize("page", PAGES)
def test_the_commands_and_python_of_a_page_run_as_written(page, hub_env, tmp_path):
    text = page_text(page)
    work = scratch_folder(tmp_path)
    for command in filter(runnable, commands(text)):
        result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=hub_env, capture_output=True,
                                text=True, timeout=600)
        assert result.returncode == 0, f"{page}: {command}\n{result.stderr[-2000:]}"
        assert "Traceback" not in result.stderr and "error:" not in result.stderr, f"{page}: {command}\n{result.stderr}"
        for pattern in named_outputs(command, work):
            made = next(iter(sorted(work.glob(pattern))), work / pattern)
            assert made.is_file() and made.stat().st_size > 0, f"{page}: {command}: no {pattern}"
            if made.suffix in (".wav", ".flac", ".mp3", ".ogg"):
                assert sf.info(made).samplerate == 24000 and sf.info(made).frames > 0, made
    for code in blocks(text, "python"):
        if any(address in code for address in SERVER_CLIENT):
            continue
        before = {p: p.stat().st_mtime_ns for p in work.iterdir()}
        result = subprocess.run([sys.executable, "-"], input=code, cwd=work, env=hub_env, capture_output=True,
                                text=True, timeout=600)
        assert result.returncode == 0 and "Traceback" not in result.stderr, f"{page}:\n{code}\n{result.stderr[-3000:]}"
        written = [p for p in work.iterdir() if p.suffix in (".wav", ".flac") and before.get(p) != p.stat().st_mtime_ns]
        assert written or page != "README.md", "the README's Python writes no audio"
        for path in written:
            assert sf.info(path).samplerate == 24000 and sf.info(path).frames > 0, f"{page}: {path.name}"


# Links --------------------------------------------------------------------------------------------

INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def prose(text: str) -> str:
    """The text outside code: fenced blocks and inline code spans removed."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: its visible text, lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    text = re.sub(r"(\*\*|__|\*)", "", text)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set:
    found, seen = set(), {}
    for heading in re.findall(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", FENCE.sub("", path.read_text(encoding="utf-8")), re.M):
        base = github_anchor(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    found.update(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", path.read_text(encoding="utf-8")))
    return found


def relative_links(page: str) -> list:
    return [target for target in LINK.findall(prose(page_text(page)))
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("/")]


def resolve(page: str, target: str):
    path, _, anchor = target.partition("#")
    file = (REPO / page).parent / path if path else REPO / page
    return file.resolve(), anchor


@pytest.mark.parametrize("page", PAGES)
def test_relative_links_resolve(page):
    broken = []
    for target in relative_links(page):
        file, anchor = resolve(page, target)
        name = str(file.relative_to(REPO)) if file.is_relative_to(REPO) else str(file)
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            broken.append(f"{target}: no heading #{anchor} in {name}")
    assert not broken, f"{page}: " + "; ".join(broken)


def test_the_checks_see_links_and_anchors():
    assert github_anchor("Platforms (Metal, CPU, CUDA)") == "platforms-metal-cpu-cuda"
    assert github_anchor("Command line: `mlx_qwen3tts.generate`") == "command-line-mlx_qwen3ttsgenerate"  # dots dropped
    assert github_anchor("Engine (concurrent streams)") == "engine-concurrent-streams"
    assert "engine-concurrent-streams" in anchors(REPO / "docs/benchmarks.md")
    assert "engine" not in anchors(REPO / "docs/benchmarks.md") and "usage" not in anchors(REPO / "README.md")
    assert relative_links("README.md") and "docs/cli.md" in relative_links("README.md")


def test_every_page_is_reached_from_the_readme_and_leads_back():
    readme = {str(resolve("README.md", t)[0].relative_to(REPO)) for t in relative_links("README.md")}
    for page in PAGES[1:]:
        assert page in readme, f"README.md does not link {page}"
        back = {str(resolve(page, t)[0].relative_to(REPO)) for t in relative_links(page)}
        assert "README.md" in back, f"{page} does not link back to README.md"

