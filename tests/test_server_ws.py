"""WebSocket /v1/audio/speech/stream: text in as it is written, audio out as it is made.
A real server process on 127.0.0.1 and the `websockets` client; every wait bounded."""

import base64
import io
import json
import time

import httpx
import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

from server_harness import API_KEY, shared_server, wait_until  # noqa: E402

TEXT = "Well, here is a sentence that arrives word by word, as an LLM writes it."
FRAME = 1920
TIMEOUT = 60


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,
                         "--max-active", "8", "--max-queue", "4")


def connect(server, key=API_KEY, **kw):
    url = server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    headers = {"Authorization": f"Bearer {key}"} if key else None
    return ws_client.connect(url, additional_headers=headers, open_timeout=TIMEOUT, **kw)


def recv(ws):
    return json.loads(ws.recv(timeout=TIMEOUT))


def open_session(ws, **session):
    assert recv(ws)["type"] == "session.created"
    ws.send(json.dumps({"type": "session.update", "session": session}))
    event = recv(ws)
    assert event["type"] == "session.updated", event
    return event["session"]


def collect_until_done(ws, limit=2000):
    """(audio bytes, done event, other events) of one utterance."""
    audio, others = [], []
    for _ in range(limit):
        event = recv(ws)
        if event["type"] == "speech.audio.delta":
            audio.append(base64.b64decode(event["audio"]))
        elif event["type"] == "speech.audio.done":
            return b"".join(audio), event, others
        else:
            others.append(event)
    raise AssertionError("no speech.audio.done")


def whole_text_pcm(server, text, **body):
    response = httpx.post(server.url + "/v1/audio/speech", headers={"Authorization": f"Bearer {API_KEY}"},
                          json={"model": "tts-1", "input": text, "response_format": "pcm", **body}, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    return response.content


def test_first_delta_before_end_and_greedy_output_equals_whole_text(server):
    settings = dict(voice="ryan", temperature=0, max_new_tokens=20)
    with connect(server) as ws:
        session = open_session(ws, **settings)
        assert session["voice"] == "ryan" and session["response_format"] == "pcm"
        words = TEXT.split(" ")
        for i, word in enumerate(words):
            ws.send(json.dumps({"type": "input_text.append", "text": word + ("" if i == len(words) - 1 else " ")}))
        # No flush, no end yet: audio must already come.
        first = recv(ws)
        assert first["type"] == "speech.audio.delta" and first["seq"] == 0
        ws.send(json.dumps({"type": "input_text.end"}))
        rest, done, others = collect_until_done(ws)
        assert not others
        audio = base64.b64decode(first["audio"]) + rest
        assert done["usage"]["output_tokens"] == 20 and not done["cancelled"]
        with pytest.raises(Exception):  # the server closes the session after its last audio
            ws.recv(timeout=TIMEOUT)
    want = whole_text_pcm(server, TEXT, text_mode="streaming", **settings)
    got, ref = np.frombuffer(audio, "<i2"), np.frombuffer(want, "<i2")
    assert got.shape == ref.shape == (20 * FRAME,)
    assert np.abs(got.astype(int) - ref).max() <= 2


def test_pieces_are_joined_exactly_as_sent(server):
    """Mid-word splits and characters split across pieces speak the same as the whole text."""
    text = "Splitting mid-word: extraordinary! 你好，世界。"
    settings = dict(voice="vivian", temperature=0, max_new_tokens=12)
    with connect(server) as ws:
        open_session(ws, **settings)
        for i in range(0, len(text), 3):
            ws.send(json.dumps({"type": "input_text.append", "text": text[i : i + 3]}))
        ws.send(json.dumps({"type": "input_text.end"}))
        audio, done, _ = collect_until_done(ws)
    assert audio == whole_text_pcm(server, text, text_mode="streaming", **settings)


LONG = " ".join(["Alpha bravo."] * 28)  # over 300 characters: two pieces; greedy, the first ends at frame 132


def test_a_long_text_written_word_by_word_is_cut_as_it_whole(server):
    """One text path: text arriving word by word is cut where the whole text is cut, so it sounds as the
    whole text over HTTP but for the first 5 ms (a streamed text's start is not faded)."""
    with connect(server) as ws:
        open_session(ws, voice="ryan", temperature=0, max_new_tokens=170)
        for word in LONG.split(" "):
            ws.send(json.dumps({"type": "input_text.append", "text": word + " "}))
        ws.send(json.dumps({"type": "input_text.end"}))
        audio, done, others = collect_until_done(ws)
    assert not others and not done["cancelled"]
    want = whole_text_pcm(server, LONG, voice="ryan", temperature=0, max_new_tokens=170, text_mode="streaming")
    got, ref = np.frombuffer(audio, "<i2").astype(int), np.frombuffer(want, "<i2").astype(int)
    assert got.shape == ref.shape and got.shape[0] % FRAME != 0  # the pause between the pieces
    assert np.abs(got[120:] - ref[120:]).max() <= 2


def test_an_emoji_split_into_its_surrogates_across_appends_is_joined(server):
    """A JavaScript client slicing a string by index sends an emoji's UTF-16 halves in two appends;
    json.dumps escapes each half as \\ud83d, \\ude00, exactly as JSON.stringify does."""
    text = "Well done \U0001F600 work."
    halves = ["Well done \ud83d", "\ude00 work."]
    assert "".join(halves).encode("utf-16", "surrogatepass").decode("utf-16") == text
    settings = dict(voice="ryan", temperature=0, max_new_tokens=8)
    with connect(server) as ws:
        open_session(ws, **settings)
        for piece in halves:
            ws.send(json.dumps({"type": "input_text.append", "text": piece}))
        ws.send(json.dumps({"type": "input_text.end"}))
        audio, done, others = collect_until_done(ws)
    assert not others and done["usage"]["output_tokens"] == 8
    assert audio == whole_text_pcm(server, text, text_mode="streaming", **settings)


@pytest.mark.parametrize("ending", ["input_text.flush", "input_text.end"])
def test_a_high_surrogate_left_lone_by_the_end_of_an_utterance_is_refused(server, ending):
    """No low surrogate can follow once the utterance ends: an error event, the text before it is
    spoken, and the session goes on (after a flush) or ends as asked (after the end)."""
    with connect(server) as ws:
        open_session(ws, voice="ryan", temperature=0, max_new_tokens=3)
        ws.send(json.dumps({"type": "input_text.append", "text": "Almost \ud83d"}))
        ws.send(json.dumps({"type": ending}))
        audio, done, others = collect_until_done(ws)
        assert len(audio) == 2 * 3 * FRAME and not done["cancelled"]
        assert [e["type"] for e in others] == ["error"], others
        assert "lone surrogate (U+D83D)" in others[0]["error"]["message"]
        assert others[0]["error"]["param"] == "text"
        if ending == "input_text.end":
            with pytest.raises(Exception):  # ended as asked, after its audio
                ws.recv(timeout=TIMEOUT)
            return
        ws.send(json.dumps({"type": "input_text.append", "text": "\ude00 Still here."}))  # lone too, now
        assert "lone surrogate (U+DE00)" in recv(ws)["error"]["message"]
        ws.send(json.dumps({"type": "input_text.append", "text": "Still here."}))
        ws.send(json.dumps({"type": "input_text.end"}))
        audio, done, others = collect_until_done(ws)
        assert len(audio) == 2 * 3 * FRAME and not others


def test_flush_starts_a_second_utterance_with_the_same_settings_and_wav_binary(server):
    with connect(server) as ws:
        open_session(ws, voice="serena", temperature=0, max_new_tokens=5, response_format="wav", binary=True)
        for text in ("First one.", "Second one."):
            ws.send(json.dumps({"type": "input_text.append", "text": text}))
            ws.send(json.dumps({"type": "input_text.flush"}))
        for _ in range(2):
            frames = []
            for _ in range(100):
                message = ws.recv(timeout=TIMEOUT)
                if isinstance(message, bytes):
                    frames.append(message)
                    continue
                event = json.loads(message)
                assert event["type"] == "speech.audio.done", event
                break
            data = b"".join(frames)
            assert data.startswith(b"RIFF") and data.count(b"RIFF") == 1
            audio, rate = sf.read(io.BytesIO(data))
            assert (rate, len(audio)) == (24000, 5 * FRAME)
        ws.send(json.dumps({"type": "input_text.end"}))


def test_cancel_drops_the_utterance_and_frees_the_row(server):
    assert wait_until(lambda: server.health()["active"] == 0, 30)
    with connect(server) as ws:
        open_session(ws, voice="aiden", max_new_tokens=4000, temperature=0)  # no EOS before 300 frames
        ws.send(json.dumps({"type": "input_text.append", "text": TEXT}))
        assert recv(ws)["type"] == "speech.audio.delta"
        ws.send(json.dumps({"type": "cancel"}))
        for _ in range(500):
            event = recv(ws)
            if event["type"] == "speech.audio.done":
                break
        assert event["cancelled"] is True
        assert wait_until(lambda: server.health()["active"] == 0, 10)
        # the session goes on
        ws.send(json.dumps({"type": "session.update", "session": {"max_new_tokens": 3, "temperature": 0}}))
        assert recv(ws)["type"] == "session.updated"
        ws.send(json.dumps({"type": "input_text.append", "text": "Again."}))
        ws.send(json.dumps({"type": "input_text.end"}))
        audio, done, _ = collect_until_done(ws)
        assert len(audio) == 2 * 3 * FRAME and not done["cancelled"]


def test_disconnect_frees_the_row(server):
    assert wait_until(lambda: server.health()["active"] == 0, 30)
    ws = connect(server)
    open_session(ws, voice="aiden", max_new_tokens=4000, temperature=0)  # no EOS before 300 frames
    ws.send(json.dumps({"type": "input_text.append", "text": TEXT}))
    assert recv(ws)["type"] == "speech.audio.delta"
    assert server.health()["active"] == 1
    ws.close()
    start = time.monotonic()
    assert wait_until(lambda: server.health()["active"] == 0, 10)
    assert time.monotonic() - start < 5


def test_bad_messages_get_error_events_and_the_session_stays_usable(server):
    with connect(server) as ws:
        open_session(ws, voice="ryan", max_new_tokens=3, temperature=0)
        bad = ["{not json", "[1]", json.dumps({"type": "nope"}), json.dumps({"type": "input_text.append", "text": 5}),
               json.dumps({"type": "session.update", "session": {"voice": "nobody"}}),
               json.dumps({"type": "session.update", "session": {"response_format": "mp3"}}),
               json.dumps({"type": "session.update", "session": {"speed": 9}})]
        for message in bad:
            ws.send(message)
            event = recv(ws)
            assert event["type"] == "error" and event["error"]["message"], (message, event)
        ws.send(json.dumps({"type": "input_text.append", "text": "Still here."}))
        ws.send(json.dumps({"type": "input_text.end"}))
        audio, done, others = collect_until_done(ws)
        assert len(audio) == 2 * 3 * FRAME and not others


def test_utterance_length_limit_is_stated(server):
    with connect(server) as ws:
        open_session(ws, voice="ryan", max_new_tokens=2)
        ws.send(json.dumps({"type": "input_text.append", "text": "a" * 4000}))
        ws.send(json.dumps({"type": "input_text.append", "text": "b" * 200}))
        for _ in range(200):
            event = recv(ws)
            if event["type"] == "error":
                break
        assert "4,096 characters" in event["error"]["message"]


def test_key_is_required(server):
    with pytest.raises(Exception) as caught:
        with connect(server, key=None):
            pass
    assert "403" in str(caught.value) or "1008" in str(caught.value)
    # browsers cannot set headers: the key may come as a subprotocol
    url = server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    with ws_client.connect(url, subprotocols=[f"openai-insecure-api-key.{API_KEY}"], open_timeout=TIMEOUT) as ws:
        assert recv(ws)["type"] == "session.created"
