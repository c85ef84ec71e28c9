"""MLX-native Qwen3-TTS: text in, 24 kHz speech out, as the official model produces it."""

# First: on Linux, OpenBLAS has to be loaded before anything imports mlx.core (see backend.py).
from . import backend

backend.setup()

from .errors import InputError, ModelLoadError, Qwen3TTSError
from .voices import Voice
from .sampling import SamplingConfig
from .tts import TTS, Result, load

__version__ = "0.1.0"
__all__ = ["load", "TTS", "Result", "Voice", "SamplingConfig", "Qwen3TTSError", "ModelLoadError", "InputError"]
