"""A/B of two source trees of this package on one checkpoint: time per frame, alternating rounds, medians.

    python -m benchmarks.ab_trees --tree /path/to/A --tree /path/to/B --model CKPT --rounds 8

Each round runs every tree once, in alternating order (A B, then B A, ...), each in a fresh process that
imports the package from that tree (PYTHONPATH and working directory; the process reports the file it
imported, and a tree whose package was not the one imported is an error). A run loads the model (the
backend's default dtype: float32 on a CPU), warms up, then times `TTS.generate` (greedy, codes only) of
3 and 15 frames: per frame = the slope (t15 - t3) / 12, so the prompt and fixed costs cancel; and the
median interval between frames of `TTS.frames` (12 frames). Prints each run, then per tree the medians,
and the median of the paired differences B - A (same round, so the same machine state).
Random weights never emit EOS, so every run has the frames asked for.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TEXT = "The quick brown fox jumps over the lazy dog, and then it runs far away into the deep forest."
SHORT, LONG = 3, 15


def side(model: str) -> dict:
    """One tree's figures, in this process (see the module docstring)."""
    import mlx_qwen3tts

    tts = mlx_qwen3tts.load(model)
    kw = dict(language="english", temperature=0.0, decode=False)

    def timed(frames):
        tic = time.perf_counter()
        tts.generate(TEXT, max_tokens=frames, **kw)
        return time.perf_counter() - tic

    timed(SHORT)  # traces
    slope = (timed(LONG) - timed(SHORT)) / (LONG - SHORT)
    stamps = [time.perf_counter() for _ in tts.frames(TEXT, language="english", temperature=0.0, max_tokens=12)]
    interval = statistics.median(b - a for a, b in zip(stamps, stamps[1:]))
    return {"file": mlx_qwen3tts.__file__, "slope_ms": slope * 1e3, "interval_ms": interval * 1e3}


def run_side(tree: Path, model: str, timeout: float) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--side", "--model", model], cwd=tree,
                          env=env, capture_output=True, text=True, timeout=timeout)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"{tree}: exit {proc.returncode}: {tail[0]}")
    figures = json.loads(lines[-1])
    if not Path(figures["file"]).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"{tree}: the package imported was {figures['file']}, not this tree's")
    return figures


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", action="append", type=Path, help="a source tree (give two: A, then B)")
    ap.add_argument("--model", required=True, help="checkpoint folder")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    ap.add_argument("--side", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.side:
        print(json.dumps(side(args.model)))
        return
    if not args.tree or len(args.tree) != 2:
        ap.error("give two trees: --tree A --tree B")
    runs = {str(t): [] for t in args.tree}
    for i in range(args.rounds):
        for tree in (args.tree if i % 2 == 0 else args.tree[::-1]):
            figures = run_side(tree, args.model, args.timeout)
            runs[str(tree)].append(figures)
            print(json.dumps({"round": i, "tree": str(tree), **figures, "load1": os.getloadavg()[0]}), flush=True)
    a, b = (runs[str(t)] for t in args.tree)
    summary = {}
    for key in ("slope_ms", "interval_ms"):
        summary[key] = {"A": statistics.median(r[key] for r in a), "B": statistics.median(r[key] for r in b),
                        "B-A paired median": statistics.median(y[key] - x[key] for x, y in zip(a, b)),
                        "B-A paired range": [min(y[key] - x[key] for x, y in zip(a, b)),
                                             max(y[key] - x[key] for x, y in zip(a, b))]}
    print(json.dumps({"A": str(args.tree[0]), "B": str(args.tree[1]), "rounds": args.rounds, **summary}, indent=1))


if __name__ == "__main__":
    main()
