"""A tiny CustomVoice checkpoint fine-tuned and exported by our package, rebuilt the same way every time (issue 64).

The base-0b6 fixture checkpoint, one utterance its own greedy-free generation sampled (seed 7, a random speaker
vector), trained until its loss is small (seed 0, fixed steps) and exported as speaker "Alice", merged. Used by
tests/test_finetune_official.py and, to record what qwen-tts makes of it, by tests/reference/record_finetune_export.py:
    PYTHONPATH=. .venv/bin/python tests/finetuned.py OUT   # writes OUT/ckpt, prints each export's sha256
"""

import hashlib
import os
import sys
from pathlib import Path

# The exported bits depend on the CPU BLAS: MLX's own, as the test suite runs (tests/conftest.py); the recorded
# sha256 is of this build on Linux's CPU backend (Accelerate on a Mac rounds differently: rerecord there).
os.environ.setdefault("MLX_QWEN3TTS_NO_OPENBLAS", "1")
import mlx_qwen3tts  # noqa: E402  (before mlx, as the package asks)
import mlx.core as mx  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mlx_qwen3tts.finetune import dataset, export, train  # noqa: E402
from mlx_qwen3tts.model.sampling_config import SamplingConfig  # noqa: E402
from mlx_qwen3tts.request import Request  # noqa: E402
from mlx_qwen3tts.voices import Voice  # noqa: E402
from fixture_checkpoints import checkpoint_dir  # noqa: E402

BASE = "base-0b6"
ONE = ("Say it once.", "english", 8)
SPEAKER = "Alice"
RECIPES = {"full": {"method": "full"}, "lora-merged": {"method": "lora", "merge": True}}


def sampled_item(tts, text, language, frames, seed) -> dataset.Item:
    """Codes our generation samples on `tts` (seeded) with a random speaker vector: a clip of the model's own voice."""
    vector = np.random.default_rng(seed).standard_normal(tts.model.talker.codec_head.weight.shape[1])
    vector = vector.astype(np.float32)
    request = Request(text=text, deltas=None, voice=Voice(xvector=mx.array(vector)), language=language,
                      text_mode="non-streaming", sampling=SamplingConfig(), seed=seed, max_frames=frames, guard=False)
    codes = np.concatenate([f.codes for f in tts.loop.frames(request)])
    return dataset.Item(id=f"clip{seed}", text=text, language=language, codes=codes, speaker_vector=vector)


def build(root: Path, recipe: str = "full") -> Path:
    """root/ckpt: the exported checkpoint of `recipe` (RECIPES), from the base fixture unpacked under root."""
    root = Path(root)
    with mx.stream(mx.cpu):
        return _build(root, recipe)


def _build(root: Path, recipe: str) -> Path:
    base = checkpoint_dir(BASE, root)
    item = sampled_item(mlx_qwen3tts.load(str(base), dtype=mx.float32), *ONE, 7)
    data = dataset.write(root / "one", [item], {})
    settings = dict(RECIPES[recipe])
    merge = settings.pop("merge", False)
    run = train(base, data, root / "run", steps=40, lr=1e-3, batch_size=1, seed=0, progress=False, **settings)
    return export(run, SPEAKER, root / "ckpt", merge=merge)


def weights_sha256(ckpt: Path) -> str:
    """sha256 of the export's config.json and model.safetensors (what qwen-tts reads of it besides the tokenizers,
    which are the base fixture's own)."""
    digest = hashlib.sha256()
    for name in ("config.json", "model.safetensors"):
        digest.update((Path(ckpt) / name).read_bytes())
    return digest.hexdigest()


if __name__ == "__main__":
    out = Path(sys.argv[1])
    for name in RECIPES:
        ckpt = build(out / name, name)
        print(name, ckpt, weights_sha256(ckpt))
