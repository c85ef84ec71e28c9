"""vLLM-Omni's WebSocket dialect on `/v1/audio/speech/stream` (a session whose first message is `session.config`).

Client -> server: session.config (flat; again between utterances to change it), input.text, input.commit
(streaming_mode "sentence_commit"), input.done (ends the utterance; the socket stays open), session.close.
Server -> client, per sentence (a piece of the text as our plan speaks it: sentences merged up to 300
characters): audio.start, its audio (one binary frame holding the sentence in its format; s16le PCM frames as
they are made with stream_audio; JSON audio.chunk events with word_timestamps, the last carrying the words),
audio.done; per utterance session.done; input.committed per commit; errors as {"type": "error", "message"},
after which the session goes on. An utterance is one engine request (`engine_client.submit`), its text whole
(spoken once input.done comes) or, with streaming_mode "token_level" / "sentence_commit", written into it as
it comes, so audio starts before input.done.
"""

import asyncio
import base64
import io
import json

import numpy as np
import soundfile as sf
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...audio import formats as audio_formats
from ...errors import InputError
from ...loop.text_track import TextFeed
from ...request import clean_text
from ..audio_out import Usage, encoded_file, in_thread
from ..engine_client import engine_error, submit
from ..limits import ApiError
from .omni_config import OMNI_NAMES, omni_config
from ..params import socket_message
from ..piece_timing import AUDIO, END, PieceTexts, piece_audio, piece_words


class OmniUtterance:
    """The text of one utterance (up to input.done) and how it is spoken."""

    def __init__(self, index: int, config):
        self.index, self.config = index, config
        self.texts, self.written, self.pending = PieceTexts(), [], []
        self.feed = TextFeed() if config.mode != "none" else None
        self.queued, self.commits, self.handle, self.cancelled = False, 0, None, False

    def write(self, text: str):
        """Text the request is given (a whole utterance's at its end, or a streamed one's as it comes)."""
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
        if self.feed is not None:
            self.feed.end()
        if self.handle is not None:
            self.handle.cancel()


def sentence_file(samples: np.ndarray, sample_rate: int, fmt: str) -> bytes:
    """One sentence's audio as a file; wav as 16-bit PCM, as vLLM-Omni sends it (half the bytes of our float
    wav, so a long sentence stays in a client's 1 MiB message limit)."""
    if fmt != "wav":
        return encoded_file(samples, sample_rate, fmt)
    buffer = io.BytesIO()
    sf.write(buffer, samples, sample_rate, format="WAV", subtype="PCM_16")
    return buffer.getvalue()


def omni_audio(handle, config, sample_rate: int, usage, words=None):
    """Blocking: (AUDIO, bytes to send) as they are made, s16le PCM with stream_audio (else each sentence's
    file once it is complete), and (END, the sentence's `Words` from `words`, or None) after its audio."""
    encoder = audio_formats.StreamEncoder("pcm", sample_rate) if config.stream_audio else None
    heard = []
    for kind, item in piece_audio(handle, config.speed, sample_rate, usage, words):
        if kind == AUDIO and encoder is not None:
            data = encoder.write(item)
            if data:
                yield AUDIO, data
        elif kind == AUDIO:
            heard.append(item)
        else:
            if encoder is None:
                yield AUDIO, sentence_file(np.concatenate(heard) if heard else np.zeros(0, np.float32),
                                           sample_rate, config.fmt)
                heard = []
            yield END, item


class OmniSession:
    def __init__(self, server, ws: WebSocket):
        self.server, self.ws = server, ws
        self.config = None
        self.current = None  # the utterance taking text
        self.index = 0  # the next utterance's utterance_index
        self.queue: asyncio.Queue = asyncio.Queue()
        self.active = []
        self.send_lock = asyncio.Lock()

    async def send(self, event: dict):
        async with self.send_lock:
            await self.ws.send_text(json.dumps(event))

    async def send_bytes(self, data: bytes):
        async with self.send_lock:
            await self.ws.send_bytes(data)

    async def error(self, message: str, code: str = "invalid_request"):
        self.server.metrics.refused_code(code)
        await self.send({"type": "error", "message": message})

    # -- client messages ---------------------------------------------------------------------
    async def configure(self, message: dict):
        if self.current is not None:
            raise ApiError(400, "session.config cannot change an utterance in progress; send input.done first",
                           param="type")
        self.config = await omni_config(self.server, message)

    def utterance(self) -> OmniUtterance:
        if self.config is None:
            raise ApiError(400, "send a valid session.config first (it opens the session)", param="type")
        if self.current is None:
            self.current = OmniUtterance(self.index, self.config)
            self.active.append(self.current)
        return self.current

    def start(self, utt: OmniUtterance):
        if not utt.queued:
            utt.queued = True
            self.queue.put_nowait(utt)

    def text(self, text):
        if not isinstance(text, str):
            raise ApiError(400, "input.text needs 'text' as a string", param="text")
        try:
            clean_text(text, "deltas")  # refused now if the request would refuse it later (a lone surrogate)
        except InputError as e:
            raise engine_error(e, OMNI_NAMES) from None
        utt = self.utterance()
        used = sum(len(t) for t in utt.written + utt.pending) + len(text)
        limit = self.server.limits.max_input_chars
        if used > limit:
            raise ApiError(400, f"an utterance may hold at most {limit:,} characters; send input.done, then the rest",
                           param="text", code="too_long")
        if utt.config.mode == "token_level":
            utt.write(text)
            if text:
                self.start(utt)
        else:
            utt.pending.append(text)

    async def commit(self, commit_id, implicit: bool = False):
        utt = self.utterance()
        if utt.config.mode != "sentence_commit":
            raise ApiError(400, "input.commit is for streaming_mode 'sentence_commit'; this session's is "
                                f"'{utt.config.mode}'", param="type")
        text = "".join(utt.pending)
        if not text.strip():
            if implicit:
                return
            raise ApiError(400, "input.commit needs text: send input.text first", param="text")
        utt.pending.clear()
        utt.write(text)
        self.start(utt)
        await self.send({"type": "input.committed", "commit_id": commit_id, "sentence_index": utt.commits,
                         "chars_committed": len(text)})
        utt.commits += 1

    async def done(self):
        utt = self.utterance()
        if utt.config.mode == "sentence_commit":
            await self.commit(None, implicit=True)
        elif utt.config.mode == "none":
            utt.write("".join(utt.pending))
            utt.pending.clear()
        utt.end()
        self.current = None
        self.index += 1
        if utt.queued or "".join(utt.written).strip():
            self.start(utt)
        else:
            self.active.remove(utt)
            self.queue.put_nowait(utt.index)  # nothing to speak: its session.done, in turn

    async def handle(self, raw) -> bool:
        """One client message; False once the client has closed the session."""
        message = socket_message(raw)
        kind = message.get("type")
        if kind == "session.config":
            await self.configure(message)
        elif kind == "input.text":
            self.text(message.get("text", ""))
        elif kind == "input.commit":
            await self.commit(message.get("commit_id"))
        elif kind == "input.done":
            await self.done()
        elif kind == "session.close":
            if self.current is not None:  # text not flushed by input.done is dropped, as vLLM-Omni drops it
                self.current.cancel()
                if not self.current.queued:
                    self.active.remove(self.current)
                self.current = None
            return False
        else:
            raise ApiError(400, f"unknown message type {str(kind)[:40]!r}; send session.config, input.text, "
                                "input.commit, input.done or session.close", param="type", code="unknown_type")
        return True

    def within_limit(self, raw):
        lim, size = self.server.limits, len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
        if size > lim.max_ws_message_bytes and (size > lim.max_ws_config_bytes or not isinstance(raw, str)
                                               or '"session.config"' not in raw[:4096]):
            raise ApiError(400, f"a message may hold at most {lim.max_ws_message_bytes // 1024} KiB (a session.config "
                                f"{lim.max_ws_config_bytes // 1024 ** 2} MiB, for its ref_audio); this one was dropped",
                           code="too_large")
        return raw

    async def read(self, first):
        """Client messages (the first already read) until session.close or the client goes away."""
        raw, idle = first, self.server.limits.ws_idle_seconds
        while True:
            try:
                if raw is not None and not await self.handle(self.within_limit(raw)):
                    return
            except ApiError as e:
                await self.error(e.message, e.code or "invalid_request")
            try:
                message = await asyncio.wait_for(self.ws.receive(), idle if self.current is not None else None)
            except asyncio.TimeoutError:
                await self.error(f"no message for {idle:g} s: the utterance was ended as input.done ends it",
                                 "idle_timeout")
                raw = json.dumps({"type": "input.done"})
                continue
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            raw = message.get("text") if message.get("text") is not None else message.get("bytes")

    # -- audio -------------------------------------------------------------------------------
    async def speak(self):
        """Utterances one after the other, each as one engine request, until the session ends."""
        while True:
            utt = await self.queue.get()
            if utt is None:
                return
            if isinstance(utt, int):
                await self.send({"type": "session.done", "utterance_index": utt, "total_sentences": 0})
                continue
            if utt.cancelled:
                self.active.remove(utt)
                continue
            try:
                sentences = await self.spoken(utt)
            finally:
                self.active.remove(utt)
            await self.send({"type": "session.done", "utterance_index": utt.index, "total_sentences": sentences})

    async def spoken(self, utt: OmniUtterance) -> int:
        """The utterance's audio sent sentence by sentence; how many sentences were begun."""
        config, sr = utt.config, self.server.tts.sample_rate
        text = {"deltas": utt.feed} if utt.feed is not None else {"text": "".join(utt.written)}
        try:
            utt.handle = submit(self.server, OMNI_NAMES, **text, **config.kwargs)
        except ApiError as e:
            utt.cancel()
            await self.error(e.message, e.code or "invalid_request")
            return 0
        out = SentenceOut(self, utt, sr)
        words = piece_words(self.server, config.kwargs.get("language"), config.speed, True) \
            if config.word_timestamps else None
        try:
            async for kind, item in in_thread(omni_audio(utt.handle, config, sr, Usage(), words), utt.handle.cancel):
                if utt.cancelled:
                    break
                await (out.audio(item) if kind == AUDIO else out.end(item))
        except Exception as e:
            error = engine_error(e, OMNI_NAMES)
            await self.error(error.message, error.code or "generation_failed")
            await out.close(failed=True)
        return out.index + out.started

    def close(self):
        for utt in self.active:
            utt.cancel()
        self.current = None
        self.queue.put_nowait(None)


class SentenceOut:
    """One utterance's sentences as vLLM-Omni's events: audio.start, the audio, audio.done."""

    def __init__(self, session: OmniSession, utt: OmniUtterance, sample_rate: int):
        self.session, self.utt, self.sr = session, utt, sample_rate
        self.config = utt.config
        self.index, self.started, self.bytes, self.chunk_id = 0, False, 0, 0

    def _ids(self) -> dict:
        return {"utterance_index": self.utt.index, "sentence_index": self.index}

    def _ms(self, nbytes: int) -> int:
        return int(round(nbytes / 2 / self.sr * 1000.0))

    async def _start(self):
        if not self.started:
            self.started, self.bytes, self.chunk_id = True, 0, 0
            event = {"type": "audio.start", **self._ids(), "sentence_text": self.utt.texts[self.index],
                     "format": self.config.fmt, "sample_rate": self.sr}
            if self.config.stream_audio:
                event["channels"] = 1
            if self.config.word_timestamps:
                event["word_timestamps"] = True
            await self.session.send(event)

    async def _chunk(self, data: bytes, start_ms: int, end_ms: int, timestamps=None):
        await self.session.send({"type": "audio.chunk", **self._ids(), "chunk_id": self.chunk_id,
                                 "chunk_start_ms": start_ms, "chunk_end_ms": end_ms, "sample_rate": self.sr,
                                 "channels": 1, "audio_b64": base64.b64encode(data).decode(), "timestamps": timestamps})
        self.chunk_id += 1

    async def audio(self, data: bytes):
        await self._start()
        if self.config.word_timestamps:
            await self._chunk(data, self._ms(self.bytes), self._ms(self.bytes + len(data)))
        else:
            await self.session.send_bytes(data)
        self.bytes += len(data)

    async def end(self, words):
        """The sentence's audio is all out: its words (`Words`, aligned while the engine went on; times in
        seconds of the utterance, given in ms of the sentence's start), audio.done."""
        await self._start()
        if self.config.word_timestamps:
            await self._chunk(b"", 0, self._ms(self.bytes), None if words is None or words.words is None else [
                {"word": w.text, "start_ms": int(round((w.start - words.start) * 1000)),
                 "end_ms": int(round((w.end - words.start) * 1000))} for w in words.words])
        await self.close()

    async def close(self, failed: bool = False):
        if self.started:
            await self.session.send({"type": "audio.done", **self._ids(), "total_bytes": self.bytes, "error": failed})
            self.index, self.started = self.index + 1, False


async def omni_session(server, ws: WebSocket, first):
    """Serve a session in vLLM-Omni's dialect, `first` its first message (a session.config)."""
    session = OmniSession(server, ws)
    reader = asyncio.create_task(session.read(first))
    speaker = asyncio.create_task(session.speak())
    try:
        await asyncio.wait({reader, speaker}, return_when=asyncio.FIRST_COMPLETED)
        if reader.done() and reader.exception() is None:  # session.close: finish the audio asked for, then close
            session.queue.put_nowait(None)
            await speaker
            await ws.close(1000)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        session.close()
        for task in (reader, speaker):
            task.cancel()
        await asyncio.gather(reader, speaker, return_exceptions=True)
