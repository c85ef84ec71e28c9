"""What a new user's first hour with the command line hits: a closed pipe, batch file names and
lines, a frame cap on split text, `~` in paths, short options. Tiny random checkpoints."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from fixture_checkpoints import checkpoint_dir
from mlx_qwen3tts.cli.generate import main

REPO = Path(__file__).resolve().parent.parent
FAST = ["--max-tokens", "3", "--temperature", "0"]
# Over 300 characters: split at sentence ends into several pieces.
LONG = " ".join(f"This is sentence number {i} of a text long enough to be split into pieces." for i in range(8))


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {"cv": checkpoint_dir("custom_voice-0b6", root), "base": checkpoint_dir("base-0b6", root)}


def cli(args, **kwargs):
    result = CliRunner(**kwargs).invoke(main, [os.fspath(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stderr


def tone(path, seconds=2.0, rate=24000):
    t = np.arange(int(seconds * rate)) / rate
    sf.write(path, (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32), rate)


@pytest.mark.parametrize("extra", [[], ["--stream"], ["--format", "pcm"], ["--stream", "--format", "mp3"]])
def test_a_reader_that_goes_away_ends_the_run_with_141_in_every_mode(models, extra):
    # 20 frames of float WAV are 150 KB, more than a pipe holds: the write meets the closed pipe.
    command = [sys.executable, "-m", "mlx_qwen3tts.generate", "--model", os.fspath(models["cv"]), "--text",
               "Hello there.", "--output", "-", "--max-tokens", "20", "--temperature", "0", "--quiet", *extra]
    if extra[-1:] == ["mp3"]:
        command[command.index("20")] = "200"  # mp3 is small: more frames to overflow the pipe
    shell = " ".join(map(repr, command)) + ' | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}"'
    result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert result.stdout.strip() == "141", result.stderr
    assert "Traceback" not in result.stderr


def test_batch_files_are_named_by_line_zero_padded_and_each_line_is_reported(models, tmp_path):
    lines = [f"Line number {i}." if i != 4 else "   " for i in range(1, 13)]  # line 4 is blank
    (tmp_path / "lines.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, err = cli(["--model", models["cv"], "--batch-file", tmp_path / "lines.txt", "--codes-output",
                     tmp_path / "b.npy", *FAST])
    assert code == 0, err
    names = sorted(p.name for p in tmp_path.glob("b_*.npy"))
    # Named by the file's line (blank line 4 has none), padded so that name order is line order.
    assert names == [f"b_{i:02d}.npy" for i in range(1, 13) if i != 4]
    for i in (1, 5, 12):
        assert f"line {i} -> {tmp_path / f'b_{i:02d}.npy'}\n" in err
        assert f"line {i} stopped at --max-tokens 3" in err
    assert "line 4 " not in err and "11 texts, 33 frames" in err


def test_one_text_is_one_text(models, tmp_path):
    (tmp_path / "one.txt").write_text("Just one.\n", encoding="utf-8")
    code, err = cli(["--model", models["cv"], "--batch-file", tmp_path / "one.txt", "--codes-output",
                     tmp_path / "c.npy", *FAST])
    assert code == 0, err
    assert "1 text, 3 frames" in err and "texts" not in err


@pytest.mark.parametrize("split", ["auto", "sequence", "batch"])
def test_max_tokens_is_the_total_for_a_split_text(models, tmp_path, split):
    # Greedy serena runs far past 30 frames in every piece of this text (2 pieces).
    code, err = cli(["--model", models["cv"], "--text", LONG, "--codes-output", tmp_path / "c.npy", "--max-tokens",
                     "30", "--temperature", "0", "--speaker", "serena", "--split", split, "--quiet"])
    assert code == 0, err
    frames = np.load(tmp_path / "c.npy").shape[0]
    assert frames == 30 if split != "batch" else 0 < frames <= 30  # batch: shares by length, rounded down
    assert "stopped at --max-tokens 30" in err


def test_tilde_is_expanded_in_every_path_option(models, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    tone(home / "ref.wav")
    (home / "lines.txt").write_text("One.\nTwo.\n", encoding="utf-8")
    as_user = dict(env={"HOME": os.fspath(home)})
    code, err = cli(["--model", models["base"], "--ref-audio", "~/ref.wav", "--x-vector-only", "--save-voice",
                     "~/me.safetensors", "--text", "Hi", "--output", "~/hi.wav", "--codes-output", "~/hi.npy",
                     *FAST], **as_user)
    assert code == 0, err
    code, err = cli(["--model", models["base"], "--voice", "~/me.safetensors", "--batch-file", "~/lines.txt",
                     "--output", "~/b.wav", *FAST], **as_user)
    assert code == 0, err
    assert sorted(p.name for p in home.iterdir()) == sorted(
        ["ref.wav", "lines.txt", "me.safetensors", "hi.wav", "hi.npy", "b_1.wav", "b_2.wav"])
    assert not (Path.cwd() / "~").exists()


def test_short_options_work_and_are_shown_in_help(models, tmp_path):
    result = CliRunner().invoke(main, ["--help"])
    for short, long in (("-m", "--model"), ("-t", "--text"), ("-o", "--output"), ("-f", "--format"),
                        ("-l", "--language"), ("-s", "--speaker"), ("-i", "--instruct"), ("-v", "--voice"),
                        ("-r", "--ref-audio"), ("-q", "--quiet"), ("-h", "--help"), ("-V", "--version")):
        assert f"{short}, {long}" in result.output
    code, err = cli(["-m", models["cv"], "-t", "Hello", "-o", tmp_path / "a.wav", "-s", "serena", "-l", "english",
                     "-q", "--max-tokens", "3", "--temperature", "0"])
    assert code == 0, err
    assert sf.info(tmp_path / "a.wav").frames == 3 * 1920


def test_a_voice_memo_m4a_clones_from_the_command_line(models, tmp_path):
    from test_reference_formats import encode

    encode(tmp_path / "memo.m4a", "alac")
    code, err = cli(["--model", models["base"], "--ref-audio", tmp_path / "memo.m4a", "--x-vector-only", "--text",
                     "Hi", "--codes-output", tmp_path / "c.npy", *FAST, "--quiet"])
    assert code == 0, err
    assert np.load(tmp_path / "c.npy").shape == (3, 16)


HEAVY = ("mlx.core", "mlx_lm", "transformers", "soundfile", "av")


@pytest.mark.parametrize("code", [
    "import mlx_qwen3tts",
    "from mlx_qwen3tts.generate import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
], ids=["import", "help"])
def test_import_and_help_load_no_model_code(code):
    # What made both take over a second: the model code (mlx, mlx-lm, transformers) loaded up front.
    check = f"\nimport sys\nprint([m for m in {HEAVY!r} if m in sys.modules])"
    result = subprocess.run([sys.executable, "-c", code + check], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
