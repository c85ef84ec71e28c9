"""MLX-native Qwen3-TTS: text in, 24 kHz speech out, as the official model produces it."""

from .errors import InputError, ModelLoadError, Qwen3TTSError
from .prompt import Voice
from .sampling import SamplingConfig
from .tts import TTS, Result, load

__version__ = "0.1.0"
__all__ = ["load", "TTS", "Result", "Voice", "SamplingConfig", "Qwen3TTSError", "ModelLoadError", "InputError"]
