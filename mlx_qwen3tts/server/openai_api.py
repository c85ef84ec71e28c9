"""OpenAI-compatible HTTP endpoints: speech (whole file, chunked audio, SSE), models, voices, health."""

import asyncio
import base64
import json
import logging

import numpy as np
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..errors import InputError
from ..request import clone_voice
from . import params as fields
from .audio_out import CONTENT_TYPES, Usage, check_format, encoded_chunks, encoded_file, in_thread
from .engine_client import build, engine_error, send
from .limits import ApiError
from .time_stretch import time_stretch
from .studio import health_facts, notice_headers
from .voice_store import clone_kwargs

log = logging.getLogger("mlx_qwen3tts.server")
MODEL_ALIASES = ("tts-1", "tts-1-hd", "gpt-4o-mini-tts")
STREAM_FORMATS = ("audio", "sse")
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


async def watch_disconnect(receive, cancel):
    """Cancel the engine request as soon as the client goes away."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            cancel()
            return


class AudioStream:
    """A chunked response from an async iterator of bytes. `watcher` (watch_disconnect) has been
    running since the request was submitted, so the engine request is cancelled the moment the
    client goes away, queued or generating, not only at the next write."""

    def __init__(self, chunks, first: bytes, media_type: str, cancel, watcher, headers: dict = None):
        self.chunks, self.first, self.media_type, self.cancel, self.watcher = chunks, first, media_type, cancel, watcher
        self.headers = headers or {}

    async def __call__(self, scope, receive, send):
        headers = [(b"content-type", self.media_type.encode()), (b"cache-control", b"no-store")]
        headers += [(k.lower().encode(), v.encode("latin-1")) for k, v in self.headers.items()]
        try:
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": self.first, "more_body": True})
            async for data in self.chunks:
                if self.watcher.done():
                    return
                await send({"type": "http.response.body", "body": data, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:  # the client went away mid-write
            self.cancel()
        finally:
            self.watcher.cancel()
            await self.chunks.aclose()


def sse(event: dict) -> bytes:
    return f"data: {json.dumps(event)}\n\n".encode()


async def sse_events(chunks, usage: Usage, sample_rate: int):
    try:
        async for data in chunks:
            yield sse({"type": "speech.audio.delta", "audio": base64.b64encode(data).decode()})
    except Exception as e:  # the status is sent already: the stream ends with an error event
        yield sse({"type": "error", "error": engine_error(e).body()["error"]})
        return
    yield sse({"type": "speech.audio.done", "usage": usage.as_dict(sample_rate)})


async def speech(request: Request):
    server = request.app.state.server
    body = await json_body(request)
    text = fields.input_text(body, server.limits)
    fmt = check_format(body.get("response_format"))
    speed = fields.speed(body)
    stream_format = body.get("stream_format")
    if stream_format is not None and stream_format not in STREAM_FORMATS:
        raise ApiError(400, f"stream_format must be one of {', '.join(STREAM_FORMATS)}", param="stream_format")
    kwargs = fields.speech_kwargs(server.voices, body, server.limits)
    speech_request = build(server, text=text, **kwargs)  # built apart: its notices go in a header
    headers = notice_headers(speech_request.notices)
    handle = send(server, speech_request)
    watcher = asyncio.create_task(watch_disconnect(request.receive, handle.cancel))
    sr = server.tts.sample_rate
    try:
        if stream_format is None:
            try:
                return await whole_file(handle, fmt, speed, sr, headers)
            finally:
                watcher.cancel()
        usage = Usage(len(server.tts.tokenizer.encode(text)))
        chunks = in_thread(encoded_chunks(handle, fmt, speed, sr, usage), handle.cancel)
        if stream_format == "sse":
            chunks = sse_events(chunks, usage, sr)
        first = await anext(chunks, b"")  # errors before any audio still get their own status
    except Exception as e:
        watcher.cancel()
        handle.cancel()
        raise engine_error(e) from None
    media = "text/event-stream" if stream_format == "sse" else CONTENT_TYPES[fmt]
    return AudioStream(chunks, first, media, handle.cancel, watcher, headers)


async def whole_file(handle, fmt: str, speed: float, sr: int, headers: dict) -> Response:
    pieces = [samples async for samples in in_thread((chunk.samples for chunk in handle), handle.cancel)]
    audio = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
    audio = await asyncio.to_thread(time_stretch, audio, speed, sr)
    return Response(await asyncio.to_thread(encoded_file, audio, sr, fmt), media_type=CONTENT_TYPES[fmt],
                    headers=headers)


async def models(request: Request):
    served = request.app.state.server.model_id
    ids = [served] + [a for a in MODEL_ALIASES if a != served]
    return JSONResponse({"object": "list", "data": [
        {"id": i, "object": "model", "created": 0, "owned_by": "mlx_qwen3tts"} for i in ids]})


async def audio_models(request: Request):
    served = request.app.state.server.model_id
    return JSONResponse({"models": [{"id": i} for i in [served, *MODEL_ALIASES]]})


async def list_voices(request: Request):
    return JSONResponse({"voices": request.app.state.server.voices.listing()})


async def create_voice(request: Request):
    server = request.app.state.server
    try:
        form = await request.form(max_files=1, max_fields=8)
    except ApiError:
        raise
    except Exception as e:
        raise ApiError(400, f"send multipart/form-data with audio_sample and name ({e})") from None
    try:
        upload = form.get("audio_sample")
        if upload is None or isinstance(upload, str):
            raise ApiError(400, "audio_sample is missing: attach the reference clip as a file", param="audio_sample")
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
        param = fields.JSON_NAMES.get(e.field, e.field) or "audio_sample"
        worded = e.worded(fields.JSON_NAMES)
        raise ApiError(400, f"audio_sample cannot be used: {worded}" if param == "audio_sample" else worded,
                       param=param, code=e.code) from None
    return JSONResponse({"id": vid, "name": display, "object": "voice", "in_context": voice.ref_codes is not None,
                         "notices": list(notices)}, status_code=201, headers=notice_headers(notices))


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
                         **health_facts(server.tts.facts)})  # what the page adapts to
