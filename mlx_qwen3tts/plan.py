"""A request as the pieces it is spoken in, and the rules the pieces share: the request layer's answer to
"how is this text spoken", which every driver consumes (`TTS.generate`, `TTS.request_chunks`, the engine's
`PiecedHandle`, the command line's batch lines).

A text longer than `LONG_TEXT_CHARS` is cut at sentence ends (`split` "auto"; "sequence" and "batch" at any
length, "none" never); text arriving as deltas is cut at the same places as it comes. Run one after the
other, the pieces share the text's frame budget (`max_tokens`, when given: each piece may use what the ones
before left); run as one batch ("batch"), the budget is shared by text length.

Seeds, one rule (`derived_seed`) for everything spoken from one seed: piece i of a split text is spoken with
`derived_seed(seed, i)` (the first piece with the seed itself), a long-form segment with the run's seed and
its index, and a request spoken again after a runaway with `derived_seed(its own seed, 0, 1)`. So the same
text, voice, settings and seed give the same audio through every front end, and no two pieces sound alike
by chance. Without a seed each piece draws its own at random.
"""

import itertools
from dataclasses import replace
from typing import Callable, Iterable, Iterator, List, Optional

from .audio.joining import JoinedChunks
from .errors import InputError
from .iterators import Iterated
from .model.config import ModelFacts
from .request import Request, build_request, shown
from .request_fields import Asked
from .seeds import piece_seed
from .voices import VoiceMaker
from .text import StreamedPieces, split_sentences

SPLIT_MODES = ("auto", "sequence", "batch", "none")
LONG_TEXT_CHARS = 300  # "auto" splits longer texts
def check_split(split):
    if split not in SPLIT_MODES:
        raise InputError(f"{{split}} must be one of {', '.join(SPLIT_MODES)}, got {shown(split)}", field="split")


def build_plan(facts: ModelFacts, maker: VoiceMaker, asked: Asked, split: str = "auto") -> "Plan":
    """What was asked, checked (`split` first, then every argument as `request.build_request` checks them,
    before a voice is made) and planned."""
    check_split(split)
    return Plan(build_request(facts, maker, asked), split)


class Plan:
    """How `request` is spoken (`split`: see the module docstring). `pieces` is a list for a whole text, an
    iterator made as the text arrives for text as deltas; `cut` is set when `run` left text unspoken (the
    budget spent with pieces left, or maybe left for a streamed text)."""

    def __init__(self, request: Request, split: str = "auto", max_chars: int = LONG_TEXT_CHARS):
        check_split(split)
        if request.deltas is not None and split == "batch":
            raise InputError("{split} batch needs the whole text: text arriving as deltas is spoken piece after "
                             "piece (auto)", field="split")
        self.request, self.split, self.budget, self.cut = request, split, request.max_frames, False
        self.pieces = _pieces(request, split, max_chars)

    @property
    def many(self) -> bool:
        """Whether it is known to be several pieces (a streamed text's count is not known in advance)."""
        return isinstance(self.pieces, list) and len(self.pieces) > 1

    def run(self, spent: Callable[[], int], stop: Optional[Callable[[], bool]] = None) -> Iterator[Request]:
        """The pieces one after the other as they are to be run, each with its seed (`piece_seed`), each may use
        the frames the ones before left (`spent()`: frames generated so far). The next piece is asked for once
        the caller has finished the one before; none once the budget is spent or `stop()` says so (a
        streamed text's next piece is then not waited for)."""
        pieces = iter(self.pieces)
        try:
            for i in itertools.count():
                left = self.budget if self.budget is None or not i else self.budget - spent()
                if i and ((left is not None and left < 1) or (stop is not None and stop())):
                    self.cut = left is not None and left < 1 and (not isinstance(self.pieces, list)
                                                                  or i < len(self.pieces))
                    return
                piece = next(pieces, None)
                if piece is None:
                    return
                yield replace(piece, seed=piece_seed(piece.seed, i), max_frames=left)
        finally:
            getattr(pieces, "close", lambda: None)()  # a streamed text's source closes with it

    def chunks(self, start: Callable[[Request], Iterator], sample_rate: int, stop: Optional[Callable[[], bool]] = None):
        """The audio chunks of the pieces as one stream as they are made, `start(piece)` giving each piece's chunk
        stream (closing it stops the piece): a text of one piece is its own stream, anything else `PlanChunks`.
        "batch", whose pieces' audio comes together at the end, is refused. Each piece's
        last chunk tells the text it spoke (`Said`)."""
        if self.split == "batch":
            raise InputError("{split} batch gives the pieces' audio together at the end, so it cannot stream; "
                             "use {split} sequence", field="split")

        def said(piece: Request):
            return Said(start(piece), piece)

        if isinstance(self.pieces, list) and len(self.pieces) == 1:
            return said(self.pieces[0])
        return PlanChunks(self, said, sample_rate, stop)

    def beside_others(self) -> List[Request]:
        """The pieces of a whole text run as rows of a batch beside other texts' (the command line's batch
        lines): each with its seed (`piece_seed`) and the text's whole budget, as a batch cannot pass on what a
        piece left (the same as `run` gives wherever no piece uses up the budget)."""
        return _seeded(self.pieces)

    def batch(self) -> List[Request]:
        """The pieces of a whole text as one batch ("batch"): the budget shared by text length (a piece whose
        share is 0 frames is left out, and `cut` set)."""
        pieces = _seeded(self.pieces)
        if self.budget is None:
            return pieces
        sizes = [len(piece.text) for piece in pieces]
        shares = [self.budget * size // sum(sizes) for size in sizes]
        kept = [replace(piece, max_frames=n) for piece, n in zip(pieces, shares) if n > 0]
        self.cut = len(kept) < len(pieces)
        return kept or [replace(pieces[0], max_frames=self.budget)]


class PlanChunks(Iterated):
    """A plan's pieces run one after the other (`Plan.run`), their chunks joined (`audio.joining.JoinedChunks`).
    The first piece is started at once (an engine refuses a full queue here, before any audio); each later
    one once the one before has given its final chunk. Tells `frames`, `max_frames` and `stopped_on_eos` as
    one piece's stream does, and `runaway` (a piece's speech ran away: that piece ended there, and the pieces
    after it are still spoken) and `retried` (a piece was spoken again: whole audio, `engine.PiecedHandle`),
    where the pieces' streams tell them."""

    def __init__(self, plan: Plan, start: Callable[[Request], Iterator], sample_rate: int,
                 stop: Optional[Callable[[], bool]] = None):
        self.plan, self.streams = plan, []
        pieces = plan.run(lambda: self.joined.frames, stop)
        first = self._start(start, next(pieces))
        streams = _streams(first, pieces, lambda piece: self._start(start, piece))
        self.joined = self._run = JoinedChunks(streams, sample_rate, plan.many)

    def _start(self, start: Callable[[Request], Iterator], piece: Request):
        self.streams.append(start(piece))
        return self.streams[-1]

    @property
    def runaway(self) -> Optional[str]:
        return next((s.runaway for s in self.streams if getattr(s, "runaway", None)), None)

    @property
    def retried(self) -> bool:
        return any(getattr(s, "retried", False) for s in self.streams)

    @property
    def frames(self) -> int:
        return self.joined.frames

    @property
    def max_frames(self) -> int:
        return self.joined.max_frames

    @property
    def stopped_on_eos(self) -> bool:
        return self.joined.stopped_on_eos and not self.plan.cut


class Said(Iterated):
    """A piece's chunk stream whose last chunk tells the text the piece spoke (`AudioChunk.said`: the piece's
    text, or what was read of its deltas), so its words can be timed as soon as its audio is complete
    (`aligner.piece_words`), and the runaway guard's rule where it ended the piece (`AudioChunk.runaway`, known
    with that chunk), so a streamed reply tells of it before the next piece's audio. What the stream tells
    (`frames`, `stopped_on_eos`, ...) is told through it; closing it closes the stream."""

    def __init__(self, stream, piece: Request):
        self.stream, self._run = stream, self._marked(stream, piece)

    def __getattr__(self, name):
        if name == "stream":
            raise AttributeError(name)
        return getattr(self.stream, name)

    def close(self):
        self._run.close()
        getattr(self.stream, "close", lambda: None)()

    @staticmethod
    def _marked(stream, piece: Request):
        for chunk in stream:
            yield replace(chunk, said=_spoken(piece), runaway=getattr(stream, "runaway", None)) \
                if chunk.is_final else chunk


def _spoken(piece: Request) -> Optional[str]:
    """The text a piece spoke: its text, or what was read of its deltas (None where they were not kept)."""
    return piece.text if piece.text is not None else getattr(piece.deltas, "text", None)


class _Read:
    """A piece's deltas, keeping the text read of them (`text`): what the piece spoke."""

    def __init__(self, deltas: Iterable[str]):
        self.text, self._deltas = "", iter(deltas)

    def __iter__(self):
        return self

    def __next__(self) -> str:
        delta = next(self._deltas)
        self.text += delta
        return delta

    def close(self):
        getattr(self._deltas, "close", lambda: None)()


def _streams(first, pieces: Iterator[Request], start: Callable[[Request], Iterator]):
    """The first piece's stream, then each later piece's as it is asked for; closing it closes the plan's run."""
    try:
        yield first
        for piece in pieces:
            yield start(piece)
    finally:
        pieces.close()


def _seeded(pieces: List[Request]) -> List[Request]:
    return [replace(piece, seed=piece_seed(piece.seed, i)) for i, piece in enumerate(pieces)]


def _pieces(request: Request, split: str, max_chars: int) -> Iterable[Request]:
    if request.deltas is not None:
        if split == "none":
            return [replace(request, deltas=_Read(request.deltas))]
        return _streamed_pieces(request, max_chars)
    if split == "none" or (split == "auto" and len(request.text) <= max_chars):
        return [request]
    return [replace(request, text=piece) for piece in split_sentences(request.text, max_chars)]


def _streamed_pieces(request: Request, max_chars: int) -> Iterator[Request]:
    pieces = StreamedPieces(request.deltas, max_chars)
    try:
        for deltas in pieces:
            yield replace(request, deltas=_Read(deltas))
    finally:
        pieces.close()
