"""Streaming a text cut into pieces (`request.split_request`, the cut every front end uses): each
piece's chunks as they are generated, one piece after the other, joined as `chunks.join_audio` joins
whole pieces (each piece's edges faded, a short pause between), so streaming a long text gives the
audio that generating it whole gives. The chunks come from any source: `TTS.request_chunks` (the
command line) or the engine (the server)."""

from dataclasses import replace
from typing import Callable, Iterable, Iterator, Optional

import numpy as np

from .chunks import AudioChunk

PAUSE_S, FADE_S = 0.12, 0.005  # as join_audio's defaults


def piece_chunks(start: Callable[[object], Iterator[AudioChunk]], pieces: Iterable, sample_rate: int,
                 stop: Optional[Callable[[], bool]] = None):
    """The chunks of a request's pieces (`request.split_request`): a whole text of one piece as its own
    stream, anything else through `PieceChunks`."""
    if isinstance(pieces, list) and len(pieces) == 1:
        return start(pieces[0])
    return PieceChunks(start, pieces, sample_rate, stop)


class PieceChunks:
    """Iterate the chunks; `frames` (so far), `max_frames` (the last piece's limit) and, at the end,
    `stopped_on_eos` (every piece ended by itself) as a `ChunkStream` tells them. The pieces share
    `max_frames` (max_tokens), as `TTS.generate` does, and only the first keeps the seed.

    start(request) -> an iterator of the piece's `AudioChunk`s (closing it stops the piece).
    pieces: a list (a whole text's), or an iterable made as the text arrives (`request.split_request` of
    streamed text: the next piece is asked for once the one before has ended). Every piece's edges are
    faded as `join_audio` fades them, but for a streamed text's first start (made before anyone knows
    whether more pieces follow). stop() (if given): true once no more pieces are to be asked for.
    """

    def __init__(self, start: Callable[[object], Iterator[AudioChunk]], pieces: Iterable, sample_rate: int,
                 stop: Optional[Callable[[], bool]] = None):
        self.start, self.pieces, self.sample_rate, self.stop = start, pieces, sample_rate, stop
        self.stopped_on_eos, self.max_frames, self.frames = False, 0, 0
        fade = max(int(FADE_S * sample_rate), 1)
        self._ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, fade, dtype=np.float32))
        self._run = self._chunks()

    def __iter__(self):
        return self

    def __next__(self) -> AudioChunk:
        return next(self._run)

    def close(self):
        self._run.close()

    def _chunks(self):
        pieces = iter(self.pieces)
        try:
            yield from self._joined(pieces)
        finally:
            getattr(pieces, "close", lambda: None)()  # a streamed text's source closes with it

    def _joined(self, pieces):
        many = isinstance(self.pieces, list) and len(self.pieces) > 1
        request, i, index, stopped = next(pieces), 0, 0, True
        total = request.max_frames
        while request is not None:
            if i:  # a pause after the audio so far, now that another piece follows it
                yield AudioChunk(np.zeros(int(PAUSE_S * self.sample_rate), np.float32), self.sample_rate, index,
                                 False, 0, {}, np.zeros((0, 16), np.int32))
                index += 1
            left = None if total is None else total - self.frames
            stream = self.start(replace(request, seed=request.seed if i == 0 else None, max_frames=left))
            # Each chunk goes out at once but for its last 5 ms, held so the piece's end can be faded.
            tail, started, asked = np.zeros(0, np.float32), False, False
            try:
                for chunk in stream:
                    self.frames += chunk.frames
                    samples = np.concatenate([tail, chunk.samples], dtype=np.float32)  # one copy
                    if not started and chunk.samples.shape[0] and (i or many):
                        self._fade(samples, into=True)
                    started = started or bool(chunk.samples.shape[0])
                    if chunk.is_final:
                        request, asked = self._next(pieces, total), True
                        if request is not None or many or i:  # an edge at a pause, or the end of several
                            self._fade(samples, into=False)
                        tail = np.zeros(0, np.float32)
                    else:
                        samples, tail = samples[:-self._ramp.shape[0]], samples[-self._ramp.shape[0]:]
                    if samples.shape[0] or chunk.is_final:
                        yield replace(chunk, samples=samples, index=index, is_final=chunk.is_final and request is None)
                        index += 1
            finally:
                getattr(stream, "close", lambda: None)()
            self.max_frames = getattr(stream, "max_frames", 0)
            stopped = stopped and getattr(stream, "stopped_on_eos", False)
            if not asked:  # the piece's stream ended unmarked (stopped): what was held goes out as it is
                request = self._next(pieces, total)
                if tail.shape[0]:
                    yield AudioChunk(tail, self.sample_rate, index, request is None, 0, {}, np.zeros((0, 16), np.int32))
                    index += 1
            if request is None and total is not None and total - self.frames < 1 and (
                    not isinstance(self.pieces, list) or i + 1 < len(self.pieces)):
                stopped = False  # text left unspoken (or, streamed, maybe)
            i += 1
        self.stopped_on_eos = stopped

    def _next(self, pieces, total):
        """The next piece, or None: none left, or the frames spent (then a streamed text is not waited for)."""
        if (total is not None and total - self.frames < 1) or (self.stop is not None and self.stop()):
            return None
        return next(pieces, None)

    def _fade(self, samples: np.ndarray, into: bool):
        ramp = self._ramp
        if samples.shape[0] >= ramp.shape[0]:
            if into:
                samples[:ramp.shape[0]] *= ramp
            else:
                samples[-ramp.shape[0]:] *= ramp[::-1]
