"""What was said in a clip of speech: Qwen3-ASR (0.6B, 1.7B) in MLX.

    from mlx_qwen3tts import asr
    model = asr.load()                          # Qwen/Qwen3-ASR-0.6B, or a folder
    t = model.transcribe(audio, 24000)          # language detected
    t.text, t.language                          # "Hello there.", "english"
    model.transcribe(audio, 24000, "en")        # language given: the model writes only the text

The released layout (config.json, model.safetensors or shards, preprocessor_config.json, vocab.json,
merges.txt, tokenizer_config.json) from a folder or the hub, or a folder the converter quantized. The model is
the thinker the aligner runs (`..thinker`: audio encoder and Qwen3 decoder) with its language-model head,
decoding greedily as qwen-asr 0.0.6's `Qwen3ASRModel.transcribe` does (transformers backend, no context):
the prompt `<|im_start|>system\\n<|im_end|>\\n<|im_start|>user\\n<|audio_start|>` + one `<|audio_pad|>` per
encoder output + `<|audio_end|><|im_end|>\\n<|im_start|>assistant\\n`, followed by `language X<asr_text>` when
the language is given; up to `max_new_tokens` (512) tokens a piece, until `<|im_end|>` or `<|endoftext|>`;
decoded without special tokens and parsed as `text.parse_output` says. Clips over `chunk_seconds` (1200 s)
are cut as `text.split_audio` says, and their mels computed as in qwen-asr's padded batches (`piece_mel`); the
pieces' texts are joined and their languages merged.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import mlx.core as mx
import mlx.nn as nn
import numpy as np
from mlx_lm.models.cache import KVCache

from ..errors import InputError, ModelLoadError
from ..languages import language_key
from ..model.checkpoint import apply_weights, load_weights, read_json, resolve, safetensors_files
from ..thinker.encoder import output_length
from ..thinker.features import HOP_LENGTH, SAMPLE_RATE, checked_rate, checked_samples, log_mel, to_16k
from ..thinker.model import Thinker, ThinkerConfig, sanitize
from ..tokenizer import TextTokenizer
from .text import LANGUAGES, canonical, merge_languages, parse_output, split_audio

DEFAULT_MODEL = "Qwen/Qwen3-ASR-0.6B"
RELEASED = ("Qwen/Qwen3-ASR-0.6B", "Qwen/Qwen3-ASR-1.7B")
CHUNK_SECONDS = 1200  # qwen-asr's MAX_ASR_INPUT_SECONDS
MAX_NEW_TOKENS = 512  # qwen-asr's Qwen3ASRModel.from_pretrained default
EOS_IDS = (151645, 151643)  # <|im_end|>, <|endoftext|>: Qwen3ASRForConditionalGeneration.generate's
BATCH = 32  # qwen-asr's max_inference_batch_size: the pieces of a long clip are heard 32 at a time, padded
MIN_SAMPLES = 2 * 160  # two mel frames at 16 kHz
PROMPT_HEAD = "<|im_start|>system\n<|im_end|>\n<|im_start|>user\n<|audio_start|>"
PROMPT_TAIL = "<|audio_end|><|im_end|>\n<|im_start|>assistant\n"

__all__ = ["DEFAULT_MODEL", "Recognizer", "Transcript", "load"]


@dataclass(frozen=True)
class Transcript:
    """What was said (`text`) and in which language (`language`: its English name in lower case, as
    `languages.py` names languages, e.g. "english"; "" where none was detected; pieces of a long clip in
    different languages give their names joined by ",")."""

    text: str
    language: str


@dataclass(frozen=True)
class Piece:
    """One piece's run: prompt ids, generated ids (EOS included where chosen), the decoded output, its parse."""

    input_ids: np.ndarray
    generated: np.ndarray
    raw: str
    language: str
    text: str


class Recognizer:
    """A loaded Qwen3-ASR; `transcribe` hears a clip. `chunk_seconds` and `max_new_tokens` are qwen-asr's."""

    def __init__(self, thinker: Thinker, tokenizer: TextTokenizer, chunk_seconds: float = CHUNK_SECONDS,
                 max_new_tokens: int = MAX_NEW_TOKENS):
        self.thinker, self.tokenizer = thinker, tokenizer
        self.chunk_seconds, self.max_new_tokens = chunk_seconds, max_new_tokens
        self._head = np.asarray(tokenizer.encode(PROMPT_HEAD), np.int32)
        self._tail = np.asarray(tokenizer.encode(PROMPT_TAIL), np.int32)
        self._pad = tokenizer.token_to_id("<|audio_pad|>")

    @property
    def languages(self) -> tuple:
        return LANGUAGES

    def check_language(self, language) -> Optional[str]:
        """qwen-asr's name of `language` (a name in any case, an ISO 639-1 code of the ten TTS languages, with
        or without a region), None for None, "" or "auto" (detected); InputError for any other."""
        if language is None:
            return None
        if not isinstance(language, str):
            raise InputError(f"{{language}} must be a language name such as English, got {language!r}",
                             field="language")
        key = language_key(language)
        if key == "auto":
            return None
        name = canonical(key)
        if name not in LANGUAGES:
            raise InputError(f"Qwen3-ASR does not know the language {language!r}; it knows {', '.join(LANGUAGES)}",
                             field="language", code="unsupported_language")
        return name

    def transcribe(self, audio, sample_rate: int, language: Optional[str] = None) -> Transcript:
        """What is said in `audio` (mono (samples,) or (samples, channels) float samples at `sample_rate`,
        resampled to 16 kHz); `language` given (a name or ISO 639-1 code) or None (detected)."""
        pieces = self.run(audio, sample_rate, language)
        return Transcript("".join(p.text for p in pieces), merge_languages(p.language for p in pieces).lower())

    def run(self, audio, sample_rate: int, language: Optional[str] = None) -> list:
        """Every piece's `Piece`: for tests and tools."""
        forced = self.check_language(language)
        samples, rate = checked_samples(audio), checked_rate(sample_rate)
        wav = to_16k(samples, rate)
        if wav.size < MIN_SAMPLES:
            raise InputError("{audio} is too short to hear (at least 20 ms)", field="audio")
        pieces = [piece for piece, _ in split_audio(wav, SAMPLE_RATE, self.chunk_seconds)]
        out = []
        for start in range(0, len(pieces), BATCH):
            batch = pieces[start:start + BATCH]
            longest = max(p.shape[0] for p in batch)
            out += [self._piece(piece_mel(p, longest), forced) for p in batch]
        return out

    def _piece(self, mel: np.ndarray, forced: Optional[str]) -> Piece:
        ids = [self._head, np.full(output_length(mel.shape[1]), self._pad, np.int32), self._tail]
        if forced:
            ids.append(np.asarray(self.tokenizer.encode(f"language {forced}<asr_text>"), np.int32))
        input_ids = np.concatenate(ids)
        generated = self._generate(mx.array(input_ids), mx.array(mel))
        raw = self.tokenizer.tokenizer.decode(generated.tolist(), skip_special_tokens=True)
        found, text = parse_output(raw, forced)
        return Piece(input_ids, generated, raw, found, text)

    def _generate(self, input_ids: mx.array, mel: mx.array) -> np.ndarray:
        """Greedy ids after the prompt: at most `max_new_tokens`, ending with the first EOS chosen. Each step's
        graph is queued before the previous token is read (one step may be computed past the end, unused)."""
        model = self.thinker.model
        cache = [KVCache() for _ in model.layers]

        def step(x):
            return mx.argmax(self.thinker.head(model(x, cache)[:, -1]).astype(mx.float32), axis=-1)

        token = step(self.thinker.embed(input_ids, mel)[None])
        mx.async_eval(token)
        out = []
        while True:
            following = None
            if len(out) + 1 < self.max_new_tokens:
                following = step(model.embed_tokens(token)[None])
                mx.async_eval(following)
            out.append(int(token.item()))
            if out[-1] in EOS_IDS or following is None:
                return np.asarray(out, np.int32)
            token = following


def piece_mel(wav: np.ndarray, longest: int) -> np.ndarray:
    """The log-mel of one piece as qwen-asr computes it in a batch whose longest piece has `longest` samples:
    over the piece zero-padded to that length (frames near its end see zeros, not its reflection), cut to the
    frames the batch's attention mask gives it (`len // 160` for a piece alone)."""
    padded = np.pad(wav, (0, longest - wav.shape[0])) if longest > wav.shape[0] else wav
    frames = min(-(-wav.shape[0] // HOP_LENGTH), longest // HOP_LENGTH)
    return log_mel(padded)[:, :frames]


def load(path_or_hub_id: str = DEFAULT_MODEL, dtype=mx.float32, bits: Optional[int] = None,
         group_size: Optional[int] = None) -> Recognizer:
    """Qwen3-ASR from a folder in the released layout (or one the converter wrote) or a hub id (downloaded
    once). `bits` (4, 6 or 8): the decoder quantized as it loads (see `quantize_decoder`)."""
    folder = resolve(path_or_hub_id, released=RELEASED)
    config_path = Path(folder) / "config.json"
    if not config_path.exists():
        raise ModelLoadError(f"{config_path} is missing: {folder} is not a Qwen3-ASR folder")
    params = read_json(config_path)
    thinker_params = params.get("thinker_config", {}) if isinstance(params, dict) else {}
    if "timestamp_token_id" in params or "classify_num" in thinker_params or "text_config" not in thinker_params:
        raise ModelLoadError(f"{folder} is not a Qwen3-ASR model (its config.json needs a thinker_config with a "
                             "text_config, and no timestamp head: Qwen3-ForcedAligner loads with aligner.load)")
    try:
        config = ThinkerConfig.from_dict(thinker_params)
    except (KeyError, TypeError, ValueError) as e:
        raise ModelLoadError(f"{config_path} is not a valid Qwen3-ASR config: {e!r}") from None
    weights = load_weights(safetensors_files(Path(folder)))
    converted = "mlx_qwen3tts" in params  # written by our converter: MLX layout already
    weights = weights if converted else sanitize(weights)
    if "thinker.lm_head.weight" not in weights and not config.tie_word_embeddings:
        config.tie_word_embeddings = True  # no head stored: it is the token embedding, as transformers ties it
    if config.tie_word_embeddings and "thinker.lm_head.scales" not in weights:
        weights.pop("thinker.lm_head.weight", None)  # tied (text_config says so): transformers reads the embedding
    thinker = Thinker(config)
    quantization = params.get("quantization")
    weights = {k[len("thinker."):]: v if quantization and k.endswith((".scales", ".biases")) or v.dtype == mx.uint32
               else v.astype(dtype) for k, v in weights.items() if k.startswith("thinker.")}
    apply_weights(thinker, weights, f"{folder}/model.safetensors", quantization)
    if bits is not None:
        quantize_decoder(thinker, bits, group_size)
    mx.eval(thinker.parameters())
    return Recognizer(thinker, TextTokenizer.from_folder(folder))


QUANTIZED_BITS = (4, 6, 8)


def quantizable(path: str, module, group_size: int) -> bool:
    """The decoder's Linear layers and the token embedding, and the head: what the converter and `bits`
    quantize (the audio encoder stays dense)."""
    return (path.startswith("model.") or path == "lm_head") and isinstance(module, (nn.Linear, nn.Embedding)) \
        and module.weight.shape[-1] % group_size == 0


def quantize_decoder(thinker: Thinker, bits: int, group_size: Optional[int] = None):
    if bits not in QUANTIZED_BITS:
        raise InputError(f"bits must be one of {', '.join(map(str, QUANTIZED_BITS))}, got {bits!r}", field="bits")
    width = thinker.cfg.decoder.hidden_size
    group_size = group_size or (64 if width % 64 == 0 else 32)
    if not any(quantizable(p, m, group_size) for p, m in thinker.named_modules()):
        raise InputError(f"group_size {group_size} divides none of the decoder's widths", field="group_size")
    nn.quantize(thinker, group_size, bits, class_predicate=lambda p, m: quantizable(p, m, group_size))
