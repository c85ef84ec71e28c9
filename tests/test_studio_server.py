"""What the studio page needs from the server, reached as HTTP and Wyoming clients reach it: voices
listed only where the loaded model can speak them, display names on upload, an upload without a
transcript refused as the command line refuses it, notices in an X-Notice header (readable
cross-origin), /health's model facts, a favicon."""

import asyncio
import shutil

import httpx
import mlx.core as mx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("wyoming")

from server_harness import ROOT, free_port, shared_server  # noqa: E402
from wyoming.client import AsyncTcpClient  # noqa: E402
from wyoming.info import Describe, Info  # noqa: E402

CLIP = ROOT / "tests" / "fixtures" / "clone" / "ref_16k.wav"
ORIGIN = "http://studio.example"


def upload(server, name, **fields):
    return httpx.post(server.url + "/v1/audio/voices", data={"name": name, **fields}, timeout=120,
                      files={"audio_sample": ("ref.wav", CLIP.read_bytes(), "audio/wav")})


def listed(server) -> dict:
    return {v["id"]: v for v in httpx.get(server.url + "/v1/audio/voices", timeout=30).json()["voices"]}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return shared_server("base-0b6", tmp_path_factory.getbasetemp(), "--cors", ORIGIN)


@pytest.fixture(scope="module")
def custom(tmp_path_factory):
    server = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--wyoming-port", str(free_port()))
    server.wyoming_port = int(server.proc.args[server.proc.args.index("--wyoming-port") + 1])
    return server


def test_a_display_name_gets_an_id_made_of_its_letters(base):
    created = upload(base, "My Voice", x_vector_only="true")
    assert created.status_code == 201, created.text
    assert (created.json()["id"], created.json()["name"]) == ("my-voice", "My Voice")
    assert listed(base)["my-voice"] == {"id": "my-voice", "name": "My Voice", "type": "saved"}
    again = upload(base, "my voice", x_vector_only="true")
    assert again.status_code == 409 and again.json()["error"]["code"] == "voice_exists"
    assert httpx.delete(base.url + "/v1/audio/voices/my-voice").status_code == 200


def test_an_upload_without_transcript_is_refused_unless_x_vector_only(base):
    refused = upload(base, "untranscribed")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["param"] == "ref_text" and "x_vector_only" in error["message"]
    assert "untranscribed" not in listed(base)
    taken = upload(base, "untranscribed", x_vector_only="true")
    assert taken.status_code == 201 and taken.json()["in_context"] is False
    assert "x-vector only" in taken.headers["X-Notice"] and taken.json()["notices"]
    httpx.delete(base.url + "/v1/audio/voices/untranscribed")


def test_an_ignored_instruction_is_announced_in_a_header_readable_cross_origin(base):
    body = {"input": "Hello.", "instructions": "calm", "max_new_tokens": 2, "temperature": 0, "response_format": "pcm"}
    for extra in ({}, {"stream_format": "audio"}):
        response = httpx.post(base.url + "/v1/audio/speech", json={**body, **extra}, headers={"Origin": ORIGIN},
                              timeout=60)
        assert response.status_code == 200
        assert "ignore instructions" in response.headers["X-Notice"]
        assert "x-notice" in response.headers["Access-Control-Expose-Headers"].lower()
    plain = httpx.post(base.url + "/v1/audio/speech", json={k: v for k, v in body.items() if k != "instructions"},
                       timeout=60)
    assert plain.status_code == 200 and "X-Notice" not in plain.headers


def test_a_base_model_lists_only_voices_of_its_size(base, load_tiny):
    from mlx_qwen3tts.voices import Voice, save_voice

    folder = base.log_path.parent / "voices"
    facts = load_tiny("base-1b7").facts
    save_voice(Voice(xvector=mx.ones((facts.hidden_size,))), folder / "made-on-1b7.safetensors", facts.size)
    (folder / "not-a-voice.safetensors").write_bytes(b"junk")
    try:
        ids = listed(base)
        assert "made-on-1b7" not in ids and "not-a-voice" not in ids
        refused = httpx.post(base.url + "/v1/audio/speech", timeout=60,
                             json={"input": "Hi.", "voice": "made-on-1b7", "max_new_tokens": 2})
        assert refused.status_code == 400 and "1b7" in refused.json()["error"]["message"]
    finally:
        (folder / "made-on-1b7.safetensors").unlink()
        (folder / "not-a-voice.safetensors").unlink()


def test_a_custom_voice_model_lists_no_cloned_voices_on_http_or_wyoming(base, custom):
    assert upload(base, "cloned-here", x_vector_only="true").status_code == 201
    shutil.copy(base.log_path.parent / "voices" / "cloned-here.safetensors",
                custom.log_path.parent / "voices" / "cloned-here.safetensors")
    presets = listed(custom)
    assert "cloned-here" not in presets and len(presets) == 9

    async def describe():
        client = AsyncTcpClient("127.0.0.1", custom.wyoming_port, connect_timeout=30, read_timeout=30)
        async with client:
            await client.write_event(Describe().event())
            return Info.from_event(await client.read_event())

    info = asyncio.run(asyncio.wait_for(describe(), 60))
    assert {v.name for v in info.tts[0].voices} == set(presets)
    httpx.delete(base.url + "/v1/audio/voices/cloned-here")


def test_health_tells_the_page_what_the_model_does(base, custom):
    facts = httpx.get(custom.url + "/health", timeout=30).json()
    assert facts["size"] == "0b6" and facts["instructions"] is False
    languages = {s["id"]: s["language"] for s in facts["speakers"]}
    assert languages["ryan"] == "english" and languages["eric"] == "sichuan_dialect" and len(languages) == 9
    assert httpx.get(base.url + "/health", timeout=30).json()["speakers"] == []


def test_a_favicon_is_served(base):
    response = httpx.get(base.url + "/favicon.ico", timeout=30)
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
