"""Word timings of a stream as it goes: each piece (a sentence, or a few) aligned as soon as its audio is
complete, on a worker thread, so the frames never wait for the aligner.

Feed `PieceWords` every chunk of a stream in order (`add`); the chunk that ends a piece tells the text the piece
spoke (`AudioChunk.said`, set by the plan), and the piece's window (its audio, from the end of the piece before,
pause included, to its last sample) goes to the worker with that text. `ready()` gives the pieces aligned so far
without waiting, `rest()` waits for the others; each is a `Words`, in piece order, its times in seconds of the
whole answer. `Timed` interleaves a chunk stream with its words (`TTS.stream(..., aligner=...)`).

Where the answer is one piece, its window is the whole audio and the words are those of the answer aligned
whole; otherwise each piece's words are the aligner's over its own window, shifted by the window's start (the
model sees one piece's audio at a time, so a word's time may differ from the whole-answer alignment's by
what the wider window changes).
"""

import logging
from collections import deque
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterator, List, Optional

import numpy as np

from ..backend import release_thread_streams
from ..iterators import Iterated
from . import Word

log = logging.getLogger("mlx_qwen3tts.aligner")
MIN_SECONDS = 0.02  # the aligner's shortest clip: a piece window shorter than this has no words


@dataclass(frozen=True)
class Words:
    """The words of one piece of a stream: `words` (aligner `Word`s: text, start, end), `piece` (its index from
    0), `start` and `end` (the piece's window in the answer); every time in seconds of the whole answer, as the
    listener hears it (at its speed), rounded to the millisecond."""

    words: Optional[tuple]  # None where the aligner failed on this piece (`PieceWords(..., keep_going=True)`)
    piece: int
    start: float
    end: float


class PieceWords:
    """The words of a stream's pieces, each aligned on a worker as soon as its audio is complete.

    `aligner`: an object with `align(audio, sample_rate, text, language)` -> words with `text`, `start`, `end`
    (`mlx_qwen3tts.aligner.Aligner`); its `check_language`, where it has one, refuses the language here, before
    any audio. `speed`: the audio is heard at this speed (times divided by it). `executor`: where the aligner
    runs (one thread that runs MLX, e.g. the server's); None: a thread of its own, its MLX streams released on
    `close()`. `keep_going`: an aligner error loses that piece's words (logged; its `Words.words` is None)
    instead of being raised, so the audio goes on without them."""

    def __init__(self, aligner, language: str = "auto", sample_rate: int = 24000, speed: float = 1.0,
                 executor: Optional[Executor] = None, keep_going: bool = False):
        check = getattr(aligner, "check_language", None)
        if check is not None:
            check(language)
        self.aligner, self.language, self.sample_rate, self.speed = aligner, language, sample_rate, speed
        self.keep_going = keep_going
        self._own = executor is None
        self._executor = ThreadPoolExecutor(1, "mlx_qwen3tts-words") if executor is None else executor
        self._held, self._at = [], 0  # the samples since the last piece's end; how many came before them
        self._pending, self._pieces = deque(), 0  # the pieces at the worker or aligned, in order; pieces sent

    def add(self, chunk):
        """Take the next chunk of the stream; at a piece's end (`chunk.said`), send its window to the worker."""
        self._held.append(chunk.samples)
        text = getattr(chunk, "said", None)
        if text is None:
            return
        audio = np.concatenate(self._held) if self._held else np.zeros(0, np.float32)
        self._pending.append(self._executor.submit(self._align, audio, text, self._at, self._pieces))
        self._held, self._at, self._pieces = [], self._at + audio.shape[0], self._pieces + 1

    def ready(self, until: Optional[float] = None) -> List[Words]:
        """The pieces aligned so far, in order, without waiting; `until`: only those whose window ends by then
        (seconds of the answer: how much of its audio has gone out)."""
        out = []
        while self._pending and self._pending[0].done():
            if until is not None and self._pending[0].result().end > until + 0.001:
                break
            out.append(self._pending.popleft().result())
        return out

    def rest(self) -> Iterator[Words]:
        """Every piece not handed out yet, in order, waiting for each (the stream has ended)."""
        while self._pending:
            yield self._pending.popleft().result()  # an error of the aligner is raised here

    def close(self):
        """Drop what is still to be aligned; a worker of its own stops, its MLX streams released."""
        for future in self._pending:
            future.cancel()
        self._pending.clear()
        if self._own:
            self._executor.submit(release_thread_streams).result()
            self._executor.shutdown()
            self._own = False

    def _align(self, audio: np.ndarray, text: str, start: int, piece: int) -> Words:
        rate, scale = self.sample_rate, 1.0 / self.speed
        seconds = audio.shape[0] / rate  # the aligner's 80 ms steps may reach past the last sample
        offset = start / rate

        def placed(t: float) -> float:
            return round((offset + min(t, seconds)) * scale, 3)

        try:
            found = []
            if seconds >= MIN_SECONDS and any(ch.isalnum() for ch in text):
                found = self.aligner.align(audio, rate, text, self.language)
            words = tuple(Word(w.text, placed(w.start), placed(w.end)) for w in found)
        except Exception:  # noqa: BLE001  (with keep_going, a piece's words are lost, not the answer)
            if not self.keep_going:
                raise
            log.exception("word alignment failed")
            words = None
        return Words(words, piece, round(offset * scale, 3), round((offset + seconds) * scale, 3))


class Timed(Iterated):
    """A chunk stream with its pieces' words: iterate it for each audio chunk as it comes and, after a piece's
    last chunk, that piece's `Words` as soon as it is aligned (looked for after every chunk; those still being
    aligned when the audio ends come at the end). What the stream tells (`frames`, `stopped_on_eos`, ...) is
    told through it; `close()` stops both."""

    def __init__(self, chunks, words: PieceWords):
        self.chunks, self.words = chunks, words
        self._run = self._interleaved()

    def __getattr__(self, name):
        if name == "chunks":
            raise AttributeError(name)
        return getattr(self.chunks, name)

    def _interleaved(self):
        try:
            for chunk in self.chunks:
                self.words.add(chunk)
                yield chunk
                yield from self.words.ready()
            yield from self.words.rest()
        finally:
            getattr(self.chunks, "close", lambda: None)()
            self.words.close()

