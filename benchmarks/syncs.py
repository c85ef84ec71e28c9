"""Counting host synchronisations: every point where Python waits for MLX to finish computing.

Inside `SyncCounter()` the calls that block on a result are wrapped with counters: `mx.eval`,
`mx.array.item`, `.tolist`, `bool()` / `int()` / `float()` of an array, and `np.array` /
`np.asarray` of an `mx.array` (a conversion copies evaluated data). `mx.async_eval` is counted
apart: it schedules work without waiting. The wrappers replace the module and class attributes, so
they see calls made through `mx.eval(...)`, `x.item()` and `np.array(x)` anywhere (our package,
mlx-lm, mlx-audio), and nothing made from C++ (the inside of a compiled function never syncs).
Counting adds one Python call per sync, no evaluation. Standalone (mlx and numpy only) so the
mlx-audio driver can use it in its own environment.
"""

from collections import Counter

import mlx.core as mx
import numpy as np

ARRAY_METHODS = ("item", "tolist", "__bool__", "__int__", "__float__")
ASYNC = "async_eval"


class SyncCounter:
    """Context manager; `blocking` is the number of syncs so far, `counts` splits them by kind."""

    def __init__(self):
        self.counts = Counter()
        self._saved = []

    @property
    def blocking(self) -> int:
        return sum(n for kind, n in self.counts.items() if kind != ASYNC)

    @property
    def async_evals(self) -> int:
        return self.counts[ASYNC]

    def _wrap(self, owner, name, kind, only_mlx_arg=False):
        original = getattr(owner, name)
        counts = self.counts

        def counted(*args, **kwargs):
            if not only_mlx_arg or (args and isinstance(args[0], mx.array)):
                counts[kind] += 1
            return original(*args, **kwargs)

        setattr(owner, name, counted)
        self._saved.append((owner, name, original))

    def __enter__(self):
        self._wrap(mx, "eval", "eval")
        self._wrap(mx, ASYNC, ASYNC)
        for name in ARRAY_METHODS:
            if hasattr(mx.array, name):
                self._wrap(mx.array, name, name.strip("_"))
        self._wrap(np, "array", "numpy", only_mlx_arg=True)
        self._wrap(np, "asarray", "numpy", only_mlx_arg=True)
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()
        return False
