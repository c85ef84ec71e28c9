"""Full fine-tuning's update (clipping + AdamW, compiled as `Trainer._update_fn` compiles it) over gradients in
the weights' row-major layout (what `RowGradientLinear` gives) against column-major ones (MLX's own gradient of
x @ W.T: the transpose of x.T @ dy), on --layers weights of the 0.6B talker's MLP shape (3072 x 1024). The two
layouts alternate round by round; the medians of the steps after the first are compared.

    PYTHONPATH=$PWD python -m benchmarks.adamw_layout --layers 40 --rounds 5
"""

import argparse
import functools
import statistics
import time

import mlx_qwen3tts  # noqa: F401  (first: it loads OpenBLAS before mlx.core is: mlx_qwen3tts/backend.py)
import mlx.core as mx  # noqa: E402
import mlx.optimizers as optim  # noqa: E402

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
    times = {name: [] for name in grads}
    for r in range(args.rounds):
        for name in (list(grads) if r % 2 == 0 else list(grads)[::-1]):
            times[name] += updates(weights, grads[name], args.steps)[1:]
    params = args.layers * SHAPE[0] * SHAPE[1] / 1e6
    base = statistics.median(times["column-major"])
    print(f"{params:.0f} M parameters, {args.rounds} rounds x {args.steps - 1} updates, {mx.default_device()}")
    for name, ts in times.items():
        print(f"{name:13} median {statistics.median(ts):6.3f} s  ({statistics.median(ts) / base:.2f}x)")


if __name__ == "__main__":
    main()
