"""Qwen3-ForcedAligner in MLX against qwen-asr 0.0.6 (issue 44).

Fixtures: tests/reference/record_aligner.py (oracle venv) -> tests/fixtures/aligner/: a tiny random
aligner in the released layout, built with qwen-asr's classes, and the official outputs on three
synthetic clips (English at 24 kHz over three mel chunks, Chinese over two, a mixed text in one short
chunk). Tolerances: the mel within 1e-4 (float64 STFT here, float32 there: ~5e-6 seen); encoder
outputs (|x| up to ~4) within 1e-4 (~3e-6 seen); logits (std ~6) within 2e-4 (~1.5e-5 seen); the
official argmax wins every slot by at least 0.1 (cases.json `min_slot_margin`), so picks, repaired
times and word times must be equal exactly.
"""

import json

import mlx.core as mx
import numpy as np
import pytest

from fixture_checkpoints import ALIGNER, aligner_dir

from mlx_qwen3tts import aligner as aligner_api
from mlx_qwen3tts.thinker.features import log_mel, to_16k
from mlx_qwen3tts.aligner.words import repair, split_words
from mlx_qwen3tts.errors import InputError, ModelLoadError

CASES = json.loads((ALIGNER / "cases.json").read_text(encoding="utf-8"))["cases"]
NAMES = [c["name"] for c in CASES]


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return aligner_api.load(str(aligner_dir(tmp_path_factory.getbasetemp())))


def _case(name):
    case = next(c for c in CASES if c["name"] == name)
    with np.load(ALIGNER / f"{name}.npz") as data:
        recorded = dict(data)
    return case, recorded, recorded["pcm"].astype(np.float32) / 32768.0


@pytest.fixture(scope="module", params=NAMES)
def run(request, model):
    case, recorded, audio = _case(request.param)
    return case, recorded, audio, model.run(audio, case["sample_rate"], case["text"], case["language"])


def test_the_mel_front_end_equals_whisper_feature_extractor():
    case, recorded, audio = _case("mixed")  # the one case whose mel is recorded (fixture size)
    mel = log_mel(to_16k(audio, case["sample_rate"]))
    assert mel.shape == recorded["input_features"].shape
    np.testing.assert_allclose(mel, recorded["input_features"], atol=1e-4, rtol=0)


def test_encoder_outputs_equal_the_official_audio_tower(run, model):
    _, recorded, _, ours = run
    features = np.array(model.model.audio_features(mx.array(ours.mel)))
    assert features.shape == recorded["audio_features"].shape
    np.testing.assert_allclose(features, recorded["audio_features"], atol=1e-4, rtol=0)


def test_prompt_and_slot_layout_equal_the_official_processor(run):
    _, recorded, _, ours = run
    np.testing.assert_array_equal(ours.input_ids, recorded["input_ids"])
    np.testing.assert_array_equal(ours.slots, recorded["slots"])


def test_slot_logits_and_picks_equal_the_official_head(run):
    case, recorded, _, ours = run
    assert case["min_slot_margin"] >= 0.1
    n = recorded["slot_logits"].shape[0]
    np.testing.assert_allclose(ours.slot_logits[:n], recorded["slot_logits"], atol=2e-4, rtol=0)
    top = np.take_along_axis(ours.slot_logits, recorded["slot_top_classes"].astype(np.int64), axis=-1)
    np.testing.assert_allclose(top, recorded["slot_top_values"], atol=2e-4, rtol=0)
    np.testing.assert_array_equal(ours.slot_logits.argmax(-1), recorded["slot_argmax"])
    assert repair(ours.slot_logits.argmax(-1) * 80.0) == recorded["repaired_ms"].tolist()


def test_word_times_equal_qwen_asr(run, model):
    case, _, audio, _ = run
    words = model.align(audio, case["sample_rate"], case["text"], case["language"])
    seconds = audio.shape[0] / case["sample_rate"]  # ours are clamped to the clip, qwen-asr's are not
    assert [(w.text, w.start, w.end) for w in words] == [
        (w["text"], round(min(w["start"], seconds), 3), round(min(w["end"], seconds), 3)) for w in case["words"]]
    starts = [w.start for w in words]
    assert starts == sorted(starts) and all(w.start <= w.end for w in words)


def test_the_repair_equals_the_official_one_on_crafted_picks():
    cases = json.loads((ALIGNER / "repair.json").read_text())
    assert len(cases) >= 10
    for c in cases:
        assert repair(c["picks_ms"]) == c["repaired_ms"], c["picks_ms"]
    assert repair([]) == []


def test_words_split_as_the_official_processor():
    for case in CASES:
        assert split_words(case["text"], case["language"]) == [w["text"] for w in case["words"]]
    assert split_words("我爱Python和 MLX，好！", "Chinese") == ["我", "爱", "Python", "和", "MLX", "好"]
    assert split_words("l'été -- 3.5 e-mail", "French") == ["l'été", "35", "email"]


@pytest.mark.parametrize("language, text, words", [
    ("Korean", "안녕하세요", "Korean needs soynlp"),
    ("Klingon", "Qapla", "does not know the language 'Klingon'"),
    ("English", "  ", "is empty"),
    ("English", "!!! ...", "no word to time"),
])
def test_bad_input_is_refused_with_a_clear_message(model, language, text, words):
    with pytest.raises(InputError, match=words):
        model.align(np.zeros(16000, np.float32), 16000, text, language)


def test_japanese_needs_the_nagisa_extra_or_splits_as_nagisa(model):
    try:
        import nagisa
    except ImportError:
        with pytest.raises(InputError, match=r"aligner-ja"):
            split_words("東京に行きます", "Japanese")
    else:
        expected = [w for w in nagisa.tagging("東京に行きます。").words if w != "。"]
        assert split_words("東京に行きます。", "Japanese") == expected


def test_a_tts_folder_is_not_an_aligner_and_a_converted_one_is_refused(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "qwen3_tts"}))
    with pytest.raises(ModelLoadError, match="not a Qwen3-ForcedAligner"):
        aligner_api.load(str(tmp_path))
    (tmp_path / "config.json").write_text(json.dumps({"timestamp_token_id": 151705, "quantization": {"bits": 4},
                                                      "thinker_config": {"classify_num": 5000}}))
    with pytest.raises(ModelLoadError, match="converted .quantized. aligner"):
        aligner_api.load(str(tmp_path))


def test_an_8_bit_decoder_keeps_every_pick_and_a_4_bit_one_loads(tmp_path_factory):
    """Quantized as it loads (mlx nn.quantize, groups of 32 for the tiny widths): 8-bit moves the top
    logits by at most 0.5 here (0.28 seen) and changes no pick; 4-bit is only loaded and run (the tiny
    random weights, drawn on 25 levels, are no measure of 4-bit accuracy)."""
    folder = str(aligner_dir(tmp_path_factory.getbasetemp()))
    eight = aligner_api.load(folder, bits=8, group_size=32)
    four = aligner_api.load(folder, bits=4, group_size=32)
    layer = eight.model.thinker.model.layers[0]
    assert type(layer.mlp.gate_proj).__name__ == "QuantizedLinear" and layer.mlp.gate_proj.bits == 8
    assert type(eight.model.thinker.model.embed_tokens).__name__ == "QuantizedEmbedding"
    assert type(eight.model.thinker.lm_head).__name__ == "Linear"  # the head stays dense
    for name in NAMES:
        case, recorded, audio = _case(name)
        run = eight.run(audio, case["sample_rate"], case["text"], case["language"])
        top = np.take_along_axis(run.slot_logits, recorded["slot_top_classes"].astype(np.int64), axis=-1)
        assert np.abs(top - recorded["slot_top_values"]).max() < 0.5
        np.testing.assert_array_equal(run.slot_logits.argmax(-1), recorded["slot_argmax"])
        words = four.align(audio, case["sample_rate"], case["text"], case["language"])
        assert [w.text for w in words] == [w["text"] for w in case["words"]]
    with pytest.raises(InputError, match="bits must be one of 4, 6, 8"):
        aligner_api.load(folder, bits=3)


def test_an_aligner_not_downloaded_offline_is_named_as_the_aligner(tmp_path):
    """Offline with an empty hub cache: the default id is said to need one download (not called an
    unknown model beside the TTS ids), in a fresh process so no other test's cache settings apply."""
    import subprocess
    import sys

    code = ("from mlx_qwen3tts import aligner\n"
            "try:\n    aligner.load()\nexcept Exception as e:\n    print(type(e).__name__, e)\n")
    env = {**__import__("os").environ, "HF_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    env.pop("HF_HUB_CACHE", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120).stdout
    assert out.startswith("ModelLoadError model 'Qwen/Qwen3-ForcedAligner-0.6B' is not in the local cache")
    assert "connect once to download it" in out and "Qwen3-TTS" not in out


def test_iso_codes_name_the_same_languages_as_for_speech(model):
    """Issue 51: the codes the CLI and the server take for speech ('en', 'zh-CN') time words as their names
    do; Korean by its code is refused as by its name, and a code the aligner does not know is named."""
    case, _, audio = _case("english")
    named = model.align(audio, case["sample_rate"], case["text"], "English")
    for code in ("en", "EN", "en-GB", "en_us"):
        assert model.align(audio, case["sample_rate"], case["text"], code) == named
    case, _, audio = _case("chinese")
    assert model.align(audio, case["sample_rate"], case["text"], "zh-CN") == \
        model.align(audio, case["sample_rate"], case["text"], "Chinese")
    assert model.check_language("de") == "German" and model.check_language("auto") == "auto"
    for code, words in (("ko", "Korean needs soynlp"), ("ko-KR", "Korean needs soynlp"),
                        ("xx", "does not know the language 'xx'")):
        with pytest.raises(InputError, match=words) as raised:
            model.check_language(code)
        assert raised.value.field == "language"
    with pytest.raises(InputError, match="Korean needs soynlp"):
        split_words("안녕하세요", "ko")  # the check the CLI makes before it loads anything


@pytest.mark.parametrize("audio, rate, field, words", [
    (np.zeros(16000, np.float32), 0, "sample_rate", "must be a positive whole number"),
    (np.zeros(16000, np.float32), -16000, "sample_rate", "must be a positive whole number"),
    (np.zeros(16000, np.float32), None, "sample_rate", "must be a positive whole number"),
    (np.zeros(16000, np.float32), 16000.5, "sample_rate", "must be a positive whole number"),
    (np.full(16000, np.nan, np.float32), 16000, "audio", "not numbers"),
    (np.r_[np.zeros(8000), np.inf].astype(np.float32), 16000, "audio", "not numbers"),
    (np.zeros((2, 8000, 1), np.float32), 16000, "audio", r"mono \(samples,\) or \(samples, channels\)"),
    ("loud", 16000, "audio", "array of float samples"),
])
def test_bad_audio_or_rate_is_one_input_error_naming_the_field(model, audio, rate, field, words):
    """Issue 51: docs/aligner.md promises InputError for bad input; a rate of 0, a negative or None one, NaN
    samples and a 3-D array each raised something else (or gave every word 0.0) before."""
    with pytest.raises(InputError, match=words) as raised:
        model.align(audio, rate, "Hello there.", "English")
    assert raised.value.field == field and f"{{{field}}}" not in str(raised.value)


def test_times_are_clamped_to_the_clip(model):
    """Issue 51: a word's time never lies past the clip's last sample (the 80 ms steps of a model that has not
    heard the words can reach far past it), as the CLI's and the server's times are clamped."""
    rate = 16000
    clip = np.random.default_rng(5).normal(0, 0.1, rate // 2).astype(np.float32)  # 0.5 s of noise
    text = " ".join(["word"] * 40)
    raw = model.run(clip, rate, text, "English").slot_logits.argmax(-1) * 0.08
    assert raw.max() > 0.5  # the model's picks alone reach past the clip: the clamp has work to do
    words = model.align(clip, rate, text, "English")
    assert len(words) == 40
    assert all(0 <= w.start <= w.end <= 0.5 for w in words)
