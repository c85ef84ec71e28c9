"""A trained run as a CustomVoice checkpoint in the official layout.

CKPT is the base checkpoint's folder (tokenizer, generation config, speech_tokenizer/) with:
- config.json: `tts_model_type` "custom_voice", each new speaker in `talker_config.spk_id` at a free row of the
  codec embedding (the first from 3000 that no speaker, language or special id uses: upstream's row) and in
  `spk_is_dialect` (false);
- model.safetensors: the base's tensors as stored (the speaker encoder kept, in its layout), the trained talker
  tensors in their stored dtype (LoRA merged into the base's weights: W + scale * B^T A^T), and each speaker's
  vector (the dataset's mean over its clips, kept in the run) at its row;
- a LoRA run exported without `merge`: the base's talker weights, and adapters.safetensors +
  adapter_config.json, which our loader applies (mlx-lm's LoRA layers); the official package loads merged ones.
The folder is written beside CKPT and renamed into place when complete.
"""

import json
import os
import re
import shutil
from pathlib import Path

import mlx.core as mx
import numpy as np
from ..errors import InputError
from ..model.adapters import ADAPTER_CONFIG, ADAPTERS
from ..outputs import folder_in_place
from .train import LORA_KEYS, resume_options

FIRST_SPEAKER_ROW = 3000
NAME = re.compile(r"[a-z0-9][a-z0-9_\-]*")


def export(run, speaker, out, merge: bool = False) -> Path:
    """Write the CustomVoice checkpoint of run folder `run` to `out`. speaker: the new speaker's name, or
    several as "DATASET_SPEAKER=NAME" (a str or a list). ValueError (one line) for bad input, nothing written."""
    from ..model import checkpoint

    run, out = Path(run), Path(out)
    if os.path.lexists(out):
        raise InputError(f"{out} exists: export writes a new checkpoint folder; choose another {{out}}", field="out")
    if not all((run / name).exists() for name in ("state.json", "weights.safetensors", "speakers.safetensors")):
        raise ValueError(f"{run} holds no trained run (no checkpoint yet): train into it first")
    settings = resume_options(run)
    vectors = mx.load(str(run / "speakers.safetensors"))
    names = _speakers(speaker, sorted(vectors))
    folder = checkpoint.resolve(settings["model"])
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    rows = _free_rows(config, len(names))
    lora = settings["method"] != "full"
    trained = mx.load(str(run / "weights.safetensors"))
    files = checkpoint.safetensors_files(folder)
    metadata = checkpoint.safetensors_info(files[0])[0]
    weights = checkpoint.load_weights(files)
    if lora and merge:
        _merge(weights, trained, settings["lora_scale"])
    elif not lora:
        weights.update({k: v.astype(weights[k].dtype) for k, v in trained.items()})
    table = "talker.model.codec_embedding.weight"
    embedding = np.array(weights[table].astype(mx.float32))
    for source, row in zip(names, rows):
        embedding[row] = np.array(vectors[source])
    weights[table] = mx.array(embedding).astype(weights[table].dtype)
    tc = config.setdefault("talker_config", {})
    tc["spk_id"] = {**tc.get("spk_id", {}), **{name: row for name, row in zip(names.values(), rows)}}
    tc["spk_is_dialect"] = {**tc.get("spk_is_dialect", {}), **{name: False for name in names.values()}}
    config["tts_model_type"] = "custom_voice"
    return _write(out, folder, config, weights, metadata, trained if lora and not merge else None, settings)


def _speakers(speaker, sources) -> dict:
    """{dataset speaker: new name} from "NAME" (a one-speaker dataset) or "SOURCE=NAME" items."""
    given = [speaker] if isinstance(speaker, str) else list(speaker or [])
    if not given:
        raise InputError("give the new speaker's name ({speaker})", field="speaker")
    names = {}
    for entry in given:
        source, _, name = entry.rpartition("=")
        if not source:
            if len(sources) > 1:
                raise ValueError(f"the dataset holds speakers {', '.join(sources)}: name each as SPEAKER=NAME")
            source = sources[0]
        if source not in sources:
            raise ValueError(f"the dataset holds no speaker {source!r} (it holds {', '.join(sources)})")
        name = name.lower()
        if not NAME.fullmatch(name):
            raise ValueError(f"speaker name {name!r}: use letters, digits, '_' and '-' (it is a preset's name)")
        names[source] = name
    if len(set(names.values())) < len(names):
        raise ValueError("two speakers were given the same name")
    return names


def _free_rows(config: dict, n: int) -> list:
    """n rows of the codec embedding from 3000 that no preset, language or special codec id takes."""
    tc = config.get("talker_config", {})
    taken = set(tc.get("spk_id", {}).values()) | set(tc.get("codec_language_id", {}).values())
    taken |= {v for k, v in tc.items() if k.endswith("_id") and isinstance(v, int)}
    taken |= {v for k, v in config.items() if k.endswith("_id") and isinstance(v, int)}
    vocab = int(tc.get("vocab_size", 3072))
    free = [r for r in range(FIRST_SPEAKER_ROW, vocab) if r not in taken]
    if len(free) < n:
        raise ValueError(f"the codec embedding has {len(free)} free speaker rows, {n} speakers were given")
    return free[:n]


def _merge(weights: dict, trained: dict, scale: float):
    """W + scale * B^T A^T of each LoRA pair (lora_a (in, r), lora_b (r, out)) into the base's dense weight."""
    for key in [k for k in trained if k.endswith(".lora_a")]:
        layer = key[: -len(".lora_a")]
        target = f"{layer}.weight"
        if f"{layer}.scales" in weights or target not in weights:
            raise InputError(f"{layer} is quantized in the base checkpoint: export without {{merge}}, or train from "
                             "the bfloat16/float32 checkpoint", field="merge")
        a, b = trained[key].astype(mx.float32), trained[f"{layer}.lora_b"].astype(mx.float32)
        merged = weights[target].astype(mx.float32) + scale * (b.T @ a.T)
        weights[target] = merged.astype(weights[target].dtype)


def _write(out: Path, folder: Path, config: dict, weights: dict, metadata: dict, adapters=None, settings=None) -> Path:
    """The checkpoint folder `out`, written beside it and renamed into place; `adapters` (with the run's LoRA
    `settings`) kept as an adapter file when not merged."""
    mx.eval(weights)
    with folder_in_place(out) as tmp:
        for entry in folder.iterdir():
            if entry.name.startswith("model") and entry.name.endswith((".safetensors", ".safetensors.index.json")):
                continue
            if entry.name in ("config.json", ADAPTERS, ADAPTER_CONFIG):
                continue
            (shutil.copytree if entry.is_dir() else shutil.copyfile)(entry, tmp / entry.name)
        (tmp / "config.json").write_text(json.dumps(config, indent=2, ensure_ascii=False), encoding="utf-8")
        mx.save_safetensors(str(tmp / "model.safetensors"), weights, metadata={**metadata} or {"format": "pt"})
        if adapters is not None:
            mx.save_safetensors(str(tmp / ADAPTERS), adapters)
            lora = {"rank": settings["lora_rank"], "scale": settings["lora_scale"], "dropout": 0.0,
                    "keys": list(LORA_KEYS)}
            (tmp / ADAPTER_CONFIG).write_text(json.dumps(lora, indent=1), encoding="utf-8")
    return out
