"""Convert a Qwen3-TTS checkpoint to an MLX folder: cast, quantize by recipe, shard, write a card.

`mlx_qwen3tts.convert --model Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice --output qwen3tts-4bit --bits 4`
(also `python -m mlx_qwen3tts.convert`, and `convert(model, output, ...)` from Python with the
options as keyword arguments).

The output has the layout of the mlx-community conversions (see layouts.py) plus a README card:
weight surgery happens here once, so loading the folder renames and transposes nothing.

Recipes (bits per component; components not named stay in --dtype):
- uniform      every Linear of talker and code predictor, and the text embedding, at --bits
- linear-only  every Linear at --bits, embeddings kept: the coverage of the mlx-community repos,
               which mlx-audio's loader expects
- talker4-cp8  talker 4-bit (text embedding included); code predictor and the output heads
               (codec_head, lm_head.*) 8-bit
- all8         every Linear and every embedding of talker and code predictor at 8-bit
The text embedding (151936 x 2048) is a third of the 0.6B weights: only a recipe that quantizes it
reaches a third of the bf16 size. The codec and the speaker encoder are never quantized.
"""

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional

import click

from . import __version__
from .cli.console import OneLineErrors, cli_errors
from .errors import ConversionError, InputError, ModelLoadError
from .outputs import new_folder_mode

DTYPES = ("bfloat16", "float16", "float32")
BITS = (4, 6, 8)
GROUP_SIZES = (32, 64, 128)
COMPONENT_NAMES = {  # the recipes' components, as the model card names them
    "talker": "talker transformer and text projection",
    "text_embedding": "text embedding",
    "codec_embedding": "codec embeddings (talker and code predictor)",
    "code_predictor": "code predictor transformer",
    "heads": "output heads (codec_head, code predictor lm_head.*)",
}
BITS_RECIPES = {  # the components quantized at --bits
    "uniform": ("talker", "text_embedding", "code_predictor", "heads"),
    "linear-only": ("talker", "code_predictor", "heads"),
}
FIXED_RECIPES = {
    "talker4-cp8": {"talker": 4, "text_embedding": 4, "code_predictor": 8, "heads": 8},
    "all8": dict.fromkeys(COMPONENT_NAMES, 8),
}
RECIPES = (*BITS_RECIPES, *FIXED_RECIPES)
SUPPORT_SUFFIXES = (".json", ".txt", ".model", ".tiktoken", ".jinja")
SHARD_GB = 5.0


def component(path: str) -> Optional[str]:
    """Which recipe component a module belongs to, by its checkpoint name; None: never quantized."""
    if path.startswith("talker.code_predictor."):
        rest = path[len("talker.code_predictor.") :]
        if rest.startswith("lm_head."):
            return "heads"
        return "codec_embedding" if rest.startswith("model.codec_embedding.") else "code_predictor"
    if path == "talker.codec_head":
        return "heads"
    if path in ("talker.model.text_embedding", "talker.model.codec_embedding"):
        return path.rsplit(".", 1)[1]
    return "talker" if path.startswith("talker.") else None


def recipe_bits(recipe: Optional[str], bits: Optional[int]) -> dict:
    """{component: bits} for the options; {} means no quantization. Raises InputError on bad input."""
    if recipe is None and bits is None:
        return {}
    recipe = recipe or "uniform"
    if recipe not in RECIPES:
        raise InputError(f"unknown recipe '{recipe}'; choose one of: {', '.join(RECIPES)}", field="recipe")
    if recipe in FIXED_RECIPES:
        fixed = FIXED_RECIPES[recipe]
        # bits may name the talker's bits (the bulk of the weights): `--bits 4 --recipe talker4-cp8` reads right.
        if bits is not None and bits != fixed["talker"]:
            raise InputError(f"recipe {recipe} quantizes the talker at {fixed['talker']} bits, not {bits}; "
                             f"leave out {{bits}} or give {{bits}} {fixed['talker']}", field="bits")
        return dict(fixed)
    bits = 4 if bits is None else bits
    if bits not in BITS:
        raise InputError(f"{{bits}} must be one of {', '.join(map(str, BITS))}, got {bits}", field="bits")
    return dict.fromkeys(BITS_RECIPES[recipe], bits)


def quantization_plan(model, per_component: dict, group_size: int) -> dict:
    """{module path: bits} of the layers to quantize. Like mlx-lm, a layer whose input width does not
    divide by the group size stays unquantized."""
    plan = {}
    for path, module in model.named_modules():
        bits = per_component.get(component(path))
        if bits and hasattr(module, "to_quantized") and module.weight.shape[-1] % group_size == 0:
            plan[path] = bits
    return plan


def stored_bytes(model, plan: dict, group_size: int, itemsize: int = 2) -> int:
    """Bytes the model's weights take once converted, computed from shapes alone (the model may be
    lazy, never evaluated): packed weights plus one scale and one bias per group."""
    from mlx.utils import tree_flatten

    total = 0
    for key, value in tree_flatten(model.parameters()):
        layer, name = key.rsplit(".", 1)
        if name == "weight" and layer in plan:
            total += value.size * plan[layer] // 8 + 2 * (value.size // group_size) * itemsize
        else:
            total += value.size * itemsize
    return total


def quantization_entry(plan: dict, per_component: dict, group_size: int) -> dict:
    """config.json "quantization" in mlx-lm's convention: defaults plus per-layer overrides."""
    main = per_component.get("talker") or max(per_component.values())
    entry = {"group_size": group_size, "bits": main, "mode": "affine"}
    return entry | {path: dict(entry, bits=bits) for path, bits in sorted(plan.items()) if bits != main}


def convert(model: str, output: str, *, dtype: str = "bfloat16", bits: Optional[int] = None, group_size: int = 64,
            recipe: Optional[str] = None, force: bool = False, upload_repo: Optional[str] = None,
            max_shard_size_gb: float = SHARD_GB) -> Path:
    """Convert `model` (hub id or local folder, released or MLX layout, unquantized) into `output`.

    Quantizes when `bits` or `recipe` is given (`bits` alone means the uniform recipe). The folder is
    built beside `output` and renamed into place at the end: a failure leaves nothing behind. An
    existing `output` is refused unless `force`. Returns the output folder.
    """
    from .model.checkpoint import load_config, read_json, resolve

    if dtype not in DTYPES:
        raise InputError(f"{{dtype}} must be one of {', '.join(DTYPES)}, got '{dtype}'", field="dtype")
    if group_size not in GROUP_SIZES:
        raise InputError(f"{{group_size}} must be one of {', '.join(map(str, GROUP_SIZES))}, got {group_size}",
                         field="group_size")
    per_component = recipe_bits(recipe, bits)
    if max_shard_size_gb <= 0:
        raise InputError(f"{{max_shard_size_gb}} must be positive, got {max_shard_size_gb}",
                         field="max_shard_size_gb")
    output = Path(output).expanduser().absolute()
    source = resolve(model)
    _check_output(output, source, force)
    raw_config = read_json(source / "config.json") if (source / "config.json").exists() else {}
    asr = is_asr(raw_config)
    config = None if asr else load_config(source)
    if raw_config.get("quantization") or config is not None and config.quantization:
        raise ModelLoadError(f"{source} is already quantized; convert from its float checkpoint")

    if asr:
        weights, plan = _convert_asr_weights(source, dtype=dtype, per_component=per_component, recipe=recipe,
                                             group_size=group_size)
    else:
        weights, plan = _convert_weights(source, config, dtype=dtype, per_component=per_component,
                                         group_size=group_size)
    tmp = _partial_folder(output)
    try:
        save_shards(tmp, weights, int(max_shard_size_gb * (1 << 30)))
        del weights
        entry = quantization_entry(plan, per_component, group_size) if plan else None
        _write_json(tmp / "config.json", output_config(raw_config, dtype, recipe, entry))
        _copy_support_files(source, tmp)
        name = upload_repo.split("/")[-1] if upload_repo else default_name(model, dtype, recipe, per_component)
        if asr:
            (tmp / "README.md").write_text(asr_model_card(name, model, dtype=dtype, group_size=group_size,
                                                          per_component=per_component, upload_repo=upload_repo))
        else:
            _copy_codec(source / "speech_tokenizer", tmp / "speech_tokenizer")
            (tmp / "README.md").write_text(model_card(name, model, dtype=dtype, group_size=group_size,
                                                      per_component=per_component, plan=plan,
                                                      upload_repo=upload_repo))
        _move_into_place(tmp, output, force)
    except OSError as e:
        raise ConversionError(f"could not write {output}: {e}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if upload_repo:
        upload(output, upload_repo)
    return output


def _partial_folder(output: Path) -> Path:
    """An empty folder beside `output`, to be renamed to it when complete."""
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{output.name}.", suffix=".partial", dir=output.parent))
        os.chmod(tmp, new_folder_mode())  # mkdtemp makes drwx------; the result is an ordinary folder
    except OSError as e:
        raise ConversionError(f"cannot write into {output.parent}: {e}") from None
    return tmp


def _check_output(output: Path, source: Path, force: bool):
    if not output.parent.is_dir():
        raise ConversionError(f"cannot create {output}: folder {output.parent} does not exist")
    if output.exists() or output.is_symlink():
        if not force:
            raise ConversionError(f"output {output} exists; choose another folder or pass {{force}} to replace it",
                                  ["force"])
        if not output.is_dir() or output.is_symlink():
            raise ConversionError(f"output {output} is not a folder; {{force}} only replaces folders", ["force"])
    if source.resolve().is_relative_to(output.resolve()):
        raise ConversionError(f"output {output} would overwrite the source {source}")


def _convert_weights(source: Path, config, *, dtype: str, per_component: dict, group_size: int):
    import mlx.core as mx
    import mlx.nn as nn
    from mlx.utils import tree_flatten

    from .model.layouts import load_model

    qwen = load_model(source, config, getattr(mx, dtype))
    plan = quantization_plan(qwen, per_component, group_size)
    nn.quantize(qwen, class_predicate=lambda p, m: p in plan and {"group_size": group_size, "bits": plan[p]})
    out = dict(tree_flatten(qwen.parameters()))
    mx.eval(out)
    return out, plan


def is_asr(raw_config: dict) -> bool:
    """A Qwen3-ASR checkpoint (not its forced aligner, whose thinker has a timestamp head)."""
    thinker = raw_config.get("thinker_config") if isinstance(raw_config, dict) else None
    return raw_config.get("model_type") == "qwen3_asr" and isinstance(thinker, dict) \
        and "classify_num" not in thinker and "timestamp_token_id" not in raw_config


def _convert_asr_weights(source: Path, *, dtype: str, per_component: dict, recipe: Optional[str],
                         group_size: int):
    """Qwen3-ASR: the thinker cast to `dtype`; with bits, its decoder quantized as `asr.quantizable` says (the
    Linear layers and the head; the token embedding too unless linear-only). The audio encoder stays dense."""
    import mlx.core as mx
    import mlx.nn as nn
    from mlx.utils import tree_flatten

    from . import asr

    if recipe in FIXED_RECIPES:
        raise InputError(f"recipe {recipe} is for Qwen3-TTS; a Qwen3-ASR model takes {{bits}} with the uniform or "
                         "linear-only recipe", field="recipe", others=["bits"])
    thinker = asr.load(str(source), dtype=getattr(mx, dtype)).thinker
    bits = per_component.get("talker")
    plan = {}
    if bits:
        embeddings = "text_embedding" in per_component
        plan = {p: bits for p, m in thinker.named_modules() if asr.quantizable(p, m, group_size)
                and (embeddings or not isinstance(m, nn.Embedding))}
        if not plan:
            raise InputError(f"{{group_size}} {group_size} divides none of the decoder's widths", field="group_size")
        nn.quantize(thinker, group_size, bits, class_predicate=lambda p, m: p in plan)
    out = {f"thinker.{k}": v for k, v in tree_flatten(thinker.parameters())}
    mx.eval(out)
    return out, {f"thinker.{p}": b for p, b in plan.items()}


def asr_model_card(name: str, source: str, *, dtype: str, group_size: int, per_component: dict,
                   upload_repo: Optional[str] = None) -> str:
    """README.md of a converted Qwen3-ASR: what is stored how, and how to load it."""
    from . import __version__

    hub_source = not Path(source).expanduser().exists() and source.count("/") == 1
    origin = f"[{source}](https://huggingface.co/{source})" if hub_source else f"`{Path(source).name}`"
    bits = per_component.get("talker")
    quantized = f"{bits}-bit affine, group size {group_size}" if bits else dtype
    embedding = quantized if "text_embedding" in per_component else dtype
    front = ["---", "library_name: mlx", "license: apache-2.0", "pipeline_tag: automatic-speech-recognition"]
    if hub_source:
        front.append(f"base_model: {source}")
    front += ["tags:", "- mlx", "- mlx-qwen3tts", "- qwen3-asr", "---", ""]
    body = [
        f"# {name}", "", f"Qwen3-ASR converted from {origin} with mlx-qwen3tts {__version__}.", "",
        "| component | stored as |", "|---|---|", f"| decoder layers and head | {quantized} |",
        f"| token embedding | {embedding} |", f"| audio encoder | {dtype} |", "",
        "```python", "from mlx_qwen3tts import asr",
        f'model = asr.load("{upload_repo or "path/to/this/folder"}")', "print(model.transcribe(audio, 16000).text)",
        "```", "",
    ]
    return "\n".join(front + body)


def save_shards(folder: Path, weights: dict, max_bytes: int):
    """Sorted keys packed into shards of at most `max_bytes` (a larger tensor gets its own), named as
    mlx-lm names them, plus the index. Sorted order makes the files byte-stable. Split by huggingface_hub:
    mlx-lm's `make_shards` takes whole gigabytes only."""
    from huggingface_hub import split_state_dict_into_shards_factory

    split = split_state_dict_into_shards_factory(dict(sorted(weights.items())), get_storage_size=lambda v: v.nbytes,
                                                 filename_pattern="model{suffix}.safetensors", max_shard_size=max_bytes)
    for name, keys in split.filename_to_tensors.items():
        write_safetensors(folder / name, {k: weights[k] for k in keys})
    _write_json(folder / "model.safetensors.index.json",
                {"metadata": split.metadata, "weight_map": dict(sorted(split.tensor_to_filename.items()))})


def write_safetensors(path: Path, tensors: dict, metadata: Optional[dict] = None):
    """mx.save_safetensors, checked: its writer may not report a full disk, so the file is read back
    with the safetensors library, which refuses one shorter than its header announces."""
    import mlx.core as mx

    from .model.checkpoint import safetensors_info

    try:
        mx.save_safetensors(str(path), tensors, metadata=metadata or {"format": "mlx"})
    except RuntimeError as e:
        raise OSError(f"writing {path.name} failed ({e})") from None
    try:
        safetensors_info(path)
    except ModelLoadError:
        raise OSError(f"{path.name} was written short (is the disk full?)") from None


def output_config(raw: dict, dtype: str, recipe: Optional[str], quantization: Optional[dict]) -> dict:
    from . import __version__

    config = {k: v for k, v in raw.items() if k not in ("_name_or_path", "quantization", "quantization_config")}
    if "torch_dtype" in config:
        config["torch_dtype"] = dtype
    if quantization:
        config["quantization"] = quantization
        config["quantization_config"] = quantization
    recipe = recipe or ("uniform" if quantization else None)
    config["mlx_qwen3tts"] = {"version": __version__, "dtype": dtype, "recipe": recipe}
    return dict(sorted(config.items()))


def _write_json(path: Path, data: dict):
    path.write_text(json.dumps(data, indent=4, ensure_ascii=False) + "\n", encoding="utf-8")


def _copy_support_files(source: Path, dest: Path):
    for path in sorted(source.iterdir()):
        written_here = path.name == "config.json" or path.name.endswith(".index.json")
        if path.is_file() and path.suffix in SUPPORT_SUFFIXES and not written_here:
            shutil.copyfile(path, dest / path.name)


def _copy_codec(source: Path, dest: Path):
    """speech_tokenizer/ as released; any floating tensor not in float32 is brought back to float32."""
    import mlx.core as mx

    from .model.checkpoint import safetensors_info

    dest.mkdir()
    for path in sorted(p for p in source.iterdir() if p.is_file()):
        metadata, dtypes = safetensors_info(path) if path.suffix == ".safetensors" else ({}, {})
        if set(dtypes.values()) <= {"F32", "I64", "I32", "BOOL", "U8"}:
            shutil.copyfile(path, dest / path.name)
            continue
        tensors = sorted(mx.load(str(path)).items())
        tensors = {k: v.astype(mx.float32) if mx.issubdtype(v.dtype, mx.floating) else v for k, v in tensors}
        write_safetensors(dest / path.name, tensors, metadata)


def _move_into_place(tmp: Path, output: Path, force: bool):
    """Rename the finished folder to `output`; with force, the old one is removed only afterwards."""
    if not (force and output.exists()):
        os.rename(tmp, output)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{output.name}.", suffix=".old", dir=output.parent)) / output.name
    os.replace(output, old)
    try:
        os.rename(tmp, output)
    except BaseException:
        os.replace(old, output)
        raise
    finally:
        shutil.rmtree(old.parent, ignore_errors=True)


def default_name(model: str, dtype: str, recipe: Optional[str], per_component: dict) -> str:
    base = model.rstrip("/").split("/")[-1]
    if not per_component:
        return f"{base}-{dtype}"
    if recipe in FIXED_RECIPES:
        return f"{base}-{recipe}"
    suffix = "-linear" if recipe == "linear-only" else ""
    return f"{base}-{per_component['talker']}bit{suffix}"


def model_card(name: str, source: str, *, dtype: str, group_size: int, per_component: dict, plan: dict,
               upload_repo: Optional[str] = None) -> str:
    """README.md: front matter for the hub, what is stored how, and how to run it. Depends only on
    the options and the source name, so converting twice gives the same file."""
    from . import __version__

    hub_source = not Path(source).expanduser().exists() and source.count("/") == 1
    origin = f"[{source}](https://huggingface.co/{source})" if hub_source else f"`{Path(source).name}`"
    stored = {component(path): f"{bits}-bit affine, group size {group_size}" for path, bits in plan.items()}
    rows = [f"| {label} | {stored.get(comp, dtype)} |" for comp, label in COMPONENT_NAMES.items()]
    front = ["---", "library_name: mlx", "license: apache-2.0", "pipeline_tag: text-to-speech"]
    if hub_source:
        front.append(f"base_model: {source}")
    front += ["tags:", "- mlx", "- mlx-qwen3tts", "- qwen3-tts", "- text-to-speech", "---", ""]
    model_ref = upload_repo or "path/to/this/folder"
    body = [
        f"# {name}",
        "",
        f"Qwen3-TTS (12 Hz) converted from {origin} with mlx-qwen3tts {__version__}.",
        "",
        "| component | stored as |",
        "|---|---|",
        *rows,
        f"| speaker encoder (Base models) | {dtype} |",
        "| speech tokenizer (codec), `speech_tokenizer/` | float32, as released |",
        "",
        "Weights are in MLX layout under the checkpoint's own names; quantized layers carry `scales` and",
        "`biases`, and config.json's `quantization` entry follows mlx-lm (per-layer overrides by module path).",
        "",
        "mlx-qwen3tts is installed from its source (no package index serves it): in a checkout of its repository",
        "`pip install -e .`, or a wheel built there with `python -m build`. Then:",
        "",
        "```bash",
        f'mlx_qwen3tts.generate --model {model_ref} --text "Hello from MLX." --output hello.wav',
        "```",
        "",
    ]
    if per_component.get("text_embedding") or per_component.get("codec_embedding"):
        body += ["This conversion quantizes embeddings. mlx-audio's Qwen3-TTS loader skips embeddings when it",
                 "quantizes, so it cannot read this folder; convert with the linear-only recipe for that.", ""]
    return "\n".join(front + body)


def upload(folder: Path, repo: str):
    """Create (or reuse) the hub repo and upload the folder."""
    try:
        from huggingface_hub import HfApi

        api = HfApi()
        api.create_repo(repo_id=repo, repo_type="model", exist_ok=True)
        api.upload_folder(folder_path=str(folder), repo_id=repo, repo_type="model")
    except Exception as e:  # hub errors come as many classes; the message is what the user needs
        raise ConversionError(f"converted {folder}, but the upload to {repo} failed: {e}") from None


@click.command(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--model", required=True, help="Source: Hugging Face repo id or local folder (unquantized).")
@click.option("--output", required=True, type=click.Path(), help="Folder to create.")
@click.option("--dtype", default="bfloat16", show_default=True, help="bfloat16, float16 or float32.")
@click.option("--bits", type=int, default=None, help="4, 6 or 8: quantize (uniform recipe unless --recipe).")
@click.option("--group-size", type=int, default=64, show_default=True, help="32, 64 or 128.")
@click.option("--recipe", default=None, help=f"Mixed precision: {', '.join(RECIPES)}.")
@click.option("--force", is_flag=True, help="Replace an existing output folder.")
@click.option("--upload-repo", default=None, help="Upload the result to this Hugging Face repo.")
@click.option("--max-shard-size", "max_shard_size_gb", type=float, default=SHARD_GB, show_default=True,
              help="Shard size in GB.")
@click.version_option(__version__, "-V", "--version", prog_name="mlx_qwen3tts.convert")
def main(**options):
    """Convert a Qwen3-TTS checkpoint to MLX, optionally quantized."""
    flags = {p.name: p.opts[0] for p in main.params}  # convert()'s arguments as this command's options
    with cli_errors(flags):
        out = convert(**options)
    click.echo(f"wrote {out}", err=True)


if __name__ == "__main__":
    main()
