"""One WebSocket session, whatever its dialect: the reader loop, the speaker loop, the bounds and the error path.

A dialect (`ours.Ours`, `omni.Omni`) is an adapter: it parses its messages onto engine requests (`handle`),
ends an open utterance when its text stops coming (`idle`), speaks a queued utterance as its events (`speak`)
and writes an error in its shape (`error_event`). Everything else is here, once:
- every message is held to one size limit before it is parsed, and parsed as a JSON object;
- an utterance open for text ends after `ws_idle_seconds` without a message;
- at most `max_ws_queued` utterances wait per session; past that one is refused with an error event;
- a send the client does not read within `ws_send_seconds` ends the session with that reason; meanwhile the
  session's generation pauses (`audio_out.in_thread` holds a few items, the engine a few chunks per request);
- every failure becomes an error event in the dialect's shape and a log line naming the session, and the
  session goes on; one it cannot go on from closes the socket with a code and a reason.
"""

import asyncio
import json
import logging
import uuid

from starlette.websockets import WebSocket, WebSocketDisconnect

from ...aligner.piece_words import PieceTexts
from ...errors import InputError, Qwen3TTSError
from ...loop.engine import EngineFull
from ...request import clean_text
from ..audio_out import in_thread
from ..engine_client import engine_error
from ..limits import ApiError
from ..params import socket_message

log = logging.getLogger("mlx_qwen3tts.server")
CLOSE_WAIT_S = 2.0  # a close frame to a client that reads nothing is not waited on for longer


class Ended(Exception):
    """The session cannot go on: closed with `code` and `reason`."""

    def __init__(self, code: int, reason: str):
        super().__init__(reason)
        self.code, self.reason = code, reason


class Utterance:
    """Text written into one engine request (`feed`: a TextFeed while it is still being written, else None);
    `texts`: its pieces as written (cut where the plan cuts), for the sentence and the words of each."""

    def __init__(self, feed=None):
        self.feed, self.written, self.handle, self.cancelled = feed, [], None, False
        self.texts = PieceTexts()

    def chars(self) -> int:
        return sum(len(t) for t in self.written)

    def write(self, text: str):
        self.written.append(text)
        self.texts.add(text)
        if self.feed is not None and text:
            self.feed.append(text)

    def end(self):
        self.texts.end()
        if self.feed is not None:
            self.feed.end()

    def cancel(self):
        self.cancelled = True
        self.end()
        if self.handle is not None:
            self.handle.cancel()


class Dialect:
    """What a dialect adapter holds and gives the core; each dialect adds `names` (the request's fields in its
    words), `error_event(error, code)`, `handle(message)` (False: the client ended the session), `idle(seconds)`
    (its utterance's text stopped coming) and `speak(item)` (one queued item, as its events)."""

    def __init__(self, session):
        self.session, self.server = session, session.server
        self.current = None  # the utterance taking text

    def open(self) -> bool:
        """Whether an utterance takes text (the idle timeout runs)."""
        return self.current is not None


def unknown(kind, kinds: tuple) -> ApiError:
    """The refusal of a message type the dialect does not have (`kinds`: those it has)."""
    return ApiError(400, f"unknown message type {str(kind)[:40]!r}; send {', '.join(kinds[:-1])} or {kinds[-1]}",
                    param="type", code="unknown_type")


def checked_text(text, names: dict, message: str) -> str:
    """`text` as a piece of an utterance, refused now if the request would refuse it later (not a string, a
    lone surrogate)."""
    if not isinstance(text, str):
        raise ApiError(400, message, param=names.get("deltas", "text"))
    try:
        return clean_text(text, "deltas")
    except InputError as e:
        raise engine_error(e, names) from None


class Session:
    """A socket's session: `dialect(session)` makes its adapter; `run(first)` serves it until it ends."""

    def __init__(self, server, ws: WebSocket):
        self.server, self.ws, self.limits = server, ws, server.limits
        self.id = uuid.uuid4().hex[:8]
        self.dialect = None
        self.queue: asyncio.Queue = asyncio.Queue()  # utterances (or a dialect's markers) to speak in turn; None ends
        self.active = []  # utterances queued or being spoken, for cancel
        self.send_lock = asyncio.Lock()

    # -- out ---------------------------------------------------------------------------------
    async def _sent(self, write):
        async with self.send_lock:
            try:
                await asyncio.wait_for(write, self.limits.ws_send_seconds)
            except asyncio.TimeoutError:
                raise Ended(1008, f"the client read nothing for {self.limits.ws_send_seconds:g} s") from None

    async def send(self, event: dict):
        await self._sent(self.ws.send_text(json.dumps(event)))

    async def send_bytes(self, data: bytes):
        await self._sent(self.ws.send_bytes(data))

    async def error(self, error: BaseException):
        """A failure as an error event in the dialect's shape; an unexpected one logged with its traceback. The
        session's end (the client gone, or a send it did not read) is no error to say: raised on."""
        if isinstance(error, (Ended, WebSocketDisconnect, OSError)):
            raise error
        if not isinstance(error, (ApiError, Qwen3TTSError, EngineFull)):
            log.error("session %s: %s", self.id, type(error).__name__, exc_info=error)
            error = ApiError(500, f"the server failed in session {self.id}; see its log", code="internal_error")
        error = engine_error(error, self.dialect.names)
        code = error.code or ("invalid_request" if error.status < 500 else "generation_failed")
        log.info("session %s: %s: %s", self.id, code, error.message)
        self.server.metrics.refused_code(code)
        await self.send(self.dialect.error_event(error, code))

    async def guarded(self, step, *args):
        """`step(*args)`, a failure said as an error event (the session goes on); its result, else True."""
        try:
            return await step(*args)
        except (Ended, WebSocketDisconnect, OSError, asyncio.CancelledError):
            raise
        except Exception as e:  # noqa: BLE001  (every failure is said, none ends the session)
            await self.error(e)
            return True

    # -- utterances --------------------------------------------------------------------------
    def enqueue(self, item, utterance: bool = True):
        """Queue `item` to be spoken in turn (`utterance`: one to cancel with the session), or refuse it."""
        limit = self.limits.max_ws_queued
        if self.queue.qsize() >= limit:
            raise ApiError(429, f"a session may queue at most {limit} utterances; this one was refused (wait for "
                                "the audio of those before it)", code="queue_full")
        if utterance:
            self.active.append(item)
        self.queue.put_nowait(item)

    def cancel(self):
        for utt in self.active:
            utt.cancel()

    async def audio(self, utt: Utterance, items):
        """The items of `items` (a blocking iterator over `utt.handle`), made on a worker thread, until the end or
        `utt` is cancelled."""
        async for item in in_thread(items, utt.handle.cancel):
            if utt.cancelled:
                return
            yield item

    # -- loops -------------------------------------------------------------------------------
    async def read(self, raw):
        """Client messages, `raw` the first (None: none read yet), until the dialect says the client has ended
        the session."""
        idle = self.limits.ws_idle_seconds
        while True:
            if raw is not None and not await self.guarded(self.message, raw):
                return
            try:
                message = await asyncio.wait_for(self.ws.receive(), idle if self.dialect.open() else None)
            except asyncio.TimeoutError:
                await self.guarded(self.dialect.idle, idle)
                raw = None
                continue
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            raw = message.get("text") if message.get("text") is not None else message.get("bytes")

    async def message(self, raw) -> bool:
        size, limit = message_bytes(raw), self.limits.max_ws_message_bytes
        if size > limit:
            raise ApiError(413, f"a message may hold at most {limit // 1024:,} KiB; this one ({size:,} bytes) was "
                                "dropped", code="too_large")
        return await self.dialect.handle(socket_message(raw))

    async def speak(self):
        """Queued utterances one after the other, until the end of the queue."""
        while True:
            item = await self.queue.get()
            if item is None:
                return
            try:
                await self.guarded(self.dialect.speak, item)
            finally:
                if item in self.active:
                    self.active.remove(item)

    async def run(self, first):
        """Serve the session until the client ends it (its queued audio spoken first), goes away, or it must end."""
        reader = asyncio.create_task(self.read(first))
        speaker = asyncio.create_task(self.speak())
        try:
            done, _ = await asyncio.wait({reader, speaker}, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # the client went away, or the session must end: raised here
            self.queue.put_nowait(None)  # the client ended the session: its audio first, then close
            await speaker
            await self.close(1000, "")
        except Ended as e:
            log.warning("session %s closed: %s", self.id, e.reason)
            self.cancel()  # its requests freed at once, not after the close
            await self.close(e.code, e.reason)
        except (WebSocketDisconnect, OSError, RuntimeError) as e:  # the client went away: no one to tell
            code = getattr(e, "code", None)
            if code in (1000, 1001, 1005):
                log.info("session %s: the client went away", self.id)
            else:  # not closed by the client (a keepalive ping unanswered, a broken connection): worth a look
                log.warning("session %s: the connection was lost (%s)", self.id, code or type(e).__name__)
        except Exception:  # noqa: BLE001  (the error path itself failed: closed with a reason, logged)
            log.exception("session %s failed", self.id)
            self.cancel()
            await self.close(1011, f"the server failed in session {self.id}; see its log")
        finally:
            self.cancel()
            self.queue.put_nowait(None)
            for task in (reader, speaker):
                task.cancel()
            for task in (reader, speaker):
                try:
                    await task
                except (asyncio.CancelledError, Ended, WebSocketDisconnect, OSError, RuntimeError):
                    pass
                except Exception:  # noqa: BLE001  (said in the log, never swallowed silently)
                    log.exception("session %s: a task failed as it ended", self.id)

    async def close(self, code: int, reason: str):
        try:
            await asyncio.wait_for(self.ws.close(code, reason[:120]), CLOSE_WAIT_S)
        except (asyncio.TimeoutError, RuntimeError, OSError, WebSocketDisconnect):
            pass


def message_bytes(raw) -> int:
    return len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw or b"")
