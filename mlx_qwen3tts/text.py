"""Long text: sentence splitting, a frame budget from text length, and click-free joining."""

import re

import numpy as np

from .codec import FRAMES_PER_SECOND

# Sentence ends in Latin, CJK and other scripts; the closing quotes/brackets stay with the sentence.
_SENTENCE = re.compile(r"(.+?(?:[.!?;…]+[\"'”’)\]]*(?=\s)|[。！？；]+[\"'”’」』）)]*|\n\s*\n|$))", re.S)
SECONDS_PER_TOKEN = 1.0  # ~3x a typical speaking rate (0.3 s per token): a bound, not an estimate
BASE_SECONDS = 3.0


def split_sentences(text: str, max_chars: int = 300) -> list:
    """Sentences of `text`, merged greedily into pieces of at most `max_chars` where possible.

    A single sentence longer than `max_chars` is cut at the last comma or space before the limit.
    """
    sentences = [m.group(0).strip() for m in _SENTENCE.finditer(text)]
    sentences = [s for s in sentences if s]
    pieces, current = [], ""
    for sentence in sentences:
        while len(sentence) > max_chars:
            cut = max(sentence.rfind(sep, 0, max_chars) for sep in (", ", "，", "、", " "))
            cut = cut + 1 if cut > 0 else max_chars
            head, sentence = sentence[:cut].strip(), sentence[cut:].strip()
            if current:
                pieces.append(current)
                current = ""
            pieces.append(head)
        if current and len(current) + 1 + len(sentence) > max_chars:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip() if current and not _cjk(current[-1]) else current + sentence
    if current:
        pieces.append(current)
    return pieces


def _cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


def frame_budget(n_text_tokens: int) -> int:
    """Default --max-tokens: generous for real speech, short enough that a runaway stops early."""
    return int(np.ceil(FRAMES_PER_SECOND * (BASE_SECONDS + SECONDS_PER_TOKEN * n_text_tokens)))


def join_audio(pieces, sample_rate: int, pause_s: float = 0.12, fade_s: float = 0.005) -> np.ndarray:
    """Concatenate segments with a short pause; fade each edge so no step in the waveform clicks."""
    fade = max(int(fade_s * sample_rate), 1)
    ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, fade, dtype=np.float32))
    gap = np.zeros(int(pause_s * sample_rate), dtype=np.float32)
    out = []
    for i, piece in enumerate(pieces):
        piece = np.array(piece, dtype=np.float32, copy=True)
        if piece.shape[0] >= 2 * fade:
            piece[:fade] *= ramp
            piece[-fade:] *= ramp[::-1]
        if i:
            out.append(gap)
        out.append(piece)
    return np.concatenate(out) if out else np.zeros((0,), dtype=np.float32)
