"""The decode loop: rows of independent requests stepped together, one frame at a time.

Voice modes differ only in the prompt (see prompt.py). Per frame the talker gives codebook 0,
the code predictor codebooks 1..15, and the next talker input is the sum of all 16 codebook
embeddings plus that step's text-track vector. `Rows` holds any number of such sequences: each
row has its own KV length and positions, sampling settings, repetition history, random key and
text track, so rows join (after their own prefill), pause (text not yet written) and leave at
any frame boundary, and a row's frames do not depend on the others. `DecodeLoop` is the loop of
one model: it builds a request's row (prompt, text track, frame limit) and owns the compiled
graphs (`loop_graphs`); every caller runs it: `TTS.frames` with one row, `generate_batch` and the
engine with many. Codes leave the device once, as numpy, where the host reads them (EOS check).
"""

import random
import time
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional

import mlx.core as mx
import numpy as np
from mlx.utils import tree_map

from .loop_graphs import LoopGraphs
from .prompt import Prompt, build_prompt
from .request import Request
from .row_store import RowStore
from .sampling import SamplingConfig, row_settings
from .streaming import LiveTextTrack
from .text import frame_budget
from .tokenizer import TemplateIds


@dataclass
class Frame:
    index: int
    codes: np.ndarray  # (1, 16) int32
    last: bool = False  # no frame follows (its frame limit); at EOS the end is known only after it


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


class Prefill:
    """A waiting row's prompt, processed in pieces: its own KV cache holds the positions done so far,
    so each piece attends to the row's earlier pieces as the whole prompt would."""

    def __init__(self, row: Row, talker):
        self.row, self.talker = row, talker
        self.embeds, self.cache, self.done = row.prompt.embeds, talker.make_cache(), 0
        self.slice = 0  # its row in the cache (one shared by prompts prefilled together)
        self.size: Optional[int] = None  # its piece size, set at its first piece

    @property
    def left(self) -> int:
        return self.embeds.shape[1] - self.done

    def piece_size(self, budget: int) -> int:
        """Its pieces under `budget`: as few as the budget allows, of equal size (131 positions under 96
        go as 66 + 65, not 96 + 35: the same steps, a shorter longest one)."""
        if self.size is None:
            pieces = -(-self.embeds.shape[1] // budget)
            self.size = -(-self.embeds.shape[1] // pieces)
        return self.size

    def piece(self, size: int):
        """Process the next `size` prompt positions; the last hidden state (1, 1, H) once the prompt is done."""
        hidden = self.talker.model(self.embeds[:, self.done : self.done + size], self.cache)
        self.done += size
        if self.left:
            mx.async_eval([(c.keys, c.values) for c in self.cache])  # the device starts on it now
            return None
        return hidden[:, -1:]

    def kv(self):
        """(keys, values): per layer the prompt's (1, heads, n, dim) slice of its cache."""
        n, row = self.done, self.slice
        return ([c.keys[row : row + 1, :, :n] for c in self.cache],
                [c.values[row : row + 1, :, :n] for c in self.cache])


def prefill_together(prefills: List[Prefill], talker) -> list:
    """Whole prompts of several rows in one forward pass: [(prefill, last hidden (1, 1, H))]. The prompts
    are right-padded to the longest: causal attention keeps the padding out of every real position,
    and each row's last hidden state is taken at its own last prompt position."""
    lengths = [p.left for p in prefills]
    longest = max(lengths)
    embeds = mx.concatenate([mx.pad(p.embeds, [(0, 0), (0, longest - n), (0, 0)]) for p, n in zip(prefills, lengths)])
    cache = talker.make_cache()
    hidden = mx.take_along_axis(talker.model(embeds, cache), mx.array(lengths)[:, None, None] - 1, axis=1)
    for b, (p, n) in enumerate(zip(prefills, lengths)):
        p.cache, p.slice, p.done = cache, b, n
    return [(p, hidden[b : b + 1]) for b, p in enumerate(prefills)]


class Rows:
    """A batch of rows stepped one frame at a time (see the module docstring).

    `add(row)` queues a row for its prefill; `step()` sends off the next frame of every row that can
    move and returns the frames finished since the last call as (row, codes (16,) int32) pairs, so
    the device computes one frame while the host reads the last. Rows that end (EOS, limit) are
    marked done and leave; `remove` takes one out early. The batch state lives in a `RowStore`.

    Scheduling, per step: first the running rows' frames are sent off (their cadence comes first),
    then waiting prompts are prefilled, oldest first, `prefill_budget` prompt positions in all (a
    prompt goes in equal pieces; one may take the whole budget, or several share it, and prompts
    that fit whole share one forward pass); a prompt whose last piece is done gives its first frame
    from that piece and steps with the others from the next step. With no row running the budget
    does not apply (nothing would be held back): every waiting prompt is prefilled whole. So a
    waiting request's first frame comes within ceil(positions / budget) steps once the prompts
    before it are done, whatever the load.
    """

    PREFILL_BUDGET = 96  # prompt positions per step while rows run (see benchmarks/join.py)

    def __init__(self, graphs: LoopGraphs, prefill_budget: Optional[int] = None):
        self.graphs, self.talker = graphs, graphs.talker
        self.budget = prefill_budget or self.PREFILL_BUDGET
        self.store = RowStore(graphs.talker, graphs.vocab)
        self.waiting: List[Prefill] = []  # oldest first
        self.pending = []  # [(codes (B, 16), [(row, index in codes)])] sent off, not yet read

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
            self.waiting.append(Prefill(row, self.talker))

    def _prefill(self, budget: Optional[int]) -> list:
        """Prefill pieces of the waiting prompts, oldest first, `budget` positions in all (None: no limit);
        the first frames of the rows whose prompts are done, sent off. Prompts that fit whole share one
        forward pass."""
        plan = []
        for prefill in self.waiting:
            if budget is not None and budget <= 0:
                break
            size = prefill.left if budget is None else min(prefill.left, prefill.piece_size(self.budget), budget)
            budget = None if budget is None else budget - size
            plan.append((prefill, size))
        whole = [p for p, size in plan if p.done == 0 and size == p.left]
        together = whole if len(whole) > 1 else []
        done = self._attempt(together, lambda: prefill_together(together, self.talker)) if together else []
        for prefill, size in plan:
            if prefill not in together:
                done += self._attempt([prefill], lambda: [(prefill, prefill.piece(size))])
        sent = []
        for prefill, hidden in done:
            if hidden is not None:
                self.waiting.remove(prefill)
                sent.append(self._join(prefill.row, hidden, prefill.kv()))
        return sent

    def _attempt(self, prefills: List[Prefill], work: Callable) -> list:
        """work() for these prompts; if it fails, their rows end with its error (the others go on)."""
        try:
            return work()
        except Exception as exc:  # noqa: BLE001  (these prompts failed: their rows end, alone)
            for prefill in prefills:
                prefill.row.error = exc
                self.remove(prefill.row)
            return []

    def _join(self, row: Row, hidden, kv: tuple):
        """Give a prefilled row (last hidden (1, 1, H), its prompt's (keys, values)) its first frame and a
        slot in the store; the frame is read with the next step."""
        state = {"seen": mx.zeros((1, self.graphs.vocab), dtype=mx.bool_), "rng": mx.random.key(row.seed)[None],
                 "steps": mx.zeros((1,), dtype=mx.int32), "settings": row_settings([row.sampling])}
        codes, embed, drawn = self.graphs.frame[row.sampling.sampled](self.talker.codec_head(hidden[:, 0]), hidden,
                                                                       state)
        n = kv[0][0].shape[2]
        row.slot, row.length, row.sent = self.store.place(row), n, 1
        self.store.make_room(n + 1)
        self.store.put(row.slot, {"x": embed, "seen": drawn["seen"], "rng": drawn["rng"],
                                  "lengths": mx.array([n], dtype=mx.int32), "steps": mx.ones((1,), dtype=mx.int32),
                                  "keys": kv[0], "values": kv[1]})
        mx.async_eval(codes, self.store.arrays)
        return codes, [(row, 0)]

    def remove(self, row: Row):
        row.done = True
        self.waiting = [p for p in self.waiting if p.row is not row]
        self.store.free(row)
        row.slot = None
        self.store.shrink()

    def step(self) -> list:
        """Send off one frame for every row that can move, then prefill pieces (see the class docstring);
        return the frames read since last time."""
        moving = [r for r in self.rows if self._can_step(r)]
        sent = [self._send(moving)] if moving else []
        sent += self._prefill(self.budget if moving else None)
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
        zero = mx.zeros((store.hidden,), dtype=store.dtype)
        text = [zero] * len(store.slots)
        mask = np.zeros(len(store.slots), dtype=bool)
        for r in moving:
            text[r.slot] = r.track(r.sent - 1)
            mask[r.slot] = True
        codes, stepped = self.graphs.step[store.settings()[1]](store.state(), mx.stack(text)[:, None], mx.array(mask))
        store.arrays = stepped
        mx.async_eval(codes, stepped)
        for r in moving:
            r.sent += 1
            r.length += 1
        return codes, [(r, r.slot) for r in moving]

    def _read(self) -> list:
        frames = []
        for codes, owners in self.pending:
            codes = np.array(codes)  # the one device -> host copy of a frame's codes
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
                if row.frames >= row.limit():
                    self.remove(row)
        return frames


class FrameStream:
    """The frames of one row run alone (iterate it), and what the loop reports about them: `frames`
    given out, `max_frames` (its frame limit, lowered as a streamed-in text tells its length),
    `stopped_on_eos`, `prefill_s` (until its first frame was read).

    Frame t+1 is sent off before frame t is read, so the device never waits for the host. With a
    streamed-in text track, a frame whose text has not arrived yet is sent off once it has (the
    frames before it are given out first). The row is made on the first `next` (`make_row(track)`;
    None: nothing to say), so a text still being written is waited for there, not here.
    """

    def __init__(self, rows: Rows, make_row: Callable, make_track: Optional[Callable] = None):
        self.frames = self.max_frames = 0
        self.stopped_on_eos, self.prefill_s = False, 0.0
        self._run = self._generate(rows, make_row, make_track)

    def __iter__(self) -> Iterator[Frame]:
        return self

    def __next__(self) -> Frame:
        return next(self._run)

    def close(self):
        self._run.close()

    def _generate(self, rows: Rows, make_row: Callable, make_track: Optional[Callable]):
        track = make_track() if make_track is not None else None
        try:
            row = make_row(track)
            if row is not None:
                yield from self._row_frames(rows, row)
        finally:
            if track is not None:
                track.close()

    def _row_frames(self, rows: Rows, row: Row):
        self.max_frames = row.limit()
        rows.add(row)
        while not row.done:
            frames = rows.step()
            self.prefill_s = row.prefill_s
            for r, codes in frames:
                self.frames = r.frames
                yield Frame(r.frames - 1, codes[None], last=r.done)
            self.max_frames = row.limit()
            if not frames and not rows.busy() and not row.done:
                row.track.wait(row.sent - 1)  # the only row waits for its text: block until it comes
        if row.error is not None:
            raise row.error
        self.stopped_on_eos = row.stopped_on_eos


class DecodeLoop:
    """The decode loop of one model, built from its parts: requests to rows, rows to frames.

    talker: the `Talker`; config: the `ModelConfig`; tokenizer: the `TextTokenizer`; max_new_tokens:
    the frame cap of generation_config.json. Owns the compiled graphs every batch shares.
    """

    def __init__(self, talker, config, tokenizer, max_new_tokens: int):
        self.talker, self.config, self.tokenizer, self.max_new_tokens = talker, config, tokenizer, max_new_tokens
        self.graphs = LoopGraphs(talker, config.talker_config.codec_eos_token_id)

    def rows(self, prefill_budget: Optional[int] = None) -> Rows:
        """An empty batch of this loop, for one or many requests (`prefill_budget`: see `Rows`)."""
        return Rows(self.graphs, prefill_budget)

    def warm(self, max_rows: int):
        """Trace and run the compiled graphs for every batch size up to `max_rows` rows (powers of two),
        greedy and sampled, and the first-frame graph: requests then find them compiled (a trace at the
        released shapes takes about two frame-times). Their shapes do not depend on the KV capacity."""
        size = 1
        while True:
            store = RowStore(self.talker, self.graphs.vocab)
            store.slots = [None] * size
            store.make_room(1)
            text, moving = mx.zeros((size, 1, store.hidden), store.dtype), mx.zeros((size,), mx.bool_)
            for sampled in (False, True):
                mx.eval(self.graphs.step[sampled](store.state(), text, moving))
            if size >= max_rows:
                break
            size *= 2
        hidden = mx.zeros((1, 1, store.hidden), store.dtype)
        first = tree_map(lambda a: a[:1], {k: store.state()[k] for k in ("seen", "rng", "steps", "settings")})
        for sampled in (False, True):
            mx.eval(self.graphs.frame[sampled](self.talker.codec_head(hidden[:, 0]), hidden, first))

    def frames(self, request: Request) -> FrameStream:
        """Codec frames for a Request, as they are generated."""
        make_track = (lambda: self.text_track(request)) if request.deltas is not None else None
        return FrameStream(self.rows(), lambda track: self.row(request, track), make_track)

    def prompt(self, request: Request, target: Optional[TemplateIds] = None, text_complete: bool = True) -> Prompt:
        """The prefill embeddings and per-frame text track of a request; `target`: the text read so far
        when it arrives as deltas (`text_complete=False` until it has ended)."""
        instruct = self.tokenizer.instruction(request.instruct).ids if request.instruct else None
        return build_prompt(self.talker, self.config, target or self.tokenizer.assistant(request.text),
                            voice=request.voice, language=request.language, instruct_ids=instruct,
                            streaming=request.text_mode == "streaming", text_complete=text_complete)

    def text_track(self, request: Request) -> LiveTextTrack:
        """The live text track of a request whose text arrives as deltas."""
        return LiveTextTrack(self.tokenizer, request.deltas, self.talker.text_embed)

    def row(self, request: Request, track: Optional[LiveTextTrack] = None, wait: bool = True) -> Optional[Row]:
        """The row of a request (prompt, sampling, seed, frame limit).

        Text as deltas is read through `track` (from `text_track`): the row exists once the text
        its prefill needs has arrived; before that (wait=False), or when the text ended empty
        (`track.finished`), this returns None.
        """
        if track is None:
            prompt = self.prompt(request)
            return Row(prompt, request.sampling, self.limit(request, prompt), request.seed)
        voice = request.voice
        needed, lead = 1, []
        if voice.ref_codes is not None:  # ICL: the prefill overlays text on every reference frame
            ref_text, n_audio = list(voice.ref_text_ids), voice.ref_codes.shape[0] + 1
            needed, lead = max(n_audio - len(ref_text), 0), ref_text[n_audio:]
        if not (wait or track.has(max(needed, 1))):
            return None
        body = track.wait_for(max(needed, 1))
        if not body:
            return None
        consumed = body if track.finished else body[:needed]
        prompt = self.prompt(request, TemplateIds(track.role(), tuple(consumed), ()), track.finished)
        track.eos, track.pad = self.talker.text_embed([self.config.tts_eos_token_id, self.config.tts_pad_token_id])
        track.lead, track.offset = lead, needed  # needed is 1 without ICL
        budget = None
        if request.max_frames is None and not track.finished:  # grows with the text received so far
            budget = lambda: frame_budget(len(track.body()))  # noqa: E731
        return Row(prompt, request.sampling, self.limit(request, prompt), request.seed,
                   None if track.finished else track, budget)

    def limit(self, request: Request, prompt: Prompt) -> int:
        """A request's frame limit: its max_frames, else the budget of its text (at most max_new_tokens)."""
        if request.max_frames is None and prompt.text_tokens:
            return min(self.max_new_tokens, frame_budget(prompt.text_tokens))
        return request.max_frames or self.max_new_tokens


def generate_frames(graphs: LoopGraphs, prompt: Prompt, sampling: SamplingConfig, max_frames: int) -> FrameStream:
    """Frames of one prompt until codebook 0 is EOS or `max_frames`."""
    return FrameStream(Rows(graphs), lambda _: Row(prompt, sampling, max_frames))
