"""Rows of independent requests stepped together, one frame at a time: the decode loop's batch.

Each row has its own KV length and positions, sampling settings, repetition history, random key and
text track, so rows join (after their own prefill), pause (text not yet written) and leave at any
frame boundary, and a row's frames do not depend on the others. `Rows.drain()` is the one driver:
every caller (one row alone, a batch, the engine) iterates it. Codes leave the device once, as numpy,
where the host reads them (EOS check, the runaway guard).
"""

import itertools
import math
import random
import statistics
import time
from collections import deque
from typing import Callable, Iterator, List, Optional, Tuple

import mlx.core as mx
import numpy as np

from ..backend import cpu_paths, decode_stream
from .graphs import LoopGraphs
from .prompt import Prompt
from .row_store import RowStore
from .runaway import Runaway
from .sampling import SamplingConfig
from .state import BatchState
from .text_track import ArrayTextTrack, TextTrack


class Row:
    """One sequence of a `Rows` batch: its prompt, sampling, random key, text track and limits.

    `frames` counts the frames it has given out; `done` is set at EOS or at its frame limit
    (`max_frames`, lowered by `budget()` as a streamed-in text tells its length), or when its runaway
    guard (`guard`, a `runaway.Runaway`) sees a rule fire (`runaway` names it).
    """

    def __init__(self, prompt: Prompt, sampling: SamplingConfig, max_frames: int, seed: Optional[int] = None,
                 text_track: Optional[TextTrack] = None, budget: Optional[Callable[[], int]] = None,
                 guard: Optional[Runaway] = None):
        self.prompt, self.sampling, self.max_frames, self.budget = prompt, sampling, max_frames, budget
        self.guard, self.runaway = guard, None
        self.seed = random.getrandbits(64) if seed is None else seed
        self.track: TextTrack = text_track or ArrayTextTrack(prompt)
        self.frames = self.sent = self.length = 0  # frames out, frames sent off, KV positions
        self.done = self.stopped_on_eos = False
        self.error: Optional[BaseException] = None  # what ended it, when its text track failed
        self.slot: Optional[int] = None
        self.started = self.prefill_s = 0.0  # prefill_s: from `Rows.add` until its first frame is read
        self.hold: Optional[Callable[[], bool]] = None  # True while its reader is behind: it pauses

    def limit(self) -> int:
        return self.max_frames if self.budget is None else min(self.max_frames, self.budget())

    def can_step(self) -> bool:
        """Whether its next frame can be sent off now (the text it needs has arrived, its reader keeps up)."""
        return (not self.done and self.sent < self.limit() and (self.sent == 0 or self.track.ready(self.sent - 1))
                and not (self.hold is not None and self.hold()))

    def text(self, zero):
        """The text-track vector added to its next step's input: none to its first (the input is then the
        prompt's last position, which holds its text already)."""
        return zero if self.sent == 0 else self.track(self.sent - 1)


class Carried:
    """Arrays that go to the host with a batch's next frame read (`Rows.carry`): one copy for both, so a frame
    and a chunk's audio cost the host one sync. `get()` gives them as numpy (read alone, if no read took them)."""

    def __init__(self, arrays: list):
        self.arrays, self.values = arrays, None

    def get(self) -> list:
        if self.values is None:
            self.values = [np.array(a) for a in self.arrays]
        return self.values


def host_copy(arrays: list) -> list:
    """`arrays` as numpy in one device -> host copy: their bytes packed into one array (on the decode stream,
    so the packing waits for these arrays only, not for a frame sent off after them)."""
    stream = decode_stream()
    flat = [a.reshape(-1).view(mx.uint8, stream=stream) for a in arrays]
    data, out, at = np.array(mx.concatenate(flat, stream=stream)), [], 0
    for a in arrays:
        out.append(data[at : at + a.nbytes].view(str(a.dtype).rsplit(".", 1)[-1]).reshape(a.shape))
        at += a.nbytes
    return out


class Prefill:
    """A waiting row's prompt but its last position, processed in pieces: its own KV cache holds the
    positions done so far, so each piece attends to the row's earlier pieces as the whole prompt would.
    The last position is the row's first step input: its first frame comes from a frame step, with
    the other rows'.

    Pieces are sized by cost, not count: a position costs 1, plus 1 more per `span` earlier positions
    it attends to (a prompt's later positions cost more: see `Rows.ATTENTION_SPAN`)."""

    def __init__(self, row: Row, talker, span: float, chunk: Optional[int] = None):
        self.row, self.talker, self.span, self.chunk = row, talker, span, chunk
        self.embeds, self.done = row.prompt.embeds, 0
        self.cache = prompt_cache(talker, self.left)
        self.slice = 0  # its row in the cache (one shared by prompts prefilled together)
        self.plan: Optional[tuple] = None  # (budget, cost spent, cost of each piece) its piece ends follow

    @property
    def left(self) -> int:
        return self.embeds.shape[1] - 1 - self.done

    def total(self, positions: float) -> float:
        """The cost of its first `positions` positions."""
        return positions + positions * (positions - 1) / (2 * self.span)

    def reach(self, cost: float) -> int:
        """The position its pieces reach with `cost` spent from its start (the nearest)."""
        a = 1 - 1 / (2 * self.span)  # total(p) = p * a + p * p / (2 * span)
        return round(self.span * (math.sqrt(a * a + 2 * cost / self.span) - a))

    def cost(self, size: int) -> float:
        """The cost of its next `size` positions."""
        return self.total(self.done + size) - self.total(self.done)

    def piece_size(self, budget: float, units: float) -> int:
        """Its next piece: to the next of its piece ends (as few pieces as `budget` allows, of equal cost:
        131 positions under 96 go as about 66 + 65, not 96 + 35), or less where other prompts took some of
        this step's `budget` (`units` are left). The ends are planned at its first piece, and again from
        where it is when the budget has moved by more than a tenth (a measured one moves every step)."""
        end, spent = self.done + self.left, self.total(self.done)
        if self.plan is None or not 0.9 <= budget / self.plan[0] <= 1.1:
            rest = self.total(end) - spent
            self.plan = (budget, spent, rest / max(math.ceil(rest / budget - 1e-9), 1))
        _, origin, share = self.plan
        ends = (self.reach(origin + j * share) for j in itertools.count(int((spent - origin) / share)))
        stop = min(end, next(p for p in ends if p > self.done))
        if units < budget and self.total(stop) - spent > units + 1 + stop / self.span:  # by more than a position
            stop = self.reach(spent + units)
        return max(stop - self.done, 1)

    def piece(self, size: int):
        """Process the next `size` prompt positions (in passes of at most `chunk`: see `forward`)."""
        forward(self.talker, self.embeds[:, self.done : self.done + size], self.cache, self.chunk)
        self.done += size

    def kv(self):
        """(keys, values): per layer the prompt's (1, heads, n, dim) slice of its cache."""
        n, row = self.done, self.slice
        return ([c.keys[row : row + 1, :, :n] for c in self.cache],
                [c.values[row : row + 1, :, :n] for c in self.cache])


def prompt_cache(talker, positions: int) -> list:
    """The talker's KV caches for one prompt (or a batch of them), with room for `positions` at their first
    update: a cache that grew (mlx-lm's KVCache, by 256 positions) would copy itself where it grew."""
    cache = talker.make_cache()
    for c in cache:
        c.step = max(positions, 1)
    return cache


def forward(talker, embeds, cache, chunk: Optional[int] = None):
    """The talker over `embeds` (B, n, H) after the positions `cache` holds, in passes of at most `chunk`
    positions (None: one). On the CPU a pass's causal attention is computed over the whole square of its
    positions, the masked half included (MLX's CPU attention is its composed fallback), so a long prompt
    goes faster in chunks (`Rows.PREFILL_CHUNK`); Metal/CUDA paths keep one pass. The device starts on
    the last pass at once."""
    n = embeds.shape[1]
    for start in range(0, n, chunk or n):
        talker.model(embeds[:, start : start + (chunk or n)], cache)
        (mx.async_eval if start + (chunk or n) >= n else mx.eval)([(c.keys, c.values) for c in cache])


def prefill_together(prefills: List[Prefill], talker, chunk: Optional[int] = None):
    """Whole prompts (but their last positions) of several rows in one forward pass (passes of at most
    `chunk` positions: see `forward`). The prompts are right-padded to the longest: causal attention
    keeps the padding out of every real position."""
    lengths = [p.left for p in prefills]
    longest = max(lengths)
    embeds = mx.concatenate([mx.pad(p.embeds[:, :n], [(0, 0), (0, longest - n), (0, 0)])
                             for p, n in zip(prefills, lengths)])
    cache = prompt_cache(talker, longest)
    forward(talker, embeds, cache, chunk)
    for b, (p, n) in enumerate(zip(prefills, lengths)):
        p.cache, p.slice, p.done = cache, b, n


class Cadence:
    """The running rows' frame step and the prefill budget that fits it, measured on the loop's own steps,
    start to start (so what the caller does between steps, such as decoding their audio, counts). Pieces
    of u units in all that made their steps e seconds longer than a frame step say u / e units a second,
    and the budget is what that rate does in the frame step now (f): u * f / e. As every piece also costs a
    fixed part (it reads all the weights), that is too low for pieces longer than f and too high for
    shorter ones, so following it settles where a piece takes f: a step with a piece then takes about two
    frame steps, whatever the machine, model or number of rows. Measures are steps that sent frames and
    neither grew the store nor took rows in (a new row's first frame and audio are work of their own).
    Until a piece is measured the budget is `first`."""

    KEEP = 5  # recent measures of each kind: the frame step changes as rows come and go

    def __init__(self, first: float, clock: Callable[[], float] = time.perf_counter):
        self.clock, self.budget = clock, first
        self.frame_s = deque(maxlen=self.KEEP)  # steps without prefill: seconds
        self.piece_s = deque(maxlen=self.KEEP)  # steps with prefill: (units, seconds over a frame step)
        self.started: Optional[float] = None
        self.units: Optional[float] = None  # prefilled in the step under way (None: no measure)

    def begin(self):
        """A step starts: the last one, if it was a measure, ends here."""
        now = self.clock()
        if self.started is not None and self.units is not None:
            seconds = now - self.started
            if not self.units:
                self.frame_s.append(seconds)
            elif self.frame_s:
                self.piece_s.append((self.units, seconds - statistics.median(self.frame_s)))
            self._fit()
        self.started, self.units = now, None

    def end(self, units: Optional[float]):
        """The step under way prefilled `units` while rows ran (None: it is no measure)."""
        self.units = units

    def _fit(self):
        if not self.frame_s or not self.piece_s:
            return
        units, extra = (sum(v) for v in zip(*self.piece_s))
        if extra <= 0:  # too cheap to see beside the frame steps: twice the largest piece kept
            self.budget = 2 * max(u for u, _ in self.piece_s)
        else:
            self.budget = max(units / extra * statistics.median(self.frame_s), 1.0)


class Rows:
    """A batch of rows stepped one frame at a time (see the module docstring).

    `drain()` is the driver every caller iterates: it steps while rows are left and yields each step's
    frames. `add(row)` queues a row for its prefill (also between the steps of a drain); `step()` sends off
    the next frame of every row that can move and returns the frames finished since the last call as
    (row, codes (16,) int32) pairs: on
    Metal/CUDA one frame stays in flight (the device computes frame t+1 while the host reads frame t),
    on the CPU a frame is read in the step that sends it (`overlap`). Rows that end (EOS, limit, runaway) are
    marked done and leave; `remove` takes one out early. The batch state lives in a `RowStore`.

    Scheduling, per step: waiting prompts are prefilled, oldest first, a budget of cost units in all (a
    position costs 1, plus 1 per `ATTENTION_SPAN` earlier positions it attends to): `prefill_budget`, else
    the units that take about one frame step, measured as the rows run (`Cadence`); a prompt goes in as
    few pieces of equal cost as the budget allows; several may share a step, and prompts that fit
    whole share one forward pass (on the CPU, passes of at most `PREFILL_CHUNK` positions). Then one
    frame is sent off for every row that can move, the rows whose prompts were just done included: a
    prompt's last position is its row's input to that frame step, so its first frame comes with the
    running rows' frames, in the step of its last piece. A prompt the
    store has no room for (a row more, or more KV positions) first gets it in a step without pieces but
    its first position (new memory is a step's work by itself here). So the running rows' frames are never
    held back by more than a budget's work a step (about one frame step), and a waiting request's first
    frame comes within ceil(cost / budget) steps (plus one, to grow the store) once the prompts before it
    are done. With no row running the budget does not apply (nothing would be held back): every waiting
    prompt is prefilled whole.
    """

    # Measured on a 2-core x86-64 CPU, 0.6B shapes (benchmarks/join.py): a piece of 140 units costs about a
    # frame step of 3 streams there (the budget until `Cadence` has measured one); a 96-position piece costs
    # 0.69 s at the prompt's start and 1.14 s 800 positions in (so the span).
    PREFILL_BUDGET = 140  # prompt cost units per step while rows run, before any is measured
    ATTENTION_SPAN = 1250  # a position attending to this many earlier ones costs twice one at the start
    # On the CPU a prompt is processed in passes of at most this many positions (see `forward`): an
    # 838-position prompt took 8.36 s in one pass, 7.23 s in passes of 256 (128: 7.48 s, 512: 7.59 s),
    # a 499-position one 4.19 s and 3.83 s, on that CPU (benchmarks/prefill.py, README).
    PREFILL_CHUNK = 256

    def __init__(self, graphs: LoopGraphs, prefill_budget: Optional[int] = None):
        self.graphs, self.talker = graphs, graphs.talker
        self.fixed_budget, self.span = prefill_budget, self.ATTENTION_SPAN
        self.cadence = Cadence(self.PREFILL_BUDGET)
        # Metal / CUDA: a frame stays in flight while the host reads the last (the device never waits for the
        # host). On the CPU the device is the host's own cores, so nothing overlaps: a frame is read at once
        # (its audio then comes a frame-time sooner; measured in benchmarks/join.py).
        self.overlap = not cpu_paths()
        self.chunk = self.PREFILL_CHUNK if cpu_paths() else None
        self.store = RowStore(graphs.talker, graphs.vocab)
        self.waiting: List[Prefill] = []  # oldest first
        self.pending = []  # [(codes (B, 16), [(row, index in codes)])] sent off, not yet read
        self.carried: List[Carried] = []  # to the host with the next frame read

    @property
    def rows(self) -> List[Row]:
        """The rows holding a slot (prefilled)."""
        return self.store.rows

    def __len__(self):
        return len(self.rows) + len(self.waiting)

    def add(self, *rows: Row):
        """Queue `rows` for their prefill (see the class docstring); they join at a later `step`."""
        started = time.perf_counter()
        for row in rows:
            row.started = started
            self.waiting.append(Prefill(row, self.talker, self.span, self.chunk))

    @property
    def budget(self) -> float:
        """Prompt cost units prefilled in a step while rows run."""
        return self.fixed_budget or self.cadence.budget

    def _prefill(self, budget: Optional[float]) -> Tuple[List[Row], Optional[float]]:
        """Prefill pieces of the waiting prompts, oldest first, `budget` cost units in all (None: no limit);
        the rows whose prompts are done join the store. Prompts that fit whole share one forward pass.
        Returns (the rows that joined, the units spent; None where the store grew)."""
        if budget is not None and self._grown_for(self.waiting[0] if self.waiting else None):
            head = self.waiting[0]  # its cache is made with its first position: both new memory in this step
            self._attempt([head], lambda: head.piece(1))
            return [], None
        plan, units = [], 0.0
        for prefill in self.waiting:
            if budget is not None and units >= budget:
                break
            size = prefill.left if budget is None else prefill.piece_size(budget, budget - units)
            units += prefill.cost(size)
            plan.append((prefill, size))
        whole = [p for p, size in plan if p.done == 0 and size == p.left]
        together = whole if len(whole) > 1 else []
        if together:
            self._attempt(together, lambda: prefill_together(together, self.talker, self.chunk))
        for prefill, size in plan:
            if prefill not in together and size:
                self._attempt([prefill], lambda: prefill.piece(size))
        joined = [p for p, _ in plan if not p.left and not p.row.done]
        for prefill in joined:
            self.waiting.remove(prefill)
            self._join(prefill)
        return [p.row for p in joined], units

    def _grown_for(self, prefill: Optional[Prefill]) -> bool:
        """Whether the store grew (rows or KV capacity) for the oldest waiting prompt, before its first piece:
        that copy of every row's state, with the prompt's own cache made by its first position, is a step's
        work of its own (new memory, slow where it is first touched), so no piece is added to it."""
        return (prefill is not None and prefill.done == 0 and prefill.left > 1
                and self.store.make_room(prefill.embeds.shape[1] + 1, len(self.rows) + 1))

    def _attempt(self, prefills: List[Prefill], work: Callable):
        """work() for these prompts; if it fails, their rows end with its error (the others go on)."""
        try:
            work()
        except Exception as exc:  # noqa: BLE001  (these prompts failed: their rows end, alone)
            for prefill in prefills:
                prefill.row.error = exc
                self.remove(prefill.row)

    def _join(self, prefill: Prefill):
        """Give a prefilled row a slot in the store: its KV holds the prompt but the last position, which
        is its next input (its first frame comes from the next frame step, with the other rows')."""
        row, (keys, values), n = prefill.row, prefill.kv(), prefill.done
        row.slot, row.length, row.sent = self.store.place(row), n, 0
        self.store.make_room(n + 1)
        self.store.put(row.slot, BatchState(
            x=prefill.embeds[:, -1:], lengths=mx.array([n], dtype=mx.int32), keys=keys, values=values,
            seen=mx.zeros((1, self.graphs.vocab), dtype=mx.bool_), rng=mx.random.key(row.seed)[None],
            steps=mx.zeros((1,), dtype=mx.int32)))

    def remove(self, row: Row):
        row.done = True
        self.waiting = [p for p in self.waiting if p.row is not row]
        self.store.free(row)
        row.slot = None
        self.store.shrink()

    def drain(self, idle: Optional[Callable[[], None]] = None) -> Iterator[list]:
        """Step while any row is left (prefilled or waiting), yielding each step's frames ((row, codes (16,))
        pairs, possibly none); rows may be added or removed between steps. After a step that did nothing
        (no frame read or in flight, no prompt waiting: every row waits for its text) comes `idle()`, which
        blocks until there may be work (default: the first waiting row's text track). Frames in flight when
        the last row has left belong to rows that are done: they are dropped, not read."""
        while len(self):
            frames = self.step()
            yield frames
            if not frames and not self.busy() and len(self):
                (idle or self._wait_for_text)()
        self.pending, self.carried = [], []

    def _wait_for_text(self):
        for row in self.rows:
            if not row.done and row.sent:
                row.track.wait(row.sent - 1)
                return

    def step(self) -> list:
        """Prefill pieces, then send off one frame for every row that can move, the rows whose prompts were
        just done included (see the class docstring); return the frames read since last time."""
        self.cadence.begin()
        moving = [r for r in self.rows if self._can_step(r)]
        joined, units = self._prefill(self.budget if moving else None) if self.waiting else ([], 0)
        self.cadence.end(units if moving and not joined else None)
        moving += [r for r in joined if self._can_step(r)]
        sent = [self._send(moving)] if moving else []
        if not self.overlap:
            self.pending, sent = self.pending + sent, []
        frames = self._read()
        self.pending = sent
        return frames

    def _can_step(self, row: Row) -> bool:
        try:
            return row.can_step()
        except Exception as exc:  # noqa: BLE001  (its text source failed: that row ends, alone)
            row.error = exc
            self.remove(row)
            return False

    def busy(self) -> bool:
        """Whether frames are in flight or prompts wait (a `step()` would do work without new input)."""
        return bool(self.pending or self.waiting)

    def _send(self, moving: List[Row]):
        store = self.store
        store.make_room(max(r.length for r in self.rows) + 1)
        zero = mx.zeros((store.row_shape.hidden,), dtype=store.row_shape.dtype)
        text = [zero] * len(store.slots)
        mask = np.zeros(len(store.slots), dtype=bool)
        for r in moving:
            text[r.slot] = r.text(zero)
            mask[r.slot] = True
        settings, sampled = store.settings()
        codes, store.state = self.graphs.step[sampled](store.state, settings, mx.stack(text)[:, None], mx.array(mask))
        mx.async_eval(codes, store.state)
        for r in moving:
            r.sent += 1
            r.length += 1
        return codes, [(r, r.slot) for r in moving]

    def carry(self, arrays: list) -> Optional[Carried]:
        """Send `arrays` (being computed, off the frames' stream) to the host with the next frame read: one
        sync for both. None when no frame is in flight (the caller reads them itself: no read may come) or the
        decode stream is the frames' own (the copy would wait for the frame sent after them)."""
        if not (self.overlap and self.pending) or decode_stream() == mx.default_stream(mx.default_device()):
            return None
        self.carried.append(Carried(arrays))
        return self.carried[-1]

    def _read(self) -> list:
        frames = []
        for codes, owners in self.pending:
            codes = self._host(codes)  # the one device -> host copy of a frame's codes
            for row, index in owners:
                if not row.prefill_s:
                    row.prefill_s = time.perf_counter() - row.started
                if row.done:
                    continue  # ended (or removed) while this frame was in flight
                if codes[index, 0] == self.graphs.eos_id:
                    row.stopped_on_eos = True
                    self.remove(row)
                    continue
                row.frames += 1
                frames.append((row, codes[index]))
                if row.guard is not None:
                    row.runaway = row.guard.see(int(codes[index, 0]))
                if row.frames >= row.limit() or row.runaway:
                    self.remove(row)
        return frames

    def _host(self, codes: mx.array) -> np.ndarray:
        """A frame's codes as numpy, with the arrays carried since the last read (`carry`) in the same copy."""
        if not self.carried:
            return np.array(codes)
        carried, self.carried = self.carried, []
        values = host_copy([codes] + [a for c in carried for a in c.arrays])
        codes, at = values[0], 1
        for c in carried:
            c.values, at = values[at : at + len(c.arrays)], at + len(c.arrays)
        return codes
