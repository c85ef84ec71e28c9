"""The code predictor ("sub-talker"): codebooks 1..15 of a frame from the talker's hidden state.

Reference: `Qwen3TTSTalkerCodePredictorModelForConditionalGeneration` in qwen_tts 0.1.1. Per frame it
starts from a fresh cache with the 2-position input [talker hidden, codec_embedding(c0)], then
feeds back one codebook embedding per step; step s uses `lm_head[s]`. The 1.7B models project the
talker width down with `small_to_mtp_projection` (absent when the widths agree).
"""

from typing import Callable

import mlx.core as mx
import mlx.nn as nn

from .cache import ConcatKVCache
from .config import CodePredictorConfig
from .transformer import Decoder, FusedLinear, apply


class CodePredictorModel(Decoder):
    def __init__(self, cfg: CodePredictorConfig, embedding_dim: int):
        super().__init__(cfg)
        self.codec_embedding = [nn.Embedding(cfg.vocab_size, embedding_dim) for _ in range(cfg.num_code_groups - 1)]


class CodePredictor(nn.Module):
    heads = projection = None  # FusedLinear of each lm_head and of small_to_mtp_projection, from fuse()
    angles = None  # the RoPE angles of each pass's positions (transformer.Attention.angles), from fuse()

    def __init__(self, cfg: CodePredictorConfig, talker_hidden_size: int):
        super().__init__()
        self.model = CodePredictorModel(cfg, talker_hidden_size)
        self.lm_head = [nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False) for _ in range(cfg.num_code_groups - 1)]
        if cfg.hidden_size != talker_hidden_size:
            self.small_to_mtp_projection = nn.Linear(talker_hidden_size, cfg.hidden_size, bias=True)

    def fuse(self):
        self.model.fuse()
        object.__setattr__(self, "heads", [FusedLinear.of([head]) for head in self.lm_head])  # not a child module
        if "small_to_mtp_projection" in self:
            self.projection = FusedLinear.of([self.small_to_mtp_projection])
        # Pass 0 reads 2 positions, pass s one at position s + 1: the same every frame, so made once.
        attn = self.model.layers[0].self_attn
        angles = [attn.angles(1, 2, 0)] + [attn.angles(1, 1, s + 1) for s in range(1, len(self.lm_head))]
        mx.eval(angles)
        object.__setattr__(self, "angles", angles)

    def project(self, x):
        if "small_to_mtp_projection" not in self:
            return x
        B, L, H = x.shape
        return apply(self.projection, [self.small_to_mtp_projection], x.reshape(B * L, H))[0].reshape(B, L, -1)

    def head(self, step: int, h):
        """Logits (B, vocab) of codebook step + 1 from the hidden state h (B, H)."""
        return apply(self.heads[step] if self.heads else None, [self.lm_head[step]], h)[0]

    def predict(self, hidden, c0_embedding, sample: Callable):
        """Codebooks 1..15 for one frame, built lazily.

        hidden: (B, 1, H) talker output; c0_embedding: (B, 1, H) talker codec embedding of c0;
        sample(logits, step) -> (B,) ids. Returns the codes (B, 15) and the sum of their input
        embeddings (B, 1, H), which the talker adds to form its next input.
        """
        cache = [ConcatKVCache() for _ in self.model.layers]
        x = mx.concatenate([hidden, c0_embedding], axis=1)
        codes, embed_sum = [], None
        for step in range(len(self.lm_head)):
            h = self.model(self.project(x), cache, angles=self.angles[step] if self.angles else None)
            code = sample(self.head(step, h[:, -1]), step)
            codes.append(code)
            x = self.model.codec_embedding[step](code)[:, None]
            embed_sum = x if embed_sum is None else embed_sum + x
        return mx.stack(codes, axis=1), embed_sum
