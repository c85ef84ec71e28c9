"""What a new user's first hour with the server hits: a taken port, a JSON body the parser refuses,
clients that stall mid-body, a WebSocket flush with nothing to say. A real server process on
127.0.0.1 and raw sockets / real clients; every count and wait bounded."""

import json
import socket
import subprocess
import sys
import time

import httpx
import pytest

pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

from server_harness import API_KEY, ROOT, env, shared_server  # noqa: E402

STALLED_CLIENTS = 20
BODY_IDLE_S = 10  # Limits.body_idle_seconds, as the README states it


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,
                         "--max-active", "8", "--max-queue", "4")


def run_server(*args):
    return subprocess.run([sys.executable, "-m", "mlx_qwen3tts.server", *args], capture_output=True, text=True,
                          env=env(), cwd=ROOT, timeout=120)


@pytest.mark.parametrize("option", ["--port", "--wyoming-port"])
def test_a_taken_port_is_one_error_line_before_the_model_loads(option):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        # A model folder that does not exist: had the model been loaded first, that would be the error.
        args = ["--model", "/nonexistent-model-folder", option, str(port)]
        if option == "--wyoming-port":
            args += ["--port", "0"]
        result = run_server(*args)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(f"error: cannot listen on 127.0.0.1 port {port}")
    assert f"choose another {option}" in result.stderr and "nonexistent" not in result.stderr


def test_json_nested_beyond_the_parser_is_a_400(server):
    for body in (b"[" * 100_000 + b"]" * 100_000, b'{"input": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                 b'{"input": ' + b"9" * 5000 + b"}"):  # more digits than Python converts to an int
        response = httpx.post(server.url + "/v1/audio/speech", content=body, timeout=60,
                              headers={"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"})
        assert response.status_code == 400, response.text
        assert response.json()["error"]["code"] == "invalid_json"
    assert server.alive()


def stalled_client(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall((f"POST /v1/audio/speech HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {API_KEY}\r\n"
                  "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"input\": \"he").encode())
    return sock


def read_to_close(sock) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_stalled_bodies_are_dropped_after_the_stated_timeout_and_block_nobody(server):
    start = time.monotonic()
    sockets = [stalled_client(server.port) for _ in range(STALLED_CLIENTS)]
    try:
        # While they hang, others are served.
        health = httpx.get(server.url + "/health", timeout=5)
        assert health.status_code == 200
        speech = httpx.post(server.url + "/v1/audio/speech", timeout=60, headers={"Authorization": f"Bearer {API_KEY}"},
                            json={"input": "Hi.", "max_new_tokens": 2, "response_format": "pcm"})
        assert speech.status_code == 200
        for sock in sockets:
            answer = read_to_close(sock)  # the socket's own 60 s timeout bounds this
            assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
            error = json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
            assert error["code"] == "body_timeout" and f"{BODY_IDLE_S} s" in error["message"]
        assert time.monotonic() - start >= BODY_IDLE_S  # not before the stated timeout
    finally:
        for sock in sockets:
            sock.close()
    assert server.health()["active"] == 0


def test_websocket_flush_with_nothing_pending_answers_at_once(server):
    url = server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    with ws_client.connect(url, additional_headers={"Authorization": f"Bearer {API_KEY}"}, open_timeout=60) as ws:
        assert json.loads(ws.recv(timeout=60))["type"] == "session.created"
        ws.send(json.dumps({"type": "input_text.flush"}))
        event = json.loads(ws.recv(timeout=10))
        assert event["type"] == "speech.audio.done" and event["cancelled"] is False
        assert event["usage"]["output_tokens"] == 0 and event["usage"]["audio_seconds"] == 0
        # The session goes on: text after it is spoken.
        ws.send(json.dumps({"type": "session.update", "session": {"max_new_tokens": 2, "temperature": 0}}))
        assert json.loads(ws.recv(timeout=60))["type"] == "session.updated"
        ws.send(json.dumps({"type": "input_text.append", "text": "Hi."}))
        ws.send(json.dumps({"type": "input_text.flush"}))
        for _ in range(50):
            event = json.loads(ws.recv(timeout=60))
            if event["type"] == "speech.audio.done":
                break
        assert event["type"] == "speech.audio.done" and event["usage"]["output_tokens"] == 2


def test_a_voice_memo_m4a_upload_makes_a_voice(tmp_path, tmp_path_factory):
    from test_reference_formats import encode

    base = shared_server("base-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY)
    encode(tmp_path / "memo.m4a", "aac", seconds=3.0)
    headers = {"Authorization": f"Bearer {API_KEY}"}
    response = httpx.post(base.url + "/v1/audio/voices", headers=headers, timeout=120,
                          files={"audio_sample": ("memo.m4a", (tmp_path / "memo.m4a").read_bytes(), "audio/mp4")},
                          data={"name": "memo", "x_vector_only": "true"})
    assert response.status_code == 201, response.text
    speech = httpx.post(base.url + "/v1/audio/speech", headers=headers, timeout=120,
                        json={"input": "Hi.", "voice": "memo", "max_new_tokens": 2, "response_format": "pcm"})
    assert speech.status_code == 200 and len(speech.content) == 2 * 1920 * 2
    junk = httpx.post(base.url + "/v1/audio/voices", headers=headers, timeout=60,
                      files={"audio_sample": ("x.m4a", b"not audio " * 100, "audio/mp4")}, data={"name": "junk"})
    assert junk.status_code == 400 and "M4A/AAC/ALAC" in junk.json()["error"]["message"]
