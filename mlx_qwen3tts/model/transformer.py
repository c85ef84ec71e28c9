"""The one transformer block shared by the talker, the code predictor and the codec decoder.

Qwen3-style pre-norm block: GQA attention with optional per-head q/k RMSNorm (talker, code
predictor), rotate-half RoPE, optional causal sliding window (codec decoder: 72 frames) and
optional LayerScale on both residual branches (codec decoder); SwiGLU MLP. Parameter names
follow the checkpoints (`self_attn.q_proj`, `mlp.gate_proj`, `self_attn_layer_scale.scale`, ...).
Caches are mlx-lm cache objects made by the caller. `fuse()` (at load) gives q/k/v and gate/up one
matmul each (`FusedLinear`); the checkpoint-named layers stay, as views of the fused weights.
"""

import copy
from dataclasses import dataclass, fields
from typing import Any, Optional

import mlx.core as mx
import mlx.nn as nn
from mlx_lm.models.cache import create_causal_mask


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
    """

    KEYS = ("weight", "scales", "biases", "bias")

    def __init__(self, layers):
        self.layer = copy.copy(layers[0])  # same kind and settings (group size, bits, mode)
        for key in (k for k in self.KEYS if k in layers[0]):
            self.layer[key] = mx.concatenate([layer[key] for layer in layers], axis=0)
        mx.eval(self.layer.parameters())
        rows = [layer["weight"].shape[0] for layer in layers]
        self.splits = [sum(rows[:i + 1]) for i in range(len(rows) - 1)]
        starts = [0] + self.splits
        for layer, start, n in zip(layers, starts, rows):
            for key in (k for k in self.KEYS if k in layer):
                layer[key] = self.layer[key][start:start + n]
            mx.eval(layer.parameters())
        self.sources = [layer["weight"] for layer in layers]

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

    def __call__(self, x):
        return mx.split(self.layer(x), self.splits, axis=-1)


class Attention(nn.Module):
    qkv = None  # FusedLinear of q_proj, k_proj, v_proj, from fuse()

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

    def __call__(self, x, mask=None, cache=None):
        B, L, _ = x.shape
        layers = [self.q_proj, self.k_proj, self.v_proj]
        q, k, v = self.qkv(x) if self.qkv and self.qkv.serves(layers) else (layer(x) for layer in layers)
        q = q.reshape(B, L, self.n_heads, -1)  # (B, L, nH, D)
        k = k.reshape(B, L, self.n_kv_heads, -1)
        v = v.reshape(B, L, self.n_kv_heads, -1)
        if "q_norm" in self:
            q, k = self.q_norm(q), self.k_norm(k)
        q, k, v = (t.transpose(0, 2, 1, 3) for t in (q, k, v))  # (B, nH, L, D)
        offset = cache.offset if cache is not None else 0
        q, k = self.rope(q, offset=offset), self.rope(k, offset=offset)
        if cache is not None:
            k, v = cache.update_and_fetch(k, v)
        out = mx.fast.scaled_dot_product_attention(q, k, v, scale=self.scale, mask=mask)
        return self.o_proj(out.transpose(0, 2, 1, 3).reshape(B, L, -1))


class MLP(nn.Module):
    gate_up = None  # FusedLinear of gate_proj, up_proj, from fuse()

    def __init__(self, dims: int, hidden: int):
        super().__init__()
        self.gate_proj = nn.Linear(dims, hidden, bias=False)
        self.up_proj = nn.Linear(dims, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dims, bias=False)

    def fuse(self):
        self.gate_up = FusedLinear.of([self.gate_proj, self.up_proj])

    def __call__(self, x):
        layers = [self.gate_proj, self.up_proj]
        gate, up = self.gate_up(x) if self.gate_up and self.gate_up.serves(layers) else (layer(x) for layer in layers)
        return self.down_proj(nn.silu(gate) * up)


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

    def __call__(self, x, mask=None, cache=None):
        h = self.self_attn(self.input_layernorm(x), mask, cache)
        if "self_attn_layer_scale" in self:
            h = self.self_attn_layer_scale(h)
        x = x + h
        h = self.mlp(self.post_attention_layernorm(x))
        if "mlp_layer_scale" in self:
            h = self.mlp_layer_scale(h)
        return x + h


class Decoder(nn.Module):
    """Blocks of one config, then the final RMSNorm: the stack of the talker and the code predictor."""

    def __init__(self, cfg):
        super().__init__()
        self.layers = [TransformerBlock(BlockArgs.of(cfg)) for _ in range(cfg.num_hidden_layers)]
        self.norm = nn.RMSNorm(cfg.hidden_size, eps=cfg.rms_norm_eps)

    def fuse(self):
        for layer in self.layers:
            layer.fuse()

    def __call__(self, x, cache):
        mask = attention_mask(x.shape[1], cache[0])
        for layer, c in zip(self.layers, cache):
            x = layer(x, mask, c)
        return self.norm(x)


class RowKVCache:
    """Fixed-capacity KV caches of a batch of independent rows, each with its own length: row b's
    keys fill slots 0 .. lengths[b] - 1 and its next one-position step writes slot lengths[b].
    Shapes stay static, so the step compiles once, whatever rows join, pause or leave.

    keys/values: (B, n_kv_heads, capacity, head_dim); lengths: (B,) int32, kept as `offset` (the RoPE position).
    """

    def __init__(self, keys, values, lengths):
        self.keys, self.values, self.offset = keys, values, lengths

    def update_and_fetch(self, keys, values):
        slot = mx.broadcast_to(self.offset[:, None, None, None], keys.shape)
        self.keys = mx.put_along_axis(self.keys, slot, keys, axis=2)
        self.values = mx.put_along_axis(self.values, slot, values, axis=2)
        return self.keys, self.values

    def make_mask(self, length: int):
        """(B, 1, 1, capacity): each row sees its own written slots and the new one."""
        if length != 1:
            raise ValueError("RowKVCache steps one position at a time")
        slots = mx.arange(self.keys.shape[2])
        return (slots[None] <= self.offset[:, None])[:, None, None]


class WindowKVCache:
    """Keys and values of the last `window - 1` positions, for a causal sliding window of `window`
    positions (a query sees itself and `window - 1` earlier ones). Static shapes, so a streaming
    step can be compiled; slots before the start of a stream are masked out. Each row has its own
    position, so streams started at different times can step together.

    keys/values: (B, n_kv_heads, window - 1, head_dim); offset: (B,) int32, positions seen per row.
    """

    def __init__(self, keys, values, offset):
        self.keys, self.values, self.offset = keys, values, offset

    @classmethod
    def empty(cls, batch: int, n_kv_heads: int, head_dim: int, window: int, dtype=mx.float32):
        zeros = mx.zeros((batch, n_kv_heads, window - 1, head_dim), dtype)
        return cls(zeros, zeros, mx.zeros((batch,), dtype=mx.int32))

    @property
    def state(self):
        return self.keys, self.values, self.offset

    @state.setter
    def state(self, state):
        self.keys, self.values, self.offset = state

    def update_and_fetch(self, keys, values):
        memory = self.keys.shape[2]
        keys = mx.concatenate([self.keys, keys], axis=2)
        values = mx.concatenate([self.values, values], axis=2)
        self.keys, self.values = keys[:, :, -memory:], values[:, :, -memory:]
        self.offset = self.offset + keys.shape[2] - memory
        return keys, values

    def make_mask(self, length: int):
        """(B, 1, length, window - 1 + length): new query i sees slots i .. i + window - 1 that hold a
        position of its row."""
        memory = self.keys.shape[2]
        slots = mx.arange(memory + length)[None]
        queries = mx.arange(length)[:, None]
        band = (slots >= queries) & (slots <= queries + memory)
        return (band & (slots >= (memory - self.offset)[:, None, None]))[:, None]


def attention_mask(length: int, cache: Any = None, window: Optional[int] = None):
    """Causal (optionally sliding-window) mask for `length` new positions after the cache's."""
    if isinstance(cache, (RowKVCache, WindowKVCache)):
        return cache.make_mask(length)
    offset = 0 if cache is None else cache.offset
    if length == 1 and (window is None or offset < window):
        return None
    if window is None and offset == 0:
        return "causal"
    return create_causal_mask(length, offset, window_size=window)
