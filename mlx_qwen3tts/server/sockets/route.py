"""The route of `/v1/audio/speech/stream`: a session in our dialect, or in vLLM-Omni's where its first message
is `session.config`, served by the one session core."""

import asyncio
import json

from starlette.websockets import WebSocket, WebSocketDisconnect

from .omni import Omni
from .ours import Ours
from .session import Session, message_bytes

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
    session.config coming later still selects vLLM-Omni's dialect, whose clients skip the event)."""
    server = ws.app.state.server
    offered = [p for p in ws.scope.get("subprotocols", []) if p.startswith(KEY_PROTOCOL)]
    await ws.accept(subprotocol=offered[0] if offered else None)
    session = Session(server, ws)
    session.dialect = Ours(session)
    server.metrics.sessions.labels("websocket").inc()
    server.metrics.open_sessions.labels("websocket").inc()
    try:
        try:  # vLLM-Omni's clients open with session.config at once; ours may wait for session.created
            message = await asyncio.wait_for(ws.receive(), FIRST_MESSAGE_S)
        except asyncio.TimeoutError:
            message = None
        limit = server.limits.max_ws_message_bytes
        if message is None or not omni_first(message.get("text"), limit):
            await session.send({"type": "session.created", "session": session.dialect.settings})
        message = message or await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        first = message.get("text") if message.get("text") is not None else message.get("bytes")
        if omni_first(first, limit):
            session.dialect = Omni(session)
        await session.run(first)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        server.metrics.open_sessions.labels("websocket").dec()
