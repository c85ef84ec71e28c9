"""How the command ends when it is stopped from outside: SIGTERM and SIGHUP as Ctrl-C, and a reader of its
output that went away (`| head -c 100`) as a quiet end."""

import os
import signal
import sys
import threading
from contextlib import contextmanager


@contextmanager
def signals_interrupt():
    """SIGTERM and SIGHUP unwind like Ctrl-C: temporary files are removed, exit status 128 + N."""
    def interrupt(signum, frame):
        error = KeyboardInterrupt(signum)
        error.signum = signum  # read by console.cli_errors
        raise error

    # Handlers can only be set from the main thread (not e.g. from a test runner's thread).
    signals = (signal.SIGTERM, signal.SIGHUP) if threading.current_thread() is threading.main_thread() else ()
    previous = {sig: signal.signal(sig, interrupt) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextmanager
def closed_pipe_ends_quietly():
    """The reader of stdout (or of a FIFO) went away: exit status 128 + SIGPIPE, and nothing more said."""
    try:
        yield
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(128 + signal.SIGPIPE)
