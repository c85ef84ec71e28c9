"""One synthesis request, validated in one place: what every entry point (API, CLI, engine) runs.

`build_request` turns the documented keyword arguments into a frozen `Request`: text cleaned,
voice resolved once (preset speaker, saved voice or reference audio), sampling resolved from
generation_config plus overrides, seed and frame cap checked. Nothing is generated here.
"""

import re
import warnings
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import Iterable, Optional

from .errors import InputError
from .prompt import Voice
from .sampling import SamplingConfig

TEXT_MODES = ("streaming", "non-streaming")
# Longer whole texts are refused: their audio (and its joining) would be held in memory at once.
MAX_TEXT_CHARS = 20_000
# Control characters (Unicode Cc) except tab and newline: not speakable, removed before tokenizing.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Request:
    text: Optional[str]  # whole text (cleaned); None when `deltas` is given
    deltas: Optional[Iterable[str]]  # text arriving as deltas (streaming text layout); None for whole text
    voice: Voice  # resolved once: preset speaker, cloned/saved voice, or default
    language: str = "auto"
    instruct: Optional[str] = None  # None where the model ignores it (warning given when built)
    text_mode: str = "streaming"  # "streaming" | "non-streaming" (deltas imply streaming)
    sampling: SamplingConfig = SamplingConfig()  # generation_config defaults + user overrides, validated
    seed: Optional[int] = None  # integer in [0, 2**64)
    max_frames: Optional[int] = None  # user cap (<= generation_config max_new_tokens); None: budget from text
    first_chunk_frames: int = 1
    chunk_frames: int = 4


def clean_text(text, what: str = "text") -> str:
    """`text` without control characters (newline and tab kept); InputError unless it is a str."""
    if not isinstance(text, str):
        raise InputError(f"the {what} must be a str, got {type(text).__name__}")
    return _CONTROL.sub("", text)


def _integer(value, name: str, low: int, high: int, why: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or not low <= value <= high:
        raise InputError(f"{name} must be an integer from {low} to {high}{why}, got {value!r}")
    return int(value)


def resolve_voice(tts, speaker=None, voice=None, ref_audio=None, ref_text=None, x_vector_only=False) -> Voice:
    """The Voice for these arguments: preset speaker, saved voice (path or Voice) or reference audio."""
    if speaker is not None and not isinstance(speaker, str):
        raise InputError(f"speaker must be a name (str), got {type(speaker).__name__}")
    if ref_audio is not None:
        if voice is not None:
            raise InputError("give either a saved voice or reference audio, not both")
        voice = tts.clone(ref_audio, ref_text, x_vector_only)
    elif isinstance(voice, (str, Path)):
        voice = tts.load_voice(voice)
    elif (ref_text or x_vector_only) and voice is None:
        raise InputError("--ref-text and --x-vector-only need reference audio (--ref-audio)")
    if voice is not None and not isinstance(voice, Voice):
        raise InputError(f"voice must be a saved voice file or a Voice, got {type(voice).__name__}")
    if voice is not None and speaker:
        raise InputError("a cloned voice and a preset speaker cannot be combined")
    if voice is not None and voice.xvector is not None and tts.variant != "base":
        raise InputError(f"cloned voices need a Base model; this is a {tts.variant} model")
    if speaker:
        return Voice(speaker=speaker)
    if voice is None and tts.variant == "custom_voice":
        return Voice(speaker=tts.default_speaker())
    return voice or Voice()


def _instruct(tts, instruct) -> Optional[str]:
    if not instruct:
        return None
    instruct = clean_text(instruct, "instruct")
    if tts.variant == "base" or (tts.variant == "custom_voice" and tts.config.tts_model_size == "0b6"):
        what = "Base models ignore" if tts.variant == "base" else "the 0.6B CustomVoice model ignores"
        warnings.warn(f"{what} instructions (as upstream does); --instruct is not used", stacklevel=4)
        return None
    return instruct


def build_request(tts, text=None, deltas=None, language: str = "auto", speaker=None, instruct=None,
                  text_mode=None, voice=None, ref_audio=None, ref_text=None, x_vector_only=False,
                  sampling: Optional[SamplingConfig] = None, temperature=None, top_k=None, top_p=None,
                  repetition_penalty=None, seed=None, max_tokens=None, first_chunk_frames=1,
                  chunk_frames=4) -> Request:
    """A validated Request for `tts`; raises InputError naming the first bad argument."""
    if (text is None) == (deltas is None):
        raise InputError("give the text either whole or as deltas, not both" if text is not None
                         else "no text: give some text to speak")
    if text is not None:
        text = clean_text(text)
        if not text.strip():
            raise InputError("the text is empty; give some text to speak")
        if len(text) > MAX_TEXT_CHARS:
            raise InputError(f"the text has {len(text):,} characters; at most {MAX_TEXT_CHARS:,} are spoken in one "
                             "call (20-60 minutes of speech): split it into parts and synthesize each")
        text_mode = text_mode or tts.default_text_mode()
        if text_mode not in TEXT_MODES:
            raise InputError(f"unknown text mode '{text_mode}'; choose streaming or non-streaming")
    else:
        if isinstance(deltas, (str, bytes)) or not hasattr(deltas, "__iter__"):
            raise InputError("deltas must be an iterable of str (text as it is written)")
        if text_mode not in (None, "streaming"):
            raise InputError("text given as deltas uses the streaming text mode")
        text_mode, deltas = "streaming", (clean_text(delta, "text delta") for delta in deltas)
    if not isinstance(language, str):
        raise InputError(f"language must be a str, got {type(language).__name__}")
    if max_tokens is not None:
        max_tokens = _integer(max_tokens, "max_tokens", 1, tts.max_new_tokens,
                              " (max_new_tokens in generation_config.json)")
    if seed is not None:
        seed = _integer(seed, "seed", 0, 2**64 - 1)
    first_chunk_frames = _integer(first_chunk_frames, "first_chunk_frames", 1, 2**31)
    chunk_frames = _integer(chunk_frames, "chunk_frames", 1, 2**31)
    sampling = (sampling or tts.sampling).override(temperature, top_k, top_p, repetition_penalty)
    return Request(
        text=text, deltas=deltas, voice=resolve_voice(tts, speaker, voice, ref_audio, ref_text, x_vector_only),
        language=language, instruct=_instruct(tts, instruct), text_mode=text_mode, sampling=sampling, seed=seed,
        max_frames=max_tokens, first_chunk_frames=first_chunk_frames, chunk_frames=chunk_frames,
    )
