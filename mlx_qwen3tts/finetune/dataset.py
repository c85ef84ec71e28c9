"""A prepared fine-tuning dataset on disk, as `prepare` writes it and `train` reads it.

    DATASET/dataset.json          {"format": 1, "model": ..., "sample_rate": 24000, "frame_rate": 12.5,
                                   "items": N, "speakers": {name: {"items": n}}}
    DATASET/items.jsonl           one line a clip: {"id", "text", "language", "speaker", "frames", "source"}
    DATASET/codes.safetensors     "<id>": int32 (frames, 16), the 12 Hz codec's encode of that clip alone
    DATASET/speakers.safetensors  "<id>": float32 (dim,) the speaker vector of that clip's reference audio;
                                  "mean/<speaker>": float32 (dim,) the mean over that speaker's clips

`language` is a request language name ("english", ...) or "auto" (trained with the auto prefix, as upstream).
A dataset is written into a temporary folder beside `out` and renamed into place, so a crash never leaves
a half-written dataset under the name asked for; an existing `out` is replaced only when the caller says it
is its own.
"""

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file, save_file

from ..outputs import folder_in_place

FORMAT = 1


@dataclass
class Item:
    id: str
    text: str
    language: str
    codes: np.ndarray  # int32 (frames, 16)
    speaker_vector: np.ndarray  # float32 (dim,)
    speaker: str = "speaker"
    source: str = ""


@dataclass
class Dataset:
    items: list
    meta: dict = field(default_factory=dict)

    def mean_speaker(self, speaker: str = "speaker") -> np.ndarray:
        vectors = [i.speaker_vector for i in self.items if i.speaker == speaker]
        return np.mean(np.stack(vectors).astype(np.float32), axis=0)


def write(out, items, meta: dict, replace: bool = False) -> Path:
    """Write `items` (a list of `Item`) and `meta` as the dataset folder `out`, all at once; an existing `out` is
    replaced only with `replace` (FileExistsError otherwise)."""
    out = Path(out)
    if not items:
        raise ValueError("no clips to write: the dataset would be empty")
    lines, codes, vectors, speakers = [], {}, {}, {}
    for item in items:
        codes[item.id] = np.ascontiguousarray(item.codes, dtype=np.int32)
        vectors[item.id] = np.ascontiguousarray(item.speaker_vector, dtype=np.float32)
        speakers.setdefault(item.speaker, []).append(vectors[item.id])
        record = {k: v for k, v in asdict(item).items() if k not in ("codes", "speaker_vector")}
        lines.append(json.dumps({**record, "frames": int(item.codes.shape[0])}, ensure_ascii=False))
    for name, vs in speakers.items():
        vectors[f"mean/{name}"] = np.mean(np.stack(vs), axis=0).astype(np.float32)
    info = {**meta, "format": FORMAT, "items": len(items),
            "speakers": {name: {"items": len(vs)} for name, vs in speakers.items()}}
    with folder_in_place(out, replace=replace) as tmp:
        save_file(codes, str(tmp / "codes.safetensors"))
        save_file(vectors, str(tmp / "speakers.safetensors"))
        (tmp / "items.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (tmp / "dataset.json").write_text(json.dumps(info, indent=1, ensure_ascii=False), encoding="utf-8")
    return out


def load(path) -> Dataset:
    """The dataset folder `path` as a `Dataset`; a folder that is not one raises ValueError with one line."""
    path = Path(path)
    if not (path / "dataset.json").is_file():
        raise ValueError(f"{path} is not a prepared dataset (no dataset.json): run `prepare` first")
    meta = json.loads((path / "dataset.json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path}: dataset format {meta.get('format')!r}, this version reads {FORMAT}")
    codes = load_file(str(path / "codes.safetensors"))
    vectors = load_file(str(path / "speakers.safetensors"))
    items = []
    for line in (path / "items.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            items.append(Item(id=r["id"], text=r["text"], language=r["language"], codes=codes[r["id"]],
                              speaker_vector=vectors[r["id"]], speaker=r.get("speaker", "speaker"),
                              source=r.get("source", "")))
    return Dataset(items=items, meta=meta)
