"""The Python API takes what the command line and the server take, refuses what it does not know in one line,
and errors name their files (issue 57)."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tiny(load_tiny):
    return load_tiny("custom_voice-0b6")


def test_generate_takes_speed_as_the_cli_does(tiny):
    from mlx_qwen3tts.errors import InputError

    plain = tiny.generate("Hallo.", speaker="ryan", seed=1, max_tokens=20, guard=False)
    fast = tiny.generate("Hallo.", speaker="ryan", seed=1, max_tokens=20, guard=False, speed=2.0)
    np.testing.assert_array_equal(plain.codes, fast.codes)
    assert abs(len(fast.audio) - len(plain.audio) / 2) <= 1
    for bad in (0, -1, 5, "fast", True):
        with pytest.raises(InputError, match="speed must be a number from 0.25 to 4.0") as e:
            tiny.generate("Hallo", speaker="ryan", speed=bad)
        assert e.value.field == "speed"
    batch = tiny.generate_batch(["Hallo.", "Ja."], seed=[1, 2], max_tokens=10, guard=False, speed=0.5)
    assert all(len(r.audio) == 2 * r.codes.shape[0] * 1920 for r in batch)


def test_an_unknown_keyword_is_refused_in_one_line_naming_the_accepted_ones(tiny):
    from mlx_qwen3tts.errors import InputError

    with pytest.raises(InputError) as e:
        tiny.generate("Hallo", speaker="ryan", max_new_tokens=10)
    message = str(e.value)
    assert "\n" not in message and "unknown keyword max_new_tokens (here it is max_tokens)" in message
    assert all(name in message for name in ("language", "speaker", "max_tokens", "temperature", "guard"))
    with pytest.raises(InputError, match="unknown keyword colour; the keywords are language, "):
        tiny.stream("Hallo", colour="blue")
    with pytest.raises(InputError, match="speed stretches whole audio"):
        tiny.stream("Hallo", speed=2)


def test_an_empty_text_file_is_named(tmp_path):
    from mlx_qwen3tts.cli.generate import main

    empty = tmp_path / "chapter one.txt"
    empty.write_text("\n \n")
    result = CliRunner().invoke(main, ["--model", str(tmp_path / "nowhere"), "--text-file", str(empty),
                                       "-o", str(tmp_path / "out.wav")])
    assert result.exit_code != 0 and str(empty) in result.output, result.output


def test_importing_benchmarks_checkpoints_does_not_warn_of_the_import_order():
    env = {k: v for k, v in os.environ.items() if k != "MLX_QWEN3TTS_NO_OPENBLAS"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-c", "import benchmarks.checkpoints"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "imported before mlx_qwen3tts" not in done.stderr, done.stderr


def test_the_pages_say_how_to_use_a_model_folder_copied_from_another_machine():
    readme, platforms = ((ROOT / page).read_text(encoding="utf-8") for page in ("README.md", "docs/platforms.md"))
    for text in (readme, platforms):
        assert "huggingface-cli download Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice --local-dir" in text
    assert "platforms.md#a-machine-without-the-network" in readme
    assert "--model path/to/" in platforms and 'mlx_qwen3tts.load("path/to/' in platforms
