"""The command line's --asr (a clip cloned without --ref-text) and --check (generate and long-form): with the real
recognizer (`mlx_qwen3tts.asr` loading the tiny random Qwen3-ASR of `fixture_checkpoints.asr_dir`: what it hears
is whatever those weights make of the clip, compared with that model's own transcript of the same audio), and with
one that hears what it is told to (`fake_asr`, standing in for mlx_qwen3tts.asr) where a test needs a piece heard
wrong on purpose."""

import json

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

import fake_asr
from fixture_checkpoints import FIXTURES, asr_dir, checkpoint_dir
from mlx_qwen3tts.cli.generate import main
from mlx_qwen3tts.hearing import error_rate

CLONE = FIXTURES / "clone"
CASE = next(c for c in json.loads((CLONE / "cases.json").read_text())["cases"]
            if c["name"] == "clone_0b6_icl_streaming")
TEXT = "Good morning to you all."


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {name: checkpoint_dir(name, root) for name in ("base-0b6", "custom_voice-0b6")}


@pytest.fixture(scope="module")
def recognizer(tmp_path_factory):
    """The tiny Qwen3-ASR's folder and the model loaded from it, as --asr loads it."""
    from mlx_qwen3tts import asr

    folder = asr_dir(tmp_path_factory.getbasetemp())
    return str(folder), asr.load(str(folder))


def transcript(model, audio, rate=24000) -> str:
    return model.transcribe(audio, rate).text.strip()


@pytest.fixture
def fake(monkeypatch):
    return fake_asr.install(monkeypatch)


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def error_line(output):
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in output, output
    return lines[0]


def test_check_without_asr_is_one_error_line(ckpt, tmp_path):
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text", TEXT, "-o", tmp_path / "a.wav", "--check",
                    tmp_path / "r.json")
    assert code == 2 and error_line(out) == ("error: --check hears what was said with a speech recognizer: add "
                                             "--asr MODEL (e.g. --asr Qwen/Qwen3-ASR-0.6B)")
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "missing.txt", "-o",
                    tmp_path / "a.wav", "--check", tmp_path / "r.json")
    assert code == 2 and "--asr" in error_line(out)
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text", TEXT, "-o", tmp_path / "a.wav", "--asr", "x",
                    "--check", tmp_path / "r.json", "--stream")
    assert code == 2 and "--stream" in error_line(out)
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text", TEXT, "-o", tmp_path / "a.wav",
                    "--check-tries", "2")
    assert code == 2 and "--check-tries applies to --check" in error_line(out)
    assert list(tmp_path.iterdir()) == []


def test_clone_without_ref_text_is_transcribed_and_saved(ckpt, tmp_path, fake):
    """--ref-audio with --asr and no --ref-text: the transcript heard is said, saved with the voice, and the clone
    is in context: the codes of the transcript given as --ref-text."""
    model, clip = ckpt["base-0b6"], CLONE / CASE["audio"]
    common = ("--model", model, "--text", "Hi.", "--temperature", "0", "--max-tokens", "6", "--language",
              CASE["language"], "--ref-audio", clip)
    code, out = run(*common, "--codes-output", tmp_path / "given.npy", "-q", "--ref-text", CASE["ref_text"])
    assert code == 0, out
    code, out = run(*common, "--codes-output", tmp_path / "heard.npy", "--asr",
                    fake_asr.answers_file(tmp_path, CASE["ref_text"]), "--save-voice", tmp_path / "v.safetensors")
    assert code == 0, out
    assert f"transcript: {CASE['ref_text']}\n" in out
    np.testing.assert_array_equal(np.load(tmp_path / "heard.npy"), np.load(tmp_path / "given.npy"))
    from safetensors import safe_open

    with safe_open(str(tmp_path / "v.safetensors"), "np") as f:
        assert json.loads(f.metadata()["ref_text"]) == CASE["ref_text"]
        assert "ref_codes" in f.keys()
    code, out = run(*common, "-o", tmp_path / "x.wav")  # without --asr: today's message
    assert code == 2 and "--ref-text" in error_line(out) and not (tmp_path / "x.wav").exists()


def test_clone_heard_by_the_real_recognizer(ckpt, tmp_path, recognizer):
    """--asr FOLDER loads mlx_qwen3tts.asr itself: the transcript said and saved is that model's transcript of the
    clip as read for cloning (24 kHz mono), and the clone is in context with it (the codes of it given as
    --ref-text)."""
    from safetensors import safe_open

    from mlx_qwen3tts.audio.reference import load_reference_audio

    folder, model = recognizer
    clip = CLONE / CASE["audio"]
    expected = transcript(model, load_reference_audio(str(clip)))
    assert expected  # the tiny random model hears something in it (else cloning is refused, as tested elsewhere)
    common = ("--model", ckpt["base-0b6"], "--text", "Hi.", "--temperature", "0", "--max-tokens", "4", "--language",
              CASE["language"], "--ref-audio", clip)
    code, out = run(*common, "--codes-output", tmp_path / "heard.npy", "--asr", folder, "--save-voice",
                    tmp_path / "v.safetensors")
    assert code == 0, out
    assert f"transcript: {expected}\n" in out
    with safe_open(str(tmp_path / "v.safetensors"), "np") as f:
        assert json.loads(f.metadata()["ref_text"]) == expected and "ref_codes" in f.keys()
    code, out = run(*common, "--codes-output", tmp_path / "given.npy", "-q", "--ref-text", expected)
    assert code == 0, out
    np.testing.assert_array_equal(np.load(tmp_path / "heard.npy"), np.load(tmp_path / "given.npy"))


def test_check_with_the_real_recognizer_reports_what_it_heard(ckpt, tmp_path, recognizer):
    """--check with the real recognizer: the report's "heard" is that model's transcript of the audio kept, told
    the text it checks (one making: --check-tries 1), and its error rate the one of that transcript against the
    text."""
    folder, model = recognizer
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text", TEXT, "--seed", "3", "--max-tokens", "8", "-o",
                    tmp_path / "a.wav", "--asr", folder, "--check", tmp_path / "report.json", "--check-tries", "1")
    assert code == 0, out
    report = json.loads((tmp_path / "report.json").read_text())
    (piece,) = report["pieces"]
    kept, rate = sf.read(tmp_path / "a.wav", dtype="float32")
    heard = model.transcribe(kept, rate, expected=TEXT).text.strip()
    assert piece["text"] == TEXT and piece["heard"] == heard and piece["tries"] == 1
    assert piece["error_rate"] == round(error_rate(TEXT, heard), 4)
    assert piece["passed"] == (error_rate(TEXT, heard) <= report["threshold"])
    assert report["passed"] == int(piece["passed"]) and "check: " in out


def test_check_remakes_a_misheard_text_and_reports_it(ckpt, tmp_path, fake):
    model = ckpt["custom_voice-0b6"]
    answers = fake_asr.answers_file(tmp_path, "good evening to nobody", TEXT)
    code, out = run("--model", model, "--text", TEXT, "--seed", "3", "--max-tokens", "8", "-o", tmp_path / "a.wav",
                    "--asr", answers, "--check", tmp_path / "report.json")
    assert code == 0, out
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["pieces"] == [{"text": TEXT, "heard": TEXT, "error_rate": 0.0, "tries": 2, "passed": True}]
    assert report["threshold"] == 0.25
    assert "check: 1 of 1 pieces heard as written (worst error rate 0.00); 1 made again" in out
    from mlx_qwen3tts.seeds import check_seed

    code, out = run("--model", model, "--text", TEXT, "--seed", check_seed(3, 1), "--max-tokens", "8", "-o",
                    tmp_path / "b.wav", "-q")
    assert code == 0, out
    np.testing.assert_array_equal(sf.read(tmp_path / "a.wav")[0], sf.read(tmp_path / "b.wav")[0])


def test_check_threshold_and_tries(ckpt, tmp_path, fake):
    answers = fake_asr.answers_file(tmp_path, "good morning to you", "good morning", "nothing")
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text", TEXT, "--seed", "3", "--max-tokens", "8", "-o",
                    tmp_path / "a.wav", "--asr", answers, "--check", tmp_path / "report.json", "--check-threshold",
                    "0.1", "--check-tries", "2")
    assert code == 0, out
    (piece,) = json.loads((tmp_path / "report.json").read_text())["pieces"]
    assert piece["tries"] == 2 and not piece["passed"] and piece["heard"] == "good morning to you"
    assert piece["error_rate"] == round(error_rate(TEXT, "good morning to you"), 4)
    assert "still over the threshold: piece 1" in out


def test_long_form_check_survives_a_resume(ckpt, tmp_path, fake, monkeypatch):
    """Each segment heard as it finishes; a stopped run's checks are kept, and the resumed run reports them with
    its own (a segment misheard once is made again)."""
    from test_longform import stop_narration_after

    from mlx_qwen3tts.longform import job

    texts = ["Alpha bravo charlie.", "Delta echo foxtrot.", "Golf hotel india."]
    (tmp_path / "book.txt").write_text("\n\n".join(texts))
    answers = fake_asr.answers_file(tmp_path, "zulu", *texts)
    args = ("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "book.txt", "--seed", "4",
            "--max-tokens", "8", "--batch-size", "1", "-o", tmp_path / "book.wav", "--asr", answers, "--check",
            tmp_path / "report.json")
    real = stop_narration_after(monkeypatch, 2)
    code, out = run(*args)
    assert code != 0 and not (tmp_path / "report.json").exists()
    assert sorted(p.name for p in (tmp_path / ".book.wav.parts").glob("*.check.json")) == \
        ["000000.check.json", "000001.check.json"]
    monkeypatch.setattr(job, "narrate", real)
    fake_asr.answers_file(tmp_path, texts[2])
    code, out = run(*args, "--resume")
    assert code == 0, out
    pieces = json.loads((tmp_path / "report.json").read_text())["pieces"]
    assert [(p["text"], p["heard"], p["tries"], p["passed"]) for p in pieces] == [
        (texts[0], texts[0], 2, True), (texts[1], texts[1], 1, True), (texts[2], texts[2], 1, True)]
    assert "check: 3 of 3 pieces heard as written" in out
