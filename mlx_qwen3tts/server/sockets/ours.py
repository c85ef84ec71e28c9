"""WebSocket /v1/audio/speech/stream: text in as it is written, audio out as it is made.

Client -> server: session.update, input_text.append, input_text.flush, input_text.end, cancel.
Server -> client: session.created, session.updated, speech.audio.delta, speech.audio.done, error, and with
`timestamps` speech.timestamps after each piece's audio (its words, from the server's aligner).
A session whose first message is vLLM-Omni's session.config speaks that dialect instead (`sockets/omni.py`).
Each utterance (text up to a flush or the end) is one streaming-text engine request fed by a
TextFeed, so its audio starts after its first text token. Utterances are spoken one after the
other; text for the next one is buffered meanwhile. Pieces are joined exactly as sent, so a
character a client split between two appends (a JavaScript string sliced by index splits an emoji
into its UTF-16 surrogates) is joined again: a high surrogate ending one append waits for the next.
"""

import asyncio
import base64
import json
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from ...errors import InputError
from ...request_fields import field_names
from ...request import clean_text
from ...loop.text_track import TextFeed
from .. import params as fields
from ..audio_out import Usage, encoded_chunks, in_thread
from ..limits import ApiError
from ..engine_client import build, engine_error, runaway_notice, submit
from .omni import omni_session
from ..piece_timing import check_timings, piece_words

log = logging.getLogger("mlx_qwen3tts.server")
WS_FORMATS = ["pcm", "wav"]
KEY_PROTOCOL = "openai-insecure-api-key."
# The request layer's fields as these sessions name them: the text comes in input_text.append's `text`.
WS_NAMES = field_names(text="text", deltas="text", speaker="voice", instruct="instructions",
                       max_tokens="max_new_tokens", ref_audio="audio_sample")
NOTHING = "nothing to speak"  # queued for a flush with no text since the last one
HIGH_SURROGATES = ("\ud800", "\udbff")
FIRST_MESSAGE_S = 0.2  # how long a new session waits for its first message before it sends session.created


def unicode_text(text: str) -> str:
    """`text`, refused now if the request would refuse it later (a lone surrogate, not a string)."""
    try:
        return clean_text(text, "deltas")
    except InputError as e:
        raise engine_error(e, WS_NAMES) from None


class Utterance:
    def __init__(self, feed, kwargs: dict, fmt: str, speed: float, binary: bool, timestamps: bool = False):
        self.feed, self.kwargs, self.fmt, self.speed, self.binary = feed, kwargs, fmt, speed, binary
        self.text, self.handle, self.cancelled, self.timestamps = [], None, False, timestamps

    def write(self, text: str):
        self.text.append(text)
        if text:
            self.feed.append(text)

    def end(self):
        self.feed.end()

    def cancel(self):
        self.cancelled = True
        self.feed.end()
        if self.handle is not None:
            self.handle.cancel()


class Session:
    def __init__(self, server, ws: WebSocket):
        self.server, self.ws = server, ws
        self.settings = {"voice": None, "language": "auto", "instructions": None, "response_format": "pcm",
                         "speed": 1.0, "binary": False, "timestamps": False, "sample_rate": server.tts.sample_rate}
        self.params = {}  # the raw fields given so far (validated), merged over updates
        self.kwargs = {}
        self.current = None  # the utterance taking text
        self.held = ""  # a high surrogate that ended the last append, for the low one starting the next
        self.queue: asyncio.Queue = asyncio.Queue()
        self.active = []  # utterances submitted or waiting, for cancel
        self.seq = 0
        self.send_lock = asyncio.Lock()

    async def send(self, event: dict):
        async with self.send_lock:
            await self.ws.send_text(json.dumps(event))

    async def error(self, message: str, code: str = "invalid_request", param=None):
        self.server.metrics.refused_code(code)
        await self.send({"type": "error", "error": {"message": message, "type": "invalid_request_error",
                                                    "param": param, "code": code}})

    # -- client messages ---------------------------------------------------------------------
    def update(self, session) -> None:
        if not isinstance(session, dict):
            raise ApiError(400, "session.update needs a 'session' object", param="session")
        merged = {**self.params, **session}
        merged.pop("text_mode", None)  # text arriving as deltas is always the streaming layout
        kwargs = fields.speech_kwargs(self.server.voices, merged, self.server.limits)
        build(self.server, WS_NAMES, deltas=(), **kwargs)  # refused now, not when text comes
        fmt = fields.check_format(merged.get("response_format", "pcm"), WS_FORMATS)
        speed = fields.speed(merged)
        binary = merged.get("binary", False)
        if not isinstance(binary, bool):
            raise ApiError(400, "binary must be true or false", param="binary")
        timestamps = fields.timestamps(merged, None)
        if timestamps:
            check_timings(self.server, kwargs.get("language"), "timestamps")
        self.params, self.kwargs = merged, kwargs
        self.settings.update({k: merged[k] for k in merged if k in self.settings})
        self.settings.update(response_format=fmt, speed=speed, binary=binary, timestamps=timestamps)

    def append(self, text) -> None:
        if not isinstance(text, str):
            raise ApiError(400, "input_text.append needs 'text' as a string", param="text")
        if self.held:  # a Python str holds a pair as one character: join the halves (a lone one stays lone)
            text = (self.held + text).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
            self.held = ""
        if text and HIGH_SURROGATES[0] <= text[-1] <= HIGH_SURROGATES[1]:
            text, self.held = text[:-1], text[-1]
        unicode_text(text)
        if self.current is None:
            s = self.settings
            self.current = Utterance(TextFeed(), dict(self.kwargs), s["response_format"], s["speed"], s["binary"],
                                     s["timestamps"])
            self.active.append(self.current)
            self.queue.put_nowait(self.current)
        used = sum(len(t) for t in self.current.text)
        limit = self.server.limits.max_input_chars
        if used + len(text) > limit:
            self.current.cancel()
            self.current = None
            raise ApiError(400, f"an utterance may hold at most {limit:,} characters; this one was cancelled "
                                "(send input_text.flush to start a new utterance)", param="text", code="too_long")
        self.current.write(text)

    def flush(self, answer_empty: bool = False) -> None:
        held, self.held = self.held, ""
        if self.current is not None:
            self.current.end()
            self.current = None
        elif answer_empty:  # a client waiting for one done per flush gets it, in turn, with nothing spoken
            self.queue.put_nowait(NOTHING)
        unicode_text(held)  # the utterance has ended: a held high surrogate is lone for good

    def cancel(self) -> None:
        for utt in self.active:
            utt.cancel()
        self.current, self.held = None, ""

    async def handle(self, raw) -> bool:
        """One client message; False once the client has ended the session."""
        message = fields.socket_message(raw)
        kind = message.get("type")
        if kind == "session.update":
            self.update(message.get("session"))
            await self.send({"type": "session.updated", "session": self.settings})
        elif kind == "input_text.append":
            self.append(message.get("text"))
        elif kind == "input_text.flush":
            self.flush(answer_empty=True)
        elif kind == "input_text.end":
            try:
                self.flush()
            except ApiError as e:  # said, and the session still ends as asked, after its audio
                await self.error(e.message, e.code or "invalid_request", e.param)
            self.queue.put_nowait(None)
            return False
        elif kind == "cancel":
            self.cancel()
        else:
            raise ApiError(400, f"unknown message type {str(kind)[:40]!r}; send session.update, input_text.append, "
                                "input_text.flush, input_text.end or cancel", param="type", code="unknown_type")
        return True

    async def within_limit(self, raw):
        """A message over the limit closes the session as 'message too big' (1009); the socket itself takes
        larger ones for the other dialect's session.config."""
        if message_bytes(raw) > self.server.limits.max_ws_message_bytes:
            await self.ws.close(1009)
            raise WebSocketDisconnect(1009)

    async def read(self, first=None):
        """Client messages (`first`: one read already) until the client ends the session or goes away."""
        idle = self.server.limits.ws_idle_seconds
        if first is not None:
            await self.within_limit(first)
            try:
                if not await self.handle(first):
                    return
            except ApiError as e:
                await self.error(e.message, e.code or "invalid_request", e.param)
        while True:
            try:
                message = await asyncio.wait_for(self.ws.receive(), idle if self.current is not None else None)
            except asyncio.TimeoutError:
                try:
                    self.flush()
                except ApiError as e:
                    await self.error(e.message, e.code or "invalid_request", e.param)
                await self.error(f"no text for {idle:g} s: the utterance was ended", "idle_timeout")
                continue
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            raw = message.get("text") if message.get("text") is not None else message.get("bytes")
            await self.within_limit(raw)
            try:
                if not await self.handle(raw):
                    return
            except ApiError as e:
                await self.error(e.message, e.code or "invalid_request", e.param)

    # -- audio -------------------------------------------------------------------------------
    async def speak(self):
        """Utterances one after the other, each as one engine request, until the session ends."""
        sr = self.server.tts.sample_rate
        while True:
            utt = await self.queue.get()
            if utt is None:
                return
            if utt is NOTHING:
                await self.send({"type": "speech.audio.done", "usage": Usage().as_dict(sr), "cancelled": False})
                continue
            if utt.cancelled:
                continue
            try:
                utt.handle = submit(self.server, WS_NAMES, deltas=utt.feed, **utt.kwargs)
            except ApiError as e:
                utt.cancel()
                await self.error(e.message, e.code or "invalid_request", e.param)
                continue
            usage = Usage()
            try:
                await self.audio(utt, usage)
            except Exception as e:
                error = engine_error(e, WS_NAMES)
                await self.error(error.message, error.code or ("invalid_request" if error.status == 400
                                                               else "generation_failed"), error.param)
            finally:
                self.active.remove(utt)
            usage.text_tokens = len(self.server.tts.tokenizer.encode("".join(utt.text))) if utt.text else 0
            if runaway_notice(utt.handle):  # the runaway guard ended it
                await self.send({"type": "speech.runaway", "message": runaway_notice(utt.handle)})
            await self.send({"type": "speech.audio.done", "usage": usage.as_dict(sr), "cancelled": utt.cancelled})

    async def audio(self, utt: Utterance, usage: Usage):
        """The utterance's audio as deltas; with timestamps, each piece's words after its audio
        (`speech.timestamps`, times in seconds of the utterance), aligned while the engine goes on."""
        sr = self.server.tts.sample_rate
        words = piece_words(self.server, utt.kwargs.get("language"), utt.speed, True) if utt.timestamps else None
        async for item in in_thread(encoded_chunks(utt.handle, utt.fmt, utt.speed, sr, usage, words),
                                    utt.handle.cancel):
            if utt.cancelled:
                break
            if isinstance(item, bytes):
                await self.delta(item, utt.binary)
            elif item.words is None:
                await self.error("word timings failed for a sentence (see the server's log); its audio goes on",
                                 "timestamps_failed", "timestamps")
            else:
                await self.send({"type": "speech.timestamps", "timestamps": [
                    {"word": w.text, "start_time": w.start, "end_time": w.end} for w in item.words]})

    async def delta(self, data: bytes, binary: bool):
        if binary:
            async with self.send_lock:
                await self.ws.send_bytes(data)
        else:
            await self.send({"type": "speech.audio.delta", "seq": self.seq, "audio": base64.b64encode(data).decode()})
        self.seq += 1

    def close(self):
        self.cancel()
        self.queue.put_nowait(None)


def message_bytes(raw) -> int:
    return len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw or b"")


def omni_first(raw) -> bool:
    """Whether a session's first message is vLLM-Omni's (`session.config`): that session speaks its dialect."""
    try:
        message = json.loads(raw)
    except (TypeError, ValueError):
        return False
    return isinstance(message, dict) and message.get("type") == "session.config"


async def speech_socket(ws: WebSocket):
    """A session in our dialect, or in vLLM-Omni's where its first message is `session.config`
    (`sockets/omni.py`). Ours begins with `session.created`, which some of our clients wait for before they say
    anything: it goes out once a first message that is not session.config has come, or none within
    `FIRST_MESSAGE_S` (a session.config coming later still selects vLLM-Omni's dialect, whose clients skip
    the event)."""
    server = ws.app.state.server
    offered = [p for p in ws.scope.get("subprotocols", []) if p.startswith(KEY_PROTOCOL)]
    await ws.accept(subprotocol=offered[0] if offered else None)
    session = Session(server, ws)
    server.metrics.sessions.labels("websocket").inc()
    server.metrics.open_sessions.labels("websocket").inc()
    try:
        try:  # vLLM-Omni's clients open with session.config at once; ours may wait for session.created
            message = await asyncio.wait_for(ws.receive(), FIRST_MESSAGE_S)
        except asyncio.TimeoutError:
            message = None
        if message is None or not omni_first(message.get("text")):
            await session.send({"type": "session.created", "session": session.settings})
        message = message or await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        first = message.get("text") if message.get("text") is not None else message.get("bytes")
        if omni_first(first):
            return await omni_session(server, ws, first)
        await our_session(session, ws, first)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        server.metrics.open_sessions.labels("websocket").dec()


async def our_session(session: Session, ws: WebSocket, first):
    reader = asyncio.create_task(session.read(first))
    speaker = asyncio.create_task(session.speak())
    try:
        await asyncio.wait({reader, speaker}, return_when=asyncio.FIRST_EXCEPTION)
        if reader.done() and reader.exception() is None:
            await speaker  # the client sent input_text.end: finish its audio, then close
            await ws.close(1000)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        session.close()
        for task in (reader, speaker):
            task.cancel()
        await asyncio.gather(reader, speaker, return_exceptions=True)
