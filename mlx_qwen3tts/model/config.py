"""Configuration of a Qwen3-TTS checkpoint, read from its config.json as released, and the facts
about a loaded model that requests are checked against (`ModelFacts`).

Unknown keys are ignored; token ids, languages and speakers always come from the file.
"""

import re
from dataclasses import dataclass, field
from typing import Optional

from mlx_lm.models.base import BaseModelArgs

from ..errors import ModelLoadError
from .sampling_config import SamplingConfig

VARIANTS = ("base", "custom_voice", "voice_design")
VARIANT_NAMES = {"base": "Base", "custom_voice": "CustomVoice", "voice_design": "VoiceDesign"}  # as in the model ids


def size_name(size) -> str:
    """A size as users and the model ids write it: config.json's '0b6' is '0.6B'."""
    return f"{size.replace('b', '.')}B" if isinstance(size, str) and re.fullmatch(r"\d+b\d+", size) else str(size)


def model_id(variant: str, size: str) -> str:
    """The hub id of the released model of this variant and size (Qwen/Qwen3-TTS-12Hz-0.6B-Base)."""
    return f"Qwen/Qwen3-TTS-12Hz-{size_name(size)}-{VARIANT_NAMES.get(variant, variant)}"


# The released models: Base and CustomVoice at both sizes, VoiceDesign at 1.7B only.
RELEASED = tuple(model_id(v, s) for v, s in (("custom_voice", "0b6"), ("custom_voice", "1b7"), ("base", "0b6"),
                                              ("base", "1b7"), ("voice_design", "1b7")))


@dataclass
class TransformerConfig(BaseModelArgs):
    """The fields the talker and the code predictor share (defaults: the released models)."""

    hidden_size: int = 1024
    intermediate_size: int = 3072
    num_attention_heads: int = 16
    num_key_value_heads: int = 8
    rms_norm_eps: float = 1e-6
    rope_theta: float = 1e6
    num_code_groups: int = 16


@dataclass
class CodePredictorConfig(TransformerConfig):
    vocab_size: int = 2048
    num_hidden_layers: int = 5
    head_dim: int = 128


@dataclass
class TalkerConfig(TransformerConfig):
    vocab_size: int = 3072
    num_hidden_layers: int = 28
    head_dim: Optional[int] = None
    text_hidden_size: int = 2048
    text_vocab_size: int = 151936
    codec_eos_token_id: int = 2150
    codec_think_id: int = 2154
    codec_nothink_id: int = 2155
    codec_think_bos_id: int = 2156
    codec_think_eos_id: int = 2157
    codec_pad_id: int = 2148
    codec_bos_id: int = 2149
    codec_language_id: dict = field(default_factory=dict)
    spk_id: dict = field(default_factory=dict)
    spk_is_dialect: dict = field(default_factory=dict)
    code_predictor_config: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.head_dim is None:
            self.head_dim = self.hidden_size // self.num_attention_heads
        if isinstance(self.code_predictor_config, dict):
            self.code_predictor_config = CodePredictorConfig.from_dict(self.code_predictor_config)


@dataclass
class ModelConfig(BaseModelArgs):
    tts_model_type: str = "base"
    tts_model_size: str = "0b6"
    tokenizer_type: str = "qwen3_tts_tokenizer_12hz"
    im_start_token_id: int = 151644
    im_end_token_id: int = 151645
    tts_pad_token_id: int = 151671
    tts_bos_token_id: int = 151672
    tts_eos_token_id: int = 151673
    talker_config: dict = field(default_factory=dict)
    speaker_encoder_config: Optional[dict] = None
    quantization: Optional[dict] = None

    def __post_init__(self):
        if isinstance(self.talker_config, dict):
            self.talker_config = TalkerConfig.from_dict(self.talker_config)

    @classmethod
    def from_json_dict(cls, params: dict, source: str = "config.json") -> "ModelConfig":
        if params.get("model_type") != "qwen3_tts":
            raise ModelLoadError(f"{source} describes a '{params.get('model_type')}' model, not Qwen3-TTS "
                                 "(model_type 'qwen3_tts')")
        if params.get("tokenizer_type", "qwen3_tts_tokenizer_12hz") != "qwen3_tts_tokenizer_12hz":
            raise ModelLoadError(f"{source}: only the 12 Hz Qwen3-TTS models are supported, not "
                                 f"{params['tokenizer_type']}")
        if params.get("tts_model_type") not in VARIANTS:
            raise ModelLoadError(f"{source}: unknown tts_model_type {params.get('tts_model_type')!r} "
                                 f"(expected one of {', '.join(VARIANTS)})")
        if "talker_config" not in params:
            raise ModelLoadError(f"{source} has no talker_config: not a Qwen3-TTS checkpoint")
        return cls.from_dict(params)

    @property
    def languages(self) -> list:
        """User-facing languages: 'auto' plus every non-dialect language id in the config."""
        return ["auto"] + [name for name in self.talker_config.codec_language_id if "dialect" not in name]

    @property
    def speakers(self) -> list:
        return list(self.talker_config.spk_id)


@dataclass(frozen=True)
class ModelFacts:
    """What requests are checked against, read once at load: the variant and size, the languages and
    preset speakers, the frame cap and sampling defaults of generation_config.json, and the sizes a
    saved voice or a code array must have."""

    variant: str
    size: str
    languages: tuple  # the model's language names, "auto" first
    speakers: tuple  # preset speakers, lower case (CustomVoice)
    max_new_tokens: int
    sampling: SamplingConfig  # generation_config.json's defaults
    codebook_size: int
    code_groups: int
    hidden_size: int

    @classmethod
    def read(cls, config: ModelConfig, generation_config: dict, codebook_size: int) -> "ModelFacts":
        tc = config.talker_config
        return cls(variant=config.tts_model_type, size=config.tts_model_size, languages=tuple(config.languages),
                   speakers=tuple(name.lower() for name in config.speakers),
                   max_new_tokens=int(generation_config.get("max_new_tokens", 8192)),
                   sampling=SamplingConfig.from_generation_config(generation_config), codebook_size=codebook_size,
                   code_groups=tc.num_code_groups, hidden_size=tc.hidden_size)

    @property
    def default_speaker(self) -> Optional[str]:
        """CustomVoice needs a speaker; without one we use Ryan (English), else the first listed."""
        if self.variant != "custom_voice" or not self.speakers:
            return None
        return "ryan" if "ryan" in self.speakers else self.speakers[0]

    @property
    def name(self) -> str:
        """The model as users call it: '0.6B CustomVoice'."""
        return f"{size_name(self.size)} {VARIANT_NAMES.get(self.variant, self.variant)}"

    @property
    def default_text_mode(self) -> str:
        """Upstream's text layout: streaming for Base models, non-streaming for the others."""
        return "streaming" if self.variant == "base" else "non-streaming"
