"""Pronunciations: a TSV file of `word or phrase<TAB>how to say it`, applied to the text before it is
tokenized. Matches whole words with the case as written; a third column `i` matches any case.
Lines that are empty or start with `#` are skipped."""

import re
from dataclasses import dataclass
from pathlib import Path
from typing import List

from ..errors import InputError


@dataclass(frozen=True)
class Lexicon:
    pattern: "re.Pattern | None"  # every entry, longest first; None when there are none
    spoken: dict  # key (as written, or lower-cased for an any-case entry) -> respelling

    def apply(self, text: str) -> str:
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: self.spoken.get(m.group(0), self.spoken.get(m.group(0).lower())), text)


def _entries(path: Path) -> List[tuple]:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read {{lexicon}} {path}: {e.strerror}", field="lexicon") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise InputError(f"{{lexicon}} {path} line {line} is not valid UTF-8; convert the file to UTF-8",
                         field="lexicon") from None
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) not in (2, 3) or not fields[0].strip() or not fields[1].strip() or \
                (len(fields) == 3 and fields[2].strip() not in ("", "i")):
            raise InputError(f"{{lexicon}} {path} line {number}: expected 'word<TAB>how to say it' (and optionally "
                             f"<TAB>i for any case), got {line[:60]!r}", field="lexicon")
        entries.append((fields[0].strip(), fields[1].strip(), len(fields) == 3 and fields[2].strip() == "i"))
    return entries


def read_lexicon(path) -> Lexicon:
    """The lexicon of a TSV file; InputError naming the file and line of a malformed entry."""
    entries = sorted(_entries(Path(path)), key=lambda e: -len(e[0]))
    if not entries:
        return Lexicon(None, {})
    # \b would not bound a phrase that starts or ends with punctuation ("C++"): look at the neighbours instead.
    alternatives = [f"(?i:{re.escape(w)})" if any_case else re.escape(w) for w, _, any_case in entries]
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")
    spoken = {(w.lower() if any_case else w): say for w, say, any_case in reversed(entries)}
    return Lexicon(pattern, spoken)
