"""Library messages name no command-line flag: a Python user reads them in neutral words, and the
command line words them as its options (`--format`, `--play`, `--output`). Each case is an error a
user meets: an output name that disagrees with the format, no audio output device, a hub model
that is not cached while offline."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mlx_qwen3tts.audio.formats import format_for_path
from mlx_qwen3tts.cli.generate import main
from mlx_qwen3tts.errors import InputError

REPO = Path(__file__).resolve().parent.parent
FLAGS = ("--format", "--play", "--output", "--model")


def cli_error(args) -> str:
    """The one `error:` line of the command (exit status 2)."""
    result = CliRunner().invoke(main, [os.fspath(a) for a in args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_format_messages_name_the_option_as_each_front_end_does(tmp_path):
    out = tmp_path / "x.wav"
    with pytest.raises(InputError) as caught:
        format_for_path(out, "mp3")
    python = str(caught.value)
    assert caught.value.field == "format" and not any(flag in python for flag in FLAGS)
    assert python == f"format mp3 does not match the extension of {out}; use a .mp3 name or leave format out"
    with pytest.raises(InputError) as caught:
        format_for_path(tmp_path / "x.txt")
    assert str(caught.value).endswith("(or choose one with format)")

    line = cli_error(["--model", tmp_path / "none", "--text", "hi", "--output", out, "--format", "mp3"])
    assert line == f"error: --format mp3 does not match the extension of {out}; use a .mp3 name or leave --format out"
    line = cli_error(["--model", tmp_path / "none", "--text", "hi", "--output", tmp_path / "x.txt"])
    assert line.endswith("(or choose one with --format)")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written


def test_playback_messages_leave_the_alternatives_to_the_front_end(tmp_path):
    from mlx_qwen3tts.audio.playback import PlaybackError, check_output_device

    with pytest.raises(PlaybackError) as caught:  # a device no machine has
        check_output_device("no-such-output-device-4711")
    python = str(caught.value)
    assert not any(flag in python for flag in FLAGS)
    assert "no audio output device" in python or "PortAudio" in python

    try:
        check_output_device()
    except PlaybackError:
        pass
    else:
        pytest.skip("this machine has an audio output device: --play would play")
    line = cli_error(["--model", tmp_path / "none", "--text", "hi", "--play"])
    assert line.startswith("error: --play: ") and line.endswith("; or write a file with --output OUT.wav instead")


def test_an_uncached_hub_model_offline_is_worded_for_python_and_the_cli(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf"),
           "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("HF_HUB_CACHE", None)
    repo = "Qwen/Qwen3-TTS-12Hz-0.6B-Base"
    python = subprocess.run(
        [sys.executable, "-c", f"import mlx_qwen3tts\ntry:\n    mlx_qwen3tts.load({repo!r})\n"
                               "except mlx_qwen3tts.ModelLoadError as e:\n    print(e)"],
        capture_output=True, text=True, env=env, timeout=120)
    cli = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--model", repo, "--text", "hi",
                          "--output", str(tmp_path / "x.wav")], capture_output=True, text=True, env=env, timeout=120)
    message = python.stdout.strip()
    assert python.returncode == 0 and message.startswith(f"model '{repo}' is not in the local cache"), python.stderr
    assert "or give the path of a local model folder" in message
    assert not any(flag in message for flag in FLAGS)
    assert cli.returncode == 2 and cli.stderr.strip().splitlines()[-1] == f"error: {message}", cli.stderr
    assert "Traceback" not in cli.stderr
    assert not (tmp_path / "x.wav").exists()
