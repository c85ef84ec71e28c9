"""The server's client of the engine: requests built through the request layer and submitted, failures
as the `ApiError` a client gets. Every adapter (HTTP, WebSocket, Wyoming) goes through it, naming the
request's fields in its own protocol's words (`names`, from `request.field_names`)."""

import asyncio
import logging
from functools import partial
from typing import Optional

from ..errors import InputError, Qwen3TTSError
from ..loop.engine import EngineFull
from .limits import ApiError
from .metrics import Metered
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


async def built(server, names: dict = JSON_NAMES, **kwargs):
    """`build`, on the server's MLX thread where the request clones reference audio (`ref_audio`): its speaker
    encoder and codec run there, as for uploaded voices, never on the event loop."""
    if kwargs.get("ref_audio") is None:
        return build(server, names, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(server.mlx_thread, partial(build, server, names, **kwargs))


def send(server, request, names: dict = JSON_NAMES, whole: bool = False):
    """Submit a built Request to the engine: its Handle (a long text's a `PiecedHandle`: the pieces
    `TTS.generate` cuts it into, one after the other); a refusal (the engine full) as an ApiError. `whole`: the
    audio goes out only once it is all made (a runaway is then spoken again: `engine.PiecedHandle`)."""
    try:
        return Metered(server.engine.submit(request, whole=whole), server.metrics)
    except Exception as e:  # EngineFull / anything unexpected
        raise engine_error(e, names) from None


def send_all(server, requests, names: dict = JSON_NAMES) -> list:
    """Submit built Requests together: all their Handles, or (the engine cannot take them all) none, as a 429."""
    try:
        return [Metered(handle, server.metrics) for handle in server.engine.submit_all(requests, whole=True)]
    except EngineFull as e:  # how many fit now helps the client split the batch
        raise ApiError(429, f"the server cannot take the whole batch now: {e}", code="engine_full",
                       headers={"Retry-After": "1"}) from None
    except Exception as e:
        raise engine_error(e, names) from None


def submit(server, names: dict = JSON_NAMES, text=None, deltas=None, whole: bool = False, **kwargs):
    """Build the Request and submit it (`whole`: as `send`); errors become ApiErrors."""
    request = build(server, names, text=text, deltas=deltas, **kwargs)
    return send(server, request, names, whole)


def runaway_notice(handle):
    """What a client is told of a finished request the runaway guard fired on (None: nothing to tell), the
    same words in every protocol (each says it its own way: a header, an event, a field)."""
    return runaway_words(getattr(handle, "runaway", None), getattr(handle, "retried", False))


def runaway_words(runaway: Optional[str], retried: bool = False) -> Optional[str]:
    """`runaway_notice` of a request (or a piece) ended on the rule `runaway`, spoken again where `retried`."""
    if runaway:
        again = "spoken again with another seed, it ran away again" if retried else "it was ended there"
        return (f"the speech ran away ({runaway}; runaway guard): {again}, so it may be cut off; "
                "send guard false to turn the guard off")
    if retried:
        return "the speech ran away (runaway guard); it was spoken again with another seed"
    return None
