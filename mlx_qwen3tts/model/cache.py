"""The KV caches of the transformer block, and the attention mask each asks for (mlx-lm keeps its caches
likewise in one module, `mlx_lm/models/cache.py`).

`RowKVCache`: a fixed-capacity cache per row, for the decode loop's compiled frame step; `ConcatKVCache`:
the code predictor's 16 positions per frame, concatenated; `WindowKVCache`: the codec decoder's causal
sliding window. The talker's prefill uses mlx-lm's own `KVCache`.
"""

from typing import Any, Optional

import mlx.core as mx
from mlx_lm.models.cache import create_causal_mask


class RowKVCache:
    """Fixed-capacity KV caches of a batch of independent rows, each with its own length: row b's
    keys fill slots 0 .. lengths[b] - 1 and its next one-position step writes slot lengths[b].
    Shapes stay static, so the step compiles once, whatever rows join, pause or leave.

    keys/values: (B, n_kv_heads, capacity, head_dim); lengths: (B,) int32, kept as `offset` (the RoPE position).
    """

    def __init__(self, keys, values, lengths, slot=None):
        self.keys, self.values, self.offset, self.slot = keys, values, lengths, slot

    @staticmethod
    def slots(lengths, shape):
        """The write index of one position, shaped as its keys (B, n_kv_heads, 1, head_dim): one for all layers."""
        return mx.broadcast_to(lengths[:, None, None, None], shape)

    def update_and_fetch(self, keys, values):
        slot = self.slot if self.slot is not None else self.slots(self.offset, keys.shape)
        self.keys = mx.put_along_axis(self.keys, slot, keys, axis=2)
        self.values = mx.put_along_axis(self.values, slot, values, axis=2)
        return self.keys, self.values

    def make_mask(self, length: int):
        """(B, 1, 1, capacity): each row sees its own written slots and the new one."""
        if length != 1:
            raise ValueError("RowKVCache steps one position at a time")
        slots = mx.arange(self.keys.shape[2])
        return (slots[None] <= self.offset[:, None])[:, None, None]


class ConcatKVCache:
    """Keys and values of one short sequence, concatenated as it grows: one node per update in the graph,
    where mlx-lm's `KVCache` writes into a preallocated buffer and slices it (two, and the buffer's). For
    the code predictor's 16 positions per frame, inside a compiled graph.

    keys/values: (B, n_kv_heads, positions, head_dim); offset: positions seen (an int).
    """

    def __init__(self):
        self.keys = self.values = None
        self.offset = 0

    def update_and_fetch(self, keys, values):
        if self.keys is not None:
            keys = mx.concatenate([self.keys, keys], axis=2)
            values = mx.concatenate([self.values, values], axis=2)
        self.offset = keys.shape[2]
        self.keys, self.values = keys, values
        return keys, values


class WindowKVCache:
    """Keys and values of the last `window - 1` positions, for a causal sliding window of `window`
    positions (a query sees itself and `window - 1` earlier ones). Static shapes, so a streaming
    step can be compiled; slots before the start of a stream are masked out. Each row has its own
    position, so streams started at different times can step together.

    keys/values: (B, n_kv_heads, window - 1, head_dim); offset: (B,) int32, positions seen per row.
    """

    def __init__(self, keys, values, offset):
        self.keys, self.values, self.offset = keys, values, offset

    @classmethod
    def empty(cls, batch: int, n_kv_heads: int, head_dim: int, window: int, dtype=mx.float32):
        zeros = mx.zeros((batch, n_kv_heads, window - 1, head_dim), dtype)
        return cls(zeros, zeros, mx.zeros((batch,), dtype=mx.int32))

    @property
    def state(self):
        return self.keys, self.values, self.offset

    @state.setter
    def state(self, state):
        self.keys, self.values, self.offset = state

    def update_and_fetch(self, keys, values):
        memory = self.keys.shape[2]
        keys = mx.concatenate([self.keys, keys], axis=2)
        values = mx.concatenate([self.values, values], axis=2)
        self.keys, self.values = keys[:, :, -memory:], values[:, :, -memory:]
        self.offset = self.offset + keys.shape[2] - memory
        return keys, values

    def make_mask(self, length: int):
        """(B, 1, length, window - 1 + length): new query i sees slots i .. i + window - 1 that hold a
        position of its row."""
        memory = self.keys.shape[2]
        slots = mx.arange(memory + length)[None]
        queries = mx.arange(length)[:, None]
        band = (slots >= queries) & (slots <= queries + memory)
        return (band & (slots >= (memory - self.offset)[:, None, None]))[:, None]


def attention_mask(length: int, cache: Any = None, window: Optional[int] = None):
    """Causal (optionally sliding-window) mask for `length` new positions after the cache's."""
    if isinstance(cache, (RowKVCache, WindowKVCache)):
        return cache.make_mask(length)
    offset = 0 if cache is None else cache.offset
    if length == 1 and (window is None or offset < window):
        return None
    if window is None and offset == 0:
        return "causal"
    return create_causal_mask(length, offset, window_size=window)
