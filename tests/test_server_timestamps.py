"""Word timestamps on /v1/audio/speech (`timestamps: true`, a server started with --aligner; issue 44),
as clients reach them: the official `openai` SDK's raw response (a JSON body with the audio in base64)
and a plain SSE reader (a `speech.timestamps` event after the audio). A real server on 127.0.0.1 with
the tiny checkpoints."""

import base64
import io
import json

import httpx
import numpy as np
import pytest
import soundfile as sf

openai = pytest.importorskip("openai")

from fixture_checkpoints import aligner_dir  # noqa: E402
from mlx_qwen3tts.aligner.words import split_words  # noqa: E402
from server_harness import API_KEY, shared_server  # noqa: E402

SR = 24000
TEXT = "Hello there, it's a test of 42 words. 我爱 Python!"
BODY = {"model": "tts-1", "input": TEXT, "voice": "serena", "temperature": 0, "max_new_tokens": 24}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return shared_server("custom_voice-0b6", root, "--api-key", API_KEY, "--aligner", str(aligner_dir(root)))


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=120) as c:
        yield c


def check_words(words, seconds):
    assert [w["word"] for w in words] == split_words(TEXT, "auto")
    starts = [w["start_time"] for w in words]
    assert starts == sorted(starts)
    assert all(0 <= w["start_time"] <= w["end_time"] for w in words)
    assert words[-1]["end_time"] <= seconds + 0.001  # inside the audio


def test_sdk_raw_response_gives_audio_and_word_times(server):
    client = openai.OpenAI(base_url=server.url + "/v1", api_key=API_KEY, max_retries=0, timeout=120)
    response = client.audio.speech.with_raw_response.create(
        model="tts-1", voice="serena", input=TEXT, response_format="wav",
        extra_body={"timestamps": True, "temperature": 0, "max_new_tokens": 24})
    body = response.http_response.json()
    assert response.http_response.headers["content-type"].startswith("application/json")
    assert body["response_format"] == "wav" and body["sample_rate"] == SR
    audio, rate = sf.read(io.BytesIO(base64.b64decode(body["audio"])), dtype="float32")
    assert rate == SR and audio.shape[0] > 0
    check_words(body["timestamps"], audio.shape[0] / SR)


def test_sse_reader_gets_a_timing_event_after_the_audio(http):
    whole = http.post("/v1/audio/speech", json={**BODY, "timestamps": True, "response_format": "pcm"}).json()
    with http.stream("POST", "/v1/audio/speech", json={**BODY, "timestamps": True, "response_format": "pcm",
                                                       "stream_format": "sse"}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = [json.loads(line[6:]) for line in response.iter_lines() if line.startswith("data: ")]
    kinds = [e["type"] for e in events]
    assert kinds[-2:] == ["speech.timestamps", "speech.audio.done"] and kinds.count("speech.timestamps") == 1
    assert set(kinds[:-2]) == {"speech.audio.delta"}
    streamed = b"".join(base64.b64decode(e["audio"]) for e in events if e["type"] == "speech.audio.delta")
    assert streamed == base64.b64decode(whole["audio"])  # greedy: the same audio, so the same words
    assert events[-2]["timestamps"] == whole["timestamps"]
    check_words(whole["timestamps"], len(streamed) / 2 / SR)


def test_speed_scales_the_times_with_the_audio(http):
    normal = http.post("/v1/audio/speech", json={**BODY, "timestamps": True}).json()["timestamps"]
    fast = http.post("/v1/audio/speech", json={**BODY, "timestamps": True, "speed": 2.0}).json()["timestamps"]
    assert [w["word"] for w in fast] == [w["word"] for w in normal]
    for a, b in zip(normal, fast):
        assert abs(b["start_time"] - a["start_time"] / 2) <= 0.001 and abs(b["end_time"] - a["end_time"] / 2) <= 0.001


def test_without_timestamps_the_answer_is_the_audio_file(http):
    response = http.post("/v1/audio/speech", json={**BODY, "response_format": "wav"})
    assert response.headers["content-type"] == "audio/wav"


@pytest.mark.parametrize("body, param, words", [
    ({"timestamps": "yes"}, "timestamps", "true or false"),
    ({"timestamps": True, "stream_format": "audio"}, "timestamps", "stream_format 'sse'"),
    ({"timestamps": True, "language": "korean"}, "language", "Korean needs soynlp"),
])
def test_bad_timestamp_requests_are_400_with_the_field(http, body, param, words):
    response = http.post("/v1/audio/speech", json={**BODY, **body})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["param"] == param and words in error["message"]


def test_an_8_bit_aligner_serves_the_same_words(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    eight = shared_server("custom_voice-0b6", root, "--api-key", API_KEY, "--aligner", str(aligner_dir(root)),
                          "--aligner-bits", "8")
    response = httpx.post(eight.url + "/v1/audio/speech", json={**BODY, "timestamps": True, "response_format": "pcm"},
                          headers={"Authorization": f"Bearer {API_KEY}"}, timeout=120)
    check_words(response.json()["timestamps"], len(base64.b64decode(response.json()["audio"])) / 2 / SR)


def test_aligner_bits_without_an_aligner_is_one_error_line():
    import subprocess
    import sys

    from server_harness import ROOT, env

    result = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.server", "--aligner-bits", "4", "--port", "0"],
                            capture_output=True, text=True, timeout=120, env=env(), cwd=ROOT)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["error: --aligner-bits applies to --aligner; give --aligner MODEL"]


def test_a_server_without_an_aligner_says_how_to_get_one(tmp_path_factory):
    plain = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,  # test_server's
                          "--max-active", "8", "--max-queue", "4", "--prefill-budget", "50")
    response = httpx.post(plain.url + "/v1/audio/speech", json={**BODY, "timestamps": True},
                          headers={"Authorization": f"Bearer {API_KEY}"}, timeout=60)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == "timestamps" and error["code"] == "timestamps_unavailable"
    assert "--aligner" in error["message"]


@pytest.mark.parametrize("code", ["en", "en-GB"])
def test_an_iso_language_code_gets_word_times(http, code):
    """Issue 51: docs/server.md takes `"language": "en"`; with timestamps it was 400 after the audio was made."""
    response = http.post("/v1/audio/speech", json={**BODY, "timestamps": True, "language": code,
                                                   "response_format": "pcm"})
    assert response.status_code == 200, response.text
    body = response.json()
    check_words(body["timestamps"], len(base64.b64decode(body["audio"])) / 2 / SR)


@pytest.mark.parametrize("stream", [{}, {"stream_format": "sse"}])
def test_korean_by_its_code_is_refused_before_any_audio(http, stream):
    """Issue 51: `"language": "ko"` with SSE streamed all the audio and then an error event; now a 400 first."""
    body = {**BODY, "timestamps": True, "language": "ko", "response_format": "pcm", **stream}
    with http.stream("POST", "/v1/audio/speech", json=body) as response:
        response.read()
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["param"] == "language" and "Korean needs soynlp" in error["message"]
