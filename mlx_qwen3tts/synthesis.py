"""The decode loop: rows of independent requests stepped together, one frame at a time.

Voice modes differ only in the prompt (see prompt.py). Per frame the talker gives codebook 0,
the code predictor codebooks 1..15, and the next talker input is the sum of all 16 codebook
embeddings plus that step's text-track vector. `Rows` holds any number of such sequences: each
row has its own KV length and positions, sampling settings, repetition history, random key and
text track, so rows join (after their own prefill), pause (text not yet written) and leave at
any frame boundary, and a row's frames do not depend on the others. Every caller runs this loop:
`generate_frames` with one row, `generate_batch` and the engine with many.
"""

import math
import random
import time
from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterator, List, Optional

import mlx.core as mx
import numpy as np
from mlx.utils import tree_map

from .prompt import Prompt
from .sampling import CodebookZeroProcessor, SamplingConfig, row_settings, sample_rows
from .transformer import RowKVCache


@dataclass
class Frame:
    index: int
    codes: mx.array  # (1, 16) int32
    last: bool = False  # no frame follows (its frame limit); at EOS the end is known only after it


@dataclass
class LoopState:
    """What the loop reports besides frames (filled in as it runs)."""

    frames: int = 0
    max_frames: int = 0
    stopped_on_eos: bool = False
    prefill_s: float = 0.0


class ArrayTextTrack:
    """Text vectors for generated frames: `trailing[t]` while it lasts, then the pad vector."""

    def __init__(self, prompt: Prompt):
        self.trailing, self.pad = prompt.trailing, prompt.pad

    def ready(self, step: int) -> bool:
        return True

    def __call__(self, step: int):
        return self.trailing[step] if step < self.trailing.shape[0] else self.pad


class Row:
    """One sequence of a `Rows` batch: its prompt, sampling, random key, text track and limits.

    `frames` counts the frames it has given out; `done` is set at EOS or at its frame limit
    (`max_frames`, lowered by `budget()` as a streamed-in text tells its length).
    """

    def __init__(self, prompt: Prompt, sampling: SamplingConfig, max_frames: int, seed: Optional[int] = None,
                 text_track=None, budget: Optional[Callable[[], int]] = None):
        self.prompt, self.sampling, self.max_frames, self.budget = prompt, sampling, max_frames, budget
        self.seed = random.getrandbits(64) if seed is None else seed
        self.track = text_track or ArrayTextTrack(prompt)
        self.frames = self.sent = self.length = 0  # frames out, frames sent off, KV positions
        self.done = self.stopped_on_eos = False
        self.error: Optional[BaseException] = None  # what ended it, when its text track failed
        self.slot: Optional[int] = None
        self.started = self.prefill_s = 0.0  # prefill_s: from `Rows.add` until its first frame is read

    def limit(self) -> int:
        return self.max_frames if self.budget is None else min(self.max_frames, self.budget())

    def can_step(self) -> bool:
        """Whether its next frame can be sent off now (the text it needs has arrived)."""
        return not self.done and self.sent < self.limit() and self.track.ready(self.sent - 1)


class RowGraphs:
    """The compiled graphs of the loop for one talker: a frame from talker outputs (after a row's
    prefill) and a whole one-position step of a batch of rows (talker + frame). Shapes are static
    per batch size and cache capacity; settings, lengths and keys are inputs, so any mix of rows
    shares one graph. `sampled=False` (every row greedy) skips the random draws."""

    def __init__(self, talker, eos_id: int):
        self.talker, self.eos_id = talker, eos_id
        self.vocab = talker.codec_head.weight.shape[0]
        self.process = CodebookZeroProcessor(self.vocab, eos_id, 1.0)
        mx.eval(self.process.suppress, self.process.eos_only)  # shared across threads: no lazy constants
        self.frame = {s: mx.compile(partial(self._frame, s)) for s in (False, True)}
        self.step = {s: mx.compile(partial(self._step, s)) for s in (False, True)}

    def _frame(self, sampled, logits, hidden, seen, keys, steps, settings):
        talker, s = self.talker, settings
        logits = self.process(logits, seen, steps, s["repetition_penalty"][:, None])
        if sampled:
            draws = mx.vmap(lambda key: mx.random.split(key, 17))(keys)  # (B, 17, 2): next key, 16 codebooks
            keys = draws[:, 0]

        def pick(logits, prefix, q):
            if not sampled:
                return mx.argmax(logits, axis=-1)
            return sample_rows(logits, s[prefix + "temperature"], s[prefix + "top_k"], s[prefix + "top_p"],
                               draws[:, 1 + q])

        c0 = pick(logits, "", 0)
        c0_embed = talker.codec_embed(c0)[:, None]
        rest, rest_embed = talker.code_predictor.predict(hidden, c0_embed, lambda lg, q: pick(lg, "cp_", q + 1))
        codes = mx.concatenate([c0[:, None], rest], axis=1).astype(mx.int32)
        seen = seen | (mx.arange(self.vocab)[None] == c0[:, None])
        return codes, c0_embed + rest_embed, seen, keys

    def _step(self, sampled, x, text, moving, lengths, keys, values, seen, rng, steps, settings):
        cache = [RowKVCache(k, v, lengths) for k, v in zip(keys, values)]
        logits, hidden = self.talker(x + text.astype(x.dtype), cache)
        codes, embed, new_seen, new_rng = self._frame(sampled, logits, hidden, seen, rng, steps, settings)
        m = moving[:, None]  # rows that wait keep their state; their KV write is overwritten later
        return (codes, mx.where(m[..., None], embed, x), lengths + moving, [c.keys for c in cache],
                [c.values for c in cache], mx.where(m, new_seen, seen), mx.where(m, new_rng, rng), steps + moving)


class Rows:
    """A batch of rows stepped one frame at a time (see the module docstring).

    `add(row)` prefills a row (its first frame comes from the prefill); `step()` sends off the
    next frame of every row that can move and returns the frames finished since the last call
    as (row, codes (16,) int32) pairs, so the device computes one frame while the host reads
    the last. Rows that end (EOS, limit) are marked done and leave; `remove` takes one out early.
    The batch dimension grows and shrinks by powers of two; the KV capacity by `GROW` positions.
    """

    GROW = 256

    def __init__(self, talker, eos_id: int):
        self.talker, self.eos_id, self.graphs = talker, eos_id, talker.row_graphs(eos_id)
        attn = talker.model.layers[0].self_attn
        self.kv_shape = (attn.n_kv_heads, attn.head_dim)
        self.hidden, self.dtype = talker.model.norm.weight.shape[0], talker.model.norm.weight.dtype
        self.slots: List[Optional[Row]] = []
        self.state = None  # batch arrays, see _empty
        self.settings, self.sampled = None, False
        self.pending = []  # [(codes (B, 16), [(row, slot)])] sent off, not yet read

    @property
    def rows(self) -> List[Row]:
        return [r for r in self.slots if r is not None]

    def __len__(self):
        return len(self.rows)

    def add(self, *rows: Row):
        """Prefill `rows` together and send off their first frames; they step with the others from now.
        The prompts are right-padded to the longest: causal attention keeps the padding out of every
        real position, and each row's first frame comes from its own last prompt position."""
        started = time.perf_counter()
        lengths = [row.prompt.embeds.shape[1] for row in rows]
        longest = max(lengths)
        embeds = mx.concatenate([mx.pad(row.prompt.embeds, [(0, 0), (0, longest - n), (0, 0)])
                                 for row, n in zip(rows, lengths)])
        cache = self.talker.make_cache()
        hidden = mx.take_along_axis(self.talker.model(embeds, cache), mx.array(lengths)[:, None, None] - 1, axis=1)
        keys = mx.stack([mx.random.key(row.seed) for row in rows])
        seen = mx.zeros((len(rows), self.graphs.vocab), dtype=mx.bool_)
        steps = mx.zeros((len(rows),), dtype=mx.int32)
        sampled = any(row.sampling.sampled for row in rows)
        codes, embed, seen, keys = self.graphs.frame[sampled](self.talker.codec_head(hidden[:, 0]), hidden, seen,
                                                               keys, steps, row_settings([r.sampling for r in rows]))
        for row in rows:
            if None not in self.slots:
                self.slots.append(None)
            row.slot = self.slots.index(None)
            self.slots[row.slot] = row
        self._make_room(longest + 1)  # once for all of them
        for b, (row, n) in enumerate(zip(rows, lengths)):
            row.started, row.length, row.sent = started, n, 1
            new = {"x": embed[b : b + 1], "seen": seen[b : b + 1], "rng": keys[b : b + 1],
                   "lengths": mx.array([n], dtype=mx.int32), "steps": mx.ones((1,), dtype=mx.int32),
                   "keys": [c.keys[b : b + 1, :, :n] for c in cache],
                   "values": [c.values[b : b + 1, :, :n] for c in cache]}
            self.state = tree_map(lambda a, v: _put(a, row.slot, v), self.state, new)
        self.settings = None
        mx.async_eval(codes, self.state)
        self.pending.append((codes, [(row, b) for b, row in enumerate(rows)]))

    def remove(self, row: Row):
        row.done = True
        if row.slot is not None and self.slots[row.slot] is row:
            self.slots[row.slot] = None
            self.settings = None
        row.slot = None
        self._shrink()

    def step(self) -> list:
        """Send off one frame for every row that can move; return the frames read since last time."""
        moving = [r for r in self.rows if self._can_step(r)]
        sent = self._send(moving) if moving else None
        frames = self._read()
        if sent is not None:
            self.pending.append(sent)
        return frames

    def _can_step(self, row: Row) -> bool:
        try:
            return row.can_step()
        except Exception as exc:  # noqa: BLE001  (its text source failed: that row ends, alone)
            row.error = exc
            self.remove(row)
            return False

    def busy(self) -> bool:
        """Whether frames are in flight (a `step()` would return some without new input)."""
        return bool(self.pending)

    def _send(self, moving: List[Row]):
        st = self._make_room(max(r.length for r in self.rows) + 1)
        size = len(self.slots)
        zero = mx.zeros((self.hidden,), dtype=self.dtype)
        text = [zero] * size
        mask = np.zeros(size, dtype=bool)
        for r in moving:
            text[r.slot] = r.track(r.sent - 1)
            mask[r.slot] = True
        if self.settings is None:
            default = SamplingConfig(temperature=0.0, cp_temperature=0.0)
            self.settings = row_settings([r.sampling if r is not None else default for r in self.slots])
            self.sampled = any(r.sampling.sampled for r in self.rows)
        out = self.graphs.step[self.sampled](
            st["x"], mx.stack(text)[:, None], mx.array(mask), st["lengths"], st["keys"], st["values"], st["seen"],
            st["rng"], st["steps"], self.settings)
        codes, st["x"], st["lengths"], st["keys"], st["values"], st["seen"], st["rng"], st["steps"] = out
        mx.async_eval(codes, st)
        for r in moving:
            r.sent += 1
            r.length += 1
        return codes, [(r, r.slot) for r in moving]

    def _read(self) -> list:
        frames = []
        for codes, owners in self.pending:
            codes_np = np.array(codes)
            for row, slot in owners:
                if not row.prefill_s:
                    row.prefill_s = time.perf_counter() - row.started
                if row.done:
                    continue  # ended (or removed) while this frame was in flight
                if codes_np[slot, 0] == self.eos_id:
                    row.stopped_on_eos = True
                    self.remove(row)
                    continue
                row.frames += 1
                frames.append((row, codes_np[slot]))
                if row.frames >= row.limit():
                    self.remove(row)
        self.pending = []
        return frames

    def _empty(self, size: int, capacity: int) -> dict:
        kv = mx.zeros((size, self.kv_shape[0], capacity, self.kv_shape[1]), dtype=self.dtype)
        layers = len(self.talker.model.layers)
        return {"x": mx.zeros((size, 1, self.hidden), dtype=self.dtype), "lengths": mx.zeros((size,), dtype=mx.int32),
                "keys": [kv] * layers, "values": [kv] * layers, "seen": mx.zeros((size, self.graphs.vocab), mx.bool_),
                "rng": mx.zeros((size, 2), dtype=mx.uint32), "steps": mx.zeros((size,), dtype=mx.int32)}

    def _make_room(self, length: int) -> dict:
        """The batch state with room for every slot (their number rounded up to a power of two) and
        `length` positions (a multiple of GROW)."""
        size = 1 << max(len(self.slots) - 1, 0).bit_length()
        self.slots += [None] * (size - len(self.slots))
        capacity = math.ceil(length / self.GROW) * self.GROW
        if self.state is None:
            self.state = self._empty(size, capacity)
        have = self.state["keys"][0].shape
        if have[0] < size or have[2] < capacity:
            grown = self._empty(max(size, have[0]), max(capacity, have[2]))
            self.state = tree_map(lambda g, old: _put(g, 0, old), grown, self.state)
        return self.state

    def _shrink(self):
        """Pack the rows into the smallest power of two once half of the slots or fewer are used (an
        empty slot still costs its share of every step on a CPU)."""
        rows = self.rows
        if len(self.slots) <= 1 or len(rows) * 2 > len(self.slots):
            return
        if not rows:
            self.slots, self.state, self.settings = [], None, None
            return
        size = 1 << max(len(rows) - 1, 0).bit_length()
        order = mx.array([r.slot for r in rows] + [rows[0].slot] * (size - len(rows)), dtype=mx.int32)
        self.state = tree_map(lambda a: mx.take(a, order, axis=0), self.state)
        self.slots = rows + [None] * (size - len(rows))
        for i, r in enumerate(rows):
            r.slot = i
        self.settings = None


def _put(array, row: int, value):
    """array with value (n, ...) written over its rows from `row` on."""
    start = mx.array([row] + [0] * (array.ndim - 1), dtype=mx.int32)
    return mx.slice_update(array, value.astype(array.dtype), start, axes=tuple(range(array.ndim)))


def generate_frames(talker, prompt: Prompt, sampling: SamplingConfig, max_frames: int, eos_id: int) -> Iterator[Frame]:
    """Frames of one prompt until codebook 0 is EOS or `max_frames` (see `run_row`)."""
    yield from run_row(Rows(talker, eos_id), Row(prompt, sampling, max_frames))


def run_row(rows: Rows, row: Row, state: Optional[LoopState] = None) -> Iterator[Frame]:
    """Yield the frames of `row`, run alone on the empty loop `rows`, until EOS or its frame limit.

    Frame t+1 is sent off before frame t is read, so the device never waits for the host. With a
    streamed-in text track, a frame whose text has not arrived yet is sent off once it has (the
    frames before it are given out first); the row's `budget()` lowers its limit as far as the
    text received so far allows.
    """
    state = state or LoopState()
    state.max_frames = row.limit()
    rows.add(row)
    while not row.done:
        frames = rows.step()
        state.prefill_s = row.prefill_s
        for r, codes in frames:
            state.frames = r.frames
            yield Frame(r.frames - 1, mx.array(codes[None]), last=r.done)
        state.max_frames = row.limit()
        if not frames and not rows.busy() and not row.done:
            row.track.wait(row.sent - 1)  # the only row waits for its text: block until it comes
    if row.error is not None:
        raise row.error
    state.stopped_on_eos = row.stopped_on_eos


def teacher_forced_logits(talker, prompt: Prompt, codes: mx.array):
    """Raw logits of the talker and code predictor when fed the given codes (T, 16).

    Returns talker logits (T + 1, V0) (the last one predicts the frame after the codes) and code
    predictor logits (T, 15, V). Used by the parity tests and the quantization report.
    """
    text_track, cp = ArrayTextTrack(prompt), talker.code_predictor
    cache = talker.make_cache()
    tables = [talker.model.codec_embedding, *cp.model.codec_embedding]  # codebook 0's is the talker's
    x, talker_logits, cp_logits = prompt.embeds, [], []
    for t in range(codes.shape[0] + 1):
        logits, hidden = talker(x, cache)
        talker_logits.append(logits[0])
        if t == codes.shape[0]:
            break
        embeds = [table(codes[t, q : q + 1]) for q, table in enumerate(tables)]
        seq = mx.concatenate([hidden[0]] + embeds[:-1])[None]  # (1, 16, H)
        h = cp.model(cp.project(seq), [None] * len(cp.model.layers))
        cp_logits.append(mx.stack([head(h[0, q + 1]) for q, head in enumerate(cp.lm_head)]))
        x = mx.concatenate(embeds).sum(axis=0)[None, None] + text_track(t).astype(hidden.dtype)
        mx.eval(x, talker_logits[-1], cp_logits[-1])
    return mx.stack(talker_logits), mx.stack(cp_logits) if cp_logits else None
