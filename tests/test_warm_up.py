"""The warm-up (`tts.warm_up`: `TTS.warm`, the server's start-up, benchmarks/first_request.py) leaves a first
request and a first clone nothing to trace (issue 65): MLX's compiled activations that only a request met before
(the text projection's `silu`; a cloning model's speaker and codec encoders' `elu`, `gelu` and `relu`) are met by
the warm-up too, on the branches Metal and CUDA take; and it loads the language detector `auto` reads with.

MLX compiles its activations when `mlx.nn` is imported, so they are counted where their Python bodies run: only
while MLX traces them (their module's `mx` swapped for a counter that notes who asks). MLX keeps traces for the
life of a process, so each case runs in a fresh one."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fixture_checkpoints import checkpoint_dir

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT / "tests" / "fixtures" / "clone" / "ref_16k.wav"
CASE = """
import json, sys
import mlx_qwen3tts
import mlx.core as mx
import mlx.nn.layers.activations as activations
from mlx_qwen3tts import backend
from mlx_qwen3tts.text import reading

backend.CPU_PATHS = False  # the branches Metal and CUDA take
traced = []


class Counting:
    def __getattr__(self, name):
        traced.append(sys._getframe(1).f_code.co_name)
        return getattr(mx, name)


activations.mx = Counting()
folder, front, clip = sys.argv[1:]
tts = mlx_qwen3tts.load(folder, dtype=mx.float32)
engine = tts.engine(max_active=2) if front == "engine" else None
if engine is None:
    tts.warm()
else:
    from mlx_qwen3tts.tts import warm_up

    warm_up(tts, engine)
warmed, traced[:] = sorted(set(traced)), []
detector = reading._identifier.cache_info().currsize
who = dict(voice=tts.clone(clip, ref_text="This is the reference transcript.")) if clip else dict(speaker="ryan")
text = "The first request is spoken as fast as the next one."
if engine is None:
    tts.generate(text, max_tokens=3, **who)
else:
    list(engine.submit(tts.request(text, max_tokens=3, **who)))
    engine.close()
print(json.dumps({"warmed": warmed, "detector": detector, "first": sorted(set(traced))}))
"""


@pytest.mark.parametrize("front", ["python", "engine"])
@pytest.mark.parametrize("name", ["custom_voice-0b6", "base-0b6"])
def test_after_the_warm_up_a_first_request_and_clone_trace_no_activation(name, front, tmp_path_factory):
    folder = checkpoint_dir(name, tmp_path_factory.getbasetemp())
    clip = str(CLIP) if name.startswith("base") else ""
    out = subprocess.run([sys.executable, "-c", CASE, str(folder), front, clip], capture_output=True, text=True,
                         timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert "silu" in seen["warmed"], seen  # the counter counts
    assert seen["detector"] == 1, seen  # the language detector loaded before any request
    assert seen["first"] == [], seen


def test_every_front_end_warms_up_with_the_one_function():
    """The server's start-up, the first-request benchmark and `TTS.warm` call `warm_up`; nothing else in the package
    warms the text readers or an engine by itself."""
    for path in ("mlx_qwen3tts/server/__main__.py", "benchmarks/first_request.py"):
        assert re.search(r"warm_up(\(|, )tts, engine\)", (ROOT / path).read_text()), path
    tts = (ROOT / "mlx_qwen3tts" / "tts.py").read_text()
    assert "warm_up(self, max_rows=max_rows)" in tts
    others = [p for p in (ROOT / "mlx_qwen3tts").rglob("*.py") if p.name != "tts.py" and p.parent.name != "text"]
    assert not [str(p) for p in others if "warm_reading" in p.read_text() or "engine.warm()" in p.read_text()]
