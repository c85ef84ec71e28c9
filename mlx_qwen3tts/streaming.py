"""Streaming: audio chunks while frames are generated, and text taken in as it is written.

Audio out: frames from the decode loop go through the codec decoder's incremental `step`, so the
chunks concatenate to exactly the one-shot decode. Text in: the streaming text layout consumes one
text token per generated frame, so a `LiveTextTrack` feeds the loop token by token from an
iterator of text deltas, waiting when the next token has not arrived yet. Pieces of a split long
text are joined with `join_audio`.
"""

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional

import mlx.core as mx
import numpy as np

from .errors import InputError
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


_END = object()


class TextFeed:
    """Text deltas pushed by one thread (`append`, then `end` or `fail`), read by another.

    Iterating blocks until the next delta; `poll()` takes what has arrived without waiting.
    """

    def __init__(self):
        self._queue, self._done, self._listeners = queue.SimpleQueue(), False, []

    def append(self, text: str):
        if not isinstance(text, str):
            raise InputError(f"text deltas must be str, got {type(text).__name__}")
        self._put(text)

    def end(self):
        self._put(_END)

    def fail(self, exc: BaseException):
        self._put(exc)

    def _put(self, item):
        self._queue.put(item)
        for listener in list(self._listeners):
            listener()

    def on_arrival(self, listener):
        """Call `listener()` (no arguments, any thread) whenever something is pushed."""
        self._listeners.append(listener)

    def _take(self, item):
        if item is _END:
            self._done = True
            return None
        if isinstance(item, BaseException):
            self._done = True
            raise item
        return item

    def poll(self):
        """(deltas that have arrived, whether the text has ended); raises the writer's error."""
        deltas = []
        while not self._done and not self._queue.empty():  # one reader: what it saw stays there
            text = self._take(self._queue.get_nowait())
            if text is not None:
                deltas.append(text)
        return deltas, self._done

    def __iter__(self) -> Iterator[str]:
        while not self._done:
            text = self._take(self._queue.get())
            if text is not None:
                yield text


def feed_from(deltas) -> TextFeed:
    """A TextFeed for any iterable of deltas, filled by a daemon thread (itself if already one)."""
    if isinstance(deltas, TextFeed):
        return deltas
    feed = TextFeed()

    def pump():
        try:
            for delta in deltas:
                feed.append(delta)
        except BaseException as exc:  # noqa: BLE001  (handed to the reader: the request that owns the text)
            feed.fail(exc)
        else:
            feed.end()

    threading.Thread(target=pump, name="mlx_qwen3tts-text-feed", daemon=True).start()
    return feed


class LiveTextTrack:
    """Text vectors for the streaming layout, tokenized incrementally from text deltas.

    Body token i+1 goes with generated frame i; after the body comes tts_eos, then tts_pad. The
    tokenizer never emits a token that later text could change, so the ids equal those of the
    whole text tokenized at once, whatever the delta boundaries.
    """

    def __init__(self, tokenizer, deltas: Iterable[str], embed):
        self.incremental = tokenizer.incremental()
        self.source = deltas  # a TextFeed can be read without waiting (`ready`)
        self.deltas = iter(deltas)
        self.embed = embed  # ids -> (n, H) text-track vectors
        self.ids = list(self.incremental.feed(ASSISTANT))  # role header, body, then suffix once finished
        self.finished = False
        self.role_len, self.suffix_len = len(tokenizer.encode(ASSISTANT)), len(tokenizer.encode(TARGET_SUFFIX))
        # Set by `DecodeLoop.row` with the prompt: the tokens of lead + body the prefill consumed, the ids read before
        # the body (ICL reference text the prefill had no room for), the tts_eos and tts_pad vectors.
        self.offset, self.lead, self.eos, self.pad = 1, [], None, None

    def _add(self, delta: Optional[str]):
        """Tokenize one more delta; None: the text has ended (the suffix follows)."""
        if delta is None:
            self.ids += self.incremental.feed(TARGET_SUFFIX) + self.incremental.finish()
            self.finished = True
        else:
            self.ids += self.incremental.feed(delta)

    def _poll(self):
        """Take what a TextFeed has received, without waiting."""
        if not self.finished and isinstance(self.source, TextFeed):
            deltas, ended = self.source.poll()
            for delta in deltas:
                self._add(delta)
            if ended:
                self._add(None)

    def has(self, count: int) -> bool:
        """Whether `count` body ids (or the whole text) are known without waiting for the writer."""
        if len(self.body()) < count:
            self._poll()
        return self.finished or len(self.body()) >= count

    def ready(self, step: int) -> bool:
        """Whether frame `step`'s text vector is known without waiting for the writer."""
        return self.has(self.offset + step + 1 - len(self.lead))

    def wait(self, step: int):
        """Block until frame `step`'s text vector is known."""
        self.wait_for(self.offset + step + 1 - len(self.lead))

    def role(self) -> tuple:
        return tuple(self.ids[: self.role_len])

    def body(self):
        return self.ids[self.role_len : len(self.ids) - self.suffix_len if self.finished else len(self.ids)]

    def wait_for(self, count: int) -> list:
        """Body ids once `count` of them exist or the input has ended (reading deltas, blocking)."""
        while len(self.body()) < count and not self.finished:
            self._add(next(self.deltas, None))
        return self.body()

    def close(self):
        getattr(self.deltas, "close", lambda: None)()

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
