"""Word timings of a stream as it goes: each piece (a sentence, or a few) aligned as soon as its audio is
complete, on a worker thread, so the frames never wait for the aligner.

Feed `PieceWords` every chunk of a stream in order (`add`); the chunk that ends a piece tells the text the piece
spoke (`AudioChunk.said`, set by the plan), and the piece's window (its audio, from the end of the piece before,
pause included, to its last sample) goes to the worker with that text. `ready()` gives the pieces aligned so far
without waiting, `rest()` waits for the others; each is a `Words`, in piece order, its times in seconds of the
whole answer. `Timed` interleaves a chunk stream with its words (`TTS.stream(..., aligner=...)`).

Each piece's window is aligned with what the piece spoke, and its words given as written (`written.as_written`)
where the text as written is given (`PieceTexts`, fed the text the request was given and cut where the plan
cuts): every front end times a request's words this one way, so a whole answer's words are its stream's.
Where the answer is one piece, its window is the whole audio; otherwise each piece's words are the aligner's
over its own window, shifted by the window's start.
"""

import logging
from collections import deque
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterator, List, Optional

import numpy as np

from ..backend import release_thread_streams
from ..iterators import Iterated
from ..plan import LONG_TEXT_CHARS
from ..text.cutting import CUT, PieceCutter
from . import Word
from .written import as_written

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


class PieceTexts:
    """The text of each piece of a request as written, fed the text the request was given (whole, or delta by
    delta) and cut as the plan cuts it (`PieceCutter`, which `split_sentences` and `StreamedPieces` use)."""

    def __init__(self, text: Optional[str] = None, max_chars: int = LONG_TEXT_CHARS):
        self._cutter, self._pieces = PieceCutter(max_chars), [""]
        if text is not None:
            self.add(text)
            self.end()

    def add(self, text: str):
        self._take(self._cutter.add(text))

    def fed(self, deltas):
        """`deltas` as they are read, each also added here (the text ended when they end); `deltas` as given where
        it is no iterable of text (the request refuses it)."""
        if isinstance(deltas, (str, bytes)) or not hasattr(deltas, "__iter__"):
            return deltas

        def read():
            for delta in deltas:
                if isinstance(delta, str):
                    self.add(delta)
                yield delta
            self.end()

        return read()

    def end(self):
        self._take(self._cutter.end())

    def _take(self, parts):
        for part in parts:
            if part is CUT:
                self._pieces.append("")
            else:
                self._pieces[-1] += part

    def __getitem__(self, index: int) -> str:
        """Piece `index`'s text settled so far (all of it once the piece has been cut or the text has ended)."""
        return self._pieces[index].strip() if index < len(self._pieces) else ""


class PieceWords:
    """The words of a stream's pieces, each aligned on a worker as soon as its audio is complete.

    `aligner`: an object with `align(audio, sample_rate, text, language)` -> words with `text`, `start`, `end`
    (`mlx_qwen3tts.aligner.Aligner`); its `check_language`, where it has one, refuses the language here, before
    any audio. `speed`: the audio is heard at this speed (times divided by it). `executor`: where the aligner
    runs (one thread that runs MLX, e.g. the server's); None: a thread of its own, its MLX streams released on
    `close()`. `keep_going`: an aligner error loses that piece's words (logged; its `Words.words` is None)
    instead of being raised, so the audio goes on without them. `written`: the request's text as written
    (`PieceTexts`), whose words each piece gives with their spoken forms' times; None: the words spoken."""

    def __init__(self, aligner, language: str = "auto", sample_rate: int = 24000, speed: float = 1.0,
                 executor: Optional[Executor] = None, keep_going: bool = False,
                 written: Optional[PieceTexts] = None):
        check = getattr(aligner, "check_language", None)
        if check is not None:
            check(language)
        self.aligner, self.language, self.sample_rate, self.speed = aligner, language, sample_rate, speed
        self.keep_going, self.written = keep_going, written
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
        shown = self.written[self._pieces] if self.written is not None else None
        self._pending.append(self._executor.submit(self._align, audio, (text, shown), self._at, self._pieces))
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

    def _align(self, audio: np.ndarray, texts: tuple, start: int, piece: int) -> Words:
        """The piece's `Words`: `texts` (what it spoke, and as written or None) timed in its `audio`."""
        (text, shown), rate, scale = texts, self.sample_rate, 1.0 / self.speed
        seconds = audio.shape[0] / rate  # the aligner's 80 ms steps may reach past the last sample
        offset = start / rate

        def placed(t: float) -> float:
            return round((offset + min(t, seconds)) * scale, 3)

        try:
            found = []
            if seconds >= MIN_SECONDS and any(ch.isalnum() for ch in text):
                found = self.aligner.align(audio, rate, text, self.language)
            if shown is not None:
                found = as_written(shown, found, self.language)
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

