"""Text before it is spoken: sentence splitting and a frame budget from text length (here); respellings
(`lexicon`), numbers, dates and symbols as words (`normalize`) and Markdown as a listener hears it
(`markdown`) in the modules beside."""

import re

import numpy as np

from ..codec import FRAMES_PER_SECOND

# The checkpoints name languages in English; clients (Home Assistant, browsers) and num2words by ISO 639-1 codes.
LANGUAGE_CODES = {"chinese": "zh", "english": "en", "french": "fr", "german": "de", "italian": "it",
                  "japanese": "ja", "korean": "ko", "portuguese": "pt", "russian": "ru", "spanish": "es"}

# Sentence ends in Latin, CJK and other scripts; the closing quotes/brackets stay with the sentence.
_SENTENCE = re.compile(r"(.+?(?:[.!?;…]+[\"'”’)\]]*(?=\s)|[。！？；]+[\"'”’」』）)]*|\n\s*\n|$))", re.S)
SECONDS_PER_TOKEN = 1.0  # ~3x a typical speaking rate (0.3 s per token): a bound, not an estimate
BASE_SECONDS = 3.0


def split_sentences(text: str, max_chars: int = 300) -> list:
    """Sentences of `text`, merged greedily into pieces of at most `max_chars` where possible.

    A single sentence longer than `max_chars` is cut at the last comma or space before the limit.
    """
    sentences = [s for s in (m.group(0).strip() for m in _SENTENCE.finditer(text)) if s]
    pieces, current = [], ""
    for sentence in sentences:
        *heads, sentence = _cut(sentence, max_chars)
        if heads and current:
            pieces.append(current)
            current = ""
        pieces.extend(heads)
        if current and len(current) + 1 + len(sentence) > max_chars:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip() if current and not _cjk(current[-1]) else current + sentence
    if current:
        pieces.append(current)
    return pieces


def sentences(text: str, max_chars: int = 300) -> list:
    """Every sentence of `text` on its own (not merged), cut as `split_sentences` cuts one longer than `max_chars`."""
    return [piece for m in _SENTENCE.finditer(text) if m.group(0).strip() for piece in _cut(m.group(0).strip(), max_chars)]


def _cut(sentence: str, max_chars: int) -> list:
    """`sentence` in pieces of at most `max_chars`, each cut at the last comma or space before the limit."""
    pieces = []
    while len(sentence) > max_chars:
        cut = max(sentence.rfind(sep, 0, max_chars) for sep in (", ", "，", "、", " "))
        cut = cut + 1 if cut > 0 else max_chars
        head, sentence = sentence[:cut].strip(), sentence[cut:].strip()
        pieces.append(head)
    return pieces + [sentence]


def _cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


def frame_budget(n_text_tokens: int) -> int:
    """The default frame cap (max_tokens): generous for real speech, short enough that a runaway stops early."""
    return int(np.ceil(FRAMES_PER_SECOND * (BASE_SECONDS + SECONDS_PER_TOKEN * n_text_tokens)))
