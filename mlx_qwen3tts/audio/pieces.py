"""Streaming a text cut into pieces (`request.split_request`, the cut every front end uses): each
piece's chunks as they are generated, one piece after the other, joined as `chunks.join_audio` joins
whole pieces (each piece's edges faded, a short pause between), so streaming a long text gives the
audio that generating it whole gives. The chunks come from any source: `TTS.request_chunks` (the
command line) or the engine (the server)."""

from dataclasses import replace
from typing import Callable, Iterator, List

import numpy as np

from .chunks import AudioChunk

PAUSE_S, FADE_S = 0.12, 0.005  # as join_audio's defaults


class PieceChunks:
    """Iterate the chunks; then `stopped_on_eos` (every piece ended by itself) and `max_frames` (the last
    piece's limit) as a `ChunkStream` tells them, where the source tells them. The pieces share
    `max_frames` (max_tokens), as `TTS.generate` does, and only the first keeps the seed.

    start(request) -> an iterator of the piece's `AudioChunk`s (closing it stops the piece)."""

    def __init__(self, start: Callable[[object], Iterator[AudioChunk]], pieces: List, sample_rate: int):
        self.start, self.pieces, self.sample_rate = start, pieces, sample_rate
        self.stopped_on_eos, self.max_frames, self.frames = False, 0, 0
        self._run = self._chunks()

    def __iter__(self):
        return self

    def __next__(self) -> AudioChunk:
        return next(self._run)

    def close(self):
        self._run.close()

    def _chunks(self):
        rate, total, index = self.sample_rate, self.pieces[0].max_frames, 0
        fade = max(int(FADE_S * rate), 1)
        ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, fade, dtype=np.float32))
        stopped = True
        for i, request in enumerate(self.pieces):
            left = None if total is None else total - self.frames
            if left is not None and left < 1:
                stopped = False
                break
            if index:  # a pause after the audio so far, now that another piece follows it
                yield AudioChunk(np.zeros(int(PAUSE_S * rate), np.float32), rate, index, False, 0, {},
                                 np.zeros((0, 16), np.int32))
                index += 1
            stream = self.start(replace(request, seed=request.seed if i == 0 else None, max_frames=left))
            held, first, frames = None, True, 0
            try:
                for chunk in stream:
                    frames += chunk.frames
                    if not chunk.samples.shape[0]:
                        continue
                    chunk.samples = np.array(chunk.samples, np.float32)
                    if first and len(self.pieces) > 1 and chunk.samples.shape[0] >= fade:
                        chunk.samples[:fade] *= ramp
                    first = False
                    if held is not None:
                        yield replace(held, index=index, is_final=False)
                        index += 1
                    held = chunk
            finally:
                getattr(stream, "close", lambda: None)()
            self.frames += frames
            self.max_frames = getattr(stream, "max_frames", 0)
            stopped = stopped and getattr(stream, "stopped_on_eos", False)
            if held is None:
                continue
            if len(self.pieces) > 1 and held.samples.shape[0] >= fade:
                held.samples[-fade:] *= ramp[::-1]
            yield replace(held, index=index, is_final=i == len(self.pieces) - 1)
            index += 1
        self.stopped_on_eos = stopped
