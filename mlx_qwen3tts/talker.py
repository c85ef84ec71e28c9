"""The Qwen3-TTS talker: a Qwen3 decoder over summed text and codec embeddings.

Reference: `Qwen3TTSTalkerForConditionalGeneration` / `Qwen3TTSTalkerModel` in qwen_tts 0.1.1.
Its MRoPE has identical temporal/height/width positions for this text-only use, so it is plain
rotate-half RoPE. Module names follow the checkpoint (`talker.model.layers.N...`,
`talker.text_projection.linear_fc1`, `talker.codec_head`, `talker.code_predictor...`).
"""

import math
from functools import cached_property

import mlx.core as mx
import mlx.nn as nn
from mlx_lm.models.cache import KVCache

from .code_predictor import CodePredictor
from .config import ModelConfig, TalkerConfig
from .transformer import BlockArgs, StaticKVCache, TransformerBlock, attention_mask


class TextProjection(nn.Module):
    def __init__(self, text_hidden: int, hidden: int):
        super().__init__()
        self.linear_fc1 = nn.Linear(text_hidden, text_hidden, bias=True)
        self.linear_fc2 = nn.Linear(text_hidden, hidden, bias=True)

    def __call__(self, x):
        return self.linear_fc2(nn.silu(self.linear_fc1(x)))


class TalkerModel(nn.Module):
    def __init__(self, cfg: TalkerConfig):
        super().__init__()
        self.layers = [TransformerBlock(BlockArgs.of(cfg)) for _ in range(cfg.num_hidden_layers)]
        self.norm = nn.RMSNorm(cfg.hidden_size, eps=cfg.rms_norm_eps)
        self.codec_embedding = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.text_embedding = nn.Embedding(cfg.text_vocab_size, cfg.text_hidden_size)

    def __call__(self, x, cache, mask=None):
        if mask is None:
            mask = attention_mask(x.shape[1], cache[0])
        for layer, c in zip(self.layers, cache):
            x = layer(x, mask, c)
        return self.norm(x)


class Talker(nn.Module):
    def __init__(self, cfg: TalkerConfig):
        super().__init__()
        self.model = TalkerModel(cfg)
        self.text_projection = TextProjection(cfg.text_hidden_size, cfg.hidden_size)
        self.codec_head = nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False)
        self.code_predictor = CodePredictor(cfg.code_predictor_config, cfg.hidden_size)
        self.num_layers = cfg.num_hidden_layers

    def text_embed(self, ids):
        return self.text_projection(self.model.text_embedding(ids))

    def codec_embed(self, ids):
        return self.model.codec_embedding(ids)

    def make_cache(self):
        """Growing KV caches for eager, one-sequence use (the decode loop uses `TalkerRunner`)."""
        return [KVCache() for _ in range(self.num_layers)]

    def __call__(self, x, cache, mask=None):
        """x: (B, L, H) input embeddings -> (codebook-0 logits at the last position, last hidden)."""
        h = self.model(x, cache, mask)[:, -1:]
        return self.codec_head(h[:, 0]), h

    def static_step(self, x, index, left_padding, keys, values):
        """The forward over static-shape caches given as arrays; returns their updated arrays."""
        cache = [StaticKVCache(k, v, index, left_padding) for k, v in zip(keys, values)]
        logits, hidden = self(x, cache)
        return logits, hidden, [c.keys for c in cache], [c.values for c in cache]

    @cached_property
    def compiled_step(self):
        """`static_step` compiled, for one-position steps (traced again as the caches grow)."""
        return mx.compile(self.static_step)


class TalkerRunner:
    """The talker over a growing (batch of) sequence(s), with static-shape KV caches.

    The prefill runs eagerly; each later one-position step is one compiled graph, traced again
    only when the cache capacity grows (every `GROW` positions). Left-padded batch rows get
    positions that start after their pads, as upstream's attention mask gives them.
    """

    GROW = 256

    def __init__(self, talker: Talker, batch: int = 1, left_padding=None):
        self.talker = talker
        self.left_padding = mx.array(left_padding or [0] * batch, dtype=mx.int32)
        attn = talker.model.layers[0].self_attn
        self.shape = (batch, attn.n_kv_heads, 0, attn.head_dim)
        self.dtype = talker.model.norm.weight.dtype
        self.keys = self.values = None
        self.length = 0

    def _reserve(self, length: int):
        capacity = 0 if self.keys is None else self.keys[0].shape[2]
        if length <= capacity:
            return
        extra = math.ceil(length / self.GROW) * self.GROW - capacity
        zeros = mx.zeros(self.shape[:2] + (extra, self.shape[3]), dtype=self.dtype)
        if self.keys is None:
            self.keys = [zeros] * self.talker.num_layers
            self.values = [zeros] * self.talker.num_layers
        else:
            self.keys = [mx.concatenate([k, zeros], axis=2) for k in self.keys]
            self.values = [mx.concatenate([v, zeros], axis=2) for v in self.values]

    def __call__(self, x):
        """x: (B, L, H) -> (codebook-0 logits (B, V), last hidden (B, 1, H))."""
        self._reserve(self.length + x.shape[1])
        step = self.talker.compiled_step if x.shape[1] == 1 else self.talker.static_step
        index = mx.array(self.length, dtype=mx.int32)
        logits, hidden, self.keys, self.values = step(x, index, self.left_padding, self.keys, self.values)
        self.length += x.shape[1]
        return logits, hidden


class Qwen3TTSModel(nn.Module):
    """Everything in model.safetensors: the talker and, for Base checkpoints, the speaker encoder."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.talker = Talker(config.talker_config)
        if config.tts_model_type == "base" and config.speaker_encoder_config is not None:
            from .speaker_encoder import SpeakerEncoder

            self.speaker_encoder = SpeakerEncoder(config.speaker_encoder_config)

    @staticmethod
    def sanitize(weights: dict) -> dict:
        out = {k: v for k, v in weights.items() if not k.startswith("speaker_encoder.")}
        speaker = {k: v for k, v in weights.items() if k.startswith("speaker_encoder.")}
        if speaker:
            from .speaker_encoder import sanitize as speaker_sanitize

            out.update({"speaker_encoder." + k: v for k, v in speaker_sanitize(speaker).items()})
        return out
