"""Text before it is spoken: a frame budget from text length (here); sentences and pieces (`pieces`); respellings
(`lexicon`), numbers, dates and symbols as words (`normalize`) and Markdown as a listener hears it
(`markdown`) in the modules beside."""

import re

import numpy as np

from ..codec import FRAMES_PER_SECOND
from .cutting import CUT, PieceCutter, StreamedPieces, sentences, split_sentences  # noqa: F401

# The checkpoints name languages in English; clients (Home Assistant, browsers) and num2words by ISO 639-1 codes.
LANGUAGE_CODES = {"chinese": "zh", "english": "en", "french": "fr", "german": "de", "italian": "it",
                  "japanese": "ja", "korean": "ko", "portuguese": "pt", "russian": "ru", "spanish": "es"}

# Control characters but newline and tab: never spoken (the request layer drops them from every text).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

SECONDS_PER_TOKEN = 1.0  # ~3x a typical speaking rate (0.3 s per token): a bound, not an estimate
BASE_SECONDS = 3.0


def frame_budget(n_text_tokens: int) -> int:
    """The default frame cap (max_tokens): generous for real speech, short enough that a runaway stops early."""
    return int(np.ceil(FRAMES_PER_SECOND * (BASE_SECONDS + SECONDS_PER_TOKEN * n_text_tokens)))
