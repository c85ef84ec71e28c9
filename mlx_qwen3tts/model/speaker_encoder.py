"""ECAPA-TDNN speaker encoder: 24 kHz reference audio -> one x-vector for voice cloning.

Reference: `Qwen3TTSSpeakerEncoder` and its blocks (`TimeDelayNetBlock`, `Res2NetBlock`,
`SqueezeExcitationBlock`, `AttentiveStatisticsPooling`) and `extract_speaker_embedding` in
qwen_tts/core/models/modeling_qwen3_tts.py (qwen-tts 0.1.1). Differences from the usual ECAPA-TDNN
(SpeechBrain): no BatchNorm anywhere, and every convolution pads 'same' by reflection.
Tensors are (batch, time, channels); parameter names equal the checkpoint's keys under
`speaker_encoder.`.
"""

from dataclasses import dataclass, field

import mlx.core as mx
import mlx.nn as nn
from mlx_lm.models.base import BaseModelArgs
import numpy as np

from .mel import log_mel_spectrogram

PREFIX = "speaker_encoder."


@dataclass
class SpeakerEncoderConfig(BaseModelArgs):
    mel_dim: int = 128
    enc_dim: int = 1024
    enc_channels: list = field(default_factory=lambda: [512, 512, 512, 512, 1536])
    enc_kernel_sizes: list = field(default_factory=lambda: [5, 3, 3, 3, 1])
    enc_dilations: list = field(default_factory=lambda: [1, 2, 3, 4, 1])
    enc_attention_channels: int = 128
    enc_res2net_scale: int = 8
    enc_se_channels: int = 128
    sample_rate: int = 24000


class ReflectConv1d(nn.Conv1d):
    """torch Conv1d(padding='same', padding_mode='reflect'): d·(k-1) reflected samples, the odd one right."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, dilation: int = 1):
        super().__init__(in_channels, out_channels, kernel_size, dilation=dilation)
        total = dilation * (kernel_size - 1)
        self.pad_left, self.pad_right = total // 2, total - total // 2

    def __call__(self, x: mx.array) -> mx.array:
        # With nothing to pad (the 1x1 convolutions) mx.pad returns x itself.
        return super().__call__(mx.pad(x, [(0, 0), (self.pad_left, self.pad_right), (0, 0)], mode="reflect"))


class TimeDelayNetBlock(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, dilation: int):
        super().__init__()
        self.conv = ReflectConv1d(in_channels, out_channels, kernel_size, dilation)

    def __call__(self, x: mx.array) -> mx.array:
        return nn.relu(self.conv(x))


class Res2NetBlock(nn.Module):
    def __init__(self, channels: int, scale: int, kernel_size: int, dilation: int):
        super().__init__()
        if channels % scale:
            raise ValueError(f"Res2Net channels {channels} must be divisible by its scale {scale}")
        width = channels // scale
        self.blocks = [TimeDelayNetBlock(width, width, kernel_size, dilation) for _ in range(scale - 1)]

    def __call__(self, x: mx.array) -> mx.array:
        parts = mx.split(x, len(self.blocks) + 1, axis=-1)
        outputs = [parts[0]]
        for i, (block, part) in enumerate(zip(self.blocks, parts[1:])):
            outputs.append(block(part if i == 0 else part + outputs[-1]))
        return mx.concatenate(outputs, axis=-1)


class SqueezeExcitationBlock(nn.Module):
    def __init__(self, channels: int, se_channels: int):
        super().__init__()
        self.conv1 = ReflectConv1d(channels, se_channels, 1)
        self.conv2 = ReflectConv1d(se_channels, channels, 1)

    def __call__(self, x: mx.array) -> mx.array:
        return x * mx.sigmoid(self.conv2(nn.relu(self.conv1(mx.mean(x, axis=1, keepdims=True)))))


class SqueezeExcitationRes2NetBlock(nn.Module):
    def __init__(self, in_channels, out_channels, res2net_scale, se_channels, kernel_size, dilation):
        super().__init__()
        self.tdnn1 = TimeDelayNetBlock(in_channels, out_channels, 1, 1)
        self.res2net_block = Res2NetBlock(out_channels, res2net_scale, kernel_size, dilation)
        self.tdnn2 = TimeDelayNetBlock(out_channels, out_channels, 1, 1)
        self.se_block = SqueezeExcitationBlock(out_channels, se_channels)

    def __call__(self, x: mx.array) -> mx.array:
        return x + self.se_block(self.tdnn2(self.res2net_block(self.tdnn1(x))))


def _weighted_statistics(x: mx.array, weights: mx.array) -> tuple[mx.array, mx.array]:
    """Mean and std over time under weights summing to 1; (B, T, C), (B, T, C) -> (B, 1, C) each."""
    mean = mx.sum(weights * x, axis=1, keepdims=True)
    variance = mx.sum(weights * mx.square(x - mean), axis=1, keepdims=True)
    return mean, mx.sqrt(mx.maximum(variance, 1e-12))


class AttentiveStatisticsPooling(nn.Module):
    def __init__(self, channels: int, attention_channels: int):
        super().__init__()
        self.tdnn = TimeDelayNetBlock(channels * 3, attention_channels, 1, 1)
        self.conv = ReflectConv1d(attention_channels, channels, 1)

    def __call__(self, x: mx.array) -> mx.array:
        # The reference masks with ones / length (no padding in a single clip): a plain mean.
        uniform = mx.full((1, x.shape[1], 1), 1.0 / x.shape[1], dtype=x.dtype)
        mean, std = _weighted_statistics(x, uniform)
        context = mx.concatenate([x, mx.broadcast_to(mean, x.shape), mx.broadcast_to(std, x.shape)], axis=-1)
        mean, std = _weighted_statistics(x, mx.softmax(self.conv(mx.tanh(self.tdnn(context))), axis=1))
        return mx.concatenate([mean, std], axis=-1)  # (B, 1, 2C)


class SpeakerEncoder(nn.Module):
    """Qwen3TTSSpeakerEncoder: log-mels (B, T, mel_dim) -> x-vectors (B, enc_dim)."""

    def __init__(self, config: dict):
        super().__init__()
        self.config = config = SpeakerEncoderConfig.from_dict(config)
        channels, kernels, dilations = config.enc_channels, config.enc_kernel_sizes, config.enc_dilations
        if not len(channels) == len(kernels) == len(dilations):
            raise ValueError("enc_channels, enc_kernel_sizes and enc_dilations must have the same length")
        self.blocks = [TimeDelayNetBlock(config.mel_dim, channels[0], kernels[0], dilations[0])]
        for i in range(1, len(channels) - 1):
            self.blocks.append(SqueezeExcitationRes2NetBlock(channels[i - 1], channels[i], config.enc_res2net_scale,
                                                             config.enc_se_channels, kernels[i], dilations[i]))
        self.mfa = TimeDelayNetBlock(channels[-1], channels[-1], kernels[-1], dilations[-1])
        self.asp = AttentiveStatisticsPooling(channels[-1], config.enc_attention_channels)
        self.fc = ReflectConv1d(channels[-1] * 2, config.enc_dim, 1)

    def __call__(self, mels: mx.array) -> mx.array:
        features = [self.blocks[0](mels)]
        for block in self.blocks[1:]:
            features.append(block(features[-1]))
        # Multi-layer feature aggregation over the SE-Res2Net outputs (not the first TDNN's).
        x = self.mfa(mx.concatenate(features[1:], axis=-1))
        return self.fc(self.asp(x))[:, 0]


def sanitize(weights: dict) -> dict:
    """The `speaker_encoder.` tensors of a checkpoint -> `SpeakerEncoder` parameters, float32; every
    `.weight` is a Conv1d kernel, turned from torch (out, in, k) to MLX (out, k, in)."""
    out = {}
    for key, value in weights.items():
        if key.startswith(PREFIX):
            value = value.transpose(0, 2, 1) if key.endswith(".weight") else value
            out[key[len(PREFIX):]] = value.astype(mx.float32)
    return out


def extract_xvector(encoder: SpeakerEncoder, audio_24k: np.ndarray) -> mx.array:
    """x-vector of mono 24 kHz float audio, (enc_dim,) float32, as `extract_speaker_embedding`."""
    mels = mx.array(log_mel_spectrogram(audio_24k))[None]  # (1, T, mel_dim)
    return encoder(mels.astype(mx.float32))[0].astype(mx.float32)
