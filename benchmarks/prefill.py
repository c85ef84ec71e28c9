"""Prefill benchmark: a whole prompt through the talker in one pass, or in passes of a chunk of positions.

For a prompt of each length in --chars (the join benchmark's English prose, preset speaker) it times
the talker's forward over every prompt position in one pass and in passes of each size in --chunks
(`rows.forward`, a fresh cache each time, room for the whole prompt), the best of --repeats,
and reports each chunk size's time as a ratio to one pass. On the CPU a pass's causal attention is
computed over the whole square of its positions; this measures what that costs
(`Rows.PREFILL_CHUNK`, the chunk the CPU paths use).

    PYTHONPATH=$PWD python -m benchmarks.prefill --preset 0.6B               # released shapes: minutes
    PYTHONPATH=$PWD python -m benchmarks.prefill --preset tiny --chars 300   # seconds (a smoke run)
"""

import argparse
import os
import time
from pathlib import Path

import mlx_qwen3tts  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

import mlx.core as mx  # noqa: E402

from mlx_qwen3tts.loop.rows import forward, prompt_cache  # noqa: E402

from benchmarks import checkpoints, report  # noqa: E402
from benchmarks.checkpoints import DEFAULT_CACHE  # noqa: E402
from benchmarks.join import joiner_text  # noqa: E402


def seconds(talker, embeds, chunk, repeats: int) -> float:
    """The best time of `repeats` prefills of `embeds` in passes of `chunk` positions (None: one)."""
    best = float("inf")
    for _ in range(repeats):
        cache = prompt_cache(talker, embeds.shape[1])
        tic = time.perf_counter()
        forward(talker, embeds, cache, chunk)
        mx.eval([(c.keys, c.values) for c in cache])
        best = min(best, time.perf_counter() - tic)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.prefill", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="0.6B", choices=checkpoints.PRESETS)
    ap.add_argument("--chars", default="600,2400,4000", help="prompts' lengths in characters")
    ap.add_argument("--chunks", default="128,256,512", help="chunk sizes (positions) to compare with one pass")
    ap.add_argument("--repeats", type=int, default=2, help="runs of each; the best is reported")
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"], help="talker compute dtype")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = ap.parse_args(argv)
    tts = mlx_qwen3tts.load(str(checkpoints.checkpoint(args.preset, "bf16", args.cache)),
                            dtype=getattr(mx, args.dtype))
    chunks = [int(c) for c in args.chunks.split(",")]
    load = os.getloadavg()[0]
    rows = []
    for chars in (int(c) for c in args.chars.split(",")):
        embeds = tts.prompt(tts.request(joiner_text(chars), speaker="ryan")).embeds[:, :-1]
        mx.eval(embeds)
        whole = seconds(tts.loop.talker, embeds, None, args.repeats)
        rows.append((chars, embeds.shape[1], whole,
                     [seconds(tts.loop.talker, embeds, c, args.repeats) for c in chunks]))
    print(f"{args.preset} {args.dtype}, {mx.default_device()}, commit {report.commit()}, MLX {mx.__version__}, "
          f"load average {load:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    print("| prompt chars | positions | one pass (s) | "
          + " | ".join(f"chunks of {c} (s) | ratio" for c in chunks) + " |")
    print("|---:|---:|---:|" + "---:|---:|" * len(chunks))
    for chars, positions, whole, times in rows:
        print(f"| {chars:,} | {positions:,} | {whole:.2f} | "
              + " | ".join(f"{t:.2f} | {t / whole:.2f}x" for t in times) + " |")
    return [{"chars": chars, "positions": positions, "one_pass_s": whole, "chunks_s": dict(zip(chunks, times))}
            for chars, positions, whole, times in rows]


if __name__ == "__main__":
    main()
