"""Streaming a text cut into pieces (`request.split_request`, the cut every front end uses): each
piece's chunks as they are generated, one piece after the other, joined as `audio.chunks.join_audio`
joins whole pieces (each piece's edges faded, a short pause between), so streaming a long text gives
the audio that generating it whole gives."""

from dataclasses import replace
from typing import List

import numpy as np

from ..audio.chunks import AudioChunk
from ..request import Request

PAUSE_S, FADE_S = 0.12, 0.005  # as join_audio's defaults


class PieceChunks:
    """Iterate the chunks; then `stopped_on_eos` (every piece ended by itself) and `max_frames` (the last
    piece's limit) as a `ChunkStream` tells them. The pieces share `max_tokens`, as `TTS.generate` does."""

    def __init__(self, tts, pieces: List[Request]):
        self.tts, self.pieces = tts, pieces
        self.stopped_on_eos, self.max_frames, self.frames = False, 0, 0
        self._run = self._chunks()

    def __iter__(self):
        return self

    def __next__(self) -> AudioChunk:
        return next(self._run)

    def close(self):
        self._run.close()

    def _chunks(self):
        rate, total, index = self.tts.sample_rate, self.pieces[0].max_frames, 0
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
            stream = self.tts.request_chunks(replace(request, seed=request.seed if i == 0 else None, max_frames=left))
            held, first = None, True
            try:
                for chunk in stream:
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
                stream.close()
            self.frames += stream.frames
            self.max_frames, stopped = stream.max_frames, stopped and stream.stopped_on_eos
            if held is None:
                continue
            if len(self.pieces) > 1 and held.samples.shape[0] >= fade:
                held.samples[-fade:] *= ramp[::-1]
            yield replace(held, index=index, is_final=i == len(self.pieces) - 1)
            index += 1
        self.stopped_on_eos = stopped
