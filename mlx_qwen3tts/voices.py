"""Cloned voices: reference audio -> x-vector (+ reference codes for in-context cloning); blended voices.

Reference: `Qwen3TTSModel.create_voice_clone_prompt` in qwen_tts 0.1.1. A voice is computed once
per distinct reference (an LRU cache keyed by a hash of the samples and rate) and can be saved
to a small safetensors file and reused without the audio.

A blend mixes voices by weight into one speaker vector at the place in the prompt where a preset's
embedding (`codec_embedding(spk_id)`, CustomVoice) or a cloned x-vector (Base) goes: presets' rows,
or saved x-vector voices' x-vectors, summed with weights that add up to 1, in float32.
"""

import hashlib
import json
import os
import re
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Tuple

import mlx.core as mx
import numpy as np

from .codec import SAMPLE_RATE
from .errors import InputError
from .model.config import VARIANT_NAMES, model_id, size_name
from .model.speaker_encoder import extract_xvector

CACHE_SIZE = 8
VOICE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a saved voice's name: never a path
SUFFIX = ".safetensors"


def default_voices_dir() -> Path:
    """Where the server keeps saved voices (and `--voice NAME` finds them)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "mlx_qwen3tts" / "voices"


def saved_voice_ids(folder: Path) -> list:
    if not folder.is_dir():
        return []
    names = (p.name[: -len(SUFFIX)] for p in folder.iterdir() if p.name.endswith(SUFFIX))
    return sorted(n for n in names if VOICE_ID.fullmatch(n))


def saved_voice_path(name: str, folder: Path) -> Optional[Path]:
    """The file of the voice saved as `name` (any case) in `folder`, or None."""
    if not VOICE_ID.fullmatch(name):
        return None
    if (folder / (name + SUFFIX)).is_file():
        return folder / (name + SUFFIX)
    found = next((vid for vid in saved_voice_ids(folder) if vid.lower() == name.lower()), None)
    return None if found is None else folder / (found + SUFFIX)


@dataclass
class Voice:
    """Who speaks: a preset speaker (CustomVoice), or a cloned x-vector with optional ICL reference."""

    speaker: Optional[str] = None
    xvector: Optional[mx.array] = None
    ref_codes: Optional[mx.array] = None  # (T, 16) reference codes for in-context cloning
    ref_text_ids: Optional[Sequence[int]] = None  # reference transcript ids (ICL), template body
    ref_text: Optional[str] = None
    variant: str = "base"  # the model kind whose prompt `xvector` is for: a preset blend's is "custom_voice"
    dialect: Optional[str] = None  # a preset blend's dialect (the one its parts share), as a preset's
    heard: bool = False  # `ref_text` is what the recognizer heard in the reference audio (none was given)


@dataclass(frozen=True)
class Blend:
    """Voices mixed by weight: `parts` are (voice, weight) pairs, each voice a preset speaker's name, a saved
    voice file (a path) or a cloned `Voice` (x-vector only); weights are relative (normalised to sum 1)."""

    parts: Tuple[Tuple[object, float], ...]


@dataclass(frozen=True)
class VoiceChoice:
    """The voice a request chose, its arguments checked by the request layer (`request.choose_voice`), for
    `VoiceMaker.make`: a saved voice file (`path`), reference audio to clone (`ref_audio`: 24 kHz mono
    float32, read and checked; with `ref_text` for in-context cloning, None for the x-vector alone), a
    `Voice` given whole, a preset `speaker`, or a `blend`: (part, weight) pairs, weights summing to 1,
    parts all preset names or all saved voices (paths or Voices)."""

    speaker: Optional[str] = None
    voice: Optional[Voice] = None
    path: Optional[Path] = None
    ref_audio: object = None
    ref_text: Optional[str] = None
    blend: Optional[tuple] = None
    hear: bool = False  # `ref_audio` came without its transcript: the recognizer's is used (`VoiceMaker.hear`)


class Presets:
    """A CustomVoice model's preset speakers as vectors: their rows of the talker's codec embedding."""

    def __init__(self, codec_embed, spk_id: dict, dialects: dict):
        self.codec_embed, self.spk_id, self.dialects = codec_embed, spk_id, dialects

    def vectors(self, names) -> mx.array:
        return self.codec_embed(mx.array([self.spk_id[name] for name in names])).astype(mx.float32)  # (n, H)

    def dialect(self, names) -> Optional[str]:
        """The dialect every one of `names` speaks, or None where they differ or have none."""
        found = {self.dialects.get(name) or None for name in names}
        return found.pop() if len(found) == 1 else None


def mixed(vectors: mx.array, weights: Sequence[float]) -> mx.array:
    """The weighted sum of (n, H) vectors in float32; one part of weight 1 is that vector exactly."""
    w = mx.array([float(x) for x in weights], dtype=mx.float32)
    return (w[:, None] * vectors.astype(mx.float32)).sum(axis=0)


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


class VoiceMaker:
    """Cloned voices of one model: an x-vector from its speaker encoder and reference codes from its
    codec, computed once per distinct reference audio (`cache`). Its inputs were checked by the
    request layer (`request.choose_voice`, `request.clone_voice`). With a `recognizer` (`hearing`), a clip
    given without its transcript is transcribed (once per distinct clip) and cloned in context."""

    def __init__(self, speaker_encoder, codec, tokenizer, cache: Optional[VoiceCache] = None,
                 presets: Optional[Presets] = None, recognizer=None):
        self.speaker_encoder, self.codec, self.tokenizer = speaker_encoder, codec, tokenizer
        self.cache, self.presets, self.recognizer = cache or VoiceCache(), presets, recognizer
        self.transcripts = VoiceCache()

    def warm(self):
        """Run the speaker encoder and the codec encoder once (a cloning model's), on this thread, so that the
        first clone made here traces none of their compiled activations (MLX keeps traces per thread's stream)."""
        if self.speaker_encoder is None:
            return
        clip = np.zeros(SAMPLE_RATE // 5, np.float32)  # a fifth of a second: every layer runs, at the clone's dtypes
        mx.eval(extract_xvector(self.speaker_encoder, clip), self.codec.encode(clip))

    @property
    def hears(self) -> bool:
        """Whether a clip without its transcript is cloned in context (a recognizer is set)."""
        return self.recognizer is not None

    def hear(self, audio: np.ndarray) -> str:
        """The transcript the recognizer hears in 24 kHz mono reference audio; InputError when it hears none."""
        from .hearing import heard

        key = VoiceCache.key(audio)
        text = self.transcripts.get(key)
        if text is None:
            text = heard(self.recognizer, audio, 24000)
        if not text:
            raise InputError("the speech recognizer heard no words in the reference audio ({ref_audio}); give its "
                             "transcript ({ref_text}) or clone from the audio alone ({x_vector_only})",
                             field="ref_text", others=("ref_audio", "x_vector_only"))
        self.transcripts.put(key, text)
        return text

    def make(self, choice: VoiceChoice, facts) -> Voice:
        """The Voice chosen: a saved one loaded (and checked against the model's `facts`), a cloned one made,
        a blend mixed."""
        if choice.path is not None:
            return load_voice(choice.path, facts, self.tokenizer)
        if choice.ref_audio is not None and choice.hear:
            voice = self.clone(choice.ref_audio, self.hear(choice.ref_audio))
            voice.heard = True
            return voice
        if choice.ref_audio is not None:
            return self.clone(choice.ref_audio, choice.ref_text)
        if choice.blend is not None:
            return self.blend(choice.blend, facts)
        return Voice(speaker=choice.speaker) if choice.speaker else choice.voice or Voice()

    def blend(self, parts, facts) -> Voice:
        """One Voice of (part, weight) pairs checked by `request.choose_voice`: preset names, or saved voices."""
        voices, weights = [part for part, _ in parts], [weight for _, weight in parts]
        if all(isinstance(v, str) for v in voices):
            vector = mixed(self.presets.vectors(voices), weights)
            voice = Voice(xvector=vector, variant="custom_voice", dialect=self.presets.dialect(voices))
        else:
            loaded = [load_voice(v, facts, self.tokenizer) if isinstance(v, Path) else v for v in voices]
            for v, shown in zip(loaded, voices):
                if v.variant != facts.variant:
                    kind = VARIANT_NAMES.get(v.variant, v.variant)
                    raise InputError(f"{{voice}} {_part_name(shown)} is for a {kind} model and this is the "
                                     f"{facts.name} model, so it cannot be blended here", field="voice",
                                     code="voice_model_mismatch")
                if v.ref_codes is not None:
                    raise InputError(f"{{voice}} {_part_name(shown)} is an in-context voice, which speaks from its "
                                     "reference audio and transcript rather than a vector, so it cannot be blended; "
                                     "clone it from the audio alone ({x_vector_only}) to blend it", field="voice",
                                     others=("x_vector_only",), code="voice_not_blendable")
            dialects = {v.dialect for v in loaded}  # saved blends of presets keep theirs
            voice = Voice(xvector=mixed(mx.stack([v.xvector for v in loaded]), weights), variant=facts.variant,
                          dialect=dialects.pop() if len(dialects) == 1 else None)
        mx.eval(voice.xvector)  # on the caller's thread: the engine's thread only reads it
        return voice

    def clone(self, audio: np.ndarray, ref_text: Optional[str] = None) -> Voice:
        """A Voice from 24 kHz mono reference audio; with its transcript, for in-context cloning."""
        key = VoiceCache.key(audio)
        xvector, codes = self.cache.get(key) or (None, None)
        if xvector is None:
            xvector = extract_xvector(self.speaker_encoder, audio)
        if codes is None and ref_text is not None:  # only in-context cloning needs the codec encoder
            codes = self.codec.encode(audio)
        mx.eval(xvector, codes)
        self.cache.put(key, (xvector, codes))
        if ref_text is None:
            return Voice(xvector=xvector)
        return Voice(xvector=xvector, ref_codes=codes, ref_text_ids=self.tokenizer.reference(ref_text).body,
                     ref_text=ref_text)


def _part_name(part) -> str:
    return repr(part.name if isinstance(part, Path) else "(a Voice)" if isinstance(part, Voice) else part)


def voice_bytes(voice: Voice, model_size: str, name: Optional[str] = None) -> bytes:
    """A cloned voice as the bytes of a safetensors file; `name`: a display name kept beside it."""
    from safetensors.numpy import save

    if voice.xvector is None:
        raise InputError("only cloned or blended voices can be saved: clone one from reference audio ({ref_audio}) "
                         "or blend voices", field="voice", others=("ref_audio",))
    arrays = {"xvector": np.array(voice.xvector.astype(mx.float32))}
    if voice.ref_codes is not None:
        arrays["ref_codes"] = np.array(voice.ref_codes.astype(mx.int32))
    meta = {"format": "mlx_qwen3tts.voice", "version": "1", "tts_model_size": model_size,
            "ref_text": json.dumps(voice.ref_text), "tts_model_type": voice.variant}
    if voice.dialect:
        meta["dialect"] = voice.dialect
    if name is not None:
        meta["name"] = name
    return save(arrays, metadata=meta)


def save_voice(voice: Voice, path, model_size: str, name: Optional[str] = None):
    """Write the voice to exactly `path` (any extension), atomically; a symlink's target is written."""
    from .outputs import resolve

    resolve(path, "voice file").write(voice_bytes(voice, model_size, name))


def load_voice(path, facts, tokenizer) -> Voice:
    """A voice saved by `save_voice`, checked against the model (`config.ModelFacts`) it is for."""
    path = Path(path)
    if not path.is_file():
        if str(path).strip().lower() in facts.speakers:  # a preset's name given as a voice (mlx-audio's habit)
            raise InputError(f"{{voice}} {str(path)!r} is not a voice file but a preset speaker's name: ask for it as "
                             f"{{speaker}} {str(path)!r}", field="voice", code="voice_not_found", others=("speaker",))
        raise InputError(f"voice file {path} does not exist", field="voice")

    def unusable(reason):
        return InputError(f"{path} is not a voice saved with {{save_voice}} ({reason}); save the voice again",
                          field="voice", others=("save_voice",))

    try:
        arrays, meta = mx.load(str(path), format="safetensors", return_metadata=True)
    except Exception:
        raise unusable("not a safetensors file") from None
    if meta.get("format") != "mlx_qwen3tts.voice" or "xvector" not in arrays:
        raise unusable("not saved by mlx_qwen3tts")
    size = meta.get("tts_model_size")
    if size != facts.size:
        raise InputError(f"voice {path.name} was made with a {size_name(size)} model and this is the {facts.name} "
                         f"model: use it with {model_id('base', size)}, or clone the voice again with this one",
                         field="voice", code="voice_model_mismatch")
    variant = meta.get("tts_model_type", "base")  # voices saved before blends were all Base x-vectors
    if variant != "base" and variant != facts.variant:
        raise InputError(f"voice {path.name} is a blend of {VARIANT_NAMES.get(variant, variant)} presets and this is "
                         f"the {facts.name} model: use it with {model_id(variant, size)}", field="voice",
                         code="voice_model_mismatch")
    xvector, codes = arrays["xvector"], arrays.get("ref_codes")
    if xvector.shape != (facts.hidden_size,) or not mx.issubdtype(xvector.dtype, mx.floating):
        raise unusable(f"x-vector of shape {tuple(xvector.shape)}, {xvector.dtype}; expected ({facts.hidden_size},) "
                       "floats")
    if not mx.all(mx.isfinite(xvector)).item():
        raise unusable("x-vector has NaN or infinite values")
    if codes is None:
        return Voice(xvector=xvector, variant=variant, dialect=meta.get("dialect"))
    groups, codebook = facts.code_groups, facts.codebook_size
    if (codes.ndim != 2 or codes.shape[1] != groups or mx.issubdtype(codes.dtype, mx.floating)
            or (codes.size and not (mx.min(codes).item() >= 0 and mx.max(codes).item() < codebook))):
        raise unusable(f"reference codes must be (frames, {groups}) integers in 0..{codebook - 1}")
    try:
        ref_text = json.loads(meta.get("ref_text", "null"))
    except json.JSONDecodeError:
        ref_text = None
    if not isinstance(ref_text, str) or not ref_text.strip():
        raise unusable("reference codes without their transcript")
    return Voice(xvector=xvector, ref_codes=codes, ref_text_ids=tokenizer.reference(ref_text).body,
                 ref_text=ref_text)
