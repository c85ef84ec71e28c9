"""Smoke test of benchmarks/finetune_torch.py (issue 64's "Speed and memory") on the tiny shapes: our side's step
in its own process, the batch both sides read, and, where the reference venv is here (MLX_QWEN3TTS_ORACLE_PYTHON,
default /work/oracle-venv/bin/python; CI has none), the whole comparison with the official PyTorch step."""

import argparse
import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks import finetune_torch
from benchmarks.checkpoints import checkpoint

ORACLE = os.environ.get("MLX_QWEN3TTS_ORACLE_PYTHON", "/work/oracle-venv/bin/python")
SHAPES = argparse.Namespace(batch_size=2, frames=6, tokens=4, warmup=1, repeats=1, rounds=1, dtype="float32")


def test_our_step_and_the_shared_batch_on_the_tiny_shapes(tmp_path):
    folder = checkpoint("tiny", "bf16", tmp_path / "cache")
    path = tmp_path / "batch.npz"
    found = finetune_torch._child(sys.executable, "_batch", folder, path, *finetune_torch._shape_args(SHAPES))
    assert math.isfinite(found["loss"]) and found["loss"] > 0
    batch = np.load(path)
    assert set(batch.files) == set(finetune_torch.BATCH_KEYS)
    # every frame's codebook 0 and the EOS after each clip scored; 6 frames a clip for the predictor
    assert batch["talker_targets"].shape == (2 * (6 + 1),) and batch["predictor_codes"].shape == (12, 16)
    np.testing.assert_array_equal(batch["predictor_targets"], batch["predictor_codes"][:, 1:])
    for method in finetune_torch.METHODS:
        ours = finetune_torch._child(sys.executable, "_ours", folder, method, *finetune_torch._shape_args(SHAPES))
        assert ours["step_s"] > 0 and ours["peak_rss_gb"] >= ours["mlx_peak_gb"] > 0 and method in ours["side"]


@pytest.mark.skipif(not Path(ORACLE).exists(), reason=f"no reference venv at {ORACLE} (qwen-tts 0.1.1 and torch)")
def test_the_comparison_with_the_official_step_on_the_tiny_shapes(tmp_path, capsys):
    found = finetune_torch.main(["--official-python", ORACLE, "--preset", "tiny", "--methods", "lora",
                                 "--frames", "6", "--tokens", "4", "--repeats", "1", "--rounds", "1",
                                 "--cache", str(tmp_path / "cache")])
    assert found["official"]["step_s"] > 0 and found["lora"]["step_s"] > 0
    # the same batch and the same computation: the losses at the base weights agree (float32)
    assert abs(found["official"]["loss"] - found["lora"]["loss"]) <= 1e-4 * abs(found["official"]["loss"])
    out = capsys.readouterr().out
    assert "| ours lora" in out and "| qwen-tts 0.1.1" in out and "Machine:" in out


def test_the_update_and_dequantize_benchmarks_time_every_side(capsys):
    from benchmarks import adamw_layout, dequantize

    adamw_layout.main(["--layers", "2", "--rounds", "4", "--steps", "2"])
    dequantize.main(["--rounds", "2"])
    lines = capsys.readouterr().out.splitlines()
    sides = [f"{layout}, {cache}" for layout in ("row-major", "column-major") for cache in ("MLX's cache", "buffers kept")]
    for side in sides + ["mx.dequantize", "_unpacked", "_unpacked compiled"]:
        timed = [line for line in lines if line.split(" median")[0].strip() == side]
        assert len(timed) == 1 and float(timed[0].split("median")[1].split()[0]) > 0, side
