"""The code predictor's attention in a training step on the CPU: frames apart or grouped, and its share.

In the training forward (finetune/objective.py `logits`) every frame is a sequence of 16 positions of its own, so
on MLX's CPU backend each frame's attention is a few tiny BLAS calls. One idea is to run G frames as one sequence
of G x 16 positions with a block-diagonal causal mask: G times fewer calls of G times the work. Two measures, on
the --preset's code predictor shapes (random values, float32, --frames frames), each a compiled forward +
backward, the variants alternating in rotated order round by round, medians:
- attention: `mx.fast.scaled_dot_product_attention` of one layer's q, k, v, each frame apart (group 1) and
  grouped by each of --groups;
- stack: the code predictor's 5 layers as training runs them, and the same with the attention replaced by
  its query (no attention at all): what the attention costs of the whole.

    PYTHONPATH=$PWD python -m benchmarks.predictor_attention --preset 0.6B --groups 1,2,4,8 --rounds 7
"""

import argparse
import statistics
import time

import mlx_qwen3tts  # noqa: F401  (first: it loads OpenBLAS before mlx.core on Linux)
import mlx.core as mx  # noqa: E402
import mlx.nn as nn  # noqa: E402

from mlx_qwen3tts.model.code_predictor import CodePredictorModel  # noqa: E402
from mlx_qwen3tts.model.config import ModelConfig  # noqa: E402

from benchmarks import checkpoints  # noqa: E402


def attention(cfg, frames: int, group: int):
    """A compiled forward + backward of one layer's attention over `frames` frames grouped by `group`, and
    its inputs."""
    L, D = cfg.num_code_groups, cfg.head_dim
    n = frames // group * group
    q, k, v = (mx.random.normal((n, h, L, D)) for h in (cfg.num_attention_heads, *[cfg.num_key_value_heads] * 2))
    at = mx.arange(group * L)
    mask = (at[:, None] // L == at[None] // L) & (at[:, None] >= at[None]) if group > 1 else "causal"

    def grouped(t):  # (n, heads, L, D) -> (n / G, heads, G * L, D)
        return t.reshape(n // group, group, -1, L, D).transpose(0, 2, 1, 3, 4).reshape(n // group, -1, group * L, D)

    def loss(q, k, v):
        return mx.fast.scaled_dot_product_attention(grouped(q), grouped(k), grouped(v), scale=D**-0.5,
                                                    mask=mask).square().sum()

    return mx.compile(mx.value_and_grad(loss, argnums=(0, 1, 2))), (q, k, v)


def stack(cfg, frames: int, with_attention: bool):
    """A compiled forward + backward of the code predictor's layers over `frames` frames (training's call), with
    the attention or with each layer's attention replaced by its query; and its input."""
    model = CodePredictorModel(cfg, cfg.hidden_size)
    mx.eval(model.parameters())
    if not with_attention:
        for layer in model.layers:
            layer.self_attn.attend = lambda q, k, v, mask=None, cache=None: q
    layers = [None] * len(model.layers)
    state = [model.state]
    fn = nn.value_and_grad(model, lambda x: model(x, layers).square().mean())
    return mx.compile(fn, inputs=state, outputs=state), (mx.random.normal((frames, cfg.num_code_groups,
                                                                           cfg.hidden_size)),)


def alternate(runs: dict, rounds: int) -> dict:
    """{name: median seconds} of the runs {name: (fn, args)}, once each to compile, then in rotated order."""
    names = list(runs)
    for fn, args in runs.values():
        mx.eval(fn(*args))
    times = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            fn, args = runs[name]
            start = time.perf_counter()
            mx.eval(fn(*args))
            times[name].append(time.perf_counter() - start)
    for name in names:
        print(f"  {name:22} {statistics.median(times[name]):7.3f} s (median)  rounds "
              + ", ".join(f"{t:.2f}" for t in times[name]), flush=True)
    return {name: statistics.median(t) for name, t in times.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="0.6B", choices=checkpoints.PRESETS)
    ap.add_argument("--frames", type=int, default=208, help="frames a batch (2 clips of 100, padded to 16s)")
    ap.add_argument("--groups", default="1,2,4,8", help="frames a sequence in the attention measure")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--measures", default="attention,stack")
    args = ap.parse_args(argv)
    cfg = ModelConfig.from_json_dict(checkpoints.model_config(args.preset)).talker_config.code_predictor_config
    mx.random.seed(0)
    print(f"{args.preset} code predictor: {args.frames} frames x {cfg.num_code_groups} positions, "
          f"{cfg.num_attention_heads} heads ({cfg.num_key_value_heads} KV) of {cfg.head_dim}, forward + backward, "
          f"{mx.default_device()}")
    measures = args.measures.split(",")
    if "attention" in measures:
        print("one layer's attention:")
        alternate({f"group {g}": attention(cfg, args.frames, int(g)) for g in args.groups.split(",")}, args.rounds)
    if "stack" in measures:
        print(f"the {cfg.num_hidden_layers} layers:")
        alternate({"with attention": stack(cfg, args.frames, True),
                   "attention removed": stack(cfg, args.frames, False)}, args.rounds)


if __name__ == "__main__":
    main()
