"""Blended voices in every server front end, against a real process on 127.0.0.1: HTTP (httpx and the
`openai` SDK's raw response) with a blend as a string or a JSON list, WebSocket and Wyoming with a blend
as the voice's name; bad blends refused with a 400 naming `voice`; a blend saved as a voice."""

import asyncio
import base64
import json

import httpx
import numpy as np
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("wyoming")
openai = pytest.importorskip("openai")
ws_client = pytest.importorskip("websockets.sync.client")

from server_harness import free_port, shared_server  # noqa: E402
from wyoming.audio import AudioChunk, AudioStop  # noqa: E402
from wyoming.client import AsyncTcpClient  # noqa: E402
from wyoming.tts import Synthesize, SynthesizeVoice  # noqa: E402

TEXT = "Hello there, this is a blended voice speaking."
FRAMES = 20
FRAME = 1920
TIMEOUT = 60
MIX = "serena:0.5+aiden:0.5"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--wyoming-port", str(free_port()),
                         "--wyoming-temperature", "0", "--wyoming-max-new-tokens", str(FRAMES))
    proc.wyoming_port = int(proc.proc.args[proc.proc.args.index("--wyoming-port") + 1])
    return proc


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=TIMEOUT) as c:
        yield c


def speech(http, voice, **body):
    return http.post("/v1/audio/speech", json={"model": "tts-1", "input": TEXT, "voice": voice, "temperature": 0,
                                               "max_new_tokens": FRAMES, "response_format": "pcm", **body})


def pcm(http, voice, **body) -> bytes:
    response = speech(http, voice, **body)
    assert response.status_code == 200, response.text
    assert len(response.content) == 2 * FRAMES * FRAME
    return response.content


def test_http_blends_as_a_string_or_a_list(http):
    alone = pcm(http, "serena")
    assert pcm(http, "serena:1") == alone
    assert pcm(http, [{"voice": "serena", "weight": 1}]) == alone
    mix = pcm(http, MIX)
    assert mix not in (alone, pcm(http, "aiden"))
    assert pcm(http, [{"voice": "serena", "weight": 2}, {"voice": "Aiden", "weight": 2}]) == mix


def test_the_openai_sdk_sends_a_blend(server, http):
    client = openai.OpenAI(base_url=server.url + "/v1", api_key="unused", max_retries=0, timeout=TIMEOUT)
    response = client.audio.speech.with_raw_response.create(
        model="tts-1", voice=MIX, input=TEXT, response_format="pcm",
        extra_body={"temperature": 0, "max_new_tokens": FRAMES})
    assert response.http_response.status_code == 200
    assert response.content == pcm(http, MIX)


@pytest.mark.parametrize("voice,words", [
    ("serena:0+aiden", "the weight of 'serena' must be a finite number > 0"),
    ("serena:loud", "must be a number"),
    ("serena+nobody", "voice 'nobody' is unknown; choose one of"),
    ([{"voice": 3, "weight": 1}], "must be a name"),
    ([{"id": "serena"}], "each part of a blend"),
    ("+", "empty part"),
])
def test_bad_blends_are_refused_naming_voice(http, voice, words):
    response = speech(http, voice)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["param"] == "voice" and words in error["message"], error


def test_a_blend_saved_as_a_voice_is_listed_and_speaks_as_the_blend(http):
    created = http.post("/v1/audio/voices", files={"voice": (None, "serena:0.7+dylan:0.3"), "name": (None, "My Mix")})
    assert created.status_code == 201, created.text
    assert created.json()["id"] == "my-mix"
    listed = {v["id"]: v["type"] for v in http.get("/v1/audio/voices").json()["voices"]}
    assert listed["my-mix"] == "saved" and listed["serena"] == "preset"
    try:
        assert pcm(http, "my-mix") == pcm(http, "serena:0.7+dylan:0.3")
        assert pcm(http, "my-mix:1") == pcm(http, "my-mix")  # a saved blend blends again
        refused = http.post("/v1/audio/voices", files={"voice": (None, "serena"), "name": (None, "single")})
        assert refused.status_code == 400 and "blend" in refused.json()["error"]["message"]
    finally:
        assert http.delete("/v1/audio/voices/my-mix").status_code == 200


def test_websocket_session_voice_blends(server, http):
    url = server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    with ws_client.connect(url, open_timeout=TIMEOUT) as ws:
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": {"voice": MIX, "temperature": 0,
                                                                   "max_new_tokens": FRAMES}}))
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "session.updated"
        ws.send(json.dumps({"type": "input_text.append", "text": TEXT}))
        ws.send(json.dumps({"type": "input_text.end"}))
        audio = []
        for _ in range(500):
            event = json.loads(ws.recv(timeout=TIMEOUT))
            if event["type"] == "speech.audio.delta":
                audio.append(base64.b64decode(event["audio"]))
            elif event["type"] == "speech.audio.done":
                break
            else:
                raise AssertionError(event)
    got = np.frombuffer(b"".join(audio), "<i2").astype(int)
    want = np.frombuffer(pcm(http, MIX, text_mode="streaming"), "<i2")
    alone = np.frombuffer(pcm(http, "serena", text_mode="streaming"), "<i2")
    assert got.shape == want.shape and np.abs(got - want).max() <= 2  # as test_server_ws compares text streamed
    assert np.abs(got - alone).max() > 100


def test_websocket_refuses_a_bad_blend(server):
    url = server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    with ws_client.connect(url, open_timeout=TIMEOUT) as ws:
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": {"voice": "serena:-2"}}))
        ws.send(json.dumps({"type": "input_text.append", "text": TEXT}))
        ws.send(json.dumps({"type": "input_text.end"}))
        events = [json.loads(ws.recv(timeout=TIMEOUT)) for _ in range(2)]
    errors = [e for e in events if e["type"] == "error"]
    assert errors and "finite number > 0" in json.dumps(errors[0]), events


def test_wyoming_voice_name_blends(server, http):
    async def go(name):
        async with AsyncTcpClient("127.0.0.1", server.wyoming_port, connect_timeout=TIMEOUT,
                                  read_timeout=TIMEOUT) as c:
            await c.write_event(Synthesize(TEXT, voice=SynthesizeVoice(name=name)).event())
            audio = []
            for _ in range(500):
                event = await c.read_event()
                assert event is not None
                if AudioChunk.is_type(event.type):
                    audio.append(AudioChunk.from_event(event).audio)
                elif AudioStop.is_type(event.type):
                    return b"".join(audio)
            raise AssertionError("no audio-stop")

    got = asyncio.run(asyncio.wait_for(go(MIX), 120))
    assert got == pcm(http, MIX)
