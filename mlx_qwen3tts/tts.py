"""The loaded model bundle and its user-level API: text in, 24 kHz audio out.

`load(path_or_repo)` returns a `TTS`; `TTS.generate(...)` collects, `TTS.frames(...)` yields
codec frames as they are made. Defaults follow the official wrappers: CustomVoice and
VoiceDesign use the non-streaming text layout, Base (default voice and cloning) the streaming one.
"""

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

import mlx.core as mx
import numpy as np

from . import load as loading
from .errors import InputError
from .prompt import Voice, build_prompt
from .sampling import SamplingConfig
from .synthesis import Frame, LoopState, generate_frames
from .talker import Qwen3TTSModel
from .voices import VoiceCache

SAMPLE_RATE = 24000
SAMPLES_PER_FRAME = 1920
TEXT_MODES = ("streaming", "non-streaming")


@dataclass
class Result:
    audio: np.ndarray  # (samples,) float32 at 24 kHz; empty when decoding was skipped
    codes: np.ndarray  # (frames, 16) int32, EOS excluded
    sample_rate: int
    stopped_on_eos: bool
    state: LoopState


class TTS:
    def __init__(self, model, codec, tokenizer, generation_config: dict, path: Path):
        self.model = model
        self.config = model.config
        self.codec = codec
        self.tokenizer = tokenizer
        self.generation_config = generation_config
        self.sampling = SamplingConfig.from_generation_config(generation_config)
        self.path = path
        self.sample_rate = SAMPLE_RATE
        self.voice_cache = VoiceCache()

    @property
    def variant(self) -> str:
        return self.config.tts_model_type

    def default_text_mode(self) -> str:
        return "streaming" if self.variant == "base" else "non-streaming"

    def _check(self, text, speaker, instruct, text_mode, max_tokens):
        if text is None or not text.strip():
            raise InputError("the text is empty; give some text to speak")
        if text_mode not in TEXT_MODES:
            raise InputError(f"unknown text mode '{text_mode}'; choose streaming or non-streaming")
        if max_tokens is not None and max_tokens < 1:
            raise InputError(f"--max-tokens must be at least 1, got {max_tokens}")
        if self.variant == "custom_voice" and not speaker:
            speaker = self.default_speaker()
        if instruct and (self.variant == "base" or (self.variant == "custom_voice" and self.config.tts_model_size == "0b6")):
            what = "Base models" if self.variant == "base" else "the 0.6B CustomVoice model"
            warnings.warn(f"{what} ignore instructions (as upstream does); --instruct is not used", stacklevel=3)
            instruct = None
        return speaker, instruct or None

    def default_speaker(self) -> str:
        """CustomVoice needs a speaker; without one we use Ryan (English), else the first listed."""
        speakers = self.config.speakers
        if not speakers:
            raise InputError("this CustomVoice model lists no speakers in its config.json")
        return "ryan" if "ryan" in speakers else speakers[0]

    def frames(
        self,
        text: str,
        language: str = "auto",
        speaker: Optional[str] = None,
        instruct: Optional[str] = None,
        text_mode: Optional[str] = None,
        voice: Optional[Voice] = None,
        sampling: Optional[SamplingConfig] = None,
        max_tokens: Optional[int] = None,
        state: Optional[LoopState] = None,
        record_logits: bool = False,
    ) -> Iterator[Frame]:
        text_mode = text_mode or self.default_text_mode()
        speaker, instruct = self._check(text, speaker, instruct, text_mode, max_tokens)
        voice = voice or Voice()
        if speaker:
            voice = Voice(speaker=speaker)
        tok = self.tokenizer
        prompt = build_prompt(
            self.model.talker,
            self.config,
            tok.assistant_ids(text),
            voice=voice,
            language=language,
            instruct_ids=tok.instruct_ids(instruct) if instruct else None,
            streaming=text_mode == "streaming",
        )
        max_tokens = max_tokens or int(self.generation_config.get("max_new_tokens", 8192))
        return generate_frames(
            self.model.talker,
            prompt,
            sampling or self.sampling,
            max_tokens,
            self.config.talker_config.codec_eos_token_id,
            state=state,
            record_logits=record_logits,
        )

    def generate(self, text: str, seed: Optional[int] = None, decode: bool = True, progress=None, **kwargs) -> Result:
        """Synthesize `text`; keyword arguments as `frames`. Greedy with temperature=0."""
        sampling = self.sampling.override(
            **{k: kwargs.pop(k) for k in ("temperature", "top_k", "top_p", "repetition_penalty") if k in kwargs}
        )
        if seed is not None:
            mx.random.seed(seed)
        state = LoopState()
        voice = kwargs.get("voice")
        frames = []
        for frame in self.frames(text, sampling=sampling, state=state, **kwargs):
            frames.append(frame.codes)
            if progress is not None:
                progress(frame.index + 1)
        codes = mx.concatenate(frames) if frames else mx.zeros((0, 16), dtype=mx.int32)
        audio = np.zeros((0,), dtype=np.float32)
        if decode and codes.shape[0]:
            audio = self.decode(codes, ref_codes=voice.ref_codes if voice is not None else None)
        return Result(audio, np.array(codes), self.sample_rate, state.stopped_on_eos, state)

    def decode(self, codes: mx.array, ref_codes: Optional[mx.array] = None) -> np.ndarray:
        """(T, 16) codes -> float32 audio. With ICL reference codes, decode them in front and cut
        their share of the samples, as upstream does."""
        if ref_codes is not None:
            full = mx.concatenate([ref_codes.astype(mx.int32), codes])
            audio = np.array(self.codec.decode(full[None])[0])
            cut = int(ref_codes.shape[0] / max(full.shape[0], 1) * audio.shape[0])
            return audio[cut:]
        return np.array(self.codec.decode(codes[None])[0])


def load(path_or_repo: str, dtype: Optional[mx.Dtype] = None) -> TTS:
    """Load a Qwen3-TTS checkpoint from a local folder or a Hugging Face repo id.

    dtype: compute dtype of the talker and code predictor (default: as stored, e.g. bfloat16).
    The codec always runs in float32.
    """
    from .codec import load_codec
    from .tokenizer import TextTokenizer

    folder = loading.resolve(path_or_repo)
    config = loading.load_config(folder)
    weights = loading.load_weights(loading.safetensors_files(folder))
    model = Qwen3TTSModel(config)
    weights = model.sanitize(weights)
    if dtype is not None:
        weights = {k: _cast(v, dtype) if k.startswith("talker.") else v for k, v in weights.items()}
    loading.apply_weights(model, weights, str(folder / "model.safetensors"), config.quantization)
    mx.eval(model.parameters())
    codec = load_codec(folder / "speech_tokenizer")
    tokenizer = TextTokenizer.from_folder(folder)
    gen_path = folder / "generation_config.json"
    generation_config = loading.read_json(gen_path) if gen_path.exists() else {}
    return TTS(model, codec, tokenizer, generation_config, folder)


def _cast(value: mx.array, dtype: mx.Dtype) -> mx.array:
    return value.astype(dtype) if mx.issubdtype(value.dtype, mx.floating) else value
