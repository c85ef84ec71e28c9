"""The decode loop of one model: requests to rows, rows to frames.

Voice modes differ only in the prompt (see prompt.py). Per frame the talker gives codebook 0,
the code predictor codebooks 1..15, and the next talker input is the sum of all 16 codebook
embeddings plus that step's text-track vector (text_track.py). `DecodeLoop` builds a request's row
(prompt, text track, frame limit: its max_frames, else `frame_budget` of its text) and owns the compiled
graphs (graphs.py); the rows of any number of requests are stepped together by `Rows` (rows.py), whose
`drain()` every caller iterates: `FrameStream` (one row: `TTS.frames`), `TTS.generate_batch` and the
engine (many).
"""

from dataclasses import dataclass
from typing import Callable, Optional

import mlx.core as mx
import numpy as np

from ..codec import FRAMES_PER_SECOND
from ..iterators import Iterated
from ..request import Request
from ..tokenizer import TemplateIds
from .graphs import LoopGraphs
from .prompt import Prompt, build_prompt
from .row_store import RowStore
from .rows import Row, Rows
from .runaway import Runaway
from .sampling import SamplingConfig
from .text_track import LiveText, LiveTextTrack, live_share

# A bound, not an estimate: above the runaway guard's "duration" bound in every language (at most 1.5 s a token,
# twice a reading at 80 words a minute: loop/runaway.py), so slow speech is not cut by it either.
SECONDS_PER_TOKEN = 2.0
BASE_SECONDS = 3.0


def frame_budget(n_text_tokens: int) -> int:
    """The default frame cap (max_tokens): generous for real speech, short enough that a runaway stops early."""
    return int(np.ceil(FRAMES_PER_SECOND * (BASE_SECONDS + SECONDS_PER_TOKEN * n_text_tokens)))


@dataclass
class Frame:
    index: int
    codes: np.ndarray  # (1, 16) int32
    last: bool = False  # no frame follows (its frame limit); at EOS the end is known only after it


class FrameStream(Iterated):
    """The frames of one row run alone (iterate it), and what the loop reports about them: `frames`
    given out, `max_frames` (its frame limit, lowered as a streamed-in text tells its length),
    `stopped_on_eos`, `prefill_s` (until its first frame was read), `runaway` (the runaway guard's rule that
    ended it, else None) and `seed` (its row's random seed, drawn where the request gave none).

    On Metal/CUDA frame t+1 is sent off before frame t is read (see `Rows`). With a
    streamed-in text, a frame whose text has not arrived yet is sent off once it has (the
    frames before it are given out first). The row is made on the first `next` (`make_row(text)`;
    None: nothing to say), so a text still being written is waited for there, not here.
    """

    def __init__(self, rows: Rows, make_row: Callable, make_text: Optional[Callable] = None):
        self.frames = self.max_frames = 0
        self.stopped_on_eos, self.prefill_s = False, 0.0
        self.runaway, self.seed = None, None
        self._rows = rows
        self._run = self._generate(rows, make_row, make_text)

    def carry(self, arrays: list):
        """Send `arrays` to the host with the next frame read (`Rows.carry`); None: read them yourself."""
        return self._rows.carry(arrays)

    def _generate(self, rows: Rows, make_row: Callable, make_text: Optional[Callable]):
        text = make_text() if make_text is not None else None
        try:
            row = make_row(text)
            if row is not None:
                yield from self._row_frames(rows, row)
        finally:
            if text is not None:
                text.close()

    def _row_frames(self, rows: Rows, row: Row):
        self.max_frames, self.seed = row.limit(), row.seed
        rows.add(row)
        for frames in rows.drain():  # the only row: a step with nothing to do waits for its text
            self.prefill_s = row.prefill_s
            for r, codes in frames:
                self.frames, self.runaway = r.frames, r.runaway  # known with the frame that ends it
                yield Frame(r.frames - 1, codes[None], last=r.done)
            self.max_frames = row.limit()
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
        greedy and sampled: requests then find them compiled (a trace at the released shapes takes about
        two frame-times). Their shapes do not depend on the KV capacity."""
        mx.eval(self.talker.text_embed([0]))  # the text projection's compiled activation, which every prompt meets
        size = 1
        while True:
            store = RowStore(self.talker, self.graphs.vocab)
            store.slots = [None] * size
            store.make_room(1)
            shape = store.row_shape
            text, moving = mx.zeros((size, 1, shape.hidden), shape.dtype), mx.zeros((size,), mx.bool_)
            for sampled in (False, True):
                mx.eval(self.graphs.step[sampled](store.state, store.settings()[0], text, moving))
            if size >= max_rows:
                return
            size *= 2

    def frames(self, request: Request) -> FrameStream:
        """Codec frames for a Request, as they are generated."""
        make_text = (lambda: self.text(request)) if request.deltas is not None else None
        return FrameStream(self.rows(), lambda text: self.row(request, text), make_text)

    def prompt(self, request: Request, target: Optional[TemplateIds] = None, text_complete: bool = True) -> Prompt:
        """The prefill embeddings and per-frame text track of a request; `target`: the text read so far
        when it arrives as deltas (`text_complete=False` until it has ended)."""
        instruct = self.tokenizer.instruction(request.instruct).ids if request.instruct else None
        return build_prompt(self.talker, self.config, target or self.tokenizer.assistant(request.text),
                            voice=request.voice, language=request.language, instruct_ids=instruct,
                            streaming=request.text_mode == "streaming", text_complete=text_complete)

    def text(self, request: Request) -> LiveText:
        """The text of a request whose text arrives as deltas, read as it comes."""
        return LiveText(self.tokenizer, request.deltas)

    def row(self, request: Request, text: Optional[LiveText] = None, wait: bool = True) -> Optional[Row]:
        """The row of a request (prompt, sampling, seed, frame limit, text track).

        Text as deltas is read through `text` (from `text`): the row exists once the text its
        prefill needs has arrived; before that (wait=False), or when the text ended empty
        (`text.finished`), this returns None.
        """
        if text is None:
            prompt = self.prompt(request)
            return Row(prompt, request.sampling, self.limit(request, prompt), request.seed,
                       guard=self.guard(request, lambda: prompt.text_tokens))
        needed = live_share(request.voice)[0]
        if not (wait or text.has(max(needed, 1))):
            return None
        body = text.wait_for(max(needed, 1))
        if not body:
            return None
        consumed = body if text.finished else body[:needed]
        prompt = self.prompt(request, TemplateIds(text.role(), tuple(consumed), ()), text.finished)
        guard = self.guard(request, lambda: len(text.body()))
        if text.finished:  # the prompt holds it all: the prompt's own text track follows
            return Row(prompt, request.sampling, self.limit(request, prompt), request.seed, guard=guard)
        eos, pad = self.talker.text_embed([self.config.tts_eos_token_id, self.config.tts_pad_token_id])
        track = LiveTextTrack(text, request.voice, self.talker.text_embed, eos, pad)
        budget = None
        if request.max_frames is None:  # grows with the text received so far
            budget = lambda: frame_budget(len(text.body()))  # noqa: E731
        return Row(prompt, request.sampling, self.limit(request, prompt), request.seed, track, budget, guard)

    @staticmethod
    def guard(request: Request, tokens: Callable[[], int]) -> Optional[Runaway]:
        """A request's runaway guard (None when it asked for none); `tokens()`: its text's length in tokens so far.
        The "duration" rule holds where it set no max_tokens."""
        return Runaway(tokens, request.language, bounded=request.max_frames is None) if request.guard else None

    def limit(self, request: Request, prompt: Prompt) -> int:
        """A request's frame limit: its max_frames, else the budget of its text (at most max_new_tokens)."""
        if request.max_frames is None and prompt.text_tokens:
            return min(self.max_new_tokens, frame_budget(prompt.text_tokens))
        return request.max_frames or self.max_new_tokens


def generate_frames(graphs: LoopGraphs, prompt: Prompt, sampling: SamplingConfig, max_frames: int) -> FrameStream:
    """Frames of one prompt until codebook 0 is EOS or `max_frames`."""
    return FrameStream(Rows(graphs), lambda _: Row(prompt, sampling, max_frames))
