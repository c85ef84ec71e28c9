"""The Wyoming protocol (Home Assistant's voice pipeline) on the server's engine.

Built on the `wyoming` package: one `WyomingHandler` (an AsyncEventHandler) per TCP connection.
- describe -> info: one TTS program whose voices are the presets and saved voices, with the
  model's languages, and `supports_synthesize_streaming`.
- synthesize -> audio-start, audio-chunk... (24 kHz, 16-bit mono, as frames are decoded), audio-stop.
- synthesize-start / synthesize-chunk... / synthesize-stop -> streaming-text engine requests fed
  by TextFeeds, so audio starts after the first chunk of text; synthesize-stopped at the end.
  --max-input-chars bounds each chunk and each engine request, not the reply: a long reply is
  spoken as consecutive requests (segments, each with its audio-start/audio-stop), so everything
  accepted is spoken, as wyoming-piper speaks sentence by sentence. A pause between chunks (an
  LLM calling a tool) is no error; after --wyoming-idle-timeout without text or stop, the stream
  ends as a stop would end it and the connection closes.
  A streaming client also sends the whole text as a plain `synthesize` inside the stream, for
  servers that do not stream; inside a stream it is ignored (as wyoming-piper does).

Wyoming requests carry no sampling settings; the server's defaults (`--wyoming-temperature`,
`--wyoming-max-new-tokens`, `--wyoming-no-guard`, `--wyoming-no-normalize`) apply to all of them. Bad events get an `error` event and the connection stays open,
except a refused `synthesize` outside a stream: after its error the connection closes, as
wyoming-piper does, since Home Assistant before 2025.7 reads until audio-stop and ignores errors.
The protocol has no keys, so a non-loopback bind needs an explicit --insecure (see __main__);
such a bind is announced by zeroconf (discovery.py) unless --no-zeroconf.
"""

import asyncio
import logging
import re
import signal
import threading
from concurrent import futures
from dataclasses import dataclass
from functools import partial
from typing import Optional

import click
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event
from wyoming.info import Attribution, Describe, Info, TtsProgram, TtsVoice
from wyoming.ping import Ping, Pong
from wyoming.server import AsyncEventHandler, AsyncTcpServer
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeStopped

from .. import __version__
from ..errors import InputError
from ..request_fields import field_names
from ..request import LANGUAGE_CODES, clean_text
from ..loop.text_track import TextFeed
from . import params as fields
from .audio_out import Usage, encoded_chunks, in_thread
from .discovery import Announcer
from .limits import ApiError
from .engine_client import build, engine_error, runaway_notice, submit

log = logging.getLogger("mlx_qwen3tts.server.wyoming")
WIDTH, CHANNELS = 2, 1  # 16-bit mono
# The request layer's fields as Wyoming events name them (the voice's name and language).
WYOMING_NAMES = field_names(speaker="voice", deltas="text")
# Wyoming events carry no sampling settings: the server's options set them for all.
DEFAULTS_NAMES = {"temperature": "--wyoming-temperature", "max_tokens": "--wyoming-max-new-tokens"}
QWEN = Attribution(name="Qwen", url="https://github.com/QwenLM/Qwen3-TTS")
# Home Assistant sets no bound of its own on a streamed reply (an LLM may call tools between
# sentences); a client that neither writes nor stops for this long is gone.
STREAM_IDLE_SECONDS = 300.0
MAX_WAITING_SEGMENTS = 16  # text ahead of speech: at most 16 requests' worth (--max-input-chars each)
VOICE_TYPES = {"default": "the model's default voice"}  # how describe words the listing's types
SENTENCE_END = re.compile(r"[.!?;:\u3002\uff01\uff1f]\s*$")


class Service:
    """What every connection shares: the server (model, engine, voices, limits), the defaults for
    the settings Wyoming cannot carry, and the Info that answers describe."""

    def __init__(self, server, defaults: Optional[dict] = None, stream_idle_seconds: float = STREAM_IDLE_SECONDS):
        self.server, self.stream_idle_seconds = server, stream_idle_seconds
        self.defaults = {k: v for k, v in (defaults or {}).items() if v is not None}
        try:  # bad defaults fail at start, not on every request
            server.tts.request(deltas=(), **fields.speech_kwargs(server.voices, self.defaults, server.limits))
        except InputError as e:
            raise InputError(f"Wyoming defaults: {e.worded(DEFAULTS_NAMES)}") from None
        self.rate = server.tts.sample_rate
        self._info, self._saved = None, None

    @property
    def languages(self) -> list:
        """Codes of the model's languages ('auto' is no language)."""
        return [LANGUAGE_CODES.get(name, name) for name in self.server.tts.config.languages if name != "auto"]

    def info_event(self) -> Event:
        """The Info, built once and again only when the saved voices change."""
        saved = tuple(self.server.voices.saved_ids())
        if self._info is None or saved != self._saved:
            voices = self.server.voices.listing()
            program = TtsProgram(
                name="mlx_qwen3tts", attribution=QWEN, installed=True, version=__version__,
                description=f"Qwen3-TTS on MLX: {self.server.model_id} ({self.server.tts.variant})",
                voices=[TtsVoice(name=v["id"], description=f"{v['name']} ({VOICE_TYPES.get(v['type'], v['type'])})",
                                 attribution=QWEN,
                                 installed=True, version=None, languages=self.languages) for v in voices],
                supports_synthesize_streaming=True,
            )
            self._info, self._saved = Info(tts=[program]).event(), saved
        return self._info

    def kwargs(self, event: Event) -> dict:
        """`TTS.request` keywords for the voice and language of a synthesize/synthesize-start event
        (parsed already, which refuses a null voice), checked now by the request layer."""
        voice = event.data.get("voice", {})
        if not isinstance(voice, dict):
            raise ApiError(400, "voice must be an object with 'name' and/or 'language'", param="voice")
        # SynthesizeVoice keeps the language only when no name is given; a client may send both.
        params = {**self.defaults, "voice": voice.get("name"), "language": voice.get("language")}
        kwargs = fields.speech_kwargs(self.server.voices, params, self.server.limits)
        build(self.server, WYOMING_NAMES, deltas=(), **kwargs)
        return kwargs

    def text(self, text) -> str:
        """The text of a synthesize event or of one chunk of a stream, within --max-input-chars."""
        if not isinstance(text, str):
            raise ApiError(400, "text must be a string", param="text")
        try:
            clean_text(text)
        except InputError as e:
            raise engine_error(e, WYOMING_NAMES) from None
        limit = self.server.limits.max_input_chars
        if len(text) > limit:
            raise ApiError(400, f"the text has more than {limit:,} characters, the server's limit "
                                "(--max-input-chars)", param="text", code="too_long")
        return text


def parse(kind, event: Event):
    """The `wyoming` event class for `event`; a missing or mistyped field is an ApiError."""
    try:
        return kind.from_event(event)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ApiError(400, f"malformed {event.type} event ({type(e).__name__}: {e})"[:300], code="malformed_event")


@dataclass
class Stream:
    """One synthesize-start .. synthesize-stop: its request settings and, once text came, its
    segments: TextFeeds spoken one after the other, each by its own engine request."""

    kwargs: Optional[dict]  # None: refused (an error was sent); its text is dropped
    feed: object = None  # the segment taking text now
    chars: int = 0  # characters in that segment
    sentence_end: bool = False  # the segment's text ends a sentence (a good place to start the next)
    segments: Optional[asyncio.Queue] = None  # feeds not yet spoken; None ends the queue
    handle: object = None  # the engine request speaking now
    idle: object = None  # the timer that ends the stream when neither text nor stop comes


class WyomingHandler(AsyncEventHandler):
    """One client connection. Audio is written by a task, so events (text chunks, describe) keep
    being read while it plays and a disconnect is seen at once; syntheses on one connection are
    spoken one after the other."""

    def __init__(self, service: Service, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.service = service
        service.server.metrics.sessions.labels("wyoming").inc()
        service.server.metrics.open_sessions.labels("wyoming").inc()
        self.stream: Optional[Stream] = None
        self.speaking: Optional[asyncio.Task] = None
        self._write_lock = asyncio.Lock()
        self.notices = set()

    async def write_event(self, event: Event) -> None:
        async with self._write_lock:  # the audio task and the event handler both write
            await super().write_event(event)

    async def error(self, message: str, code: str):
        self.service.server.metrics.refused_code(code)
        await self.write_event(Error(text=message, code=code).event())

    async def handle_event(self, event: Event) -> bool:
        try:
            await self.dispatch(event)
        except ApiError as e:
            return await self.refuse(event, e.message, e.code or "invalid_request")
        except (ConnectionError, asyncio.CancelledError):
            raise
        except Exception as e:  # noqa: BLE001  (one bad event never ends the connection)
            error = engine_error(e, WYOMING_NAMES)
            return await self.refuse(event, error.message, error.code or "internal_error")
        return True

    async def refuse(self, event: Event, message: str, code: str) -> bool:
        """The error event; False (close the connection) for a synthesize outside a stream, as
        wyoming-piper does: Home Assistant before 2025.7 reads until audio-stop, ignoring errors,
        and only the end of the connection tells it that no audio comes."""
        plain = Synthesize.is_type(event.type) and self.stream is None
        if plain:
            await self.finish_speaking()  # what an earlier synthesize on this connection speaks
        await self.error(message, code)
        return not plain

    async def dispatch(self, event: Event):
        if Describe.is_type(event.type):
            await self.write_event(self.service.info_event())
        elif Ping.is_type(event.type):
            await self.write_event(Pong(text=parse(Ping, event).text).event())
        elif Synthesize.is_type(event.type):
            if self.stream is not None:
                return  # the whole text of the open stream, sent for servers that do not stream
            synthesize = parse(Synthesize, event)
            text, kwargs = self.service.text(synthesize.text), self.service.kwargs(event)
            await self.finish_speaking()
            # Home Assistant's replies come from LLMs: Markdown read as a listener hears it (and, as on every
            # path, digits and symbols as words).
            kwargs = {"markdown": True, **kwargs}
            self.start_speaking(self.speak(submit(self.service.server, WYOMING_NAMES, text=text, **kwargs)))
        elif SynthesizeStart.is_type(event.type):
            if self.stream is not None:
                raise ApiError(400, "a synthesis stream is already open: send synthesize-stop first",
                               code="stream_open")
            parse(SynthesizeStart, event)
            self.stream = Stream(kwargs=None)  # opened even if refused, so its stop is answered
            self.arm_idle(self.stream)
            self.stream.kwargs = self.service.kwargs(event)
        elif SynthesizeChunk.is_type(event.type):
            await self.append(parse(SynthesizeChunk, event).text)
        elif SynthesizeStop.is_type(event.type):
            stream, self.stream = self.stream, None
            if stream is None:
                raise ApiError(400, "synthesize-stop without synthesize-start", code="no_stream")
            await self.end_stream(stream)
        else:
            log.debug("ignored event %s", event.type)  # the protocol drops events it does not know

    async def append(self, text):
        """One chunk of a stream's text: within the limit, into the current segment, or into a new
        one when the current would grow past the limit (at a sentence end once it is 3/4 full)."""
        stream = self.stream
        if stream is None:
            raise ApiError(400, "synthesize-chunk outside a stream: send synthesize-start first", code="no_stream")
        self.arm_idle(stream)
        if stream.kwargs is None:
            return
        text = self.service.text(text)
        limit = self.service.server.limits.max_input_chars
        if stream.segments is None:
            stream.segments = asyncio.Queue()
            await self.finish_speaking()
            self.start_speaking(self.speak_segments(stream))
            self.next_segment(stream)
        elif stream.chars + len(text) > limit or (stream.sentence_end and stream.chars >= limit * 3 // 4):
            self.next_segment(stream)
        if text:
            stream.feed.append(text)
            stream.chars += len(text)
            stream.sentence_end = bool(SENTENCE_END.search(text))

    def next_segment(self, stream: Stream):
        if stream.segments.qsize() >= MAX_WAITING_SEGMENTS:
            limit = self.service.server.limits.max_input_chars
            raise ApiError(400, f"the text runs more than {MAX_WAITING_SEGMENTS * limit:,} characters ahead of "
                                "its speech; send it more slowly", param="text", code="too_long")
        if stream.feed is not None:
            stream.feed.end()
        stream.feed, stream.chars, stream.sentence_end = TextFeed(), 0, False
        stream.segments.put_nowait(stream.feed)

    async def speak_segments(self, stream: Stream):
        """Each segment's request is submitted once the one before has been spoken, so a stream
        holds one engine row at a time and its audio stays in order."""
        while (feed := await stream.segments.get()) is not None and stream.kwargs is not None:
            try:
                stream.handle = submit(self.service.server, WYOMING_NAMES, deltas=feed, **stream.kwargs)
            except ApiError as e:
                self.drop(stream)
                await self.error(e.message, e.code or "invalid_request")
                return
            await self.speak(stream.handle)

    async def end_stream(self, stream: Stream):
        """The stream's text has ended: its last segment is spoken, then synthesize-stopped."""
        if stream.idle is not None:
            stream.idle.cancel()
        if stream.segments is not None:
            stream.feed.end()
            stream.segments.put_nowait(None)
            await self.finish_speaking()
        await self.write_event(SynthesizeStopped().event())

    def arm_idle(self, stream: Stream):
        if stream.idle is not None:
            stream.idle.cancel()
        stream.idle = asyncio.get_running_loop().call_later(self.service.stream_idle_seconds, self.idle, stream)

    def idle(self, stream: Stream):
        """Neither text nor stop for --wyoming-idle-timeout: the client is gone or stuck. The stream
        ends as a stop ends it (what came is spoken; no error event, which newer Home Assistant
        takes as a failed reply), then the connection closes."""
        if self.stream is not stream:
            return
        self.stream = None

        async def end():
            await self.end_stream(stream)
            await self.stop()

        task = asyncio.create_task(end())
        self.notices.add(task)  # held until done (or the connection is gone)
        task.add_done_callback(lambda t: (self.notices.discard(t), t.cancelled() or t.exception()))

    def drop(self, stream: Stream):
        """Give up a stream (its text is dropped until synthesize-stop) and cancel its request."""
        stream.kwargs = None
        if stream.segments is not None:
            stream.segments.put_nowait(None)
        if stream.handle is not None:
            stream.handle.cancel()

    def start_speaking(self, speech):
        self.speaking = asyncio.create_task(speech)

    async def finish_speaking(self):
        if self.speaking is not None:
            await asyncio.gather(self.speaking, return_exceptions=True)
            self.speaking = None

    async def speak(self, handle):
        """audio-start, audio-chunk as the engine decodes, audio-stop (after an error event if it fails)."""
        rate, sent, told = self.service.rate, 0, False
        await self.write_event(AudioStart(rate=rate, width=WIDTH, channels=CHANNELS, timestamp=0).event())
        try:
            async for data in in_thread(encoded_chunks(handle, "pcm", 1.0, rate, Usage(), notices=True),
                                        handle.cancel):
                if isinstance(data, dict):  # a piece the runaway guard ended: said before the next piece's audio
                    told = True
                    await self.error(data["message"], "runaway")
                    continue
                await self.write_event(AudioChunk(rate=rate, width=WIDTH, channels=CHANNELS, audio=data,
                                                  timestamp=sent * 1000 // rate).event())
                sent += len(data) // (WIDTH * CHANNELS)
        except ConnectionError:
            return  # the client is gone; in_thread has cancelled the request
        except Exception as e:  # noqa: BLE001  (the request failed alone)
            error = engine_error(e, WYOMING_NAMES)
            await self.error(error.message, error.code or ("invalid_request" if error.status == 400
                                                           else "generation_failed"))
        else:
            if runaway_notice(handle) and not told:  # the runaway guard ended it (told of no piece yet)
                await self.error(runaway_notice(handle), "runaway")
        await self.write_event(AudioStop(timestamp=sent * 1000 // rate).event())

    async def disconnect(self) -> None:
        """The client has gone: its request is cancelled, which frees its engine row."""
        self.service.server.metrics.open_sessions.labels("wyoming").dec()
        if self.stream is not None:
            if self.stream.idle is not None:
                self.stream.idle.cancel()
            self.drop(self.stream)
        if self.speaking is not None:
            self.speaking.cancel()
            await asyncio.gather(self.speaking, return_exceptions=True)


async def serve(service: Service, host: str, port: int, stop: asyncio.Event, announcer: Optional[Announcer] = None):
    """Serve Wyoming on host:port (announced by `announcer`, if any) until `stop` is set."""
    server = AsyncTcpServer(host, port)
    await server.start(partial(WyomingHandler, service))
    try:
        if announcer is not None:
            await start_announcing(announcer)
        await stop.wait()
    finally:
        if announcer is not None:
            await announcer.close()
        await server.stop()


async def start_announcing(announcer: Announcer):
    try:
        await announcer.start()
    except Exception as e:  # noqa: BLE001  (Wyoming serves on, unannounced)
        log.warning("zeroconf announcement failed (%s); add the server in Home Assistant by host and port", e)


async def serve_until_signal(service: Service, host: str, port: int, announcer: Optional[Announcer] = None) -> int:
    """Serve until SIGINT or SIGTERM; returns the signal."""
    stop, received = asyncio.Event(), []
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, lambda s=signum: (received.append(s), stop.set()))
    await serve(service, host, port, stop, announcer)
    return received[0]


class Thread:
    """Wyoming served from its own thread and event loop, beside the HTTP server's."""

    def __init__(self, service: Service, host: str, port: int, announcer: Optional[Announcer] = None,
                 timeout: float = 30.0):
        self.loop, self.server, self.announcer = asyncio.new_event_loop(), AsyncTcpServer(host, port), None
        self.thread = threading.Thread(target=self.loop.run_forever, name="mlx_qwen3tts-wyoming", daemon=True)
        self.thread.start()
        started = asyncio.run_coroutine_threadsafe(self.server.start(partial(WyomingHandler, service)), self.loop)
        try:  # a failure to listen (the port is taken) is raised here, to the starting thread
            started.result(timeout)
        except BaseException:
            self.loop.call_soon_threadsafe(self.loop.stop)
            raise
        if announcer is not None:
            self.announcer = announcer
            self._run(start_announcing(announcer), timeout)

    def _run(self, coroutine, timeout: float):
        futures.wait([asyncio.run_coroutine_threadsafe(coroutine, self.loop)], timeout)

    def close(self, timeout: float = 5.0):
        """Withdraw the announcement, stop serving (waiting up to `timeout` s for the connections
        to end), then the loop."""
        if self.thread.is_alive():
            if self.announcer is not None:
                self._run(self.announcer.close(), timeout)
            self._run(self.server.stop(), timeout)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout)


def make_announcer(host: str, port: int, name: Optional[str]) -> Optional[Announcer]:
    """The zeroconf announcer for a bind beyond loopback (`name` None: not announced)."""
    from .discovery import addresses_for

    if name is None:
        return None
    addresses = addresses_for(host)
    if not addresses:
        log.warning("no address to announce for %s: zeroconf announcement skipped", host)
        return None
    return Announcer(name, port, addresses)


def start(server, host: str, port: int, *, alone: bool = False, temperature=None, max_new_tokens=None,
          idle_seconds: float = STREAM_IDLE_SECONDS, zeroconf_name: Optional[str] = None, guard: bool = True,
          normalize: bool = True):
    """Serve Wyoming for `server`: beside HTTP from a `Thread` (returned); alone, here until SIGINT
    or SIGTERM, then the process ends by that signal, as the HTTP server (uvicorn) does.
    zeroconf_name: announce the service under this name (None: no announcement)."""
    service = Service(server, {"temperature": temperature, "max_new_tokens": max_new_tokens, "guard": guard,
                               "normalize": normalize}, idle_seconds)
    shown = f"[{host}]" if ":" in host else host
    announcer = make_announcer(host, port, zeroconf_name)
    announced = f", announced as '{zeroconf_name}' (zeroconf)" if announcer else ""
    click.echo(f"mlx_qwen3tts Wyoming (Home Assistant): {server.model_id} on tcp://{shown}:{port}{announced}", err=True)
    try:
        if not alone:
            return Thread(service, host, port, announcer)
        try:
            signum = asyncio.run(serve_until_signal(service, host, port, announcer))
        finally:
            server.engine.close()
    except OSError as e:
        raise InputError(f"cannot serve Wyoming on {shown}:{port}: {e.strerror or e}") from None
    # The engine is closed (its thread has released its MLX streams); ending by the signal, as
    # uvicorn does on SIGTERM, tells the caller why the process stopped (shell status 128 + signal).
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)
