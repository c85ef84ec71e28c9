"""What hears speech back (mlx_qwen3tts/hearing.py): the character error rate, cloning without a transcript through
`asr=` (the Python API's option), and `generate(check=...)`, which makes a piece heard wrong again with a derived
seed and keeps the best. The recognizer is `fake_asr.Mishears`, which hears what it is told to, except where `asr=`
names a folder: the real tiny random Qwen3-ASR of `fixture_checkpoints.asr_dir`."""

import json
import warnings

import mlx.core as mx
import numpy as np
import pytest

import mlx_qwen3tts
from fake_asr import Mishears
from fixture_checkpoints import FIXTURES, asr_dir, checkpoint_dir
from mlx_qwen3tts.errors import InputError
from mlx_qwen3tts.hearing import Check, comparable, error_rate, levenshtein, report_bytes
from mlx_qwen3tts.seeds import check_seed, retry_seed

CLONE = FIXTURES / "clone"
CASE = next(c for c in json.loads((CLONE / "cases.json").read_text())["cases"]
            if c["name"] == "clone_0b6_icl_streaming")
TEXT = "Hello there, how are you?"


@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    return mlx_qwen3tts.load(str(checkpoint_dir("base-0b6", tmp_path_factory.getbasetemp())), dtype=mx.float32)


@pytest.fixture
def asr_off(tts):
    yield
    tts.asr = None


def test_levenshtein_counts_edits():
    assert levenshtein("kitten", "sitting") == 3
    assert levenshtein("", "abc") == 3 and levenshtein("flaw", "lawn") == 2


def test_error_rate_ignores_case_punctuation_and_spacing():
    assert error_rate("Hello, World!", "hello world") == 0.0
    assert comparable("Cafe\u0301,\u00a0ÇA  va?") == "caféçava"  # NFC: e + combining acute is é
    assert error_rate("abcd", "abed") == 0.25
    assert error_rate("你好，世界。", "你好世") == pytest.approx(1 / 4)
    assert error_rate("...", "") == 0.0 and error_rate("...", "a") == 1.0


def test_seeds_of_a_check_are_new():
    seeds = {check_seed(7, attempt) for attempt in (1, 2, 3)}
    assert len(seeds) == 3 and retry_seed(7) not in seeds and 7 not in seeds


def test_clone_without_transcript_uses_what_was_heard(tts, asr_off):
    """With a recognizer, a clip without ref_text is cloned in context with its transcript: the same greedy codes
    as that transcript given by hand (which the official clone fixture pins down)."""
    kwargs = dict(language=CASE["language"], ref_audio=str(CLONE / CASE["audio"]), temperature=0, max_tokens=6)
    with pytest.raises(InputError, match="ref_text"):  # without a recognizer: as before
        tts.generate("Hi.", **kwargs)
    given = tts.generate("Hi.", ref_text=CASE["ref_text"], **kwargs)
    tts.asr = heard = Mishears([CASE["ref_text"]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = tts.generate("Hi.", **kwargs)
    assert result.voice.heard and result.voice.ref_text == CASE["ref_text"]
    assert np.array_equal(result.codes, given.codes)
    assert heard.calls == [(heard.calls[0][0], 24000, None)]
    assert tts.clone(str(CLONE / CASE["audio"])).ref_codes is not None  # cached transcript: not heard again
    assert len(heard.calls) == 1


def test_asr_folder_loads_the_real_recognizer(tmp_path_factory):
    """`load(..., asr=FOLDER)`: Qwen3-ASR loaded from the folder; a clip cloned without ref_text has that model's
    transcript of the clip as read for cloning (24 kHz mono)."""
    from mlx_qwen3tts import asr
    from mlx_qwen3tts.audio.reference import load_reference_audio

    folder = str(asr_dir(tmp_path_factory.getbasetemp()))
    tts = mlx_qwen3tts.load(str(checkpoint_dir("base-0b6", tmp_path_factory.getbasetemp())), dtype=mx.float32,
                            asr=folder)
    assert isinstance(tts.asr, asr.Recognizer)
    clip = str(CLONE / CASE["audio"])
    voice = tts.clone(clip)
    expected = asr.load(folder).transcribe(load_reference_audio(clip), 24000).text.strip()
    assert expected and voice.heard and voice.ref_text == expected and voice.ref_codes is not None


def test_silence_heard_is_refused(tts, asr_off):
    tts.asr = Mishears([""])
    with pytest.raises(InputError, match="heard no words"):
        tts.clone(str(CLONE / CASE["audio"]))


def test_load_takes_a_recognizer(tmp_path_factory):
    heard = Mishears(["x"])
    tts = mlx_qwen3tts.load(str(checkpoint_dir("base-0b6", tmp_path_factory.getbasetemp())), asr=heard)
    assert tts.asr is heard
    with pytest.raises(InputError, match="asr"):
        tts.asr = 3


def test_check_makes_a_misheard_piece_again(tts, asr_off):
    """Heard wrong twice, right the third time: made three times, the third kept (its derived seed's audio)."""
    heard = Mishears(["something else entirely", "hello there how", TEXT])
    tts.asr = heard
    result = tts.generate(TEXT, seed=5, max_tokens=8, check=True)
    (check,) = result.checks
    assert (check.text, check.heard, check.error_rate, check.tries, check.passed) == (TEXT, TEXT, 0.0, 3, True)
    again = tts.generate(TEXT, seed=check_seed(5, 2), max_tokens=8)
    assert np.array_equal(result.codes, again.codes) and np.allclose(result.audio, again.audio)
    assert len(heard.calls) == 3


def test_check_keeps_the_best_when_none_passes(tts, asr_off):
    tts.asr = Mishears(["zzzz", "hello there how are", "hello"])
    result = tts.generate(TEXT, seed=5, max_tokens=8, check=Check(threshold=0.05, tries=3))
    (check,) = result.checks
    assert check.tries == 3 and not check.passed and check.heard == "hello there how are"
    assert check.error_rate == pytest.approx(error_rate(TEXT, "hello there how are"))
    assert np.array_equal(result.codes, tts.generate(TEXT, seed=check_seed(5, 1), max_tokens=8).codes)
    report = json.loads(report_bytes(result.checks, 0.05))
    assert report["pieces"][0] == {"text": TEXT, "heard": "hello there how are", "tries": 3, "passed": False,
                                   "error_rate": round(check.error_rate, 4)}


def test_check_keeps_a_piece_heard_as_far_more_than_it_read(tts, asr_off):
    """A recognizer hearing a runaway (many times the text's length: an error rate over 2) still leaves the best
    making kept and reported, not none."""
    said = "and on and on " * 20
    tts.asr = Mishears([said])
    result = tts.generate(TEXT, seed=5, max_tokens=8, check=Check(tries=2))
    (check,) = result.checks
    assert check.error_rate == pytest.approx(error_rate(TEXT, said)) and check.error_rate > 2
    assert check.tries == 2 and not check.passed and check.heard == said.strip()
    assert np.array_equal(result.codes, tts.generate(TEXT, seed=5, max_tokens=8).codes)  # the first: equals kept


def test_check_of_greedy_speech_hears_it_once(tts, asr_off):
    tts.asr = Mishears(["nothing like it"])
    (check,) = tts.generate(TEXT, temperature=0, max_tokens=4, check=True).checks
    assert check.tries == 1 and not check.passed


def test_check_needs_a_recognizer_and_audio(tts, asr_off):
    with pytest.raises(InputError, match="recognizer"):
        tts.generate(TEXT, check=True, max_tokens=2)
    tts.asr = Mishears([TEXT])
    with pytest.raises(InputError, match="decode"):
        tts.generate(TEXT, check=True, decode=False, max_tokens=2)
    with pytest.raises(InputError, match="check_tries"):
        Check(tries=0)


def test_longform_write_checks_each_segment(tts, asr_off, tmp_path):
    """`longform.write(check=True, check_report=...)`: each segment heard as it finishes, a misheard one made again
    alone with `check_seed` of its segment seed; the report is written whole beside the audio."""
    from mlx_qwen3tts import longform
    from mlx_qwen3tts.longform.narrate import segment_seed

    doc = longform.document("First line here.\n\nSecond line there.")
    texts = [s.text for s in doc.segments]
    tts.asr = Mishears([texts[0], "nope", texts[1]])
    written = longform.write(tts, doc, tmp_path / "out.wav", check=True, check_report=tmp_path / "check.json",
                             seed=9, max_tokens=6, batch_size=2)
    assert [p.name for p in written] == ["out.wav", "check.json"]
    report = json.loads((tmp_path / "check.json").read_text())
    assert [(p["text"], p["tries"], p["passed"]) for p in report["pieces"]] == [(texts[0], 1, True),
                                                                                (texts[1], 2, True)]
    heard = Mishears([texts[0], "nope", texts[1]])
    spoken = list(longform.narrate(tts, doc, seed=9, max_tokens=6, batch_size=2, check=Check(recognizer=heard)))
    assert [s.check.tries for s in spoken] == [1, 2]
    (_, again), = tts.run([tts.request(texts[1], seed=check_seed(segment_seed(9, 1), 1), max_tokens=6)])
    np.testing.assert_array_equal(spoken[1].audio, again.audio)
    with pytest.raises(InputError, match="check_report"):
        longform.write(tts, doc, tmp_path / "two.wav", check=True, seed=9, max_tokens=6)
    assert not (tmp_path / "two.wav").exists()
