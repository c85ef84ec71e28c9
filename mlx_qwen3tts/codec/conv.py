"""Causal convolution pieces of the codec decoder, for whole sequences and chunk by chunk.

Reference: `Qwen3TTSTokenizerV2CausalConvNet`, `Qwen3TTSTokenizerV2CausalTransConvNet`,
`Qwen3TTSTokenizerV2ConvNeXtBlock` and `SnakeBeta` in
qwen_tts/core/tokenizer_12hz/modeling_qwen3_tts_tokenizer_v2.py. Tensors are (B, T, C).

Every stateful module takes `cache=None`. Without a cache the input is a whole sequence with
silence before it (the reference's zero left padding). With a `ConvCache` the input continues the
chunks passed before with the same cache, and the chunks' outputs concatenate to the
whole-sequence output. All the decoder's convolutions have stride 1 and the transposed ones trim
only on the right, so output frame t depends on input frames <= t: nothing waits for the future.

The backend choice (`backend.cpu_paths`) is made here. On MLX's CPU backend (measured with MLX 0.32):
- dilated / strided convolutions and transposed convolutions do not run as matrix products (a
  dilation-9 kernel-7 convolution is ~100x slower than the same one at dilation 1), so there they are
  written as one GEMM each (gathered taps, or a product followed by an overlap-add);
- `sin` is scalar (~17 ns per element) and compiled (fused) element-wise kernels are slower than the
  vectorized separate ops, so SnakeBeta uses a polynomial sine (float32 rounding level) and the codec
  decoder's step runs uncompiled (`compile_on_gpu`).
Metal and CUDA keep MLX's own kernels, `mx.sin` and compiled graphs.
"""

import math
from functools import partial
from typing import Callable, Optional

import mlx.core as mx
import mlx.nn as nn

from ..backend import cpu_paths


def compile_on_gpu(fn: Callable) -> Callable:
    """`mx.compile(fn)` where compiled graphs are faster (Metal, CUDA); `fn` itself on the CPU."""
    compiled = mx.compile(fn)
    return lambda *args: (fn if cpu_paths() else compiled)(*args)


# Narrow stride-1 convolutions (the codec decoder's last two blocks, 96 and 192 channels at 8-24 kHz) run
# faster as one multiply-accumulate GEMM per tap on shifted views than with a gathered copy (measured:
# 15360 frames x 96 channels 66 -> 39 ms, 5120 x 192 52 -> 41 ms; at 384 channels the single GEMM wins).
TAP_GEMM_MAX_CHANNELS = 256


def conv1d(x: mx.array, conv: nn.Conv1d) -> mx.array:
    """`conv(x)` for an unpadded nn.Conv1d; on the CPU a dilated or strided one runs as a single GEMM
    over its gathered taps (B, T_out, kernel * C_in) x (kernel * C_in, C_out), or, when it is narrow
    and stride 1, as one accumulating GEMM per tap."""
    out_channels, kernel, in_channels = conv.weight.shape
    stride, dilation = conv.stride, conv.dilation
    if conv.padding or conv.groups > 1 or kernel == 1 or not cpu_paths():
        return conv(x)
    if stride == 1 and in_channels <= TAP_GEMM_MAX_CHANNELS:
        frames = x.shape[1] - dilation * (kernel - 1)
        y = x[:, :frames] @ conv.weight[:, 0].T
        y = y + conv.bias if "bias" in conv else y
        for k in range(1, kernel):
            y = mx.addmm(y, x[:, k * dilation : k * dilation + frames], conv.weight[:, k].T)
        return y
    if stride == 1 and dilation == 1:
        return conv(x)  # MLX's CPU conv is already a GEMM here (and equal bit for bit)
    frames = (x.shape[1] - dilation * (kernel - 1) - 1) // stride + 1
    span = stride * (frames - 1) + 1
    taps = [x[:, k * dilation : k * dilation + span : stride] for k in range(kernel)]
    y = mx.concatenate(taps, axis=-1) @ conv.weight.reshape(out_channels, kernel * in_channels).T
    return y + conv.bias if "bias" in conv else y


class ConvCache:
    """The last input frames a causal (transposed) convolution still needs for the next chunk."""

    def __init__(self, state: Optional[mx.array] = None):
        self.state = state  # (B, context, C) input frames, the tree `mx.compile` takes and returns

    def extend(self, x: mx.array, context: int) -> mx.array:
        """`x` with `context` earlier frames in front (zeros before the first chunk); keeps the new tail."""
        if context == 0:
            return x
        tail = self.state if self.state is not None else mx.zeros((x.shape[0], context, x.shape[2]), x.dtype)
        x = mx.concatenate([tail, x], axis=1)
        # A copy, not a view: a view would keep the whole chunk's activations alive until the next one.
        self.state = mx.contiguous(x[:, -context:])
        return x


class CausalConv1d(nn.Module):
    """Stride-1 Conv1d padded on the left by (kernel - 1) * dilation zeros."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, dilation: int = 1, groups: int = 1):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, dilation=dilation, groups=groups)
        self.context = (kernel_size - 1) * dilation
        self.in_channels = in_channels

    def make_cache(self, batch: int) -> ConvCache:
        """A cache holding the silence before a stream (its state is None when the convolution needs no context)."""
        return ConvCache(mx.zeros((batch, self.context, self.in_channels)) if self.context else None)

    def __call__(self, x: mx.array, cache: Optional[ConvCache] = None) -> mx.array:
        return conv1d((cache or ConvCache()).extend(x, self.context), self.conv)


class CausalConvTranspose1d(nn.Module):
    """ConvTranspose1d whose last (kernel - stride) output samples are dropped, as in the reference.

    Output block t (samples t*stride .. (t+1)*stride - 1) then sums the contributions of input
    frames t - context .. t, so a chunk carries its last `context` input frames to the next one.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int):
        super().__init__()
        if kernel_size % stride:
            raise ValueError(f"kernel_size {kernel_size} must be a multiple of stride {stride}")
        self.conv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride)
        self.stride = stride
        self.context = kernel_size // stride - 1
        self.in_channels = in_channels

    make_cache = CausalConv1d.make_cache

    def __call__(self, x: mx.array, cache: Optional[ConvCache] = None) -> mx.array:
        x = (cache or ConvCache()).extend(x, self.context)
        if cpu_paths():
            return self._overlap_add(x)
        y = self.conv(x)
        # The carried frames' own blocks were emitted with the previous chunk; the reference trims the right.
        trim = self.context * self.stride
        return y[:, trim : y.shape[1] - trim]

    def _overlap_add(self, x: mx.array) -> mx.array:
        """The same output as one GEMM: every input frame times the whole kernel, (B, L, C_out * kernel),
        then output block t sums kernel slice j of input frame t + context - j, j = 0 .. context."""
        out_channels, kernel, in_channels = self.conv.weight.shape
        batch, length, stride = x.shape[0], x.shape[1], self.stride
        frames = length - self.context
        z = x @ self.conv.weight.reshape(out_channels * kernel, in_channels).T
        z = z.reshape(batch, length, out_channels, self.context + 1, stride)
        y = z[:, self.context :, :, 0]
        for j in range(1, self.context + 1):
            y = y + z[:, self.context - j : length - j, :, j]
        y = y.transpose(0, 1, 3, 2).reshape(batch, frames * stride, out_channels)
        return y + self.conv.bias if "bias" in self.conv else y


@partial(mx.compile, shapeless=True)
def snake_beta(x: mx.array, alpha: mx.array, beta: mx.array) -> mx.array:
    return x + (1.0 / (mx.exp(beta) + 1e-9)) * mx.sin(x * mx.exp(alpha)) ** 2


# sin(v) = v * P(v^2) on [-pi/2, pi/2]: Taylor terms to v^13 (truncation < 1e-9, below float32 rounding).
SIN_TERMS = [(-1) ** n / math.factorial(2 * n + 1) for n in range(7)]
PI_HI, PI_LO = 3.140625, math.pi - 3.140625  # pi in two parts: k * PI_HI is exact for |k| < 2**16


def snake_beta_polynomial(x: mx.array, alpha: mx.array, beta: mx.array) -> mx.array:
    """`snake_beta` from multiply-adds only: sin^2 has period pi, so u is reduced to v in [-pi/2, pi/2]."""
    u = x * mx.exp(alpha)
    k = mx.round(u * (1 / math.pi))
    v = (u - k * PI_HI) - k * PI_LO
    v2 = v * v
    p = SIN_TERMS[-1]
    for c in reversed(SIN_TERMS[:-1]):
        p = p * v2 + c
    s = v * p
    return x + (1.0 / (mx.exp(beta) + 1e-9)) * (s * s)


class SnakeBeta(nn.Module):
    """x + sin^2(x * exp(alpha)) / exp(beta), per channel (log-scale parameters, as stored)."""

    def __init__(self, channels: int):
        super().__init__()
        self.alpha = mx.zeros((channels,))
        self.beta = mx.zeros((channels,))

    def __call__(self, x: mx.array) -> mx.array:
        return (snake_beta_polynomial if cpu_paths() else snake_beta)(x, self.alpha, self.beta)


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dwconv = CausalConv1d(dim, dim, kernel_size=7, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = mx.full((dim,), 1e-6)

    def make_cache(self, batch: int) -> ConvCache:
        return self.dwconv.make_cache(batch)

    def __call__(self, x: mx.array, cache: Optional[ConvCache] = None) -> mx.array:
        h = self.norm(self.dwconv(x, cache))
        h = self.pwconv2(nn.gelu(self.pwconv1(h)))
        return x + self.gamma * h
