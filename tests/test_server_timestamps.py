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
# "normalize": false: the words timed are the text's as written (its "42"), whole or in pieces
BODY = {"model": "tts-1", "input": TEXT, "voice": "serena", "temperature": 0, "max_new_tokens": 24, "normalize": False}


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


LONG = ("The first sentence is a long one, and it runs on with clauses about rivers, hills and 42 small towns along "
        "the coast until it finally ends here. A second sentence follows it, just as long, telling of boats, nets and "
        "the 7 fishermen who sailed at dawn each day of that long summer. Then a short third one, said slowly by the "
        "old man at the door.")  # over 300 characters: spoken in two pieces
LONG_BODY = {"model": "tts-1", "input": LONG, "voice": "serena", "temperature": 0, "response_format": "pcm",
             "timestamps": True, "normalize": False}


def sse_events(http, body):
    with http.stream("POST", "/v1/audio/speech", json={**body, "stream_format": "sse"}) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        return [json.loads(line[6:]) for line in response.iter_lines() if line.startswith("data: ")]


@pytest.fixture(scope="module")
def long_stream(http):
    return sse_events(http, LONG_BODY)


def test_sse_gives_each_pieces_words_right_after_its_audio(http, long_stream):
    """Issue 50: one `speech.timestamps` event per piece, after that piece's audio and before the next piece's
    audio ends, not one after all of it; together they hold the words of the answer aligned whole."""
    from mlx_qwen3tts.text import split_sentences

    pieces = split_sentences(LONG, 300)
    kinds = [e["type"] for e in long_stream]
    timed = [i for i, kind in enumerate(kinds) if kind == "speech.timestamps"]
    assert len(pieces) == 2 and [long_stream[i]["piece"] for i in timed] == [0, 1]
    assert kinds[-1] == "speech.audio.done" and timed[0] < max(i for i, k in enumerate(kinds) if k == "speech.audio.delta")
    heard = 0  # seconds of audio before each event: its piece's audio has all gone out
    for event in long_stream:
        if event["type"] == "speech.audio.delta":
            heard += len(base64.b64decode(event["audio"])) / 2 / SR
        elif event["type"] == "speech.timestamps":
            assert event["end_time"] <= heard + 0.001
            assert all(event["start_time"] <= w["start_time"] <= w["end_time"] <= event["end_time"]
                       for w in event["timestamps"])
    whole = http.post("/v1/audio/speech", json=LONG_BODY).json()
    streamed = b"".join(base64.b64decode(e["audio"]) for e in long_stream if e["type"] == "speech.audio.delta")
    assert streamed == base64.b64decode(whole["audio"])  # greedy: the same audio
    assert [w["word"] for i in timed for w in long_stream[i]["timestamps"]] == [w["word"] for w in whole["timestamps"]]


def test_sse_words_are_the_aligners_over_each_pieces_own_window(http, long_stream, tmp_path_factory):
    """The stated difference from the whole answer's alignment: each piece is aligned over its own window (from
    the end of the piece before, the pause included, to its last sample), its times shifted by the window's start;
    the first window ends where the first piece spoken alone ends."""
    from mlx_qwen3tts import aligner as aligner_api
    from mlx_qwen3tts.text import split_sentences

    pieces = split_sentences(LONG, 300)
    first_alone = http.post("/v1/audio/speech", json={**LONG_BODY, "input": pieces[0]}).json()
    n0 = len(base64.b64decode(first_alone["audio"])) // 2
    audio = np.frombuffer(b"".join(base64.b64decode(e["audio"]) for e in long_stream
                                   if e["type"] == "speech.audio.delta"), "<i2").astype(np.float32) / 32768
    events = [e for e in long_stream if e["type"] == "speech.timestamps"]
    assert [e["start_time"] for e in events] == [0.0, round(n0 / SR, 3)]
    assert [e["end_time"] for e in events] == [round(n0 / SR, 3), round(audio.shape[0] / SR, 3)]
    aligner = aligner_api.load(str(aligner_dir(tmp_path_factory.getbasetemp())))
    for piece, event, (a, b) in zip(pieces, events, [(0, n0), (n0, audio.shape[0])]):
        seconds = (b - a) / SR
        expected = [(w.text, round(a / SR + min(w.start, seconds), 3), round(a / SR + min(w.end, seconds), 3))
                    for w in aligner.align(audio[a:b], SR, piece, "auto")]
        got = [(w["word"], w["start_time"], w["end_time"]) for w in event["timestamps"]]
        assert [g[0] for g in got] == [e[0] for e in expected]
        assert all(abs(g[1] - e[1]) <= 0.002 and abs(g[2] - e[2]) <= 0.002 for g, e in zip(got, expected))


def test_each_batch_item_gets_its_own_words(http):
    """Issue 50: an item with `timestamps` carries the words of its own audio (those its request alone gets
    whole); an item without has none."""
    other = "Ein zweiter Satz, ganz anders."
    pcm = {**BODY, "response_format": "pcm"}
    items = [{**pcm, "timestamps": True}, {**pcm, "input": other, "timestamps": True}, {**pcm, "input": other}]
    data = http.post("/v1/audio/speech/batch", json={"items": items}).json()["data"]
    for item, answer in zip(items[:2], data[:2]):
        alone = http.post("/v1/audio/speech", json=item).json()
        assert answer["audio"] == alone["audio"]
        assert answer["timestamps"] == alone["timestamps"]
    check_words(data[0]["timestamps"], len(base64.b64decode(data[0]["audio"])) / 2 / SR)
    assert "timestamps" not in data[2]


def test_sse_words_at_a_speed_are_the_whole_answers_at_it(http):
    fast = {**BODY, "timestamps": True, "response_format": "pcm", "speed": 2.0}
    whole = http.post("/v1/audio/speech", json=fast).json()
    events = sse_events(http, fast)
    (timed,) = [e for e in events if e["type"] == "speech.timestamps"]
    assert timed["timestamps"] == whole["timestamps"]
    assert timed["end_time"] == round(len(base64.b64decode(whole["audio"])) / 2 / SR, 3)


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
