"""WebSocket /v1/audio/speech/stream: text in as it is written, audio out as it is made.

Client -> server: session.update, input_text.append, input_text.flush, input_text.end, cancel.
Server -> client: session.created, session.updated, speech.audio.delta, speech.audio.done, error, and with
`timestamps` speech.timestamps after each piece's audio (its words, from the server's aligner).
The adapter of our dialect over the session core (`session.py`: the loops, the limits, the error path).
Each utterance (text up to a flush or the end) is spoken as streaming-text engine requests fed by
TextFeeds, so its audio starts after its first text token: one request, or, where the text paused for the
server's --ws-pause, one per stretch between pauses (what came before a pause is spoken then, however
short). An empty append is ignored (no piece, no event). Utterances are spoken one after the other; text
for the next one is buffered meanwhile. Pieces are joined exactly as sent, so a
character a client split between two appends (a JavaScript string sliced by index splits an emoji
into its UTF-16 surrogates) is joined again: a high surrogate ending one append waits for the next.
"""

import base64

from ...request_fields import field_names
from .. import params as fields
from ..audio_out import Usage, encoded_chunks
from ..limits import ApiError
from ..engine_client import build, runaway_notice
from ..piece_timing import check_timings, piece_words
from .session import Dialect, Utterance, checked_text, unknown

WS_FORMATS = ["pcm", "wav"]
# The request layer's fields as these sessions name them: the text comes in input_text.append's `text`.
WS_NAMES = field_names(text="text", deltas="text", speaker="voice", instruct="instructions",
                       max_tokens="max_new_tokens", ref_audio="audio_sample")
NOTHING = "nothing to speak"  # queued for a flush with no text since the last one
HIGH_SURROGATES = ("\ud800", "\udbff")


class Spoken(Utterance):
    """An utterance and how its audio goes out (the session's settings when it began)."""

    def __init__(self, kwargs: dict, fmt: str, speed: float, binary: bool, timestamps: bool = False):
        super().__init__()
        self.kwargs, self.fmt, self.speed, self.binary, self.timestamps = kwargs, fmt, speed, binary, timestamps
        self.told = False  # a piece's runaway notice went out


class Ours(Dialect):
    """Our dialect: session.update, input_text.append / flush / end, cancel."""

    names = WS_NAMES

    def __init__(self, session):
        super().__init__(session)
        self.settings = {"voice": None, "language": "auto", "instructions": None, "response_format": "pcm",
                         "speed": 1.0, "binary": False, "timestamps": False,
                         "sample_rate": self.server.tts.sample_rate}
        self.params = {}  # the raw fields given so far (validated), merged over updates
        self.kwargs = {}
        self.held = ""  # a high surrogate that ended the last append, for the low one starting the next
        self.seq = 0

    @staticmethod
    def error_event(error: ApiError, code: str) -> dict:
        return {"type": "error", "error": {"message": error.message, "type": "invalid_request_error",
                                           "param": error.param, "code": code}}

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
        checked_text(text, WS_NAMES, "input_text.append needs 'text' as a string")
        if not text:  # an empty append is no piece and has no answer
            return
        limit = self.server.limits.max_input_chars
        used = self.current.length if self.current is not None else 0
        if used + len(text) > limit:
            if self.current is not None:
                self.current.cancel()
                self.current = None
            raise ApiError(400, f"an utterance may hold at most {limit:,} characters; this one was cancelled "
                                "(send input_text.flush to start a new utterance)", param="text", code="too_long")
        if self.current is None:
            s = self.settings
            utt = Spoken(dict(self.kwargs), s["response_format"], s["speed"], s["binary"], s["timestamps"])
            self.session.enqueue(utt)
            self.current = utt
        self.current.write(text)

    def flush(self, answer_empty: bool = False) -> None:
        held, self.held = self.held, ""
        if self.current is not None:
            self.current.end()
            self.current = None
        elif answer_empty:  # a client waiting for one done per flush gets it, in turn, with nothing spoken
            self.session.enqueue(NOTHING, utterance=False)
        checked_text(held, WS_NAMES, "")  # the utterance has ended: a held high surrogate is lone for good

    def cancel(self) -> None:
        self.session.cancel()
        self.current, self.held = None, ""

    async def handle(self, message: dict) -> bool:
        """One client message; False once the client has ended the session."""
        kind = message.get("type")
        if kind == "session.update":
            self.update(message.get("session"))
            await self.session.send({"type": "session.updated", "session": self.settings})
        elif kind == "input_text.append":
            self.append(message.get("text"))
        elif kind == "input_text.flush":
            self.flush(answer_empty=True)
        elif kind == "input_text.end":
            await self.session.guarded(self._flushed)  # said, and the session still ends as asked, after its audio
            return False
        elif kind == "cancel":
            self.cancel()
        else:
            raise unknown(kind, ("session.update", "input_text.append", "input_text.flush", "input_text.end",
                                 "cancel"))
        return True

    async def _flushed(self):
        self.flush()

    async def idle(self):
        self.flush()

    # -- audio -------------------------------------------------------------------------------
    async def speak(self, utt):
        """One utterance as one engine request: its audio, then speech.audio.done."""
        sr = self.server.tts.sample_rate
        if utt is NOTHING:
            await self.session.send({"type": "speech.audio.done", "usage": Usage().as_dict(sr), "cancelled": False})
            return
        if utt.cancelled:
            return
        usage = Usage()
        async for handle in self.session.requests(utt, WS_NAMES, **utt.kwargs):
            try:
                await self.audio(utt, usage)
            except Exception as e:  # noqa: BLE001  (said, then its done event)
                await self.session.error(e)
            if runaway_notice(handle) and not utt.told:  # the runaway guard ended it (told of no piece yet)
                await self.session.send({"type": "speech.runaway", "message": runaway_notice(handle)})
            utt.told = False
        usage.text_tokens = len(self.server.tts.tokenizer.encode("".join(utt.written))) if utt.written else 0
        await self.session.send({"type": "speech.audio.done", "usage": usage.as_dict(sr),
                                 "cancelled": utt.cancelled})

    async def audio(self, utt: Spoken, usage: Usage):
        """The utterance's audio as deltas, `speech.runaway` after a piece the runaway guard ended; with
        timestamps, each piece's words after its audio (`speech.timestamps`, times in seconds of the utterance),
        aligned while the engine goes on."""
        sr = self.server.tts.sample_rate
        words = piece_words(self.server, utt.kwargs.get("language"), utt.speed, utt.texts, True) \
            if utt.timestamps else None
        before = usage.samples / sr  # the utterance's earlier parts' audio: its times go on from there
        chunks = encoded_chunks(utt.handle, utt.fmt, utt.speed, sr, usage, words, notices=True)
        async for item in self.session.audio(utt, chunks):
            if isinstance(item, bytes):
                await self.delta(item, utt.binary)
            elif isinstance(item, dict):  # a piece's runaway notice
                utt.told = True
                await self.session.send(item)
            elif item.words is None:
                await self.session.error(ApiError(400, "word timings failed for a sentence (see the server's log); "
                                                       "its audio goes on", param="timestamps",
                                                  code="timestamps_failed"))
            else:
                await self.session.send({"type": "speech.timestamps", "timestamps": [
                    {"word": w.text, "start_time": before + w.start, "end_time": before + w.end} for w in item.words]})

    async def delta(self, data: bytes, binary: bool):
        if binary:
            await self.session.send_bytes(data)
        else:
            await self.session.send({"type": "speech.audio.delta", "seq": self.seq,
                                     "audio": base64.b64encode(data).decode()})
        self.seq += 1
