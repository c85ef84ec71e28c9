"""Qwen3-ForcedAligner: the Qwen3-ASR thinker with a head of timestamp classes, in one pass.

Reference: qwen-asr 0.0.6 `Qwen3ASRThinkerForConditionalGeneration` with a `qwen3_forced_aligner`
thinker config: the audio encoder's outputs replace the `<|audio_pad|>` embeddings, a Qwen3 decoder
(causal, q/k RMSNorm, rotate-half RoPE: the interleaved MRoPE of upstream reduces to it, since a
single clip's three position sections are equal) runs the whole prompt once, and `lm_head` gives
`classify_num` logits per position; the class picked at a `<timestamp>` slot times
`timestamp_segment_time` (ms) is that slot's time. Module names mirror the checkpoint
(`thinker.audio_tower.*`, `thinker.model.*`, `thinker.lm_head`).
"""

from dataclasses import dataclass

import mlx.core as mx
import mlx.nn as nn

from ..model.transformer import BlockArgs, TransformerBlock
from .encoder import AudioEncoder, EncoderConfig


@dataclass
class AlignerConfig:
    encoder: EncoderConfig
    decoder: BlockArgs
    vocab_size: int
    num_hidden_layers: int
    classify_num: int
    audio_token_id: int
    timestamp_token_id: int
    timestamp_segment_time: float
    support_languages: tuple

    @classmethod
    def from_dict(cls, params: dict) -> "AlignerConfig":
        thinker = params["thinker_config"]
        text = thinker["text_config"]
        decoder = BlockArgs(
            hidden_size=text["hidden_size"], intermediate_size=text["intermediate_size"],
            num_attention_heads=text["num_attention_heads"], num_key_value_heads=text["num_key_value_heads"],
            head_dim=text.get("head_dim", text["hidden_size"] // text["num_attention_heads"]),
            rope_theta=float(text.get("rope_theta", 5000000.0)), rms_norm_eps=float(text.get("rms_norm_eps", 1e-6)),
            attention_bias=bool(text.get("attention_bias", False)))
        return cls(encoder=EncoderConfig.from_dict(thinker.get("audio_config", {})), decoder=decoder,
                   vocab_size=text["vocab_size"], num_hidden_layers=text["num_hidden_layers"],
                   classify_num=thinker["classify_num"], audio_token_id=thinker.get("audio_token_id", 151676),
                   timestamp_token_id=params["timestamp_token_id"],
                   timestamp_segment_time=float(params["timestamp_segment_time"]),
                   support_languages=tuple(params.get("support_languages") or ()))


class TextModel(nn.Module):
    def __init__(self, cfg: AlignerConfig):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.decoder.hidden_size)
        self.layers = [TransformerBlock(cfg.decoder) for _ in range(cfg.num_hidden_layers)]
        self.norm = nn.RMSNorm(cfg.decoder.hidden_size, eps=cfg.decoder.rms_norm_eps)

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x, mask="causal")
        return self.norm(x)


class Thinker(nn.Module):
    def __init__(self, cfg: AlignerConfig):
        super().__init__()
        self.audio_tower = AudioEncoder(cfg.encoder)
        self.model = TextModel(cfg)
        self.lm_head = nn.Linear(cfg.decoder.hidden_size, cfg.classify_num, bias=False)


class ForcedAligner(nn.Module):
    def __init__(self, cfg: AlignerConfig):
        super().__init__()
        self.cfg = cfg
        self.thinker = Thinker(cfg)

    def audio_features(self, mel: mx.array) -> mx.array:
        """(outputs, hidden) encoder outputs of one clip's log-mel (mel bins, frames)."""
        return self.thinker.audio_tower(mel)

    def __call__(self, input_ids: mx.array, mel: mx.array) -> mx.array:
        """(positions, classify_num) logits of one prompt's ids (positions,) with its clip's log-mel."""
        x = self.thinker.model.embed_tokens(input_ids)
        audio = self.audio_features(mel).astype(x.dtype)
        where = mx.cumsum((input_ids == self.cfg.audio_token_id).astype(mx.int32)) - 1
        is_audio = (input_ids == self.cfg.audio_token_id)[:, None]
        x = mx.where(is_audio, audio[mx.clip(where, 0, audio.shape[0] - 1)], x)
        return self.thinker.lm_head(self.thinker.model(x[None])[0])

    @staticmethod
    def sanitize(weights: dict) -> dict:
        """Released (PyTorch) weights for this module: names as they are; the convolutions' (out, in, kh, kw)
        as MLX's (out, kh, kw, in)."""
        convs = {f"thinker.audio_tower.conv2d{i}.weight" for i in (1, 2, 3)}
        return {k: v.transpose(0, 2, 3, 1) if k in convs else v for k, v in weights.items()}
