"""One WebSocket session, whatever its dialect: the reader loop, the speaker loop, the bounds and the error path.

A dialect (`ours.Ours`, `omni.Omni`) is an adapter: it parses its messages onto engine requests (`handle`),
ends an open utterance when its text stops coming (`idle`), speaks a queued utterance as its events (`speak`)
and writes an error in its shape (`error_event`). Everything else is here, once:
- every message is held to one size limit before it is parsed, and parsed as a JSON object;
- streamed text is spoken after `ws_pause_seconds` without more, however short it is (`Utterance`: the next text
  is the next engine request of the same utterance); an utterance open for text ends after `ws_idle_seconds`
  without a message, as the client's own end would end it (its audio, then its done event); a session with
  nothing open or to speak closes after `ws_session_idle_seconds` without a message;
- at most `max_ws_queued` utterances wait per session; past that one is refused with an error event;
- a send the client does not read within `ws_send_seconds` ends the session with that reason; meanwhile the
  session's generation pauses (`audio_out.in_thread` holds a few items, the engine a few chunks per request);
- every failure becomes an error event in the dialect's shape and a log line naming the session, and the
  session goes on; one it cannot go on from closes the socket with a code and a reason.
"""

import asyncio
import json
import logging
import time
import uuid

from starlette.websockets import WebSocket, WebSocketDisconnect

from ...aligner.piece_words import PieceTexts
from ...errors import InputError, Qwen3TTSError
from ...loop.engine import EngineFull
from ...loop.text_track import TextFeed
from ...request import clean_text
from ...text.reading import has_words
from ..audio_out import in_thread
from ..engine_client import engine_error, submit
from ..limits import ApiError
from ..params import socket_message

log = logging.getLogger("mlx_qwen3tts.server")
CLOSE_WAIT_S = 2.0  # a close frame to a client that reads nothing is not waited on for longer
MESSAGE_IN_FLIGHT_SECONDS = 0.05  # the least a timer waits for a message: one sent before it fired is read first
WAIT_SLICE_SECONDS, STALL_SECONDS = 0.1, 0.1  # a timer's wait goes in slices; one this late was a stall of ours


class Ended(Exception):
    """The session cannot go on: closed with `code` and `reason`."""

    def __init__(self, code: int, reason: str):
        super().__init__(reason)
        self.code, self.reason = code, reason


class Utterance:
    """The text of one utterance and the engine requests that speak it, one after the other (`parts`).

    Streamed text (`streamed`) goes into the open part's TextFeed as it comes, so its audio starts at once; a pause
    in the text (`pause`) ends that part, so what it holds is spoken however short it is, and the next text starts
    the next part. Text with no words yet (a space, a dot) waits for words to go with it: a part is never opened
    for nothing to say. A whole utterance (not `streamed`) is one part, its text given at its end. Lengths are
    running counts: a message costs the same however long the utterance has grown. Each part keeps its pieces as
    written (`PieceTexts`, cut where the plan cuts them): `texts` is the submitted part's, for the sentence and the
    words of each of its pieces."""

    def __init__(self, streamed: bool = True):
        self.streamed, self.written, self.length = streamed, [], 0
        self.feed, self.held, self.opened = None, "", 0  # the part taking text; wordless text for the next; parts
        self.parts: asyncio.Queue = asyncio.Queue()  # each part's text ({"deltas": feed} or {"text": ...}); None ends
        self.handle, self.cancelled, self.ended = None, False, False
        self.texts, self._writing = PieceTexts(), None  # the submitted part's pieces as written; the open part's

    def write(self, text: str):
        if not text:
            return
        self.written.append(text)
        self.length += len(text)
        if not self.streamed:
            return
        if self.feed is None:
            if not has_words(text):
                self.held += text
                return
            text, self.held = self.held + text, ""
            self._open(TextFeed())
        self.feed.append(text)
        self._writing.add(text)

    def _open(self, feed: TextFeed):
        self.feed, self.opened, self._writing = feed, self.opened + 1, PieceTexts()
        self.parts.put_nowait(({"deltas": feed}, self._writing))

    def taking(self) -> bool:
        """Whether a part takes text now (a pause would speak it)."""
        return self.feed is not None

    def pause(self) -> bool:
        """End the open part, its text spoken as it stands; whether there was one."""
        if self.feed is None:
            return False
        self.feed.end()
        self._writing.end()
        self.feed = None
        return True

    def end(self):
        """No more text: the open part ends; wordless text alone is given to the request layer, which says why it is
        not spoken (after words it is dropped: it says nothing)."""
        if self.ended:
            return
        self.ended = True
        if not self.streamed:
            whole = "".join(self.written)
            self.parts.put_nowait(({"text": whole}, PieceTexts(whole)))
        elif not self.pause() and self.held and not self.opened:
            self._open(TextFeed())
            self.feed.append(self.held)
            self._writing.add(self.held)
            self.pause()
        self.parts.put_nowait(None)

    def cancel(self):
        self.cancelled = True
        self.end()
        if self.handle is not None:
            self.handle.cancel()

    async def each_part(self):
        """Each part as it is queued: (its text as request keywords, `deltas` or `text`; its PieceTexts), until the
        utterance ends."""
        while not self.cancelled:
            part = await self.parts.get()
            if part is None:
                return
            yield part


class Dialect:
    """What a dialect adapter holds and gives the core; each dialect adds `names` (the request's fields in its
    words), `error_event(error, code)`, `handle(message)` (False: the client ended the session), `idle()`
    (its utterance's messages stopped coming: it ends as the client's end would end it) and `speak(item)` (one
    queued item, as its events)."""

    def __init__(self, session):
        self.session, self.server = session, session.server
        self.current = None  # the utterance taking text

    def open(self) -> bool:
        """Whether an utterance takes text (the idle timeout runs)."""
        return self.current is not None

    def taking(self) -> bool:
        """Whether a part of the open utterance takes streamed text (a pause speaks it)."""
        return self.current is not None and self.current.taking()

    def pause(self):
        """No text came for the pause: what the open utterance holds is spoken (the utterance stays open)."""
        self.current.pause()


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
        self.heard = self.quiet = time.monotonic()  # the last message came; the last queued item was spoken

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

    async def requests(self, utt: Utterance, names: dict, **kwargs):
        """Each part of `utt` submitted to the engine as it is queued (`kwargs`: the request's settings), its
        handle (also `utt.handle`). A refused first part is raised (the utterance has said nothing); a later one
        is said as an error event, and the utterance ends with what it has said."""
        first = True
        async for text, texts in utt.each_part():
            try:
                utt.handle, utt.texts = submit(self.server, names, **text, **kwargs), texts
            except ApiError as e:
                utt.cancel()
                if first:
                    raise
                await self.error(e)
                return
            first = False
            yield utt.handle

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
        the session; meanwhile what no message came for is done (`waiting`)."""
        receiving = None  # one receive at a time, never cancelled by a timer: no message is lost to it
        try:
            while True:
                if raw is not None:
                    if not await self.guarded(self.message, raw):
                        return
                    # Counted from the message's end: on a busy machine its handling is no pause of the client's.
                    self.heard = time.monotonic()
                raw = None
                seconds, expired = self.waiting()
                receiving = receiving or asyncio.ensure_future(self.ws.receive())
                # A message already on its way is read before any timer fires (a few turns of the loop carry it).
                # The wait goes in short slices: where one ends late, this process was held up (a busy machine) and
                # that time is not the client's silence: the timers are moved on by it.
                wait = min(max(seconds, MESSAGE_IN_FLIGHT_SECONDS), WAIT_SLICE_SECONDS)
                began = time.monotonic()
                done, _ = await asyncio.wait({receiving}, timeout=wait)
                if not done:
                    if (late := time.monotonic() - began - wait) > STALL_SECONDS:
                        self.heard += late
                    elif wait >= seconds and expired is not None:
                        await self.guarded(expired)
                    continue
                message, receiving = receiving.result(), None
                if message["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(message.get("code", 1000))
                raw = message.get("text") if message.get("text") is not None else message.get("bytes")
        finally:
            if receiving is not None:
                receiving.cancel()

    def waiting(self) -> tuple:
        """(how long to wait for the next message, what to do if none comes: None for nothing): streamed text is
        spoken after `ws_pause_seconds` without more; an open utterance ends `ws_idle_seconds` after the last
        message; a session with nothing open or to speak closes `ws_session_idle_seconds` after it."""
        now, limits = time.monotonic(), self.limits
        if self.dialect.taking() and limits.ws_pause_seconds < limits.ws_idle_seconds:
            return self.heard + limits.ws_pause_seconds - now, self._paused
        if self.dialect.open():
            return self.heard + limits.ws_idle_seconds - now, self._idle
        if self.active or not self.queue.empty():  # still speaking: the session is not idle
            return limits.ws_session_idle_seconds, None
        return max(self.heard, self.quiet) + limits.ws_session_idle_seconds - now, self._closed

    async def _paused(self):
        self.dialect.pause()

    async def _idle(self):
        log.info("session %s: no message for %g s: its utterance was ended", self.id, self.limits.ws_idle_seconds)
        await self.dialect.idle()

    async def _closed(self):
        raise Ended(1000, f"no message for {self.limits.ws_session_idle_seconds:g} s and nothing to speak: the "
                          "session was closed")

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
                self.quiet = time.monotonic()

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
