"""Cloned voices: reference audio -> x-vector (+ reference codes for in-context cloning).

Reference: `Qwen3TTSModel.create_voice_clone_prompt` in qwen_tts 0.1.1. A voice is computed once
per distinct reference (an LRU cache keyed by a hash of the samples and rate) and can be saved
to a small safetensors file and reused without the audio.
"""

import hashlib
import json
import warnings
from collections import OrderedDict
from pathlib import Path
from typing import Optional

import mlx.core as mx
import numpy as np

from .errors import InputError
from .prompt import Voice
from .reference_audio import load_reference_audio
from .speaker_encoder import extract_xvector

SHORT_TEXT_CHARS_PER_SECOND = 2.0
CACHE_SIZE = 8


class VoiceCache:
    """LRU of computed (x-vector, codes) per reference audio."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size, self.items = size, OrderedDict()
        self.hits = 0

    @staticmethod
    def key(audio: np.ndarray) -> str:
        return hashlib.sha256(np.ascontiguousarray(audio, dtype=np.float32).tobytes()).hexdigest()

    def get(self, key):
        if key in self.items:
            self.items.move_to_end(key)
            self.hits += 1
            return self.items[key]
        return None

    def put(self, key, value):
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)


def clone_voice(tts, ref_audio, ref_text: Optional[str] = None, x_vector_only: bool = False,
                sample_rate: Optional[int] = None) -> Voice:
    """A Voice from reference audio (path, array + rate, or (array, rate))."""
    if tts.variant != "base":
        raise InputError(f"voice cloning needs a Base model; this is a {tts.variant} model")
    if not x_vector_only and not (ref_text and ref_text.strip()):
        raise InputError(
            "in-context cloning needs the transcript of the reference audio (--ref-text); "
            "or use --x-vector-only to clone from the audio alone"
        )
    audio = load_reference_audio(ref_audio, sample_rate)  # 24 kHz mono float32, validated
    key = VoiceCache.key(audio)
    cached = tts.voice_cache.get(key)
    if cached is None:
        xvector = extract_xvector(tts.model.speaker_encoder, audio)
        codes = tts.codec.encode(audio)
        mx.eval(xvector, codes)
        cached = (xvector, codes)
        tts.voice_cache.put(key, cached)
    xvector, codes = cached
    if x_vector_only:
        return Voice(xvector=xvector)
    seconds = audio.shape[0] / 24000
    if len(ref_text.strip()) < SHORT_TEXT_CHARS_PER_SECOND * seconds:
        warnings.warn(
            f"the reference text ({len(ref_text.strip())} characters) looks too short for "
            f"{seconds:.1f} s of reference audio; a transcript that does not match the audio "
            "can make generation run on",
            stacklevel=2,
        )
    return Voice(xvector=xvector, ref_codes=codes, ref_text_ids=tts.tokenizer.reference(ref_text).body,
                 ref_text=ref_text)


def save_voice(voice: Voice, path, model_size: str):
    if voice.xvector is None:
        raise InputError("only cloned voices can be saved (give --ref-audio)")
    arrays = {"xvector": voice.xvector.astype(mx.float32)}
    if voice.ref_codes is not None:
        arrays["ref_codes"] = voice.ref_codes.astype(mx.int32)
    meta = {"format": "mlx_qwen3tts.voice", "version": "1", "tts_model_size": model_size,
            "ref_text": json.dumps(voice.ref_text)}
    mx.save_safetensors(str(path), arrays, metadata=meta)


def load_voice(tts, path) -> Voice:
    path = Path(path)
    if not path.is_file():
        raise InputError(f"voice file {path} does not exist")
    try:
        arrays, meta = mx.load(str(path), return_metadata=True)
    except Exception:
        raise InputError(f"{path} is not a saved voice (not a safetensors file)") from None
    if meta.get("format") != "mlx_qwen3tts.voice" or "xvector" not in arrays:
        raise InputError(f"{path} is not a voice saved by mlx_qwen3tts (--save-voice)")
    size = meta.get("tts_model_size")
    if size != tts.config.tts_model_size:
        raise InputError(
            f"voice {path.name} was made with a {size} model; this model is {tts.config.tts_model_size}"
        )
    ref_text = json.loads(meta.get("ref_text", "null"))
    codes = arrays.get("ref_codes")
    if codes is None:
        return Voice(xvector=arrays["xvector"])
    return Voice(xvector=arrays["xvector"], ref_codes=codes, ref_text_ids=tts.tokenizer.reference(ref_text).body,
                 ref_text=ref_text)
