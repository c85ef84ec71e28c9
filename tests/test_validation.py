"""One table of bad requests, made through every front end: the Python API (`tts.request`), HTTP
(POST /v1/audio/speech), the WebSocket stream and Wyoming. Each refuses a row at request time (before
any audio) with the same field, named in its own vocabulary, and the same meaning: the same code and
the request layer's message worded in its names. Then each front end serves a good request.

One real server process (HTTP and Wyoming, on 127.0.0.1) serves the whole table; every wait is bounded.
"""

import asyncio
import base64
import json
import warnings
from dataclasses import dataclass, field
from typing import Optional

import httpx
import mlx.core as mx
import numpy as np
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("wyoming")
ws_client = pytest.importorskip("websockets.sync.client")

from server_harness import free_port, shared_server  # noqa: E402
from wyoming.audio import AudioChunk, AudioStart, AudioStop  # noqa: E402
from wyoming.error import Error  # noqa: E402
from wyoming.event import async_read_event  # noqa: E402

from mlx_qwen3tts.errors import InputError  # noqa: E402
from mlx_qwen3tts.server.params import JSON_NAMES  # noqa: E402
from mlx_qwen3tts.server.sockets.ours import WS_NAMES  # noqa: E402
from mlx_qwen3tts.server.wyoming import WYOMING_NAMES  # noqa: E402
from mlx_qwen3tts.voices import Voice  # noqa: E402

CHECKPOINT = "custom_voice-0b6"  # presets (ryan is its default voice), and it ignores instructions
FRAMES = 3  # every good request: greedy, this many frames (the tiny checkpoints never stop on their own)
FRAME = 1920
TEXT = "Hello there, how are you?"
TIMEOUT = 60
NOTICE = "the 0.6B CustomVoice model ignores instructions"


@dataclass
class Bad:
    """A bad request as each front end says it; None where a front end cannot say it."""

    name: str
    field: str  # in the request layer's words
    words: str  # in every front end's message
    python: dict  # tts.request keywords (the text defaults to TEXT)
    http: Optional[dict]  # body fields over a good body
    ws: Optional[tuple]  # ("session", fields) | ("append", text) | ("utterance", text): text then flush
    wyoming: Optional[dict]  # synthesize event data over {"text": TEXT}
    parsed: tuple = field(default=())  # front ends that refuse it while parsing (their own message, same field)


BAD = [
    Bad("unknown language", "language", "'klingon' is unknown", {"language": "klingon"}, {"language": "klingon"},
        ("session", {"language": "klingon"}), {"voice": {"language": "klingon"}}),
    Bad("language not a string", "language", "must be a string", {"language": 5}, {"language": 5},
        ("session", {"language": 5}), {"voice": {"language": 5}}),
    Bad("unknown speaker", "speaker", "'nobody' is unknown", {"speaker": "nobody"}, {"voice": "nobody"},
        ("session", {"voice": "nobody"}), {"voice": {"name": "nobody"}}),
    Bad("lone surrogate", "text", "lone surrogate (U+D800) at character 3", {"text": "hi \ud800 there"},
        {"input": "hi \ud800 there"}, ("append", "hi \ud800 there"), {"text": "hi \ud800 there"}),
    Bad("control characters only", "text", "is empty", {"text": "\x00\x07\x1b"}, {"input": "\x00\x07\x1b"},
        ("utterance", "\x01\x02"), {"text": "\x01\x02"}),
    Bad("blank text", "text", "is empty", {"text": "   "}, {"input": "   "}, ("utterance", "  \n"), {"text": "   "}),
    Bad("text not a string", "text", "string", {"text": 5}, {"input": 5}, ("append", 5), {"text": 42},
        parsed=("ws", "wyoming")),
    Bad("temperature below 0", "temperature", "temperature must be a number >= 0", {"temperature": -1},
        {"temperature": -1}, ("session", {"temperature": -1}), None),
    Bad("temperature not a number", "temperature", "must be a number", {"temperature": "hot"},
        {"temperature": "hot"}, ("session", {"temperature": "hot"}), None),
    Bad("top_k a fraction", "top_k", "top_k must be a whole number", {"top_k": 1.5}, {"top_k": 1.5},
        ("session", {"top_k": 1.5}), None),
    Bad("top_k negative", "top_k", "top_k must be a whole number >= 0", {"top_k": -1}, {"top_k": -1},
        ("session", {"top_k": -1}), None),
    Bad("top_p above 1", "top_p", "top_p must be a number in (0, 1]", {"top_p": 2}, {"top_p": 2},
        ("session", {"top_p": 2}), None),
    Bad("top_p a string", "top_p", "top_p must be a number", {"top_p": "0.5"}, {"top_p": "0.5"},
        ("session", {"top_p": "0.5"}), None),
    Bad("repetition_penalty 0", "repetition_penalty", "repetition_penalty must be a number > 0",
        {"repetition_penalty": 0}, {"repetition_penalty": 0}, ("session", {"repetition_penalty": 0}), None),
    Bad("seed negative", "seed", "seed must be an integer from 0 to 18446744073709551615", {"seed": -1},
        {"seed": -1}, ("session", {"seed": -1}), None),
    Bad("seed a fraction", "seed", "must be an integer", {"seed": 1.5}, {"seed": 1.5}, ("session", {"seed": 1.5}),
        None),
    Bad("seed a string", "seed", "must be an integer", {"seed": "7"}, {"seed": "7"}, ("session", {"seed": "7"}), None),
    Bad("max tokens 0", "max_tokens", "must be an integer from 1 to 8192", {"max_tokens": 0},
        {"max_new_tokens": 0}, ("session", {"max_new_tokens": 0}), None),
    Bad("max tokens over the cap", "max_tokens", "must be an integer from 1 to 8192", {"max_tokens": 10**9},
        {"max_new_tokens": 10**9}, ("session", {"max_new_tokens": 10**9}), None),
    Bad("max tokens a string", "max_tokens", "must be an integer", {"max_tokens": "5"}, {"max_new_tokens": "5"},
        ("session", {"max_new_tokens": "5"}), None),
    Bad("text mode unknown", "text_mode", "streaming or non-streaming", {"text_mode": "weird"},
        {"text_mode": "weird"}, None, None),
    Bad("instructions not a string", "instruct", "must be a string", {"instruct": 5}, {"instructions": 5},
        ("session", {"instructions": 5}), None),
]
IDS = [row.name for row in BAD]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """HTTP and Wyoming in one process; Wyoming requests greedy, FRAMES frames."""
    proc = shared_server(CHECKPOINT, tmp_path_factory.getbasetemp(), "--wyoming-port", str(free_port()),
                         "--wyoming-temperature", "0", "--wyoming-max-new-tokens", str(FRAMES))
    proc.wyoming_port = int(proc.proc.args[proc.proc.args.index("--wyoming-port") + 1])
    return proc


def python_refusal(tts, row: Bad) -> InputError:
    kwargs = {"text": TEXT, **row.python}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InputError) as caught:
            tts.request(**kwargs)
    return caught.value


def http_post(server, **body):
    body = {"model": "tts-1", "input": TEXT, "response_format": "pcm", "temperature": 0, "max_new_tokens": FRAMES,
            **body}
    # json.dumps escapes a lone surrogate as \ud800, as a JavaScript client sends it
    return httpx.post(server.url + "/v1/audio/speech", content=json.dumps(body),
                      headers={"Content-Type": "application/json"}, timeout=TIMEOUT)


def ws_connect(server):
    url = server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    return ws_client.connect(url, open_timeout=TIMEOUT)


def ws_recv(ws) -> dict:
    return json.loads(ws.recv(timeout=TIMEOUT))


def ws_refusal(ws, row: Bad) -> dict:
    """The error event of one WebSocket row (the session goes on)."""
    kind, value = row.ws
    if kind == "session":
        ws.send(json.dumps({"type": "session.update", "session": value}))
    else:
        ws.send(json.dumps({"type": "input_text.append", "text": value}))
        if kind == "utterance":
            ws.send(json.dumps({"type": "input_text.flush"}))
    event = ws_recv(ws)
    assert event["type"] == "error", (row.name, event)  # the first answer: no audio came before it
    if kind == "utterance":
        done = ws_recv(ws)
        assert done["type"] == "speech.audio.done" and done["usage"]["output_tokens"] == 0, done
    return event["error"]


async def wyoming_exchange(port: int, events: list, until=(Error, AudioStop), limit=200):
    """Send synthesize events (written as JSON lines, as any client may) and read each answer: the
    events up to an Error or AudioStop."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), TIMEOUT)
    answers = []
    try:
        for data in events:
            writer.write(json.dumps({"type": "synthesize", "data": data}).encode() + b"\n")
            await writer.drain()
            got = []
            for _ in range(limit):
                event = await asyncio.wait_for(async_read_event(reader), TIMEOUT)
                assert event is not None, "the server closed the connection"
                got.append(event)
                if any(kind.is_type(event.type) for kind in until):
                    break
            answers.append(got)
    finally:
        writer.close()
    return answers


def test_python_api_refuses_each_row_at_request_time_naming_the_field(tts):
    for row in BAD:
        error = python_refusal(tts, row)
        assert error.field == row.field and row.words in str(error), (row.name, error.field, str(error))
    # and still serves
    assert tts.generate(TEXT, temperature=0, max_tokens=FRAMES, decode=False).codes.shape == (FRAMES, 16)


def test_http_gives_each_row_the_same_refusal_and_keeps_serving(tts, server):
    for row in [r for r in BAD if r.http is not None]:
        error = python_refusal(tts, row)
        response = http_post(server, **row.http)
        assert response.status_code == 400, (row.name, response.text)
        body = response.json()["error"]
        assert body["param"] == JSON_NAMES.get(row.field, row.field), (row.name, body)
        assert body["code"] == error.code and body["message"] == error.worded(JSON_NAMES), (row.name, body)
    good = http_post(server)
    assert good.status_code == 200 and len(good.content) == 2 * FRAMES * FRAME
    assert server.alive()


def test_websocket_gives_each_row_the_same_refusal_and_the_session_goes_on(tts, server):
    with ws_connect(server) as ws:
        assert ws_recv(ws)["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": {"temperature": 0, "max_new_tokens": FRAMES}}))
        assert ws_recv(ws)["type"] == "session.updated"
        for row in [r for r in BAD if r.ws is not None]:
            error, event = python_refusal(tts, row), ws_refusal(ws, row)
            assert event["param"] == WS_NAMES.get(row.field, row.field), (row.name, event)
            assert event["code"] == (error.code or "invalid_request"), (row.name, event)
            assert row.words in event["message"], (row.name, event)
            if "ws" not in row.parsed:
                assert event["message"] == error.worded(WS_NAMES), (row.name, event)
        ws.send(json.dumps({"type": "input_text.append", "text": TEXT}))
        ws.send(json.dumps({"type": "input_text.end"}))
        events = []
        for _ in range(200):
            event = ws_recv(ws)
            if event["type"] == "speech.audio.done":
                break
            assert event["type"] == "speech.audio.delta", event
            events.append(event)
        audio = b"".join(base64.b64decode(e["audio"]) for e in events)
        assert len(audio) == 2 * FRAMES * FRAME  # the refused updates changed nothing


def test_wyoming_gives_each_row_the_same_refusal_and_keeps_serving(tts, server):
    rows = [r for r in BAD if r.wyoming is not None]
    events = [{"text": TEXT, **row.wyoming} for row in rows] + [{"text": TEXT, "voice": {"name": "ryan"}}]
    # One connection each: a refused synthesize ends its connection after the error (test_clients.py).
    answers = [asyncio.run(asyncio.wait_for(wyoming_exchange(server.wyoming_port, [event]), 300))[0]
               for event in events]
    for row, answer in zip(rows, answers):
        error = python_refusal(tts, row)
        assert len(answer) == 1 and Error.is_type(answer[0].type), (row.name, answer)  # before any audio
        refusal = Error.from_event(answer[0])
        assert refusal.code == (error.code or "invalid_request") and row.words in refusal.text, (row.name, refusal)
        if "wyoming" not in row.parsed:
            assert refusal.text == error.worded(WYOMING_NAMES), (row.name, refusal)
    good = answers[-1]
    assert AudioStart.is_type(good[0].type) and AudioStop.is_type(good[-1].type)
    audio = b"".join(AudioChunk.from_event(e).audio for e in good if AudioChunk.is_type(e.type))
    assert audio == http_post(server, voice="ryan").content


def test_default_voice_and_language_codes_are_accepted_everywhere(tts, server):
    request = tts.request(TEXT, speaker=" Default ", language="EN")
    assert request.voice.speaker == "ryan" and request.language == "english"
    assert tts.request(TEXT, language="zh-CN").language == "chinese"
    assert tts.request(TEXT, language="Fr_fr").language == "french"
    ryan = http_post(server, voice="ryan", language="english").content
    assert http_post(server, voice="default", language="en").content == ryan
    assert http_post(server, voice="DEFAULT", language="EN-us").content == ryan
    assert http_post(server, voice="ryan", language="auto").content != ryan  # the language was used
    with ws_connect(server) as ws:
        assert ws_recv(ws)["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": {"voice": "default", "language": "en"}}))
        assert ws_recv(ws)["type"] == "session.updated"
    events = [{"text": TEXT, "voice": {"name": name, "language": language}}
              for name, language in (("default", "en"), ("ryan", "english"))]
    answers = asyncio.run(asyncio.wait_for(wyoming_exchange(server.wyoming_port, events), 300))
    audio = [b"".join(AudioChunk.from_event(e).audio for e in a if AudioChunk.is_type(e.type)) for a in answers]
    assert audio[0] == audio[1] and len(audio[0]) == 2 * FRAMES * FRAME


def test_an_ignored_instruction_is_a_notice_not_a_warning(tts, server):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        request = tts.request(TEXT, instruct="whisper")
    assert request.instruct is None and len(request.notices) == 1 and NOTICE in request.notices[0]
    for _ in range(2):
        assert http_post(server, instructions="Speak in a whisper.").status_code == 200
    with ws_connect(server) as ws:
        assert ws_recv(ws)["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": {"instructions": "whisper"}}))
        assert ws_recv(ws)["type"] == "session.updated"
    log = server.output()
    assert log.count(NOTICE) == 1 and "UserWarning" not in log and "warnings.warn" not in log, log


def test_python_only_fields_name_themselves(load_tiny):
    """Reference audio and its transcript (Base), hand-made voices, the split mode and codes to decode:
    the Python API alone takes them."""
    base = load_tiny("base-0b6")
    hidden = base.facts.hidden_size
    tone = (0.3 * np.sin(2 * np.pi * 180 * np.arange(48000) / 24000)).astype(np.float32)
    calls = [
        (lambda: base.clone(tone, ref_text=5, sample_rate=24000), "ref_text", "must be a string"),
        (lambda: base.request(TEXT, ref_audio=(tone, 24000), ref_text=5), "ref_text", "must be a string"),
        (lambda: base.clone(tone, sample_rate=24000), "ref_text", "in-context cloning needs the transcript"),
        (lambda: base.clone(tone, x_vector_only="yes", sample_rate=24000), "x_vector_only", "true or false"),
        (lambda: base.request(TEXT, ref_text="words"), "ref_text", "need reference audio (ref_audio)"),
        (lambda: base.request(TEXT, speaker="ryan"), "speaker", "preset speakers come with CustomVoice models"),
        (lambda: base.generate(TEXT, split="weird"), "split", "must be one of auto, sequence, batch, none"),
        (lambda: base.request(TEXT, voice=Voice(xvector=mx.zeros((7,)))), "voice", "x-vector of (7,)"),
        (lambda: base.request(TEXT, voice=Voice(xvector=mx.zeros((hidden,)), ref_codes=mx.full((2, 16), -3),
                                                ref_text_ids=[1])), "voice", "must be in 0..2047"),
        (lambda: base.decode(mx.full((2, 16), 2048, dtype=mx.int32)), "codes", "must be in 0..2047"),
        (lambda: base.decode(mx.array([[0] * 15 + [-1]], dtype=mx.int32)), "codes", "must be in 0..2047"),
        (lambda: base.decode(mx.zeros((2, 16), dtype=mx.float32)), "codes", "must be integers"),
        (lambda: base.decode(np.zeros((2, 15), dtype=np.int32)), "codes", "shape (frames, 16)"),
        (lambda: base.decode(mx.zeros((2, 16), mx.int32), ref_codes=mx.full((1, 16), 4096, mx.int32)), "ref_codes",
         "must be in 0..2047"),
    ]
    for call, name, words in calls:
        with pytest.raises(InputError) as caught:
            call()
        assert caught.value.field == name and words in str(caught.value), (name, str(caught.value))
    assert base.decode(mx.zeros((2, 16), mx.int32)).shape == (2 * FRAME,)  # codes in range still decode


def test_a_text_stream_with_nothing_to_say_is_an_error_through_the_engine(tts):
    """Streamed text is checked as it arrives: the engine's handle raises the refusal from its own
    iteration (nothing was generated) and the engine goes on serving."""

    with tts.engine(max_active=2, max_queue=2) as engine:
        for deltas in ([], ["  ", "\x07"], ["Hi \ud800"]):
            handle = engine.submit(tts.request(deltas=iter(deltas), temperature=0, max_tokens=FRAMES))
            with pytest.raises(InputError) as caught:
                list(handle)
            assert caught.value.field == "deltas", str(caught.value)
        good = engine.submit(tts.request(TEXT, temperature=0, max_tokens=FRAMES))
        assert sum(chunk.frames for chunk in good) == FRAMES
