"""A streamed answer piece by piece, and each piece's words timed as soon as its audio is complete.

A text is spoken in pieces (`plan.Plan`: sentences merged up to 300 characters); the engine marks each
piece's last chunk (`AudioChunk.ends_piece`). `piece_audio` (blocking, on an audio thread) gives the audio
as it comes and, at each piece's end, that piece's samples; `PieceTexts` the text of each piece, cut where
the plan cuts it; `WordTimer` aligns one piece on the server's MLX thread, so the engine and the audio
thread go on while it runs. Every adapter that streams words (the WebSocket's two dialects) uses these.
"""

import asyncio
import logging
from typing import Iterator, List, Optional, Tuple

import numpy as np

from ..errors import InputError
from ..plan import LONG_TEXT_CHARS
from ..text.cutting import CUT, PieceCutter
from ..audio.time_stretch import stretched
from .limits import ApiError

log = logging.getLogger("mlx_qwen3tts.server")
AUDIO, END = "audio", "end"  # what `piece_audio` yields: samples to send; a piece's end with its samples


def piece_audio(handle, speed: float, sample_rate: int, usage) -> Iterator[Tuple[str, np.ndarray]]:
    """(AUDIO, samples at `speed`) as the handle's chunks come, and (END, the piece's samples as generated)
    after each piece's last; frames and samples counted in `usage` (an `audio_out.Usage`)."""
    chunks = iter(handle)
    while True:
        kept, ended = [], []

        def piece():
            for chunk in chunks:
                usage.frames += chunk.frames
                kept.append(chunk.samples)
                yield chunk.samples
                if chunk.ends_piece or chunk.is_final:
                    ended.append(True)
                    return

        for samples in stretched(piece(), speed, sample_rate):
            usage.samples += samples.shape[0]
            yield AUDIO, samples
        if kept:
            yield END, np.concatenate(kept)
        if not ended:
            return


class PieceTexts:
    """The text of each piece of a request, fed the text the request was given (whole, or delta by delta)
    and cut as the plan cuts it (`PieceCutter`, which `split_sentences` and `StreamedPieces` use)."""

    def __init__(self, max_chars: int = LONG_TEXT_CHARS):
        self._cutter, self._pieces = PieceCutter(max_chars), [""]

    def add(self, text: str):
        self._take(self._cutter.add(text))

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


class WordTimer:
    """Words of a piece's audio with their times (seconds of that audio as heard, at `speed`), from the
    server's aligner, run on its MLX thread. `refusal` says before any work why none can be given."""

    def __init__(self, server, language, speed: float):
        self.server, self.language, self.speed = server, language or "auto", speed

    @staticmethod
    def refusal(server, language, field: str) -> Optional[ApiError]:
        if server.aligner is None:
            return ApiError(400, f"{field} needs word timings, which this server gives only when started with "
                                 "--aligner Qwen/Qwen3-ForcedAligner-0.6B", param=field, code="timestamps_unavailable")
        try:
            server.aligner.check_language(language or "auto")
        except InputError as e:
            return ApiError(400, e.worded({}), param="language", code=e.code)
        return None

    def _words(self, audio: np.ndarray, text: str) -> List[tuple]:
        if not audio.shape[0] or not any(ch.isalnum() for ch in text):
            return []
        rate = self.server.tts.sample_rate
        seconds = audio.shape[0] / rate  # the aligner's 80 ms steps may reach past the last sample
        return [(w.text, min(w.start, seconds) / self.speed, min(w.end, seconds) / self.speed)
                for w in self.server.aligner.align(audio, rate, text, self.language)]

    async def words(self, audio: np.ndarray, text: str) -> Optional[List[tuple]]:
        """[(word, start, end)] of `text` in `audio` (one piece's samples as generated); None where the aligner
        failed (logged): the audio goes on without them."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.server.mlx_thread, self._words, audio, text)
        except Exception:  # noqa: BLE001  (a piece's words are lost, not the answer)
            log.exception("word alignment failed")
            return None
