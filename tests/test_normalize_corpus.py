"""The golden corpus of text normalization (tests/fixtures/text_normalization/<code>.tsv, every language
there): accuracy per language and per class, compared after casefolding and removing spaces, hyphens and
punctuation; no digit left unread; and the defects of issue 56 at the normalize() level, on numbers of
our own. Each file's header is `class, written, spoken, source`; docs/text.md says where the cases come from."""

import csv
import re
import unicodedata
from collections import defaultdict
from pathlib import Path

import pytest

from mlx_qwen3tts.text.normalize import normalize

CORPUS = Path(__file__).parent / "fixtures" / "text_normalization"
CLASSES = {"cardinal", "decimal", "ordinal", "date", "time", "money", "measure", "fraction", "percent", "range",
           "telephone", "electronic", "roman", "abbreviation", "symbol", "sentence"}
ACCURACY, CLASS_ACCURACY = 0.95, 0.85


def cases(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows[0] == ["class", "written", "spoken", "source"], path
    return rows[1:]


def key(text: str) -> str:
    """The comparison key: casefolded, without spaces, hyphens or punctuation."""
    return "".join(ch for ch in text.casefold() if not (ch.isspace() or ch in "-‐‑–—"
                                                         or unicodedata.category(ch).startswith("P")))


FILES = sorted(CORPUS.glob("*.tsv"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_corpus_accuracy_per_language_and_class(path):
    rows = cases(path)
    assert rows and all(len(r) == 4 and r[0] in CLASSES and r[3] for r in rows), path
    right, per_class = 0, defaultdict(lambda: [0, 0])
    for cls, written, spoken, _ in rows:
        ok = key(normalize(written, path.stem)) == key(spoken)
        right += ok
        per_class[cls][0] += ok
        per_class[cls][1] += 1
    assert right / len(rows) >= ACCURACY, f"{path.stem}: {right}/{len(rows)}"
    low = {c: f"{r}/{n}" for c, (r, n) in per_class.items() if r / n < CLASS_ACCURACY}
    assert not low, f"{path.stem}: classes under {CLASS_ACCURACY:.0%}: {low}"


def digit_words_in(text, digit_words):
    """The digit words said in `text`: its words, or its characters where digits are said as one
    character each and words are not spaced (Chinese, Japanese, Korean)."""
    if all(len(w) == 1 for w in digit_words):
        return [ch for ch in key(text) if ch in digit_words]
    return [w for w in (key(w) for w in text.casefold().split()) if w in digit_words]


def test_no_digit_is_lost_or_invented():
    """Over the whole corpus: an ASCII digit survives in a reading only where the correct reading keeps it
    (a case left as written), and where digits are said one by one (telephone numbers, addresses) as many
    digit words are said as digits were written."""
    kept, counted = [], []
    for path in FILES:
        digit_words = {key(normalize(str(d), path.stem)) for d in range(10)}
        for cls, written, spoken, _ in cases(path):
            said = normalize(written, path.stem)
            if re.search(r"[0-9]", said) and not re.search(r"[0-9]", spoken):
                kept.append((path.stem, written, said))
            digits = len(re.findall(r"[0-9]", written))
            if cls == "telephone" and len(digit_words_in(spoken, digit_words)) == digits:  # said digit by digit
                if len(digit_words_in(said, digit_words)) != digits:
                    counted.append((path.stem, written, said))
    assert not kept, kept[:10]
    assert not counted, counted[:10]
