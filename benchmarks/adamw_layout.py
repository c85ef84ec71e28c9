"""Full fine-tuning's update (clipping + AdamW, compiled as `Trainer._update_fn` compiles it) over gradients in
the weights' row-major layout (what `RowGradientLinear` gives) against column-major ones (MLX's own gradient of
x @ W.T: the transpose of x.T @ dy), each with MLX's default buffer cache and with the cache training keeps
(`buffers_kept`), on --layers weights of the 0.6B talker's MLP shape (3072 x 1024). The four sides alternate
round by round (in rotated order); the medians of the updates after each round's first are compared.

    PYTHONPATH=$PWD python -m benchmarks.adamw_layout --layers 20 --rounds 8
"""

import argparse
import functools
import contextlib
import statistics
import sys
import time

import mlx_qwen3tts  # noqa: F401  (first: it loads OpenBLAS before mlx.core is: mlx_qwen3tts/backend.py)
import mlx.core as mx  # noqa: E402
import mlx.optimizers as optim  # noqa: E402

from mlx_qwen3tts.finetune import train  # noqa: E402  (the package's `train` is the function)

training = sys.modules["mlx_qwen3tts.finetune.train"]

SHAPE = (3072, 1024)


def updates(weights: dict, grads: dict, steps: int) -> list:
    """Seconds of each of `steps` compiled clip + AdamW updates of `weights` by `grads`."""
    optimizer = optim.AdamW(1e-5, weight_decay=0.01, bias_correction=True)
    holder = {"p": dict(weights)}
    optimizer.init(holder["p"])
    state = [holder, optimizer.state]

    @functools.partial(mx.compile, inputs=state, outputs=state)
    def update(g):
        g, _ = optim.clip_grad_norm(g, 1.0)
        holder["p"] = optimizer.apply_gradients(g, holder["p"])

    times = []
    for _ in range(steps):
        start = time.perf_counter()
        update(grads)
        mx.eval(holder, optimizer.state)
        times.append(time.perf_counter() - start)
    return times


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=4, help="updates a round (the first is not counted)")
    args = ap.parse_args(argv)
    weights = {f"w{i}": mx.random.normal(SHAPE) for i in range(args.layers)}
    grads = {"row-major": {k: mx.random.normal(SHAPE) * 1e-3 for k in weights},
             "column-major": {k: mx.random.normal(SHAPE[::-1]).T * 1e-3 for k in weights}}
    mx.eval(weights, grads)
    caches = {"MLX's cache": contextlib.nullcontext, "buffers kept": training.buffers_kept}
    sides = [(layout, cache) for layout in grads for cache in caches]
    times = {side: [] for side in sides}
    for r in range(args.rounds):
        for layout, cache in sides[r % len(sides):] + sides[:r % len(sides)]:
            with caches[cache]():
                times[layout, cache] += updates(weights, grads[layout], args.steps)[1:]
    params = args.layers * SHAPE[0] * SHAPE[1] / 1e6
    base = statistics.median(times["column-major", "MLX's cache"])
    print(f"{params:.0f} M parameters, {args.rounds} rounds x {args.steps - 1} updates, {mx.default_device()}")
    for (layout, cache), ts in times.items():
        name = f"{layout}, {cache}"
        print(f"{name:27} median {statistics.median(ts):6.3f} s  ({statistics.median(ts) / base:.2f}x)")


if __name__ == "__main__":
    main()
