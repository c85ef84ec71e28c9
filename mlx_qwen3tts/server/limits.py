"""What one request may ask of the server, and the error every refusal becomes.

Every limit is stated in the message of the 400/413 that enforces it, so a client knows what to
change. Errors have OpenAI's shape: {"error": {"message", "type", "param", "code"}}.
"""

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 256 * 1024  # a JSON request body
    max_input_chars: int = 4096  # OpenAI's own limit for `input`; also per WebSocket utterance
    max_upload_bytes: int = 16 * 1024 * 1024  # a reference clip for POST /v1/audio/voices
    max_upload_seconds: float = 60.0
    # Every WebSocket message, held to it before it is parsed (a vLLM-Omni session.config may carry a clip).
    max_ws_message_bytes: int = 4 * 1024 * 1024
    ws_pause_seconds: float = 0.5  # text streamed in is spoken after this long without more (--ws-pause)
    ws_idle_seconds: float = 30.0  # an open utterance ends after this long without a message (--ws-idle-timeout)
    ws_session_idle_seconds: float = 300.0  # a session with nothing open or to speak closes after this long
    max_ws_sessions: int = 40  # WebSocket sessions open at once; the next is refused (--ws-max-sessions)
    max_ws_queued: int = 16  # utterances waiting in one WebSocket session; the next is refused
    ws_send_seconds: float = 20.0  # a send the client does not read within this ends its session
    body_idle_seconds: float = 10.0  # a request body that sends nothing for this long is dropped (408)
    body_seconds: float = 120.0  # and the whole body must arrive within this (a trickle cannot hold a connection)
    max_voices: int = 1000


# OpenAI's error type per status; every other refusal is an invalid_request_error.
ERROR_TYPES = {401: "authentication_error", 429: "rate_limit_error", 500: "server_error", 503: "server_error"}


class ApiError(Exception):
    """A refused request: HTTP status, one actionable message, OpenAI's error fields."""

    def __init__(self, status: int, message: str, param: Optional[str] = None, code: Optional[str] = None,
                 headers: Optional[dict] = None):
        super().__init__(message)
        self.status, self.message, self.param, self.code = status, message, param, code
        self.headers = headers or {}

    def body(self) -> dict:
        return {"error": {"message": self.message, "type": ERROR_TYPES.get(self.status, "invalid_request_error"),
                          "param": self.param, "code": self.code}}


def too_large(what: str, limit: int) -> ApiError:
    return ApiError(413, f"{what} is larger than the server's limit of {limit:,} bytes", code="too_large")
