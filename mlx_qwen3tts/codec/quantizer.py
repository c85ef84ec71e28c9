"""Decoding side of the codec's split residual vector quantizer (codes -> latent frames).

Reference: `SplitResidualVectorQuantizer.decode` and the classes it uses in
qwen_tts/core/tokenizer_12hz/modeling_qwen3_tts_tokenizer_v2.py: codebook 0 (semantic) goes
through `rvq_first`, codebooks 1.. (acoustic) through `rvq_rest`; each sums its codewords and
applies a bias-free 1x1 conv (`output_proj`); the two results are added. Each codeword table is
`embedding_sum / clamp(cluster_usage, 1e-5)`, computed once by `CodecDecoder.sanitize` and stored
as `vq.layers.{i}.codebook`. The encoder-side `input_proj` weights are not used here.
"""

import mlx.core as mx
import mlx.nn as nn


class ResidualVectorQuantizer(nn.Module):
    def __init__(self, num_quantizers: int, codebook_size: int, dim: int, output_dim: int):
        super().__init__()
        # Nested as the checkpoint's `vq.layers.{i}.codebook`.
        self.vq = {"layers": [{"codebook": mx.zeros((codebook_size, dim))} for _ in range(num_quantizers)]}
        self.output_proj = nn.Conv1d(dim, output_dim, 1, bias=False)

    def decode(self, codes: mx.array) -> mx.array:
        """codes (B, T, num_quantizers) -> (B, T, output_dim)."""
        quantized = sum(layer["codebook"][codes[..., i]] for i, layer in enumerate(self.vq["layers"]))
        return self.output_proj(quantized)


class SplitResidualVectorQuantizer(nn.Module):
    def __init__(self, num_quantizers: int, codebook_size: int, dim: int, output_dim: int):
        super().__init__()
        self.rvq_first = ResidualVectorQuantizer(1, codebook_size, dim, output_dim)
        self.rvq_rest = ResidualVectorQuantizer(num_quantizers - 1, codebook_size, dim, output_dim)

    def decode(self, codes: mx.array) -> mx.array:
        """codes (B, T, num_quantizers) ints in [0, codebook_size) -> latent frames (B, T, output_dim)."""
        return self.rvq_first.decode(codes[..., :1]) + self.rvq_rest.decode(codes[..., 1:])
