"""Spoken words' times given to the words as written: the one rule of every word time this package gives.

The model speaks a text's spoken form (numbers, amounts, abbreviations as words: "12,50 €" is "zwölf Euro
fünfzig"); the aligner times the words of what was spoken; the listener reads what was written. So the words
timed are the written text's (split as the aligner splits words), each with the time its spoken form took:
the two word lists are matched (equal words, any case), and a run of written words between two matches takes
the time of the run of spoken words between them ("1250" from the start of "zwölf" to the end of "fünfzig"),
shared in order where the written run has several words; a written word with nothing spoken for it (its spoken
run is empty) is placed, with no length, where the spoken words before it end.
"""

from difflib import SequenceMatcher
from typing import List, Sequence

from . import Word
from .words import split_words


def as_written(written: str, spoken: Sequence[Word], language: str) -> List[Word]:
    """The words of `written` (split as the aligner splits words in `language`) with the times of `spoken` (the
    aligner's words of its spoken form)."""
    words = split_words(written, language)
    keys = [w.text.casefold() for w in spoken]
    match = SequenceMatcher(None, [w.casefold() for w in words], keys, autojunk=False)
    out = []
    for tag, a, b, c, d in match.get_opcodes():
        if tag == "equal":
            out += [Word(words[a + i], spoken[c + i].start, spoken[c + i].end) for i in range(b - a)]
        else:
            out += _shared(words[a:b], spoken[c:d], out[-1].end if out else spoken[0].start if spoken else 0.0)
    return out


def _shared(words: List[str], spoken: Sequence[Word], before: float) -> List[Word]:
    """Written `words` over the time of the `spoken` run that says them, in order; `before`: where the run starts
    when nothing is spoken for them."""
    out = []
    for i, word in enumerate(words):
        run = spoken[i * len(spoken) // len(words):(i + 1) * len(spoken) // len(words)]
        at = out[-1].end if out else before
        out.append(Word(word, run[0].start, run[-1].end) if run else Word(word, at, at))
    return out
