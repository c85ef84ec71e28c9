"""OpenAI-compatible HTTP endpoints: speech (whole file, chunked audio, SSE), models, voices, health."""

import asyncio
import base64
import json
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse

from ...errors import InputError
from ...request import clone_voice, resolve_voice
from ...voices import Blend
from .. import params as fields
from ..audio_out import notice_headers, speech_response, told, watch_disconnect, whole_files
from .. import checks
from . import omni_http
from ..engine_client import built, engine_error, send, send_all
from ..limits import ApiError
from ..piece_timing import PieceTexts, check_timings, piece_words
from ..health import health_facts
from ..voice_store import clone_kwargs

log = logging.getLogger("mlx_qwen3tts.server")
MODEL_ALIASES = ("tts-1", "tts-1-hd", "gpt-4o-mini-tts")
X_VECTOR_ONLY = ("cloned from the audio alone (x-vector only): give the clip's transcript (ref_text) "
                 "for in-context cloning, which follows the reference more closely")


async def json_body(request: Request) -> dict:
    body = await request.body()
    try:
        params = json.loads(body)
    except RecursionError:
        raise ApiError(400, "the request body nests JSON too deeply for the parser; send a flat JSON object",
                       code="invalid_json") from None
    except ValueError as e:  # bad UTF-8, bad JSON, an integer with more digits than Python converts
        raise ApiError(400, f"the request body is not valid JSON ({e})", code="invalid_json") from None
    if not isinstance(params, dict):
        raise ApiError(400, "the request body must be a JSON object", code="invalid_json")
    return params


async def speech(request: Request):
    server = request.app.state.server
    body = await json_body(request)
    speech = fields.speech(body, server.limits, server.voices)
    check = checks.asked(server, body, speech.stream_format)
    timing = word_timing(server, speech) if speech.timestamps else None
    if check is not None and speech.stream_format is None:  # heard back, and made again where heard wrong
        return await checks.whole_checked(server, await built(server, text=speech.text, **speech.kwargs), speech,
                                          check, timing)
    handle = send(server, await built(server, text=speech.text, **speech.kwargs), whole=speech.stream_format is None)
    watcher = asyncio.create_task(watch_disconnect(request.receive, handle.cancel))
    tokens = len(server.tts.tokenizer.encode(speech.text)) if speech.stream_format else 0  # SSE's usage
    heard = None if check is None else checks.streamed(server, check, speech.kwargs.get("language") or "auto")
    return await speech_response(handle, speech, server.tts.sample_rate, watcher, tokens, timing, heard)


def word_timing(server, speech):
    """`timing()` -> a `PieceWords` for the request's chunks: each piece's words as written (its input's), with the
    times their spoken forms took in its audio (seconds, as the client hears it: at its speed), aligned on the
    server's MLX thread as each piece's audio is complete; one rule for the whole answer and its stream. Refused
    before any work where the server has no aligner or the language cannot be split into words."""
    language = check_timings(server, speech.kwargs.get("language"))
    return lambda: piece_words(server, language, speech.speed, PieceTexts(speech.text))


async def speech_batch(request: Request):
    """POST /v1/audio/speech/batch in the asker's dialect (`params.batch`): ours, or vLLM-Omni's (`omni_http`)."""
    server = request.app.state.server
    batch = fields.batch(await json_body(request), server.max_batch)
    if batch.omni:
        return await omni_http.speech_batch(server, request, batch.items)
    return await our_batch(server, request, batch.items)


async def our_batch(server, request: Request, items: list):
    """Our batch: `items`, each a body of /v1/audio/speech (with the batch's `defaults`), parsed by the same
    parser and built by the request layer before any work; one bad item refuses the whole batch (400 naming it
    as `items[i].field`). Then all are submitted to the engine together (429 when it cannot take them all) and
    answered as one JSON list of whole files, base64, in each item's format (with its words' times where it
    asks for `timestamps`)."""
    speeches, requests, timings = [], [], []
    for i, item in enumerate(items):
        try:
            speech = fields.speech(item, server.limits, server.voices)
            timings.append(word_timing(server, speech) if speech.timestamps else None)  # each item's own words
            requests.append(await built(server, text=speech.text, **speech.kwargs))
        except ApiError as e:
            raise ApiError(e.status, f"items[{i}]: {e.message}", param=f"items[{i}]" + (f".{e.param}" if e.param
                           else ""), code=e.code, headers=e.headers) from None
        speeches.append(speech)
    handles = send_all(server, requests)
    files = await whole_files(handles, speeches, server.tts.sample_rate, request.receive, timings=timings)
    return JSONResponse({"object": "list", "model": server.model_id, "data": [
        {"object": "speech", "index": i, "response_format": s.fmt, "audio": base64.b64encode(data).decode(),
         "notices": told(h), **({} if words is None else {"timestamps": words})}
        for i, (s, h, (data, words)) in enumerate(zip(speeches, handles, files))]})


async def models(request: Request):
    served = request.app.state.server.model_id
    ids = [served] + [a for a in MODEL_ALIASES if a != served]
    return JSONResponse({"object": "list", "data": [
        {"id": i, "object": "model", "created": 0, "owned_by": "mlx_qwen3tts"} for i in ids]})


async def audio_models(request: Request):
    served = request.app.state.server.model_id
    return JSONResponse({"models": [{"id": i} for i in [served, *MODEL_ALIASES]]})


async def list_voices(request: Request):
    """The voices, as objects with `id` and `name` (what Open WebUI reads), and vLLM-Omni's `uploaded_voices`
    (the saved ones, with their facts)."""
    store = request.app.state.server.voices
    return JSONResponse({"voices": store.listing(), "uploaded_voices": omni_http.uploaded_voices(store)})


async def create_voice(request: Request):
    server = request.app.state.server
    try:
        form = await request.form(max_files=1, max_fields=8)
    except ApiError:
        raise
    except Exception as e:
        raise ApiError(400, f"send multipart/form-data with audio_sample and name ({e})") from None
    try:
        upload, blend = form.get("audio_sample"), form.get("voice")
        if isinstance(blend, str) and upload is None:
            return await save_blend(server, form.get("name"), blend)
        if upload is None or isinstance(upload, str):
            raise ApiError(400, "audio_sample is missing: attach the reference clip as a file (or give a blend of "
                                "voices as voice, e.g. 'aiden:0.7+vivian:0.3')", param="audio_sample")
        vid, display = server.voices.new_names(form.get("name"))
        vid = server.voices.check_new_id(vid)
        data = await upload.read()
        ref_text = form.get("ref_text") if isinstance(form.get("ref_text"), str) else None
        if ref_text is not None and len(ref_text) > server.limits.max_input_chars:
            raise ApiError(400, f"ref_text is longer than {server.limits.max_input_chars} characters", param="ref_text")
        x_only = form.get("x_vector_only")
    finally:
        await form.close()
    samples, rate = server.voices.decode_upload(data)

    kwargs = clone_kwargs(ref_text, x_only)

    def make():
        voice, notices = clone_voice(server.tts.facts, server.tts.voices, (samples, rate), **kwargs)
        for notice in notices:
            log.info("voice %s: %s", vid, notice)
        server.voices.save(vid, voice, display)
        return voice, notices + ((X_VECTOR_ONLY,) if kwargs["x_vector_only"] else ())

    try:
        # One thread for all cloning: MLX streams are per thread, so its compiled encoders stay on one.
        voice, notices = await asyncio.get_running_loop().run_in_executor(server.mlx_thread, make)
    except InputError as e:
        param = fields.UPLOAD_NAMES.get(e.field, e.field) or "audio_sample"
        worded = e.worded(fields.UPLOAD_NAMES)
        raise ApiError(400, f"audio_sample cannot be used: {worded}" if param == "audio_sample" else worded,
                       param=param, code=e.code) from None
    heard = {"ref_text": voice.ref_text, "transcribed": True} if voice.heard else {}  # --asr's, for the page
    return JSONResponse({"id": vid, "name": display, "object": "voice", "in_context": voice.ref_codes is not None,
                         "notices": list(notices), **heard}, status_code=201, headers=notice_headers(notices))


async def save_blend(server, name, blend: str):
    """A blend of voices (`voice`: 'aiden:0.7+vivian:0.3') saved as the voice `name`."""
    vid, display = server.voices.new_names(name)
    vid = server.voices.check_new_id(vid)
    kwargs = server.voices.resolve(blend)
    if "voice" not in kwargs or not isinstance(kwargs["voice"], Blend):
        raise ApiError(400, "voice must be a blend of voices, e.g. 'aiden:0.7+vivian:0.3' (or 'aiden:1' for one)",
                       param="voice", code="invalid_blend")

    def make():
        voice, _ = resolve_voice(server.tts.facts, server.tts.voices, **kwargs)
        server.voices.save(vid, voice, display)

    try:
        await asyncio.get_running_loop().run_in_executor(server.mlx_thread, make)
    except InputError as e:
        raise engine_error(e) from None
    return JSONResponse({"id": vid, "name": display, "object": "voice", "in_context": False, "notices": []},
                        status_code=201)


async def delete_voice(request: Request):
    vid = request.path_params["voice_id"]
    request.app.state.server.voices.delete(vid)
    return JSONResponse({"id": vid, "object": "voice", "deleted": True})


async def health(request: Request):
    server = request.app.state.server
    stats = server.engine.stats()
    return JSONResponse({"status": "ok", "model": server.model_id, "variant": server.tts.variant,
                         "languages": server.tts.config.languages, "active": stats.get("active", 0), "queued": stats.get("queued", 0),
                         "max_active": server.max_active, "max_queue": server.max_queue,
                         "prefill_budget": server.engine.prefill_budget_now,
                         "timestamps": server.aligner is not None,  # word timestamps (--aligner)
                         "asr": server.tts.asr is not None,  # transcripts of clips and "check" (--asr)
                         **health_facts(server.tts.facts)})  # what the page adapts to
