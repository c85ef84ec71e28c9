"""Text as it will be spoken: which language each paragraph is read in, and the normalizer (`normalize`) applied
in it, to a whole text (`spoken`) or to text arriving in deltas (`spoken_deltas`); and whether a text has any
words to say at all (`has_words`).

The language that reads a text is the one asked for; with `auto` the document's own (an HTML page's `lang`, an
EPUB's `dc:language`, a Markdown file's front matter), else the language each paragraph is written in, told by
py3langid (a naive Bayes model over byte n-grams, shipped in its wheel) among the ten the model speaks. A
paragraph too short or too mixed to tell (a heading "Kapitel 3", a line of code) is read in the language of
the whole text, or English when that cannot be told either.

Deltas are normalized once a stretch of them is settled: up to a space between two words of letters only (the
second one whole), or a paragraph break, or a CJK sentence mark between two CJK letters. A number, date, ordinal
("3. Oktober"), abbreviation ("z. B.") or amount ("12,50 €") is never cut there, so each is read as in the whole
text; what follows the last such place is held back until more text settles it, or the text ends. With `auto`, a
stretch with a digit is also held until its paragraph's language can be told (or the paragraph ends).
"""

import re
import unicodedata
from functools import lru_cache
from typing import Iterable, Iterator, Optional

from ..languages import LANGUAGE_CODES

CODES = tuple(LANGUAGE_CODES.values())
MIN_LETTERS = 12  # fewer letters than this: the paragraph is too short to tell its language
MIN_CONFIDENCE = 0.8  # py3langid's probability (among our ten) below which a paragraph's language is not told
_PARAGRAPH = re.compile(r"(\n[ \t]*\n\s*)")
_LETTERS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")  # a word of letters only
_ROMAN = re.compile(r"[IVXLCDM]+")  # may be a number read with the word before it ("Ludwig XIV")
_DIGIT = re.compile(r"\d")
_CJK = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff"
_CJK_MARK = re.compile(rf"(?<=[{_CJK}])[。！？；，、](?=[{_CJK}])")


def has_words(text: str) -> bool:
    """Whether `text` has anything to say: a letter or a digit (punctuation, dashes, symbols and emoji alone do not)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in text)


def language_code(language: Optional[str]) -> Optional[str]:
    """The ISO 639-1 code of one of the ten languages (a name in any case, or a code with any region: 'fr-CA'),
    or None for 'auto', '' or a language not among them."""
    key = (language or "").strip().lower().replace("_", "-")
    if key in LANGUAGE_CODES:
        return LANGUAGE_CODES[key]
    key = key.split("-")[0]
    return key if key in CODES else None


@lru_cache(maxsize=1)
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(CODES))
    return identifier


def detected(text: str) -> Optional[str]:
    """The language `text` is written in (an ISO 639-1 code among the ten), or None when it is too short or
    too mixed to tell."""
    if sum(ch.isalpha() for ch in text) < MIN_LETTERS:
        return None
    code, probability = _identifier().classify(text)
    return code if probability >= MIN_CONFIDENCE else None


def reading_language(language: Optional[str], text: str = "", document: Optional[str] = None) -> str:
    """The code of the language `text` is read in: `language` when it names one, else `document` (the
    document's own), else the language `text` is detected in, else English."""
    return language_code(language) or language_code(document) or detected(text) or "en"


def warm():
    """Every language's reader imported and run once, the language detector loaded, the Markdown reader run
    and the lexicon's module imported, so that the first request's text costs what the next ones' does
    (its first reading took about 40 ms on this CPU, and importing markdown-it about 90 ms more)."""
    from ..languages import LANGUAGE_CODES
    from . import lexicon  # noqa: F401  (imported: what a first request with a lexicon would pay)
    from .markdown import as_heard

    for code in LANGUAGE_CODES.values():
        spoken("No. 1: 3.5 km, 12:30.", code)
    detected("The first request reads its text as fast as the next one.")
    as_heard("The *first* request, [read](https://example.org) as Markdown.")


def spoken(text: str, language: str = "auto", document: Optional[str] = None) -> str:
    """`text` as it will be spoken: numbers, dates, amounts, symbols and abbreviations as words, each paragraph
    in its language (`language` when it names one; with 'auto' `document`, the document's own, else the
    paragraph's detected language, else the whole text's, else English). Its outer whitespace is kept as
    written."""
    from .normalize import normalize

    asked = language_code(language) or language_code(document)
    if asked is not None:
        return _normalized(normalize, text, asked)
    whole = detected(text) or "en"
    parts = _PARAGRAPH.split(text)  # paragraphs, and the breaks between them kept as written
    return "".join(part if i % 2 else _normalized(normalize, part, detected(part) or whole)
                   for i, part in enumerate(parts))


def spoken_deltas(deltas: Iterable[str], language: str = "auto", document: Optional[str] = None) -> Iterator[str]:
    """Deltas of text as `spoken` says it, each settled stretch normalized once it is settled (see the module's
    docstring); with 'auto' each stretch is read in the language of its paragraph so far."""
    from .normalize import normalize

    asked = language_code(language) or language_code(document)
    held, paragraph, last, source = "", "", "en", iter(deltas)
    try:
        for delta in source:
            held += delta
            end = _settled(held)
            if not end:
                continue
            told = asked or detected(_PARAGRAPH.split(paragraph + held[:end])[-1])
            if told is None and _DIGIT.search(held, 0, end) and "\n\n" not in held[:end]:
                continue  # a number whose language cannot be told yet: held until it can (or the paragraph ends)
            head, held = held[:end], held[end:]
            paragraph = _PARAGRAPH.split(paragraph + head)[-1]
            last = told or last
            yield _normalized(normalize, head, last)
        if held:
            yield _normalized(normalize, held, asked or detected(_PARAGRAPH.split(paragraph + held)[-1]) or last)
    finally:
        getattr(source, "close", lambda: None)()  # the writer's generator ends when its reader stops


def _settled(text: str) -> int:
    """Where the settled part of deltas `text` ends (0: nowhere yet), as the module's docstring says."""
    end = 0
    words = list(re.finditer(r"\S+", text))
    for a, b in zip(words, words[1:]):
        if (b.end() < len(text) and _LETTERS.fullmatch(a.group().rstrip(",;")) and _LETTERS.fullmatch(b.group())
                and not _ROMAN.fullmatch(b.group())):
            end = b.start()
    for m in _PARAGRAPH.finditer(text):
        end = max(end, m.end())
    for m in _CJK_MARK.finditer(text):
        end = max(end, m.end())
    return end


def _normalized(normalize, text: str, code: str) -> str:
    """`text` normalized in `code`, its outer whitespace kept as written (it separates it from the next delta)."""
    core = text.strip()
    if not core:
        return text
    start = text.index(core[0])
    return text[:start] + normalize(core, code) + text[start + len(core):]
