"""Qwen3-ForcedAligner: the Qwen3-ASR thinker (`..thinker`) with a head of timestamp classes, in one pass.

Reference: qwen-asr 0.0.6 `Qwen3ASRThinkerForConditionalGeneration` with a `qwen3_forced_aligner` thinker
config: the whole prompt runs once, and `lm_head` gives `classify_num` logits per position; the class picked
at a `<timestamp>` slot times `timestamp_segment_time` (ms) is that slot's time.
"""

from dataclasses import dataclass

import mlx.core as mx
import mlx.nn as nn

from ..thinker.model import Thinker, ThinkerConfig, sanitize


@dataclass
class AlignerConfig(ThinkerConfig):
    classify_num: int = 5000
    timestamp_token_id: int = 151705
    timestamp_segment_time: float = 80.0
    support_languages: tuple = ()

    @classmethod
    def from_dict(cls, params: dict) -> "AlignerConfig":
        thinker = params["thinker_config"]
        base = ThinkerConfig.from_dict(thinker, head_size=thinker["classify_num"])
        return cls(**vars(base), classify_num=thinker["classify_num"],
                   timestamp_token_id=params["timestamp_token_id"],
                   timestamp_segment_time=float(params["timestamp_segment_time"]),
                   support_languages=tuple(params.get("support_languages") or ()))


class ForcedAligner(nn.Module):
    def __init__(self, cfg: AlignerConfig):
        super().__init__()
        self.cfg = cfg
        self.thinker = Thinker(cfg)

    def audio_features(self, mel: mx.array) -> mx.array:
        """(outputs, hidden) encoder outputs of one clip's log-mel (mel bins, frames)."""
        return self.thinker.audio_tower(mel)

    def __call__(self, input_ids: mx.array, mel: mx.array, rows=None) -> mx.array:
        """(positions, classify_num) logits of one prompt's ids (positions,) with its clip's log-mel; of the
        positions `rows` only where given (the `<timestamp>` slots, a quarter of a prompt's positions: the head
        over the others, about 1% of the pass's work, is not computed)."""
        x = self.thinker.embed(input_ids, mel)
        hidden = self.thinker.model(x[None])[0]
        return self.thinker.head(hidden if rows is None else hidden[rows])

    @staticmethod
    def sanitize(weights: dict) -> dict:
        return sanitize(weights)
