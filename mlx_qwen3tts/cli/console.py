"""How the console scripts end on an error: one `error:` line on stderr and a non-zero exit."""

import signal
import sys
from contextlib import contextmanager
from typing import Mapping, Optional

import click

from ..errors import Qwen3TTSError


@contextmanager
def cli_errors(names: Optional[Mapping[str, str]] = None):
    """For console scripts: a Qwen3TTSError becomes one `error:` line and exit status 2; `names`:
    the command's option for each field its messages name (`max_tokens` -> `--max-tokens`)."""
    try:
        yield
    except Qwen3TTSError as e:
        click.echo(f"error: {e.worded(names or {})}", err=True)
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
