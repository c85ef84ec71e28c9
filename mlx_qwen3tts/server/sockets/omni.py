"""vLLM-Omni's WebSocket dialect on `/v1/audio/speech/stream` (a session whose first message is `session.config`).

Client -> server: session.config (flat; again between utterances to change it), input.text, input.commit
(streaming_mode "sentence_commit"), input.done (ends the utterance; the socket stays open), session.close.
Server -> client, per sentence (a piece of the text as our plan speaks it: sentences merged up to 300
characters): audio.start, its audio (one binary frame holding the sentence in its format; s16le PCM frames as
they are made with stream_audio; JSON audio.chunk events with word_timestamps, the last carrying the words),
audio.done; per utterance session.done; input.committed per commit; errors as {"type": "error", "message"},
after which the session goes on. The adapter of this dialect over the session core (`session.py`). An
utterance's text is spoken whole once input.done comes (streaming_mode "none"), or, with streaming_mode
"token_level" / "sentence_commit", written into engine requests as it comes (committed), so audio starts before
input.done: after the server's --ws-pause without more text, what was written is spoken however short, and the
next text goes into the next request of the same utterance (its sentences go on counting). An empty input.text
is ignored (no piece, no event).
"""

import base64
import io

import numpy as np
import soundfile as sf

from ...audio import formats as audio_formats
from ..audio_out import Usage, encoded_file
from ..limits import ApiError
from ..piece_timing import AUDIO, END, piece_audio, piece_words
from .omni_config import OMNI_NAMES, omni_config
from .session import Dialect, Utterance, checked_text, unknown


class OmniUtterance(Utterance):
    """The text of one utterance (up to input.done) and how it is spoken."""

    def __init__(self, index: int, config):
        super().__init__(streamed=config.mode != "none")
        self.index, self.config = index, config
        self.pending, self.pending_chars = [], 0  # text not yet written (streaming_mode none, commit)
        self.queued, self.commits = False, 0

    def hold(self, text: str):
        """Text kept until input.done (streaming_mode none) or input.commit."""
        self.pending.append(text)
        self.pending_chars += len(text)

    def take(self) -> str:
        """The text held, taken."""
        text, self.pending, self.pending_chars = "".join(self.pending), [], 0
        return text


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


class Omni(Dialect):
    """vLLM-Omni's dialect: session.config, input.text, input.commit, input.done, session.close."""

    names = OMNI_NAMES
    config = None  # the session.config in force (none yet: text is refused)
    index = 0  # the next utterance's utterance_index

    @staticmethod
    def error_event(error: ApiError, code: str) -> dict:
        return {"type": "error", "message": error.message}

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
        return self.current

    def start(self, utt: OmniUtterance):
        if not utt.queued:
            self.session.enqueue(utt)
            utt.queued = True

    def text(self, text):
        checked_text(text, OMNI_NAMES, "input.text needs 'text' as a string")
        if not text:  # an empty input.text is no piece and has no answer
            return
        utt = self.utterance()
        used = utt.length + utt.pending_chars + len(text)
        limit = self.server.limits.max_input_chars
        if used > limit:
            raise ApiError(400, f"an utterance may hold at most {limit:,} characters; send input.done, then the rest",
                           param="text", code="too_long")
        if utt.config.mode == "token_level":
            self.start(utt)
            utt.write(text)
        else:
            utt.hold(text)

    async def commit(self, commit_id, implicit: bool = False):
        utt = self.utterance()
        if utt.config.mode != "sentence_commit":
            raise ApiError(400, "input.commit is for streaming_mode 'sentence_commit'; this session's is "
                                f"'{utt.config.mode}'", param="type")
        if not "".join(utt.pending).strip():
            if implicit:
                return
            raise ApiError(400, "input.commit needs text: send input.text first", param="text")
        self.start(utt)
        text = utt.take()
        utt.write(text)
        await self.session.send({"type": "input.committed", "commit_id": commit_id, "sentence_index": utt.commits,
                                 "chars_committed": len(text)})
        utt.commits += 1

    async def done(self):
        utt = self.utterance()
        if utt.config.mode == "sentence_commit":
            await self.commit(None, implicit=True)
        elif utt.config.mode == "none":
            utt.write(utt.take())
        try:
            if utt.queued or "".join(utt.written).strip():
                self.start(utt)
            else:
                self.session.enqueue(utt.index, utterance=False)  # nothing to speak: its session.done, in turn
        finally:  # spoken, or refused (the queue full) and dropped: the next text starts the next utterance
            utt.end()
            self.current = None
            self.index += 1

    async def handle(self, message: dict) -> bool:
        """One client message; False once the client has closed the session."""
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
                self.current = None
            return False
        else:
            raise unknown(kind, ("session.config", "input.text", "input.commit", "input.done", "session.close"))
        return True

    async def idle(self):
        await self.done()

    # -- audio -------------------------------------------------------------------------------
    async def speak(self, utt):
        """One utterance (or, for one with nothing to speak, its index) as its sentences, then session.done."""
        if isinstance(utt, int):
            await self.session.send({"type": "session.done", "utterance_index": utt, "total_sentences": 0})
            return
        if not utt.cancelled:
            sentences = await self.spoken(utt)
            await self.session.send({"type": "session.done", "utterance_index": utt.index,
                                     "total_sentences": sentences})

    async def spoken(self, utt: OmniUtterance) -> int:
        """The utterance's audio sent sentence by sentence; how many sentences were begun."""
        config, sr = utt.config, self.server.tts.sample_rate
        out = SentenceOut(self.session, utt, sr)
        async for handle in self.session.requests(utt, OMNI_NAMES, **config.kwargs):
            out.first = out.index + out.started  # utt.texts counts this part's sentences from 0
            words = piece_words(self.server, config.kwargs.get("language"), config.speed, utt.texts, True) \
                if config.word_timestamps else None
            try:
                async for kind, item in self.session.audio(utt, omni_audio(handle, config, sr, Usage(), words)):
                    await (out.audio(item) if kind == AUDIO else out.end(item))
            except Exception as e:  # noqa: BLE001  (said, its sentence ended as failed, and the session goes on)
                await self.session.error(e)
                await out.close(failed=True)
        return out.index + out.started


class SentenceOut:
    """One utterance's sentences as vLLM-Omni's events: audio.start, the audio, audio.done."""

    def __init__(self, session, utt: OmniUtterance, sample_rate: int):
        self.session, self.utt, self.sr = session, utt, sample_rate
        self.config = utt.config
        self.index, self.started, self.bytes, self.chunk_id = 0, False, 0, 0
        self.first = 0  # the index of the first sentence of the part (engine request) now spoken

    def _ids(self) -> dict:
        return {"utterance_index": self.utt.index, "sentence_index": self.index}

    def _ms(self, nbytes: int) -> int:
        return int(round(nbytes / 2 / self.sr * 1000.0))

    async def _start(self):
        if not self.started:
            self.started, self.bytes, self.chunk_id = True, 0, 0
            event = {"type": "audio.start", **self._ids(), "sentence_text": self.utt.texts[self.index - self.first],
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
