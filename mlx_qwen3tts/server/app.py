"""The ASGI application: routes, the API-key and body-size guard, CORS, error bodies."""

import asyncio
import hmac
import re
from concurrent.futures import ThreadPoolExecutor
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ..backend import release_thread_streams
from .openai import api as openai_api
from .limits import ApiError, Limits, too_large
from .metrics import Measured, Metrics
from .audio_out import NOTICE_HEADER
from .checks import CHECK_HEADER
from .voice_store import VoiceStore
from .sockets.route import KEY_PROTOCOL, speech_socket

log = logging.getLogger("mlx_qwen3tts.server")
STATIC = Path(__file__).resolve().parent / "page"  # the page at /, its files under /static/
OPEN_PATHS = ("/health", "/", "/favicon.ico")  # the page itself holds no data; its API calls need the key
# A Host header: a name or IPv4 address, or an IPv6 address in brackets, and an optional port.
HOST_HEADER = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^:\[\]/\s]+)(?::\d{1,5})?")
LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]", "::1"]
# How containers name the machine they run on (Docker Desktop, Podman, Lima/Colima). `.internal` is
# reserved for private use (ICANN, 2024): no public DNS answers for it, so a web page cannot rebind
# these names to this server, and accepting them opens nothing that loopback did not.
CONTAINER_HOST_NAMES = ["host.docker.internal", "gateway.docker.internal", "host.containers.internal",
                        "host.lima.internal"]
# What clients read to fill their model and voice menus (GET only); --public-listings serves them
# without the key, since Open WebUI fetches them with none.
LISTING_PATHS = ("/v1/models", "/v1/audio/models", "/v1/audio/voices")


@dataclass
class Server:
    """What the endpoints share: the model, the engine, the voices and the limits."""

    tts: object
    engine: object
    model_id: str
    voices: VoiceStore
    limits: Limits = field(default_factory=Limits)
    api_key: Optional[str] = None
    max_active: int = 8
    max_queue: int = 32
    max_batch: int = 16  # items in one POST /v1/audio/speech/batch
    mlx_thread: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, "mlx_qwen3tts-clone"))
    lexicon: Optional[object] = None  # --lexicon: respellings applied to every whole text
    aligner: Optional[object] = None  # --aligner: word timestamps (mlx_qwen3tts.aligner.Aligner)
    metrics: Optional[Metrics] = None  # made for the engine when not given
    ws_sessions: int = 0  # WebSocket sessions open now (at most `limits.max_ws_sessions`)

    def __post_init__(self):
        if self.metrics is None:
            self.metrics = Metrics(self.engine, self.model_id)

    def close(self):
        """Stop the cloning thread, its MLX streams released first (or the process may abort at exit)."""
        self.mlx_thread.submit(release_thread_streams).result()
        self.mlx_thread.shutdown()


class LoopbackHosts:
    """The DNS-rebinding defence of a loopback bind: a request naming a Host outside `allowed` (a name, or
    `*.domain` for its subdomains) is refused with a 400 in OpenAI's error shape, as every other error. A
    request with no Host header passes: browsers always send one, so it cannot come from a web page, and
    load balancers' default health checks (HAProxy's `option httpchk`, HTTP/1.0) send none."""

    def __init__(self, app, allowed: Sequence[str]):
        self.app, self.allowed = app, [name.lower() for name in allowed]

    def _allowed(self, value: str) -> bool:
        found = HOST_HEADER.fullmatch(value.strip())
        host = found and found["host"].lower()
        return bool(host) and any(host == name or (name.startswith("*.") and host.endswith(name[1:]))
                                  for name in self.allowed)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        value = dict(scope["headers"]).get(b"host")
        if value is None or self._allowed(value.decode("latin-1")):
            return await self.app(scope, receive, send)
        error = ApiError(400, f"the Host header {value.decode('latin-1')!r} does not name this server: bound to a "
                         "loopback address it answers to localhost, 127.0.0.1 and [::1] (start it with "
                         "--allow-host NAME for another name)", param="Host", code="invalid_host")
        await JSONResponse(error.body(), 400)(scope, receive, send)


class Guard:
    """API key on every path but the open ones (HTTP: Bearer header; WebSocket: the header or the
    subprotocol `openai-insecure-api-key.KEY`, since browsers cannot set headers there), and the
    request body size, checked against Content-Length and counted as it arrives."""

    def __init__(self, app, server: Server, public_listings: bool = False, public_metrics: bool = False):
        self.app, self.server = app, server
        self.public_listings, self.public_metrics = public_listings, public_metrics

    def _open(self, scope) -> bool:
        path = scope["path"]
        if path in OPEN_PATHS or path.startswith("/static/") or (self.public_metrics and path == "/metrics"):
            return True
        return self.public_listings and scope["type"] == "http" and scope["method"] == "GET" and path in LISTING_PATHS

    def _authorized(self, scope) -> bool:
        key = self.server.api_key
        if not key or self._open(scope):
            return True
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"authorization", b"").decode("latin-1")
        candidates = [given[7:].strip()] if given.lower().startswith("bearer ") else []
        protocols = [p.strip() for p in headers.get(b"sec-websocket-protocol", b"").decode("latin-1").split(",")]
        candidates += [p[len(KEY_PROTOCOL):] for p in protocols if p.startswith(KEY_PROTOCOL)]
        return any(hmac.compare_digest(c.encode(), key.encode()) for c in candidates)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if not self._authorized(scope):
            if scope["type"] == "websocket":  # HTTP's refusals are counted by status (`Measured`)
                self.server.metrics.refused.labels("auth").inc()
                return await send({"type": "websocket.close", "code": 1008, "reason": "invalid API key"})
            error = ApiError(401, "missing or wrong API key: send 'Authorization: Bearer KEY'",
                             code="invalid_api_key")
            return await JSONResponse(error.body(), 401, {"WWW-Authenticate": "Bearer"})(scope, receive, send)
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        lim = self.server.limits
        uploads = scope["path"] == "/v1/audio/voices" and scope["method"] == "POST"
        limit = lim.max_upload_bytes + 64 * 1024 if uploads else lim.max_body_bytes
        what = "the upload" if uploads else "the request body"
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            error = too_large(what, limit)
            return await JSONResponse(error.body(), 413)(scope, receive, send)
        seen, complete = 0, False
        deadline = asyncio.get_running_loop().time() + lim.body_seconds

        async def counted():
            nonlocal seen, complete
            if complete:  # the body is in: later receives wait for the disconnect, as long as a response streams
                return await receive()
            wait = min(lim.body_idle_seconds, deadline - asyncio.get_running_loop().time())
            try:
                message = await asyncio.wait_for(receive(), max(wait, 0.0))
            except asyncio.TimeoutError:
                raise body_stalled(lim) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if seen > limit:
                    raise too_large(what, limit)
            return message

        await self.app(scope, counted, send)


def body_stalled(lim: Limits) -> ApiError:
    # Connection: close, or the server would keep reading the rest of a body that is not coming.
    message = (f"the request body stalled: each part must follow within {lim.body_idle_seconds:g} s and the "
               f"whole body within {lim.body_seconds:g} s")
    return ApiError(408, message, code="body_timeout", headers={"Connection": "close"})


async def api_error(request, exc: ApiError):
    return JSONResponse(exc.body(), exc.status, exc.headers)


async def http_error(request, exc: HTTPException):
    message = {404: f"no such endpoint: {request.method} {request.url.path}",
               405: f"{request.method} is not allowed on {request.url.path}"}.get(exc.status_code, exc.detail)
    return JSONResponse(ApiError(exc.status_code, message).body(), exc.status_code, getattr(exc, "headers", None))


async def server_error(request, exc: Exception):
    log.exception("unhandled error", exc_info=exc)
    return JSONResponse(ApiError(500, "internal server error; see the server log").body(), 500)


async def metrics(request):
    m = request.app.state.server.metrics
    return Response(m.text(), headers={"Content-Type": m.content_type})


async def page(request):
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def favicon(request):  # browsers ask for it whatever the page links; a 404 would be a console error
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


def create_app(server: Server, cors: Sequence[str] = (), trusted_hosts: Optional[Sequence[str]] = None,
               public_listings: bool = False, public_metrics: bool = False) -> Starlette:
    """trusted_hosts: Host header values accepted (for a loopback bind, the loopback and container
    host names: a web page cannot reach the server through DNS rebinding; a request without a Host
    header passes). public_listings: the GET listings (LISTING_PATHS) need no API key; public_metrics:
    nor does GET /metrics."""
    routes = [
        Route("/", page),
        Route("/favicon.ico", favicon),
        Route("/health", openai_api.health),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/v1/models", openai_api.models),
        Route("/v1/audio/models", openai_api.audio_models),
        Route("/v1/audio/voices", openai_api.list_voices, methods=["GET"]),
        Route("/v1/audio/voices", openai_api.create_voice, methods=["POST"]),
        Route("/v1/audio/voices/{voice_id}", openai_api.delete_voice, methods=["DELETE"]),
        Route("/v1/audio/speech", openai_api.speech, methods=["POST"]),
        Route("/v1/audio/speech/batch", openai_api.speech_batch, methods=["POST"]),
        WebSocketRoute("/v1/audio/speech/stream", speech_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(Measured, metrics=server.metrics)]  # outermost: every answer is counted
    if trusted_hosts:
        middleware.append(Middleware(LoopbackHosts, allowed=trusted_hosts))
    if cors:
        middleware.append(Middleware(CORSMiddleware, allow_origins=list(cors), allow_methods=["GET", "POST", "DELETE"],
                                     allow_headers=["Authorization", "Content-Type"], expose_headers=[NOTICE_HEADER, CHECK_HEADER]))
    middleware.append(Middleware(Guard, server=server, public_listings=public_listings,
                                 public_metrics=public_metrics))
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={
        ApiError: api_error, HTTPException: http_error, Exception: server_error})
    app.state.server = server
    return app
