"""Errors a user can act on. The CLI prints their message on one line and exits non-zero."""

import signal
import sys
from contextlib import contextmanager
from typing import Mapping, Optional, Sequence

import click


class Qwen3TTSError(Exception):
    """Base class of every error this package raises for bad input or a bad model."""


class ModelLoadError(Qwen3TTSError):
    """The model folder or repository is missing, incomplete, corrupt or not Qwen3-TTS."""


class InputError(Qwen3TTSError, ValueError):
    """A generation argument (text, speaker, language, sampling setting, ...) is invalid.

    `field` names the argument in the request layer's words (`max_tokens`, `ref_text`); the message
    may name it and `others` as `{field}`, so each front end words it in its own vocabulary
    (`worded({"max_tokens": "--max-tokens"})`); `str()` gives the request layer's names.
    `code` is a machine-readable reason (`voice_not_found`) that servers pass on.
    """

    def __init__(self, message: str, field: Optional[str] = None, code: Optional[str] = None,
                 others: Sequence[str] = ()):
        self.template, self.field, self.code = message, field, code
        self.fields = ((field,) if field else ()) + tuple(others)
        super().__init__(self.worded({}))

    def worded(self, names: Mapping[str, str]) -> str:
        """The message with each field named as `names` says (a field not in it keeps its own name)."""
        message = self.template
        for name in self.fields:
            message = message.replace("{" + name + "}", names.get(name, name))
        return message


class ConversionError(Qwen3TTSError):
    """The converted output cannot be written (exists, not writable, disk full) or uploaded."""


@contextmanager
def cli_errors(names: Optional[Mapping[str, str]] = None):
    """For console scripts: a Qwen3TTSError becomes one `error:` line and exit status 2; `names`:
    the command's option for each request field (`max_tokens` -> `--max-tokens`)."""
    try:
        yield
    except Qwen3TTSError as e:
        click.echo(f"error: {e.worded(names or {}) if isinstance(e, InputError) else e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM/SIGHUP raised as one (with .signum)
        signum = getattr(e, "signum", signal.SIGINT)
        click.echo(f"\ninterrupted ({signal.Signals(signum).name})", err=True)
        sys.exit(128 + signum)


class OneLineErrors(click.Command):
    """Usage errors (a bad number, an unknown option) as one `error:` line and exit 2, like every other error."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)
        except click.ClickException as e:
            click.echo(f"error: {e.format_message()}", err=True)
            sys.exit(e.exit_code if e.exit_code else 2)
