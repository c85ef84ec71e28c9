"""Mixed-pass probe: what a prompt piece saves by riding in the frame step's talker forward pass.

vLLM's mixed batch runs a prompt piece's positions through the same forward pass as the decode
step's rows: one read of every weight for both. This probe times, for a few piece sizes and offsets,
the talker's frame-step forward (4 rows of one position each, on their `RowKVCache`s) alone, then
it and a piece as two passes, then both as one mixed pass (the positions side by side through every
projection and MLP matmul, attention per group). The package does not mix passes (see README,
"A request joining running streams"): this is the measurement behind that.

    PYTHONPATH=$PWD python -m benchmarks.mixed_pass --preset 0.6B
"""

import argparse
import time
from pathlib import Path

import mlx_qwen3tts  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

import mlx.core as mx  # noqa: E402

from benchmarks import checkpoints  # noqa: E402
from benchmarks.checkpoints import DEFAULT_CACHE  # noqa: E402


def attend(attn, q, k, v, mask, cache):
    """One group's attention, from its rows of the shared projections: (1, B * L, heads * dim)."""
    B, L, _ = q.shape
    q, k, v = (t.reshape(B, L, n, -1) for t, n in ((q, attn.n_heads), (k, attn.n_kv_heads), (v, attn.n_kv_heads)))
    q, k = attn.q_norm(q), attn.k_norm(k)
    q, k, v = (t.transpose(0, 2, 1, 3) for t in (q, k, v))
    q, k = attn.rope(q, offset=cache.offset), attn.rope(k, offset=cache.offset)
    k, v = cache.update_and_fetch(k, v)
    out = mx.fast.scaled_dot_product_attention(q, k, v, scale=attn.scale, mask=mask)
    return out.transpose(0, 2, 1, 3).reshape(1, B * L, -1)


def mixed(model, groups):
    """groups [(x (B, L, H), caches)] through the talker's stack in one pass."""
    from mlx_qwen3tts.model.cache import attention_mask

    masks = [attention_mask(x.shape[1], c[0]) for x, c in groups]
    shapes = [x.shape[:2] for x, _ in groups]
    x = mx.concatenate([x.reshape(1, -1, x.shape[-1]) for x, _ in groups], axis=1)
    for i, layer in enumerate(model.layers):
        attn, h = layer.self_attn, layer.input_layernorm(x)
        q, k, v = attn.q_proj(h), attn.k_proj(h), attn.v_proj(h)
        outs, start = [], 0
        for (B, L), mask, (_, caches) in zip(shapes, masks, groups):
            rows = slice(start, start + B * L)
            outs.append(attend(attn, *(t[:, rows].reshape(B, L, -1) for t in (q, k, v)), mask, caches[i]))
            start += B * L
        x = x + attn.o_proj(mx.concatenate(outs, axis=1))
        x = x + layer.mlp(layer.post_attention_layernorm(x))
    return model.norm(x)


def timed(tts, size: int, offset: int, how: str, rows: int = 4) -> float:
    """Seconds of one pass: "step" (the rows alone), "separate" (step, then the piece), "mixed"."""
    from mlx_qwen3tts.model.cache import RowKVCache

    talker, model = tts.loop.talker, tts.loop.talker.model
    attn, hidden = model.layers[0].self_attn, model.norm.weight.shape[0]
    capacity = 256 * (1 + (offset + size) // 256)
    kv = [mx.zeros((rows, attn.n_kv_heads, capacity, attn.head_dim)) + 0 for _ in range(2 * len(model.layers))]
    steps = [RowKVCache(k, v, mx.full((rows,), 100, mx.int32)) for k, v in zip(kv[::2], kv[1::2])]
    piece = talker.make_cache()
    if offset:
        model(mx.random.normal((1, offset, hidden)), piece)
    x, e = mx.random.normal((rows, 1, hidden)), mx.random.normal((1, size, hidden))
    mx.eval(x, e, kv, [(c.keys, c.values) for c in piece if c.keys is not None])
    del kv  # the step's caches are the only references: their updates may reuse the buffers, as in the loop
    tic = time.perf_counter()
    if how == "mixed":
        mx.eval(mixed(model, [(x, steps), (e, piece)]), [c.keys for c in steps])
    else:
        mx.eval(model(x, steps), [c.keys for c in steps])
        if how == "separate":
            mx.eval(model(e, piece))
    return time.perf_counter() - tic


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mixed_pass", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="0.6B", choices=checkpoints.PRESETS)
    ap.add_argument("--sizes", default="32,96,160", help="piece sizes (positions)")
    ap.add_argument("--offsets", default="0,800", help="positions of the prompt before the piece")
    ap.add_argument("--repeats", type=int, default=3, help="the best of this many of each")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = ap.parse_args(argv)
    tts = mlx_qwen3tts.load(str(checkpoints.checkpoint(args.preset, "bf16", args.cache)), dtype=mx.float32)
    print("| piece | offset | step alone (s) | step + piece, two passes (s) | one mixed pass (s) | saved (s) |")
    print("|---:|---:|---:|---:|---:|---:|")
    rows = []
    for size in map(int, args.sizes.split(",")):
        for offset in map(int, args.offsets.split(",")):
            best = {how: min(timed(tts, size, offset, how) for _ in range(args.repeats))
                    for how in ("step", "separate", "mixed")}
            rows.append({"size": size, "offset": offset, **best})
            print(f"| {size} | {offset} | {best['step']:.3f} | {best['separate']:.3f} | {best['mixed']:.3f} "
                  f"| {best['separate'] - best['mixed']:.3f} |", flush=True)
    return rows


if __name__ == "__main__":
    main()
