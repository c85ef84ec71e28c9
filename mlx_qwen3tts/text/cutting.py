"""Text cut at sentence ends into pieces of a bounded length, whole (`split_sentences`) or as it arrives
(`PieceCutter`, `StreamedPieces`): the one cut every front end speaks a long text in."""

import re
import threading
from collections import deque
from typing import Iterable, Iterator

from .abbreviations import ABBREVIATIONS as SAID_IN_FULL, GO_ON, MONTHS_SHORT

# Sentence ends in Latin, CJK and other scripts; the closing quotes/brackets stay with the sentence. A dot
# is no end after an abbreviation that always goes on ("e.g.", "Dr.", each language's in `abbreviations`: "z. B.",
# "p. ex.", "Fig."), an initial ("L."), or two letters each with its dot ("i.e.", "z.B."); nor after one that a
# number follows ("Jan. 2024", "No. 5"), nor after a number's dot (an ordinal, a section's number) unless a
# whole word follows that starts with a capital and is no month ("Am 3. Oktober kam er" is one sentence, "Es
# war Version 3. Dann kam 4." two); an ellipsis or "etc." (also "etc.)") ends one only where a capital follows,
# and an ellipsis in or right after brackets ("[OPTION...]", "[FILE]...", a synopsis's) never. A unit's or a
# reference's (`abbreviations.GO_ON`: "10 min. then stir", "eq. 3") and a month's after a day ("5 de mar. de 2024")
# is no end where a small letter or a number follows, only where a capital or a mark does; so is any abbreviation's
# before a closing bracket ("Platone (427-347 a.C.) scrisse").
ABBREVIATIONS = ("Mr", "Mrs", "Ms", "Dr", "Prof", "St", "Jr", "Sr", "vs", "cf", "Cf", "approx", "bzw", "ca", "Mt",
                 "Capt", "Lt", "Sgt", "Rev", "Hon")  # not "No." ("No. He stayed.") nor "et al." (often an end)
BEFORE_A_NUMBER = ("No", "no", "Nos", "p", "pp", "vol", "Vol", "ch", "Ch", "Kap", "Abb", "Tab", "Bd", "art", "Art",
                   "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Okt", "Nov", "Dec", "Dez")
MONTHS = ("Januar", "Jänner", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember")  # German writes the day's ordinal dot before them ("3. Oktober")


def _written(said_in_full: dict) -> list:
    """Every language's abbreviations as written, each also without its inner spaces ("z. B.", "z.B.")."""
    written = {a for table in said_in_full.values() for a in table if a.endswith(".")}
    return sorted(written | {a.replace(" ", "") for a in written}, key=len, reverse=True)


def _first_parts(said_in_full: dict) -> str:
    """No end at the inner dot of an abbreviation written with a space ("z." of "z. B."): where the rest follows,
    or could still follow (the next characters are not all there yet)."""
    rules = set()
    for written in (a for table in said_in_full.values() for a in table if ". " in a):
        parts = written.split(". ")
        for i in range(1, len(parts)):  # every inner dot: "i." and "i. d." of "i. d. R."
            head, rest = ". ".join(parts[:i]), ". ".join(parts[i:])
            # not (after the head and without the rest next): one lookahead, which the engine never backtracks
            # into, where an alternation of the two per abbreviation backtracked through 2^n choices (a "3.
            # Installation" hung)
            rules.add(rf"(?!(?<=\b{re.escape(head)}\.)(?!\s+(?!{re.escape(rest)})\S{{{len(rest)}}}))")
    return "".join(sorted(rules))


_CAPITAL = "A-ZÀ-ÖØ-ÞА-ЯЁ"
# A German article or possessive before a number's dot makes it an ordinal, whatever noun follows ("Der 2.
# Weltkrieg", "mein 3. Versuch"), and so does an ordinal joined before it ("zwischen dem 15. und 35. Lebensjahr"):
# no end there.
ARTICLES = tuple(w for a in ("der", "die", "das", "dem", "den", "des", "am", "im", "vom", "zum", "zur", "beim", "ins",
                             "mein", "meine", "meinem", "meinen", "dein", "deine", "deinem", "deinen", "sein", "seine",
                             "seinem", "seinen", "ihr", "ihre", "ihrem", "ihren", "unser", "unsere", "unserem", "unseren",
                             "euer", "eure", "eurem", "euren", "ein", "eine", "einem", "einen", "kein", "keine",
                             "keinem", "keinen", "jedem", "jeden", "diesem", "diesen")
                 for w in (a, a.capitalize()))
_NOT_AN_END = "".join(rf"(?<!\b{a} \d\.)(?<!\b{a} \d\d\.)(?<!\b{a} \d\d\d\.)" for a in ARTICLES) + "".join(
    rf"(?<!\d\. {w} \d\.)(?<!\d\. {w} \d\d\.)" for w in ("und", "oder", "bis", "sowie")) + "".join(
    rf"(?<!\b{re.escape(a)}\.)" for a in ABBREVIATIONS + ("etc", "usw")) + "".join(
    rf"(?<!\b{re.escape(a)})" for a in _written(SAID_IN_FULL)) + (
    r"(?<!\b[A-Z]\.)(?<!\b[A-Za-z]\.[A-Za-z]\.)(?<!\.\.\.)(?<!…)(?<!\.\.\.[\])])(?<!…[\])])"
    r"(?<!\betc\.[)\]])(?<!\busw\.[)\]])") + _first_parts(SAID_IN_FULL) + (
    "(?:" + "".join(rf"(?<!\b{a}\.)" for a in BEFORE_A_NUMBER)) + (
    r"|(?=\s+[^\d\s]))(?:(?<!\d\.)|(?=\s+[\"'“‘(\[]*(?!(?:" + "|".join(MONTHS) + rf")(?![^\W\d_]))[{_CAPITAL}]"
    r"[^\W\d_]*(?![^\W\d_]).))")
_GOES_ON = "".join(rf"(?<!\b{re.escape(a)})" for a in sorted({a for table in GO_ON.values() for a in table})) + "".join(
    rf"(?<!\b{re.escape(a)}\))" for a in _written(SAID_IN_FULL)) + "".join(
    rf"(?<!\d {re.escape(m)})(?<!\bde {re.escape(m)})" for m in sorted({m for t in MONTHS_SHORT.values() for m in t}))
# after one of those an end only where what follows is there and shows it (a capital, a mark): a stream waits for it
_NOT_AN_END += rf"(?:{_GOES_ON}|(?=\s+[\"'“‘(\[]*(?:[{_CAPITAL}]|[^\w\s\"'“‘(\[])))"
_CAPITAL_NEXT = (r"(?<![\])]\.\.\.)(?<![\])]…)(?:(?<=\.\.\.)|(?<=…)|(?<=\betc\.)|(?<=\busw\.)|(?<=\betc\.[)\]])"
                 rf"|(?<=\busw\.[)\]]))(?=\s+[\"'“‘(\[]*[{_CAPITAL}])")
# A run of end marks and closing quotes is taken whole, from its first mark (a lookahead and its backreference: an
# atomic group before Python 3.11), so that the engine never tries its every shorter part ("." * 200 hung).
_SENTENCE = re.compile(r"(.+?(?:(?<![.!?;…])(?=(?P<run>[.!?;…][.!?;…\"'”’)\]]*))(?P=run)(?:" + _NOT_AN_END
                       + r"(?=\s)|" + _CAPITAL_NEXT + r")"
                       r"|(?<![。！？；])(?=(?P<cjk>[。！？；]+[\"'”’」』）)]*))(?P=cjk)|\n\s*\n|\Z))", re.S)
CUT = None  # in a PieceCutter's output: the piece so far is whole; what follows starts the next one


def split_sentences(text: str, max_chars: int = 300) -> list:
    """Sentences of `text`, merged greedily into pieces of at most `max_chars` where possible: each piece
    a stretch of `text` from one sentence's start to a later one's end, its outer whitespace stripped.

    A single sentence longer than `max_chars` is cut at the last comma or space before the limit. Text
    that arrives in deltas is cut at the same places by a `PieceCutter` (this is one fed the whole text).
    """
    cutter = PieceCutter(max_chars)
    pieces, current = [], ""
    for part in cutter.add(text) + cutter.end():
        if part is CUT:
            pieces.append(current)
            current = ""
        else:
            current += part
    return pieces + [current] if current else pieces


class PieceCutter:
    """Text arriving in deltas, cut into the pieces `split_sentences` cuts the whole text into, as early
    as the text allows: `add(delta)` and `end()` return the text of the current piece that is settled
    (str parts) and the cuts between pieces (`CUT`). A piece's first sentence is given word by word (up to
    the last space, while it fits); a later sentence once it has ended and fits beside the ones before,
    the piece being cut where it does not. So text can be spoken as it comes, and a long text given in
    deltas is spoken in the same pieces as given whole.
    """

    def __init__(self, max_chars: int = 300):
        self.max_chars = max_chars
        self.buf, self.pos = "", 0  # the text kept; where the next sentence starts
        self.resume = 0  # where the sentence at `pos` goes on after the heads cut off it (a long one)
        self.start = self.end_ = None  # the current piece: its start, the end of its last whole sentence
        self.given = 0  # the current piece's text is given up to here
        self.ended = False

    def add(self, delta: str) -> list:
        self.buf += delta
        return self._settle()

    def end(self) -> list:
        self.ended = True
        return self._settle()

    def _settle(self) -> list:
        out = []
        while self.pos < len(self.buf):
            m = _SENTENCE.match(self.buf, self.pos)
            a, b = _stripped(self.buf, max(m.start(), self.resume), m.end())
            if m.end() == len(self.buf) and not self.ended:  # may go on: the piece's first sentence, word by word
                if a < b:
                    self._partial(a, b, out)
                break
            if a < b:
                self._sentence(a, b, out)
            self.pos = self.resume = m.end()
        self._forget()
        return out

    def _sentence(self, a: int, b: int, out: list):
        """The whole sentence buf[a:b]: beside the current piece's sentences, or starting the next piece."""
        if self.end_ is not None:
            if b - self.start <= self.max_chars:
                self._give(b, out)
                self.end_ = b
                return
            self._cut(out)
        a = self._heads(a, b, out)
        self._begin(a)
        self._give(b, out)
        self.end_ = b

    def _partial(self, a: int, b: int, out: list):
        """Sentence text buf[a:b] that may go on: it ends the piece where it cannot fit any more; as the
        piece's first sentence its words are given as they come."""
        if self.end_ is not None:
            if b - self.start <= self.max_chars:
                return  # held until it ends: it may yet not fit
            self._cut(out)
        a = self._heads(a, b, out, ended=False)
        self._begin(a)
        space = self.buf.rfind(" ", a, min(len(self.buf), a + self.max_chars // 2 + 1))  # no later than `_cut_at` may cut
        if space > a:
            self._give(len(self.buf[:space].rstrip()), out)

    def _heads(self, a: int, b: int, out: list, ended: bool = True) -> int:
        """Cut buf[a:b] (a sentence, whole or growing) as `_cut` does while it is longer than max_chars (its
        heads are then settled): each head given and cut off; the start of what is left. A growing sentence is
        cut only once it is longer than twice max_chars, where `_cut_at` needs no more of it to decide."""
        while b - a > self.max_chars and (ended or b - a > 2 * self.max_chars):
            cut = _cut_at(self.buf[a:b], self.max_chars)
            self._begin(a)
            self._give(len(self.buf[:a + cut].rstrip()), out)
            self._cut(out)
            a, _ = _stripped(self.buf, a + cut, b)
            self.resume = a
        return a

    def _begin(self, a: int):
        if self.start is None:
            self.start = self.given = a

    def _give(self, to: int, out: list):
        if to > self.given:
            out.append(self.buf[self.given:to])
            self.given = to

    def _cut(self, out: list):
        out.append(CUT)
        self.start = self.end_ = None

    def _forget(self):
        """Drop the text nothing will look at again (a long stream keeps only its current piece)."""
        keep = self.pos if self.start is None else min(self.pos, self.start)
        if keep:
            self.buf, self.pos, self.given = self.buf[keep:], self.pos - keep, self.given - keep
            self.resume -= keep
            self.start = None if self.start is None else self.start - keep
            self.end_ = None if self.end_ is None else self.end_ - keep


class StreamedPieces:
    """Text arriving as deltas, cut as it comes (`PieceCutter`): iterating gives each piece's own deltas,
    in order, the next piece once the one before has been read to its end (what of it was not read by
    then is dropped: that piece stopped early). Each piece's deltas may be read on another thread (the
    engine pumps them into a feed); the source is read by whichever reader needs more, one at a time.
    An error from the source (bad text, the writer gone) reaches that reader."""

    def __init__(self, deltas: Iterable[str], max_chars: int = 300):
        self._source, self._cutter = iter(deltas), PieceCutter(max_chars)
        self._parts, self._lock = deque(), threading.Lock()
        self._piece, self._ended = 0, False  # the piece being read; the source has ended

    def __iter__(self) -> Iterator[Iterator[str]]:
        piece = 0
        while True:
            yield self._deltas(piece)
            if not self._followed(piece):
                return
            piece += 1

    def close(self):
        """Close the source (a generator's `finally` runs now), unless a reader is in it this moment."""
        if self._lock.acquire(blocking=False):
            try:
                getattr(self._source, "close", lambda: None)()
            finally:
                self._lock.release()

    def _deltas(self, piece: int) -> Iterator[str]:
        while True:
            part = self._take(piece)
            if part is None:
                return
            yield part

    def _take(self, piece: int):
        """The next text of `piece`; None at its end (its cut or the text's)."""
        with self._lock:
            while self._piece == piece:
                if self._parts:
                    part = self._parts.popleft()
                    if part is CUT:
                        self._piece += 1
                        return None
                    return part
                if self._ended:
                    return None
                delta = next(self._source, None)
                self._ended = delta is None
                self._parts.extend(self._cutter.end() if delta is None else self._cutter.add(delta))
            return None

    def _followed(self, piece: int) -> bool:
        """Whether another piece follows `piece` (waiting for the text to tell)."""
        while self._take(piece) is not None:
            pass
        return self._piece > piece


def _stripped(text: str, a: int, b: int) -> tuple:
    """(start, end) of text[a:b] without its outer whitespace (start == end when it is all whitespace)."""
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def sentences(text: str, max_chars: int = 300) -> list:
    """Every sentence of `text` on its own (not merged), cut as `split_sentences` cuts one longer than `max_chars`."""
    return [piece for m in _SENTENCE.finditer(text) if m.group(0).strip() for piece in _cut(m.group(0).strip(), max_chars)]


def _cut(sentence: str, max_chars: int) -> list:
    """`sentence` in pieces of at most `max_chars`, each cut where `_cut_at` says."""
    pieces = []
    while len(sentence) > max_chars:
        cut = _cut_at(sentence, max_chars)
        head, sentence = sentence[:cut].strip(), sentence[cut:].strip()
        pieces.append(head)
    return pieces + [sentence]


# Where a clause ends inside a sentence: after a comma, semicolon, colon or dash, or before a conjunction.
_CONJUNCTIONS = ("and", "but", "or", "because", "while", "which", "und", "oder", "aber", "sondern", "denn", "weil",
                 "wenn", "dass", "sofern", "soweit", "et", "ou", "mais", "car", "donc", "qui", "que", "y", "o", "pero",
                 "porque", "e", "ma", "perché", "mas", "porque", "и", "а", "но", "или", "что", "который")
_PUNCTUATION = re.compile(r"[,;:，、；：](?=\s)|(?<=\s)[–—](?=\s)|[，、；：](?=\S)")
_CONJUNCTION = re.compile(r"\s(?=(?:" + "|".join(_CONJUNCTIONS) + r")\s)")


def _cut_at(sentence: str, max_chars: int) -> int:
    """Where a sentence longer than `max_chars` is cut: after a comma, semicolon, colon or dash, else before a
    conjunction, else at a space. One at most twice `max_chars` long is cut into two balanced halves (each at
    least a quarter of it: never a lone word left over), at the place nearest its middle; a longer one at the
    last place in the second half of `max_chars`. Either way the cut is no earlier than max_chars // 2, so a
    growing sentence may be given up to there before its length is known."""
    low, high, aim = max_chars // 2, max_chars, max_chars
    if len(sentence) <= 2 * max_chars:  # both halves at least a quarter of it
        low, aim = max(low, len(sentence) - max_chars, len(sentence) // 4), (len(sentence) + 1) / 2
        high = min(high, len(sentence) - len(sentence) // 4)
    window = sentence[:high + 1]
    for pattern in (_PUNCTUATION, _CONJUNCTION, _SPACE):
        found = _ends(pattern, window, low)
        if found:
            return min(found, key=lambda cut: (abs(cut - aim), -cut))
    cut = max(sentence.rfind(sep, 0, max_chars) for sep in (", ", "，", "、", " "))
    return cut + 1 if cut > 0 else max_chars


_SPACE = re.compile(r"\s")


def _ends(pattern, window: str, low: int) -> list:
    """The places (after the match's first character) where `pattern` allows a cut in window[low:]."""
    return [m.start() + 1 for m in pattern.finditer(window, max(low - 1, 0)) if low <= m.start() + 1 <= len(window) - 1]
