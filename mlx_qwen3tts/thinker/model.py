"""The Qwen3-ASR thinker: audio encoder and Qwen3 decoder, with the head of either model.

Reference: qwen-asr 0.0.6 `Qwen3ASRThinkerForConditionalGeneration`. The audio encoder's outputs replace the
`<|audio_pad|>` embeddings of the prompt; a Qwen3 decoder (causal, q/k RMSNorm, rotate-half RoPE: the
interleaved MRoPE of upstream reduces to it, since a single clip's three position sections are equal) runs
over them; `lm_head` reads its final norm. The head is the model's: `classify_num` timestamp classes for
Qwen3-ForcedAligner (one pass, `aligner`), the text vocabulary for Qwen3-ASR (greedy decoding with a KV
cache, `asr`). Module names mirror the checkpoints (`thinker.audio_tower.*`, `thinker.model.*`,
`thinker.lm_head`).
"""

from dataclasses import dataclass

import mlx.core as mx
import mlx.nn as nn

from ..model.transformer import BlockArgs, TransformerBlock
from .encoder import AudioEncoder, EncoderConfig

AUDIO_PAD = 151676  # <|audio_pad|>, where a config does not name it


@dataclass
class ThinkerConfig:
    encoder: EncoderConfig
    decoder: BlockArgs
    vocab_size: int
    num_hidden_layers: int
    head_size: int  # lm_head's outputs: classify_num (aligner) or vocab_size (recognizer)
    audio_token_id: int
    tie_word_embeddings: bool = False

    @classmethod
    def from_dict(cls, thinker: dict, head_size=None) -> "ThinkerConfig":
        """From a checkpoint's `thinker_config`; `head_size` defaults to the text vocabulary."""
        text = thinker["text_config"]
        decoder = BlockArgs(
            hidden_size=text["hidden_size"], intermediate_size=text["intermediate_size"],
            num_attention_heads=text["num_attention_heads"], num_key_value_heads=text["num_key_value_heads"],
            head_dim=text.get("head_dim", text["hidden_size"] // text["num_attention_heads"]),
            rope_theta=float(text.get("rope_theta", 5000000.0)), rms_norm_eps=float(text.get("rms_norm_eps", 1e-6)),
            attention_bias=bool(text.get("attention_bias", False)))
        return cls(encoder=EncoderConfig.from_dict(thinker.get("audio_config", {})), decoder=decoder,
                   vocab_size=text["vocab_size"], num_hidden_layers=text["num_hidden_layers"],
                   head_size=int(head_size or text["vocab_size"]),
                   audio_token_id=thinker.get("audio_token_id", AUDIO_PAD),
                   tie_word_embeddings=bool(text.get("tie_word_embeddings", False)))


class TextModel(nn.Module):
    def __init__(self, cfg: ThinkerConfig):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.decoder.hidden_size)
        self.layers = [TransformerBlock(cfg.decoder) for _ in range(cfg.num_hidden_layers)]
        self.norm = nn.RMSNorm(cfg.decoder.hidden_size, eps=cfg.decoder.rms_norm_eps)

    def __call__(self, x, cache=None):
        """The final-normed hidden states of embeddings x (B, L, hidden); `cache`: one KV cache per layer (then
        L > 1 is a prefill from the cache's offset, causal; L == 1 one step)."""
        mask = "causal" if x.shape[1] > 1 else None
        for i, layer in enumerate(self.layers):
            x = layer(x, mask=mask, cache=None if cache is None else cache[i])
        return self.norm(x)


class Thinker(nn.Module):
    def __init__(self, cfg: ThinkerConfig):
        super().__init__()
        self.cfg = cfg
        self.audio_tower = AudioEncoder(cfg.encoder)
        self.model = TextModel(cfg)
        if not cfg.tie_word_embeddings:
            self.lm_head = nn.Linear(cfg.decoder.hidden_size, cfg.head_size, bias=False)

    def head(self, h):
        """The head's logits of final hidden states h."""
        if self.cfg.tie_word_embeddings:
            return self.model.embed_tokens.as_linear(h)
        return self.lm_head(h)

    def embed(self, input_ids: mx.array, mel: mx.array) -> mx.array:
        """(positions, hidden) embeddings of one prompt's ids (positions,) with its clip's encoder outputs in
        place of the `<|audio_pad|>` ones (as many as the encoder gives, in order)."""
        x = self.model.embed_tokens(input_ids)
        audio = self.audio_tower(mel).astype(x.dtype)
        is_audio = input_ids == self.cfg.audio_token_id
        where = mx.cumsum(is_audio.astype(mx.int32)) - 1
        return mx.where(is_audio[:, None], audio[mx.clip(where, 0, audio.shape[0] - 1)], x)


def sanitize(weights: dict) -> dict:
    """Released (PyTorch) weights for the thinker: names as they are; the convolutions' (out, in, kh, kw) as
    MLX's (out, kh, kw, in). (A folder written by the converter is in MLX's layout already.)"""
    convs = {f"thinker.audio_tower.conv2d{i}.weight" for i in (1, 2, 3)}
    return {k: v.transpose(0, 2, 3, 1) if k in convs else v for k, v in weights.items()}
