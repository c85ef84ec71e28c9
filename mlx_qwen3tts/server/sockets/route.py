"""The route of `/v1/audio/speech/stream`: a session in our dialect, or in vLLM-Omni's where its first message
is `session.config`, served by the one session core."""

import asyncio
import json

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..limits import ApiError
from .omni import Omni
from .ours import Ours
from .session import Session, log, message_bytes

KEY_PROTOCOL = "openai-insecure-api-key."
FIRST_MESSAGE_S = 0.2  # how long a new session waits for its first message before it sends session.created


def omni_first(raw, limit: int) -> bool:
    """Whether a session's first message is vLLM-Omni's (`session.config`): that session speaks its dialect.
    One over the size `limit` is not parsed (our session refuses it)."""
    if raw is None or message_bytes(raw) > limit:
        return False
    try:
        message = json.loads(raw)
    except (TypeError, ValueError):
        return False
    return isinstance(message, dict) and message.get("type") == "session.config"


async def speech_socket(ws: WebSocket):
    """Ours begins with `session.created`, which some of our clients wait for before they say anything: it
    goes out once a first message that is not session.config has come, or none within `FIRST_MESSAGE_S` (a
    session.config coming later still selects vLLM-Omni's dialect, whose clients skip the event). A session past
    the server's cap (`max_ws_sessions`) is refused at the handshake with a 503."""
    server = ws.app.state.server
    limit = server.limits.max_ws_sessions
    if server.ws_sessions >= limit:
        await refuse(ws, server, limit)
        return
    offered = [p for p in ws.scope.get("subprotocols", []) if p.startswith(KEY_PROTOCOL)]
    await ws.accept(subprotocol=offered[0] if offered else None)
    session = Session(server, ws)
    session.dialect = Ours(session)
    server.ws_sessions += 1
    server.metrics.sessions.labels("websocket").inc()
    server.metrics.open_sessions.labels("websocket").inc()
    try:
        await serve(session)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        server.ws_sessions -= 1
        server.metrics.open_sessions.labels("websocket").dec()


async def serve(session: Session):
    """The session in the dialect its first message selects (none within `ws_session_idle_seconds`: closed)."""
    ws, limits = session.ws, session.limits
    try:  # vLLM-Omni's clients open with session.config at once; ours may wait for session.created
        message = await asyncio.wait_for(ws.receive(), FIRST_MESSAGE_S)
    except asyncio.TimeoutError:
        message = None
    limit = limits.max_ws_message_bytes
    if message is None or not omni_first(message.get("text"), limit):
        await session.send({"type": "session.created", "session": session.dialect.settings})
    if message is None:
        try:
            message = await asyncio.wait_for(ws.receive(), limits.ws_session_idle_seconds)
        except asyncio.TimeoutError:
            log.info("session %s: no message for %g s: closed", session.id, limits.ws_session_idle_seconds)
            await session.close(1000, f"no message for {limits.ws_session_idle_seconds:g} s: the session was closed")
            return
    if message["type"] == "websocket.disconnect":
        return
    first = message.get("text") if message.get("text") is not None else message.get("bytes")
    if omni_first(first, limit):
        session.dialect = Omni(session)
    await session.run(first)


async def refuse(ws: WebSocket, server, limit: int):
    """A session past the cap: HTTP 503 at the handshake (OpenAI's error body), counted and logged."""
    server.metrics.refused_sessions.labels("websocket").inc()
    log.warning("a WebSocket session was refused: %d are open, the most this server takes (--ws-max-sessions)",
                limit)
    error = ApiError(503, f"the server holds {limit} WebSocket sessions, its most (--ws-max-sessions); retry when "
                          "one has ended", code="too_many_sessions", headers={"Retry-After": "1"})
    await ws.send_denial_response(JSONResponse(error.body(), 503, headers=error.headers))
