"""Voice cloning end to end against the official qwen-tts 0.1.1 `generate_voice_clone`, greedy.

Fixtures come from tests/reference/record_clone.py (torch, run once) under <fixtures>/clone: the
reference audio files, one npz per case (x-vector, reference codes, prefill, codes, waveform) and
cases.json with the sha256 of the checkpoints they were recorded on. MLX_QWEN3TTS_FIXTURES switches
checkpoints and clone fixtures together.
"""

import hashlib
import json
import warnings

import mlx.core as mx
import numpy as np
import pytest
import soundfile as sf

import mlx_qwen3tts
from fixture_checkpoints import FIXTURES, checkpoint_dir
from mlx_qwen3tts import voices
from mlx_qwen3tts.errors import InputError
from mlx_qwen3tts.loop.prompt import build_prompt

CLONE = FIXTURES / "clone"
META = json.loads((CLONE / "cases.json").read_text())
CASES = {c["name"]: c for c in META["cases"]}
ICL_STREAMING = [n for n, c in CASES.items() if not c["x_vector_only"] and not c["non_streaming_mode"]]
TEXT_STREAMING = [n for n, c in CASES.items() if not c["non_streaming_mode"]]
_models, _results = {}, {}


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.getbasetemp()


def model(name, root):
    if name not in _models:
        _models[name] = mlx_qwen3tts.load(str(checkpoint_dir(name, root)), dtype=mx.float32)
    return _models[name]


def reference(case):
    return np.load(CLONE / case["npz"])


def frame_limit(case):
    # HF returns N-1 frames when it hits max_new_tokens=N; one more lets us see an EOS it stopped on.
    return case["frames"] + 1 if case["stopped_on_eos"] else case["frames"]


def clone_kwargs(case, **overrides):
    kwargs = dict(language=case["language"], ref_audio=str(CLONE / case["audio"]), ref_text=case["ref_text"],
                  x_vector_only=case["x_vector_only"],
                  text_mode="non-streaming" if case["non_streaming_mode"] else "streaming")
    kwargs.update(overrides)
    return kwargs


def generate(tts, case, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tts.generate(case["text"], temperature=0, max_tokens=frame_limit(case), **kwargs)


def result(name, root):
    """The greedy clone of one case from its reference audio file (computed once)."""
    if name not in _results:
        case = CASES[name]
        _results[name] = generate(model(case["checkpoint"], root), case, **clone_kwargs(case))
    return _results[name]


def assert_matches_reference(res, ref):
    np.testing.assert_array_equal(res.codes, ref["codes"])
    assert res.stopped_on_eos == bool(ref["stopped_on_eos"])
    assert res.audio.shape == ref["waveform"].shape
    assert np.abs(res.audio - ref["waveform"]).max() < 1e-3


def test_fixtures_match_checkpoints(root):
    """The clone fixtures were recorded on exactly the checkpoints (and audio) these tests load."""
    sha = lambda path: hashlib.sha256(path.read_bytes()).hexdigest()  # noqa: E731
    for name, files in META["checkpoint_sha256"].items():
        folder = checkpoint_dir(name, root)
        for fname, digest in files.items():
            assert sha(folder / fname) == digest, f"{name}/{fname} differs from the one the clone fixtures used; " \
                                                  "re-run tests/reference/record_clone.py"
    for fname, info in META["audio"].items():
        assert sha(CLONE / fname) == info["sha256"]


def test_cases_cover_every_mode():
    modes = {(c["checkpoint"], c["x_vector_only"], c["non_streaming_mode"]) for c in CASES.values()}
    for size in ("base-0b6", "base-1b7"):
        assert {(size, False, False), (size, False, True)} <= modes
        assert any(m[0] == size and m[1] for m in modes)
    overlays = {c.get("icl_overlay") for c in CASES.values()}
    assert {"text shorter than codec", "text longer than codec", "reference text alone longer than codec"} <= overlays


@pytest.mark.parametrize("name", list(CASES))
def test_greedy_clone_matches_reference(name, root):
    case, ref = CASES[name], reference(CASES[name])
    res = result(name, root)
    voice = res.voice
    xvector = np.array(voice.xvector)
    cosine = xvector @ ref["xvector"] / (np.linalg.norm(xvector) * np.linalg.norm(ref["xvector"]))
    assert cosine >= 0.99999
    if case["x_vector_only"]:
        assert voice.ref_codes is None
    else:
        np.testing.assert_array_equal(np.array(voice.ref_codes), ref["ref_codes"])
    assert_matches_reference(res, ref)


@pytest.mark.parametrize("name", list(CASES))
def test_clone_prompt_embeddings(name, root):
    """The prefill and the trailing text track, from the reference's own x-vector and codes."""
    case, ref = CASES[name], reference(CASES[name])
    tts = model(case["checkpoint"], root)
    target = tts.tokenizer.assistant(case["text"])
    assert target.ids == ref["input_ids"].tolist()
    voice = voices.Voice(xvector=mx.array(ref["xvector"]))
    if not case["x_vector_only"]:
        transcript = tts.tokenizer.reference(case["ref_text"])
        assert transcript.ids == ref["ref_ids"].tolist()
        voice = voices.Voice(xvector=voice.xvector, ref_codes=mx.array(ref["ref_codes"]),
                             ref_text_ids=transcript.body, ref_text=case["ref_text"])
    prompt = build_prompt(tts.model.talker, tts.config, target, voice=voice,
                          language=case["language"], streaming=not case["non_streaming_mode"])
    np.testing.assert_allclose(np.array(prompt.embeds[0]), ref["prefill_embeds"], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.array(prompt.trailing), ref["trailing_text"], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", ["clone_0b6_icl_streaming", "clone_1b7_xvector_nonstreaming"])
def test_saved_voice_reproduces_the_audio_clone(name, root, tmp_path):
    case = CASES[name]
    tts = model(case["checkpoint"], root)
    voice = tts.clone(CLONE / case["audio"], case["ref_text"], x_vector_only=case["x_vector_only"])
    path = tmp_path / "voice.safetensors"
    voices.save_voice(voice, path, tts.config.tts_model_size)
    loaded = tts.load_voice(path)
    assert loaded.ref_text == voice.ref_text
    res = generate(tts, case, voice=str(path), language=case["language"],
                   text_mode="non-streaming" if case["non_streaming_mode"] else "streaming")
    from_audio = result(name, root)
    np.testing.assert_array_equal(res.codes, from_audio.codes)
    np.testing.assert_array_equal(res.audio, from_audio.audio)
    assert_matches_reference(res, reference(case))


def test_voice_of_another_size_is_refused(root, tmp_path):
    small, large = model("base-0b6", root), model("base-1b7", root)
    case = CASES["clone_0b6_icl_streaming"]
    path = tmp_path / "small.safetensors"
    voices.save_voice(small.clone(CLONE / case["audio"], case["ref_text"]), path, small.config.tts_model_size)
    with pytest.raises(InputError, match=r"0\.6B.*1\.7B"):
        large.load_voice(path)
    with pytest.raises(InputError, match=r"0\.6B"):
        large.generate("Hello world.", voice=str(path), max_tokens=2)
    not_a_voice = tmp_path / "weights.safetensors"
    mx.save_safetensors(str(not_a_voice), {"x": mx.zeros(3)})
    with pytest.raises(InputError, match="not a voice"):
        small.load_voice(not_a_voice)
    with pytest.raises(InputError, match="does not exist"):
        small.load_voice(tmp_path / "missing.safetensors")


def test_repeated_reference_skips_the_encoders(root, monkeypatch):
    case = CASES["clone_0b6_icl_streaming"]
    tts = model(case["checkpoint"], root)
    monkeypatch.setattr(tts, "voice_cache", voices.VoiceCache())
    calls = {"xvector": 0, "codes": 0}
    extract, encode = voices.extract_xvector, tts.codec.encode

    def counted_extract(*args):
        calls["xvector"] += 1
        return extract(*args)

    def counted_encode(*args):
        calls["codes"] += 1
        return encode(*args)

    monkeypatch.setattr(voices, "extract_xvector", counted_extract)
    monkeypatch.setattr(tts.codec, "encode", counted_encode)
    path = CLONE / case["audio"]
    first = tts.clone(path, case["ref_text"])
    samples, rate = sf.read(path, dtype="float32")
    # The same audio as an array, and x-vector-only from it: the cached voice, encoders not run.
    again = tts.clone((samples, rate), "another transcript of it")
    xvector_only = tts.clone(path, x_vector_only=True)
    assert calls == {"xvector": 1, "codes": 1} and tts.voice_cache.hits == 2
    np.testing.assert_array_equal(np.array(again.ref_codes), np.array(first.ref_codes))
    np.testing.assert_array_equal(np.array(xvector_only.xvector), np.array(first.xvector))
    # A new reference cloned x-vector-only runs the speaker encoder alone; in-context cloning of the
    # same audio later adds its codes (the x-vector comes from the cache).
    other = CLONE / CASES["clone_0b6_icl_streaming_long_ref_text"]["audio"]
    tts.clone(other, x_vector_only=True)
    assert calls == {"xvector": 2, "codes": 1}
    icl = tts.clone(other, "its transcript")
    assert calls == {"xvector": 2, "codes": 2} and icl.ref_codes is not None


def test_voice_cache_is_least_recently_used():
    cache = voices.VoiceCache(size=2)
    cache.put("a", 1), cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)  # evicts b, the least recently used
    assert cache.get("b") is None and cache.get("a") == 1 and cache.get("c") == 3
    assert cache.hits == 3


def test_icl_without_reference_text_suggests_x_vector_only(root):
    case = CASES["clone_0b6_icl_streaming"]
    tts = model(case["checkpoint"], root)
    for ref_text in (None, "", "   "):
        with pytest.raises(InputError, match=r"\(x_vector_only\)") as error:  # the Python API's own name
            tts.generate("Hello world.", ref_audio=str(CLONE / case["audio"]), ref_text=ref_text, max_tokens=2)
        assert error.value.field == "ref_text"


def test_too_short_reference_text_warns(root):
    case = CASES["clone_0b6_icl_streaming"]
    tts = model(case["checkpoint"], root)
    with pytest.warns(UserWarning, match="too short") as caught:
        tts.clone(CLONE / case["audio"], "Hi")
    assert caught[0].filename == __file__  # the user's own call
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tts.clone(CLONE / case["audio"], case["ref_text"])


def _bad_audio(tmp_path):
    rate = 24000
    tone = (0.3 * np.sin(2 * np.pi * 220 * np.arange(rate) / rate)).astype(np.float32)
    unreadable = tmp_path / "notes.wav"
    unreadable.write_text("this is not audio")
    empty = tmp_path / "empty.wav"
    sf.write(empty, np.zeros(0, np.float32), rate)
    silent = tmp_path / "silent.flac"
    sf.write(silent, np.zeros(rate, np.float32), rate)
    short = tmp_path / "short.wav"
    sf.write(short, tone[: rate // 4], rate)
    return [
        (str(tmp_path / "missing.wav"), "not found"),
        (str(unreadable), "cannot read"),
        (str(empty), "empty"),
        (str(silent), "silent"),
        (str(short), "0.25 s"),
        ((np.zeros(0, np.float32), rate), "empty"),
        ((np.zeros(rate, np.float32), rate), "silent"),
        ((tone[: rate // 10], rate), "0.10 s"),
    ]


def test_bad_reference_audio_is_a_clear_error(root, tmp_path):
    tts = model("base-0b6", root)
    for audio, message in _bad_audio(tmp_path):
        frames = []
        with pytest.raises(InputError, match=message) as error:
            for frame in tts.frames("Hello world.", ref_audio=audio, x_vector_only=True, max_tokens=2):
                frames.append(frame)
        assert not frames and "\n" not in str(error.value)
        with pytest.raises(InputError, match=message):
            tts.generate("Hello world.", ref_audio=audio, x_vector_only=True, max_tokens=2)


@pytest.mark.parametrize("name", ["clone_0b6_icl_streaming", "clone_1b7_icl_nonstreaming"])
def test_streamed_audio_equals_one_shot(name, root):
    """The streaming decoder is primed with the reference codes, as upstream decodes them in front."""
    case = CASES[name]
    tts = model(case["checkpoint"], root)
    chunks = list(tts.stream(case["text"], temperature=0, max_tokens=frame_limit(case), chunk_frames=4,
                             **clone_kwargs(case)))
    audio = np.concatenate([c.samples for c in chunks])
    one_shot = result(name, root).audio
    assert audio.shape == one_shot.shape and len(chunks) > 2 and chunks[-1].is_final
    assert np.abs(audio - one_shot).max() < 1e-4
    assert np.abs(audio - reference(case)["waveform"]).max() < 1e-3


def _deltas(text, size=3):
    return iter([text[i: i + size] for i in range(0, len(text), size)])


@pytest.mark.parametrize("name", TEXT_STREAMING)
def test_streamed_text_gives_the_same_codes(name, root):
    """Text arriving in deltas, streaming layout: both branches of the ICL overlay and x-vector-only."""
    case = CASES[name]
    tts = model(case["checkpoint"], root)
    frames = tts.text_frames(
        _deltas(case["text"]), language=case["language"], ref_audio=str(CLONE / case["audio"]),
        ref_text=case["ref_text"], x_vector_only=case["x_vector_only"],
        temperature=0, max_tokens=frame_limit(case),
    )
    codes = np.concatenate([np.array(f.codes) for f in frames])
    np.testing.assert_array_equal(codes, reference(case)["codes"])
