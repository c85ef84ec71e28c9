"""Audio out while frames are generated: each stream's frames go through the codec decoder's
incremental `step`, so the chunks concatenate to exactly the one-shot decode; pieces of a split long
text are joined with `join_audio`."""

import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional

import mlx.core as mx
import numpy as np

from ..backend import decode_stream


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
    runaway: Optional[str] = None  # on a piece's last chunk: the runaway guard's rule that ended the piece


# The later chunks when a request names no `chunk_frames`: each twice the one before (twice the first for the
# second), up to LONGEST_CHUNK. Doubling keeps every chunk no longer than the audio given out before it (plus
# one frame), so a player that started at the first chunk never runs dry while a frame takes under half a
# frame's audio (40 ms); longer chunks cost the codec less a frame: its step has a fixed part (launches on
# Metal/CUDA, about 0.6 of a 4-frame step's time here, docs/benchmarks.md). 16 is a `STEP_SIZES` length (one
# compiled piece) and 1.28 s of audio.
LONGEST_CHUNK = 16


def chunk_length(index: int, first: int, later: Optional[int]) -> int:
    """Frames in chunk `index` (0: the first): `first`, then `later` each, or, with `later` None, doubling
    up to LONGEST_CHUNK (not below `first`)."""
    if index == 0:
        return first
    if later is not None:
        return later
    return max(first, min(first << min(index, 30), LONGEST_CHUNK))


class ChunkDecoder:
    """One stream's audio chunks from its frames as they come: the first chunk after
    `first_chunk_frames`, then every `chunk_frames` (None: chunks that grow, `chunk_length`), each decoded by
    the codec decoder's incremental `step` on the stream's own state. With ICL reference codes the state is
    primed with them (their audio is dropped), which equals upstream's decode-then-cut. A chunk is given
    out as soon as its frames are in (a caller waiting on the next frame would add a frame-time to
    every chunk); the end is marked by `is_final` on the last chunk: the one completed by
    `push(..., last=True)`, or `finish`'s rest, which is empty when every frame went out already.
    `add`/`end` say when a chunk is due without decoding it, so `start_chunks` can decode the due
    chunks of many streams in one batched step.
    """

    def __init__(self, codec, sample_rate: int, first_chunk_frames: int = 1, chunk_frames: Optional[int] = None,
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
        """`push` without decoding: whether a chunk is now due (for `start_chunks`)."""
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter() - self.start_time
        self.pending.append(np.asarray(codes, dtype=np.int32).reshape(-1))
        self.final = last
        return last or len(self.pending) >= chunk_length(self.index, *self.sizes)

    def finish(self) -> Optional[AudioChunk]:
        """The final chunk: the frames not given out yet, possibly none (an empty chunk that only
        marks the end). None when the end was marked already or no frame ever came."""
        return decode_chunks([self])[0] if self.end() else None

    def end(self) -> bool:
        """`finish` without decoding: whether a final chunk is due."""
        self.final = True
        return not self.ended and (self.index > 0 or bool(self.pending))

    def _chunk(self) -> AudioChunk:
        """The next chunk (its pending frames), its samples still to come (`Decoding.take`)."""
        codes = np.stack(self.pending) if self.pending else np.zeros((0, 16), dtype=np.int32)
        self.ended = self.final
        chunk = AudioChunk(np.zeros((0,), dtype=np.float32), self.sample_rate, self.index, self.final,
                           len(self.pending), {"first_frame": self.first_frame_at}, codes)
        self.index, self.pending = self.index + 1, []
        return chunk


class Decoding:
    """Chunks whose decode was sent off (`start_chunks`); `take()` gives them out with their samples. `arrays`
    (the audio being computed) may go to the host with the next frame read (`Rows.carry`): `take(values)`."""

    def __init__(self, chunks: List[AudioChunk], groups: list, start_time: List[float]):
        self.chunks, self.groups, self.start_time = chunks, groups, start_time
        self.arrays = [audio for _, audio in groups]

    def take(self, values: Optional[list] = None) -> List[AudioChunk]:
        values = [np.array(a) for a in self.arrays] if values is None else values
        for (members, _), rows in zip(self.groups, values):
            for i, row in zip(members, rows):
                self.chunks[i].samples = row
        for chunk, start in zip(self.chunks, self.start_time):
            chunk.timings["ready"] = time.perf_counter() - start
        return self.chunks


def start_chunks(streams: List[ChunkDecoder]) -> Decoding:
    """Send off the decode of the next chunk of each stream (its pending frames), on the decode stream
    (`backend.decode_stream`: beside the frame in flight on Metal/CUDA, not behind it). Streams of one codec with
    the same number of pending frames are decoded together in one batched step (`CodecDecoder.step_streams`),
    which gives each the audio it would get alone."""
    groups = {}
    for i, stream in enumerate(streams):
        groups.setdefault((id(stream.decoder), len(stream.pending)), []).append(i)
    chunks, sent = [stream._chunk() for stream in streams], []
    with mx.stream(decode_stream()):
        for (_, frames), members in groups.items():
            if frames:
                group = [streams[i] for i in members]
                codes = mx.array(np.stack([chunks[i].codes for i in members]))
                audio = group[0].decoder.step_streams(codes, [s.state for s in group])
                mx.async_eval(audio, [s.state.state for s in group])
                sent.append((members, audio))
    return Decoding(chunks, sent, [s.start_time for s in streams])


def decode_chunks(streams: List[ChunkDecoder]) -> List[AudioChunk]:
    """The next chunk of each stream, decoded now (`start_chunks`, then its `take`)."""
    return start_chunks(streams).take()


def stream_audio(codec, frames: Iterable, sample_rate: int, *, first_chunk_frames: int = 1,
                 chunk_frames: Optional[int] = None, ref_codes: Optional[mx.array] = None,
                 start_time: Optional[float] = None) -> Iterator[AudioChunk]:
    """Decode frames (`decode_loop.Frame`s) as they arrive (see `ChunkDecoder`); the chunks concatenate to
    the one-shot decode. Where `frames` can carry arrays to the host with its next frame (`carry`, a
    `FrameStream` with a frame in flight: Metal/CUDA), a chunk's audio goes with it: the chunk is given out
    once that frame is read, the device having decoded it beside that frame."""
    chunks = ChunkDecoder(codec, sample_rate, first_chunk_frames, chunk_frames, ref_codes, start_time)
    carry = getattr(frames, "carry", lambda arrays: None)
    frames, waiting = iter(frames), None  # waiting: (a Decoding, its Carried)
    try:
        for frame in frames:
            if waiting is not None:
                yield from _taken(*waiting)
                waiting = None
            if chunks.add(frame.codes, last=frame.last):
                decoding = start_chunks([chunks])
                carried = None if frame.last else carry(decoding.arrays)
                if carried is None:
                    yield from decoding.take()
                else:
                    waiting = decoding, carried
        if waiting is not None:
            yield from _taken(*waiting)
        chunk = chunks.finish()
        if chunk is not None:
            yield chunk
    finally:
        getattr(frames, "close", lambda: None)()


def _taken(decoding: Decoding, carried) -> List[AudioChunk]:
    return decoding.take(carried.get())


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
