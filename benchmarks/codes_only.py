"""Codes only, one stream, measured the three ways the project's figures were taken, in one process and
alternating (issue 59: 13.5 ms a frame on 2026-11-26 from `TTS.generate(decode=False)` differenced, against
34.3 ms from `TTS.frames` and 25.9 ms for the frame step on 2026-11-28 from 8-step medians):

- generate: `TTS.generate(decode=False)` for BASE + --frames frames minus BASE frames, over the extra frames
  (the prompt's prefill and the fixed costs cancel), as on 2026-11-26 and as mlx-audio's driver measures;
- frames: `TTS.frames`, the median gap between frames after the first (`benchmarks.measure.loop_pass`'s loop_ms,
  what `benchmarks.run` reports);
- frames-mean: the same run's mean gap (loop_pass's loop_mean_ms: a median hides a slow frame every few).

Then mlx-audio's loop on the same checkpoint and the same window (`--peer`, its driver's loop only), as
`benchmarks.run` runs it.

    PYTHONPATH=$PWD python -m benchmarks.codes_only --preset 0.6B --quant bf16,4bit --frames 48 --peer
    PYTHONPATH=$PWD python -m benchmarks.codes_only --preset tiny --frames 8 --rounds 2     # smoke run
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

BASE = 8
TEXT = "The quick brown fox jumps over the lazy dog, then it runs across the quiet field toward the river."


def _generate_s(tts, frames: int) -> float:
    tic = time.perf_counter()
    result = tts.generate(TEXT, decode=False, speaker="ryan", language="english", max_tokens=frames, seed=0)
    seconds = time.perf_counter() - tic
    if result.codes.shape[0] != frames:
        raise SystemExit(f"generate made {result.codes.shape[0]} frames, not {frames}: cannot difference")
    return seconds


def _frames_pass(tts, frames: int) -> dict:
    from benchmarks.measure import loop_pass

    return loop_pass(tts, TEXT, frames, speaker="ryan", language="english", seed=0)


def measure(folder: Path, frames: int, rounds: int) -> dict:
    import mlx_qwen3tts
    import mlx.core as mx

    tts = mlx_qwen3tts.load(str(folder))
    _generate_s(tts, BASE)  # warm-up: every graph of the loop once
    _frames_pass(tts, BASE)
    generate, median, mean = [], [], []
    for _ in range(rounds):  # alternate the ways, so a drift of the machine falls on both
        generate.append((_generate_s(tts, BASE + frames) - _generate_s(tts, BASE)) / frames * 1e3)
        timed = _frames_pass(tts, BASE + frames)
        median.append(timed["loop_ms"])
        mean.append(timed["loop_mean_ms"])
    del tts
    mx.clear_cache()
    return {"generate_ms": statistics.median(generate), "frames_median_ms": statistics.median(median),
            "frames_mean_ms": statistics.median(mean), "runs": {"generate": generate, "median": median, "mean": mean}}


def main(argv=None):
    import mlx_qwen3tts  # noqa: F401  (first: OpenBLAS before mlx.core)
    import mlx.core as mx

    from benchmarks import checkpoints, peers, report

    ap = argparse.ArgumentParser(prog="python -m benchmarks.codes_only", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="0.6B", choices=("tiny", "narrow", "0.6B", "1.7B"))
    ap.add_argument("--quant", default="bf16", help="comma list of bf16, 8bit, 4bit")
    ap.add_argument("--frames", type=int, default=48, help="frames differenced (beyond the first BASE)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--peer", action="store_true", help="mlx-audio's loop on the same checkpoint and window")
    ap.add_argument("--peer-repeats", type=int, default=2)
    ap.add_argument("--cache", type=Path, default=checkpoints.DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, help="also write the JSON here")
    args = ap.parse_args(argv)
    result = {"preset": args.preset, "frames": args.frames, "base": BASE, "commit": report.commit(),
              "mlx": mx.__version__, "device": str(mx.default_device()), "quants": {}}
    for quant in args.quant.split(","):
        folder = checkpoints.checkpoint(args.preset, quant, args.cache, log=lambda m: None)
        ours = measure(folder, args.frames, args.rounds)
        if args.peer:
            python = peers.mlx_audio_python(None) or sys.executable
            ours["mlx_audio"] = peers.run_mlx_audio(python, folder, args.frames, TEXT, args.peer_repeats,
                                                    loop_only=True)
        result["quants"][quant] = ours
        peer = ours.get("mlx_audio", {}).get("loop_ms")
        print(f"{args.preset} {quant}: generate {ours['generate_ms']:.1f} ms/frame, frames median "
              f"{ours['frames_median_ms']:.1f}, mean {ours['frames_mean_ms']:.1f}"
              + (f"; mlx-audio {peer:.1f}" if peer else ""), file=sys.stderr, flush=True)
        if args.out:  # a stopped run keeps what it measured
            args.out.write_text(json.dumps(result, indent=1))
    if not args.out:
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
