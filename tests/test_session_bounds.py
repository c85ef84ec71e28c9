"""Bounds on what a client can make the server hold, below the sockets: the engine pauses a request whose
reader is behind, `in_thread` holds a few items ahead of its consumer, a batch's shared reference clip is
decoded once, and the WebSocket session core says every failure in its dialect's shape (issue 57)."""

import asyncio
import base64
import io
import json
import logging
import time

import numpy as np
import pytest
import soundfile as sf

from mlx_qwen3tts.loop import engine as engine_module

UNREAD_CHUNKS = getattr(engine_module, "UNREAD_CHUNKS", 8)  # main had no bound (the tests must fail there)

pytest.importorskip("starlette")

from mlx_qwen3tts.server import params as fields  # noqa: E402
from mlx_qwen3tts.server.audio_out import in_thread  # noqa: E402
from mlx_qwen3tts.server.limits import ApiError, Limits  # noqa: E402


@pytest.fixture(scope="module")
def custom(load_tiny):
    return load_tiny("custom_voice-0b6")


def frames_when_still(engine, timeout: float = 30.0) -> int:
    """The engine's frame count once it has stopped growing for half a second (bounded)."""
    deadline, last = time.monotonic() + timeout, -1
    while time.monotonic() < deadline:
        now = engine.frames_made
        if now == last:
            return now
        last = now
        time.sleep(0.5)
    raise AssertionError("the engine never paused")


def test_a_request_nobody_reads_pauses_and_goes_on_when_read(custom):
    request = custom.request(text="Hello there.", speaker="ryan", max_tokens=300, temperature=0,
                             first_chunk_frames=2, chunk_frames=2)
    with custom.engine(max_active=2) as engine:
        read = np.concatenate([c.codes for c in engine.submit(request)])  # read as it comes
        assert read.shape[0] > 4 * (UNREAD_CHUNKS + 3)
        start = engine.frames_made
        chunks = iter(engine.submit(request))
        first = next(chunks)
        paused_at = frames_when_still(engine) - start
        # Paused with a few chunks unread (those decoding or in flight besides), far from its end.
        assert paused_at <= first.frames + 2 * (UNREAD_CHUNKS + 3) < read.shape[0], paused_at
        late = np.concatenate([first.codes] + [c.codes for c in chunks])
    np.testing.assert_array_equal(late, read)  # paused, then read: the same speech


def test_in_thread_holds_a_few_items_ahead_of_a_slow_consumer():
    made = []

    def items():
        for i in range(1000):
            made.append(i)
            yield i

    async def consume():
        got = []
        async for item in in_thread(items(), lambda: None):
            got.append(item)
            if len(got) == 1:
                await asyncio.sleep(1.0)  # a consumer that stops for a while
                ahead = len(made)
        return got, ahead

    got, ahead = asyncio.run(consume())
    assert got == list(range(1000)) and ahead <= 16, ahead


def wav_data_url(seconds: float = 1.0, rate: int = 16000) -> str:
    t = np.arange(int(seconds * rate)) / rate
    buffer = io.BytesIO()
    sf.write(buffer, (0.3 * np.sin(2 * np.pi * 180 * t)).astype(np.float32), rate, format="WAV")
    return "data:audio/wav;base64," + base64.b64encode(buffer.getvalue()).decode()


class CountingVoices:
    """A voice store that counts the clips it decodes."""

    def __init__(self):
        self.decoded = 0

    def decode_upload(self, data: bytes, field: str = "audio_sample"):
        self.decoded += 1
        samples, rate = sf.read(io.BytesIO(data), dtype="float32")
        return samples, rate


def test_a_batch_decodes_its_shared_ref_audio_once():
    voices = CountingVoices()
    body = {"task_type": "Base", "ref_audio": wav_data_url(), "ref_text": "Hello.",
            "items": [{"input": f"Item {i}."} for i in range(4)]}
    items = fields.shared_clips(fields.batch(body, 16).items, voices)
    speeches = [fields.speech(item, Limits(), voices) for item in items]
    assert voices.decoded == 1
    assert all(s.kwargs["ref_audio"][1] == 16000 for s in speeches)
    bad = fields.shared_clips(fields.batch({**body, "ref_audio": "data:audio/wav;base64,????"}, 16).items, voices)
    for item in bad:  # a clip that does not decode is refused by each item, in the same words
        with pytest.raises(ApiError, match="does not decode"):
            fields.speech(item, Limits(), voices)


def new_session(server, ws, dialect):
    from mlx_qwen3tts.server.sockets.session import Session  # the core of both dialects (none before issue 57)

    session = Session(server, ws)
    session.dialect = dialect(session)
    return session


class FakeSocket:
    """A WebSocket that hands the session `messages`, then waits for the close; records what is sent."""

    def __init__(self, messages):
        self.messages, self.sent, self.closed = list(messages), [], None

    async def receive(self):
        if self.messages:
            return {"type": "websocket.receive", "text": self.messages.pop(0)}
        await asyncio.sleep(3600)

    async def send_text(self, text):
        self.sent.append(json.loads(text))

    async def send_bytes(self, data):
        self.sent.append(data)

    async def close(self, code=1000, reason=""):
        self.closed = (code, reason)


class FailingDialect:
    """A dialect whose reader fails unexpectedly on "boom" and ends the session on "end"."""

    names = {}

    def __init__(self, session):
        self.session = session

    @staticmethod
    def error_event(error, code):
        return {"type": "error", "message": error.message, "code": code}

    def open(self):
        return False

    def taking(self):
        return False

    async def handle(self, message):
        if message["type"] == "boom":
            raise KeyError("a bug")
        return message["type"] != "end"

    async def speak(self, item):
        pass


class FakeServer:
    def __init__(self):
        self.limits = Limits(max_ws_message_bytes=1024)
        self.refused = []
        self.metrics = type("M", (), {"refused_code": lambda _, code: self.refused.append(code)})()


def test_an_unexpected_failure_in_a_reader_is_said_logged_and_the_session_goes_on(caplog):
    server = FakeServer()
    ws = FakeSocket([json.dumps({"type": "boom"}), "x" * 2000, "{not json", json.dumps({"type": "end"})])
    session = new_session(server, ws, FailingDialect)
    with caplog.at_level(logging.INFO, logger="mlx_qwen3tts.server"):
        asyncio.run(session.run(None))
    errors = [e for e in ws.sent if e.get("type") == "error"]
    assert [e["code"] for e in errors] == ["internal_error", "too_large", "invalid_json"], ws.sent
    assert session.id in errors[0]["message"] and "1 KiB" in errors[1]["message"]
    assert ws.closed == (1000, "")  # the client ended it: closed as asked, after the failures
    assert any(session.id in r.getMessage() and r.exc_info for r in caplog.records)


def test_a_send_the_client_never_reads_ends_the_session_with_a_reason():
    server = FakeServer()
    server.limits = Limits(ws_send_seconds=0.2)

    class Stuck(FakeSocket):
        async def send_text(self, text):
            await asyncio.sleep(3600)

    ws = Stuck([json.dumps({"type": "boom"})])
    session = new_session(server, ws, FailingDialect)
    asyncio.run(asyncio.wait_for(session.run(None), 10))
    assert ws.closed[0] == 1008 and "read nothing for 0.2 s" in ws.closed[1]


def test_a_failing_error_path_closes_the_session_with_a_reason(caplog):
    class Broken(FailingDialect):
        @staticmethod
        def error_event(error, code):
            raise TypeError("the error event itself failed")

    ws = FakeSocket([json.dumps({"type": "boom"})])
    session = new_session(FakeServer(), ws, Broken)
    with caplog.at_level(logging.INFO, logger="mlx_qwen3tts.server"):
        asyncio.run(asyncio.wait_for(session.run(None), 10))
    assert ws.closed[0] == 1011 and session.id in ws.closed[1]
    assert any(session.id in r.getMessage() and r.exc_info for r in caplog.records)


class SlowTextDialect(FailingDialect):
    """Streamed text whose handling blocks the event loop (a busy machine); records each pause it is told of."""

    def __init__(self, session):
        super().__init__(session)
        self.texts, self.pauses = [], []

    def open(self):
        return bool(self.texts)

    def taking(self):
        return bool(self.texts)

    def pause(self):
        self.pauses.append(len(self.texts))

    async def handle(self, message):
        if message["type"] == "text":
            time.sleep(0.3)  # longer than the pause: the handling, not the client, took the time
            self.texts.append(message["text"])
        return message["type"] != "end"


def test_a_message_sent_before_the_pause_ends_is_read_before_the_pause_fires():
    """Text sent back to back is one stretch however long the server takes to handle each piece: the pause counts
    from the end of a message's handling, and a message already on its way is read before a timer fires."""

    class Socket(FakeSocket):
        async def receive(self):
            await asyncio.sleep(0.02)  # as a real socket's bytes, the next message comes some turns of the loop later
            return await super().receive()

    server = FakeServer()
    server.limits = Limits(ws_pause_seconds=0.1)
    ws = Socket([json.dumps({"type": "text", "text": w}) for w in ("Through ", "the ", "balancer.")]
                + [json.dumps({"type": "end"})])
    session = new_session(server, ws, SlowTextDialect)
    asyncio.run(asyncio.wait_for(session.run(None), 10))
    assert session.dialect.texts == ["Through ", "the ", "balancer."] and session.dialect.pauses == []
