"""GET /metrics against a real server process, read with Prometheus' own text-format parser: a run of known
requests shows in the counts exactly (requests by route, status and model; refusals by reason; frames and
audio seconds; sessions) and in the latencies plausibly (within the wall times measured by the client)."""

import asyncio
import json
import threading
import time

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("wyoming")
parser = pytest.importorskip("prometheus_client.parser")
ws_client = pytest.importorskip("websockets.sync.client")

from server_harness import API_KEY, ServerProcess, free_port, shared_server, wait_until  # noqa: E402
from wyoming.client import AsyncTcpClient  # noqa: E402
from wyoming.tts import Synthesize, SynthesizeVoice  # noqa: E402

TEXT = "Hello there, this is a test of the speech server."  # with serena: past 300 frames (test_server.py)
FRAME, SR, TIMEOUT = 1920, 24000, 60
SPEECH = "/v1/audio/speech"
M = "mlx_qwen3tts_"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One row and no queue, so a second request while one runs is refused as full."""
    proc = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,
                         "--max-active", "1", "--max-queue", "0", "--wyoming-port", str(free_port()))
    proc.wyoming_port = int(proc.proc.args[proc.proc.args.index("--wyoming-port") + 1])
    return proc


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=TIMEOUT) as c:
        yield c


def scrape(http) -> dict:
    """{(sample name, frozenset of labels): value} of one scrape."""
    response = http.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=")  # the library's text format
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in parser.text_string_to_metric_families(response.text) for s in family.samples}


def value(samples, name, **labels):
    return samples.get((M + name, frozenset(labels.items())), 0.0)


def delta(before, after, name, **labels):
    return value(after, name, **labels) - value(before, name, **labels)


def timed(call):
    start = time.monotonic()
    response = call()
    return response, time.monotonic() - start


def speak(http, frames, **body):
    return http.post(SPEECH, json={"model": "tts-1", "input": TEXT, "voice": "serena", "temperature": 0,
                                   "max_new_tokens": frames, "response_format": "pcm", **body})


def test_metrics_need_the_key(server):
    assert httpx.get(server.url + "/metrics", timeout=TIMEOUT).status_code == 401
    wrong = {"Authorization": "Bearer wrong"}
    assert httpx.get(server.url + "/metrics", headers=wrong, timeout=TIMEOUT).status_code == 401


def test_a_run_of_known_requests_is_counted_exactly(server, http):
    model = str(server.proc.args[server.proc.args.index("--model") + 1]).rstrip("/").split("/")[-1]
    before, start = scrape(http), time.monotonic()
    walls = []
    for frames in (10, 10, 10):
        response, wall = timed(lambda: speak(http, frames))
        assert response.status_code == 200 and len(response.content) == 2 * frames * FRAME
        walls.append(wall)
    # A long request holds the one row; another meanwhile is refused as full (429).
    long = {}
    blocker = threading.Thread(target=lambda: long.update(zip(("response", "wall"), timed(lambda: speak(http, 120)))))
    blocker.start()
    assert wait_until(lambda: server.health()["active"] == 1, TIMEOUT)
    full, full_wall = timed(lambda: speak(http, 10))
    assert full.status_code == 429, full.text
    blocker.join(TIMEOUT)
    assert long["response"].status_code == 200 and len(long["response"].content) == 2 * 120 * FRAME
    bad, bad_wall = timed(lambda: speak(http, 10, voice="nobody"))
    assert bad.status_code == 400
    assert httpx.get(server.url + "/v1/models", timeout=TIMEOUT).status_code == 401
    after, elapsed = scrape(http), time.monotonic() - start

    assert delta(before, after, "requests_total", route=SPEECH, status="200", model=model) == 4
    assert delta(before, after, "requests_total", route=SPEECH, status="429", model=model) == 1
    assert delta(before, after, "requests_total", route=SPEECH, status="400", model=model) == 1
    assert delta(before, after, "requests_total", route="/v1/models", status="401", model=model) == 1
    assert delta(before, after, "refused_requests_total", reason="full") == 1
    assert delta(before, after, "refused_requests_total", reason="bad_input") == 1
    assert delta(before, after, "refused_requests_total", reason="auth") == 1
    assert delta(before, after, "frames_total") == 3 * 10 + 120
    assert delta(before, after, "audio_seconds_total") == pytest.approx((3 * 10 + 120) * FRAME / SR, abs=1e-9)
    assert value(after, "active_requests") == 0 and value(after, "queued_requests") == 0
    rate = value(after, "frames_per_second")
    assert 0 < rate and rate * elapsed == pytest.approx(150, rel=0.5)  # since the scrape before, as the client saw it

    # Latencies: each within the wall time the client measured around it.
    all_walls = walls + [long["wall"], full_wall, bad_wall]
    assert delta(before, after, "request_seconds_count", route=SPEECH) == 6
    assert 0 < delta(before, after, "request_seconds_sum", route=SPEECH) <= sum(all_walls)
    assert delta(before, after, "first_audio_seconds_count") == 4
    first = delta(before, after, "first_audio_seconds_sum")
    assert 0 < first <= sum(walls) + long["wall"]
    # Histogram buckets are cumulative: every request at most as slow as the slowest wall.
    slowest = max(all_walls)
    bucket = min(float(labels["le"]) for (name, ls) in after for labels in [dict(ls)]
                 if name == M + "request_seconds_bucket" and labels.get("route") == SPEECH
                 and labels["le"] != "+Inf" and float(labels["le"]) >= slowest)
    assert delta(before, after, "request_seconds_bucket", route=SPEECH, le=str(bucket)) == 6


def test_websocket_sessions_and_refusals(server, http):
    before = scrape(http)
    url = server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    with ws_client.connect(url, additional_headers={"Authorization": f"Bearer {API_KEY}"}, open_timeout=TIMEOUT) as ws:
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "session.created"
        during = scrape(http)
        ws.send(json.dumps({"type": "session.update", "session": {"voice": "serena", "language": "klingon"}}))
        ws.send(json.dumps({"type": "input_text.append", "text": "Hi."}))
        ws.send(json.dumps({"type": "input_text.end"}))
        events = [json.loads(ws.recv(timeout=TIMEOUT)) for _ in range(2)]
        assert any(e["type"] == "error" for e in events), events
    with pytest.raises(Exception):
        with ws_client.connect(url, additional_headers={"Authorization": "Bearer wrong"}, open_timeout=TIMEOUT) as ws:
            ws.recv(timeout=TIMEOUT)
    assert wait_until(lambda: value(scrape(http), "open_sessions", protocol="websocket") == 0, TIMEOUT)
    after = scrape(http)
    assert delta(before, during, "open_sessions", protocol="websocket") == 1
    assert delta(before, after, "sessions_total", protocol="websocket") == 1
    assert delta(before, after, "refused_requests_total", reason="bad_input") == 1
    assert delta(before, after, "refused_requests_total", reason="auth") == 1


def test_wyoming_sessions_and_refusals(server, http):
    before = scrape(http)

    async def go():
        async with AsyncTcpClient("127.0.0.1", server.wyoming_port, connect_timeout=TIMEOUT,
                                  read_timeout=TIMEOUT) as c:
            await c.write_event(Synthesize("Hi.", voice=SynthesizeVoice(name="nobody")).event())
            return await c.read_event()

    event = asyncio.run(asyncio.wait_for(go(), TIMEOUT))
    assert event is not None and event.type == "error"
    assert wait_until(lambda: value(scrape(http), "open_sessions", protocol="wyoming") == 0, TIMEOUT)
    after = scrape(http)
    assert delta(before, after, "sessions_total", protocol="wyoming") == 1
    assert delta(before, after, "refused_requests_total", reason="bad_input") == 1


def test_public_metrics_need_no_key(tmp_path):
    from fixture_checkpoints import checkpoint_dir

    (tmp_path / "voices").mkdir()
    proc = ServerProcess(checkpoint_dir("custom_voice-0b6", tmp_path), tmp_path / "voices", tmp_path / "log",
                         "--api-key", API_KEY, "--public-metrics", "--max-active", "1")
    try:
        response = httpx.get(proc.url + "/metrics", timeout=TIMEOUT)
        assert response.status_code == 200 and M + "requests_total" in response.text
        assert httpx.get(proc.url + "/v1/models", timeout=TIMEOUT).status_code == 401  # the rest keeps its key
    finally:
        proc.stop()
