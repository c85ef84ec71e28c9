"""Audio out while frames are generated: each stream's frames go through the codec decoder's
incremental `step`, so the chunks concatenate to exactly the one-shot decode; pieces of a split long
text are joined with `join_audio`."""

import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional

import mlx.core as mx
import numpy as np


@dataclass
class AudioChunk:
    samples: np.ndarray  # (n,) float32
    sample_rate: int
    index: int
    is_final: bool
    frames: int  # codec frames in this chunk
    timings: dict = field(default_factory=dict)  # seconds since the request: 'first_frame', 'ready'
    codes: Optional[np.ndarray] = None  # (frames, 16) int32: the codec frames this chunk decodes
    said: Optional[str] = None  # on a piece's last chunk: the text the piece spoke (for its word timings)


class ChunkDecoder:
    """One stream's audio chunks from its frames as they come: the first chunk after
    `first_chunk_frames`, then every `chunk_frames`, each decoded by the codec decoder's
    incremental `step` on the stream's own state. With ICL reference codes the state is primed
    with them (their audio is dropped), which equals upstream's decode-then-cut. A chunk is given
    out as soon as its frames are in (a caller waiting on the next frame would add a frame-time to
    every chunk); the end is marked by `is_final` on the last chunk: the one completed by
    `push(..., last=True)`, or `finish`'s rest, which is empty when every frame went out already.
    `add`/`end` say when a chunk is due without decoding it, so `decode_chunks` can decode the due
    chunks of many streams in one batched step.
    """

    def __init__(self, codec, sample_rate: int, first_chunk_frames: int = 1, chunk_frames: int = 4,
                 ref_codes: Optional[mx.array] = None, start_time: Optional[float] = None):
        self.decoder, self.sample_rate = codec.decoder, sample_rate
        self.sizes = (first_chunk_frames, chunk_frames)
        self.start_time = time.perf_counter() if start_time is None else start_time
        self.state = self.decoder.make_state(1)
        if ref_codes is not None:
            mx.eval(self.decoder.step(ref_codes.astype(mx.int32)[None], self.state))
        self.pending, self.index, self.first_frame_at, self.final, self.ended = [], 0, None, False, False

    def push(self, codes, last: bool = False) -> Optional[AudioChunk]:
        """Take one frame's codes ((16,) or (1, 16)); returns the chunk this completes, if any.
        `last`: the stream ends with this frame (its chunk is given out now, marked final)."""
        return decode_chunks([self])[0] if self.add(codes, last) else None

    def add(self, codes, last: bool = False) -> bool:
        """`push` without decoding: whether a chunk is now due (for `decode_chunks`)."""
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter() - self.start_time
        self.pending.append(np.asarray(codes, dtype=np.int32).reshape(-1))
        self.final = last
        return last or len(self.pending) >= self.sizes[min(self.index, 1)]

    def finish(self) -> Optional[AudioChunk]:
        """The final chunk: the frames not given out yet, possibly none (an empty chunk that only
        marks the end). None when the end was marked already or no frame ever came."""
        return decode_chunks([self])[0] if self.end() else None

    def end(self) -> bool:
        """`finish` without decoding: whether a final chunk is due."""
        self.final = True
        return not self.ended and (self.index > 0 or bool(self.pending))

    def _chunk(self, samples: np.ndarray) -> AudioChunk:
        codes = np.stack(self.pending) if self.pending else np.zeros((0, 16), dtype=np.int32)
        self.ended = self.final
        chunk = AudioChunk(samples, self.sample_rate, self.index, self.final, len(self.pending),
                           {"first_frame": self.first_frame_at, "ready": time.perf_counter() - self.start_time}, codes)
        self.index, self.pending = self.index + 1, []
        return chunk


def decode_chunks(streams: List[ChunkDecoder]) -> List[AudioChunk]:
    """The next chunk of each stream (its pending frames). Streams of one codec with the same number of
    pending frames are decoded together in one batched step (`CodecDecoder.step_streams`), which
    gives each the audio it would get alone."""
    groups = {}
    for i, stream in enumerate(streams):
        groups.setdefault((id(stream.decoder), len(stream.pending)), []).append(i)
    samples = [np.zeros((0,), dtype=np.float32)] * len(streams)
    for (_, frames), members in groups.items():
        if frames:
            group = [streams[i] for i in members]
            codes = mx.array(np.stack([np.stack(s.pending) for s in group]))
            audio = group[0].decoder.step_streams(codes, [s.state for s in group])
            mx.eval(audio, [s.state.state for s in group])
            for i, row in zip(members, np.array(audio)):
                samples[i] = row
    return [stream._chunk(row) for stream, row in zip(streams, samples)]


def stream_audio(codec, frames: Iterable, sample_rate: int, *, first_chunk_frames: int = 1,
                 chunk_frames: int = 4, ref_codes: Optional[mx.array] = None,
                 start_time: Optional[float] = None) -> Iterator[AudioChunk]:
    """Decode frames (`decode_loop.Frame`s) as they arrive (see `ChunkDecoder`); the chunks concatenate to
    the one-shot decode."""
    chunks = ChunkDecoder(codec, sample_rate, first_chunk_frames, chunk_frames, ref_codes, start_time)
    frames = iter(frames)
    try:
        for frame in frames:
            chunk = chunks.push(frame.codes, last=frame.last)
            if chunk is not None:
                yield chunk
        chunk = chunks.finish()
        if chunk is not None:
            yield chunk
    finally:
        getattr(frames, "close", lambda: None)()


def join_audio(pieces, sample_rate: int, pause_s: float = 0.12, fade_s: float = 0.005) -> np.ndarray:
    """Concatenate segments with a short pause; fade each edge so no step in the waveform clicks."""
    fade = max(int(fade_s * sample_rate), 1)
    ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, fade, dtype=np.float32))
    gap = np.zeros(int(pause_s * sample_rate), dtype=np.float32)
    out = []
    for i, piece in enumerate(pieces):
        piece = np.array(piece, dtype=np.float32, copy=True)
        if piece.shape[0] >= 2 * fade:
            piece[:fade] *= ramp
            piece[-fade:] *= ramp[::-1]
        if i:
            out.append(gap)
        out.append(piece)
    return np.concatenate(out) if out else np.zeros((0,), dtype=np.float32)
