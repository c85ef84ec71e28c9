"""Fine-tuning Qwen3-TTS in MLX: prepare a dataset, train the talker and code predictor, export a
CustomVoice checkpoint (docs/finetune.md). `prepare`, `train` and `export` as in the command line
(`python -m mlx_qwen3tts.finetune`); each raises ValueError with one line for bad input."""

import importlib

from .export import export
from .train import train


def prepare(data, model, out, asr=None, language=None, aligner=None, **options):
    """A folder of recordings or an official JSONL -> the dataset folder `out` (finetune/prepare.py, loaded
    on first use: it brings the codec encoder, the recognizer and the aligner)."""
    try:
        module = importlib.import_module(f"{__name__}.prepare")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.prepare":
            raise
        raise ValueError("this installation has no `prepare` step (mlx_qwen3tts/finetune/prepare.py)") from None
    globals()["prepare"] = _prepare  # loading the submodule bound this package's name `prepare` to it
    return module.prepare(data, model, out, asr=asr, language=language, aligner=aligner, **options)


_prepare = prepare
__all__ = ["prepare", "train", "export"]
