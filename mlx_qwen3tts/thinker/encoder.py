"""The Qwen3-ASR audio encoder (`thinker.audio_tower` of the aligner and the recognizer).

Reference: qwen-asr 0.0.6 `Qwen3ASRAudioEncoder.forward`. The mel is cut into chunks of
2 * n_window frames (the last one shorter), zero-padded to the longest chunk, and each chunk goes
through three stride-2 3x3 convolutions (GELU after each) over (mel bins, frames), so a chunk of
100 frames gives 13 positions; `conv_out` flattens channels x bins per position. Sinusoidal
positions restart at 0 in every chunk. The chunks' valid positions, joined, pass through pre-norm
transformer layers (biased attention, GELU MLP), then ln_post, proj1, GELU, proj2. Attention spans
the whole clip, as upstream computes it with transformers' eager and SDPA attention (its CPU and
Apple default): only its flash-attention-2 path keeps attention inside windows of
`n_window_infer` frames (`cu_seqlens`), which differs for clips longer than that (8 s released).
Tensors stay (batch, time, channels); the convolutions run as NHWC with H = mel bins.
"""

import math
from dataclasses import dataclass

import mlx.core as mx
import mlx.nn as nn
import numpy as np

from ..backend import cpu_paths
from . import fastmath


@dataclass
class EncoderConfig:
    num_mel_bins: int = 128
    encoder_layers: int = 24
    encoder_attention_heads: int = 16
    encoder_ffn_dim: int = 4096
    d_model: int = 1024
    max_source_positions: int = 1500
    n_window: int = 50
    n_window_infer: int = 800
    output_dim: int = 1024
    downsample_hidden_size: int = 480

    @classmethod
    def from_dict(cls, params: dict) -> "EncoderConfig":
        return cls(**{k: params[k] for k in cls.__dataclass_fields__ if k in params})


def output_length(frames: int) -> int:
    """Encoder outputs for `frames` mel frames: 13 per full 100-frame chunk, the rest as 3 convolutions
    of stride 2 give (upstream `_get_feat_extract_output_lengths`, which assumes 2 * n_window = 100)."""
    rest = frames % 100
    return ((((rest - 1) // 2 + 1) - 1) // 2 + 1 - 1) // 2 + 1 + (frames // 100) * 13


def _conv_length(frames: int) -> int:
    for _ in range(3):
        frames = (frames - 1) // 2 + 1
    return frames


class EncoderAttention(nn.Module):
    def __init__(self, dims: int, heads: int):
        super().__init__()
        self.heads = heads
        self.q_proj = nn.Linear(dims, dims)
        self.k_proj = nn.Linear(dims, dims)
        self.v_proj = nn.Linear(dims, dims)
        self.out_proj = nn.Linear(dims, dims)

    def __call__(self, x, mask):
        B, L, D = x.shape
        q, k, v = (p(x).reshape(B, L, self.heads, -1).transpose(0, 2, 1, 3)  # (B, heads, L, D / heads)
                   for p in (self.q_proj, self.k_proj, self.v_proj))
        out = mx.fast.scaled_dot_product_attention(q, k, v, scale=(D // self.heads) ** -0.5, mask=mask)
        return self.out_proj(out.transpose(0, 2, 1, 3).reshape(B, L, D))


class EncoderLayer(nn.Module):
    def __init__(self, cfg: EncoderConfig):
        super().__init__()
        self.self_attn = EncoderAttention(cfg.d_model, cfg.encoder_attention_heads)
        self.self_attn_layer_norm = nn.LayerNorm(cfg.d_model)
        self.fc1 = nn.Linear(cfg.d_model, cfg.encoder_ffn_dim)
        self.fc2 = nn.Linear(cfg.encoder_ffn_dim, cfg.d_model)
        self.final_layer_norm = nn.LayerNorm(cfg.d_model)

    def __call__(self, x, mask):
        x = x + self.self_attn(self.self_attn_layer_norm(x), mask)
        return x + self.fc2(gelu(self.fc1(self.final_layer_norm(x))))


def gelu(x):
    """The exact GELU: on the CPU backend `fastmath`'s (MLX's erf there is computed a value at a time)."""
    return fastmath.gelu(x) if cpu_paths() else nn.gelu(x)


def sinusoids(length: int, channels: int) -> np.ndarray:
    """(length, channels) float32: sin then cos of position / 10000^(i / (channels/2 - 1))."""
    increment = np.float32(math.log(10000) / (channels // 2 - 1))
    inv = np.exp(-increment * np.arange(channels // 2, dtype=np.float32)).astype(np.float32)
    scaled = np.arange(length, dtype=np.float32)[:, None] * inv[None, :]
    return np.concatenate([np.sin(scaled), np.cos(scaled)], axis=1).astype(np.float32)


class AudioEncoder(nn.Module):
    def __init__(self, cfg: EncoderConfig):
        super().__init__()
        self.cfg = cfg
        c = cfg.downsample_hidden_size
        self.conv2d1 = nn.Conv2d(1, c, 3, stride=2, padding=1)
        self.conv2d2 = nn.Conv2d(c, c, 3, stride=2, padding=1)
        self.conv2d3 = nn.Conv2d(c, c, 3, stride=2, padding=1)
        self.conv_out = nn.Linear(c * _conv_length(cfg.num_mel_bins), cfg.d_model, bias=False)
        self.layers = [EncoderLayer(cfg) for _ in range(cfg.encoder_layers)]
        self.ln_post = nn.LayerNorm(cfg.d_model)
        self.proj1 = nn.Linear(cfg.d_model, cfg.d_model)
        self.proj2 = nn.Linear(cfg.d_model, cfg.output_dim)
        self._positions = mx.array(sinusoids(cfg.max_source_positions, cfg.d_model))

    def __call__(self, mel: mx.array) -> mx.array:
        """(outputs, output_dim) of one clip's log-mel (mel bins, frames)."""
        frames = mel.shape[1]
        chunk = 2 * self.cfg.n_window
        lengths = [chunk] * (frames // chunk) + ([frames % chunk] if frames % chunk else [])
        longest = max(lengths)
        padded = mx.pad(mel, [(0, 0), (0, len(lengths) * longest - frames)]) if len(lengths) * longest > frames \
            else mel
        x = padded.reshape(mel.shape[0], len(lengths), longest).transpose(1, 0, 2)[..., None]  # (C, bins, T, 1)
        for conv in (self.conv2d1, self.conv2d2, self.conv2d3):
            x = gelu(conv(x))
        C, F, T, K = x.shape
        x = self.conv_out(x.transpose(0, 2, 3, 1).reshape(C, T, K * F))  # (C, T, channels * bins)
        x = x + self._positions[:T].astype(x.dtype)
        valid = [_conv_length(n) for n in lengths]
        x = mx.concatenate([x[i, :n] for i, n in enumerate(valid)], axis=0)[None]  # (1, N, D)
        for layer in self.layers:
            x = layer(x, None)
        x = self.proj2(gelu(self.proj1(self.ln_post(x))))
        return x[0]
