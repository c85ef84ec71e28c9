"""The Wyoming protocol (Home Assistant's voice pipeline) on the server's engine.

Built on the `wyoming` package: one `WyomingHandler` (an AsyncEventHandler) per TCP connection.
- describe -> info: one TTS program whose voices are the presets and saved voices, with the
  model's languages, and `supports_synthesize_streaming`.
- synthesize -> audio-start, audio-chunk... (24 kHz, 16-bit mono, as frames are decoded), audio-stop.
- synthesize-start / synthesize-chunk... / synthesize-stop -> one streaming-text engine request
  fed by a TextFeed, so audio starts after the first chunk of text; synthesize-stopped at the end.
  A streaming client also sends the whole text as a plain `synthesize` inside the stream, for
  servers that do not stream; inside a stream it is ignored (as wyoming-piper does).

Wyoming requests carry no sampling settings; the server's defaults (`--wyoming-temperature`,
`--wyoming-max-new-tokens`) apply. Bad events get an `error` event and the connection stays open.
The protocol has no keys, so a non-loopback bind needs an explicit --insecure (see __main__).
"""

import asyncio
import logging
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
from ..request import DEFAULT_VOICE, LANGUAGE_CODES, clean_text
from ..streaming import TextFeed
from . import params as fields
from .audio_out import Usage, encoded_chunks, in_thread
from .limits import ApiError
from .openai_api import build, engine_error, submit

log = logging.getLogger("mlx_qwen3tts.server.wyoming")
WIDTH, CHANNELS = 2, 1  # 16-bit mono
# The request layer's fields as Wyoming events name them (the voice's name and language).
WYOMING_NAMES = {"speaker": "voice", "voice": "voice", "deltas": "text"}
# Wyoming events carry no sampling settings: the server's options set them for all.
DEFAULTS_NAMES = {"temperature": "--wyoming-temperature", "max_tokens": "--wyoming-max-new-tokens"}
QWEN = Attribution(name="Qwen", url="https://github.com/QwenLM/Qwen3-TTS")


class Service:
    """What every connection shares: the server (model, engine, voices, limits), the defaults for
    the settings Wyoming cannot carry, and the Info that answers describe."""

    def __init__(self, server, defaults: Optional[dict] = None):
        self.server = server
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
            if not self.server.voices.presets:
                voices.insert(0, {"id": DEFAULT_VOICE, "type": "the model's default voice"})
            program = TtsProgram(
                name="mlx_qwen3tts", attribution=QWEN, installed=True, version=__version__,
                description=f"Qwen3-TTS on MLX: {self.server.model_id} ({self.server.tts.variant})",
                voices=[TtsVoice(name=v["id"], description=f"{v['id']} ({v['type']})", attribution=QWEN,
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

    def text(self, text, used: int = 0) -> str:
        if not isinstance(text, str):
            raise ApiError(400, "text must be a string", param="text")
        try:
            clean_text(text)
        except InputError as e:
            raise engine_error(e, WYOMING_NAMES) from None
        limit = self.server.limits.max_input_chars
        if used + len(text) > limit:
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
    """One synthesize-start .. synthesize-stop: its request settings and, once text came, its feed."""

    kwargs: Optional[dict]  # None: refused at start (an error was sent); its text is dropped
    feed: object = None
    handle: object = None
    chars: int = 0
    idle: object = None  # the timer that ends the text when none comes for a while


class WyomingHandler(AsyncEventHandler):
    """One client connection. Audio is written by a task, so events (text chunks, describe) keep
    being read while it plays and a disconnect is seen at once; syntheses on one connection are
    spoken one after the other."""

    def __init__(self, service: Service, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.service = service
        self.stream: Optional[Stream] = None
        self.speaking: Optional[asyncio.Task] = None
        self._write_lock = asyncio.Lock()
        self.notices = set()

    async def write_event(self, event: Event) -> None:
        async with self._write_lock:  # the audio task and the event handler both write
            await super().write_event(event)

    async def error(self, message: str, code: str):
        await self.write_event(Error(text=message, code=code).event())

    async def handle_event(self, event: Event) -> bool:
        try:
            await self.dispatch(event)
        except ApiError as e:
            await self.error(e.message, e.code or "invalid_request")
        except (ConnectionError, asyncio.CancelledError):
            raise
        except Exception as e:  # noqa: BLE001  (one bad event never ends the connection)
            error = engine_error(e, WYOMING_NAMES)
            await self.error(error.message, error.code or "internal_error")
        return True

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
            self.start_speaking(submit(self.service.server, WYOMING_NAMES, text=text, **kwargs))
        elif SynthesizeStart.is_type(event.type):
            if self.stream is not None:
                raise ApiError(400, "a synthesis stream is already open: send synthesize-stop first",
                               code="stream_open")
            parse(SynthesizeStart, event)
            self.stream = Stream(kwargs=None)  # opened even if refused, so its stop is answered
            self.stream.kwargs = self.service.kwargs(event)
        elif SynthesizeChunk.is_type(event.type):
            await self.append(parse(SynthesizeChunk, event).text)
        elif SynthesizeStop.is_type(event.type):
            stream, self.stream = self.stream, None
            if stream is None:
                raise ApiError(400, "synthesize-stop without synthesize-start", code="no_stream")
            if stream.idle is not None:
                stream.idle.cancel()
            if stream.feed is not None:
                stream.feed.end()
                await self.finish_speaking()
            await self.write_event(SynthesizeStopped().event())
        else:
            log.debug("ignored event %s", event.type)  # the protocol drops events it does not know

    async def append(self, text):
        stream = self.stream
        if stream is None:
            raise ApiError(400, "synthesize-chunk outside a stream: send synthesize-start first", code="no_stream")
        if stream.kwargs is None:
            return
        try:
            text = self.service.text(text, stream.chars)
            if stream.feed is None:
                stream.feed = TextFeed()
                await self.finish_speaking()
                stream.handle = submit(self.service.server, WYOMING_NAMES, deltas=stream.feed, **stream.kwargs)
                self.start_speaking(stream.handle)
        except ApiError:
            self.drop(stream)
            raise
        stream.chars += len(text)
        if text:
            stream.feed.append(text)
        if stream.idle is not None:
            stream.idle.cancel()
        stream.idle = asyncio.get_running_loop().call_later(self.service.server.limits.ws_idle_seconds,
                                                            self.idle, stream)

    def idle(self, stream: Stream):
        """No text for a while: what came is spoken, later text of this stream is dropped."""
        if stream.kwargs is not None and stream.feed is not None:
            stream.kwargs = None
            stream.feed.end()
            seconds = self.service.server.limits.ws_idle_seconds
            task = asyncio.create_task(self.error(f"no text for {seconds:g} s: the stream's text was ended",
                                                  "idle_timeout"))
            self.notices.add(task)  # held until written (or the connection is gone)
            task.add_done_callback(lambda t: (self.notices.discard(t), t.cancelled() or t.exception()))

    def drop(self, stream: Stream):
        """Give up a stream (its text is dropped until synthesize-stop) and cancel its request."""
        stream.kwargs = None
        if stream.idle is not None:
            stream.idle.cancel()
        if stream.handle is not None:
            stream.handle.cancel()

    def start_speaking(self, handle):
        self.speaking = asyncio.create_task(self.speak(handle))

    async def finish_speaking(self):
        if self.speaking is not None:
            await asyncio.gather(self.speaking, return_exceptions=True)
            self.speaking = None

    async def speak(self, handle):
        """audio-start, audio-chunk as the engine decodes, audio-stop (after an error event if it fails)."""
        rate, sent = self.service.rate, 0
        await self.write_event(AudioStart(rate=rate, width=WIDTH, channels=CHANNELS, timestamp=0).event())
        try:
            async for data in in_thread(encoded_chunks(handle, "pcm", 1.0, rate, Usage()), handle.cancel):
                await self.write_event(AudioChunk(rate=rate, width=WIDTH, channels=CHANNELS, audio=data,
                                                  timestamp=sent * 1000 // rate).event())
                sent += len(data) // (WIDTH * CHANNELS)
        except ConnectionError:
            return  # the client is gone; in_thread has cancelled the request
        except Exception as e:  # noqa: BLE001  (the request failed alone)
            error = engine_error(e, WYOMING_NAMES)
            await self.error(error.message, error.code or ("invalid_request" if error.status == 400
                                                           else "generation_failed"))
        await self.write_event(AudioStop(timestamp=sent * 1000 // rate).event())

    async def disconnect(self) -> None:
        """The client has gone: its request is cancelled, which frees its engine row."""
        if self.stream is not None:
            self.drop(self.stream)
        if self.speaking is not None:
            self.speaking.cancel()
            await asyncio.gather(self.speaking, return_exceptions=True)


async def serve(service: Service, host: str, port: int, stop: asyncio.Event):
    """Serve Wyoming on host:port until `stop` is set."""
    server = AsyncTcpServer(host, port)
    await server.start(partial(WyomingHandler, service))
    await stop.wait()
    await server.stop()


async def serve_until_signal(service: Service, host: str, port: int) -> int:
    """Serve until SIGINT or SIGTERM; returns the signal."""
    stop, received = asyncio.Event(), []
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, lambda s=signum: (received.append(s), stop.set()))
    await serve(service, host, port, stop)
    return received[0]


class Thread:
    """Wyoming served from its own thread and event loop, beside the HTTP server's."""

    def __init__(self, service: Service, host: str, port: int, timeout: float = 30.0):
        self.loop, self.server = asyncio.new_event_loop(), AsyncTcpServer(host, port)
        self.thread = threading.Thread(target=self.loop.run_forever, name="mlx_qwen3tts-wyoming", daemon=True)
        self.thread.start()
        started = asyncio.run_coroutine_threadsafe(self.server.start(partial(WyomingHandler, service)), self.loop)
        try:  # a failure to listen (the port is taken) is raised here, to the starting thread
            started.result(timeout)
        except BaseException:
            self.loop.call_soon_threadsafe(self.loop.stop)
            raise

    def close(self, timeout: float = 5.0):
        """Stop serving (waiting up to `timeout` s for the connections to end), then the loop."""
        if self.thread.is_alive():
            futures.wait([asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop)], timeout)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout)


def start(server, host: str, port: int, alone: bool = False, temperature=None, max_new_tokens=None):
    """Serve Wyoming for `server`: beside HTTP from a `Thread` (returned); alone, here until SIGINT
    or SIGTERM, then the process ends by that signal, as the HTTP server (uvicorn) does."""
    service = Service(server, {"temperature": temperature, "max_new_tokens": max_new_tokens})
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"mlx_qwen3tts Wyoming (Home Assistant): {server.model_id} on tcp://{shown}:{port}", err=True)
    try:
        if not alone:
            return Thread(service, host, port)
        try:
            signum = asyncio.run(serve_until_signal(service, host, port))
        finally:
            server.engine.close()
    except OSError as e:
        raise InputError(f"cannot serve Wyoming on {shown}:{port}: {e.strerror or e}") from None
    # The engine is closed (its thread has released its MLX streams); ending by the signal, as
    # uvicorn does on SIGTERM, tells the caller why the process stopped (shell status 128 + signal).
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)
