"""A speech recognizer that hears what it is told to, for the tests of what hears speech back (cloning without a
transcript, --check, benchmarks.quality): `Mishears(answers)` hears each answer in turn (the last from then on),
whatever the audio, and keeps every call. `install(monkeypatch)` stands it in for `mlx_qwen3tts.asr`, whose
`load(path)` then reads the answers from the JSON list at `path` (for the command line's --asr); `python -c` with
`serve()` starts a real server process the same way."""

import json
import sys
import types
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Transcript:
    text: str
    language: str


class Mishears:
    def __init__(self, answers, language: str = "English"):
        self.answers, self.language, self.calls = list(answers), language, []

    def transcribe(self, audio, sample_rate, language=None):
        audio = np.asarray(audio)
        assert audio.ndim in (1, 2) and audio.shape[0] > 0 and np.isfinite(audio).all(), audio.shape
        self.calls.append((audio.shape[0], sample_rate, language))
        text = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return Transcript(text, language or self.language)


def module():
    """A stand-in for `mlx_qwen3tts.asr`: `load(path)` hears the answers in the JSON list at `path`."""
    fake = types.ModuleType("mlx_qwen3tts.asr")
    fake.loaded = []

    def load(path="Qwen/Qwen3-ASR-0.6B"):
        with open(path, encoding="utf-8") as f:
            fake.loaded.append(Mishears(json.load(f)))
        return fake.loaded[-1]

    fake.load = load
    return fake


def install(monkeypatch):
    import mlx_qwen3tts

    fake = module()
    monkeypatch.setitem(sys.modules, "mlx_qwen3tts.asr", fake)
    monkeypatch.setattr(mlx_qwen3tts, "asr", fake, raising=False)
    return fake


def answers_file(folder, *answers) -> str:
    path = folder / "answers.json"
    path.write_text(json.dumps(list(answers)), encoding="utf-8")
    return str(path)


def serve():
    """The server's entry point with the fake recognizer as `mlx_qwen3tts.asr` (for `python -c`)."""
    import runpy

    import mlx_qwen3tts

    sys.modules["mlx_qwen3tts.asr"] = mlx_qwen3tts.asr = module()
    runpy.run_module("mlx_qwen3tts.server", run_name="__main__")


def start_server(model_dir, folder, *answers, extra=()):
    """A real server process on 127.0.0.1 (`python -c` with `serve()`) for the Base checkpoint `model_dir`, started
    with --asr: its recognizer hears `answers` in turn. `url`; `stop()` ends it (bounded)."""
    from pathlib import Path

    from server_harness import ServerProcess

    folder = Path(folder)
    (folder / "voices").mkdir(parents=True, exist_ok=True)
    return ServerProcess(model_dir, folder / "voices", folder / "server.log", "--max-active", "2", "--max-queue", "2",
                         "--asr", answers_file(folder, *answers), *extra,
                         entry=("-c", "import fake_asr; fake_asr.serve()"), path=str(Path(__file__).resolve().parent))
