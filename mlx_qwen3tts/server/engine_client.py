"""The server's client of the engine: requests built through the request layer and submitted, failures
as the `ApiError` a client gets. Every adapter (HTTP, WebSocket, Wyoming) goes through it, naming the
request's fields in its own protocol's words (`names`, from `request.field_names`)."""

import logging

from ..errors import InputError, Qwen3TTSError
from ..audio.pieces import PieceChunks
from ..loop.engine import EngineFull
from ..request import split_request
from .limits import ApiError
from .params import JSON_NAMES

log = logging.getLogger("mlx_qwen3tts.server")
NOTICED = set()  # notices (an ignored instruction) logged already: each once, not per request


def engine_error(error: BaseException, names: dict = JSON_NAMES) -> ApiError:
    """What a failure from building or running an engine request becomes for the client; `names`:
    the request layer's field names in the client's protocol."""
    if isinstance(error, ApiError):
        return error
    if isinstance(error, EngineFull):
        return ApiError(429, "the server is busy (all generation slots and the queue are full); retry shortly",
                        code="engine_full", headers={"Retry-After": "1"})
    if isinstance(error, InputError):
        return ApiError(400, error.worded(names), param=names.get(error.field, error.field), code=error.code)
    if isinstance(error, Qwen3TTSError):
        return ApiError(400, str(error))
    log.exception("request failed", exc_info=error)
    return ApiError(500, "generation failed inside the server; see its log", code="internal_error")


def build(server, names: dict = JSON_NAMES, text=None, deltas=None, **kwargs):
    """The Request (checked by the request layer, in one place), its notices logged once; its
    refusal as an ApiError naming the field as the client named it."""
    if text is not None and server.lexicon is not None:  # --lexicon: respellings for every whole text
        kwargs = {"lexicon": server.lexicon, **kwargs}
    try:
        request = server.tts.request(text=text, deltas=deltas, **kwargs)
    except InputError as e:
        error = engine_error(e, names)
        saved = server.voices.saved_ids() if e.code == "voice_not_found" else []
        if saved:  # the request layer knows the presets; the server its saved voices
            error.message += f"; saved voices: {', '.join(saved)}"
        raise error from None
    for notice in request.notices:
        if notice not in NOTICED:
            NOTICED.add(notice)
            log.warning("%s", notice)
    return request


def send(server, request, names: dict = JSON_NAMES):
    """Submit a built Request to the engine: its Handle (for a long whole text, a `PiecedHandle`: the pieces
    `TTS.generate` cuts it into, one after the other); a refusal (the engine full) as an ApiError."""
    pieces = split_request(request) if request.text is not None else [request]
    if len(pieces) > 1:
        return PiecedHandle(server, pieces, names)
    try:
        return server.engine.submit(request)
    except Exception as e:  # EngineFull / anything unexpected
        raise engine_error(e, names) from None


class _HandleStream:
    """An engine Handle as a piece's chunk stream: closing it cancels the request."""

    def __init__(self, handle):
        self.handle, self._chunks = handle, iter(handle)

    def __iter__(self):
        return self._chunks

    def close(self):
        self.handle.cancel()


class PiecedHandle:
    """A long whole text spoken as `TTS.generate` speaks it: cut at sentence ends (`request.split_request`),
    each piece an engine request once the one before has ended, the pieces' audio joined with short faded
    pauses (`audio.pieces`), so a client gets the audio the command line writes. Iterated and cancelled as a
    `Handle`; the first piece is submitted at once, so a full engine is refused before any audio."""

    def __init__(self, server, pieces: list, names: dict):
        self._server, self._names, self._cancelled = server, names, False
        self._current = self._first = send(server, pieces[0], names)
        self._id = self._first.id
        self._chunks = PieceChunks(self._start, pieces, server.tts.sample_rate)

    @property
    def id(self) -> int:
        return self._id

    def _start(self, request):
        if self._first is not None:  # the first piece, submitted already (the same request: its seed, all frames)
            handle, self._first = self._first, None
        elif self._cancelled:
            return iter(())
        else:
            handle = self._current = send(self._server, request, self._names)
        return _HandleStream(handle)

    def cancel(self):
        self._cancelled = True
        self._current.cancel()

    def __iter__(self):
        return self._chunks


def submit(server, names: dict = JSON_NAMES, text=None, deltas=None, **kwargs):
    """Build the Request and submit it; errors become ApiErrors."""
    return send(server, build(server, names, text=text, deltas=deltas, **kwargs), names)
