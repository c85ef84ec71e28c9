"""Codec encoder for voice cloning: 24 kHz audio -> 16 codebooks at 12.5 Hz.

Reference: `Qwen3TTSTokenizerV2Model.encode` (qwen_tts/core/tokenizer_12hz, qwen-tts 0.1.1), which
runs the encoder half of transformers' (4.57) `MimiModel`: SEANet encoder -> transformer -> stride-2
downsample -> split RVQ, keeping the first `encoder_valid_num_quantizers` codebooks and
ceil(samples / `encode_downsample_rate`) frames. Differences from Kyutai's Mimi as upstream runs it:
- attention is causal over the whole clip: Mimi's `sliding_window` (250) is honoured only by the
  flash-attention-2 path, and the reference loads the codec with the default (sdpa);
- only the kept quantizers are built: RVQ levels are sequential, the dropped ones never feed them;
- only the released layout is built: SEANet pads with zeros, the stride-2 downsample and the RVQs'
  input projections always exist (a config without them fails loading, naming the missing weight).
Tensors are (batch, time, channels); parameter names equal the checkpoint's keys under `encoder.`.
"""

import math
from dataclasses import dataclass, field
from typing import Optional

import mlx.core as mx
import mlx.nn as nn
from mlx_lm.models.base import BaseModelArgs
import numpy as np

from ..errors import InputError, ModelLoadError
from ..model.transformer import Attention, BlockArgs, LayerScale
from .conv import conv1d

PREFIX = "encoder."
# Checkpoint keys under `encoder.` that encoding never reads, decided by name:
# Mimi's decoder half (upstream deletes these modules), the RVQ output projections (decode only)
# and the codebooks' `initialized` training flags. Acoustic levels beyond the kept codebooks are
# dropped in `CodecEncoder.sanitize`.
UNUSED_PREFIXES = ("upsample.", "decoder.", "decoder_transformer.")
UNUSED_SUFFIXES = (".output_proj.weight", ".codebook.initialized")
ACOUSTIC_LAYERS = "quantizer.acoustic_residual_vector_quantizer.layers."


@dataclass
class CodecEncoderConfig(BaseModelArgs):
    """`encoder_config` of speech_tokenizer/config.json (a MimiConfig) plus two top-level keys."""

    sampling_rate: int = 24000
    audio_channels: int = 1
    hidden_size: int = 512
    num_filters: int = 64
    num_residual_layers: int = 1
    upsampling_ratios: list = field(default_factory=lambda: [8, 6, 5, 4])
    kernel_size: int = 7
    last_kernel_size: int = 3
    residual_kernel_size: int = 3
    dilation_growth_rate: int = 2
    compress: int = 2
    pad_mode: str = "constant"
    use_causal_conv: bool = True
    use_conv_shortcut: bool = False
    frame_rate: float = 12.5
    num_hidden_layers: int = 8
    intermediate_size: int = 2048
    num_attention_heads: int = 8
    num_key_value_heads: int = 8
    head_dim: Optional[int] = None
    hidden_act: str = "gelu"
    norm_eps: float = 1e-5
    rope_theta: float = 10000.0
    attention_bias: bool = False
    codebook_size: int = 2048
    codebook_dim: int = 256
    vector_quantization_hidden_dimension: int = 256
    num_quantizers: int = 32
    num_semantic_quantizers: int = 1
    valid_num_quantizers: int = 16
    encode_downsample_rate: int = 1920

    @classmethod
    def from_speech_tokenizer(cls, config: dict) -> "CodecEncoderConfig":
        """From the whole speech_tokenizer config.json dict."""
        params = dict(config["encoder_config"])
        # MimiConfig serialises its frame rate as `_frame_rate`.
        params.setdefault("frame_rate", params.get("_frame_rate", cls.frame_rate))
        params["valid_num_quantizers"] = config.get("encoder_valid_num_quantizers", cls.valid_num_quantizers)
        params["encode_downsample_rate"] = config.get("encode_downsample_rate", cls.encode_downsample_rate)
        return cls.from_dict({k: v for k, v in params.items() if v is not None})

    def __post_init__(self):
        self.head_dim = self.head_dim or self.hidden_size // self.num_attention_heads
        unsupported = {
            "use_causal_conv": self.use_causal_conv is not True, "use_conv_shortcut": self.use_conv_shortcut,
            "audio_channels": self.audio_channels != 1, "hidden_act": self.hidden_act != "gelu",
            "pad_mode": self.pad_mode != "constant",
            "valid_num_quantizers":
                not self.num_semantic_quantizers <= self.valid_num_quantizers <= self.num_quantizers,
        }
        bad = [f"{name}={getattr(self, name)!r}" for name, is_bad in unsupported.items() if is_bad]
        if bad:
            raise ModelLoadError(f"codec encoder config not supported: {', '.join(bad)}")

    @property
    def hop_length(self) -> int:
        return math.prod(self.upsampling_ratios)


class CausalConv1d(nn.Module):
    """MimiConv1d, causal: pads (kernel - stride) on the left and the right up to a whole stride."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, dilation=1, bias=True, pad_mode="constant"):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride, dilation=dilation, bias=bias)
        self.stride = stride
        self.left = (kernel_size - 1) * dilation + 1 - stride
        self.pad_mode = pad_mode  # mx.pad's mode

    def __call__(self, x: mx.array) -> mx.array:
        # Mimi's extra right padding lets the last, partial stride make a frame of its own.
        right = -x.shape[1] % self.stride
        return conv1d(mx.pad(x, [(0, 0), (self.left, right), (0, 0)], mode=self.pad_mode), self.conv)


class ResnetBlock(nn.Module):
    def __init__(self, dim: int, dilation: int, config: CodecEncoderConfig):
        super().__init__()
        hidden, kernel = dim // config.compress, config.residual_kernel_size
        self.block = [nn.ELU(), CausalConv1d(dim, hidden, kernel, dilation=dilation), nn.ELU(),
                      CausalConv1d(hidden, dim, 1)]

    def __call__(self, x: mx.array) -> mx.array:
        y = x
        for layer in self.block:
            y = layer(y)
        return x + y


class SeanetEncoder(nn.Sequential):
    """Audio (B, n, 1) -> (B, ceil(n / hop), hidden). ELUs sit in `layers` so indices match the keys."""

    def __init__(self, config: CodecEncoderConfig):
        channels = config.num_filters
        layers = [CausalConv1d(config.audio_channels, channels, config.kernel_size)]
        for ratio in reversed(config.upsampling_ratios):
            for j in range(config.num_residual_layers):
                layers.append(ResnetBlock(channels, config.dilation_growth_rate**j, config))
            layers += [nn.ELU(), CausalConv1d(channels, 2 * channels, 2 * ratio, ratio)]
            channels *= 2
        super().__init__(*layers, nn.ELU(), CausalConv1d(channels, config.hidden_size, config.last_kernel_size))


class MLP(nn.Module):
    def __init__(self, config: CodecEncoderConfig):
        super().__init__()
        self.fc1 = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.fc2 = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)

    def __call__(self, x: mx.array) -> mx.array:
        return self.fc2(nn.gelu(self.fc1(x)))


class TransformerLayer(nn.Module):
    def __init__(self, config: CodecEncoderConfig):
        super().__init__()
        self.self_attn = Attention(BlockArgs.of(config, rms_norm_eps=config.norm_eps, qk_norm=False))
        self.mlp = MLP(config)
        self.input_layernorm = nn.LayerNorm(config.hidden_size, eps=config.norm_eps)
        self.post_attention_layernorm = nn.LayerNorm(config.hidden_size, eps=config.norm_eps)
        self.self_attn_layer_scale = LayerScale(config.hidden_size)
        self.mlp_layer_scale = LayerScale(config.hidden_size)

    def __call__(self, x: mx.array) -> mx.array:
        x = x + self.self_attn_layer_scale(self.self_attn(self.input_layernorm(x), mask="causal"))
        return x + self.mlp_layer_scale(self.mlp(self.post_attention_layernorm(x)))


class Transformer(nn.Sequential):
    def __init__(self, config: CodecEncoderConfig):
        super().__init__(*(TransformerLayer(config) for _ in range(config.num_hidden_layers)))


class EuclideanCodebook(nn.Module):
    def __init__(self, config: CodecEncoderConfig):
        super().__init__()
        self.embed_sum = mx.zeros((config.codebook_size, config.codebook_dim))
        self.cluster_usage = mx.ones((config.codebook_size,))

    def __call__(self, x: mx.array) -> tuple[mx.array, mx.array]:
        """Nearest codeword of each vector of x (B, T, D): its index (B, T) and value (B, T, D)."""
        embed = self.embed_sum / mx.maximum(self.cluster_usage, 1e-5)[:, None]
        # argmin |x - e|^2 = argmin (|e|^2 - 2 x.e); |x|^2 is the same for every codeword.
        distances = (embed * embed).sum(-1) - 2 * (x @ embed.T)
        codes = mx.argmin(distances, axis=-1)
        return codes, embed[codes]


class ResidualVectorQuantizer(nn.Module):
    def __init__(self, config: CodecEncoderConfig, n_levels: int):
        super().__init__()
        dim = config.vector_quantization_hidden_dimension
        self.input_proj = nn.Conv1d(config.hidden_size, dim, 1, bias=False)
        self.layers = [{"codebook": EuclideanCodebook(config)} for _ in range(n_levels)]  # checkpoint nesting

    def __call__(self, x: mx.array) -> list:
        """Latents (B, T, hidden) -> one (B, T) code array per level."""
        residual = self.input_proj(x)
        codes = []
        for layer in self.layers:
            level_codes, quantized = layer["codebook"](residual)
            residual = residual - quantized
            codes.append(level_codes)
        return codes


class SplitResidualVectorQuantizer(nn.Module):
    """Semantic and acoustic RVQs, each quantizing the same latents from its own projection."""

    def __init__(self, config: CodecEncoderConfig):
        super().__init__()
        n_semantic = config.num_semantic_quantizers
        n_acoustic = config.valid_num_quantizers - n_semantic
        self.semantic_residual_vector_quantizer = ResidualVectorQuantizer(config, n_semantic)
        self.acoustic_residual_vector_quantizer = ResidualVectorQuantizer(config, n_acoustic)

    def __call__(self, x: mx.array) -> mx.array:
        codes = self.semantic_residual_vector_quantizer(x) + self.acoustic_residual_vector_quantizer(x)
        return mx.stack(codes, axis=-1)  # (B, T, K)


class CodecEncoder(nn.Module):
    """Mimi encoder as `Qwen3TTSTokenizerV2Model.encode` runs it: 24 kHz audio -> codes, float32."""

    def __init__(self, config: dict):
        """`config`: the whole speech_tokenizer config.json."""
        super().__init__()
        self.config = config = CodecEncoderConfig.from_speech_tokenizer(config)
        self.encoder = SeanetEncoder(config)
        self.encoder_transformer = Transformer(config)
        # Stride 2: SEANet's 25 Hz -> 12.5 Hz; Mimi pads this one with pad_mode='replicate' (mx.pad's 'edge').
        kernel = 2 * int(math.ceil(config.sampling_rate / config.hop_length) / config.frame_rate)
        self.downsample = CausalConv1d(config.hidden_size, config.hidden_size, kernel, 2, bias=False, pad_mode="edge")
        self.quantizer = SplitResidualVectorQuantizer(config)

    def latents(self, audio: mx.array) -> mx.array:
        """Audio (B, n) -> pre-quantization latents (B, frames, hidden)."""
        return self.downsample(self.encoder_transformer(self.encoder(audio[..., None])))

    def __call__(self, audio: mx.array) -> mx.array:
        """Audio (B, n) float32 at 24 kHz -> codes (B, ceil(n / 1920), 16) int32."""
        frames = -(-audio.shape[1] // self.config.encode_downsample_rate)
        return self.quantizer(self.latents(audio))[:, :frames].astype(mx.int32)

    def encode(self, audio_24k) -> mx.array:
        """One mono clip, (n,) or (1, n) samples at 24 kHz -> codes (ceil(n / 1920), 16) int32."""
        return self(_as_clip(audio_24k)[None])[0]

    def encode_batch(self, clips: list) -> list:
        """Several clips at once, as the reference batches them: zero-padded to the longest, each
        cut to its own ceil(n / 1920) frames. A clip's last frame can differ from `encode` of that
        clip alone, because it sees the padding where `encode` sees the convolutions' own padding."""
        clips = [_as_clip(clip) for clip in clips]
        if not clips:
            return []
        longest = max(clip.shape[0] for clip in clips)
        batch = mx.stack([mx.pad(clip, (0, longest - clip.shape[0])) for clip in clips])
        codes = self(batch)
        rate = self.config.encode_downsample_rate
        return [codes[i, : -(-clip.shape[0] // rate)] for i, clip in enumerate(clips)]

    def sanitize(self, weights: dict) -> dict:
        """A speech_tokenizer checkpoint (torch layout) -> this module's parameters, float32: the
        used keys under `encoder.`, Conv1d kernels from (out, in, k) to (out, k, in)."""
        n_acoustic = len(self.quantizer.acoustic_residual_vector_quantizer.layers)
        out = {}
        for key, value in weights.items():
            if not key.startswith(PREFIX):
                continue
            key = key[len(PREFIX):]
            if key.startswith(UNUSED_PREFIXES) or key.endswith(UNUSED_SUFFIXES):
                continue
            if key.startswith(ACOUSTIC_LAYERS) and int(key[len(ACOUSTIC_LAYERS):].split(".")[0]) >= n_acoustic:
                continue
            if key.endswith((".conv.weight", ".input_proj.weight")):
                value = value.transpose(0, 2, 1)
            out[key] = value.astype(mx.float32)
        return out


def _as_clip(audio) -> mx.array:
    if not isinstance(audio, mx.array):
        audio = np.asarray(audio, dtype=np.float32)
    shape = tuple(audio.shape)
    if len(shape) == 2 and shape[0] == 1:
        audio = audio[0]
    elif len(shape) != 1:
        raise InputError(
            f"codec encoder: audio of shape {shape}; expected one mono clip, (samples,) or (1, samples). "
            "Mix multichannel audio down first; pass several clips to encode_batch"
        )
    if audio.shape[0] == 0:
        raise InputError("codec encoder: the audio is empty")
    return mx.array(audio).astype(mx.float32)
