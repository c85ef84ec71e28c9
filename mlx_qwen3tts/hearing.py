"""Speech heard back: a recognizer (Qwen3-ASR, `mlx_qwen3tts.asr`) turned on what the package says or is given.

Two uses. Cloning without a transcript: a reference clip given without its text is transcribed
(`VoiceMaker.hear`) and cloned in context with what was heard. Narration that checks itself: each piece,
once made, is transcribed and compared with the text it read (`error_rate`, a character error rate); a
piece heard too far from its text is made again with a derived seed (`seeds.check_seed`) up to `tries`
times and the best kept (`Check.best`); the checks go into a JSON report (`report_bytes`).

A recognizer is anything with `transcribe(audio, sample_rate, language=None)` returning an object with
`.text` (and `.language`); `recognizer` loads one from a folder or hub id when asked for by name. One whose
`transcribe` also takes `expected` (Qwen3-ASR's) is told the text a check compares with, and stops decoding where
no transcript could pass any more (`asr.Recognizer.text_cap`).
"""

import inspect
import json
import unicodedata
from dataclasses import asdict, dataclass
from typing import Callable, Iterable, Optional, Tuple

import numpy as np

from .errors import InputError

DEFAULT_ASR = "Qwen/Qwen3-ASR-0.6B"
# A piece heard with more than this share of its characters wrong is made again. Published round trips through
# Qwen3-ASR-0.6B hear good Qwen3-TTS speech at a word error rate of about 0.10 (8-bit, speech-swift's table): about
# one word in a sentence. On the quality benchmark's sentences (benchmarks/check_threshold.py) one word wrong gives
# a median rate of 0.10-0.19 by language and passes 0.25 in 79-100% of cases; three words said twice give 0.32-0.54
# and fail it in 77-100%; half a sentence, 0.5; another language, 0.93 and more. See docs/asr.md#checking-narration.
DEFAULT_THRESHOLD = 0.25
DEFAULT_TRIES = 3


def recognizer(given):
    """A recognizer from `given`: None (none), a folder or hub id (loaded with `mlx_qwen3tts.asr.load`), or an
    object with `transcribe(audio, sample_rate, language=None)` (used as it is)."""
    if given is None:
        return None
    if isinstance(given, str):
        from . import asr  # the recognizer's model code, loaded only when one is asked for

        return asr.load(given)
    if not callable(getattr(given, "transcribe", None)):
        raise InputError(f"{{asr}} must be a folder, a hub id or a recognizer (with transcribe), got "
                         f"{type(given).__name__}", field="asr")
    return given


def heard(recognizer, audio: np.ndarray, sample_rate: int, language: Optional[str] = None,
          text: Optional[str] = None) -> str:
    """What `recognizer` hears in `audio`, in `language` where it knows it (a language it does not know, or
    'auto', is left for it to detect). `text`: what the audio should say (a check's), told to a recognizer that
    takes it (`expected`), so that one that never stops costs no more than the text can."""
    told = {"expected": text} if text is not None and _takes_expected(recognizer) else {}
    if language in (None, "", "auto"):
        return recognizer.transcribe(audio, sample_rate, **told).text.strip()
    try:
        return recognizer.transcribe(audio, sample_rate, language=language, **told).text.strip()
    except InputError:  # a language the model speaks and the recognizer does not name (a dialect)
        return recognizer.transcribe(audio, sample_rate, **told).text.strip()


def _takes_expected(recognizer) -> bool:
    try:
        return "expected" in inspect.signature(recognizer.transcribe).parameters
    except (TypeError, ValueError):  # a builtin or C callable: no signature to read
        return False


def comparable(text: str) -> str:
    """`text` as the error rate compares it: NFC-normalized, casefolded, punctuation and whitespace removed."""
    text = unicodedata.normalize("NFC", text).casefold()
    return "".join(c for c in text if not (c.isspace() or unicodedata.category(c)[0] in "PZ"))


def levenshtein(a, b) -> int:
    """Edits (insertions, deletions, substitutions) that turn sequence `a` into `b`."""
    if len(a) < len(b):
        a, b = b, a
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        diagonal, row[0] = row[0], i
        for j, y in enumerate(b, start=1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (x != y))
    return row[-1]


def error_rate(text: str, heard_text: str) -> float:
    """The character error rate of `heard_text` against `text`: Levenshtein distance over the length of the text,
    both `comparable`; a text with no characters left is heard right only when nothing is heard."""
    want, got = comparable(text), comparable(heard_text)
    if not want:
        return 0.0 if not got else 1.0
    return levenshtein(want, got) / len(want)


@dataclass(frozen=True)
class PieceCheck:
    """One piece heard back: its text as read, what the recognizer heard in the audio kept, that audio's error
    rate, how many times the piece was made, and whether the kept audio is within the threshold."""

    text: str
    heard: str
    error_rate: float
    tries: int
    passed: bool

    def as_json(self) -> dict:
        return {**asdict(self), "error_rate": round(self.error_rate, 4)}


@dataclass(frozen=True)
class Check:
    """How pieces are checked: made again while their error rate is over `threshold`, at most `tries` times in all
    (the first included), heard by `recognizer` (None: the model's, `TTS.asr`)."""

    threshold: float = DEFAULT_THRESHOLD
    tries: int = DEFAULT_TRIES
    recognizer: object = None

    def __post_init__(self):
        if isinstance(self.threshold, bool) or not isinstance(self.threshold, (int, float)) \
                or not 0 <= self.threshold <= 1:
            raise InputError(f"{{check_threshold}} must be a number from 0 to 1, got {self.threshold!r}",
                             field="check_threshold")
        if isinstance(self.tries, bool) or not isinstance(self.tries, int) or not 1 <= self.tries <= 10:
            raise InputError(f"{{check_tries}} must be a whole number from 1 to 10, got {self.tries!r}",
                             field="check_tries")

    def best(self, text: str, made, audio_of: Callable, rate: int, language: Optional[str] = None,
             again: Optional[Callable[[int], object]] = None) -> Tuple[object, PieceCheck]:
        """The best of a piece's makings and its check: `made` (the first), then `again(attempt)` for attempts
        1, 2, ... while it is heard over the threshold (`again` None: it cannot come out otherwise, greedy).
        `audio_of(made)` is its audio at `rate`; `text` what it read. The lowest error rate wins, the earliest
        of equals."""
        # No bound on the first rate: a recognizer that hears far more than was read (a runaway, a hallucination)
        # gives a rate over 1, and the first making must still be kept.
        best, best_heard, best_rate, tries = None, "", float("inf"), 0
        for attempt in range(self.tries if again is not None else 1):
            current = made if attempt == 0 else again(attempt)
            tries += 1
            said = heard(self.recognizer, audio_of(current), rate, language, text)
            rate_now = error_rate(text, said)
            if rate_now < best_rate:
                best, best_heard, best_rate = current, said, rate_now
            if best_rate <= self.threshold:
                break
        return best, PieceCheck(text, best_heard, best_rate, tries, best_rate <= self.threshold)


def report_bytes(checks: Iterable[PieceCheck], threshold: float) -> bytes:
    """The report of `--check`: a JSON object whose "pieces" are the checks in order."""
    pieces = [c.as_json() for c in checks]
    return json.dumps({"threshold": threshold, "passed": sum(p["passed"] for p in pieces), "pieces": pieces},
                      ensure_ascii=False, indent=1).encode() + b"\n"


def summary(checks: Iterable[PieceCheck]) -> str:
    """One line on what the checks found."""
    checks = list(checks)
    failed = [i + 1 for i, c in enumerate(checks) if not c.passed]
    again = sum(c.tries > 1 for c in checks)
    worst = max((c.error_rate for c in checks), default=0.0)
    line = (f"check: {len(checks) - len(failed)} of {len(checks)} pieces heard as written (worst error rate "
            f"{worst:.2f}); {again} made again")
    if failed:
        line += f"; still over the threshold: piece{'s' if len(failed) > 1 else ''} " + ", ".join(map(str, failed[:10]))
        line += " ..." if len(failed) > 10 else ""
    return line
