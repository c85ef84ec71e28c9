"""The runaway guard: speech that will not end, seen while it is generated (the official model emits no
end-of-speech token in about 1 of 200 generations; random weights never do).

A `Runaway` watches one row's frames, reading only what the loop has on the host already (codebook 0 of
each frame as it is read, the frames given out, the text's length in tokens): no extra device sync. Three
rules, each written once here, each ending the row when it fires (`Runaway.seen` names it):

- "duration": more frames than twice the text read at the slowest plausible speaking rate (`speech_bound`).
  Only where the caller set no `max_tokens` (a cap the caller chose says how long is wanted).
- "silence": the same codebook-0 code held for `SILENCE_FRAMES` frames once the text is consumed (one
  frame per text token, the streaming layout's pace: a real ending comes well before that).
- "loop": codebook 0 repeating with a period of 1 to `LOOP_MAX_PERIOD` frames over `LOOP_FRAMES` frames
  (and at least `LOOP_REPEATS` periods), anywhere.

What happens next is the front end's: whole audio is spoken again once with a derived seed
(`seeds.derived_seed`), a stream ends where the rule fired and says so (docs/python.md#runaway-guard).

Where the "duration" bound comes from. It is twice (`MARGIN`) the time the text takes read at the slowest
rate a person plausibly asks for ("speak slowly", a meditation, a children's story), plus `LEAD_SECONDS`:
80 words a minute in the alphabetic languages (espeak-ng's slowest rate, `-s 80`; below the about 100 words
a minute of deliberately clear speech, Picheny, Durlach & Braida (1986), J. Speech Hear. Res. 29, and half a
conversational 160), 2.5 characters a second in Chinese and Japanese (half their usual 4 to 5). A text token
read at that rate (`SLOW_SECONDS_PER_TOKEN`) was measured on a paragraph of prose in each language
(tests/fixtures/runaway/paragraphs.json, with the model's tokenizer): the longer of espeak-ng's reading at
`-s 80` and 80 words a minute by word count (Chinese, Japanese: characters at 2.5 a second) over its tokens,
English 0.66 s, Japanese 0.59, Chinese 0.58, German and Spanish 0.49, Portuguese 0.48, French 0.46, Korean
0.44, Italian 0.43, Russian 0.35; each rounded up with a tenth or more to spare, the most for languages not
listed and "auto". tests/test_runaway.py checks the bound against those readings.
"""

import math
from typing import Callable, Dict, List, Optional

from ..codec import FRAMES_PER_SECOND

SLOW_WORDS_PER_MINUTE = 80  # alphabetic languages: espeak-ng's slowest rate
SLOW_CHARACTERS_PER_SECOND = 2.5  # Chinese and Japanese
SLOW_SECONDS_PER_TOKEN = {"english": 0.75, "japanese": 0.65, "chinese": 0.65, "german": 0.55, "spanish": 0.55,
                          "portuguese": 0.55, "french": 0.55, "korean": 0.5, "italian": 0.5, "russian": 0.45}
SLOWEST_SECONDS_PER_TOKEN = max(SLOW_SECONDS_PER_TOKEN.values())  # for languages not listed, and "auto"
MARGIN = 2.0  # the bound, of the slow reading
LEAD_SECONDS = 2.0  # breath and silence at the start and the end

SILENCE_FRAMES = round(3.0 * FRAMES_PER_SECOND)  # 3 s of one code after the text (fixtures: 9 frames at most)
LOOP_MAX_PERIOD = round(3.0 * FRAMES_PER_SECOND)  # a word or a short phrase said over and over
LOOP_FRAMES = round(4.0 * FRAMES_PER_SECOND)  # the shortest run a loop must repeat over
LOOP_REPEATS = 3  # a period is seen at least this many times
_LOOP_LENGTH = [0] + [max(LOOP_FRAMES, LOOP_REPEATS * p) for p in range(1, LOOP_MAX_PERIOD + 1)]  # per period


def seconds_per_token(language: str) -> float:
    """The time a text token may take in `language` (a model's language name, or "auto") before the "duration"
    rule fires: twice its slow reading."""
    return MARGIN * SLOW_SECONDS_PER_TOKEN.get(language, SLOWEST_SECONDS_PER_TOKEN)


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
