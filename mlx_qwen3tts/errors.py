"""Errors a user can act on. The CLI prints their message on one line and exits non-zero."""

import signal
import sys
from contextlib import contextmanager

import click


class Qwen3TTSError(Exception):
    """Base class of every error this package raises for bad input or a bad model."""


class ModelLoadError(Qwen3TTSError):
    """The model folder or repository is missing, incomplete, corrupt or not Qwen3-TTS."""


class InputError(Qwen3TTSError, ValueError):
    """A generation argument (text, speaker, language, sampling setting, ...) is invalid."""


class ConversionError(Qwen3TTSError):
    """The converted output cannot be written (exists, not writable, disk full) or uploaded."""


@contextmanager
def cli_errors():
    """For console scripts: a Qwen3TTSError becomes one `error:` line and exit status 2."""
    try:
        yield
    except Qwen3TTSError as e:
        click.echo(f"error: {e}", err=True)
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
