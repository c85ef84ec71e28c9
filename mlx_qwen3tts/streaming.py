"""Streaming: audio chunks while frames are generated, and text taken in as it is written.

Audio out: frames from the decode loop go through the codec decoder's incremental `step`, so the
chunks concatenate to exactly the one-shot decode. Text in: the streaming text layout consumes one
text token per generated frame, so a `LiveTextTrack` feeds the loop token by token from an
iterator of text deltas, waiting when the next token has not arrived yet. Pieces of a split long
text are joined with `join_audio`.
"""

import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional

import mlx.core as mx
import numpy as np

from .errors import InputError
from .synthesis import Frame
from .tokenizer import ASSISTANT, TARGET_SUFFIX


@dataclass
class AudioChunk:
    samples: np.ndarray  # (n,) float32
    sample_rate: int
    index: int
    is_final: bool
    frames: int  # codec frames in this chunk
    timings: dict = field(default_factory=dict)  # seconds since the request: 'first_frame', 'ready'
    codes: Optional[np.ndarray] = None  # (frames, 16) int32: the codec frames this chunk decodes


def stream_audio(
    codec,
    frames: Iterator[Frame],
    sample_rate: int,
    first_chunk_frames: int = 1,
    chunk_frames: int = 4,
    ref_codes: Optional[mx.array] = None,
    start_time: Optional[float] = None,
) -> Iterator[AudioChunk]:
    """Decode frames as they arrive: the first chunk after `first_chunk_frames`, then every
    `chunk_frames`. With ICL reference codes the decoder state is primed with them (their audio
    is dropped), which equals upstream's decode-then-cut."""
    if first_chunk_frames < 1 or chunk_frames < 1:
        raise InputError("chunk sizes must be at least one frame")
    start_time = time.perf_counter() if start_time is None else start_time
    decoder = codec.decoder
    state = decoder.make_state()
    if ref_codes is not None:
        mx.eval(decoder.step(ref_codes.astype(mx.int32)[None], state))
    pending, index, first_frame_at = [], 0, None
    frames = iter(frames)
    try:
        frame = next(frames, None)
        while frame is not None:
            if first_frame_at is None:
                first_frame_at = time.perf_counter() - start_time
            pending.append(frame.codes)
            upcoming = next(frames, None)
            want = first_chunk_frames if index == 0 else chunk_frames
            if len(pending) >= want or upcoming is None:
                codes = mx.concatenate(pending)[None] if len(pending) > 1 else pending[0][None]
                audio = decoder.step(codes, state)[0]
                mx.eval(audio)
                yield AudioChunk(
                    np.array(audio), sample_rate, index, upcoming is None, len(pending),
                    {"first_frame": first_frame_at, "ready": time.perf_counter() - start_time},
                    np.array(codes[0]),
                )
                index += 1
                pending = []
            frame = upcoming
    finally:
        close = getattr(frames, "close", None)
        if close is not None:
            close()


class LiveTextTrack:
    """Text vectors for the streaming layout, tokenized incrementally from text deltas.

    Body token i+1 goes with generated frame i; after the body comes tts_eos, then tts_pad. The
    tokenizer never emits a token that later text could change, so the ids equal those of the
    whole text tokenized at once, whatever the delta boundaries.
    """

    def __init__(self, tokenizer, deltas: Iterable[str], embed, offset: int = 1):
        self.incremental = tokenizer.incremental()
        self.deltas = iter(deltas)
        self.embed = embed  # ids -> (n, H) text-track vectors
        self.ids = list(self.incremental.feed(ASSISTANT))  # role header, body, then suffix once finished
        self.finished = False
        self.role_len, self.suffix_len = len(tokenizer.encode(ASSISTANT)), len(tokenizer.encode(TARGET_SUFFIX))
        self.eos = self.pad = None
        self.offset = offset  # tokens of lead + body the prefill consumed
        self.lead = []  # ids read before the body (ICL reference text the prefill had no room for)

    def _pull(self) -> bool:
        """Read one more delta (blocking); False once the input has ended."""
        if self.finished:
            return False
        try:
            delta = next(self.deltas)
        except StopIteration:
            self.ids += self.incremental.feed(TARGET_SUFFIX) + self.incremental.finish()
            self.finished = True
            return False
        self.ids += self.incremental.feed(delta)
        return True

    def role(self) -> tuple:
        return tuple(self.ids[: self.role_len])

    def body(self):
        return self.ids[self.role_len : len(self.ids) - self.suffix_len if self.finished else len(self.ids)]

    def wait_for(self, count: int) -> list:
        """Body ids once `count` of them exist or the input has ended."""
        while len(self.body()) < count and self._pull():
            pass
        return self.body()

    def close(self):
        close = getattr(self.deltas, "close", None)
        if close is not None:
            close()

    def __call__(self, step: int):
        i = self.offset + step
        seq = self.lead + self.wait_for(i + 1 - len(self.lead))
        if i < len(seq):
            return self.embed([seq[i]])[0]
        return self.eos if i == len(seq) else self.pad


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
