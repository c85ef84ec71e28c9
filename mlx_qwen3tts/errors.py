"""Errors a user can act on. The CLI prints their message on one line and exits non-zero."""


class Qwen3TTSError(Exception):
    """Base class of every error this package raises for bad input or a bad model."""


class ModelLoadError(Qwen3TTSError):
    """The model folder or repository is missing, incomplete, corrupt or not Qwen3-TTS."""


class InputError(Qwen3TTSError, ValueError):
    """A generation argument (text, speaker, language, sampling setting, ...) is invalid."""
