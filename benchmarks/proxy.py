"""The overhead-bound proxy, A/B: this package's frame against mlx-audio's on the narrow preset (the
released depth at 64 wide, codes only: a frame costs what its graph costs to build and run, as at batch
one on Apple's GPUs), in alternating rounds, each side a fresh process, and the median of the rounds.

    python -m benchmarks.proxy --mlx-audio-python MLXAUDIO/bin/python --rounds 5

Ours: `TTS.frames`, the median interval between frames of a 40-frame run after a warm-up (the "loop"
figure of `benchmarks.run`). mlx-audio 0.6.2: `benchmarks/mlx_audio_driver.py --loop-only`, its generate
loop with the codec stubbed, per frame by differencing runs of 3 and 43 frames (median of 3 pairs), with
the system OpenBLAS preloaded as this package loads it. Both sample as the checkpoint says. Round k runs
ours first when k is even, mlx-audio first when odd.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import mlx_qwen3tts  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

from benchmarks import checkpoints, peers, report  # noqa: E402
from benchmarks.checkpoints import DEFAULT_CACHE  # noqa: E402
from benchmarks.measure import TEXT, loop_pass  # noqa: E402


def ours(folder: str, frames: int) -> dict:
    """This package's loop figure, in this process."""
    tts = mlx_qwen3tts.load(folder)
    loop_pass(tts, TEXT, 3)  # traces
    return {"loop_ms": loop_pass(tts, TEXT, frames)["loop_ms"]}


def side(name: str, args, folder: Path) -> float:
    if name == "ours":
        proc = subprocess.run([sys.executable, "-m", "benchmarks.proxy", "--side", str(folder),
                               "--frames", str(args.frames)], capture_output=True, text=True, timeout=1800)
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or not lines:
            raise SystemExit(f"ours: exit {proc.returncode}: {(proc.stderr or proc.stdout)[-300:]}")
        return json.loads(lines[-1])["loop_ms"]
    figures = peers.run_mlx_audio(args.mlx_audio_python, folder, args.frames, TEXT, openblas=True, loop_only=True,
                                  timeout=1800)
    if "error" in figures:
        raise SystemExit(f"mlx-audio: {figures['error']}")
    return figures["loop_ms"]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.proxy", description=__doc__.split("\n")[0])
    ap.add_argument("--mlx-audio-python", help="Python of an environment with mlx-audio 0.6.2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--side", help=argparse.SUPPRESS)  # a checkpoint folder: run ours here and print its figure
    args = ap.parse_args(argv)
    if args.side:
        print(json.dumps(ours(args.side, args.frames)))
        return None
    if not args.mlx_audio_python:
        raise SystemExit("--mlx-audio-python is required: the Python of an environment with mlx-audio 0.6.2")
    folder = checkpoints.checkpoint("narrow", "bf16", args.cache, log=lambda m: None)
    figures = {"ours": [], "mlx-audio": []}
    for k in range(args.rounds):
        for name in (("ours", "mlx-audio") if k % 2 == 0 else ("mlx-audio", "ours")):
            figures[name].append(side(name, args, folder))
        print(f"round {k + 1}: ours {figures['ours'][-1]:.1f} ms, mlx-audio {figures['mlx-audio'][-1]:.1f} ms "
              f"a frame ({figures['ours'][-1] / figures['mlx-audio'][-1]:.2f}x), load {os.getloadavg()[0]:.2f}",
              flush=True)
    ratios = [a / b for a, b in zip(figures["ours"], figures["mlx-audio"])]
    result = {"commit": report.commit(), "rounds": args.rounds, "frames": args.frames, **figures,
              "ours_median_ms": statistics.median(figures["ours"]),
              "mlx_audio_median_ms": statistics.median(figures["mlx-audio"]),
              "ratio_of_medians": statistics.median(figures["ours"]) / statistics.median(figures["mlx-audio"]),
              "median_ratio": statistics.median(ratios)}
    print(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
