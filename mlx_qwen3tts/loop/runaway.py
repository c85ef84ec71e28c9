"""The runaway guard: speech that will not end, seen while it is generated (the official model emits no
end-of-speech token in about 1 of 200 generations; random weights never do).

A `Runaway` watches one row's frames, reading only what the loop has on the host already (codebook 0 of
each frame as it is read, the frames given out, the text's length in tokens): no extra device sync. Three
rules, each written once here, each ending the row when it fires (`Runaway.seen` names it):

- "duration": more frames than the text can take at the slowest plausible speaking rate (`speech_bound`).
  Only where the caller set no `max_tokens` (a cap the caller chose says how long is wanted).
- "silence": the same codebook-0 code held for `SILENCE_FRAMES` frames once the text is consumed (one
  frame per text token, the streaming layout's pace: a real ending comes well before that).
- "loop": codebook 0 repeating with a period of 1 to `LOOP_MAX_PERIOD` frames over `LOOP_FRAMES` frames
  (and at least `LOOP_REPEATS` periods), anywhere.

What happens next is the front end's: whole audio is spoken again once with a derived seed
(`seeds.derived_seed`), a stream ends where the rule fired and says so (docs/python.md#runaway-guard).

Where the rates come from. Syllable rates of read speech (syllables a second, pauses excluded):
Pellegrino, Coupe & Marsico (2011), "A cross-language perspective on speech information rate", Language
87(3): Mandarin 5.18, German 5.97, English 6.19, Italian 6.99, French 7.18, Spanish 7.82, Japanese 7.84;
the slowest, Mandarin's, stands for the languages it does not list. Deliberately slow, clear speech runs at
about half the conversational rate (Picheny, Durlach & Braida (1986), J. Speech Hear. Res. 29: about 100
against 200 words a minute): `SLOW_FRACTION`. Pauses take up to a fifth of read speech (Goldman-Eisler
1968): `PAUSES`. Syllables per text token, measured with the model's own tokenizer on the texts of
tests/fixtures/tokenizer/corpus.json (`SYLLABLES_PER_TOKEN`: Chinese 1.54, Japanese 1.22, Korean 1.07,
English 1.05, German 0.88, French/Spanish/Italian 0.85; the most, rounded up, where the language is not
known). The official model's reference outputs in tests/fixtures are of random weights, so they give no
speaking rate: they are the cases no rule may fire on (tests/test_runaway.py).
"""

import math
from typing import Callable, Dict, List, Optional

from ..codec import FRAMES_PER_SECOND

SYLLABLES_PER_SECOND = {"chinese": 5.18, "german": 5.97, "english": 6.19, "italian": 6.99, "french": 7.18,
                        "spanish": 7.82, "japanese": 7.84}
SLOWEST_RATE = min(SYLLABLES_PER_SECOND.values())  # for languages not listed, and "auto"
SYLLABLES_PER_TOKEN = {"chinese": 1.6, "japanese": 1.3, "korean": 1.1}
ALPHABETIC_SYLLABLES_PER_TOKEN = 1.1  # English 1.05, German 0.88, Romance 0.85 in the corpus
MOST_SYLLABLES_PER_TOKEN = 1.6  # "auto": any of them
SLOW_FRACTION = 0.5  # the slowest plausible rate, of the normal one
PAUSES = 1.25  # speech time with its pauses, of the time without
LEAD_SECONDS = 2.0  # breath and silence at the start and the end

SILENCE_FRAMES = round(3.0 * FRAMES_PER_SECOND)  # 3 s of one code after the text (fixtures: 9 frames at most)
LOOP_MAX_PERIOD = round(3.0 * FRAMES_PER_SECOND)  # a word or a short phrase said over and over
LOOP_FRAMES = round(4.0 * FRAMES_PER_SECOND)  # the shortest run a loop must repeat over
LOOP_REPEATS = 3  # a period is seen at least this many times
_LOOP_LENGTH = [0] + [max(LOOP_FRAMES, LOOP_REPEATS * p) for p in range(1, LOOP_MAX_PERIOD + 1)]  # per period


def seconds_per_token(language: str) -> float:
    """The longest a text token plausibly takes to say in `language` (a model's language name, or "auto")."""
    if language not in SYLLABLES_PER_SECOND and language not in SYLLABLES_PER_TOKEN:
        syllables, rate = MOST_SYLLABLES_PER_TOKEN, SLOWEST_RATE
    else:
        syllables = SYLLABLES_PER_TOKEN.get(language, ALPHABETIC_SYLLABLES_PER_TOKEN)
        rate = SYLLABLES_PER_SECOND.get(language, SLOWEST_RATE)
    return syllables / (SLOW_FRACTION * rate) * PAUSES


def speech_bound(n_text_tokens: int, language: str) -> int:
    """The most frames a text of `n_text_tokens` tokens plausibly takes to say (the "duration" rule)."""
    return math.ceil(FRAMES_PER_SECOND * (LEAD_SECONDS + seconds_per_token(language) * n_text_tokens))


class Runaway:
    """The rules over one row's frames (see the module docstring). `tokens()`: the text's length in tokens so
    far (it grows while a streamed text arrives); `bounded`: whether the "duration" rule applies. `see` takes
    each frame's codebook-0 code as it is read and returns the rule that fired, if any (also in `seen`)."""

    def __init__(self, tokens: Callable[[], int], language: str, bounded: bool = True):
        self.tokens, self.language, self.bounded = tokens, language, bounded
        self.frames, self.bound, self.looped = 0, None, False
        self.codes: List[int] = []  # the last codes (at most 2 * LOOP_MAX_PERIOD), newest last
        self.matches: Dict[int, int] = {}  # per period p: frames in a row equal to the one p before (0: left out)
        self.seen: Optional[str] = None

    def see(self, code: int) -> Optional[str]:
        self.frames += 1
        self._repeat(code)
        if self.seen is None:
            self.seen = self._rule()
        return self.seen

    def _repeat(self, code: int):
        """Each period's run of matches (only those where the code was seen within the longest period are not 0:
        in speech, most frames repeat none of the last ones), and whether one is a loop by now."""
        window, matches = self.codes[-LOOP_MAX_PERIOD:], {}
        if code in window:
            n = len(window)
            for i, seen in enumerate(window):
                if seen == code:
                    p = n - i
                    matches[p] = self.matches.get(p, 0) + 1
                    self.looped = self.looped or matches[p] + p >= _LOOP_LENGTH[p]
        self.matches = matches
        self.codes.append(code)
        if len(self.codes) > 2 * LOOP_MAX_PERIOD:
            del self.codes[:LOOP_MAX_PERIOD]

    def _rule(self) -> Optional[str]:
        if self.bounded and self.frames > self._bound():
            return "duration"
        held = self.matches.get(1, 0) + 1  # frames of the last code in a row
        if held >= SILENCE_FRAMES and self.frames - SILENCE_FRAMES >= self.tokens():
            return "silence"
        return "loop" if self.looped else None

    def _bound(self) -> int:
        """The "duration" bound, worked out again only once passed (a streamed text's length grows)."""
        if self.bound is None or self.frames > self.bound:
            self.bound = speech_bound(self.tokens(), self.language)
        return self.bound
