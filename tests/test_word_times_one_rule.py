"""One rule for every word time (issue 65 item 2): each timed word is a word as written (what the user sent), with
the time its spoken form took; every path gives a request the same words at the same times (greedy: the same
audio). The paths: the command line's captions (`--text-file --caption-words`), and a real server on 127.0.0.1
with its whole HTTP answer, SSE, our WebSocket and vLLM-Omni's."""

import base64
import json
import subprocess
import sys

import httpx
import pytest

pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

from fixture_checkpoints import aligner_dir, checkpoint_dir  # noqa: E402
from mlx_qwen3tts.aligner.words import split_words  # noqa: E402
from server_harness import ROOT, env, shared_server  # noqa: E402

RATE = 24000
TIMEOUT = 120
FRAMES = 24
AMOUNT = ("Das kostet 12,50 € heute.", "German")  # spoken "Das kostet zwölf Euro fünfzig heute."
PLAIN = ("Through the balancer the packets travel to every worker and back again.", "English")
SETTINGS = {"voice": "serena", "temperature": 0, "max_new_tokens": FRAMES}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return shared_server("custom_voice-0b6", root, "--aligner", str(aligner_dir(root)))


def listed(words, start="start_time", end="end_time", scale=1.0):
    return [(w["word"], round(w[start] * scale, 3), round(w[end] * scale, 3)) for w in words]


def whole(server, text, language):
    answer = httpx.post(server.url + "/v1/audio/speech", timeout=TIMEOUT, json={
        "model": "tts-1", "input": text, "language": language, "response_format": "pcm", "timestamps": True,
        **SETTINGS})
    assert answer.status_code == 200, answer.text
    return listed(answer.json()["timestamps"])


def sse(server, text, language):
    body = {"model": "tts-1", "input": text, "language": language, "response_format": "pcm", "timestamps": True,
            "stream_format": "sse", **SETTINGS}
    with httpx.stream("POST", server.url + "/v1/audio/speech", json=body, timeout=TIMEOUT) as response:
        events = [json.loads(line[6:]) for line in response.iter_lines() if line.startswith("data: ")]
    return [w for e in events if e["type"] == "speech.timestamps" for w in listed(e["timestamps"])]


def socket_url(server):
    return server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"


def ours(server, text, language):
    """Our dialect: the text appended word by word, then input_text.end."""
    with ws_client.connect(socket_url(server), open_timeout=TIMEOUT) as ws:
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": {"language": language, "timestamps": True,
                                                                  **SETTINGS}}))
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "session.updated"
        for word in text.split(" "):
            ws.send(json.dumps({"type": "input_text.append", "text": word + " "}))
        ws.send(json.dumps({"type": "input_text.end"}))
        words = []
        for _ in range(2000):
            event = json.loads(ws.recv(timeout=TIMEOUT))
            assert event["type"] != "error", event
            if event["type"] == "speech.timestamps":
                words += listed(event["timestamps"])
            if event["type"] == "speech.audio.done":
                return words
    raise AssertionError("no speech.audio.done")


def omni(server, text, language):
    """vLLM-Omni's dialect: session.config with word_timestamps, the text, input.done; a sentence's words in its
    last audio.chunk, in ms of the sentence (one sentence here: of the answer)."""
    with ws_client.connect(socket_url(server), open_timeout=TIMEOUT) as ws:
        ws.send(json.dumps({"type": "session.config", "language": language, "response_format": "pcm",
                            "stream_audio": True, "word_timestamps": True, **SETTINGS}))
        ws.send(json.dumps({"type": "input.text", "text": text}))
        ws.send(json.dumps({"type": "input.done"}))
        words = []
        for _ in range(2000):
            event = json.loads(ws.recv(timeout=TIMEOUT))
            assert event["type"] != "error", event
            if event["type"] == "audio.chunk" and event["timestamps"] is not None:
                words += listed(event["timestamps"], "start_ms", "end_ms", 0.001)
            if event["type"] == "session.done":
                return words
    raise AssertionError("no session.done")


def captions(tmp_path, text, language):
    """The command line's word captions of the text as a file (one sentence: one cue), times in seconds."""
    root = tmp_path.parent.parent
    source = tmp_path / "text.txt"
    source.write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--model",
                          str(checkpoint_dir("custom_voice-0b6", root)), "--text-file", str(source), "--language",
                          language, "--speaker", "serena", "--temperature", "0", "--max-tokens", str(FRAMES),
                          "--caption-words", "--aligner", str(aligner_dir(root)), "--captions",
                          str(tmp_path / "c.json"), "-o", str(tmp_path / "c.wav"), "-q"],
                         env=env(), cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    (cue,) = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["cues"]
    return [(w["text"], round(w["start"] / RATE, 3), round(w["end"] / RATE, 3)) for w in cue["words"]]


@pytest.mark.parametrize("text, language", [AMOUNT, PLAIN], ids=["amount", "plain"])
def test_every_path_times_the_written_words_alike(server, tmp_path, text, language):
    got = whole(server, text, language)
    assert [w for w, _, _ in got] == split_words(text, language)  # "12,50" as written ("1250"), not "zwölf"
    assert all(0 <= start <= end for _, start, end in got)
    assert sse(server, text, language) == got
    assert ours(server, text, language) == got
    assert omni(server, text, language) == got
    assert captions(tmp_path, text, language) == got
