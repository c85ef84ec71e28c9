"""Codec decoder: 16 codebooks at 12.5 Hz -> 24 kHz audio, whole-sequence or streamed.

Reference: `Qwen3TTSTokenizerV2Decoder` (and `Qwen3TTSTokenizerV2Model.decode`) in
qwen_tts/core/tokenizer_12hz/modeling_qwen3_tts_tokenizer_v2.py (qwen-tts 0.1.1):
split RVQ -> CausalConv k3 -> transformer (input_proj, layers with LayerScale and a 72-frame
causal sliding window, RMSNorm, output_proj) -> 2 x [CausalConvTranspose k=s=2, ConvNeXt] ->
CausalConv k7 -> 4 x [SnakeBeta, CausalConvTranspose k=2r s=r, residual units (dilation 1, 3, 9)]
-> SnakeBeta -> CausalConv k7 -> clip to [-1, 1]. Everything is causal, so `step` emits each
frame's 1920 samples as soon as the frame arrives and the chunks concatenate to the one-shot output.

Differences from the reference: `decode` streams long inputs through `step` (linear cost, equal to
the one-shot decode) where upstream decodes 300-frame chunks with only 25 frames of left context
(shorter than the 72-frame window, so its output beyond frame 300 differs slightly);
`decode(..., left_context=25)` reproduces upstream.
"""

import math
from functools import cached_property
from dataclasses import dataclass
from typing import Iterable, List, Optional, Tuple

import mlx.core as mx
import mlx.nn as nn
from mlx_lm.models.base import BaseModelArgs
from mlx.utils import tree_map

from ..backend import cpu_paths, decode_stream
from ..errors import InputError, ModelLoadError
from ..model.cache import WindowKVCache, attention_mask
from ..model.transformer import BlockArgs, TransformerBlock
from .conv import CausalConv1d, CausalConvTranspose1d, ConvCache, ConvNeXtBlock, SnakeBeta, compile_on_gpu
from .quantizer import SplitResidualVectorQuantizer

PREFIX = "decoder."
# Encoder-side projections of the quantizer, present in the checkpoint, unused when decoding.
UNUSED_KEYS = ("quantizer.rvq_first.input_proj.weight", "quantizer.rvq_rest.input_proj.weight")
CODEBOOK_EPS = 1e-5
# Chunk lengths the compiled step is traced for (Metal, CUDA): `step` splits any chunk into them, largest
# first, so a thread traces at most five graphs per batch size whatever the utterance and reference
# lengths (one trace per new length would cost a compile per sentence). 300: upstream's decode chunk;
# 1 and 4: the default stream chunks; between them powers of 4 keep a chunk of up to 300 frames to 12 pieces.
STEP_SIZES = (300, 64, 16, 4, 1)


@dataclass
class DecoderArgs(BaseModelArgs):
    """`decoder_config` of speech_tokenizer/config.json (unknown keys ignored; defaults as released)."""

    codebook_size: int = 2048
    codebook_dim: int = 512
    hidden_size: int = 1024
    latent_dim: int = 1024
    intermediate_size: int = 3072
    num_hidden_layers: int = 8
    num_attention_heads: int = 16
    num_key_value_heads: int = 16
    head_dim: Optional[int] = None
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-5
    attention_bias: bool = False
    sliding_window: int = 72
    hidden_act: str = "silu"
    num_quantizers: int = 16
    upsample_rates: Tuple[int, ...] = (8, 5, 4, 3)
    upsampling_ratios: Tuple[int, ...] = (2, 2)
    decoder_dim: int = 1536

    def __post_init__(self):
        if self.hidden_act != "silu":
            raise ModelLoadError(f"codec decoder: hidden_act {self.hidden_act!r} is not supported (only 'silu')")
        self.head_dim = self.head_dim or self.hidden_size // self.num_attention_heads


class PreTransformer(nn.Module):
    def __init__(self, args: DecoderArgs):
        super().__init__()
        block = BlockArgs.of(args, qk_norm=False, layer_scale=True)
        self.input_proj = nn.Linear(args.latent_dim, args.hidden_size)
        self.layers = [TransformerBlock(block) for _ in range(args.num_hidden_layers)]
        self.norm = nn.RMSNorm(args.hidden_size, eps=args.rms_norm_eps)
        self.output_proj = nn.Linear(args.hidden_size, args.latent_dim)
        self.window = args.sliding_window
        self.kv_shape = (block.num_key_value_heads, block.head_dim)

    def make_cache(self, batch: int) -> List[WindowKVCache]:
        # A query sees itself and window - 1 earlier frames: the cache never needs more.
        return [WindowKVCache.empty(batch, *self.kv_shape, self.window) for _ in self.layers]

    def __call__(self, x: mx.array, cache: Optional[List[WindowKVCache]] = None) -> mx.array:
        x = self.input_proj(x)
        mask = attention_mask(x.shape[1], None if cache is None else cache[0], self.window)
        for layer, layer_cache in zip(self.layers, cache or [None] * len(self.layers)):
            x = layer(x, mask, layer_cache)
        return self.output_proj(self.norm(x))


class ResidualUnit(nn.Module):
    def __init__(self, dim: int, dilation: int):
        super().__init__()
        self.act1 = SnakeBeta(dim)
        self.conv1 = CausalConv1d(dim, dim, kernel_size=7, dilation=dilation)
        self.act2 = SnakeBeta(dim)
        self.conv2 = CausalConv1d(dim, dim, kernel_size=1)

    def make_cache(self, batch: int) -> ConvCache:
        return self.conv1.make_cache(batch)

    def __call__(self, x: mx.array, cache: Optional[ConvCache] = None) -> mx.array:
        return x + self.conv2(self.act2(self.conv1(self.act1(x), cache)))


class DecoderBlock(nn.Module):
    """SnakeBeta, transposed conv upsampling by `rate`, residual units with dilations 1, 3, 9."""

    def __init__(self, in_dim: int, out_dim: int, rate: int):
        super().__init__()
        self.block = [SnakeBeta(in_dim), CausalConvTranspose1d(in_dim, out_dim, 2 * rate, rate)]
        self.block += [ResidualUnit(out_dim, dilation) for dilation in (1, 3, 9)]

    def make_cache(self, batch: int) -> List[ConvCache]:
        return [module.make_cache(batch) for module in self.block[1:]]

    def __call__(self, x: mx.array, cache: Optional[List[ConvCache]] = None) -> mx.array:
        snake, *convs = self.block
        x = snake(x)
        for conv, conv_cache in zip(convs, cache or [None] * len(convs)):
            x = conv(x, conv_cache)
        return x


@dataclass
class DecoderState:
    """Streaming state of `CodecDecoder.step`; make one per stream with `CodecDecoder.make_state`.

    One cache per streamed module (`CodecDecoder._streamed`): conv tails (zeros before the first
    frame: the reference's left padding) and the transformer's window of keys and values; the batch
    is fixed by the first chunk.
    """

    caches: Optional[list] = None
    frames: int = 0

    @property
    def state(self) -> list:
        """The caches' arrays as one tree (conv tails, keys, values, offsets): what `mx.compile`
        takes and returns, and what to `mx.eval`."""
        return tree_map(lambda c: c.state, self.caches or [], is_leaf=_is_cache)  # [] before the first chunk

    @state.setter
    def state(self, tree: list):
        tree_map(lambda c, s: setattr(c, "state", s), self.caches or [], tree, is_leaf=_is_cache)


def step_pieces(frames: int) -> List[int]:
    """`frames` as a sum of `STEP_SIZES`, largest first."""
    pieces = []
    for size in STEP_SIZES:
        count, frames = divmod(frames, size)
        pieces += [size] * count
    return pieces


def _is_cache(x) -> bool:
    return isinstance(x, (ConvCache, WindowKVCache))


class CodecDecoder(nn.Module):
    def __init__(self, args: DecoderArgs):
        super().__init__()
        self.args = args
        self.hop_length = math.prod(args.upsample_rates) * math.prod(args.upsampling_ratios)
        self.quantizer = SplitResidualVectorQuantizer(
            args.num_quantizers, args.codebook_size, args.codebook_dim // 2, args.codebook_dim)
        self.pre_conv = CausalConv1d(args.codebook_dim, args.latent_dim, kernel_size=3)
        self.pre_transformer = PreTransformer(args)
        self.upsample = [[CausalConvTranspose1d(args.latent_dim, args.latent_dim, r, r), ConvNeXtBlock(args.latent_dim)]
                         for r in args.upsampling_ratios]
        dims = [args.decoder_dim // 2**i for i in range(len(args.upsample_rates) + 1)]
        self.decoder = [
            CausalConv1d(args.latent_dim, dims[0], kernel_size=7),
            *[DecoderBlock(dims[i], dims[i + 1], rate) for i, rate in enumerate(args.upsample_rates)],
            SnakeBeta(dims[-1]),
            CausalConv1d(dims[-1], 1, kernel_size=7),
        ]

    def _streamed(self) -> list:
        """The modules that carry state from chunk to chunk, in order; every module but `decoder[-2]`
        (the last SnakeBeta, which runs between the last two)."""
        return [self.pre_conv, self.pre_transformer, *[m for pair in self.upsample for m in pair],
                *self.decoder[:-2], self.decoder[-1]]

    def make_state(self, batch: Optional[int] = None) -> DecoderState:
        """Fresh state for `step`; without `batch`, the first chunk's batch size is used."""
        return DecoderState(None if batch is None else self._make_caches(batch))

    def _make_caches(self, batch: int) -> list:
        """Caches holding the silence before a stream of `batch` items."""
        return [module.make_cache(batch) for module in self._streamed()]

    def __call__(self, codes: mx.array) -> mx.array:
        """codes (B, T, num_quantizers) ints in [0, codebook_size) -> audio (B, T * 1920) float32 in [-1, 1]."""
        self._check(codes)
        return self._forward(codes, None)

    def step(self, codes: mx.array, state: DecoderState) -> mx.array:
        """Decode the next frames of a stream: codes (B, n, num_quantizers) -> audio (B, n * 1920).

        The outputs of successive steps on one `state` concatenate to `self(all codes)`, for any
        split (n >= 1). Each frame's samples are final when it is decoded. On Metal and CUDA the
        step is a compiled graph run on pieces of `STEP_SIZES` frames (see there).
        """
        self._check(codes)
        if state.caches is None:
            state.caches = self._make_caches(codes.shape[0])
        elif (batch := state.caches[0].state.shape[0]) != codes.shape[0]:
            raise InputError(f"this stream decodes batches of {batch}, got {codes.shape[0]}")
        pieces = (None if cpu_paths() else step_pieces(codes.shape[1])) or [codes.shape[1]]
        outputs, start = [], 0
        with mx.stream(decode_stream()):  # every step on one stream a thread: MLX keeps a trace per stream
            for n in pieces:
                audio, state.state = self._compiled_step(codes[:, start : start + n], state.state)
                outputs.append(audio)
                start += n
        state.frames += codes.shape[1]
        return outputs[0] if len(outputs) == 1 else mx.concatenate(outputs, axis=1)

    def warm(self, frames: Tuple[int, ...] = STEP_SIZES):
        """Trace the compiled step (Metal, CUDA) for one stream's pieces of `frames` frames (every piece `step`
        cuts a chunk, a whole decode or an ICL reference into), on this thread's decode stream, where every
        step runs: MLX keeps a compiled function's traces per stream, so each thread that decodes warms its
        own. Nothing on the CPU, where the step is not compiled."""
        if cpu_paths():
            return
        for n in frames:
            state = self.make_state(1)
            mx.eval(self.step(mx.zeros((1, n, self.args.num_quantizers), mx.int32), state), state.state)

    def step_streams(self, codes: mx.array, states: List[DecoderState]) -> mx.array:
        """`step` for several one-item streams, each on its own state and at its own position: codes
        (S, n, num_quantizers), states[s] for stream s -> audio (S, n * 1920). Each stream is stepped alone
        (a batch of one), so its samples are bit for bit those it gets decoded by itself, beside any other
        streams: a batched step's matmuls and convolutions change their kernels and summation order with the
        batch (on MLX's CPU backend with OpenBLAS, a few LSB of 16-bit audio), and a seed promises the
        same samples wherever a request runs (docs/python.md). It also leaves one compiled step per piece
        length, batch size 1, for the warm-up to trace."""
        if len(states) == 1:
            return self.step(codes, states[0])
        return mx.concatenate([self.step(codes[i : i + 1], state) for i, state in enumerate(states)])

    def decode_chunks(self, codes: mx.array, lengths: Iterable[int], ref_codes: Optional[mx.array] = None) -> mx.array:
        """One stream's codes (T, num_quantizers) decoded as a stream decodes them: its state primed with ICL
        reference codes (their audio dropped), then steps of `lengths` frames (the last one cut to what is
        left), so that the whole audio and the streamed chunks are the same samples. Returns (T * 1920,)."""
        state, outputs, start = self.make_state(1), [], 0
        if ref_codes is not None:
            mx.eval(self.step(ref_codes.astype(mx.int32)[None], state), state.state)
        lengths = iter(lengths)
        while start < codes.shape[0]:
            n = min(next(lengths), codes.shape[0] - start)
            audio = self.step(codes[None, start : start + n], state)
            mx.eval(audio, state.state)
            outputs.append(audio[0])
            start += n
        return mx.concatenate(outputs) if outputs else mx.zeros((0,))

    @cached_property
    def _compiled_step(self):
        scratch = self.make_state(1)  # holds the traced arrays while tracing

        def step(codes, tree):
            scratch.state = tree
            audio = self._forward(codes, scratch.caches)
            return audio, scratch.state

        return compile_on_gpu(step)

    def _check(self, codes: mx.array):
        if codes.ndim != 3 or codes.shape[-1] != self.args.num_quantizers:
            raise InputError(f"expected codes (B, T, {self.args.num_quantizers}), got shape {codes.shape}")

    def _forward(self, codes: mx.array, caches: Optional[list]) -> mx.array:
        *modules, last = self._streamed()
        *caches, last_cache = caches or [None] * (len(modules) + 1)
        x = self.quantizer.decode(codes)
        for module, cache in zip(modules, caches):
            x = module(x, cache)
        x = last(self.decoder[-2](x), last_cache)
        return mx.clip(x[..., 0], -1.0, 1.0)

    def decode(self, codes: mx.array, chunk_size: int = 300, left_context: Optional[int] = None) -> List[mx.array]:
        """`Qwen3TTSTokenizerV2Model.decode`: codes (B, T, num_quantizers), -1 marking padding.

        Item b yields 1920 * (number of frames whose codebook 0 is > -1) samples; padding decodes as
        code 0 and is cut off. The codes go through `step` `chunk_size` frames at a time: memory
        stays bounded and the result equals the one-shot `self(codes)`. With `left_context` set,
        each chunk is instead decoded from scratch after that many earlier frames, as upstream
        does (qwen-tts 0.1.1: chunk_size=300, left_context=25).
        """
        self._check(codes)
        padding = codes[..., :1] == -1
        if not mx.all(padding | ((codes >= 0) & (codes < self.args.codebook_size))).item():
            raise InputError(f"codes must be in 0..{self.args.codebook_size - 1} (-1 in codebook 0 marks padding)")
        lengths = ((codes[..., 0] > -1).sum(axis=1) * self.hop_length).tolist()
        codes = mx.maximum(codes, 0)
        state = self.make_state(codes.shape[0])
        chunks = [mx.zeros((codes.shape[0], 0))]
        for start in range(0, codes.shape[1], chunk_size):
            if left_context is None:
                audio = self.step(codes[:, start : start + chunk_size], state)
            else:
                context = min(start, left_context)
                audio = self(codes[:, start - context : start + chunk_size])[:, context * self.hop_length :]
            mx.eval(audio, state.state)
            chunks.append(audio)
        audio = mx.concatenate(chunks, axis=1)
        return [audio[b, :n] for b, n in enumerate(lengths)]

    def sanitize(self, weights: dict) -> dict:
        """Speech-tokenizer checkpoint tensors -> this module's parameters: the `decoder.*` tensors
        without the prefix, less `UNUSED_KEYS`. The released torch layout (told by its
        `_codebook.embedding_sum` keys) is converted: codebooks become
        `embedding_sum / clamp(cluster_usage, 1e-5)`, Conv1d kernels go from (out, in, k) and
        ConvTranspose1d kernels from (in, out, k) to (out, k, in). Converted weights pass unchanged.
        """
        weights = {k[len(PREFIX):]: v for k, v in weights.items() if k.startswith(PREFIX)}
        for key in UNUSED_KEYS:
            weights.pop(key, None)
        torch_codebooks = [k for k in weights if k.endswith("._codebook.embedding_sum")]
        if not torch_codebooks:
            return weights
        for key in torch_codebooks:
            base = key[: -len("._codebook.embedding_sum")]
            usage_key = f"{base}._codebook.cluster_usage"
            if usage_key not in weights:
                raise ModelLoadError(f"codec decoder checkpoint: {PREFIX}{usage_key} is missing")
            usage = mx.maximum(weights.pop(usage_key), CODEBOOK_EPS)
            weights[f"{base}.codebook"] = weights.pop(key) / usage[:, None]
        axes = {nn.Conv1d: (0, 2, 1), nn.ConvTranspose1d: (1, 2, 0)}
        for path, module in self.named_modules():
            if type(module) in axes and f"{path}.weight" in weights:
                weights[f"{path}.weight"] = weights[f"{path}.weight"].transpose(axes[type(module)])
        return weights
