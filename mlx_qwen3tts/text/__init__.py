"""Text before it is spoken: language codes and the characters never spoken (here); sentences and pieces
(`cutting`); respellings (`lexicon`), numbers, dates and symbols as words (`normalize`) and Markdown as a
listener hears it (`markdown`) in the modules beside."""

import re

from .cutting import CUT, PieceCutter, StreamedPieces, sentences, split_sentences  # noqa: F401

# The checkpoints name languages in English; clients (Home Assistant, browsers) and num2words by ISO 639-1 codes.
LANGUAGE_CODES = {"chinese": "zh", "english": "en", "french": "fr", "german": "de", "italian": "it",
                  "japanese": "ja", "korean": "ko", "portuguese": "pt", "russian": "ru", "spanish": "es"}

# Control characters but newline and tab: never spoken (the request layer drops them from every text).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
