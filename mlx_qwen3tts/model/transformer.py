"""The one transformer block shared by the talker, the code predictor and the codec decoder.

Qwen3-style pre-norm block: GQA attention with optional per-head q/k RMSNorm (talker, code
predictor), rotate-half RoPE, optional causal sliding window (codec decoder: 72 frames) and
optional LayerScale on both residual branches (codec decoder); SwiGLU MLP. Parameter names
follow the checkpoints (`self_attn.q_proj`, `mlp.gate_proj`, `self_attn_layer_scale.scale`, ...).
Caches are objects made by the caller (mlx-lm's, or ours in `cache.py`). `fuse()` (at load) gives q/k/v
and gate/up one matmul each (`FusedLinear`); the checkpoint-named layers stay, as views of the fused
weights. A layer runs in three stages (`attention_in`, `Attention.attend`, `attention_out`) so the decode
loop can compile the two whose shapes do not follow the KV capacity.
"""

import copy
from dataclasses import dataclass, fields

import mlx.core as mx
import mlx.nn as nn
import numpy as np

from ..backend import cpu_paths
from .cache import attention_mask


@dataclass
class BlockArgs:
    hidden_size: int
    intermediate_size: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int
    rope_theta: float
    rms_norm_eps: float
    qk_norm: bool = True
    attention_bias: bool = False
    layer_scale: bool = False

    @classmethod
    def of(cls, config, **overrides) -> "BlockArgs":
        """The block settings read from a talker, code predictor or codec config (same field names)."""
        found = {f.name: getattr(config, f.name) for f in fields(cls) if hasattr(config, f.name)}
        return cls(**{**found, **overrides})


class LayerScale(nn.Module):
    def __init__(self, dims: int):
        super().__init__()
        self.scale = mx.ones((dims,))

    def __call__(self, x):
        return self.scale * x


class FusedLinear:
    """One matmul for linear layers of the same input: their weights (and scales, biases) stacked along the
    output rows. Group quantization runs along the input dimension, so stacking the rows of quantized layers
    is exact. Made once (`of`); the layers then hold row views of the stacked arrays (no second copy) and
    keep their checkpoint names. Not a child module: parameters, saving and converting see the layers only.
    Of one layer it stacks nothing and only keeps the dense weight's transpose ready (below).
    """

    KEYS = ("weight", "scales", "biases", "bias")

    def __init__(self, layers):
        if len(layers) == 1:
            self.layer, self.splits = layers[0], []
        else:
            self.layer = copy.copy(layers[0])  # same kind and settings (group size, bits, mode)
            for key in (k for k in self.KEYS if k in layers[0]):
                self.layer[key] = mx.concatenate([layer[key] for layer in layers], axis=0)
            mx.eval(self.layer.parameters())
            rows = [layer["weight"].shape[0] for layer in layers]
            self.splits = [sum(rows[:i + 1]) for i in range(len(rows) - 1)]
            for layer, start, n in zip(layers, [0] + self.splits, rows):
                for key in (k for k in self.KEYS if k in layer):
                    layer[key] = self.layer[key][start:start + n]
                mx.eval(layer.parameters())
        self.sources = [layer["weight"] for layer in layers]
        # A dense weight's transpose, evaluated once: a strided view (no copy) that the matmul reads as it
        # is, where `x @ weight.T` adds a transpose to every call's graph.
        self.weight_t = None if "scales" in self.layer else self.layer["weight"].T
        mx.eval(self.weight_t)

    @classmethod
    def of(cls, layers):
        """The fused layer, or None where the layers differ in kind, settings or keys (then they run apart)."""
        first = layers[0]
        settings = lambda m: (type(m), getattr(m, "group_size", None), getattr(m, "bits", None),  # noqa: E731
                              getattr(m, "mode", None), sorted(k for k in m if k in cls.KEYS),
                              m["weight"].shape[1:], m["weight"].dtype)
        if type(first) not in (nn.Linear, nn.QuantizedLinear) or any(settings(m) != settings(first) for m in layers):
            return None
        return cls(layers)

    def serves(self, layers) -> bool:
        """Whether `layers` still hold the views it made (a layer replaced or reloaded since runs apart)."""
        return all(layer.get("weight") is w for layer, w in zip(layers, self.sources))

    def __call__(self, x, merge: int = 1) -> list:
        """The layers' outputs of x (N, in): a list, one (N, out) per layer (the first `merge` as one)."""
        if self.weight_t is None:
            y = self.layer(x)
        elif "bias" in self.layer:
            y = mx.addmm(self.layer["bias"], x, self.weight_t)
        else:
            y = x @ self.weight_t
        splits = self.splits[merge - 1:]
        return mx.split(y, splits, axis=-1) if splits else [y]


def apply(fused, layers, x, merge: int = 1) -> list:
    """The outputs of `layers` on x (the first `merge` as one): through their FusedLinear while it still
    serves them, else one by one."""
    if fused is not None and fused.serves(layers):
        return fused(x, merge)
    out = [layer(x) for layer in layers]
    return [mx.concatenate(out[:merge], axis=-1)] + out[merge:] if merge > 1 else out


class Attention(nn.Module):
    qkv = out = None  # FusedLinear of q_proj, k_proj, v_proj and of o_proj, from fuse()

    def __init__(self, args: BlockArgs):
        super().__init__()
        h, d = args.hidden_size, args.head_dim
        self.n_heads, self.n_kv_heads, self.head_dim = args.num_attention_heads, args.num_key_value_heads, d
        self.scale = d**-0.5
        bias = args.attention_bias
        self.q_proj = nn.Linear(h, self.n_heads * d, bias=bias)
        self.k_proj = nn.Linear(h, self.n_kv_heads * d, bias=bias)
        self.v_proj = nn.Linear(h, self.n_kv_heads * d, bias=bias)
        self.o_proj = nn.Linear(self.n_heads * d, h, bias=bias)
        if args.qk_norm:
            self.q_norm = nn.RMSNorm(d, eps=args.rms_norm_eps)
            self.k_norm = nn.RMSNorm(d, eps=args.rms_norm_eps)
        self.rope = nn.RoPE(d, base=args.rope_theta)

    def fuse(self):
        self.qkv = FusedLinear.of([self.q_proj, self.k_proj, self.v_proj])
        self.out = FusedLinear.of([self.o_proj])
        if "q_norm" in self:
            norms = self.qk_norm_weight()
            mx.eval(norms)
            object.__setattr__(self, "norms", (self.q_norm.weight, self.k_norm.weight, norms))  # not a parameter

    def qk_norm_weight(self):
        """q_norm's and k_norm's weights as one (nH + nKV, 1, D) array: made once (`fuse`), again where
        either has been replaced since."""
        wq, wk, made = getattr(self, "norms", (None, None, None))
        if wq is self.q_norm.weight and wk is self.k_norm.weight:
            return made
        D = self.head_dim
        return mx.concatenate([mx.broadcast_to(self.q_norm.weight, (self.n_heads, 1, D)),
                               mx.broadcast_to(self.k_norm.weight, (self.n_kv_heads, 1, D))])

    def project(self, x, rows: int, offset):
        """q, k, v (B, heads, L, D) of x (B * L, hidden), `rows` = B, at positions from `offset` (or with the
        angles of `angles`: see `project_together`)."""
        if isinstance(offset, tuple) and self.together(x.dtype):
            return self.project_together(x, rows, offset)
        q, k, v = apply(self.qkv, [self.q_proj, self.k_proj, self.v_proj], x)
        heads = (self.n_heads, self.n_kv_heads, self.n_kv_heads)
        if x.shape[0] == rows:  # one position: (B, nH * D) is (B, nH, 1, D) as it lies, no transpose
            q, k, v = (t.reshape(rows, n, 1, self.head_dim) for t, n in zip((q, k, v), heads))
        else:
            q, k, v = (t.reshape(rows, -1, n, self.head_dim).transpose(0, 2, 1, 3)  # (B, nH, L, D)
                       for t, n in zip((q, k, v), heads))
        if "q_norm" in self:  # over D, wherever L lies
            q, k = self.q_norm(q), self.k_norm(k)
        if isinstance(offset, tuple):  # the angles of `angles`
            return rotate(q, *offset), rotate(k, *offset), v
        return self.rope(q, offset=offset), self.rope(k, offset=offset), v

    def together(self, dtype) -> bool:
        """Whether q and k of activations of `dtype` can be normed as one array (their norm weights have
        that dtype, so the norm's output dtype is the same)."""
        return "q_norm" not in self or self.q_norm.weight.dtype == self.k_norm.weight.dtype == dtype

    def project_together(self, x, rows: int, angles):
        """`project` where MLX has no norm or RoPE kernels (the CPU), with the angles of `angles`: q and k
        normed and rotated as one (B, nH + nKV, L, D) array, a third of the nodes of the two apart. The same
        values to the bit: the norm is per head, and MLX's norm multiplies by its weight last."""
        qk, v = apply(self.qkv, [self.q_proj, self.k_proj, self.v_proj], x, merge=2)
        heads, D = self.n_heads + self.n_kv_heads, self.head_dim
        if x.shape[0] == rows:  # one position: as it lies, no transpose
            qk, v = qk.reshape(rows, heads, 1, D), v.reshape(rows, self.n_kv_heads, 1, D)
        else:
            qk = qk.reshape(rows, -1, heads, D).transpose(0, 2, 1, 3)  # (B, nH + nKV, L, D)
            v = v.reshape(rows, -1, self.n_kv_heads, D).transpose(0, 2, 1, 3)
        if "q_norm" in self:
            qk = mx.fast.rms_norm(qk, None, self.q_norm.eps) * self.qk_norm_weight()
        q, k = mx.split(rotate(qk, *angles), [self.n_heads], axis=1)
        return q, k, v

    def angles(self, rows: int, length: int, offset):
        """(cos, sin), each (B or 1, 1, L, D) (both halves the same), of `length` positions from `offset`,
        exactly as `self.rope` uses them: its output for a probe of ones then zeros. Where MLX has no RoPE
        kernel (the CPU) each call of it builds its angles again (a dozen nodes); a stack computes them
        once for all its layers (`rotate`)."""
        half, batch = self.head_dim // 2, rows if isinstance(offset, mx.array) and offset.size > 1 else 1
        probe = mx.concatenate([mx.ones((batch, 1, length, half)), mx.zeros((batch, 1, length, half))], axis=-1)
        out = self.rope(probe, offset=offset)  # float32, as MLX computes them before casting to q's dtype
        cos, sin = out[..., :half], out[..., half:]
        return mx.concatenate([cos, cos], axis=-1), mx.concatenate([sin, sin], axis=-1)

    def attend(self, q, k, v, mask=None, cache=None):
        """(B, nH, L, D) attention of the projected q, k, v, after writing k, v into the cache."""
        if cache is not None:
            k, v = cache.update_and_fetch(k, v)
        if q.shape[2] == 1 and cpu_paths():
            return one_query_attention(q, k, v, self.scale, mask)
        return mx.fast.scaled_dot_product_attention(q, k, v, scale=self.scale, mask=mask)

    def output(self, out):
        """(B * L, hidden) of the attention output (B, nH, L, D)."""
        B, _, L, _ = out.shape
        if L > 1:
            out = out.transpose(0, 2, 1, 3)  # (B, L, nH, D)
        return apply(self.out, [self.o_proj], out.reshape(B * L, -1))[0]

    def __call__(self, x, mask=None, cache=None):
        B, L, _ = x.shape
        q, k, v = self.project(x.reshape(B * L, -1), B, cache.offset if cache is not None else 0)
        return self.output(self.attend(q, k, v, mask, cache)).reshape(B, L, -1)


def one_query_attention(q, k, v, scale: float, mask=None):
    """`mx.fast.scaled_dot_product_attention` of one query position (q (B, nH, 1, D)) where MLX has no kernel
    (the CPU): its own formula (mlx/fast.cpp), with the query heads of each KV head as the rows of one
    product, where it broadcasts the KV heads: the same values to the bit in half the nodes."""
    B, heads, _, D = q.shape
    kv = k.shape[1]
    q = (q * mx.array(scale, q.dtype)).reshape(B, kv, heads // kv, D)
    scores = q @ k.swapaxes(-1, -2)  # (B, nKV, nH / nKV, S)
    if isinstance(mask, mx.array):  # "causal" lets one query see every position
        if mask.ndim == 4 and mask.shape[1] > 1:  # per head: (B, nH, 1, S) as the scores lie
            mask = mask.reshape(mask.shape[0], kv, heads // kv, -1)
        if mask.dtype == mx.bool_:
            scores = mx.where(mask, scores, mx.array(mx.finfo(scores.dtype).min, scores.dtype))
        else:
            scores = scores + mask.astype(scores.dtype)
    return (mx.softmax(scores, axis=-1, precise=True) @ v).reshape(B, heads, 1, D)


def rotate(x, cos, sin):
    """Rotate-half RoPE of x (B, heads, L, D) with the angles of `Attention.angles`: MLX's own formula
    where it has no kernel (mlx/fast.cpp: x1 cos - x2 sin, x2 cos + x1 sin), so the same values as
    `nn.RoPE`. The half swap (-x2, x1) is a matmul with a signed permutation (exact: one term per sum):
    one node where slicing and joining the halves takes four."""
    swapped = (x @ _half_swap(x.shape[-1])).astype(x.dtype)
    return x * cos.astype(x.dtype) + swapped * sin.astype(x.dtype)


_SWAPS = {}


def _half_swap(dims: int):
    """(D, D) float32: x @ it = concatenate([-x2, x1]) for the halves x1, x2 of x's last axis."""
    if dims not in _SWAPS:
        half, swap = dims // 2, np.zeros((dims, dims), np.float32)
        swap[np.arange(half) + half, np.arange(half)] = -1.0
        swap[np.arange(half), np.arange(half) + half] = 1.0
        _SWAPS[dims] = mx.array(swap)  # data, not a node: safe to keep from inside a compiled trace
    return _SWAPS[dims]


class MLP(nn.Module):
    gate_up = down = None  # FusedLinear of gate_proj, up_proj and of down_proj, from fuse()

    def __init__(self, dims: int, hidden: int):
        super().__init__()
        self.gate_proj = nn.Linear(dims, hidden, bias=False)
        self.up_proj = nn.Linear(dims, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dims, bias=False)

    def fuse(self):
        self.gate_up = FusedLinear.of([self.gate_proj, self.up_proj])
        self.down = FusedLinear.of([self.down_proj])

    def __call__(self, x):
        gate, up = apply(self.gate_up, [self.gate_proj, self.up_proj], x)
        return apply(self.down, [self.down_proj], nn.silu(gate) * up)[0]


class TransformerBlock(nn.Module):
    def __init__(self, args: BlockArgs):
        super().__init__()
        self.self_attn = Attention(args)
        self.mlp = MLP(args.hidden_size, args.intermediate_size)
        self.input_layernorm = nn.RMSNorm(args.hidden_size, eps=args.rms_norm_eps)
        self.post_attention_layernorm = nn.RMSNorm(args.hidden_size, eps=args.rms_norm_eps)
        if args.layer_scale:
            self.self_attn_layer_scale = LayerScale(args.hidden_size)
            self.mlp_layer_scale = LayerScale(args.hidden_size)

    def fuse(self):
        """One matmul for q/k/v and one for gate/up from now on (see `FusedLinear`); once, after loading."""
        self.self_attn.fuse()
        self.mlp.fuse()

    # A layer in three stages, so that a caller may compile the two around the cache (whose shapes grow):
    # attention_in, the attention itself (Attention.attend), attention_out. The residual stream between
    # them is (B * L, hidden): the matmuls take it as it is, with no reshape of their own.
    def attention_in(self, x, rows: int, offset):
        """q, k, v (B, heads, L, D) of the residual stream x (B * L, hidden), `rows` = B."""
        return self.self_attn.project(self.input_layernorm(x), rows, offset)

    def attention_out(self, x, out):
        """The residual stream (B * L, hidden) after this layer, from x and the attention output `out`."""
        h = self.self_attn.output(out)
        if "self_attn_layer_scale" in self:
            h = self.self_attn_layer_scale(h)
        x = x + h
        h = self.mlp(self.post_attention_layernorm(x))
        if "mlp_layer_scale" in self:
            h = self.mlp_layer_scale(h)
        return x + h

    def __call__(self, x, mask=None, cache=None):
        B, L, H = x.shape
        x = x.reshape(B * L, H)
        q, k, v = self.attention_in(x, B, cache.offset if cache is not None else 0)
        return self.attention_out(x, self.self_attn.attend(q, k, v, mask, cache)).reshape(B, L, H)


class Decoder(nn.Module):
    """Blocks of one config, then the final RMSNorm: the stack of the talker and the code predictor."""

    def __init__(self, cfg):
        super().__init__()
        self.layers = [TransformerBlock(BlockArgs.of(cfg)) for _ in range(cfg.num_hidden_layers)]
        self.norm = nn.RMSNorm(cfg.hidden_size, eps=cfg.rms_norm_eps)

    def fuse(self):
        for layer in self.layers:
            layer.fuse()

    def __call__(self, x, cache, stages=None, angles=None):
        """x (B, L, hidden) after the caches' positions; `stages`: per layer, see TransformerBlock; `angles`:
        those of these positions (`Attention.angles`) where the caller holds them."""
        B, L, H = x.shape
        mask = attention_mask(L, cache[0])
        offset = cache[0].offset if cache[0] is not None else 0  # every layer's cache holds as many positions
        if cpu_paths():  # the RoPE angles once for all layers (see Attention.angles)
            offset = angles or self.layers[0].self_attn.angles(B, L, offset)
        x = x.reshape(B * L, H)
        for i, (layer, c) in enumerate(zip(self.layers, cache)):
            enter, leave = stages[i] if stages else (layer.attention_in, layer.attention_out)
            q, k, v = enter(x, B, offset)
            x = leave(x, layer.self_attn.attend(q, k, v, mask, c))
        return self.norm(x).reshape(B, L, H)
