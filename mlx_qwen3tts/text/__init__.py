"""Text before it is spoken: the characters never spoken (here; language codes are `..languages`'); sentences
and pieces (`cutting`); respellings (`lexicon`), numbers, dates and symbols as words (`normalize`), each paragraph
in its language (`reading`: `spoken(text, language)` is a text as it will be spoken) and Markdown as a listener
hears it (`markdown`) in the modules beside."""

import re

from ..languages import LANGUAGE_CODES  # noqa: F401  (normalize's codes)
from .cutting import CUT, PieceCutter, StreamedPieces, sentences, split_sentences  # noqa: F401
from .reading import has_words, spoken, spoken_deltas  # noqa: F401

# Control characters but newline and tab: never spoken (the request layer drops them from every text).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
