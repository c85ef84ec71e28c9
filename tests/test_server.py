"""The HTTP server as clients reach it: a real process on 127.0.0.1, the official `openai` SDK and
plain HTTP. The tiny random checkpoints do reach EOS, at a frame fixed by text, voice and greedy
decoding: with voice serena, TEXT runs past 300 frames (float32), so requests for fewer frames
make exactly `max_new_tokens` frames (1920 samples each at 24 kHz), which fixes every expected
duration, and long requests really are still running when a test cancels them."""

import base64
import io
import json
import socket
import threading
import time

import httpx
import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("uvicorn")
openai = pytest.importorskip("openai")

from server_harness import API_KEY, shared_server, wait_until  # noqa: E402

FRAME = 1920
SR = 24000
TEXT = "Hello there, this is a test of the speech server."


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,
                         "--max-active", "8", "--max-queue", "4", "--prefill-budget", "50")


@pytest.fixture(scope="module")
def client(server):
    return openai.OpenAI(base_url=server.url + "/v1", api_key=API_KEY, max_retries=0, timeout=120)


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=120) as c:
        yield c


def speech(http, **body):
    return http.post("/v1/audio/speech", json={"model": "tts-1", "input": TEXT, "temperature": 0, "voice": "serena",
                                               **body})


def pcm(data: bytes) -> np.ndarray:
    return np.frombuffer(data, "<i2").astype(np.float32) / 32768


@pytest.mark.parametrize("fmt,mime", [("mp3", "audio/mpeg"), ("opus", "audio/ogg"), ("flac", "audio/flac"),
                                      ("wav", "audio/wav"), ("pcm", "audio/pcm")])
def test_every_format_decodes_to_the_expected_duration(client, fmt, mime):
    frames = 10
    response = client.audio.speech.with_raw_response.create(model="tts-1", voice="serena", input=TEXT,
                                                            response_format=fmt, extra_body={"max_new_tokens": frames, "temperature": 0})
    assert response.headers["content-type"] == mime
    data = response.content
    if fmt == "pcm":
        assert len(data) == 2 * frames * FRAME
        return
    audio, rate = sf.read(io.BytesIO(data))
    assert rate == SR
    # mp3/opus frames pad the end a little (encoder delay and block size), never by a frame's worth.
    # mp3 responses carry no LAME tag frame (so that they concatenate, see test_clients.py), so the
    # decoder no longer trims the delay the tag states: LAME's 576 samples plus the decoder's 529.
    lead = 576 + 529 if fmt == "mp3" else 0
    assert abs(len(audio) - lead - frames * FRAME) <= (0 if fmt in ("wav", "flac") else FRAME // 2)


def test_aac_whole_streamed_and_sse_decode_alike(client, http):
    """ADTS AAC, decoded by FFmpeg through PyAV (libsndfile reads no AAC): 1024 samples of encoder
    priming, then the audio, then padding to a whole 1024-sample frame (tests/test_aac.py)."""
    from test_aac import PRIMING, AAC_FRAME, decode

    frames = 10
    extra = {"max_new_tokens": frames, "temperature": 0}
    response = client.audio.speech.with_raw_response.create(model="tts-1", voice="serena", input=TEXT,
                                                            response_format="aac", extra_body=extra)
    assert response.headers["content-type"] == "audio/aac"
    whole, rate = decode(response.content)
    assert rate == SR and frames * FRAME + PRIMING <= len(whole) < frames * FRAME + PRIMING + AAC_FRAME
    assert np.abs(whole).max() > 1e-3
    with client.audio.speech.with_streaming_response.create(
            model="tts-1", voice="serena", input=TEXT, response_format="aac",
            extra_body={"stream_format": "audio", **extra}) as streaming:
        assert streaming.headers["content-type"] == "audio/aac"
        streamed, _ = decode(b"".join(streaming.iter_bytes()))
    with http.stream("POST", "/v1/audio/speech", json={"model": "tts-1", "input": TEXT, "voice": "serena",
                                                       "response_format": "aac", "stream_format": "sse",
                                                       **extra}) as events:
        deltas = [json.loads(line[len("data: "):]) for line in events.iter_lines() if line.startswith("data: ")]
    assert deltas[-1]["type"] == "speech.audio.done" and deltas[-1]["usage"]["output_tokens"] == frames
    sse, _ = decode(b"".join(base64.b64decode(e["audio"]) for e in deltas if e["type"] == "speech.audio.delta"))
    for other in (streamed, sse):
        assert other.shape == whole.shape and np.abs(other - whole).max() <= 1e-4


def test_sdk_create_with_openai_voice_and_model_names(client):
    # alloy: the default voice (ryan on a CustomVoice model), which speaks "Hi." past 300 frames
    response = client.audio.speech.create(model="gpt-4o-mini-tts", voice="alloy", input="Hi.", response_format="wav",
                                          extra_body={"max_new_tokens": 4, "temperature": 0})
    audio, rate = sf.read(io.BytesIO(response.content))
    assert (rate, len(audio)) == (SR, 4 * FRAME)


def test_speed_stretches_duration_and_never_is_ignored(http):
    normal = speech(http, voice="serena", response_format="pcm", max_new_tokens=10, temperature=0)
    fast = speech(http, voice="serena", response_format="pcm", max_new_tokens=10, temperature=0, speed=2.0)
    slow = speech(http, voice="serena", response_format="pcm", max_new_tokens=10, temperature=0, speed=0.5,
                  stream_format="audio")
    n = len(normal.content) // 2
    assert len(fast.content) // 2 == round(n / 2.0)
    assert len(slow.content) // 2 == round(n / 0.5)


@pytest.mark.parametrize("sizes,want", [({}, [1, 2, 4, 1]), ({"first_chunk_frames": 2, "chunk_frames": 3}, [2, 3, 3])])
def test_sse_chunks_follow_the_requests_chunk_sizes(http, sizes, want):
    """Chunks as the request asks (first_chunk_frames, chunk_frames), else growing after the first: 1, 2, 4, ..."""
    body = {"model": "tts-1", "input": TEXT, "voice": "serena", "response_format": "pcm", "stream_format": "sse",
            "max_new_tokens": 8, "temperature": 0, **sizes}
    with http.stream("POST", "/v1/audio/speech", json=body) as events:
        deltas = [json.loads(line[len("data: "):]) for line in events.iter_lines() if line.startswith("data: ")]
    audio = [len(base64.b64decode(e["audio"])) for e in deltas if e["type"] == "speech.audio.delta"]
    assert [n // (2 * FRAME) for n in audio if n] == want
    bad = http.post("/v1/audio/speech", json={**body, "chunk_frames": 0})
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "chunk_frames"


def test_streaming_sends_audio_before_generation_ends(client, server):
    frames = 60
    with client.audio.speech.with_streaming_response.create(
            model="tts-1", voice="serena", input=TEXT, response_format="pcm",
            extra_body={"stream_format": "audio", "max_new_tokens": frames, "temperature": 0}) as response:
        assert response.headers["content-type"] == "audio/pcm"
        chunks = response.iter_bytes()
        first = next(chunks)
        assert first
        # The rest is still being generated when the first bytes are here.
        assert server.health()["active"] >= 1
        data = first + b"".join(chunks)
    assert len(data) == 2 * frames * FRAME


def test_streamed_wav_has_one_header_and_equals_the_whole_file(http):
    body = dict(voice="serena", response_format="wav", max_new_tokens=12, temperature=0)
    whole, _ = sf.read(io.BytesIO(speech(http, **body).content), dtype="float32")
    with http.stream("POST", "/v1/audio/speech", json={"model": "tts-1", "input": TEXT, "stream_format": "audio",
                                                       **body}) as response:
        pieces = list(response.iter_bytes())
    data = b"".join(pieces)
    assert data.count(b"RIFF") == 1 and data.startswith(b"RIFF")
    streamed, rate = sf.read(io.BytesIO(data), dtype="float32")
    assert rate == SR and streamed.shape == whole.shape
    assert np.abs(streamed - whole).max() <= 1e-4


def test_sse_events_parse_and_carry_the_audio(http):
    frames = 8
    with http.stream("POST", "/v1/audio/speech", json={"model": "tts-1", "input": TEXT, "voice": "serena",
                                                       "response_format": "pcm", "stream_format": "sse",
                                                       "max_new_tokens": frames, "temperature": 0}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = [json.loads(line[len("data: "):]) for line in response.iter_lines() if line.startswith("data: ")]
    deltas = [e for e in events if e["type"] == "speech.audio.delta"]
    assert len(deltas) >= 2 and events[-1]["type"] == "speech.audio.done"
    assert events[-1]["usage"]["output_tokens"] == frames and events[-1]["usage"]["input_tokens"] > 0
    assert len(b"".join(base64.b64decode(e["audio"]) for e in deltas)) == 2 * frames * FRAME


def test_greedy_requests_are_reproducible_and_seeded_ones_too(http):
    a = speech(http, voice="serena", response_format="pcm", max_new_tokens=8, temperature=0).content
    b = speech(http, voice="serena", response_format="pcm", max_new_tokens=8, temperature=0).content
    assert a == b
    s1 = speech(http, voice="serena", response_format="pcm", max_new_tokens=8, seed=7, temperature=0.9).content
    s2 = speech(http, voice="serena", response_format="pcm", max_new_tokens=8, seed=7, temperature=0.9).content
    assert s1 == s2


def test_eight_concurrent_clients_each_equal_their_solo_output(http, server):
    voices = ["aiden", "dylan", "eric", "ono_anna", "ryan", "serena", "sohee", "vivian"]
    bodies = [dict(input=f"Client {i} says: {TEXT[: 20 + 3 * i]}", voice=v, response_format="pcm", temperature=0,
                   max_new_tokens=6 + i) for i, v in enumerate(voices)]
    solo = [speech(http, **b).content for b in bodies]
    results, errors = [None] * 8, []
    barrier = threading.Barrier(8, timeout=60)

    def run(i):
        try:
            barrier.wait()
            results[i] = speech(http, stream_format="audio", **bodies[i])
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert not errors and all(r is not None and r.status_code == 200 for r in results)
    for i in range(8):
        got, want = pcm(results[i].content), pcm(solo[i])
        assert got.shape == want.shape and 0 < got.shape[0] <= (6 + i) * FRAME
        assert np.abs(got - want).max() <= 2 / 32768, f"client {i} differs from its solo output"


def test_disconnect_mid_stream_frees_the_row(server):
    assert wait_until(lambda: server.health()["active"] == 0, 30)
    client = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=60)
    with client.stream("POST", "/v1/audio/speech", json={"model": "tts-1", "input": TEXT, "voice": "serena",
                                                         "response_format": "pcm", "stream_format": "audio",
                                                         "max_new_tokens": 4000,
                                                         "temperature": 0}) as r:
        assert r.status_code == 200, r.read()
        # Keep the iterator: a dropped one closes the connection (httpx), and the check below raced
        # with that disconnect instead of seeing the row generate.
        chunks = r.iter_bytes()
        next(chunks)
        health = server.health()
        assert health["active"] == 1, health  # serena speaks TEXT for 631 frames: still generating
        next(chunks)  # the connection is still open and streaming
    client.close()  # closes the connection mid-stream
    start = time.monotonic()
    assert wait_until(lambda: server.health()["active"] == 0, 10), "the engine row was not freed"
    assert time.monotonic() - start < 5


def test_models_voices_and_health(http, server):
    ids = [m["id"] for m in http.get("/v1/models").json()["data"]]
    assert ids[0] == "custom_voice-0b6" and "tts-1" in ids and "gpt-4o-mini-tts" in ids
    assert http.get("/v1/audio/models").json()["models"][0] == {"id": "custom_voice-0b6"}
    voices = http.get("/v1/audio/voices").json()["voices"]
    assert {"id": "vivian", "name": "vivian", "type": "preset"} in voices and len(voices) == 9
    health = httpx.get(server.url + "/health").json()  # no key needed
    assert health["model"] == "custom_voice-0b6" and health["variant"] == "custom_voice"
    assert health["active"] == 0 and health["queued"] == 0
    assert (health["max_active"], health["max_queue"], health["prefill_budget"]) == (8, 4, 50)


def test_preset_voice_any_case_and_language(http):
    a = speech(http, voice="SERENA", response_format="pcm", max_new_tokens=4, temperature=0, language="English")
    b = speech(http, voice="serena", response_format="pcm", max_new_tokens=4, temperature=0, language="english")
    assert a.status_code == 200 and a.content == b.content


def error_of(response, status):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["message"]
    return error


BAD = [
    ({"input": ""}, 400, "input", "empty"),
    ({"input": "   "}, 400, "input", "empty"),
    ({"voice": "vivian"}, 400, "input", "missing"),
    ({"input": "x" * 4097}, 400, "input", "4,096"),
    ({"input": 5}, 400, "input", "string"),
    ({"input": "hi", "voice": "nobody"}, 400, "voice", "vivian"),
    ({"input": "hi", "voice": "../../etc/passwd"}, 400, "voice", "is unknown"),
    ({"input": "hi", "response_format": "webm"}, 400, "response_format", "mp3, opus, aac, flac, wav, pcm"),
    ({"input": "hi", "response_format": "m4a"}, 400, "response_format", "mp3"),
    ({"input": "hi", "speed": 0}, 400, "speed", "0.25 and 4.0"),
    ({"input": "hi", "speed": 10}, 400, "speed", "0.25 and 4.0"),
    ({"input": "hi", "speed": "fast"}, 400, "speed", "number"),
    ({"input": "hi", "temperature": -1}, 400, "temperature", "temperature"),
    ({"input": "hi", "top_p": 2}, 400, "top_p", "top_p"),
    ({"input": "hi", "max_new_tokens": 0}, 400, "max_new_tokens", "from 1 to"),
    ({"input": "hi", "seed": -1}, 400, "seed", "from 0 to"),
    ({"input": "hi", "seed": 10**400}, 400, "seed", "from 0 to"),
    ({"input": "hi", "temperature": 10**400}, 400, "temperature", "number"),
    ({"input": "hi", "language": "klingon"}, 400, "language", "english"),
    ({"input": "hi", "stream_format": "video"}, 400, "stream_format", "audio, sse"),
    ({"input": "hi", "text_mode": "weird"}, 400, "text_mode", "non-streaming"),
]


@pytest.mark.parametrize("body,status,param,words", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_requests_get_the_right_status_and_error_body(http, body, status, param, words):
    error = error_of(http.post("/v1/audio/speech", json={"model": "tts-1", **body}), status)
    assert error["param"] == param and words in error["message"]


def test_malformed_json_and_oversized_body(http):
    assert error_of(http.post("/v1/audio/speech", content=b"{not json", headers={"Content-Type": "application/json"}),
                    400)["code"] == "invalid_json"
    assert error_of(http.post("/v1/audio/speech", content=b"[1, 2]"), 400)["code"] == "invalid_json"
    huge = b'{"input": "' + b"a" * 400_000 + b'"}'
    error = error_of(http.post("/v1/audio/speech", content=huge), 413)
    assert "262,144 bytes" in error["message"]


def test_unknown_paths_and_methods(http):
    assert "no such endpoint" in error_of(http.get("/v1/nothing"), 404)["message"]
    error_of(http.get("/v1/audio/speech"), 405)


def test_api_key_is_required_except_for_health(server):
    body = {"model": "tts-1", "input": "hi", "max_new_tokens": 2}
    error = error_of(httpx.post(server.url + "/v1/audio/speech", json=body), 401)
    assert error["code"] == "invalid_api_key"
    error_of(httpx.post(server.url + "/v1/audio/speech", json=body, headers={"Authorization": "Bearer wrong"}), 401)
    error_of(httpx.get(server.url + "/v1/audio/voices"), 401)
    error_of(httpx.get(server.url + "/v1/models"), 401)
    wrong = openai.OpenAI(base_url=server.url + "/v1", api_key="nope", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        wrong.audio.speech.create(model="tts-1", voice="alloy", input="hi")
    assert httpx.get(server.url + "/health").status_code == 200


def test_sdk_raises_bad_request_with_the_message(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.audio.speech.create(model="tts-1", voice="nobody", input="hi")
    assert "voice 'nobody' is unknown" in str(caught.value)


def test_other_hosts_are_refused_on_a_loopback_bind(server):
    response = httpx.get(server.url + "/health", headers={"Host": "attacker.example"})
    assert response.status_code == 400


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "127.0.0.1.attacker.example",
                                  "[::2]:80", "local host"])
def test_a_refused_host_is_answered_in_openais_error_shape(server, host):
    """Issue 51: the Host check answered in plain text where every other error is OpenAI-shaped JSON."""
    response = httpx.post(server.url + "/v1/audio/speech", headers={"Host": host}, json={"input": "Hi"})
    assert response.status_code == 400 and response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == "invalid_host" and error["param"] == "Host" and "--allow-host" in error["message"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "host.docker.internal", "LOCALHOST:1"])
def test_the_loopback_and_container_names_pass(server, host):
    assert httpx.get(server.url + "/health", headers={"Host": host}).status_code == 200


def test_cors_is_off_by_default(server):
    response = httpx.options(server.url + "/v1/audio/speech", headers={
        "Origin": "http://example.com", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in response.headers


def test_engine_full_gives_429_with_retry_after(http, server):
    """8 active + 4 queued fit; one more at once is refused; leaving clients free their places."""
    body = json.dumps({"model": "tts-1", "input": TEXT, "voice": "serena", "response_format": "pcm",
                       "stream_format": "audio", "temperature": 0, "max_new_tokens": 4000}).encode()
    request = (f"POST /v1/audio/speech HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {API_KEY}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
    sockets = []
    try:
        for _ in range(12):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            sock.sendall(request)
            sockets.append(sock)
        assert wait_until(lambda: server.health()["active"] + server.health()["queued"] == 12, 60)
        response = speech(http, max_new_tokens=2)
        assert error_of(response, 429)["code"] == "engine_full"
        assert int(response.headers["retry-after"]) >= 1
    finally:
        for sock in sockets:
            sock.close()
    assert wait_until(lambda: server.health()["active"] + server.health()["queued"] == 0, 20)
    assert speech(http, max_new_tokens=2, response_format="pcm").status_code == 200


def test_server_keeps_serving_after_all_of_that(http, server):
    assert server.alive()
    assert speech(http, response_format="wav", max_new_tokens=3).status_code == 200
