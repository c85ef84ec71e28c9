"""Loading a checkpoint in the released layout (local folder or Hugging Face repo id).

Layout: config.json, generation_config.json, model.safetensors (or shards + index), the text
tokenizer (vocab.json + merges.txt + tokenizer_config.json, or tokenizer.json) and
speech_tokenizer/{config.json, model.safetensors}. Loading is strict: a missing or unexpected
weight is an error naming it. Quantized layers are recognised by their `.scales` weights.
"""

import json
import os
from pathlib import Path
from typing import Optional

import mlx.core as mx
import mlx.nn as nn
from mlx.utils import tree_flatten

from .config import RELEASED, ModelConfig
from ..errors import ModelLoadError

REQUIRED = ("config.json", "speech_tokenizer/config.json", "speech_tokenizer/model.safetensors")
HUB_PATTERNS = ["*.json", "*.safetensors", "*.txt", "speech_tokenizer/*", "*.model"]


def resolve(path_or_repo: str, released=RELEASED) -> Path:
    """A local folder as is; otherwise a hub repo id, downloaded once into the hub cache; `released`:
    the ids an offline miss names as the ones to give."""
    if not isinstance(path_or_repo, (str, os.PathLike)) or not os.fspath(path_or_repo):
        raise ModelLoadError(f"give a model folder or a Hugging Face repo id 'owner/name', got {path_or_repo!r}")
    path_or_repo = os.fspath(path_or_repo)
    path = Path(path_or_repo).expanduser()
    if path.exists():
        if not path.is_dir():
            raise ModelLoadError(f"model path {path} is a file; give the checkpoint folder")
        return path
    if path_or_repo.startswith((".", "/", "~")) or path_or_repo.count("/") != 1:
        raise ModelLoadError(f"model folder {path_or_repo} does not exist (nor is it a hub id 'owner/name')")
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError, RepositoryNotFoundError

    try:
        return Path(snapshot_download(path_or_repo, allow_patterns=HUB_PATTERNS))
    except RepositoryNotFoundError:
        raise ModelLoadError(f"no model repository '{path_or_repo}' on the Hugging Face hub") from None
    except LocalEntryNotFoundError:
        raise ModelLoadError(_not_cached(path_or_repo, released)) from None
    except (HfHubHTTPError, OSError) as e:
        raise ModelLoadError(f"could not download '{path_or_repo}': {e}") from None


def _not_cached(repo: str, released=RELEASED) -> str:
    """Offline and not downloaded: what to give instead, in words that fit the CLI and Python alike."""
    if repo in released:
        return (f"model '{repo}' is not in the local cache and the hub cannot be reached; connect once to "
                "download it, or give the path of a local model folder instead")
    return (f"model '{repo}' is not in the local cache and the hub cannot be reached (nor is it a released "
            f"model: {', '.join(released)}); give one of those ids or the path of a local model folder")


def read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelLoadError(f"{path} is missing") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ModelLoadError(f"{path} is not valid JSON ({e}); the download may be truncated") from None


def safetensors_files(folder: Path) -> list:
    index = folder / "model.safetensors.index.json"
    if index.exists():
        files = [folder / n for n in sorted(set(read_json(index).get("weight_map", {}).values()))]
    else:
        files = sorted(folder.glob("model*.safetensors"))
    if not files:
        raise ModelLoadError(f"{folder / 'model.safetensors'} is missing")
    for f in files:
        if not f.exists():
            raise ModelLoadError(f"{f} is missing (listed in {index.name})")
    return files


def safetensors_info(path) -> tuple:
    """(metadata, {name: dtype}) of a safetensors file; the library checks that it is complete."""
    from safetensors import safe_open

    try:
        with safe_open(str(path), framework="numpy") as f:
            return f.metadata() or {}, {k: f.get_slice(k).get_dtype() for k in f.keys()}
    except Exception as e:  # SafetensorError for a bad header or a short file, OSError
        raise ModelLoadError(f"{path} is truncated or not a safetensors file ({e})") from None


def load_weights(files) -> dict:
    weights = {}
    for f in files:
        try:
            weights.update(mx.load(str(f)))
        except Exception as e:  # mlx raises RuntimeError/ValueError with low-level text
            raise ModelLoadError(f"{f} is truncated or not a safetensors file ({e})") from None
    return weights


def apply_weights(module: nn.Module, weights: dict, what: str, quantization: Optional[dict] = None):
    """Quantize where the weights say so, then load strictly with a message naming the culprits."""
    if quantization:
        nn.quantize(module, quantization["group_size"], quantization["bits"], mode=quantization.get("mode", "affine"),
                    class_predicate=lambda p, m: f"{p}.scales" in weights and _layer_bits(quantization, p))
    expected = {k for k, _ in tree_flatten(module.parameters())}
    detail = [f"{name} {_few(sorted(keys))}" for name, keys in
              (("missing", expected - weights.keys()), ("unexpected", weights.keys() - expected)) if keys]
    if detail:
        raise ModelLoadError(f"{what} does not match the model: " + "; ".join(detail))
    try:
        module.load_weights(list(weights.items()), strict=True)
    except ValueError as e:  # shape mismatches: the config does not describe these weights
        raise ModelLoadError(f"{what} does not match its config.json: {e}") from None


def _layer_bits(quantization: dict, path: str):
    override = quantization.get(path)
    if isinstance(override, dict):
        return {k: override[k] for k in ("group_size", "bits", "mode") if k in override}
    return override is not False


def _few(keys, n=5):
    shown = ", ".join(keys[:n])
    return shown + (f" and {len(keys) - n} more" if len(keys) > n else "")


def load_config(folder: Path) -> ModelConfig:
    # config.json first: a folder of another model is named as such, not as an incomplete one.
    path = folder / "config.json"
    if not path.exists():
        raise ModelLoadError(f"{path} is missing: {folder} is not a complete Qwen3-TTS model folder")
    params = read_json(path)
    if not isinstance(params, dict):
        raise ModelLoadError(f"{path} is not a model config (a JSON object was expected)")
    config = ModelConfig.from_json_dict(params, str(path))
    for name in REQUIRED:
        if not (folder / name).exists():
            raise ModelLoadError(f"{folder / name} is missing: the model folder is incomplete")
    return config
