"""Both WebSocket dialects on one session core (issue 57): every failure is an error event in the dialect's shape
and the session goes on, every message is held to one size limit, a session's queue is bounded, and a client that
stops reading holds the server's memory flat while another client is served, then its session ends with a reason.
A real server process on 127.0.0.1 with the tiny checkpoints; every wait bounded."""

import base64
import json
import socket
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402

from server_harness import shared_server, wait_until  # noqa: E402

TIMEOUT = 60
FRAME = 1920
RAGGED = [[1, 2], [3]]
QUEUED = 16  # utterances one session may queue (docs/server.md)
SEND_S = 20  # a send the client does not read within this ends its session (docs/server.md)
RSS_MARGIN = 48 * 1024 * 1024  # what a stalled client may grow the server by, all of it (docs/server.md)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp())


def connect(server, **kw):
    return ws_client.connect(server.url.replace("http://", "ws://") + "/v1/audio/speech/stream",
                             open_timeout=TIMEOUT, max_size=None, **kw)


def recv(ws, timeout=TIMEOUT):
    message = ws.recv(timeout=timeout)
    return message if isinstance(message, bytes) else json.loads(message)


def ours(ws, **session):
    assert recv(ws)["type"] == "session.created"
    ws.send(json.dumps({"type": "session.update", "session": session}))
    return recv(ws)


def omni(ws, **config):
    ws.send(json.dumps({"type": "session.config", **config}))


def until(ws, kind, timeout=TIMEOUT, limit=4000):
    """The events up to and with the first of type `kind` (binary audio as bytes), each within `timeout` s."""
    events = []
    for _ in range(limit):
        events.append(recv(ws, timeout))
        if isinstance(events[-1], dict) and events[-1]["type"] == kind:
            return events
    raise AssertionError(f"no {kind}")


def audio_of(events) -> int:
    return sum(len(e) if isinstance(e, bytes) else len(base64.b64decode(e["audio"])) for e in events
               if isinstance(e, bytes) or e.get("type") == "speech.audio.delta")


def errors(events) -> list:
    return [e for e in events if isinstance(e, dict) and e["type"] == "error"]


def speak_ours(ws, text="Still here.", frames=3) -> int:
    ws.send(json.dumps({"type": "input_text.append", "text": text}))
    ws.send(json.dumps({"type": "input_text.flush"}))
    events = until(ws, "speech.audio.done")
    assert not errors(events), events
    return audio_of(events)


def speak_omni(ws, text="Still here.") -> int:
    ws.send(json.dumps({"type": "input.text", "text": text}))
    ws.send(json.dumps({"type": "input.done"}))
    events = until(ws, "session.done")
    assert not errors(events), events
    return audio_of(events)


def test_a_ragged_speaker_embedding_is_refused_on_every_path_and_the_sessions_go_on(tmp_path_factory):
    server = shared_server("base-0b6", tmp_path_factory.getbasetemp())
    embedding = [0.01 * (i % 7) for i in range(64)]  # the tiny model's hidden size
    http = httpx.post(server.url + "/v1/audio/speech", timeout=TIMEOUT, json={
        "model": "tts-1", "input": "Hello.", "task_type": "Base", "speaker_embedding": RAGGED})
    assert http.status_code == 400 and "speaker_embedding" in http.json()["error"]["message"], http.text
    said = http.json()["error"]["message"]
    with connect(server) as ws:
        event = ours(ws, speaker_embedding=RAGGED)
        assert event["type"] == "error" and "must be a list of numbers" in event["error"]["message"], event
        assert ours_settled(ws, speaker_embedding=embedding, max_new_tokens=3, temperature=0)
        assert speak_ours(ws) == 3 * FRAME * 2
    with connect(server) as ws:
        omni(ws, task_type="Base", speaker_embedding=RAGGED)
        event = recv(ws)
        assert event == {"type": "error", "message": said}, event
        omni(ws, task_type="Base", speaker_embedding=embedding, max_new_tokens=3, temperature=0,
             response_format="pcm", stream_audio=True)
        assert speak_omni(ws) == 3 * FRAME * 2


def ours_settled(ws, **session) -> bool:
    ws.send(json.dumps({"type": "session.update", "session": session}))
    return recv(ws)["type"] == "session.updated"


def test_an_oversized_message_is_refused_in_either_dialect_and_the_session_goes_on(server):
    huge = json.dumps({"type": "session.config", "pad": "x" * (4 * 1024 * 1024 + 100)})
    with connect(server) as ws:
        ours(ws, voice="ryan", max_new_tokens=3, temperature=0)
        ws.send(json.dumps({"type": "input_text.append", "text": "a" * 70_000}))
        event = recv(ws)
        assert event["type"] == "error" and "4,096 characters" in event["error"]["message"], event
        ws.send(huge)
        event = recv(ws)
        assert event["type"] == "error" and event["error"]["code"] == "too_large", event
        assert "4,096 KiB" in event["error"]["message"]
        assert speak_ours(ws) == 3 * FRAME * 2
    with connect(server) as ws:
        omni(ws, voice="ryan", max_new_tokens=3, temperature=0, response_format="pcm", stream_audio=True)
        ws.send(json.dumps({"type": "input.text", "text": "a" * 70_000}))
        assert "4,096 characters" in recv(ws)["message"]
        ws.send(huge)
        assert "4,096 KiB" in recv(ws)["message"]
        assert speak_omni(ws) == 3 * FRAME * 2


def test_a_session_queues_a_bounded_number_of_utterances(server):
    burst = 40
    with connect(server) as ws:
        ours(ws, voice="ryan", max_new_tokens=6, temperature=0)
        for _ in range(burst):
            ws.send(json.dumps({"type": "input_text.append", "text": "Hi."}))
            ws.send(json.dumps({"type": "input_text.flush"}))
        events, done = [], 0
        while done + len(errors(events)) < burst:
            events.append(recv(ws))
            done += isinstance(events[-1], dict) and events[-1]["type"] == "speech.audio.done"
        refused = errors(events)
        assert refused and all(e["error"]["code"] == "queue_full" for e in refused), refused
        assert f"at most {QUEUED} utterances" in refused[0]["error"]["message"] and done <= QUEUED + 1
    with connect(server) as ws:
        omni(ws, voice="ryan", max_new_tokens=6, temperature=0, response_format="pcm", stream_audio=True)
        for _ in range(burst):
            ws.send(json.dumps({"type": "input.text", "text": "Hi."}))
            ws.send(json.dumps({"type": "input.done"}))
        events, done = [], 0
        while done + len(errors(events)) < burst:
            events.append(recv(ws))
            done += isinstance(events[-1], dict) and events[-1]["type"] == "session.done"
        refused = errors(events)
        assert refused and f"at most {QUEUED} utterances" in refused[0]["message"] and done <= QUEUED + 1


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def serve(server) -> int:
    """1 once another client's session has been served in full."""
    with connect(server) as ws:
        ours(ws, voice="ryan", max_new_tokens=6, temperature=0)
        return int(speak_ours(ws, "Served.") == 6 * FRAME * 2)


def stalled_client(server):
    """A session in our dialect that asks for a long answer, then reads nothing (a small receive buffer, one
    message held by the client library)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
    sock.connect(("127.0.0.1", server.port))
    ws = connect(server, sock=sock, max_queue=1, ping_interval=None)
    # speed 0.25: four times the samples a frame, so the socket's buffers fill within the test's time
    ours(ws, voice="ryan", max_new_tokens=4000, temperature=0.9, seed=1, binary=True, speed=0.25, guard=False)
    for _ in range(QUEUED):  # more audio than the sockets' buffers hold, wherever the model's speech ends
        ws.send(json.dumps({"type": "input_text.append", "text": " ".join(["A long story goes on and on."] * 120)}))
        ws.send(json.dumps({"type": "input_text.flush"}))
    return ws


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's RSS from /proc")
def test_a_client_that_stops_reading_holds_memory_flat_while_another_is_served(tmp_path_factory):
    server = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--max-active", "8")
    with connect(server) as ws:  # warm: the same paths once, read in full
        ours(ws, voice="ryan", max_new_tokens=40, temperature=0.9, seed=1, binary=True)
        speak_ours(ws, "Warm up.")
    stalled = [stalled_client(server) for _ in range(3)]
    try:
        time.sleep(3)
        served = serve(server)  # once beside the stalled rows before measuring
        start, peak = rss(server.proc.pid), 0
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            served += serve(server)
            peak = max(peak, rss(server.proc.pid))
            time.sleep(1)
        assert served >= 4 and peak - start < RSS_MARGIN, (start, peak)
        # Past SEND_S without a read, each stalled session ended: its request freed, its socket closed with why.
        # The close frame waits behind the audio the client has not read: the server's log says why (past SEND_S,
        # or the server's keepalive ping unanswered, whichever comes first), and the client finds its socket closed.
        # The engine may finish a stalled row's utterance while its audio still waits to be sent, so "no row
        # active" does not mean "ended": the log's reasons are waited for, then no row may be left behind.
        def ended() -> int:
            log = server.log_path.read_text()
            return log.count(f"closed: the client read nothing for {SEND_S} s") + log.count("the connection was lost")

        assert wait_until(lambda: ended() >= len(stalled), SEND_S + 90, step=0.5)
        assert ended() == len(stalled), server.log_path.read_text()[-2000:]
        assert wait_until(lambda: server.health()["active"] == 0, 30)
        for ws in stalled:
            with pytest.raises(ConnectionClosed):
                for _ in range(100_000):
                    ws.recv(timeout=TIMEOUT)
    finally:
        for ws in stalled:
            ws.socket.close()
