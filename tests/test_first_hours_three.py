"""The command line and the server as a new user tried them in issue 43's trial: .m4b/.m4a from every
mode, a long --text pointed at --text-file, a preset's name given as --voice, --speed, progress in a log
file, what --codes-output wrote, the server's input limit named by its option, and the fixtures' own
checkpoints. The CLI as a user runs it, a real server process, tiny random checkpoints."""

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import httpx
import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

import fixture_checkpoints
from fixture_checkpoints import checkpoint_dir
from mlx_qwen3tts.cli.generate import main
from mlx_qwen3tts.cli.progress import FrameProgress

REPO = Path(__file__).resolve().parent.parent
GREEDY = ["--temperature", "0"]
FFPROBE = shutil.which("ffprobe")
needs_ffprobe = pytest.mark.skipif(FFPROBE is None, reason="ffprobe is not installed (.ci/run installs ffmpeg)")
pytest.importorskip("av")  # .m4a/.m4b and the server both need PyAV (the server extra)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {"cv": checkpoint_dir("custom_voice-0b6", root), "base": checkpoint_dir("base-0b6", root)}


def cli(args, stdin=None):
    result = CliRunner().invoke(main, [os.fspath(a) for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout_bytes, result.stderr


def error_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def probe(path) -> dict:
    """What ffprobe reads in a file: its container and its one stream."""
    result = subprocess.run([FFPROBE, "-v", "error", "-show_entries",
                             "format=format_name,duration:stream=codec_name,sample_rate,channels", "-of", "json",
                             os.fspath(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    (stream,) = found["streams"]
    return {**found["format"], **stream}


def assert_aac_in_mp4(path, frames: int):
    info = probe(path)
    assert "mp4" in info["format_name"].split(",") and info["codec_name"] == "aac", info
    assert int(info["sample_rate"]) == 24000 and info["channels"] == 1, info
    assert abs(float(info["duration"]) - frames / 12.5) < 0.05, info  # 12.5 frames per second of speech


# --- .m4b and .m4a from every mode ---

@needs_ffprobe
@pytest.mark.parametrize("name, extra", [("a.m4b", []), ("a.m4a", ["--stream"]), ("a.m4b", ["--format", "aac"]),
                                         ("a.m4a", ["--split", "sequence"])])
def test_text_to_m4b_and_m4a_is_aac_in_mp4(models, tmp_path, name, extra):
    code, _, err = cli(["--model", models["cv"], "--text", "Hello there.", "--output", tmp_path / name,
                        "--max-tokens", "5", *GREEDY, *extra])
    assert code == 0, err
    assert_aac_in_mp4(tmp_path / name, 5)
    assert err.rstrip().endswith(f"-> {tmp_path / name}"), err


@needs_ffprobe
def test_batch_and_from_codes_write_m4a(models, tmp_path):
    (tmp_path / "lines.txt").write_text("First line.\nSecond line.\n", encoding="utf-8")
    code, _, err = cli(["--model", models["cv"], "--batch-file", tmp_path / "lines.txt", "--output",
                        tmp_path / "b.m4a", "--codes-output", tmp_path / "b.npy", "--max-tokens", "4", *GREEDY])
    assert code == 0, err
    for n in (1, 2):
        assert_aac_in_mp4(tmp_path / f"b_{n}.m4a", 4)
    code, _, err = cli(["--model", models["cv"], "--from-codes", tmp_path / "b_1.npy", "--output", tmp_path / "c.m4b"])
    assert code == 0, err
    assert_aac_in_mp4(tmp_path / "c.m4b", 4)


@needs_ffprobe
def test_result_save_writes_m4b(models, tmp_path):
    import mlx_qwen3tts

    result = mlx_qwen3tts.load(str(models["cv"])).generate("Hello.", max_tokens=4, temperature=0)
    assert result.save(tmp_path / "x.m4b") == tmp_path / "x.m4b"
    assert_aac_in_mp4(tmp_path / "x.m4b", 4)


@pytest.mark.parametrize("mode", [["--text", "hi"], ["--text-file", "{ok}"]])
def test_every_refusal_of_an_extension_names_m4a_and_m4b(models, tmp_path, mode):
    (tmp_path / "ok.txt").write_text("Fine text.\n", encoding="utf-8")
    args = [a.format(ok=tmp_path / "ok.txt") for a in mode]
    code, _, err = cli(["--model", models["cv"], *args, "--output", tmp_path / "a.xyz"])
    line = error_line(err)
    assert code == 2 and "unknown audio extension '.xyz'" in line and ".m4a/.m4b" in line, line
    assert not (tmp_path / "a.xyz").exists()


@pytest.mark.parametrize("mode", [["--text", "hi", "--stream"], ["--text-file", "{ok}"]])
def test_m4a_cannot_stream_to_stdout_and_says_so_before_the_model_loads(tmp_path, mode):
    (tmp_path / "ok.txt").write_text("Fine text.\n", encoding="utf-8")
    args = [a.format(ok=tmp_path / "ok.txt") for a in mode]
    code, out, err = cli(["--model", tmp_path / "no-model", *args, "--output", "-", "--format", "mp4"])
    line = error_line(err)
    assert code == 2 and "cannot be streamed" in line and "--format" in line and out == b"", line


# --- a long --text, and a preset's name as --voice ---

def test_a_text_over_the_limit_is_pointed_at_text_file_on_the_command_line(models, tmp_path):
    text = "A sentence of a text too long for one call. " * 460  # 20,240 characters
    code, _, err = cli(["--model", models["cv"], "--text", text, "--output", tmp_path / "a.wav"])
    line = error_line(err)
    assert code == 2 and "--text has 20,240 characters" in line and "--text-file" in line, line
    assert not (tmp_path / "a.wav").exists()


def test_a_text_over_the_limit_is_worded_for_python(load_tiny):
    from mlx_qwen3tts import InputError

    with pytest.raises(InputError) as caught:
        load_tiny("custom_voice-0b6").generate("Too long. " * 2001, max_tokens=2)
    assert "text has 20,010 characters" in str(caught.value) and "mlx_qwen3tts.longform" in str(caught.value)
    assert "--" not in str(caught.value)


def test_a_preset_name_as_voice_points_at_speaker(models, tmp_path):
    code, _, err = cli(["--model", models["cv"], "--text", "hi", "--voice", "vivian", "--output", tmp_path / "a.wav"])
    line = error_line(err)
    assert code == 2 and "--speaker vivian" in line, line
    assert not (tmp_path / "a.wav").exists()


def test_a_preset_name_as_voice_points_at_speaker_in_python(load_tiny, tmp_path, monkeypatch):
    from mlx_qwen3tts import InputError

    monkeypatch.chdir(tmp_path)  # no file named vivian here
    with pytest.raises(InputError) as caught:
        load_tiny("custom_voice-0b6").generate("hi", voice="vivian", max_tokens=2)
    message = str(caught.value)
    assert "preset speaker" in message and "speaker 'vivian'" in message and "--" not in message, message


# --- --speed ---

@pytest.mark.parametrize("extra", [[], ["--stream"]])
def test_speed_two_makes_audio_half_as_long(models, tmp_path, extra):
    lengths = {}
    for speed in ("1", "2"):
        out = tmp_path / f"s{speed}.wav"
        code, _, err = cli(["--model", models["cv"], "--text", "Hello there.", "--output", out, "--max-tokens", "20",
                            *GREEDY, "--speed", speed, *extra])
        assert code == 0, err
        lengths[speed] = sf.info(out).frames
    assert lengths["1"] == 20 * 1920
    assert lengths["2"] == lengths["1"] // 2  # WSOLA keeps round(n / speed) samples


@pytest.mark.parametrize("speed", ["5", "0.1", "fast"])
def test_speed_out_of_range_is_one_line(models, tmp_path, speed):
    code, _, err = cli(["--model", models["cv"], "--text", "hi", "--output", tmp_path / "a.wav", "--speed", speed])
    line = error_line(err)
    assert code == 2 and "--speed" in line, line
    assert not (tmp_path / "a.wav").exists()


def test_speed_with_text_file_is_refused_rather_than_ignored(models, tmp_path):
    (tmp_path / "ok.txt").write_text("Fine text.\n", encoding="utf-8")
    code, _, err = cli(["--model", models["cv"], "--text-file", tmp_path / "ok.txt", "--output", tmp_path / "a.wav",
                        "--speed", "2"])
    assert code == 2 and "--text-file cannot be combined with --speed" in error_line(err)
    assert not (tmp_path / "a.wav").exists()


# --- progress in a log file, and what --codes-output alone wrote ---

def test_progress_in_a_log_file_is_one_line_per_record(models, tmp_path):
    log = tmp_path / "run.log"
    with open(log, "wb") as stderr:  # stderr a file, as `2> run.log` makes it
        result = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--model", os.fspath(models["cv"]),
                                 "--text", "Hello there.", "--output", os.fspath(tmp_path / "a.wav"),
                                 "--max-tokens", "6", *GREEDY], stderr=stderr, timeout=300,
                                env=dict(os.environ, PYTHONPATH=str(REPO)))
    text = log.read_bytes().decode()  # (read_text would make each \r a newline)
    assert result.returncode == 0, text
    assert "\r" not in text, repr(text)
    assert re.search(r"^frames 1/6  audio  0\.08 s  RTF .*$", text, re.M), text


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_is_redrawn_on_one_line():
    shown = Terminal()
    progress = FrameProgress(quiet=False, stream=shown)
    for frames in (1, 2):
        progress(frames, 6)
        progress.last = 0.0  # as if a quarter second had passed
    progress.done()
    records = shown.getvalue()
    assert records.count("\n") == 1 and records.endswith("\n") and records.count("\r") == 2, repr(records)
    assert "frames 2/6" in records.rsplit("\r", 1)[1]


def test_codes_output_alone_says_what_it_wrote(models, tmp_path):
    code, _, err = cli(["--model", models["cv"], "--text", "Hello there.", "--codes-output", tmp_path / "c.npy",
                        "--max-tokens", "3", *GREEDY])
    assert code == 0, err
    assert err.rstrip().splitlines()[-1] == f"3 frames, 0.24 s of audio -> {tmp_path / 'c.npy'}", err
    assert np.load(tmp_path / "c.npy").shape == (3, 16)


# --- the server's input limit, named by the option that sets it ---

def test_the_server_names_its_max_input_chars_option(tmp_path_factory):
    pytest.importorskip("uvicorn")
    from server_harness import API_KEY, shared_server

    server = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,
                           "--max-active", "8", "--max-queue", "4")
    reply = httpx.post(server.url + "/v1/audio/speech", headers={"Authorization": f"Bearer {API_KEY}"},
                       json={"model": "tts-1", "voice": "ryan", "input": "x" * 6000}, timeout=30)
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["message"] == "input has 6,000 characters; the limit is 4,096 (the server's --max-input-chars)"
    assert (error["type"], error["param"], error["code"]) == ("invalid_request_error", "input",
                                                              "string_above_max_length")


# --- the fixtures' checkpoints, as docs/server.md has users make one ---

def test_checkpoint_dir_holds_no_nested_speech_tokenizer(tmp_path):
    with tarfile.open(fixture_checkpoints.CHECKPOINTS / fixture_checkpoints.CHECKPOINT_ARCHIVE, "r:xz") as tar:
        shipped = sorted(Path(m.name).name for m in tar.getmembers()
                         if m.isfile() and Path(m.name).parent.name == "speech_tokenizer")
    for name in fixture_checkpoints.NAMES:
        folder = checkpoint_dir(name, tmp_path)
        tokenizer = folder / "speech_tokenizer"
        assert sorted(p.name for p in tokenizer.iterdir()) == shipped, (name, list(tokenizer.iterdir()))
        assert not list(folder.rglob("speech_tokenizer/speech_tokenizer")), name
