"""The decode loop's batch state: one slot per row, as mlx-lm's `BatchKVCache` keeps a batch's caches.

Rows are put in at a free slot (`put`, like `extend`), freed (`free`) and packed into fewer slots
(`shrink`, like `filter`); the arrays grow by powers of two in rows and by `GROW` positions in KV
capacity. The arrays are the named state of `loop_graphs` (x, lengths, keys, values, seen, rng,
steps) plus the rows' sampling settings, rebuilt when the slots change.
"""

import math
from typing import List, Optional

import mlx.core as mx
from mlx.utils import tree_map

from .sampling import SamplingConfig, row_settings

_IDLE = SamplingConfig(temperature=0.0, cp_temperature=0.0)  # the settings of an empty slot


class RowStore:
    GROW = 256

    def __init__(self, talker, vocab: int):
        attn = talker.model.layers[0].self_attn
        self.layers, self.vocab = len(talker.model.layers), vocab
        self.kv_shape = (attn.n_kv_heads, attn.head_dim)
        self.hidden, self.dtype = talker.model.norm.weight.shape[0], talker.model.norm.weight.dtype
        self.slots: List[Optional[object]] = []  # the row in each slot (None: free)
        self.arrays: Optional[dict] = None
        self._settings = None  # (settings arrays, any row sampled), made from the slots when needed

    @property
    def rows(self) -> list:
        return [r for r in self.slots if r is not None]

    def place(self, row) -> int:
        """A slot for `row` (a free one, else a new one at the end)."""
        if None not in self.slots:
            self.slots.append(None)
        slot = self.slots.index(None)
        self.slots[slot] = row
        self._settings = None
        return slot

    def put(self, slot: int, values: dict):
        """Write one row's state (each array (1, ...); keys/values (1, heads, n, dim)) at `slot`."""
        self.arrays = tree_map(lambda a, v: _put(a, slot, v), self.arrays, values)

    def free(self, row):
        if row.slot is not None and row.slot < len(self.slots) and self.slots[row.slot] is row:
            self.slots[row.slot] = None
            self._settings = None

    def state(self) -> dict:
        """The arrays and the rows' sampling settings: the state the loop's graphs take."""
        return {**self.arrays, "settings": self.settings()[0]}

    def settings(self):
        """(per-slot settings arrays, whether any row samples)."""
        if self._settings is None:
            configs = [r.sampling if r is not None else _IDLE for r in self.slots]
            self._settings = row_settings(configs), any(r.sampling.sampled for r in self.rows)
        return self._settings

    def make_room(self, length: int, rows: Optional[int] = None) -> bool:
        """Room for `rows` rows (default: the slots; rounded up to a power of two) and `length` KV positions
        (a multiple of GROW); whether the arrays grew (a copy of every row's state)."""
        size = 1 << max((rows or len(self.slots)) - 1, 0).bit_length()
        if size > len(self.slots):
            self.slots += [None] * (size - len(self.slots))
            self._settings = None
        capacity = math.ceil(length / self.GROW) * self.GROW
        if self.arrays is None:
            self.arrays = self._empty(size, capacity)
            return True
        have = self.arrays["keys"][0].shape
        if have[0] >= size and have[2] >= capacity:
            return False
        rows, positions = max(size - have[0], 0), max(capacity - have[2], 0)
        self.arrays = tree_map(lambda a: _pad(a, rows, positions if a.ndim == 4 else 0), self.arrays)
        self._settings = None
        return True

    def shrink(self):
        """Pack the rows into the smallest power of two once half of the slots or fewer are used (an
        empty slot still costs its share of every step on a CPU)."""
        rows = self.rows
        if len(self.slots) <= 1 or len(rows) * 2 > len(self.slots):
            return
        self._settings = None
        if not rows:
            self.slots, self.arrays = [], None
            return
        size = 1 << max(len(rows) - 1, 0).bit_length()
        order = mx.array([r.slot for r in rows] + [rows[0].slot] * (size - len(rows)), dtype=mx.int32)
        self.arrays = tree_map(lambda a: mx.take(a, order, axis=0), self.arrays)
        self.slots = rows + [None] * (size - len(rows))
        for i, r in enumerate(rows):
            r.slot = i

    def _empty(self, size: int, capacity: int) -> dict:
        kv = mx.zeros((size, self.kv_shape[0], capacity, self.kv_shape[1]), dtype=self.dtype)
        return {"x": mx.zeros((size, 1, self.hidden), dtype=self.dtype), "lengths": mx.zeros((size,), dtype=mx.int32),
                "keys": [kv] * self.layers, "values": [kv] * self.layers,
                "seen": mx.zeros((size, self.vocab), mx.bool_), "rng": mx.zeros((size, 2), dtype=mx.uint32),
                "steps": mx.zeros((size,), dtype=mx.int32)}


def _pad(array, rows: int, positions: int):
    """array with `rows` rows (axis 0) and, for KV arrays (4-d), `positions` slots (axis 2) of zeros added."""
    widths = [(0, rows)] + [(0, positions if axis == 2 else 0) for axis in range(1, array.ndim)]
    return mx.pad(array, widths)


def _put(array, row: int, value):
    """array with value (n, ...) written over its rows from `row` on."""
    start = mx.array([row] + [0] * (array.ndim - 1), dtype=mx.int32)
    return mx.slice_update(array, value.astype(array.dtype), start, axes=tuple(range(array.ndim)))
