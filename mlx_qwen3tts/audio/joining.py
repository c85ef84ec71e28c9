"""The audio of a text's pieces as one stream while they are generated: each piece's chunks as they come,
the pieces joined as `chunks.join_audio` joins whole ones (each piece's edges faded, a short pause between),
so streaming a long text gives the audio that generating it whole gives. Only audio: which pieces there
are and how they run is the request layer's plan (`plan.Plan`)."""

from dataclasses import replace
from typing import Iterable, Iterator

import numpy as np

from ..iterators import Iterated
from .chunks import AudioChunk

PAUSE_S, FADE_S = 0.12, 0.005  # as join_audio's defaults
NO_CODES = np.zeros((0, 16), np.int32)


class JoinedChunks(Iterated):
    """Iterate the chunks of `streams` (one chunk stream per piece, the next taken once the one before has
    given its final chunk) as one stream. Each chunk goes out at once but for its last 5 ms, held so that a
    piece's end can be faded once it is known to be one. `fade_first`: fade the first piece's start too (a
    text known to have several pieces; a streamed text's first piece starts before anyone knows).
    Tells `frames` (so far), `max_frames` (the current piece's limit) and `stopped_on_eos` (every piece
    ended by itself), as a single piece's stream does. Each piece's last chunk keeps what it tells (`said`:
    the pause after it comes first in the next piece's audio), so a consumer can treat the pieces one by one."""

    def __init__(self, streams: Iterable[Iterator[AudioChunk]], sample_rate: int, fade_first: bool = True):
        self.sample_rate, self.fade_first = sample_rate, fade_first
        self.frames, self.stopped_on_eos, self._stream, self._index = 0, True, None, 0
        fade = max(int(FADE_S * sample_rate), 1)
        self._ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, fade, dtype=np.float32))
        self._run = self._joined(iter(streams))

    @property
    def max_frames(self) -> int:
        return getattr(self._stream, "max_frames", 0)

    def _joined(self, streams: Iterator):
        stream, first = next(streams, None), True
        try:
            while stream is not None:
                self._stream = stream
                following = yield from self._piece(stream, streams, first)
                if following is not None:  # a pause between this piece and the next
                    yield self._chunk(np.zeros(int(PAUSE_S * self.sample_rate), np.float32), final=False)
                stream, first = following, False
        finally:
            getattr(streams, "close", lambda: None)()

    def _piece(self, stream, streams: Iterator, first: bool):
        """Yield one piece's chunks, its edges faded where it meets another; return the next piece's stream."""
        tail, held, following, taken = np.zeros(0, np.float32), self._ramp.shape[0], None, False
        fade_in = not first or self.fade_first
        try:
            for chunk in stream:
                self.frames += chunk.frames
                samples = np.concatenate([tail, chunk.samples], dtype=np.float32)  # one copy
                if fade_in and chunk.samples.shape[0]:
                    self._fade(samples, into=True)
                    fade_in = False
                if chunk.is_final:
                    following, taken = next(streams, None), True
                    if following is not None or self.fade_first or not first:  # an edge at a pause, or the end
                        self._fade(samples, into=False)
                    tail = samples[:0]
                else:
                    samples, tail = samples[:-held], samples[-held:]
                if samples.shape[0] or chunk.is_final:
                    yield replace(chunk, samples=samples, index=self._next_index(),
                                  is_final=chunk.is_final and following is None)
        finally:
            getattr(stream, "close", lambda: None)()
        self.stopped_on_eos = self.stopped_on_eos and getattr(stream, "stopped_on_eos", False)
        if not taken:  # the piece ended unmarked (stopped): what was held goes out as it is
            following = next(streams, None)
            if tail.shape[0]:
                yield self._chunk(tail, final=following is None)
        return following

    def _chunk(self, samples: np.ndarray, final: bool) -> AudioChunk:
        return AudioChunk(samples, self.sample_rate, self._next_index(), final, 0, {}, NO_CODES)

    def _next_index(self) -> int:
        self._index += 1
        return self._index - 1

    def _fade(self, samples: np.ndarray, into: bool):
        ramp = self._ramp
        if samples.shape[0] >= ramp.shape[0]:
            if into:
                samples[:ramp.shape[0]] *= ramp
            else:
                samples[-ramp.shape[0]:] *= ramp[::-1]
