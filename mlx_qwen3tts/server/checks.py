"""`"check": true` on a speech request: the answer heard back by the server's speech recognizer (--asr), each
piece compared with the text it read (`hearing`).

A whole answer is made, heard piece by piece (each piece's last chunk tells what it said) on the server's MLX
thread, and, where a piece is heard over the threshold and the request samples, the request is made again with a
derived seed (`seeds.check_seed`), up to `hearing.DEFAULT_TRIES` makings in all; the making with the fewest pieces
over the threshold (then the lowest error in all) is the answer, its checks in the `X-Check` header (JSON, ASCII)
or, beside word timestamps, in the JSON body's `check`. A stream's audio is gone before it is heard, so it is not
made again: each piece's check comes as a `speech.check` event after the audio (SSE).
"""

import asyncio
import base64
import json
from collections import deque
from dataclasses import replace
from types import SimpleNamespace
from typing import Iterator, List, Optional, Tuple

import numpy as np
from starlette.responses import JSONResponse, Response

from ..audio.time_stretch import time_stretch
from ..hearing import Check, PieceCheck, error_rate, heard
from ..seeds import check_seed
from .audio_out import CONTENT_TYPES, all_words, encoded_file, in_thread, notice_headers, told
from .engine_client import engine_error, send
from .limits import ApiError

CHECK_HEADER = "X-Check"


def asked(server, body: dict, stream_format: Optional[str]) -> Optional[Check]:
    """The request's `check` (true: heard back) as a `hearing.Check`, or None; refused where it cannot be given."""
    value = body.get("check")
    if value is None or value is False:
        return None
    if value is not True:
        raise ApiError(400, f"check must be true or false, got {value!r}"[:200], param="check")
    if server.tts.asr is None:
        raise ApiError(400, "check hears the answer with a speech recognizer, and this server has none: start it "
                            "with --asr MODEL (e.g. --asr Qwen/Qwen3-ASR-0.6B)", param="check",
                       code="check_unavailable")
    if stream_format == "audio":
        raise ApiError(400, "check results come in a header of a whole answer or in an SSE event (stream_format "
                            "'sse'); raw streamed audio has no place for them", param="check")
    return Check(recognizer=server.tts.asr)


def as_json(checks: List[PieceCheck]) -> dict:
    return {"pieces": [c.as_json() for c in checks]}


def header(checks: List[PieceCheck]) -> dict:
    return {CHECK_HEADER: json.dumps(as_json(checks), ensure_ascii=True)}


def _pieces(handle, text: str) -> Iterator[Tuple[str, np.ndarray]]:
    """(the text a piece read, its samples) as the handle's pieces end (blocking)."""
    kept = []
    for chunk in handle:
        kept.append(chunk.samples)
        if chunk.said is not None or chunk.is_final:
            yield (chunk.said if chunk.said is not None else text), np.concatenate(kept)
            kept = []
    if kept:
        yield text, np.concatenate(kept)


async def _made(server, request, check: Check) -> Tuple[object, list]:
    """One making of `request`: its handle and [(text, samples, heard, error rate)] per piece."""
    handle = send(server, request, whole=True)
    pieces = [p async for p in in_thread(_pieces(handle, request.text), handle.cancel)]
    rate, language = server.tts.sample_rate, request.language

    def hear():
        return [(text, audio, said, error_rate(text, said))
                for text, audio in pieces for said in [heard(check.recognizer, audio, rate, language, text)]]

    return handle, await asyncio.get_running_loop().run_in_executor(server.mlx_thread, hear)


async def whole_checked(server, request, speech, check: Check, timing=None) -> Response:
    """The answer of a whole request heard back and made again while a piece is heard wrong (see the module)."""
    best, tries = None, 0
    try:
        for attempt in range(check.tries if request.sampling.sampled else 1):
            seed = request.seed if attempt == 0 or request.seed is None else check_seed(request.seed, attempt)
            handle, pieces = await _made(server, replace(request, seed=seed), check)
            tries += 1
            score = (sum(p[3] > check.threshold for p in pieces), sum(p[3] for p in pieces))
            if best is None or score < best[0]:
                best = (score, handle, pieces)
            if score[0] == 0:
                break
    except ApiError:
        raise
    except Exception as e:
        raise engine_error(e) from None
    _, handle, pieces = best
    checks = [PieceCheck(text, said, rate, tries, rate <= check.threshold) for text, _, said, rate in pieces]
    audio = np.concatenate([p[1] for p in pieces]) if pieces else np.zeros(0, np.float32)
    words = None
    if timing is not None:  # its words as a stream's are timed: piece by piece, what each said
        timed = timing()
        for text, samples, _, _ in pieces:
            timed.add(SimpleNamespace(samples=samples, said=text))
        words = await all_words(timed)
    audio = await asyncio.to_thread(time_stretch, audio, speech.speed, server.tts.sample_rate)
    data = await asyncio.to_thread(encoded_file, audio, server.tts.sample_rate, speech.fmt)
    headers = {**notice_headers(told(handle)), **header(checks)}
    if words is None:
        return Response(data, media_type=CONTENT_TYPES[speech.fmt], headers=headers)
    return JSONResponse({"audio": base64.b64encode(data).decode(), "response_format": speech.fmt,
                         "sample_rate": server.tts.sample_rate, "timestamps": words, "check": as_json(checks)},
                        headers=headers)


class PieceChecks:
    """A stream's pieces heard as soon as each one's audio is complete (on the server's MLX thread), each check a
    `speech.check` event; fed and read as `aligner.piece_words.PieceWords` is (`add`, `ready`, `rest`, `close`), so
    the stream sends it where it sends word timings."""

    def __init__(self, server, check: Check, language: str):
        self.check, self.language, self.rate, self.executor = check, language, server.tts.sample_rate, server.mlx_thread
        self._held, self._at, self._pending, self._pieces = [], 0, deque(), 0

    def add(self, chunk):
        self._held.append(chunk.samples)
        if chunk.said is None:
            return
        audio = np.concatenate(self._held) if self._held else np.zeros(0, np.float32)
        end = (self._at + audio.shape[0]) / self.rate
        self._pending.append((end, self.executor.submit(self._hear, audio, chunk.said, self._pieces)))
        self._held, self._at, self._pieces = [], self._at + audio.shape[0], self._pieces + 1

    def _hear(self, audio: np.ndarray, text: str, piece: int) -> dict:
        said = heard(self.check.recognizer, audio, self.rate, self.language, text) if audio.shape[0] else ""
        rate = error_rate(text, said)
        return {"type": "speech.check", "piece": piece,
                **PieceCheck(text, said, rate, 1, rate <= self.check.threshold).as_json()}

    def ready(self, until: Optional[float] = None) -> list:
        out = []
        while self._pending and self._pending[0][1].done() and (until is None or self._pending[0][0] <= until + 1e-3):
            out.append(self._pending.popleft()[1].result())
        return out

    def rest(self):
        while self._pending:
            yield self._pending.popleft()[1].result()

    def close(self):
        for _, future in self._pending:
            future.cancel()
        self._pending.clear()


class Beside:
    """Several such feeds of one stream as one (word timings and checks)."""

    def __init__(self, *feeds):
        self.feeds = [f for f in feeds if f is not None]

    def add(self, chunk):
        for feed in self.feeds:
            feed.add(chunk)

    def ready(self, until: Optional[float] = None) -> list:
        return [item for feed in self.feeds for item in feed.ready(until)]

    def rest(self):
        for feed in self.feeds:
            yield from feed.rest()

    def close(self):
        for feed in self.feeds:
            feed.close()


def streamed(server, check: Check, language: str):
    """For `audio_out.speech_response`: the stream's word timings (or None) with its pieces' checks beside."""
    return lambda words: Beside(words, PieceChecks(server, check, language))
