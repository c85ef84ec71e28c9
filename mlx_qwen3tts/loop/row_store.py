"""The decode loop's batch state: one slot per row, as mlx-lm's `BatchKVCache` keeps a batch's caches.

Rows are put in at a free slot (`put`, like `extend`), freed (`free`) and packed into fewer slots
(`shrink`, like `filter`); the state grows by powers of two in rows and by `GROW` positions in KV
capacity. It holds the loop's `BatchState` (`state.py`) and the rows' sampling settings, rebuilt when the
slots change.
"""

import math
from typing import List, Optional

import mlx.core as mx

from . import state as batch
from .sampling import SamplingConfig, row_settings

_IDLE = SamplingConfig(temperature=0.0, cp_temperature=0.0)  # the settings of an empty slot


class RowStore:
    GROW = 256

    def __init__(self, talker, vocab: int):
        attn = talker.model.layers[0].self_attn
        norm = talker.model.norm.weight
        self.row_shape = batch.RowShape(layers=len(talker.model.layers), kv_heads=attn.n_kv_heads,
                                        head_dim=attn.head_dim, hidden=norm.shape[0], vocab=vocab, dtype=norm.dtype)
        self.slots: List[Optional[object]] = []  # the row in each slot (None: free)
        self.state: Optional[batch.BatchState] = None
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

    def put(self, slot: int, row: batch.BatchState):
        """Write one row's state (each array (1, ...); keys/values (1, heads, n, dim)) at `slot`."""
        self.state = batch.put(self.state, slot, row)

    def free(self, row):
        if row.slot is not None and row.slot < len(self.slots) and self.slots[row.slot] is row:
            self.slots[row.slot] = None
            self._settings = None

    def settings(self):
        """(per-slot settings arrays {field: (B,)}, whether any row samples)."""
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
        if self.state is None:
            self.state = batch.empty(size, capacity, self.row_shape)
            return True
        have_rows, have_capacity = self.state.x.shape[0], batch.capacity(self.state)
        if have_rows >= size and have_capacity >= capacity:
            return False
        self.state = batch.grown(self.state, max(size - have_rows, 0), max(capacity - have_capacity, 0))
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
            self.slots, self.state = [], None
            return
        size = 1 << max(len(rows) - 1, 0).bit_length()
        order = mx.array([r.slot for r in rows] + [rows[0].slot] * (size - len(rows)), dtype=mx.int32)
        self.state = batch.taken(self.state, order)
        self.slots = rows + [None] * (size - len(rows))
        for i, r in enumerate(rows):
            r.slot = i
