"""MLX-native Qwen3-TTS: text in, 24 kHz speech out, as the official model produces it."""

# First: on Linux, OpenBLAS has to be loaded before anything imports mlx.core, and MLX's TF32 default turned
# off before its first matmul (see backend.py).
from . import backend

backend.setup()
backend.full_float32()

from .errors import InputError, ModelLoadError, Qwen3TTSError  # noqa: E402

__version__ = "0.1.0"
__all__ = ["load", "TTS", "Result", "Voice", "Blend", "SamplingConfig", "Qwen3TTSError", "ModelLoadError", "InputError"]
# Imported on first use: the model code brings mlx, mlx-lm and transformers (~1 s), which
# `import mlx_qwen3tts` for the errors, or `mlx_qwen3tts.generate --help`, does not need.
_LAZY = {"load": "tts", "TTS": "tts", "Result": "tts", "Voice": "voices", "Blend": "voices", "SamplingConfig": "model.sampling_config"}


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
