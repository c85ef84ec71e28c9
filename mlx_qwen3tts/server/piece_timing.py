"""A streamed answer piece by piece, and each piece's words timed as soon as its audio is complete.

A text is spoken in pieces (`plan.Plan`: sentences merged up to 300 characters); each piece's last chunk
tells the text it spoke (`AudioChunk.said`), and `aligner.piece_words.PieceWords` aligns it from there.
`check_timings` refuses word timings this server cannot give (one refusal for every path); `piece_words`
makes the `PieceWords` of a request, on the server's MLX thread. `piece_audio` (blocking, on an audio
thread) gives the audio as it comes and each piece's end (with its words) once its audio is out, for a
front end that answers sentence by sentence (vLLM-Omni's WebSocket); `PieceTexts` the text of each piece
before its audio, cut where the plan cuts it.
"""

from typing import Iterator, Optional, Tuple

from ..aligner.piece_words import PieceWords
from ..errors import InputError
from ..plan import LONG_TEXT_CHARS
from ..text.cutting import CUT, PieceCutter
from ..audio.time_stretch import stretched
from .limits import ApiError

AUDIO, END = "audio", "end"  # what `piece_audio` yields: samples to send; a piece's end with its words


def piece_audio(handle, speed: float, sample_rate: int, usage, words: Optional[PieceWords] = None) \
        -> Iterator[Tuple[str, object]]:
    """(AUDIO, samples at `speed`) as the handle's chunks come, and after each piece's last (the chunk that
    tells what it said, or the stream's last) (END, the piece's `Words` from `words`, waited for; None without
    `words`); frames and samples counted in `usage` (an `audio_out.Usage`)."""
    chunks = iter(handle)
    try:
        while True:
            kept, ended = [], []

            def piece():
                for chunk in chunks:
                    usage.frames += chunk.frames
                    kept.append(chunk)
                    if words is not None:
                        words.add(chunk)
                    yield chunk.samples
                    if chunk.said is not None or chunk.is_final:
                        ended.append(True)
                        return

            for samples in stretched(piece(), speed, sample_rate):
                usage.samples += samples.shape[0]
                yield AUDIO, samples
            if kept:
                yield END, next(iter(words.rest()), None) if words is not None else None
            if not ended:
                return
    finally:
        if words is not None:
            words.close()


class PieceTexts:
    """The text of each piece of a request, fed the text the request was given (whole, or delta by delta)
    and cut as the plan cuts it (`PieceCutter`, which `split_sentences` and `StreamedPieces` use)."""

    def __init__(self, max_chars: int = LONG_TEXT_CHARS):
        self._cutter, self._pieces = PieceCutter(max_chars), [""]

    def add(self, text: str):
        self._take(self._cutter.add(text))

    def end(self):
        self._take(self._cutter.end())

    def cut(self):
        """The text so far ends a piece (the request that spoke it has ended); what follows starts the next."""
        self.end()
        self._cutter = PieceCutter(self._cutter.max_chars)
        if self._pieces[-1].strip():
            self._pieces.append("")
        else:
            self._pieces[-1] = ""

    def _take(self, parts):
        for part in parts:
            if part is CUT:
                self._pieces.append("")
            else:
                self._pieces[-1] += part

    def __getitem__(self, index: int) -> str:
        """Piece `index`'s text settled so far (all of it once the piece has been cut or the text has ended)."""
        return self._pieces[index].strip() if index < len(self._pieces) else ""


def check_timings(server, language, field: str = "timestamps") -> str:
    """The language words are timed in (the aligner's name for it: an ISO code is mapped as for speech), or why
    this server can give none, before any work: one refusal for every path that asks (`field`: the name it
    asked with)."""
    if server.aligner is None:
        raise ApiError(400, f"{field} needs word timings, which this server gives only when started with "
                            "--aligner Qwen/Qwen3-ForcedAligner-0.6B", param=field, code="timestamps_unavailable")
    try:
        return server.aligner.check_language(language or "auto")
    except InputError as e:
        raise ApiError(400, e.worded({}), param="language", code=e.code) from None


def piece_words(server, language, speed: float, keep_going: bool = False) -> PieceWords:
    """A stream's words piece by piece (`PieceWords`, fed its chunks), on the server's MLX thread."""
    return PieceWords(server.aligner, language or "auto", server.tts.sample_rate, speed, server.mlx_thread,
                      keep_going)
