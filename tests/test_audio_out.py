"""The streamed speech response (`audio_out.AudioStream`) as an ASGI app, driven by Starlette's test client:
its status waits for the first chunk, so a failure before any audio answers with the error's own status and
body (the engine request cancelled), and one after it ends the stream (SSE: with an error event)."""

import asyncio
import base64
import json

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from mlx_qwen3tts.loop.engine import EngineFull
from mlx_qwen3tts.server.audio_out import AudioStream, Usage, in_thread


class Spy:
    def __init__(self):
        self.cancelled = 0

    def cancel(self):
        self.cancelled += 1


def client(chunks, spy: Spy, events=None) -> TestClient:
    async def route(request):
        watcher = asyncio.create_task(asyncio.sleep(3600))  # the disconnect watch: never fires here
        return AudioStream(in_thread(chunks(), spy.cancel), "audio/pcm", spy.cancel, watcher, {"X-Notice": "n"},
                           events, 24000)
    return TestClient(Starlette(routes=[Route("/", route)]))


def test_chunks_are_sent_as_they_come_with_the_headers():
    spy = Spy()
    response = client(lambda: iter([b"ab", b"cd", b"e"]), spy).get("/")
    assert response.status_code == 200 and response.content == b"abcde"
    assert response.headers["content-type"] == "audio/pcm" and response.headers["x-notice"] == "n"
    assert spy.cancelled == 0


@pytest.mark.parametrize("sse", [False, True])
def test_a_failure_before_any_audio_answers_with_its_own_status(sse):
    def chunks():
        raise EngineFull("full")
        yield b""

    spy = Spy()
    response = client(chunks, spy, Usage() if sse else None).get("/")
    assert response.status_code == 429 and response.headers["retry-after"] == "1"
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"]["code"] == "engine_full"
    assert spy.cancelled >= 1


def test_a_failure_after_audio_ends_sse_with_an_error_event():
    def chunks():
        yield b"\x01\x02"
        raise RuntimeError("boom")

    spy = Spy()
    response = client(chunks, spy, Usage(3)).get("/")
    assert response.status_code == 200 and response.headers["content-type"] == "text/event-stream"
    events = [json.loads(line[len("data: "):]) for line in response.text.split("\n\n") if line]
    assert [e["type"] for e in events] == ["speech.audio.delta", "error"]
    assert base64.b64decode(events[0]["audio"]) == b"\x01\x02"
    assert events[1]["error"]["code"] == "internal_error"
