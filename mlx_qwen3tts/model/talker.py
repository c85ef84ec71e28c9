"""The Qwen3-TTS talker: a Qwen3 decoder over summed text and codec embeddings.

Reference: `Qwen3TTSTalkerForConditionalGeneration` / `Qwen3TTSTalkerModel` in qwen_tts 0.1.1.
Its MRoPE has identical temporal/height/width positions for this text-only use, so it is plain
rotate-half RoPE. Module names follow the checkpoint (`talker.model.layers.N...`,
`talker.text_projection.linear_fc1`, `talker.codec_head`, `talker.code_predictor...`).
"""

import mlx.core as mx
import mlx.nn as nn
from mlx_lm.models.cache import KVCache

from .code_predictor import CodePredictor
from .config import ModelConfig, TalkerConfig
from .speaker_encoder import SpeakerEncoder
from .speaker_encoder import sanitize as speaker_sanitize
from .transformer import Decoder, FusedLinear, apply


class TextProjection(nn.Module):
    def __init__(self, text_hidden: int, hidden: int):
        super().__init__()
        self.linear_fc1 = nn.Linear(text_hidden, text_hidden, bias=True)
        self.linear_fc2 = nn.Linear(text_hidden, hidden, bias=True)

    def __call__(self, x):
        return self.linear_fc2(nn.silu(self.linear_fc1(x)))


class TalkerModel(Decoder):
    def __init__(self, cfg: TalkerConfig):
        super().__init__(cfg)
        self.codec_embedding = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.text_embedding = nn.Embedding(cfg.text_vocab_size, cfg.text_hidden_size)


class Talker(nn.Module):
    head = None  # FusedLinear of codec_head, from fuse()

    def __init__(self, cfg: TalkerConfig):
        super().__init__()
        self.model = TalkerModel(cfg)
        self.text_projection = TextProjection(cfg.text_hidden_size, cfg.hidden_size)
        self.codec_head = nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False)
        self.code_predictor = CodePredictor(cfg.code_predictor_config, cfg.hidden_size)

    def text_embed(self, ids):
        """Text-track vectors (n, H) of a sequence of token ids."""
        return self.text_projection(self.model.text_embedding(mx.array(list(ids))))

    def codec_embed(self, ids):
        return self.model.codec_embedding(ids)

    def fuse(self):
        """Fused q/k/v and gate/up projections in the talker and the code predictor (transformer.FusedLinear):
        made once, after the weights are loaded; the checkpoint's names and parameters stay as they are."""
        self.model.fuse()
        self.head = FusedLinear.of([self.codec_head])
        self.code_predictor.fuse()

    def make_cache(self):
        """Growing KV caches for one sequence (the prefill; the decode loop steps on `RowKVCache`s)."""
        return [KVCache() for _ in self.model.layers]

    def __call__(self, x, cache, stages=None):
        """x: (B, L, H) input embeddings -> (codebook-0 logits at the last position, last hidden);
        `stages`: the layers' stages to use (see `Decoder`)."""
        h = self.model(x, cache, stages)[:, -1:]
        return apply(self.head, [self.codec_head], h[:, 0])[0], h


class Qwen3TTSModel(nn.Module):
    """Everything in model.safetensors: the talker and, for Base checkpoints, the speaker encoder; other
    checkpoints hold one where they keep it (`speaker_encoder=True`: a fine-tuned CustomVoice export does)."""

    def __init__(self, config: ModelConfig, speaker_encoder: bool = False):
        super().__init__()
        self.config = config
        self.talker = Talker(config.talker_config)
        if (speaker_encoder or config.tts_model_type == "base") and config.speaker_encoder_config is not None:
            self.speaker_encoder = SpeakerEncoder(config.speaker_encoder_config)

    @staticmethod
    def sanitize(weights: dict) -> dict:
        out = {k: v for k, v in weights.items() if not k.startswith("speaker_encoder.")}
        speaker = {k: v for k, v in weights.items() if k.startswith("speaker_encoder.")}
        if speaker:
            out.update({"speaker_encoder." + k: v for k, v in speaker_sanitize(speaker).items()})
        return out
