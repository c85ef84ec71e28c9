"""Saved voices over HTTP on a Base model: clone from an upload, use, list, delete; uploads that
are too big, too long, not audio or badly named are refused; voices survive a restart.
This server runs without --api-key (the loopback default)."""

import io

import httpx
import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("uvicorn")

from server_harness import ServerProcess, shared_server  # noqa: E402

SR = 24000
FRAME = 1920


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    return shared_server("base-0b6", tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=120) as c:
        yield c


def clip(seconds=2.0, rate=16000, fmt="WAV") -> bytes:
    """A voiced-like test signal: harmonics of a gliding fundamental with a little noise."""
    rng = np.random.default_rng(0)
    t = np.arange(int(seconds * rate)) / rate
    f0 = 120 + 30 * np.sin(2 * np.pi * 0.7 * t)
    phase = 2 * np.pi * np.cumsum(f0) / rate
    audio = sum(np.sin(k * phase) / k for k in range(1, 8)) * 0.2 + 0.01 * rng.standard_normal(t.shape)
    buf = io.BytesIO()
    sf.write(buf, audio.astype(np.float32), rate, format=fmt)
    return buf.getvalue()


def upload(http, name, data=None, **fields):
    files = {"audio_sample": ("ref.wav", clip() if data is None else data, "audio/wav")}
    return http.post("/v1/audio/voices", files=files, data={"name": name, **fields})


def error_of(response, status):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["message"]
    return error


def speak(http, voice, frames=4):
    return http.post("/v1/audio/speech", json={"model": "tts-1", "input": "Testing my voice.", "voice": voice,
                                               "response_format": "wav", "max_new_tokens": frames,
                                               "temperature": 0})


def test_clone_use_list_delete(http, server):
    # The server may be shared with other modules, whose saved voices are listed too: these are not ours.
    before = {v["id"] for v in http.get("/v1/audio/voices").json()["voices"]} - {"default"}
    created = upload(http, "narrator_1", x_vector_only="true")
    assert created.status_code == 201, created.text
    assert created.json()["id"] == "narrator_1" and created.json()["in_context"] is False
    icl = upload(http, "narrator-icl", ref_text="A short reference transcript for this clip.")
    assert icl.status_code == 201 and icl.json()["in_context"] is True
    ids = [v["id"] for v in http.get("/v1/audio/voices").json()["voices"] if v["id"] not in before]
    assert ids == ["default", "narrator-icl", "narrator_1"]
    a, b, default = speak(http, "narrator_1"), speak(http, "narrator-icl"), speak(http, "alloy")
    for response in (a, b, default):
        assert response.status_code == 200, response.text
        audio, rate = sf.read(io.BytesIO(response.content))
        assert rate == SR and len(audio) == 4 * FRAME
    assert a.content != default.content  # the cloned voice is used, not the default one
    assert http.delete("/v1/audio/voices/narrator-icl").json()["deleted"] is True
    error_of(http.delete("/v1/audio/voices/narrator-icl"), 404)
    error_of(speak(http, "narrator-icl"), 400)


def test_a_model_without_presets_lists_its_default_voice(http):
    """As Wyoming's describe offers it: `default`, which a request may name, and no upload may take."""
    voices = http.get("/v1/audio/voices").json()["voices"]
    assert voices[0] == {"id": "default", "name": "default", "type": "default"}
    assert [v["id"] for v in voices].count("default") == 1
    named, unnamed = speak(http, "default"), speak(http, None)
    assert named.status_code == 200, named.text
    # Greedy: the same voice as no voice at all. Compared as samples within float rounding: two identical requests
    # to the shared server have come back a few bytes apart (also before this listing existed).
    same, other = (sf.read(io.BytesIO(r.content), dtype="float32")[0] for r in (named, unnamed))
    np.testing.assert_allclose(same, other, atol=1e-3)
    assert "default voice" in error_of(upload(http, "Default", x_vector_only="true"), 409)["message"]


def test_voices_survive_a_restart(http, server, tmp_path_factory, monkeypatch):
    assert upload(http, "keeper", x_vector_only="1").status_code == 201
    voices_dir = server.log_path.parent / "voices"
    assert (voices_dir / "keeper.safetensors").is_file()
    from fixture_checkpoints import checkpoint_dir

    model = checkpoint_dir("base-0b6", tmp_path_factory.getbasetemp())
    # The folder given as a user types it in a config file or quotes (no shell to expand the ~).
    monkeypatch.setenv("HOME", str(voices_dir.parent))
    second = ServerProcess(model, "~/voices", tmp_path_factory.mktemp("restart") / "server.log")
    try:
        listed = httpx.get(second.url + "/v1/audio/voices", timeout=30).json()["voices"]
        assert {"id": "keeper", "name": "keeper", "type": "saved"} in listed
        assert speak(httpx.Client(base_url=second.url, timeout=120), "keeper").status_code == 200
    finally:
        second.stop()


def test_an_existing_voice_is_never_replaced(http, server):
    assert upload(http, "unique", x_vector_only="true").status_code == 201
    path = server.log_path.parent / "voices" / "unique.safetensors"
    before = path.read_bytes()
    error = error_of(upload(http, "unique", data=clip(3.0, 22050), x_vector_only="true"), 409)
    assert error["code"] == "voice_exists"
    assert path.read_bytes() == before


@pytest.mark.parametrize("name", ["../evil", "a/b", "x" * 65, "", "two\nlines", "back\\slash"])
def test_bad_voice_names_are_refused(http, server, name):
    error = error_of(upload(http, name, x_vector_only="true"), 400)
    assert error["param"] == "name" and "characters" in error["message"]
    assert not any(p.name.startswith(".") or "evil" in p.name for p in (server.log_path.parent).rglob("*evil*"))


def test_bad_uploads(http):
    assert "not audio" in error_of(upload(http, "junk", data=b"this is not audio at all" * 100), 400)["message"]
    assert "60 s" in error_of(upload(http, "long", data=clip(61.0, 8000)), 400)["message"]
    short = error_of(upload(http, "short", data=clip(0.2), x_vector_only="true"), 400)
    assert "0.5 s" in short["message"]
    silent = io.BytesIO()
    sf.write(silent, np.zeros(SR, np.float32), SR, format="WAV")
    assert "silent" in error_of(upload(http, "silent", data=silent.getvalue(), x_vector_only="true"), 400)["message"]
    huge = b"RIFF" + b"\0" * (17 * 1024 * 1024)
    assert "16,842,752 bytes" in error_of(upload(http, "huge", data=huge), 413)["message"]
    missing = http.post("/v1/audio/voices", data={"name": "nofile"})
    assert error_of(missing, 400)["param"] == "audio_sample"
    assert error_of(upload(http, "flag", x_vector_only="maybe"), 400)["param"] == "x_vector_only"
    error_of(http.delete("/v1/audio/voices/..%2Fetc"), 404)  # no route takes a path
    assert error_of(http.delete("/v1/audio/voices/bad.name"), 400)["param"] == "voice_id"
    ids = [v["id"] for v in http.get("/v1/audio/voices").json()["voices"]]
    assert not {"junk", "long", "short", "silent", "huge", "nofile", "flag"} & set(ids)


def test_no_key_needed_on_a_loopback_server_without_one(http):
    assert http.get("/v1/models").status_code == 200
