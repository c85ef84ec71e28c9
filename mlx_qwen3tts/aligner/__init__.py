"""Word timings for any speech and its text: Qwen3-ForcedAligner-0.6B in MLX.

    from mlx_qwen3tts import aligner
    model = aligner.load()                      # Qwen/Qwen3-ForcedAligner-0.6B, or a folder
    words = model.align(audio, 24000, "Hello world.", "English")
    words[0].text, words[0].start, words[0].end   # seconds

The released layout (config.json, model.safetensors, preprocessor_config.json, vocab.json,
merges.txt, tokenizer_config.json) from a folder or the hub. One pass of the model gives every
word's start and end in steps of 80 ms, repaired to be monotonic as qwen-asr does (see `words`).
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import mlx.core as mx
import mlx.nn as nn
import numpy as np

from ..errors import InputError, ModelLoadError
from ..languages import language_key
from ..model.checkpoint import apply_weights, load_weights, read_json, resolve, safetensors_files
from ..tokenizer import TextTokenizer
from ..thinker.encoder import output_length
from ..thinker.features import SAMPLE_RATE, checked_rate, checked_samples, log_mel, to_16k
from .model import AlignerConfig, ForcedAligner
from .words import prompt, repair, split_words

DEFAULT_MODEL = "Qwen/Qwen3-ForcedAligner-0.6B"
# The released aligner times up to 5,000 classes of 80 ms; qwen-asr cuts longer audio before aligning.
MAX_SECONDS = 300
QUANTIZED_BITS = (4, 6, 8)

__all__ = ["DEFAULT_MODEL", "Aligner", "Word", "load"]


@dataclass(frozen=True)
class Word:
    """One timed unit: a word, or one character of Chinese; start and end in seconds."""

    text: str
    start: float
    end: float


@dataclass(frozen=True)
class Pass:
    """One run of the model: its inputs, the logits at the `<timestamp>` slots and the picks."""

    words: list
    input_ids: np.ndarray
    mel: np.ndarray
    slots: np.ndarray
    slot_logits: np.ndarray


class Aligner:
    """A loaded forced aligner; `align` times the words of a text in a clip of its speech."""

    def __init__(self, model: ForcedAligner, tokenizer: TextTokenizer):
        self.model, self.tokenizer, self.config = model, tokenizer, model.cfg

    @property
    def languages(self) -> tuple:
        return self.config.support_languages

    def run(self, audio, sample_rate: int, text: str, language: str) -> Pass:
        """The model's pass over `audio` and the words of `text` (no repair): for tests and tools."""
        if not isinstance(text, str) or not text.strip():
            raise InputError("{text} is empty: give the words spoken in the audio", field="text")
        language = self._language(language)
        words = split_words(text, language)
        if not words:
            raise InputError("{text} has no word to time (letters or digits)", field="text")
        audio16 = to_16k(checked_samples(audio), checked_rate(sample_rate))
        if audio16.size < 2 * 160:
            raise InputError("the audio is too short to align (at least 20 ms)", field="audio")
        if audio16.size > MAX_SECONDS * SAMPLE_RATE:
            raise InputError(f"the audio is longer than {MAX_SECONDS} s; align it in parts", field="audio")
        mel = log_mel(audio16)
        ids = np.asarray(self.tokenizer.encode(prompt(words, output_length(mel.shape[1]))), np.int32)
        slots = np.flatnonzero(ids == self.config.timestamp_token_id)
        slot_logits = np.array(self.model(mx.array(ids), mx.array(mel), mx.array(slots)).astype(mx.float32))
        return Pass(words, ids, mel, slots, slot_logits)

    def check_language(self, language) -> str:
        """The aligner's name for `language` (as `align` takes it: a name, an ISO 639-1 code or "auto"), or
        InputError where it cannot time its words: before any audio is made."""
        language = self._language(language)
        split_words("", language)
        return language

    def align(self, audio, sample_rate: int, text: str, language: str = "English") -> list:
        """The words of `text` (as the official aligner splits them) with their times in `audio`.

        `audio`: mono (samples,) or (samples, channels) float samples at `sample_rate` (resampled to
        16 kHz); `language`: one of `languages` (any case) or its ISO 639-1 code ('en', 'de-DE'), or
        "auto" (words split as for every language but Japanese and Korean: at spaces, and Chinese
        characters one by one).
        """
        audio = checked_samples(audio)
        run = self.run(audio, sample_rate, text, language)
        times = repair(run.slot_logits.argmax(axis=-1) * self.config.timestamp_segment_time)
        seconds = audio.shape[0] / sample_rate  # the 80 ms steps may reach past the clip's end
        times = [round(min(t / 1000.0, seconds), 3) for t in times]
        return [Word(w, times[2 * i], times[2 * i + 1]) for i, w in enumerate(run.words)]

    def _language(self, language) -> str:
        if language is None:
            return "auto"
        if not isinstance(language, str) or not language.strip():
            raise InputError("{language} is empty: name the language of the text, e.g. English or en",
                             field="language")
        key = language_key(language)
        if key == "auto":
            return "auto"  # words split as for every language but Japanese and Korean
        known = {name.lower(): name for name in self.languages}
        if known and key not in known:
            raise InputError(f"the aligner does not know the language {language!r}; it knows "
                             f"{', '.join(self.languages)}", field="language", code="unsupported_language")
        return known.get(key, key)


def load(path_or_repo: str = DEFAULT_MODEL, dtype=mx.float32, bits: Optional[int] = None,
         group_size: Optional[int] = None) -> Aligner:
    """The aligner from a folder in the released layout or a hub id (downloaded once).

    `bits` (4, 6 or 8): the decoder (its layers' Linear layers and the token embedding, most of the
    weights) quantized as it loads, in groups of `group_size` (default 64, or 32 where 64 does not
    divide the decoder's width); the audio encoder and the timestamp head stay in `dtype`."""
    if bits is not None and bits not in QUANTIZED_BITS:
        raise InputError(f"bits must be one of {', '.join(map(str, QUANTIZED_BITS))}, got {bits!r}", field="bits")
    folder = resolve(path_or_repo, released=(DEFAULT_MODEL,))
    config_path = Path(folder) / "config.json"
    if not config_path.exists():
        raise ModelLoadError(f"{config_path} is missing: {folder} is not a Qwen3-ForcedAligner folder")
    params = read_json(config_path)
    if not isinstance(params, dict) or "timestamp_token_id" not in params \
            or "classify_num" not in params.get("thinker_config", {}):
        raise ModelLoadError(f"{folder} is not a Qwen3-ForcedAligner model (its config.json has no "
                             "timestamp_token_id and thinker_config.classify_num)")
    if params.get("quantization"):
        raise ModelLoadError(f"{folder} holds a converted (quantized) aligner, which this package does not read; "
                             f"give the released {DEFAULT_MODEL} (a quantized decoder: bits=4 or 8)")
    try:
        config = AlignerConfig.from_dict(params)
    except (KeyError, TypeError, ValueError) as e:
        raise ModelLoadError(f"{config_path} is not a valid aligner config: {e!r}") from None
    model = ForcedAligner(config)
    weights = ForcedAligner.sanitize(load_weights(safetensors_files(Path(folder))))
    apply_weights(model, {k: v.astype(dtype) for k, v in weights.items()}, f"{folder}/model.safetensors")
    if bits is not None:
        width = config.decoder.hidden_size
        _quantize_decoder(model, bits, group_size or (64 if width % 64 == 0 else 32))
    mx.eval(model.parameters())
    return Aligner(model, TextTokenizer.from_folder(folder))


def _quantize_decoder(model: ForcedAligner, bits: int, group_size: int):
    def wanted(path, module):
        return isinstance(module, (nn.Linear, nn.Embedding)) and module.weight.shape[-1] % group_size == 0

    if not any(wanted("", m) for _, m in model.thinker.model.named_modules()):
        raise InputError(f"group_size {group_size} divides none of the decoder's widths", field="group_size")
    nn.quantize(model.thinker.model, group_size, bits, class_predicate=wanted)
