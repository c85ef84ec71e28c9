"""What the console scripts say on stderr: an error as one `error:` line and a non-zero exit; a warning as one
`warning:` line."""

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


def warn(message: str):
    click.echo(f"warning: {message}", err=True)


def warn_cut(max_tokens, budget: str, line=""):
    """The speech ended at its frame budget, not at an end-of-speech token."""
    limit, advice = (f"--max-tokens {max_tokens}", "") if max_tokens else (budget, "; --max-tokens sets another budget")
    warn(f"{line}stopped at {limit} without an end-of-speech token; the speech may be cut off{advice}")


def warn_runaway(runaway, retried: bool, line=""):
    """The runaway guard fired (`runaway`: its rule; `retried`: the speech was made again, and `runaway` then
    says it ran away again): one line, or none when the speech made again ended well."""
    if retried and not runaway:
        warn(f"{line}the speech ran away (runaway guard); it was spoken again with another seed")
    elif runaway:
        again = "spoken again with another seed, it ran away again" if retried else "it was ended there"
        warn(f"{line}the speech ran away ({runaway}; runaway guard): {again}, so it may be cut off; --no-guard "
             "turns the guard off")
