"""A long recording cut into utterances at its words: the aligner's word times of its transcript.

Each aligner word is found in the transcript as written (the aligner keeps a word's letters, digits and
apostrophes, `aligner.words`), so a cut between two words splits the text there: the punctuation after a word
stays with it, the space after that is dropped, what opens the next word goes with it. Pieces are chosen from
the start: the next cut is the last sentence end (the text between the two words holds `SENTENCE_ENDS`) that
leaves a piece of at most `longest` seconds, else the longest gap between two words there; every piece is at
least `shortest` seconds, and the cut lies in the middle of the silence between the two words. The pieces'
texts joined (each cut a space, or nothing where the text had none) are the transcript.
"""

from dataclasses import dataclass
from typing import List, Optional, Sequence

SENTENCE_ENDS = frozenset(".!?。！？…‽؟।｡")


class Unplaced(ValueError):
    """The word times cannot cut the recording (a word not in its text, or no cut leaves pieces short enough)."""


@dataclass(frozen=True)
class Gap:
    """Where the text and the recording may be cut between word `after` and the next: `split` (a character of
    the text), `at` (seconds: the middle of the silence between them), `length` (seconds) and `sentence`."""

    after: int
    split: int
    at: float
    length: float
    sentence: bool


def placed(text: str, words: Sequence) -> List[tuple]:
    """The (first, past-last) characters in `text` of each aligner word (`.text`), in order; Unplaced where a
    word is not the next letters and digits of `text`."""
    from ..aligner.words import kept  # the aligner's package loads MLX; cutting's unit tests need only this

    out, at = [], 0
    for word in words:
        first = None
        for ch in word.text:
            while at < len(text) and text[at] != ch and not kept(text[at]):
                at += 1
            if at == len(text) or text[at] != ch:
                raise Unplaced(f"the aligner's word {word.text!r} is not in the transcript where expected")
            first = at if first is None else first
            at += 1
        if first is not None:
            out.append((first, at))
    return out


def gaps(text: str, words: Sequence, spans: Sequence) -> List[Gap]:
    """Every place between two words where a cut may fall."""
    out = []
    for i in range(len(words) - 1):
        between = text[spans[i][1]:spans[i + 1][0]]
        space = next((k for k, ch in enumerate(between) if ch.isspace()), len(between))
        silence = max(words[i + 1].start - words[i].end, 0.0)
        out.append(Gap(i, spans[i][1] + space, words[i].end + silence / 2, silence,
                       any(ch in SENTENCE_ENDS for ch in between)))
    return out


def choose(candidates: Sequence[Gap], seconds: float, longest: float, shortest: float) -> Optional[List[Gap]]:
    """The cuts of a recording of `seconds` into pieces of `shortest`..`longest` seconds: from the start, the
    last sentence end that fits, else the longest gap that fits (the later on a tie); None where none fits."""
    chosen, start = [], 0.0
    while seconds - start > longest:
        fits = [g for g in candidates if shortest <= g.at - start <= longest and seconds - g.at >= shortest
                and (not chosen or g.after > chosen[-1].after)]
        if not fits:
            return None
        ends = [g for g in fits if g.sentence]
        cut = ends[-1] if ends else max(fits, key=lambda g: (g.length, g.after))
        chosen.append(cut)
        start = cut.at
    return chosen


def pieces(text: str, words: Sequence, seconds: float, longest: float, shortest: float) -> List[tuple]:
    """[(start_s, end_s, text)] of the recording (`seconds` long) whose transcript `text` the aligner timed as
    `words` (`.text`, `.start`, `.end` in seconds); Unplaced where they cannot cut it."""
    cuts = choose(gaps(text, words, placed(text, words)), seconds, longest, shortest)
    if cuts is None:
        raise Unplaced(f"its word times leave no cut into pieces of {shortest:g}-{longest:g} s")
    bounds = [(0.0, 0)] + [(g.at, g.split) for g in cuts] + [(seconds, len(text))]
    return [(a, b, text[i:j].strip()) for (a, i), (b, j) in zip(bounds, bounds[1:])]
