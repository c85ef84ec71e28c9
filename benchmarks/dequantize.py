"""The CPU path's dequantize for QLoRA (finetune/train.py `_unpacked`) against `mx.dequantize`, on the 0.6B
talker's weight shapes: the sides alternate round by round and the medians are compared. `_unpacked` runs
eagerly and compiled (as in the training step, whose gradient function is compiled).

    PYTHONPATH=$PWD python -m benchmarks.dequantize --rounds 7
"""

import argparse
import statistics
import time

import mlx_qwen3tts  # noqa: F401  (first: it loads OpenBLAS before mlx.core is: mlx_qwen3tts/backend.py)
import mlx.core as mx  # noqa: E402

from mlx_qwen3tts.finetune.train import _unpacked  # noqa: E402

SHAPES = ((2048, 1024), (1024, 1024), (1024, 2048), (3072, 1024), (1024, 3072))  # q, k/v, o, gate/up, down


def timed(fn, weights) -> float:
    start = time.perf_counter()
    for w, s, b in weights:
        mx.eval(fn(w, s, b))
    return time.perf_counter() - start


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--group-size", type=int, default=64)
    ap.add_argument("--bits", type=int, default=4)
    args = ap.parse_args(argv)
    g, bits = args.group_size, args.bits
    weights = [mx.quantize(mx.random.normal(shape), g, bits) for shape in SHAPES]
    mx.eval(weights)
    sides = {"mx.dequantize": lambda w, s, b: mx.dequantize(w, s, b, g, bits),
             "_unpacked": lambda w, s, b: _unpacked(w, s, b, g, bits)}
    sides["_unpacked compiled"] = mx.compile(sides["_unpacked"])
    for w, s, b in weights:
        for name in sides:
            assert mx.array_equal(sides["mx.dequantize"](w, s, b), sides[name](w, s, b)).item()
    times = {name: [] for name in sides}
    for r in range(args.rounds):
        for name in (list(sides) if r % 2 == 0 else list(sides)[::-1]):  # alternate the order
            times[name].append(timed(sides[name], weights))
    base = statistics.median(times["mx.dequantize"])
    print(f"{sum(a * c for a, c in SHAPES) / 1e6:.1f} M weights a layer, {bits}-bit, group {g}, "
          f"{args.rounds} rounds, {mx.default_device()}")
    for name, ts in times.items():
        print(f"{name:19} median {statistics.median(ts) * 1e3:7.1f} ms  ({statistics.median(ts) / base:.2f}x)")


if __name__ == "__main__":
    main()
