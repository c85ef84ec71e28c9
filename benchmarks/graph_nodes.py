"""Counting the primitives MLX evaluates: the nodes of the graphs handed to it, from its own DOT export.

`GraphCounter()` wraps the calls that evaluate (the ones syncs.py counts, `mx.async_eval` included) and,
before each evaluates, exports the graph of its arrays with `mx.export_to_dot` and counts the primitive
nodes in it. MLX detaches an array's graph once it is scheduled, so every primitive is counted once,
at the call that first evaluates it, whoever makes that call (our package, mlx-lm, mlx-audio).
A compiled function's outputs carry its compiled graph: fused elementwise ops are one `Compiled...`
node, as they are one kernel on Metal. Per frame = difference of two runs of different lengths.
`count(*arrays)` counts one graph. Standalone (mlx and numpy only), for the mlx-audio driver.

MLX's CPU backend has no kernels for `mx.fast.rms_norm`, `rope` and `scaled_dot_product_attention`: there
each call builds a graph of plain ops (a dozen or more nodes), where Metal runs one kernel. Inside
`metal_kernels()` each call is one node instead (a `Depends` on its inputs, shaped as its output, which
also stops fusion as a kernel does), so counts taken on a CPU are the graph Metal evaluates. Those graphs
are for counting only: their values are not the ops' values.
"""

import os
import re
import tempfile
from collections import Counter

import mlx.core as mx
import numpy as np
from mlx.utils import tree_flatten

NODE = re.compile(r'^\{ (\d+) \[label ="([^"]+)", shape=rectangle\]; \}$', re.M)
ARRAY_METHODS = ("item", "tolist", "__bool__", "__int__", "__float__")


def kinds(*arrays) -> Counter:
    """{primitive name: count} of the unevaluated graph behind `arrays` (any trees of arrays)."""
    leaves = [a for _, a in tree_flatten(list(arrays))] if arrays else []
    leaves = [a for a in leaves if isinstance(a, mx.array)]
    if not leaves:
        return Counter()
    fd, path = tempfile.mkstemp(suffix=".dot")
    os.close(fd)
    try:
        mx.export_to_dot(path, *leaves)
        with open(path) as f:
            text = f.read()
    finally:
        os.unlink(path)
    return Counter(_family(label) for _, label in NODE.findall(text))


def count(*arrays) -> int:
    return sum(kinds(*arrays).values())


def _family(label: str) -> str:
    """A fused node's label lists its ops ("CompiledMultiplyAdd"): they are one kernel, named "Compiled"."""
    return "Compiled" if label.startswith("Compiled") else label


def _one_node(output, *inputs):
    return mx.depends(output, [a for a in inputs if isinstance(a, mx.array)] or [output])


class metal_kernels:
    """Context manager: each `mx.fast` op Metal runs as one kernel is one node (module docstring)."""

    STAND_INS = {
        "rms_norm": lambda x, weight=None, eps=None, **_: _one_node(x, weight),
        "rope": lambda a, *args, offset=0, **_: _one_node(a, offset),
        "scaled_dot_product_attention": lambda q, k, v, *, mask=None, **_: _one_node(q, k, v, mask),
    }

    def __enter__(self):
        self._saved = {name: getattr(mx.fast, name) for name in self.STAND_INS}
        for name, stand_in in self.STAND_INS.items():
            setattr(mx.fast, name, stand_in)
        return self

    def __exit__(self, *exc):
        for name, original in self._saved.items():
            setattr(mx.fast, name, original)
        return False


class GraphCounter:
    """Context manager; `nodes` is the number of primitives evaluated so far, `by_kind` splits them."""

    def __init__(self):
        self.by_kind = Counter()
        self._saved = []

    @property
    def nodes(self) -> int:
        return sum(self.by_kind.values())

    def _wrap(self, owner, name, only_mlx_arg=False):
        original = getattr(owner, name)
        by_kind = self.by_kind

        def counted(*args, **kwargs):
            if not only_mlx_arg or (args and isinstance(args[0], mx.array)):
                by_kind.update(kinds(*args))
            return original(*args, **kwargs)

        setattr(owner, name, counted)
        self._saved.append((owner, name, original))

    def __enter__(self):
        self._wrap(mx, "eval")
        self._wrap(mx, "async_eval")
        for name in ARRAY_METHODS:
            if hasattr(mx.array, name):
                self._wrap(mx.array, name)
        self._wrap(np, "array", only_mlx_arg=True)
        self._wrap(np, "asarray", only_mlx_arg=True)
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()
        return False
