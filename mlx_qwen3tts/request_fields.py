"""Every field a synthesis request takes, declared once (`Asked`), and each front end's names for them.

Light on purpose (no MLX): the CLI reads it to name its options before any model code is imported.
"""

from dataclasses import dataclass, fields
from typing import Iterable, Optional


@dataclass(frozen=True)
class Asked:
    """A request's fields as the caller gave them, every one declared here (defaults as the API's)."""

    text: Optional[str] = None  # the whole text, or
    deltas: Optional[Iterable[str]] = None  # the text as it is written
    language: str = "auto"
    speaker: Optional[str] = None  # a preset's name, or a blend of presets ("aiden:0.7+vivian:0.3")
    instruct: Optional[str] = None
    text_mode: Optional[str] = None
    voice: object = None  # a Voice, a saved voice file, or a blend (a `voices.Blend`, or (voice, weight) pairs)
    ref_audio: object = None  # a path or (samples, sample_rate)
    ref_text: Optional[str] = None
    x_vector_only: bool = False
    xvector: object = None  # a speaker embedding given whole (numbers, as many as the model's hidden size): Base
    task: Optional[str] = None  # the model kind the caller expects: Base, CustomVoice or VoiceDesign (None: any)
    sampling: object = None  # a SamplingConfig
    temperature: Optional[float] = None
    top_k: Optional[int] = None
    top_p: Optional[float] = None
    repetition_penalty: Optional[float] = None
    seed: Optional[int] = None
    max_tokens: Optional[int] = None
    first_chunk_frames: int = 1  # frames in the first audio chunk (vLLM-Omni's initial_codec_chunk_frames)
    chunk_frames: Optional[int] = None  # frames in each later chunk; None: chunks that grow (audio.chunks)
    normalize: bool = True  # numbers, dates, symbols and abbreviations said as words (False: the text as given)
    lexicon: object = None  # respellings: a Lexicon or its TSV file
    markdown: bool = False  # Markdown read as a listener hears it (text given whole)
    guard: bool = True  # the runaway guard (loop/runaway.py): speech that will not end is caught as it happens


FIELDS = tuple(f.name for f in fields(Asked))


def field_names(**renamed: str) -> dict:
    """Every request field's name in one front end: its own, unless `renamed` (field -> name there)."""
    unknown = set(renamed) - set(FIELDS)
    if unknown:
        raise ValueError(f"not request fields: {', '.join(sorted(unknown))}")
    return {name: renamed.get(name, name) for name in FIELDS}
