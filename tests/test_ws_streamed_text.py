"""Streamed text over both WebSocket dialects is never held or cut, and sessions cannot be flooded (issue 65):
what a client has sent is spoken after a short pause without more (docs/server.md, --ws-pause), however short;
the idle timeout speaks what came and ends the utterance with its done event, with no error before its audio;
an empty append is ignored; a session with nothing open closes after its idle timeout; sessions past the cap
are refused at the handshake with a 503, logged and counted. A real server process on 127.0.0.1 with the tiny
checkpoint and the `websockets` client; every wait bounded."""

import base64
import json
import time

import httpx
import numpy as np
import pytest

pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from server_harness import shared_server, wait_until  # noqa: E402
from test_server_sessions import connect, omni, ours, recv, until  # noqa: E402

TIMEOUT = 60
AUDIO_WITHIN_S = 12  # first audio of a paused text, at most (0.5 s pause, the rest the tiny model on a loaded CPU)
PIECES = ["Through ", "the ", "balancer."]
GREEDY = {"voice": "ryan", "temperature": 0, "max_new_tokens": 24}
IDLE_S = 3  # the idle server's --ws-idle-timeout and --ws-session-idle-timeout


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def idle_server(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--ws-idle-timeout", str(IDLE_S),
                         "--ws-session-idle-timeout", str(IDLE_S))


def pcm_of(events) -> bytes:
    return b"".join(e if isinstance(e, bytes) else base64.b64decode(e["audio"]) for e in events
                    if isinstance(e, bytes) or e.get("type") == "speech.audio.delta")


def kinds(events) -> list:
    return [e["type"] for e in events if isinstance(e, dict)]


def whole_text_pcm(server, text, **body) -> bytes:
    response = httpx.post(server.url + "/v1/audio/speech", timeout=TIMEOUT, json={
        "model": "tts-1", "input": text, "response_format": "pcm", **GREEDY, **body})
    assert response.status_code == 200, response.text
    return response.content


def same_audio(got: bytes, server, text, text_mode="streaming") -> bool:
    """Whether `got` is the whole text's audio (spoken in `text_mode`, as text streamed in is), every sample (to the
    2 LSB the test_server_ws check allows)."""
    got, want = np.frombuffer(got, "<i2"), np.frombuffer(whole_text_pcm(server, text, text_mode=text_mode), "<i2")
    return got.shape == want.shape and want.size > 0 and np.abs(got.astype(int) - want).max() <= 2


def send_all(ws, messages):
    for message in messages:
        ws.send(json.dumps(message))


def test_short_text_is_spoken_after_a_pause_without_its_end_in_our_dialect(server):
    """The pieces of a short sentence, then nothing (a client waiting for audio before it ends): the audio comes
    after the pause, all of it (as the whole text's), and the utterance stays open until the client ends it."""
    with connect(server) as ws:
        ours(ws, **GREEDY)
        start = time.monotonic()
        send_all(ws, [{"type": "input_text.append", "text": p} for p in PIECES])
        first = recv(ws, AUDIO_WITHIN_S)
        assert first["type"] == "speech.audio.delta", first
        assert time.monotonic() - start < AUDIO_WITHIN_S
        events = [first]
        try:
            while True:  # the rest of the audio, and no done event: the utterance has not ended
                events.append(recv(ws, 3))
        except TimeoutError:
            pass
        assert kinds(events) == ["speech.audio.delta"] * len(events), kinds(events)
        heard = pcm_of(events)
        send_all(ws, [{"type": "input_text.append", "text": "And"}, {"type": "input_text.end"}])
        rest = until(ws, "speech.audio.done")
        assert "error" not in kinds(rest), rest
    assert same_audio(heard, server, "".join(PIECES))  # nothing held, nothing cut
    assert same_audio(pcm_of(rest), server, "And")  # the text after the pause: the utterance's next request


def test_short_text_is_spoken_after_a_pause_without_input_done_in_vllm_omnis_dialect(server):
    with connect(server) as ws:
        omni(ws, streaming_mode="token_level", **GREEDY)
        start = time.monotonic()
        send_all(ws, [{"type": "input.text", "text": p} for p in PIECES])
        events = until(ws, "audio.done", AUDIO_WITHIN_S)
        assert time.monotonic() - start < AUDIO_WITHIN_S
        assert kinds(events) == ["audio.start", "audio.done"] and events[0]["sentence_text"] == "".join(PIECES)
        send_all(ws, [{"type": "input.text", "text": "And"}, {"type": "input.done"}])
        rest = until(ws, "session.done")
        assert kinds(rest) == ["audio.start", "audio.done", "session.done"], kinds(rest)
        assert rest[0]["sentence_index"] == 1 and rest[-1]["total_sentences"] == 2  # one utterance, counted on
    assert same_audio(pcm_of(events), server, "".join(PIECES))
    assert same_audio(pcm_of(rest), server, "And")


def test_the_idle_timeout_speaks_what_came_and_ends_the_utterance_with_its_done_event(idle_server):
    """Our dialect: the text after its pause, then the done event once the idle timeout ends the utterance; no error
    at all. vLLM-Omni's (streaming_mode none, spoken once input.done comes): the idle timeout ends it as input.done
    would, its sentence then session.done, no error. The audio is the whole text's, to the last byte."""
    text = "".join(PIECES)
    with connect(idle_server) as ws:
        ours(ws, **GREEDY)
        send_all(ws, [{"type": "input_text.append", "text": p} for p in PIECES])
        events = until(ws, "speech.audio.done", IDLE_S + AUDIO_WITHIN_S)
        assert "error" not in kinds(events) and not events[-1]["cancelled"], events
        assert same_audio(pcm_of(events), idle_server, text)
    with connect(idle_server) as ws:
        omni(ws, response_format="pcm", stream_audio=True, **GREEDY)
        send_all(ws, [{"type": "input.text", "text": p} for p in PIECES])
        events = until(ws, "session.done", IDLE_S + AUDIO_WITHIN_S)
        assert kinds(events) == ["audio.start", "audio.done", "session.done"], kinds(events)
        assert same_audio(pcm_of(events), idle_server, text, None)  # a whole text: as HTTP speaks it


def test_a_session_with_nothing_open_closes_after_its_idle_timeout(idle_server):
    """Before any text, and after its audio has all gone out, in both dialects: closed with 1000 and a reason."""
    for opening in (None, {"type": "session.config", "voice": "ryan"}):
        with connect(idle_server) as ws:
            if opening is not None:
                ws.send(json.dumps(opening))
            else:
                assert recv(ws)["type"] == "session.created"
            start = time.monotonic()
            with pytest.raises(ConnectionClosed) as closed:
                recv(ws, IDLE_S + 10)
            assert IDLE_S - 0.5 < time.monotonic() - start < IDLE_S + 10
            assert closed.value.rcvd.code == 1000 and "no message" in closed.value.rcvd.reason
    with connect(idle_server) as ws:
        ours(ws, **GREEDY)
        send_all(ws, [{"type": "input_text.append", "text": "Hi."}, {"type": "input_text.flush"}])
        until(ws, "speech.audio.done")
        with pytest.raises(ConnectionClosed) as closed:
            recv(ws, IDLE_S + 10)
        assert closed.value.rcvd.code == 1000


def test_empty_appends_are_ignored_at_a_cost_that_does_not_grow(server):
    """An empty append is no piece and gets no event, in both dialects: an utterance of empty appends alone, ended,
    speaks nothing and says no error; each costs the same however many came before it (the utterance's length is a
    running count), so ten times as many take about ten times as long, not a hundred."""
    with connect(server) as ws:
        ours(ws, **GREEDY)
        send_all(ws, [{"type": "input_text.append", "text": ""}] * 3 + [{"type": "input_text.flush"}])
        events = until(ws, "speech.audio.done")
        assert kinds(events) == ["speech.audio.done"], events
    per_message = {}
    for n in (3000, 30000):
        for dialect in ("ours", "omni"):
            with connect(server) as ws:
                if dialect == "ours":
                    ours(ws, **GREEDY)
                    empty, end, done = {"type": "input_text.append", "text": ""}, {"type": "input_text.flush"}, \
                        "speech.audio.done"
                else:
                    omni(ws, streaming_mode="token_level", **GREEDY)
                    empty, end, done = {"type": "input.text", "text": ""}, {"type": "input.done"}, "session.done"
                start = time.monotonic()
                send_all(ws, [empty] * n + [end])
                events = until(ws, done, 120)
                assert "error" not in kinds(events), events
                per_message[dialect, n] = (time.monotonic() - start) / n
    for dialect in ("ours", "omni"):
        assert per_message[dialect, 30000] < 2.5 * per_message[dialect, 3000], per_message


@pytest.fixture(scope="module")
def capped_server(tmp_path_factory):
    """At most 2 sessions, set by the environment variable (the flag's twin)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MLX_QWEN3TTS_WS_MAX_SESSIONS", "2")
        return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--ws-pause", "0.4")


def metric(server, name) -> float:
    text = httpx.get(server.url + "/metrics", timeout=TIMEOUT).text
    line = next(ln for ln in text.splitlines() if ln.startswith(f'mlx_qwen3tts_{name}{{protocol="websocket"}}'))
    return float(line.split()[-1])


def test_sessions_past_the_cap_are_refused_at_the_handshake_logged_and_counted(capped_server):
    refused = metric(capped_server, "refused_sessions_total")
    with connect(capped_server) as one, connect(capped_server) as two:
        assert recv(one)["type"] == recv(two)["type"] == "session.created"
        with pytest.raises(InvalidStatus) as third:
            connect(capped_server)
        response = third.value.response
        assert response.status_code == 503 and b"--ws-max-sessions" in response.body
        assert metric(capped_server, "open_sessions") == 2
        assert metric(capped_server, "refused_sessions_total") == refused + 1
        assert wait_until(lambda: "WebSocket session was refused" in capped_server.output(), 10)
        send_all(one, [{"type": "input_text.append", "text": "Hi."}, {"type": "input_text.end"}])
        until(one, "speech.audio.done")  # the sessions held go on
    assert wait_until(lambda: metric(capped_server, "open_sessions") == 0, TIMEOUT)
    with connect(capped_server) as again:  # and once one has ended, the next is taken
        assert recv(again)["type"] == "session.created"
