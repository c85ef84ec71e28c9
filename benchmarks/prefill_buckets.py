"""Prefill in buckets against prefill as it is: what the padding costs (mlx_qwen3tts/model/buckets.py).

On the branches Metal and CUDA take (forced on this CPU unless --cpu-paths) a prompt is prefilled padded to
its bucket; this times, for a prompt of each length in --chars (the join benchmark's English prose, preset
speaker), the talker's prefill of every prompt position but the last (`rows.forward` on a fresh
`rows.prompt_cache`, as a request's prefill runs) with buckets and without, alternating (A B B A ...) for
--rounds rounds after one untimed run of each (so no first use is timed), and reports the medians and their
ratio per length, and the median of the ratios. On a GPU what buckets save is each new length's first use
(`benchmarks.first_request`); this is what they cost on every request.

    PYTHONPATH=$PWD python -m benchmarks.prefill_buckets --preset narrow
    PYTHONPATH=$PWD python -m benchmarks.prefill_buckets --preset tiny --rounds 3   # seconds (a smoke run)
"""

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import mlx_qwen3tts  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

import mlx.core as mx  # noqa: E402

from mlx_qwen3tts.loop.rows import forward, prompt_cache  # noqa: E402
from mlx_qwen3tts.model import buckets  # noqa: E402

from benchmarks import checkpoints, report  # noqa: E402
from benchmarks.checkpoints import DEFAULT_CACHE  # noqa: E402
from benchmarks.join import joiner_text  # noqa: E402


def prefill_s(talker, embeds, bucketed: bool) -> float:
    """Seconds of one prefill of `embeds`, in buckets or as it is."""
    buckets.ENABLED = bucketed
    cache = prompt_cache(talker, embeds.shape[1])
    tic = time.perf_counter()
    forward(talker, embeds, cache)
    mx.eval([(c.keys, c.values) for c in cache])
    return time.perf_counter() - tic


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.prefill_buckets", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="narrow", choices=checkpoints.PRESETS)
    ap.add_argument("--chars", default="80,160,300,450,700,1000,1500", help="prompts' lengths in characters")
    ap.add_argument("--rounds", type=int, default=7, help="timed runs of each, alternating")
    ap.add_argument("--cpu-paths", action="store_true", help="this CPU's own branches instead of Metal's and CUDA's")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, help="also write the figures here (JSON)")
    args = ap.parse_args(argv)
    mlx_qwen3tts.backend.CPU_PATHS = False if not args.cpu_paths else None
    tts = mlx_qwen3tts.load(str(checkpoints.checkpoint(args.preset, "bf16", args.cache)))
    talker, load, rows = tts.loop.talker, os.getloadavg()[0], []
    try:
        for chars in (int(c) for c in args.chars.split(",")):
            embeds = tts.prompt(tts.request(joiner_text(chars), speaker="ryan")).embeds[:, :-1]
            mx.eval(embeds)
            times = {False: [], True: []}
            for bucketed in (False, True):  # first use of each shape, untimed
                prefill_s(talker, embeds, bucketed)
            for r in range(args.rounds):
                for bucketed in ((False, True) if r % 2 == 0 else (True, False)):
                    times[bucketed].append(prefill_s(talker, embeds, bucketed))
            plain, padded = statistics.median(times[False]), statistics.median(times[True])
            rows.append({"chars": chars, "positions": embeds.shape[1], "bucket": buckets.bucket(embeds.shape[1]),
                         "plain_ms": plain * 1000, "bucketed_ms": padded * 1000, "ratio": padded / plain})
    finally:
        buckets.ENABLED = None
    print(f"{args.preset}, {mx.default_device()}, {'CPU' if args.cpu_paths else 'Metal/CUDA'} branches, commit "
          f"{report.commit()}, MLX {mx.__version__}, {args.rounds} rounds alternating, load average {load:.2f} at "
          f"start, {os.getloadavg()[0]:.2f} at end")
    print("| prompt chars | positions | bucket | as it is (ms) | in its bucket (ms) | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['chars']:,} | {r['positions']:,} | {r['bucket']:,} | {r['plain_ms']:.1f} | "
              f"{r['bucketed_ms']:.1f} | {r['ratio']:.2f}x |")
    median = statistics.median(r["ratio"] for r in rows)
    print(f"median ratio {median:.2f}x")
    result = {"preset": args.preset, "commit": report.commit(), "gpu_paths": not args.cpu_paths,
              "load_average_start": load, "rows": rows, "median_ratio": median}
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
