"""vLLM-Omni's HTTP clients, each request written as the client's source writes it (our code, not theirs),
against a real server process on 127.0.0.1 with tiny checkpoints, making the client's own checks.

Followed, in vllm-project/vllm-omni:
- examples/online_serving/text_to_speech/qwen3_tts/openai_speech_client.py and batch_speech_client.py at
  1c153fe458eee7ccb156a97e544613679e8ddecc;
- examples/online_serving/text_to_speech/qwen3_tts/tts_common.py at b1190d8d78b0a9636192518e7ad3b62106f0f993
  (the Gradio demos' voice list, payload and PCM stream);
- vllm_omni/entrypoints/openai/protocol/audio.py at 0131cb5560450800b800e889fb849ea2c851bd3f (the request,
  batch and usage shapes; `stream: true` alone is SSE);
- vllm_omni/entrypoints/openai/tts_adapters/qwen3_tts.py at 078de2d14c2fcc670c1e0dd492e1b84a69c69d15
  (`task_type` against the checkpoint's; Base with a built-in voice and `ref_audio` clones the audio);
- vllm_omni/entrypoints/openai/serving_speech.py at 01bc4171df2a6ee9799a6994eb61eb10b6931641 (a batch's
  fields under each item's; each item checked on its own, a bad one failing alone).
Every read has a timeout; no loop is unbounded.
"""

import base64
import io
import json
from pathlib import Path

import httpx
import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("uvicorn")

from server_harness import ROOT, shared_server  # noqa: E402

CLIP = ROOT / "tests" / "fixtures" / "clone" / "ref_16k.wav"
CLIP_TEXT = "This is the reference transcript."
FRAMES, FRAME, TIMEOUT = 8, 1920, 300
HEADERS = {"Content-Type": "application/json", "Authorization": "Bearer EMPTY"}  # both clients' headers
CLIENT_MODEL = "Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice"  # openai_speech_client.py's --model default


@pytest.fixture(scope="module")
def custom(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return shared_server("base-0b6", tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def design(tmp_path_factory):
    return shared_server("voice_design-1b7", tmp_path_factory.getbasetemp())


def data_url(path: Path) -> str:
    """openai_speech_client.py / batch_speech_client.py `encode_audio_to_base64`: the MIME type by extension."""
    mime = {".wav": "audio/wav", ".mp3": "audio/mpeg", ".flac": "audio/flac", ".ogg": "audio/ogg"}
    return f"data:{mime.get(path.suffix.lower(), 'audio/wav')};base64,{base64.b64encode(path.read_bytes()).decode()}"


def speech_client(server, text, speaker="vivian", response_format="wav", model=CLIENT_MODEL, task_type=None,
                  instructions=None, language=None, max_new_tokens=FRAMES, ref_audio=None, ref_text=None,
                  x_vector_only=False, speaker_embedding=None):
    """openai_speech_client.py `run_tts_generation`: the payload as it builds it from its arguments, one POST;
    returns (status, body)."""
    payload = {"model": model, "input": text, "voice": speaker, "response_format": response_format}
    for name, value in (("instructions", instructions), ("task_type", task_type), ("language", language),
                        ("max_new_tokens", max_new_tokens)):
        if value:
            payload[name] = value
    if ref_audio:
        payload["ref_audio"] = ref_audio if ref_audio.startswith(("http://", "https://", "data:")) else \
            data_url(Path(ref_audio))
    if ref_text:
        payload["ref_text"] = ref_text
    if x_vector_only:
        payload["x_vector_only_mode"] = True
    if speaker_embedding:
        payload["speaker_embedding"] = json.loads(Path(speaker_embedding).read_text())
    with httpx.Client(timeout=TIMEOUT) as client:
        response = client.post(f"{server.url}/v1/audio/speech", json=payload, headers=HEADERS)
    return response.status_code, response


def saved_audio(response) -> np.ndarray:
    """The client's checks (200; not a JSON error), then what it saved, decoded."""
    assert response.status_code == 200, response.text
    assert not response.content.startswith(b'{"error"')
    return sf.read(io.BytesIO(response.content), dtype="float32")[0]


def batch_client(server, texts, voice="vivian", response_format="wav", language=None, task_type=None,
                 instructions=None, max_new_tokens=FRAMES, ref_audio=None, ref_text=None, items=None):
    """batch_speech_client.py `run_batch`: items of `input` only, the shared fields at the batch's top level;
    returns the parsed body after the client's checks (200; total = succeeded + failed)."""
    payload = {"items": items or [{"input": text} for text in texts], "response_format": response_format}
    for name, value in (("voice", voice), ("language", language), ("task_type", task_type),
                        ("instructions", instructions), ("max_new_tokens", max_new_tokens)):
        if value:
            payload[name] = value
    if ref_audio:
        payload["ref_audio"] = ref_audio if ref_audio.startswith(("http://", "https://")) else data_url(Path(ref_audio))
    if ref_text:
        payload["ref_text"] = ref_text
    with httpx.Client(timeout=TIMEOUT) as client:
        response = client.post(f"{server.url}/v1/audio/speech/batch", json=payload, headers=HEADERS)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["total"] == data["succeeded"] + data["failed"] == len(data["results"])
    return data


def batch_files(data, response_format="wav") -> dict:
    """What batch_speech_client.py saves: each successful result's `audio_data`, by `index`."""
    return {r["index"]: base64.b64decode(r["audio_data"]) for r in data["results"] if r["status"] == "success"}


def frames(samples) -> int:
    """The frames of a sampled answer: 1 to FRAMES (a sampled tiny model may end early), whole frames."""
    assert 0 < len(samples) <= FRAMES * FRAME and len(samples) % FRAME == 0, len(samples)
    return len(samples) // FRAME


def wav(data: bytes) -> np.ndarray:
    samples, rate = sf.read(io.BytesIO(data), dtype="float32")
    assert rate == 24000 and data[:4] == b"RIFF"
    return samples


# ----- openai_speech_client.py ----------------------------------------------------------------------------


@pytest.mark.parametrize("task, words", [("VoiceDesign", "CustomVoice"), ("Base", "CustomVoice")])
def test_the_checkpoints_task_is_spoken_and_another_refused_naming_it(custom, task, words):
    """vLLM-Omni: "Qwen3-TTS CustomVoice checkpoint does not support task_type='Base'"; ours names both the
    same way, in our error shape (which starts as the client's error check expects)."""
    status, response = speech_client(custom, "Hello, how are you?", task_type="CustomVoice",
                                     instructions="Speak with excitement", language="English")
    assert response.headers["content-type"] == "audio/wav"
    frames(saved_audio(response))
    status, response = speech_client(custom, "Hello world", task_type=task, instructions="A warm voice")
    assert status == 400 and response.text.startswith('{"error"')
    error = response.json()["error"]
    assert error["param"] == "task_type" and error["code"] == "model_not_supported"
    assert f"task is {words}" in error["message"] and task in error["message"]


def test_voice_design_as_the_client_sends_it_with_its_default_voice(design):
    """openai_speech_client.py's VoiceDesign example: `voice: "vivian"` goes along and is not used, as there."""
    status, response = speech_client(design, "Hello world", task_type="VoiceDesign",
                                     instructions="A warm, friendly female voice")
    frames(saved_audio(response))
    status, response = speech_client(design, "Hello world", task_type="VoiceDesign")
    error = response.json()["error"]
    assert status == 400 and error["param"] == "instructions" and "VoiceDesign" in error["message"]


def test_base_clones_from_a_data_url_despite_the_default_voice(base):
    """The client sends its default `voice: "vivian"` beside `ref_audio`; as vLLM-Omni, the audio is cloned."""
    status, response = speech_client(base, "Hello world", task_type="Base", ref_audio=str(CLIP), ref_text=CLIP_TEXT)
    frames(saved_audio(response))


def test_base_x_vector_only_and_a_speaker_embedding(base, tmp_path):
    status, response = speech_client(base, "Hello world", task_type="Base", ref_audio=str(CLIP), x_vector_only=True)
    frames(saved_audio(response))
    embedding = tmp_path / "embedding.json"
    embedding.write_text(json.dumps([0.01 * (i % 7) for i in range(64)]))  # the tiny model's hidden size
    status, response = speech_client(base, "Hello world", task_type="Base", speaker_embedding=str(embedding))
    frames(saved_audio(response))
    embedding.write_text(json.dumps([0.5] * 1024))  # a 0.6B release's size, not this model's
    status, response = speech_client(base, "Hello world", task_type="Base", speaker_embedding=str(embedding))
    error = response.json()["error"]
    assert status == 400 and error["param"] == "speaker_embedding" and "1024" in error["message"] \
        and "64" in error["message"]


def test_a_ref_audio_to_fetch_is_refused_saying_what_to_send(base):
    """A URL (openai_speech_client.py passes http(s) as given) or a server-side file:// path (tts_common.py's
    "reference audio URL" field passes anything as given): one 400 naming the field and what to send."""
    status, response = speech_client(base, "Hello world", task_type="Base", ref_audio="https://example.com/ref.wav",
                                     ref_text=CLIP_TEXT)
    path = gradio_payload("Hello world", "Base", "", "Auto", "", None, "file:///srv/voices/ref.wav", CLIP_TEXT, False,
                          stream=False)
    served = httpx.post(base.url + "/v1/audio/speech", json=path, headers=HEADERS, timeout=TIMEOUT)
    for answer in (response, served):
        error = answer.json()["error"]
        assert answer.status_code == 400 and error["param"] == "ref_audio", error
        assert "data: URL" in error["message"] and "POST /v1/audio/voices" in error["message"]


def test_stream_true_alone_is_sse(custom):
    """protocol/audio.py: `stream: true` without `stream_format` streams speech.audio.* events."""
    body = {"input": "Hello there.", "voice": "vivian", "response_format": "pcm", "stream": True,
            "max_new_tokens": FRAMES}
    with httpx.stream("POST", custom.url + "/v1/audio/speech", json=body, headers=HEADERS, timeout=TIMEOUT) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        events = [json.loads(line[6:]) for line in r.iter_lines() if line.startswith("data: ")]
    audio = b"".join(base64.b64decode(e["audio"]) for e in events if e["type"] == "speech.audio.delta")
    assert events[-1]["type"] == "speech.audio.done"
    assert frames(np.frombuffer(audio, "<i2")) == events[-1]["usage"]["output_tokens"]


# ----- batch_speech_client.py -----------------------------------------------------------------------------


def test_a_batch_with_a_predefined_voice_honours_its_defaults(custom):
    """The batch's `response_format: wav` applies to every item (it used to come back mp3, in our shape)."""
    data = batch_client(custom, ["Hello, how are you?", "Goodbye, see you later!"], language="English")
    assert data["id"].startswith("speech-batch-") and (data["succeeded"], data["failed"]) == (2, 0), data["results"]
    files = batch_files(data)
    for result in data["results"]:
        usage = result["usage"]
        assert result["media_type"] == "audio/wav" and usage["output_tokens"] == frames(wav(files[result["index"]]))
        assert usage["input_token_details"]["text_tokens"] > 0 and usage["input_token_details"]["audio_tokens"] == 0
        assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]


def test_a_batch_clones_one_reference_for_every_item(base):
    data = batch_client(base, ["First cloned sentence.", "Second cloned sentence.", "Third cloned sentence."],
                        task_type="Base", ref_audio=str(CLIP), ref_text=CLIP_TEXT)
    assert data["succeeded"] == 3 and all(frames(wav(f)) for f in batch_files(data).values())
    assert all(r["usage"]["input_token_details"]["audio_tokens"] > 0 for r in data["results"])  # in-context


def test_a_bad_item_fails_alone(custom):
    data = batch_client(custom, None, items=[{"input": "Fine."}, {"input": "Not fine.", "voice": "nobody"},
                                             {"input": "Fine too.", "response_format": "flac"}])
    assert (data["succeeded"], data["failed"]) == (2, 1)
    bad = data["results"][1]
    assert bad["status"] == "error" and "nobody" in bad["error"] and bad["audio_data"] is None
    files = batch_files(data)
    assert frames(wav(files[0]))
    assert data["results"][2]["media_type"] == "audio/flac" and frames(sf.read(io.BytesIO(files[2]))[0])


# ----- tts_common.py (the Gradio demos) -------------------------------------------------------------------


def test_the_voice_list_reads_for_vllm_omni_and_open_webui(base):
    """tts_common.py `fetch_voices` takes `voices` when non-empty; vLLM-Omni's listers read `uploaded_voices`'
    `name`; Open WebUI maps `voices` by `id` and `name` (test_clients.py): one body serves them all."""
    with open(CLIP, "rb") as clip:
        made = httpx.post(base.url + "/v1/audio/voices", files={"audio_sample": ("ref.wav", clip, "audio/wav")},
                          data={"name": "My Narrator", "ref_text": CLIP_TEXT}, timeout=TIMEOUT)
    assert made.status_code == 201, made.text
    resp = httpx.get(base.url + "/v1/audio/voices", headers={"Authorization": "Bearer EMPTY"}, timeout=10)
    data = resp.json()
    assert resp.status_code == 200 and data.get("voices")
    assert {v["id"]: v["name"] for v in data["voices"]}["my-narrator"] == "My Narrator"
    uploaded = {v["name"]: v for v in data["uploaded_voices"]}["my-narrator"]
    assert uploaded["ref_text"] == CLIP_TEXT and uploaded["embedding_source"] == "audio"
    assert uploaded["display_name"] == "My Narrator" and uploaded["file_size"] > 0
    # vLLM-Omni names an uploaded voice in `voice` with task Base
    status, response = speech_client(base, "Hello.", speaker="my-narrator", task_type="Base")
    frames(saved_audio(response))


def gradio_payload(text, task_type, voice, language, instructions, ref_audio, ref_audio_url, ref_text, x_vector_only,
                   response_format="pcm", speed=1.0, stream=True):
    """tts_common.py `build_payload` (ref_audio: (rate, int16 samples), sent as a WAV data: URL unless a URL is
    given)."""
    payload = {"input": text.strip(), "response_format": "pcm" if stream else response_format, "stream": stream}
    if stream:
        payload["stream_format"] = "audio"
    else:
        payload["speed"] = speed
    payload.update(task_type=task_type, language=language)
    if task_type == "CustomVoice":
        payload["voice"] = voice
        if instructions:
            payload["instructions"] = instructions
    elif task_type == "Base":
        if ref_audio_url.strip():
            payload["ref_audio"] = ref_audio_url.strip()
        else:
            buf = io.BytesIO()
            sf.write(buf, ref_audio[1], ref_audio[0], format="WAV")
            payload["ref_audio"] = "data:audio/wav;base64," + base64.b64encode(buf.getvalue()).decode()
        if ref_text:
            payload["ref_text"] = ref_text
        if x_vector_only:
            payload["x_vector_only_mode"] = True
    return payload


def pcm_chunks(server, payload):
    """tts_common.py `stream_pcm_chunks`: int16 arrays as bytes arrive, odd bytes carried to the next chunk."""
    leftover, chunks = b"", []
    with httpx.Client(timeout=TIMEOUT) as client:
        with client.stream("POST", f"{server.url}/v1/audio/speech", json=payload, headers=HEADERS) as resp:
            if resp.status_code != 200:
                resp.read()
                raise AssertionError(f"Server error ({resp.status_code}): {resp.text}")
            for chunk in resp.iter_bytes():
                raw = leftover + chunk
                usable = len(raw) - len(raw) % 2
                leftover = raw[usable:]
                if usable:
                    chunks.append(np.frombuffer(raw[:usable], dtype=np.int16).copy())
    return np.concatenate(chunks), leftover


def test_the_demos_stream_pcm_for_custom_voice_and_clone(custom, base):
    samples, leftover = pcm_chunks(custom, gradio_payload("Hello there.", "CustomVoice", "vivian", "English", "",
                                                          None, "", "", False))
    assert leftover == b"" and len(samples) > 0 and len(samples) % FRAME == 0
    clip, rate = sf.read(CLIP, dtype="int16")
    clone = gradio_payload("Hello there.", "Base", "", "Auto", "", (rate, clip), "", "", True)
    samples, leftover = pcm_chunks(base, clone)
    assert leftover == b"" and len(samples) > 0 and len(samples) % FRAME == 0
    with pytest.raises(AssertionError, match=r"Server error \(400\).*task is CustomVoice"):  # the demo's gr.Error
        pcm_chunks(custom, clone)


# ----- one request, both dialects ----------------------------------------------------------------------------


def test_the_same_batch_in_both_dialects_gives_the_same_samples(custom):
    items = [{"input": "One text.", "temperature": 0}, {"input": "Another text.", "voice": "ryan", "temperature": 0}]
    shared = {"voice": "vivian", "response_format": "wav", "max_new_tokens": FRAMES}
    ours = httpx.post(custom.url + "/v1/audio/speech/batch", json={"items": items, "defaults": shared},
                      timeout=TIMEOUT)
    omni = httpx.post(custom.url + "/v1/audio/speech/batch", json={"items": items, **shared}, timeout=TIMEOUT)
    assert ours.status_code == omni.status_code == 200, (ours.text, omni.text)
    assert "data" in ours.json() and "results" in omni.json()
    ours_audio = [wav(base64.b64decode(d["audio"])) for d in ours.json()["data"]]
    omni_audio = [wav(f) for _, f in sorted(batch_files(omni.json()).items())]
    alone = wav(httpx.post(custom.url + "/v1/audio/speech", json={**shared, **items[1]}, timeout=TIMEOUT).content)
    for a, b in zip(ours_audio, omni_audio):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(alone, omni_audio[1])


def test_cloning_inline_speaks_as_the_saved_voice_of_the_same_clip(base):
    """vLLM-Omni's inline `ref_audio` (x-vector only) and ours (the clip uploaded once, then named) give the same
    samples: both read the clip the same way."""
    with open(CLIP, "rb") as clip:
        made = httpx.post(base.url + "/v1/audio/voices", files={"audio_sample": ("ref.wav", clip, "audio/wav")},
                          data={"name": "inline-twin", "x_vector_only": "true"}, timeout=TIMEOUT)
    assert made.status_code == 201, made.text
    common = {"input": "Hello world.", "response_format": "wav", "max_new_tokens": FRAMES, "temperature": 0}
    saved = httpx.post(base.url + "/v1/audio/speech", json={**common, "voice": "inline-twin"}, timeout=TIMEOUT)
    inline = httpx.post(base.url + "/v1/audio/speech", json={**common, "task_type": "Base", "voice": "vivian",
                                                             "ref_audio": data_url(CLIP), "x_vector_only_mode": True},
                        timeout=TIMEOUT)
    np.testing.assert_array_equal(saved_audio(saved), saved_audio(inline))
