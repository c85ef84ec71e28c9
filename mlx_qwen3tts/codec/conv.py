"""Causal convolution pieces of the codec decoder, for whole sequences and chunk by chunk.

Reference: `Qwen3TTSTokenizerV2CausalConvNet`, `Qwen3TTSTokenizerV2CausalTransConvNet`,
`Qwen3TTSTokenizerV2ConvNeXtBlock` and `SnakeBeta` in
qwen_tts/core/tokenizer_12hz/modeling_qwen3_tts_tokenizer_v2.py. Tensors are (B, T, C).

Every stateful module takes `cache=None`. Without a cache the input is a whole sequence with
silence before it (the reference's zero left padding). With a `ConvCache` the input continues the
chunks passed before with the same cache, and the chunks' outputs concatenate to the
whole-sequence output. All the decoder's convolutions have stride 1 and the transposed ones trim
only on the right, so output frame t depends on input frames <= t: nothing waits for the future.
"""

from functools import partial
from typing import Optional

import mlx.core as mx
import mlx.nn as nn


class ConvCache:
    """The last input frames a causal (transposed) convolution still needs for the next chunk."""

    def __init__(self, tail: Optional[mx.array] = None):
        self.tail = tail

    @property
    def state(self) -> Optional[mx.array]:
        return self.tail

    @state.setter
    def state(self, tail: Optional[mx.array]):
        self.tail = tail

    def extend(self, x: mx.array, context: int) -> mx.array:
        """`x` with `context` earlier frames in front (zeros before the first chunk); keeps the new tail."""
        if context == 0:
            return x
        tail = self.tail if self.tail is not None else mx.zeros((x.shape[0], context, x.shape[2]), x.dtype)
        x = mx.concatenate([tail, x], axis=1)
        # A copy, not a view: a view would keep the whole chunk's activations alive until the next one.
        self.tail = mx.contiguous(x[:, -context:])
        return x


class CausalConv1d(nn.Module):
    """Stride-1 Conv1d padded on the left by (kernel - 1) * dilation zeros."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, dilation: int = 1, groups: int = 1):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, dilation=dilation, groups=groups)
        self.context = (kernel_size - 1) * dilation
        self.in_channels = in_channels

    def make_cache(self, batch: int) -> ConvCache:
        """A cache holding the silence before a stream (its tail is None when the convolution needs no context)."""
        return ConvCache(mx.zeros((batch, self.context, self.in_channels)) if self.context else None)

    def __call__(self, x: mx.array, cache: Optional[ConvCache] = None) -> mx.array:
        return self.conv((cache or ConvCache()).extend(x, self.context))


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
        y = self.conv((cache or ConvCache()).extend(x, self.context))
        # The carried frames' own blocks were emitted with the previous chunk; the reference trims the right.
        trim = self.context * self.stride
        return y[:, trim : y.shape[1] - trim]


@partial(mx.compile, shapeless=True)
def snake_beta(x: mx.array, alpha: mx.array, beta: mx.array) -> mx.array:
    return x + (1.0 / (mx.exp(beta) + 1e-9)) * mx.sin(x * mx.exp(alpha)) ** 2


class SnakeBeta(nn.Module):
    """x + sin^2(x * exp(alpha)) / exp(beta), per channel (log-scale parameters, as stored)."""

    def __init__(self, channels: int):
        super().__init__()
        self.alpha = mx.zeros((channels,))
        self.beta = mx.zeros((channels,))

    def __call__(self, x: mx.array) -> mx.array:
        return snake_beta(x, self.alpha, self.beta)


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
