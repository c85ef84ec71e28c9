"""Errors a user can act on: each front end words them its own way (the CLI as one line and a non-zero
exit, the server as an error body or event)."""

from typing import Mapping, Optional, Sequence


class Qwen3TTSError(Exception):
    """Base class of every error this package raises for bad input or a bad model.

    The message names the arguments in `fields` as `{field}`, in the library's words (`max_tokens`,
    `force`), so each front end words it in its own vocabulary (`worded({"max_tokens": "--max-tokens"})`);
    `str()` gives the library's names.
    """

    def __init__(self, message: str = "", fields: Sequence[str] = ()):
        self.template, self.fields = message, tuple(fields)
        super().__init__(self.worded({}))

    def worded(self, names: Mapping[str, str]) -> str:
        """The message with each field named as `names` says (a field not in it keeps its own name)."""
        return worded(self.template, self.fields, names)


def worded(template: str, fields: Sequence[str], names: Mapping[str, str]) -> str:
    """`template` with each `{field}` of `fields` named as `names` says (else by its own name)."""
    for name in fields:
        template = template.replace("{" + name + "}", names.get(name, name))
    return template


class ModelLoadError(Qwen3TTSError):
    """The model folder or repository is missing, incomplete, corrupt or not Qwen3-TTS."""


class InputError(Qwen3TTSError, ValueError):
    """A generation argument (text, speaker, language, sampling setting, ...) is invalid.

    `field` names the argument in the request layer's words (`max_tokens`, `ref_text`); the message
    may name it and `others` as `{field}` (see `Qwen3TTSError`). `code` is a machine-readable reason
    (`voice_not_found`) that servers pass on.
    """

    def __init__(self, message: str, field: Optional[str] = None, code: Optional[str] = None,
                 others: Sequence[str] = ()):
        self.field, self.code = field, code
        super().__init__(message, ((field,) if field else ()) + tuple(others))


class ConversionError(Qwen3TTSError):
    """The converted output cannot be written (exists, not writable, disk full) or uploaded."""
