"""The decode loop's batch state, declared once: named fields, one row per slot, a tree MLX compiles.

Every field has the rows on axis 0; the KV fields (`KV_FIELDS`) also have the KV positions on axis 2,
so they are the ones that grow with the capacity. Padding, writing a row and packing rows go by these
names, never by an array's rank.
"""

from typing import List, NamedTuple

import mlx.core as mx
from mlx.utils import tree_map

KV_FIELDS = ("keys", "values")
POSITION_AXIS = 2  # of each KV array: (B, n_kv_heads, capacity, head_dim)


class BatchState(NamedTuple):
    x: mx.array  # (B, 1, H) the next talker input
    lengths: mx.array  # (B,) KV positions filled
    keys: List[mx.array]  # per layer (B, n_kv_heads, capacity, head_dim)
    values: List[mx.array]  # per layer, as keys
    seen: mx.array  # (B, V) codebook-0 ids generated so far (repetition penalty)
    rng: mx.array  # (B, 2) random keys
    steps: mx.array  # (B,) frames generated


class RowShape(NamedTuple):
    """What one row's arrays are made of: the talker's layers, KV heads and their width, hidden size, the
    codebook-0 vocabulary and the dtype."""

    layers: int
    kv_heads: int
    head_dim: int
    hidden: int
    vocab: int
    dtype: mx.Dtype


def empty(rows: int, capacity: int, shape: RowShape) -> BatchState:
    """A state of `rows` free rows with room for `capacity` KV positions (zeros)."""
    kv = mx.zeros((rows, shape.kv_heads, capacity, shape.head_dim), dtype=shape.dtype)
    return BatchState(x=mx.zeros((rows, 1, shape.hidden), dtype=shape.dtype), lengths=mx.zeros((rows,), dtype=mx.int32),
                      keys=[kv] * shape.layers, values=[kv] * shape.layers,
                      seen=mx.zeros((rows, shape.vocab), mx.bool_),
                      rng=mx.zeros((rows, 2), dtype=mx.uint32), steps=mx.zeros((rows,), dtype=mx.int32))


def capacity(state: BatchState) -> int:
    """The KV positions each row has room for."""
    return state.keys[0].shape[POSITION_AXIS]


def by_field(fn, state: BatchState, *others: BatchState) -> BatchState:
    """fn(name, array, *the others' arrays) over every array of each field, by field name."""
    return BatchState(*(tree_map(lambda *arrays, name=name: fn(name, *arrays), *values)
                        for name, values in zip(BatchState._fields, zip(state, *others))))


def grown(state: BatchState, rows: int, positions: int) -> BatchState:
    """`state` with `rows` free rows added and, in the KV fields, `positions` more positions (zeros)."""

    def pad(name, array):
        widths = [(0, 0)] * array.ndim
        widths[0] = (0, rows)
        if name in KV_FIELDS:
            widths[POSITION_AXIS] = (0, positions)
        return mx.pad(array, widths)

    return by_field(pad, state)


def put(state: BatchState, slot: int, row: BatchState) -> BatchState:
    """`state` with one row's state written at `slot` (each of its arrays has one row; its KV arrays may
    hold fewer positions than the capacity: they are written from position 0)."""

    def write(_, array, value):
        start = mx.array([slot] + [0] * (array.ndim - 1), dtype=mx.int32)
        return mx.slice_update(array, value.astype(array.dtype), start, axes=tuple(range(array.ndim)))

    return by_field(write, state, row)


def taken(state: BatchState, order: mx.array) -> BatchState:
    """The rows of `state` in `order` (slot indices)."""
    return by_field(lambda _, array: mx.take(array, order, axis=0), state)
