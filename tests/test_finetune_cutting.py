"""A long recording cut into utterances at its words (finetune/cutting.py and `prepare`'s `aligner`).

The choice of cuts is tested on word times known from the audio's physics (tone bursts, one a word, separated by
silences of known length): each cut falls in the middle of a silence between two words, at a sentence end when one
fits, else at the longest gap, every piece within the bounds and the pieces' transcripts the whole one. The tiny
random aligner's times mean nothing (its head picks one class for every slot, past the clip's end), so `prepare`'s
path is tested for its mechanics: with that aligner it falls back to the pauses and says so; with its head made to
pick times inside the clip (still meaningless, but varied) the recording is cut where the aligner's words allow,
each piece's codes the codec's encode of its span and its transcript its words, none lost or repeated."""

import importlib
import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

import mlx_qwen3tts  # noqa: F401  (before mlx)
import mlx.core as mx
from fixture_checkpoints import aligner_dir, asr_dir, checkpoint_dir
from mlx_qwen3tts.aligner import Word
from mlx_qwen3tts.aligner.words import split_words
from mlx_qwen3tts.finetune import dataset

prep = importlib.import_module("mlx_qwen3tts.finetune.prepare")
CHECKPOINT = "base-0b6"
REPO = Path(__file__).resolve().parent.parent
RATE = 24000


def cutting():
    return importlib.import_module("mlx_qwen3tts.finetune.cutting")


def bursts(words, gaps, length=0.5, lead=0.3):
    """A recording of one tone burst a word (`length` s), the silences between them `gaps` s long; (samples, the
    words timed as the physics made them)."""
    timed, at = [], lead
    for k, word in enumerate(words):
        timed.append(Word(word, round(at, 3), round(at + length, 3)))
        at += length + (gaps[k] if k < len(gaps) else lead)
    t = np.arange(int(round(at * RATE))) / RATE
    x = np.zeros_like(t)
    for w in timed:
        inside = (t >= w.start) & (t < w.end)
        x[inside] = 0.3 * np.sin(2 * np.pi * 180 * t[inside])
    return x.astype(np.float32), timed


def silences(x):
    """(start, end) seconds of each silent stretch between two bursts, from the samples alone."""
    loud = np.convolve(np.abs(x) > 1e-3, np.ones(240), "same") > 0  # 5 ms either side: over the zero crossings
    edges = np.flatnonzero(np.diff(loud.astype(np.int8)))
    return [((a + 1) / RATE, (b + 1) / RATE) for a, b in zip(edges[1::2], edges[2::2])]


def test_a_sentence_end_is_cut_before_a_longer_pause_in_the_middle_of_its_silence():
    text = "one two three four. five six seven eight nine ten"
    gaps = [0.2, 0.9, 0.2, 0.3, 0.2, 0.2, 0.2, 0.2, 0.2]  # the longest pause mid-sentence, a short one at the "."
    x, words = bursts(split_words(text, "english"), gaps)
    found = cutting().pieces(text, words, x.shape[0] / RATE, longest=5.0, shortest=1.0)
    quiet = silences(x)
    assert [p[2] for p in found] == ["one two three four.", "five six seven eight nine ten"]
    a, b = quiet[3]  # between "four." and "five"
    assert found[0][1] == pytest.approx((a + b) / 2, abs=1e-3) and found[1][0] == found[0][1]
    assert found[0][0] == 0 and found[-1][1] == x.shape[0] / RATE


def test_without_a_sentence_end_the_longest_pause_that_fits_is_cut():
    text = "one two three four five six seven eight nine ten eleven twelve"
    gaps = [0.2, 0.25, 0.6, 0.2, 0.4, 0.2, 0.2, 1.2, 0.2, 0.2, 0.2]
    x, words = bursts(split_words(text, "english"), gaps)
    found = cutting().pieces(text, words, x.shape[0] / RATE, longest=4.5, shortest=1.0)
    quiet = silences(x)
    # The 1.2 s pause (after "eight", 6.95 s in) lies past the first piece's 4.5 s: it ends at the longest before.
    assert found[0][2] == "one two three" and found[0][1] == pytest.approx(sum(quiet[2]) / 2, abs=1e-3)
    assert found[1][2] == "four five six seven eight"
    assert found[1][1] == pytest.approx(sum(quiet[7]) / 2, abs=1e-3)
    assert " ".join(p[2] for p in found) == text


def test_every_piece_within_bounds_cut_in_silence_and_the_texts_are_the_transcript():
    rng = np.random.default_rng(7)
    vocabulary = ["alpha", "beta", "gamma,", "delta", "epsilon.", "zeta", "eta?", "theta", "iota!", "kappa"]
    spoken = [vocabulary[i] for i in rng.integers(0, len(vocabulary), 120)]
    text = "  " + " ".join(spoken) + " "
    x, words = bursts([w.strip(",.?!") for w in spoken], rng.uniform(0.05, 0.9, len(spoken) - 1), length=0.35)
    seconds, quiet = x.shape[0] / RATE, silences(x)
    found = cutting().pieces(text, words, seconds, longest=8.0, shortest=1.0)
    assert len(found) >= 10
    assert " ".join(p[2] for p in found) == text.strip()
    said = 0
    for (_, end, piece), (start, _, _) in zip(found, found[1:]):
        said += len(piece.split())
        assert end == start
        assert end == pytest.approx(sum(quiet[said - 1]) / 2, abs=1e-3)  # the middle of the silence after its words
    for start, end, said in found:
        assert 1.0 <= end - start <= 8.0 and said
    ends = sum(p[2][-1] in ".?!" for p in found[:-1])
    assert ends >= len(found) // 2  # sentence ends are taken where they fit


def test_chinese_is_cut_after_its_sentence_end_character_by_character():
    text = "今天天气很好。我们去公园吧！然后回家"
    chars = split_words(text, "chinese")
    x, words = bursts(chars, [0.1] * (len(chars) - 1), length=0.3)
    found = cutting().pieces(text, words, x.shape[0] / RATE, longest=3.0, shortest=0.5)
    assert [p[2] for p in found] == ["今天天气很好。", "我们去公园吧！", "然后回家"]
    assert "".join(p[2] for p in found) == text


def test_words_are_found_in_the_text_as_written_or_refused():
    c = cutting()
    text = "The U.S.A. don't \"say\" 12,5 mph."
    words = [Word(w, 0.0, 0.0) for w in split_words(text, "english")]
    spans = c.placed(text, words)
    assert [text[a:b] for a, b in spans] == ["The", "U.S.A", "don't", "say", "12,5", "mph"]
    with pytest.raises(c.Unplaced):
        c.placed(text, [Word("The", 0, 0), Word("USB", 0, 0)])


def test_times_that_allow_no_cut_are_refused():
    text = "one two three four five six"
    same = [Word(w, 33.0, 33.0) for w in text.split()]  # as the tiny random aligner times every word
    with pytest.raises(cutting().Unplaced):
        cutting().pieces(text, same, 33.0, longest=10.0, shortest=1.0)


# --- prepare, end to end, on the tiny checkpoints -----------------------------------------------------------

@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.getbasetemp()


@pytest.fixture(scope="module")
def base(root):
    return checkpoint_dir(CHECKPOINT, root)


def varied_aligner(root, audio, text):
    """The tiny aligner, its head made to pick varied times inside `audio` for `text`: the slots' hidden states
    share one direction, which decides every pick of the random head; here the head's rows (classes up to the
    clip's length, the others 0) are random and blind to that direction. The times mean nothing still."""
    from mlx_qwen3tts import aligner

    a = aligner.load(str(aligner_dir(root)))
    run, thinker = a.run(audio, RATE, text, "auto"), a.model.thinker
    hidden = thinker.model(thinker.embed(mx.array(run.input_ids), mx.array(run.mel))[None])[0]
    hidden = np.array(hidden[mx.array(run.slots)].astype(mx.float32))
    shared = hidden.mean(0) / np.linalg.norm(hidden.mean(0))
    rows = np.random.default_rng(3).standard_normal((int(audio.shape[0] / RATE / 0.08), hidden.shape[1]))
    w = np.zeros(thinker.lm_head.weight.shape, np.float32)
    w[:rows.shape[0]] = rows - np.outer(rows @ shared, shared)
    thinker.lm_head.weight = mx.array(w)
    return a


def speech(seconds, seed=0):
    from test_finetune_prepare import speech as voiced

    return voiced(seconds, RATE, seed=seed)


def test_a_long_recording_with_its_transcript_is_cut_at_the_aligners_words(tmp_path, base, root, load_tiny):
    tts = load_tiny(CHECKPOINT)
    text = ("Ada wrote the first program. It ran on a machine that was never built, and yet it ran. "
            "Babbage called her the enchantress of numbers; she saw that such a machine could compose music. "
            "Her notes were published in eighteen forty three.")
    data = tmp_path / "data"
    data.mkdir()
    sf.write(data / "book.wav", speech(34.0, seed=5), RATE)
    (data / "book.txt").write_text(text, encoding="utf-8")
    samples = sf.read(data / "book.wav", dtype="float32")[0]
    timer = varied_aligner(root, samples, text)
    summary = prep.prepare(data, str(base), tmp_path / "ds", aligner=timer, max_seconds=20.0, progress=False)
    assert summary.cut == {prep.WORDS: 1} and summary.refused == {}
    items = dataset.load(tmp_path / "ds").items
    assert [i.id for i in items] == [f"book#{k:03d}" for k in range(1, len(items) + 1)] and len(items) >= 2
    assert " ".join(i.text for i in items) == text  # every word once, in order
    words = timer.align(samples, RATE, text, "auto")
    start, said = 0, 0
    for item in items:
        said += len(split_words(item.text, "english"))
        end = samples.shape[0] if said == len(words) else \
            int(round((words[said - 1].end + words[said].start) / 2 * RATE))  # the middle of the gap after its words
        assert words[said - 1].end * RATE - 1 <= end and (said == len(words) or end <= words[said].start * RATE + 1)
        assert 1.0 <= (end - start) / RATE <= 20.0
        np.testing.assert_array_equal(item.codes, np.array(tts.codec.encode(mx.array(samples[start:end]))))
        start = end
    assert said == len(words)


def test_a_recording_heard_by_the_recognizer_is_cut_at_its_words(tmp_path, base, root):
    from mlx_qwen3tts import asr

    recognizer = asr.load(str(asr_dir(root)))
    data = tmp_path / "data"
    data.mkdir()
    sf.write(data / "talk.wav", speech(30.0, seed=11), RATE)
    samples = sf.read(data / "talk.wav", dtype="float32")[0]
    heard = recognizer.transcribe(samples, RATE).text
    timer = varied_aligner(root, samples, heard)
    summary = prep.prepare(data, str(base), tmp_path / "ds", asr=recognizer, aligner=timer, max_seconds=20.0,
                           progress=False)
    assert summary.cut == {prep.WORDS: 1} and summary.refused == {}
    items = dataset.load(tmp_path / "ds").items
    assert [i.id for i in items] == [f"talk#{k:03d}" for k in range(1, len(items) + 1)] and len(items) >= 2
    # The pieces' transcripts are the whole one's, every word once (joined without the spaces at the cuts: the
    # tiny recognizer writes Chinese too, cut between characters).
    assert "".join("".join(i.text.split()) for i in items) == "".join(heard.split())
    assert sum(i.codes.shape[0] for i in items) >= 30 * 12.5 - len(items)


def test_where_the_aligner_cannot_cut_the_pauses_do_and_the_summary_says_so(tmp_path, base, root):
    from mlx_qwen3tts import aligner, asr

    recognizer, timer = asr.load(str(asr_dir(root))), aligner.load(str(aligner_dir(root)))
    pauses = [(6.0, 6.6), (13.0, 13.5), (19.5, 20.2), (27.0, 27.6)]
    from test_finetune_prepare import speech as voiced

    data = tmp_path / "data"
    data.mkdir()
    sf.write(data / "book.wav", voiced(33.0, RATE, seed=19, pauses=pauses), RATE)
    samples = sf.read(data / "book.wav", dtype="float32")[0]
    shown = io.StringIO()
    summary = prep.prepare(data, str(base), tmp_path / "ds", asr=recognizer, aligner=timer, max_seconds=10.0,
                           progress=shown)
    [how] = summary.cut
    assert how.startswith("at pauses (the aligner could not") and summary.cut[how] == 1
    assert how in shown.getvalue() and f"  long recordings cut {how}: 1" in summary.lines()
    spans = prep.utterances(samples, 10.0)
    assert summary.kept + sum(summary.refused.values()) == len(spans) == 5


def test_a_transcribed_recording_too_long_without_an_aligner_is_refused_as_before(tmp_path, base):
    data = tmp_path / "data"
    data.mkdir()
    sf.write(data / "long.wav", speech(8.0, seed=2), RATE)
    (data / "long.txt").write_text("A long one.", encoding="utf-8")
    sf.write(data / "ok.wav", speech(3.0, seed=3), RATE)
    (data / "ok.txt").write_text("A short one.", encoding="utf-8")
    summary = prep.prepare(data, str(base), tmp_path / "ds", max_seconds=6.0, progress=False)
    assert summary.refused == {"too long": 1} and summary.cut == {}


def test_an_aligner_that_is_not_one_is_one_line_and_nothing_written(tmp_path, base):
    data = tmp_path / "data"
    data.mkdir()
    sf.write(data / "a.wav", speech(3.0), RATE)
    (data / "a.txt").write_text("Hello there.", encoding="utf-8")
    out = tmp_path / "ds"
    run = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.finetune", "prepare", str(data), "--model", str(base),
                          "--out", str(out), "--aligner", str(base)], capture_output=True, text=True, timeout=300,
                         cwd=REPO)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "Qwen3-ForcedAligner" in run.stderr, run.stderr
    assert not out.exists() and not out.with_name(out.name + prep.PARTIAL).exists()


def test_a_transcribed_recording_the_aligner_cannot_cut_is_refused_and_nothing_is_written(tmp_path, base, root):
    from mlx_qwen3tts import aligner

    data = tmp_path / "data"
    data.mkdir()
    sf.write(data / "book.wav", speech(26.0, seed=4), RATE)
    (data / "book.txt").write_text("First sentence here. Second one there. Third one.", encoding="utf-8")
    out, shown = tmp_path / "ds", io.StringIO()
    with pytest.raises(prep.DatasetError, match="too long: 1"):
        prep.prepare(data, str(base), out, aligner=aligner.load(str(aligner_dir(root))), max_seconds=10.0,
                     progress=shown)
    assert "book (" in shown.getvalue() and "not cut (the aligner could not: its word times leave no cut" in \
        shown.getvalue()
    assert not out.exists() and not out.with_name(out.name + prep.PARTIAL).exists()
