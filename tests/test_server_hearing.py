"""The server's --asr: a voice uploaded without ref_text, or a request's ref_audio without it, is transcribed and
cloned in context; `"check": true` hears the answer back and makes it again where it is heard wrong. The server is
a real process on 127.0.0.1 whose recognizer (`fake_asr.Mishears`) hears the answers it is given, in turn; and one
started with `--asr FOLDER`, the real tiny random Qwen3-ASR of `fixture_checkpoints.asr_dir`, whose answers are
compared with that model's own transcript of the same audio."""

import base64
import io
import json

import httpx
import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("uvicorn")

import fake_asr  # noqa: E402
from fixture_checkpoints import FIXTURES, asr_dir, checkpoint_dir  # noqa: E402
from server_harness import shared_server  # noqa: E402

CLONE = FIXTURES / "clone"
CASES = json.loads((CLONE / "cases.json").read_text())["cases"]
ICL = next(c for c in CASES if c["name"] == "clone_0b6_icl_streaming")
OTHER = next(c for c in CASES if c["audio"] != ICL["audio"])
TEXT = "Testing my voice."
ANSWERS = [ICL["ref_text"], "Another clip heard.", "Tasting by choice", "nothing at all", TEXT]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A Base model's server with --asr, its recognizer hearing ANSWERS in turn."""
    process = fake_asr.start_server(checkpoint_dir("base-0b6", tmp_path_factory.getbasetemp()),
                                     tmp_path_factory.mktemp("hearing-server"), *ANSWERS)
    try:
        with httpx.Client(base_url=process.url, timeout=300) as client:
            yield client
    finally:
        process.stop()


def data_url(path, seconds=1.5) -> str:
    """The clip's first seconds as a data: URL (a JSON body is small)."""
    samples, rate = sf.read(path, dtype="float32", always_2d=True)
    samples = samples.mean(axis=1)
    buf = io.BytesIO()
    sf.write(buf, samples[: int(seconds * rate)], rate, format="WAV", subtype="PCM_16")
    return "data:audio/wav;base64," + base64.b64encode(buf.getvalue()).decode()


def wav(response) -> np.ndarray:
    return sf.read(io.BytesIO(response.content), dtype="float32")[0]


def test_upload_without_ref_text_is_transcribed(server):
    """The first thing the recognizer hears: the uploaded clip, cloned in context with the transcript, which the
    answer gives back (for the page to show and correct)."""
    assert server.get("/health").json()["asr"] is True
    with open(CLONE / ICL["audio"], "rb") as f:
        made = server.post("/v1/audio/voices", files={"audio_sample": ("ref.wav", f.read(), "audio/wav")},
                           data={"name": "heard"})
    assert made.status_code == 201, made.text
    answer = made.json()
    assert answer["in_context"] is True and answer["ref_text"] == ICL["ref_text"] and answer["transcribed"] is True
    listed = {v["name"]: v for v in server.get("/v1/audio/voices").json()["uploaded_voices"]}
    assert listed["heard"]["ref_text"] == ICL["ref_text"]


def test_ref_audio_without_ref_text_is_cloned_in_context(server):
    """The second thing heard: a request's clip, cloned in context with the transcript: the answer of that
    transcript given as ref_text."""
    body = {"input": TEXT, "ref_audio": data_url(CLONE / OTHER["audio"]), "response_format": "wav",
            "max_new_tokens": 4, "temperature": 0}
    heard = server.post("/v1/audio/speech", json=body)
    given = server.post("/v1/audio/speech", json={**body, "ref_text": ANSWERS[1]})
    assert heard.status_code == given.status_code == 200, heard.text
    np.testing.assert_array_equal(wav(heard), wav(given))
    alone = server.post("/v1/audio/speech", json={**body, "x_vector_only_mode": True})  # not heard: no transcript
    assert np.abs(wav(alone) - wav(given)).max() > 0.01


def test_check_makes_a_misheard_answer_again(server):
    speech = server.post("/v1/audio/speech", json={"input": TEXT, "response_format": "wav", "max_new_tokens": 6,
                                                   "seed": 3, "check": True})
    assert speech.status_code == 200, speech.text
    report = json.loads(speech.headers["x-check"])
    assert report == {"pieces": [{"text": TEXT, "heard": TEXT, "error_rate": 0.0, "tries": 3, "passed": True}]}
    from mlx_qwen3tts.seeds import check_seed

    again = server.post("/v1/audio/speech", json={"input": TEXT, "response_format": "wav", "max_new_tokens": 6,
                                                  "seed": check_seed(3, 2)})
    np.testing.assert_array_equal(wav(speech), wav(again))


def test_a_stream_tells_each_pieces_check_after_its_audio(server):
    """A stream's audio is gone before it is heard: each piece's check comes as an event after it, not made again."""
    with server.stream("POST", "/v1/audio/speech", json={"input": TEXT, "stream_format": "sse", "seed": 1,
                                                         "max_new_tokens": 6, "check": True}) as answer:
        assert answer.status_code == 200
        events = [json.loads(line[6:]) for line in answer.iter_lines() if line.startswith("data: ")]
    kinds = [e["type"] for e in events]
    assert kinds[-1] == "speech.audio.done" and kinds.count("speech.check") == 1, kinds
    assert "speech.audio.delta" in kinds[: kinds.index("speech.check")]
    assert events[kinds.index("speech.check")] == {"type": "speech.check", "piece": 0, "text": TEXT, "heard": TEXT,
                                                   "error_rate": 0.0, "tries": 1, "passed": True}


def test_check_is_refused_where_it_cannot_be_given(server, tmp_path_factory):
    bad = server.post("/v1/audio/speech", json={"input": TEXT, "check": "yes"})
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "check"
    raw = server.post("/v1/audio/speech", json={"input": TEXT, "check": True, "stream_format": "audio"})
    assert raw.status_code == 400 and raw.json()["error"]["param"] == "check"
    plain = shared_server("base-0b6", tmp_path_factory.getbasetemp())  # no --asr: as before, and no check
    with httpx.Client(base_url=plain.url, timeout=120) as client:
        assert client.get("/health").json()["asr"] is False
        refused = client.post("/v1/audio/speech", json={"input": TEXT, "check": True})
        assert refused.status_code == 400 and "--asr" in refused.json()["error"]["message"]
        with open(CLONE / ICL["audio"], "rb") as f:
            made = client.post("/v1/audio/voices", files={"audio_sample": ("ref.wav", f.read(), "audio/wav")},
                               data={"name": "untold"})
        assert made.status_code == 400 and made.json()["error"]["param"] == "ref_text"


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """A Base model's server with --asr naming the tiny Qwen3-ASR's folder (mlx_qwen3tts.asr itself), and that
    recognizer loaded here."""
    from mlx_qwen3tts import asr

    root = tmp_path_factory.getbasetemp()
    folder = str(asr_dir(root))
    process = shared_server("base-0b6", root, "--asr", folder)
    with httpx.Client(base_url=process.url, timeout=300) as client:
        yield client, asr.load(folder)


def test_the_real_recognizer_transcribes_an_upload_and_a_request(real):
    from mlx_qwen3tts.audio.reference import load_reference_audio

    client, model = real
    assert client.get("/health").json()["asr"] is True
    clip = CLONE / ICL["audio"]
    expected = model.transcribe(load_reference_audio(str(clip)), 24000).text.strip()
    assert expected
    with open(clip, "rb") as f:
        made = client.post("/v1/audio/voices", files={"audio_sample": ("ref.wav", f.read(), "audio/wav")},
                           data={"name": "heard-real"})
    assert made.status_code == 201, made.text
    answer = made.json()
    assert answer["ref_text"] == expected and answer["transcribed"] is True and answer["in_context"] is True
    listed = {v["name"]: v for v in client.get("/v1/audio/voices").json()["uploaded_voices"]}
    assert listed["heard-real"]["ref_text"] == expected
    url = data_url(CLONE / OTHER["audio"])
    short = load_reference_audio(sf.read(io.BytesIO(base64.b64decode(url.split(",", 1)[1])), dtype="float32"))
    body = {"input": TEXT, "ref_audio": url, "response_format": "wav", "max_new_tokens": 4, "temperature": 0}
    heard = client.post("/v1/audio/speech", json=body)
    given = client.post("/v1/audio/speech", json={**body, "ref_text": model.transcribe(short, 24000).text.strip()})
    assert heard.status_code == given.status_code == 200, heard.text
    np.testing.assert_array_equal(wav(heard), wav(given))


def test_the_real_recognizer_checks_an_answer(real):
    """"check": true with the real recognizer: the x-check header's "heard" is its transcript of the audio sent,
    told the text it checks (greedy: made once)."""
    from mlx_qwen3tts.hearing import error_rate

    client, model = real
    speech = client.post("/v1/audio/speech", json={"input": TEXT, "response_format": "wav", "max_new_tokens": 6,
                                                   "temperature": 0, "check": True})
    assert speech.status_code == 200, speech.text
    (piece,) = json.loads(speech.headers["x-check"])["pieces"]
    heard = model.transcribe(wav(speech), 24000, expected=TEXT).text.strip()
    assert piece == {"text": TEXT, "heard": heard, "error_rate": round(error_rate(TEXT, heard), 4), "tries": 1,
                     "passed": error_rate(TEXT, heard) <= 0.25}
