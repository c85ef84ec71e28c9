"""The other systems of the side-by-side: mlx-audio's Qwen3-TTS, espeak-ng, Apple's synthesizer.

- mlx-audio: mlx_audio_driver.py run by a Python that has mlx-audio (this one when it imports, else
  --mlx-audio-python / $MLX_AUDIO_PYTHON), on the very checkpoint folder we measured.
- espeak-ng: the binary writing a WAV of the same text; RTF = wall time / audio duration. It
  returns nothing before the whole file, so its first audio is the wall time.
- AVSpeechSynthesizer: on macOS through the speech API's command-line front end `say` writing a
  file (same timing); elsewhere the published M2 Max figures of a Swift/MLX Qwen3-TTS port
  (SOURCE_URL, "vs Apple AVSpeechSynthesizer"), labelled quoted.
"""

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path
from typing import Optional

DRIVER = Path(__file__).resolve().parent / "mlx_audio_driver.py"
SOURCE_URL = "https://github.com/soniqo/speech-swift/blob/main/docs/inference/qwen3-tts-inference.md"
QUOTED_SOURCE = f"quoted: Qwen3-TTS Swift/MLX port document, M2 Max 64 GB ({SOURCE_URL})"
QUOTED = [
    {"system": "AVSpeechSynthesizer", "rtf": 0.02, "first_audio_ms": 170.0,
     "note": QUOTED_SOURCE + "; latency for 6 s of audio"},
    {"system": "Qwen3-TTS Swift/MLX port (0.6B, release)", "rtf": 0.7, "first_audio_ms": 120.0,
     "note": QUOTED_SOURCE + "; first packet with 1-frame chunks (3.9 s for 6 s of audio unstreamed)"},
]


def mlx_audio_python(explicit: Optional[str]) -> Optional[str]:
    """The interpreter to run mlx-audio with, or None when none is known."""
    if explicit:
        return explicit
    if os.environ.get("MLX_AUDIO_PYTHON"):
        return os.environ["MLX_AUDIO_PYTHON"]
    probe = subprocess.run([sys.executable, "-c", "import mlx_audio.tts"], capture_output=True)
    return sys.executable if probe.returncode == 0 else None


def run_mlx_audio(python: str, folder: Path, frames: int, text: str, repeats: int = 3,
                  timeout: float = 4 * 3600, openblas: bool = False, loop_only: bool = False) -> dict:
    """Driver figures, or {"error": why} when mlx-audio could not run on this checkpoint. `openblas`:
    with the system OpenBLAS preloaded (LD_PRELOAD), as this package loads it on Linux; `loop_only`: no
    first chunk and no decode timed."""
    cmd = [python, str(DRIVER), "--model", str(folder), "--frames", str(frames), "--repeats", str(repeats),
           "--text", text] + (["--loop-only"] if loop_only else [])
    env = dict(os.environ, LD_PRELOAD="libopenblas.so.0") if openblas else None
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"error": f"{type(e).__name__}: {e}"}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"error": f"exit {proc.returncode}: {tail[0][:300]}"}
    return dict(json.loads(lines[-1]), openblas=openblas)


def _wav_seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def _time_command(make_cmd, runs: int = 3) -> Optional[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.wav"
        times = []
        for _ in range(runs):
            tic = time.perf_counter()
            proc = subprocess.run(make_cmd(out), capture_output=True)
            times.append(time.perf_counter() - tic)
            if proc.returncode != 0:
                return None
        wall = statistics.median(times)
        seconds = _wav_seconds(out)
    return {"rtf": wall / seconds, "first_audio_ms": wall * 1e3, "audio_s": seconds}


def espeak(text: str) -> Optional[dict]:
    binary = shutil.which("espeak-ng")
    if binary is None:
        return None
    figures = _time_command(lambda out: [binary, "-w", str(out), text])
    if figures:
        figures.update(system="espeak-ng", note="measured; whole file, no streaming")
    return figures


def apple_say(text: str) -> Optional[dict]:
    binary = shutil.which("say")
    if platform.system() != "Darwin" or binary is None:
        return None
    figures = _time_command(lambda out: [binary, "--file-format=WAVE", "--data-format=LEI16@22050",
                                         "-o", str(out), text])
    if figures:
        figures.update(system="AVSpeechSynthesizer (say)", note="measured through `say -o` (macOS speech API)")
    return figures


def synthesizers(text: str) -> list:
    """Rows for espeak-ng and Apple's synthesizer: measured where possible, else quoted."""
    rows = [r for r in (espeak(text), apple_say(text)) if r]
    if not any(r["system"].startswith("AVSpeechSynthesizer") for r in rows):
        rows.append(dict(QUOTED[0]))
    rows.append(dict(QUOTED[1]))
    return rows
