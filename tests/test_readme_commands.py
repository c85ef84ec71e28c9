"""Every command line in the README's ```sh blocks that needs neither the network nor hardware runs
as written: the hub ids it names are served from a local hub cache holding the tiny checkpoints of
the same variants (HF_HUB_OFFLINE=1), in a scratch folder holding the reference audio (`me.wav`,
a sine) that the README assumes. The rest (installers, servers, curl, benchmarks, --play) is
skipped by program, and the test fails when a command turns up that it does not know to skip."""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from fixture_checkpoints import checkpoint_dir

REPO = Path(__file__).resolve().parent.parent
RUN = ("mlx_qwen3tts.generate", "mlx_qwen3tts.convert")
# Programs the README shows that need the network, a server, a GPU, hardware or the reference's own environment.
SKIP = {"pip", "python3", ".", "curl", "llm", "git", "cd", "mlx_qwen3tts.server", "hyperfine", "$B", "$REF_PY",
        "(cd", "TINY=$(cd"}
SKIP_PYTHON = ("-m pip", "-m pytest", "-m benchmarks", "benchmarks/", "convert/")
VARIANTS = {"0.6B-CustomVoice": "custom_voice-0b6", "1.7B-CustomVoice": "custom_voice-1b7", "0.6B-Base": "base-0b6",
            "1.7B-Base": "base-1b7", "1.7B-VoiceDesign": "voice_design-1b7"}


def readme_commands():
    """Each command of the ```sh blocks, continuation lines joined, `&&` chains split."""
    blocks = re.findall(r"^ *```sh\n(.*?)^ *```", (REPO / "README.md").read_text(encoding="utf-8"), re.M | re.S)
    commands = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):  # a chain is split unless a $(...) holds part of it
                commands += [line] if "$(" in line else [part.strip() for part in line.split(" && ")]
    return commands


def runnable(command: str) -> bool:
    words = shlex.split(command, comments=True)
    program = words[0]
    if program in RUN:
        return "--play" not in words
    if program == "python":
        return not any(skip in command for skip in SKIP_PYTHON)
    assert program in SKIP or "=" in program, f"README command not known to this test: {command}"
    return False


def hub_cache(root: Path, commands, tiny_root) -> Path:
    """A Hugging Face cache serving each `Qwen/Qwen3-TTS-12Hz-*` id named by a command from a tiny checkpoint."""
    for size_kind in sorted(set(re.findall(r"Qwen/Qwen3-TTS-12Hz-([\w.-]+)", " ".join(commands)))):
        repo = root / "hub" / f"models--Qwen--Qwen3-TTS-12Hz-{size_kind}"
        commit = "0" * 40
        shutil.copytree(checkpoint_dir(VARIANTS[size_kind], tiny_root), repo / "snapshots" / commit)
        (repo / "refs").mkdir()
        (repo / "refs" / "main").write_text(commit)
    return root


@pytest.fixture(scope="module")
def commands():
    found = readme_commands()
    assert len(found) > 20  # the extraction works
    return [c for c in found if runnable(c)]


def test_the_readme_commands_run_as_written(commands, tmp_path, tmp_path_factory):
    # The ones users run first must be among them.
    assert any(c.startswith("mlx_qwen3tts.generate --text") for c in commands)
    assert any("--bits 4 --recipe talker4-cp8" in c for c in commands)
    assert any("--save-voice me.safetensors" in c for c in commands)
    default_model = 'mlx_qwen3tts.generate --text "Hello"'  # the install line: the default model, from the hub
    hf = hub_cache(tmp_path / "hf", commands + ["Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice"] * any(
        c.startswith(default_model) for c in commands), tmp_path_factory.getbasetemp())
    work = tmp_path / "work"
    work.mkdir()
    t = np.arange(3 * 24000) / 24000
    sf.write(work / "me.wav", (0.3 * np.sin(2 * np.pi * 180 * t)).astype(np.float32), 24000)  # the README's me.wav
    env = dict(os.environ, HF_HOME=str(hf), HF_HUB_OFFLINE="1", PYTHONPATH=str(REPO),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    env.pop("HF_HUB_CACHE", None)
    for command in commands:
        result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=env, capture_output=True,
                                text=True, timeout=600)
        assert result.returncode == 0, f"{command}\n{result.stderr[-2000:]}"
        assert "Traceback" not in result.stderr and "error:" not in result.stderr, f"{command}\n{result.stderr}"
    for made in ("hello.wav", "out.wav", "hi.wav", "me.safetensors", "qwen3tts-0.6b-cv-4bit/config.json"):
        assert (work / made).is_file(), made
    assert sf.info(work / "hi.wav").samplerate == 24000
