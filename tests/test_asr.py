"""Qwen3-ASR in MLX against qwen-asr 0.0.6 (issue 58).

Fixtures: tests/reference/record_asr.py (oracle venv) -> tests/fixtures/asr/: a tiny random Qwen3-ASR in the
released layout, built with qwen-asr's own classes, and what the official `Qwen3ASRModel.transcribe` made of
synthetic clips: mono 16 kHz and 24 kHz, stereo 44.1 kHz, language given (English, French, Chinese) and
detected (the checkpoint's head writes "language X<asr_text>" where it detects, as the released model does;
on these clips it names German every time, then loops on " German<asr_text>": random weights),
and a clip cut in three pieces (chunk length 2 s on both sides). Every greedy step of the official run wins by
at least cases.json's `min_margin` (>= 0.05, logits of std ~64), so the ids, texts and languages must be
equal exactly. `parse.json`: the official output parser and language merge on crafted outputs.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from fixture_checkpoints import ASR, asr_dir

from mlx_qwen3tts import asr as asr_api
from mlx_qwen3tts.asr.text import merge_languages, parse_output, split_audio
from mlx_qwen3tts.errors import InputError, ModelLoadError

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = json.loads((ASR / "cases.json").read_text(encoding="utf-8"))
CASES = {c["name"]: c for c in FIXTURE["cases"]}
PARSE = json.loads((ASR / "parse.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return asr_api.load(str(asr_dir(tmp_path_factory.getbasetemp())))


def _audio(name):
    with np.load(ASR / f"{name}.npz") as data:
        recorded = dict(data)
    return recorded, recorded["pcm"].astype(np.float32) / 32768.0


def _recognizer(model, case):
    """The loaded model with the case's chunk length and token limit (the recorder set qwen-asr's alike)."""
    return asr_api.Recognizer(model.thinker, model.tokenizer, chunk_seconds=case["chunk_seconds"] or 1200,
                              max_new_tokens=case["max_new_tokens"])


@pytest.fixture(scope="module", params=sorted(CASES))
def run(request, model):
    case = CASES[request.param]
    recorded, audio = _audio(case["name"])
    recognizer = _recognizer(model, case)
    return case, recorded, audio, recognizer, recognizer.run(audio, case["sample_rate"], case["language"])


def test_the_fixture_covers_what_the_issue_asks():
    cases = FIXTURE["cases"]
    assert {c["sample_rate"] for c in cases} >= {16000, 44100}
    assert any(c["channels"] == 2 and c["sample_rate"] == 44100 for c in cases)
    assert any(len(c["chunks"]) > 1 for c in cases)
    assert any(c["language"] for c in cases) and any(not c["language"] for c in cases)
    detected = {c["result"]["language"] for c in cases if not c["language"]} - {""}
    assert detected, "no case where the official run detected a language"
    assert len({c["result"]["language"] for c in cases} - {""}) >= 3
    assert min(c["min_margin"] for c in cases) >= 0.05


def test_prompt_ids_equal_the_official_processor(run):
    case, recorded, _, _, pieces = run
    assert len(pieces) == len(case["chunks"])
    for k, piece in enumerate(pieces):
        np.testing.assert_array_equal(piece.input_ids, recorded[f"input_ids_{k}"])


def test_greedy_tokens_equal_the_official_generate(run):
    _, recorded, _, _, pieces = run
    for k, piece in enumerate(pieces):
        np.testing.assert_array_equal(piece.generated, recorded[f"generated_{k}"])


def test_decoded_and_parsed_output_equals_the_official(run):
    case, _, _, _, pieces = run
    for piece, chunk in zip(pieces, case["chunks"]):
        assert piece.raw == chunk["raw"]
        assert (piece.language, piece.text) == (chunk["language"], chunk["text"])


def test_transcript_equals_the_official_transcribe(run):
    case, _, audio, recognizer, _ = run
    t = recognizer.transcribe(audio, case["sample_rate"], case["language"])
    assert t.text == case["result"]["text"]
    assert t.language == case["result"]["language"].lower()


def test_each_pieces_mel_ends_as_in_qwen_asrs_padded_batch(run):
    """Frames (the batch's attention mask: one more than `len // 160` for a shorter piece whose length 160 does not
    divide) and the last frames, which see the zeros a piece is padded with up to the batch's longest."""
    case, recorded, audio, recognizer, _ = run
    from mlx_qwen3tts.asr import piece_mel
    from mlx_qwen3tts.thinker.features import to_16k

    pieces = [p for p, _ in split_audio(to_16k(audio, case["sample_rate"]), 16000, recognizer.chunk_seconds)]
    longest = max(p.size for p in pieces)
    for k, piece in enumerate(pieces):
        mel = piece_mel(piece, longest)
        assert mel.shape[1] == int(recorded[f"frames_{k}"])
        tail = recorded[f"mel_tail_{k}"]
        np.testing.assert_allclose(mel[:, -tail.shape[1]:], tail, atol=1e-4, rtol=0)


def test_long_clips_are_cut_where_qwen_asr_cuts_them(run):
    case, _, audio, recognizer, pieces = run
    from mlx_qwen3tts.thinker.features import to_16k

    cut = split_audio(to_16k(audio, case["sample_rate"]), 16000, recognizer.chunk_seconds)
    assert [(round(o, 6), p.size) for p, o in cut] == [(round(c["offset"], 6), c["samples"]) for c in case["chunks"]]


@pytest.mark.parametrize("entry", PARSE["parse"], ids=lambda e: repr(e["raw"][:24]))
def test_output_parsing_equals_qwen_asr(entry):
    assert list(parse_output(entry["raw"], entry["language"])) == entry["parsed"]


@pytest.mark.parametrize("entry", PARSE["merge"])
def test_language_merge_equals_qwen_asr(entry):
    assert merge_languages(entry["languages"]) == entry["merged"]


def test_language_names_and_codes(model):
    assert model.check_language("en") == "English"
    assert model.check_language("zh-CN") == "Chinese"
    assert model.check_language("fRENCH") == "French"
    assert model.check_language("Hungarian") == "Hungarian"
    assert model.check_language(None) is None and model.check_language("auto") is None


@pytest.mark.parametrize("audio, rate, language, field", [
    (np.zeros(0, np.float32), 16000, None, "audio"),
    (np.zeros((0, 2), np.float32), 16000, None, "audio"),
    (np.full(16000, np.nan, np.float32), 16000, None, "audio"),
    (np.array([0.0, np.inf] * 8000, np.float32), 16000, None, "audio"),
    (np.zeros((2, 16000, 1), np.float32), 16000, None, "audio"),
    ("not audio", 16000, None, "audio"),
    (np.zeros(100, np.float32), 16000, None, "audio"),
    (np.zeros(16000, np.float32), 0, None, "sample_rate"),
    (np.zeros(16000, np.float32), -16000, None, "sample_rate"),
    (np.zeros(16000, np.float32), 16000.5, None, "sample_rate"),
    (np.zeros(16000, np.float32), None, None, "sample_rate"),
    (np.zeros(16000, np.float32), True, None, "sample_rate"),
    (np.zeros(16000, np.float32), 16000, "Klingon", "language"),
    (np.zeros(16000, np.float32), 16000, "xx", "language"),
    (np.zeros(16000, np.float32), 16000, 7, "language"),
])
def test_bad_input_is_one_input_error(model, audio, rate, language, field):
    with pytest.raises(InputError) as e:
        model.transcribe(audio, rate, language)
    assert e.value.field == field


def test_an_aligner_folder_is_refused(tmp_path_factory):
    from fixture_checkpoints import aligner_dir

    with pytest.raises(ModelLoadError, match="aligner"):
        asr_api.load(str(aligner_dir(tmp_path_factory.getbasetemp())))


def test_quantized_decoder_loads_and_transcribes(tmp_path_factory):
    quantized = asr_api.load(str(asr_dir(tmp_path_factory.getbasetemp())), bits=8, group_size=32)
    assert "scales" in quantized.thinker.model.layers[0].self_attn.q_proj
    case = CASES["english_16k"]
    _, audio = _audio("english_16k")
    t = _recognizer(quantized, case).transcribe(audio, case["sample_rate"])
    assert isinstance(t.text, str) and isinstance(t.language, str)


def test_the_converter_writes_a_quantized_folder_that_loads(tmp_path_factory, tmp_path):
    from mlx_qwen3tts.convert import convert

    source = asr_dir(tmp_path_factory.getbasetemp())
    out = convert(str(source), str(tmp_path / "asr-8bit"), dtype="float32", bits=8, group_size=32)
    config = json.loads((out / "config.json").read_text())
    assert config["quantization"]["bits"] == 8 and not (out / "speech_tokenizer").exists()
    converted = asr_api.load(str(out))
    at_load = asr_api.load(str(source), bits=8, group_size=32)
    assert "scales" in converted.thinker.model.embed_tokens and "scales" in converted.thinker.lm_head
    case = CASES["english_16k"]
    _, audio = _audio("english_16k")
    ours = [_recognizer(m, case).run(audio, case["sample_rate"])[0].generated for m in (converted, at_load)]
    np.testing.assert_array_equal(ours[0], ours[1])  # the same quantization, once written and once at load


def test_the_converter_refuses_talker_recipes_for_asr(tmp_path_factory, tmp_path):
    from mlx_qwen3tts.convert import convert

    with pytest.raises(InputError) as e:
        convert(str(asr_dir(tmp_path_factory.getbasetemp())), str(tmp_path / "x"), recipe="talker4-cp8")
    assert e.value.field == "recipe" and not (tmp_path / "x").exists()


class Counting(asr_api.Recognizer):
    """The tiny recognizer, keeping its last run's pieces (their generated ids count the decode steps)."""

    def run(self, *args, **kwargs):
        self.pieces = super().run(*args, **kwargs)
        return self.pieces


def test_a_check_decodes_no_more_than_its_text_allows(model):
    """Issue 58 item 3's cost: a recognizer that does not stop (random weights here: 127 tokens for this clip,
    512 at most) is told the text a check compares with and stops at `text_cap` tokens, where the transcript
    already fails; plain transcription keeps qwen-asr's limit."""
    from mlx_qwen3tts.hearing import Check

    recognizer = Counting(model.thinker, model.tokenizer)
    _, audio = _audio("english_16k")
    recognizer.transcribe(audio, 16000, "English")
    free = recognizer.pieces[0].generated
    unbounded = len(free)
    text = "Hello there, how are you?"
    cap = recognizer.text_cap(text, "English")
    assert cap == 2 * len(model.tokenizer.encode(text)) + asr_api.TEXT_SLACK < unbounded <= asr_api.MAX_NEW_TOKENS
    _, checked = Check(recognizer=recognizer).best(text, audio, lambda a: a, 16000, "English")
    assert len(recognizer.pieces[0].generated) == cap and not checked.passed and checked.error_rate > 1
    np.testing.assert_array_equal(recognizer.pieces[0].generated, free[:cap])  # greedy: the same transcript, cut
    recognizer.transcribe(audio, 16000, expected=text)  # detected: room for the language tag too
    assert len(recognizer.pieces[0].generated) == recognizer.text_cap(text) > cap


def test_the_text_cap_holds_any_passing_transcript_of_the_quality_sentences(model):
    """The cap's margin: every sentence of benchmarks/data/quality_sentences.json, said twice (the longest
    transcript any threshold passes), in capitals, or lower case with no punctuation, fits in its cap with the
    language tag (tokenized by the released Qwen vocabulary of the fixture)."""
    from mlx_qwen3tts.asr.text import LANGUAGES

    sentences = json.loads((ROOT / "benchmarks" / "data" / "quality_sentences.json").read_text(encoding="utf-8"))
    tag = max(len(model.tokenizer.encode(f"language {name}<asr_text>")) for name in LANGUAGES)
    for language, texts in sentences["sentences"].items():
        joint = "" if language in ("chinese", "japanese") else " "
        for text in texts:
            plain = "".join(c for c in text.lower() if c.isalnum() or c.isspace())
            for heard in (text + joint + text, text.upper(), plain):
                assert tag + len(model.tokenizer.encode(heard)) <= model.text_cap(text), (language, heard)
