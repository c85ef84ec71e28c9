"""The one shape of every stream the package hands out (frames, chunks, a handle's chunks): an object that
iterates a generator of its own, `_run`, tells what it has seen on its attributes, and stops with `close()`."""

from typing import Iterator


class Iterated:
    """Iterate it for the items of `self._run` (set by the subclass); `close()` stops it."""

    _run: Iterator

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._run)

    def close(self):
        self._run.close()
