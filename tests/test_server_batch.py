"""POST /v1/audio/speech/batch against a real server process, through httpx and the `openai` SDK's raw
requests: each item is what /v1/audio/speech answers for it (greedy: the same bytes); one bad item refuses
the whole batch before any work, naming it (`items[1].voice`); a batch the engine cannot take is a 429."""

import base64
import io
import subprocess
import sys
import threading

import httpx
import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("uvicorn")
openai = pytest.importorskip("openai")

from server_harness import API_KEY, ROOT, env, shared_server, wait_until  # noqa: E402

TEXT = "Hello there, this is a test of the speech server."  # with serena: past 300 frames (test_server.py)
FRAME, TIMEOUT = 1920, 120
BATCH = "/v1/audio/speech/batch"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Two rows and one place in the queue: a batch holds 3 at most (the --max-batch default is capped there)."""
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,
                         "--max-active", "2", "--max-queue", "1")


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=TIMEOUT) as c:
        yield c


def item(**body):
    return {"model": "tts-1", "input": TEXT, "voice": "serena", "temperature": 0, "max_new_tokens": 8, **body}


ITEMS = [item(response_format="pcm"), item(voice="aiden", response_format="wav", max_new_tokens=5),
         item(voice="vivian:0.5+ryan:0.5", input="A second text, another voice.", response_format="flac")]


def samples(data: bytes, fmt: str) -> np.ndarray:
    if fmt == "pcm":
        return np.frombuffer(data, "<i2").astype(np.float32) / 32768
    return sf.read(io.BytesIO(data), dtype="float32")[0]


def error_of(response, status):
    assert response.status_code == status, response.text
    return response.json()["error"]


def test_each_item_is_what_the_single_endpoint_answers(http):
    response = http.post(BATCH, json={"items": ITEMS})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["object"] == "list" and [d["index"] for d in body["data"]] == [0, 1, 2]
    for one, got in zip(ITEMS, body["data"]):
        alone = http.post("/v1/audio/speech", json=one)
        assert alone.status_code == 200
        assert got["response_format"] == one["response_format"]
        a, b = samples(base64.b64decode(got["audio"]), one["response_format"]), samples(alone.content,
                                                                                       one["response_format"])
        # The same codes (greedy); the batched codec step rounds floats a little differently (test_server_voices).
        assert a.shape == b.shape and np.abs(a).max() > 0
        np.testing.assert_allclose(a, b, atol=1e-3)
    assert len(base64.b64decode(body["data"][0]["audio"])) == 2 * 8 * FRAME
    audio, rate = sf.read(io.BytesIO(base64.b64decode(body["data"][1]["audio"])))
    assert rate == 24000 and len(audio) == 5 * FRAME


def test_the_openai_sdk_posts_a_batch(server, http):
    client = openai.OpenAI(base_url=server.url + "/v1", api_key=API_KEY, max_retries=0, timeout=TIMEOUT)
    raw = client.post("/audio/speech/batch", cast_to=httpx.Response, body={"items": ITEMS[:2]})  # the raw response
    assert raw.status_code == 200 and raw.headers["content-type"] == "application/json"
    data = raw.json()["data"]
    alone = http.post("/v1/audio/speech", json=ITEMS[0]).content
    np.testing.assert_allclose(samples(base64.b64decode(data[0]["audio"]), "pcm"), samples(alone, "pcm"), atol=1e-3)
    with pytest.raises(openai.BadRequestError) as e:
        client.post("/audio/speech/batch", cast_to=object, body={"items": [ITEMS[0], item(voice="nobody")]})
    assert e.value.body["param"] == "items[1].voice"


def frames_made(http) -> float:
    from prometheus_client.parser import text_string_to_metric_families

    text = http.get("/metrics").text
    return next(s.value for f in text_string_to_metric_families(text) for s in f.samples
                if s.name == "mlx_qwen3tts_frames_total")


@pytest.mark.parametrize("items,param,words", [
    ([ITEMS[0], item(voice="nobody")], "items[1].voice", "items[1]: voice 'nobody' is unknown"),
    ([ITEMS[0], ITEMS[1], item(speed=9)], "items[2].speed", "speed must be between"),
    ([{"voice": "serena"}], "items[0].input", "input is missing"),
    ([ITEMS[0], item(temperature=-1)], "items[1].temperature", "temperature must be a number >= 0"),
    ([item(voice="serena:0+aiden")], "items[0].voice", "finite number > 0"),
    ([item(stream_format="sse")], "items[0].stream_format", "whole files"),
    (["hello"], "items[0]", "JSON object"),
    ([], "items", "non-empty list"),
    ([ITEMS[0]] * 4, "items", "at most 3 in one batch"),
])
def test_one_bad_item_refuses_the_batch_before_any_work(http, items, param, words):
    before = frames_made(http)
    error = error_of(http.post(BATCH, json={"items": items}), 400)
    assert error["param"] == param and words in error["message"], error
    assert frames_made(http) == before  # nothing was generated, the good items neither


def test_a_batch_the_engine_cannot_take_is_a_429(server, http):
    held = {}
    long = threading.Thread(target=lambda: held.update(r=http.post("/v1/audio/speech", json=item(max_new_tokens=150))))
    long.start()
    try:
        assert wait_until(lambda: server.health()["active"] == 1, TIMEOUT)
        error = error_of(http.post(BATCH, json={"items": ITEMS}), 429)  # 2 places left, 3 asked
        assert error["code"] == "engine_full" and "room for 2 more" in error["message"]
        assert http.post(BATCH, json={"items": ITEMS[:2]}).status_code == 200  # 2 fit beside it
    finally:
        long.join(TIMEOUT)
    assert held["r"].status_code == 200


def test_max_batch_above_what_the_engine_holds_is_refused_at_start():
    result = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.server", "--model", "/nonexistent-model-folder",
                             "--max-active", "2", "--max-queue", "1", "--max-batch", "4"], capture_output=True,
                            text=True, env=env(), cwd=ROOT, timeout=120)
    assert result.returncode == 2 and result.stderr.splitlines() == [result.stderr.strip()]
    assert "--max-batch 4 is more than the engine holds" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_pages_openai_snippet_runs_as_written(server, tmp_path):
    """Issue 51: docs/server.md's batch snippet (`cast_to=httpx.Response`) needed httpx, which the SDK no longer
    brings (3.x uses httpx2): the page's block runs as pasted, against this server, with httpx not importable."""
    import re

    page = (ROOT / "docs" / "server.md").read_text()
    code = next(b for b in re.findall(r"^```python\n(.*?)^```", page, re.M | re.S) if "/audio/speech/batch" in b)
    code = code.replace("http://127.0.0.1:8000", server.url).replace("unused-or-your-key", API_KEY)
    result = subprocess.run([sys.executable, "-c", "import sys; sys.modules['httpx'] = None\n" + code], cwd=tmp_path,
                            env=env(), capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert sf.info(tmp_path / "batch_0.wav").samplerate == 24000 and sf.info(tmp_path / "batch_0.wav").frames > 0
    assert (tmp_path / "batch_1.mp3").stat().st_size > 0
