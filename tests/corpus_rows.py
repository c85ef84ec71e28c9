"""The two corpora of text normalization, as rows: the upstream corpus (tests/fixtures/text_normalization/<code>.tsv:
every row of each published test file it cites, plus our own rows) and the real-sentence corpus
(tests/fixtures/text_sentences/<code>.tsv: sentences quoted from documents no one here wrote). Shared by
tests/test_normalize_corpus.py, tests/test_verbalize_cjk.py and benchmarks/text.py; the format is described in
tests/fixtures/text_normalization/README.md and tests/fixtures/text_sentences/README.md."""

import csv
import hashlib
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
UPSTREAM = FIXTURES / "text_normalization"
SENTENCES = FIXTURES / "text_sentences"
LANGUAGES = ("de", "en", "es", "fr", "it", "pt", "ru", "zh", "ja", "ko")
UPSTREAM_HEADER = ["class", "written", "spoken", "source", "status", "our_reading", "reason"]
SENTENCE_HEADER = ["class", "written", "spoken", "source", "license"]
CLASSES = {"cardinal", "decimal", "ordinal", "date", "time", "money", "measure", "fraction", "percent", "range",
           "score", "telephone", "electronic", "roman", "abbreviation", "symbol", "sentence"}


@dataclass(frozen=True)
class Row:
    lang: str
    cls: str
    written: str
    readings: tuple  # the readings that count as right (one or more)
    source: str
    disputed: bool = False
    upstream: tuple = ()  # for a disputed row, the readings upstream gives
    reason: str = ""

    @property
    def origin(self) -> str:
        """The file a row comes from (its source without the line number), or "own"."""
        return self.source.rsplit(":", 1)[0] if self.source != "own" else "own"

    @property
    def held_out(self) -> bool:
        """A fixed third of every corpus, chosen by the written form's hash: reported apart, never printed."""
        return held_out(self.written)


def held_out(written: str) -> bool:
    return int(hashlib.sha256(written.encode("utf-8")).hexdigest(), 16) % 3 == 0


def key(text: str) -> str:
    """The comparison key: casefolded, without spaces, hyphens or punctuation, and Russian ё as е (most Russian
    text writes ё as е; the word, and what is said, is the same)."""
    return "".join(ch for ch in text.casefold().replace("ё", "е") if not (ch.isspace() or ch in "-‐‑–—"
                                                                         or unicodedata.category(ch).startswith("P")))


def _table(path: Path, header: list) -> list:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows and rows[0] == header, f"{path}: header {rows[:1]} is not {header}"
    assert all(len(r) == len(header) for r in rows), f"{path}: a row without {len(header)} columns"
    return rows[1:]


def upstream_rows(lang: str) -> list:
    """The upstream corpus of `lang`. An undisputed upstream row is right where the reading equals any reading
    the language's upstream rows give for the same written form (NeMo lists several readings of one form, one a
    line or several on one line separated by "~", and its TN and ITN files may give different ones); a disputed
    row is right where the reading equals our_reading; an own row where it equals its spoken."""
    raw = _table(UPSTREAM / f"{lang}.tsv", UPSTREAM_HEADER)
    pooled = defaultdict(list)
    for cls, written, spoken, source, status, ours, reason in raw:
        if status != "disputed":
            pooled[(source == "own", written)] += spoken.split("~")
    rows = []
    for cls, written, spoken, source, status, ours, reason in raw:
        if status == "disputed":
            rows.append(Row(lang, cls, written, (ours,), source, True, tuple(spoken.split("~")), reason))
        else:
            readings = tuple(pooled[(False, written)]) if source != "own" else (spoken,)
            rows.append(Row(lang, cls, written, readings, source))
    return rows


def sentence_rows(lang: str) -> list:
    """The real-sentence corpus of `lang` (empty where the language has no file yet); a spoken column may give
    two readings a native reader gives equally, separated by "~"."""
    path = SENTENCES / f"{lang}.tsv"
    if not path.exists():
        return []
    return [Row(lang, cls, written, tuple(spoken.split("~")), source) for cls, written, spoken, source, _ in
            _table(path, SENTENCE_HEADER)]


def right(row: Row, said: str) -> bool:
    return any(key(said) == key(reading) for reading in row.readings)
