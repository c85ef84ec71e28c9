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
        self.size, self.items, self.hits = size, OrderedDict(), 0

    @staticmethod
    def key(audio: np.ndarray) -> str:
        return hashlib.sha256(np.ascontiguousarray(audio, dtype=np.float32).tobytes()).hexdigest()

    def get(self, key):
        if key in self.items:
            self.items.move_to_end(key)
            self.hits += 1
        return self.items.get(key)

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
        raise InputError("in-context cloning needs the transcript of the reference audio (--ref-text); "
                         "or use --x-vector-only to clone from the audio alone")
    audio = load_reference_audio(ref_audio, sample_rate)  # 24 kHz mono float32, validated
    key = VoiceCache.key(audio)
    cached = tts.voice_cache.get(key)
    if cached is None:
        cached = (extract_xvector(tts.model.speaker_encoder, audio), tts.codec.encode(audio))
        mx.eval(cached)
        tts.voice_cache.put(key, cached)
    xvector, codes = cached
    if x_vector_only:
        return Voice(xvector=xvector)
    seconds = audio.shape[0] / 24000
    if len(ref_text.strip()) < SHORT_TEXT_CHARS_PER_SECOND * seconds:
        warnings.warn(f"the reference text ({len(ref_text.strip())} characters) looks too short for {seconds:.1f} s "
                      "of reference audio; a transcript that does not match the audio can make generation run on",
                      stacklevel=2)
    return Voice(xvector=xvector, ref_codes=codes, ref_text_ids=tts.tokenizer.reference(ref_text).body,
                 ref_text=ref_text)


def voice_bytes(voice: Voice, model_size: str) -> bytes:
    """A cloned voice as the bytes of a safetensors file."""
    from safetensors.numpy import save

    if voice.xvector is None:
        raise InputError("only cloned voices can be saved (give --ref-audio)")
    arrays = {"xvector": np.array(voice.xvector.astype(mx.float32))}
    if voice.ref_codes is not None:
        arrays["ref_codes"] = np.array(voice.ref_codes.astype(mx.int32))
    meta = {"format": "mlx_qwen3tts.voice", "version": "1", "tts_model_size": model_size,
            "ref_text": json.dumps(voice.ref_text)}
    return save(arrays, metadata=meta)


def save_voice(voice: Voice, path, model_size: str):
    """Write the voice to exactly `path` (any extension), atomically; a symlink's target is written."""
    from .outputs import resolve

    resolve(path, "voice file").write(voice_bytes(voice, model_size))


def load_voice(tts, path) -> Voice:
    path = Path(path)
    if not path.is_file():
        raise InputError(f"voice file {path} does not exist")

    def unusable(reason):
        return InputError(f"{path} is not a voice saved with --save-voice ({reason}); save the voice again")

    try:
        arrays, meta = mx.load(str(path), format="safetensors", return_metadata=True)
    except Exception:
        raise unusable("not a safetensors file") from None
    if meta.get("format") != "mlx_qwen3tts.voice" or "xvector" not in arrays:
        raise unusable("not saved by mlx_qwen3tts")
    size = meta.get("tts_model_size")
    if size != tts.config.tts_model_size:
        raise InputError(f"voice {path.name} was made with a {size} model; this model is {tts.config.tts_model_size}")
    xvector, codes = arrays["xvector"], arrays.get("ref_codes")
    hidden = tts.config.talker_config.hidden_size
    if xvector.shape != (hidden,) or not mx.issubdtype(xvector.dtype, mx.floating):
        raise unusable(f"x-vector of shape {tuple(xvector.shape)}, {xvector.dtype}; expected ({hidden},) floats")
    if not mx.all(mx.isfinite(xvector)).item():
        raise unusable("x-vector has NaN or infinite values")
    if codes is None:
        return Voice(xvector=xvector)
    groups, codebook = tts.config.talker_config.num_code_groups, tts.codec.decoder.args.codebook_size
    if (codes.ndim != 2 or codes.shape[1] != groups or mx.issubdtype(codes.dtype, mx.floating)
            or (codes.size and not (mx.min(codes).item() >= 0 and mx.max(codes).item() < codebook))):
        raise unusable(f"reference codes must be (frames, {groups}) integers in 0..{codebook - 1}")
    try:
        ref_text = json.loads(meta.get("ref_text", "null"))
    except json.JSONDecodeError:
        ref_text = None
    if not isinstance(ref_text, str) or not ref_text.strip():
        raise unusable("reference codes without their transcript")
    return Voice(xvector=xvector, ref_codes=codes, ref_text_ids=tts.tokenizer.reference(ref_text).body,
                 ref_text=ref_text)
