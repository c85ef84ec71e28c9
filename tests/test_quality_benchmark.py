"""benchmarks/quality.py (issue 58) on the tiny checkpoints: the round trip runs and scores what the recognizer
heard: `fake_asr.Mishears`, which hears what it is told (the numbers are the scoring's, not the models'), and the
real tiny random Qwen3-ASR of `fixture_checkpoints.asr_dir`, run as a user runs it (`python -m benchmarks.quality`)."""

import json
import subprocess
import sys

import numpy as np
import pytest

import fake_asr
from benchmarks import quality
from fixture_checkpoints import FIXTURES, asr_dir, checkpoint_dir
from mlx_qwen3tts.hearing import comparable

CLONE = FIXTURES / "clone"


def test_the_sentence_list_has_thirty_a_language_the_model_speaks():
    listed = quality.sentences()
    assert set(listed) == {"english", "chinese", "japanese", "korean", "german", "french", "spanish", "italian",
                           "portuguese", "russian"}
    assert all(len(lines) == len(set(lines)) == 30 for lines in listed.values())


def test_scores_count_words_or_characters():
    assert quality.edits("The cat, sat.", "the cat sat", "english") == (0, 3)
    assert quality.edits("The cat sat on the mat.", "the bat sat on mat", "english") == (2, 6)
    assert quality.edits("今天天气很好。", "今天天气好", "chinese") == (1, 6)
    assert quality.cosine([1, 0], [0, 2]) == 0 and quality.cosine([1, 1], [2, 2]) == pytest.approx(1)


def test_harness_runs_on_the_tiny_checkpoints(tmp_path, monkeypatch):
    fake = fake_asr.install(monkeypatch)
    listed = quality.sentences()
    # The Base model's four (its languages in the model's order: Chinese first), then silence for the other's.
    heard = [listed["chinese"][0], "", listed["english"][0], "the bicycle", ""]
    models = [str(checkpoint_dir(name, tmp_path)) for name in ("base-0b6", "custom_voice-0b6")]
    case = json.loads((CLONE / "cases.json").read_text())["cases"][0]
    quality.main(["--model", models[0], "--model", models[1], "--asr", fake_asr.answers_file(tmp_path, *heard),
                  "--out", str(tmp_path / "out"), "--languages", "english,chinese", "--per-language", "2",
                  "--max-tokens", "6", "--seed", "1", "--ref-audio", str(CLONE / case["audio"]), "--ref-text",
                  case["ref_text"]])
    (recognizer,) = fake.loaded
    assert len(recognizer.calls) == 8  # every sentence of both models made audio and was heard
    rows = json.loads((tmp_path / "out" / "quality.json").read_text())["models"]
    assert [r["name"] for r in rows] == models
    base, custom = rows
    # English: 10 words heard right, then 9 ("Please close the window before you go to sleep.") heard as "the
    # bicycle": 'the' kept, one word substituted, seven deleted.
    assert [len(quality.words(listed["english"][i])) for i in (0, 1)] == [10, 9]
    assert base["wer"] == round(8 / 19, 4)
    # Chinese: 16 characters heard right, then 14 heard as nothing.
    assert [len(comparable(listed["chinese"][i])) for i in (0, 1)] == [16, 14]
    assert base["cer"] == round(14 / 30, 4)
    assert base["error_rate_by_language"] == {"chinese": round(14 / 30, 4), "english": round(8 / 19, 4)}
    assert custom["wer"] == 1.0 and custom["cer"] == 1.0
    assert base["runaways"] == custom["runaways"] == 0 and base["sentences"] == custom["sentences"] == 4
    for row in rows:  # the custom voice model has no speaker encoder: the Base model's measures it
        assert -1 <= row["similarity_between_outputs"] <= 1 and row["similarity"] is not None
    assert -1 <= base["similarity_to_reference"] <= 1 and base["similarity"] == base["similarity_to_reference"]
    table = (tmp_path / "out" / "quality.md").read_text()
    assert table.splitlines()[0].startswith("| model | WER |") and f"| {models[1]} | 1.0000 | 1.0000 |" in table


def test_harness_runs_end_to_end_with_the_real_recognizer(tmp_path):
    """`python -m benchmarks.quality ... --asr FOLDER`: the tiny Qwen3-ASR itself hears each sentence; each
    language's error rate is the edits of what that model hears in the same sentence spoken with the same seed."""
    import mlx_qwen3tts
    from mlx_qwen3tts import asr
    from mlx_qwen3tts.hearing import heard
    from server_harness import ROOT, env

    model, folder = str(checkpoint_dir("base-0b6", tmp_path)), str(asr_dir(tmp_path))
    case = json.loads((CLONE / "cases.json").read_text())["cases"][0]
    clip = str(CLONE / case["audio"])
    done = subprocess.run([sys.executable, "-m", "benchmarks.quality", "--model", model, "--asr", folder, "--out",
                           str(tmp_path / "out"), "--languages", "english,chinese", "--per-language", "1",
                           "--max-tokens", "6", "--seed", "2", "--ref-audio", clip, "--ref-text", case["ref_text"]],
                          cwd=ROOT, env=env(), capture_output=True, text=True, timeout=900)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.stdout.startswith("| model | WER |") and f"| {model} |" in done.stdout
    (row,) = json.loads((tmp_path / "out" / "quality.json").read_text())["models"]
    tts, recognizer = mlx_qwen3tts.load(model), asr.load(folder)
    voice = tts.clone(clip, case["ref_text"])
    expected, runaways = {}, 0
    for language in ("chinese", "english"):
        text = quality.sentences()[language][0]
        result = tts.generate(text, language=language, seed=2, max_tokens=6, voice=voice)
        n, length = quality.edits(text, heard(recognizer, result.audio, result.sample_rate, language), language)
        expected[language], runaways = round(n / length, 4), runaways + bool(result.runaway)
    assert row["error_rate_by_language"] == expected
    assert row["wer"] == expected["english"] and row["cer"] == expected["chinese"]
    assert row["sentences"] == 2 and row["runaways"] == runaways and -1 <= row["similarity_to_reference"] <= 1
    assert (tmp_path / "out" / "quality.md").read_text() == done.stdout
