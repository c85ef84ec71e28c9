"""Text as it will be spoken: which language each paragraph is read in, and the normalizer (`normalize`) applied
in it, to a whole text (`spoken`) or to text arriving in deltas (`spoken_deltas`); and whether a text has any
words to say at all (`has_words`).

The language that reads a text is the one asked for; with `auto` the document's own (an HTML page's `lang`, an
EPUB's `dc:language`, a Markdown file's front matter), else the language each paragraph is written in: the one
its script decides however short it is (Cyrillic Russian, hangul Korean, kana Japanese, Han without kana Chinese),
else the one py3langid (a naive Bayes model over byte n-grams, shipped in its wheel) tells among the ten the model
speaks. A Latin paragraph too short or too mixed to tell (a heading "Kapitel 3", a line of code) is read in the
language of the whole text, or English when that cannot be told either; a sentence of a paragraph in another
language than the paragraph's is read in its own where its script decides or the detector is sure of it.

Deltas are normalized once a stretch of them is settled: up to a space between two words of letters only (the
second one whole), or a paragraph break, or a CJK sentence mark between two CJK letters. A number, date, ordinal
("3. Oktober"), abbreviation ("z. B.") or amount ("12,50 €") is never cut there, so each is read as in the whole
text; what follows the last such place is held back until more text settles it, or the text ends. With `auto`, a
stretch with a digit is also held until its paragraph's language can be told (or the paragraph ends), and a stretch
is read in the language of its sentence where the detector is sure of it, as `spoken` reads it.
"""

import re
import unicodedata
from functools import lru_cache
from typing import Iterable, Iterator, Optional

from ..languages import LANGUAGE_CODES

CODES = tuple(LANGUAGE_CODES.values())
MIN_LETTERS = 12  # fewer letters than this: the paragraph is too short to tell its language
MIN_CONFIDENCE = 0.8  # py3langid's probability (among our ten) below which a paragraph's language is not told
SURE = 0.85  # a sentence is read in another language than its paragraph's where the detector is this sure
_PARAGRAPH = re.compile(r"(\n[ \t]*\n\s*)")
_LETTERS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")  # a word of letters only
_ROMAN = re.compile(r"[IVXLCDM]+")  # may be a number read with the word before it ("Ludwig XIV")
_DIGIT = re.compile(r"\d")
_CJK = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff"
_CJK_MARK = re.compile(rf"(?<=[{_CJK}])[。！？；，、](?=[{_CJK}])")


def has_words(text: str) -> bool:
    """Whether `text` has anything to say: a letter or a digit (punctuation, dashes, symbols and emoji alone do not)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in text)


def named_language(language: Optional[str]) -> Optional[str]:
    """The ISO 639-1 code of the language `language` names, one of the ten (a name in any case, or a code with any
    region: 'fr-CA'), or None for 'auto', '' or a language not among them."""
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


def script_language(text: str) -> Optional[str]:
    """The language the script of `text` decides, however short it is: kana is Japanese, hangul Korean, Han without
    kana Chinese, Cyrillic Russian; None where Latin letters (or none) are the most (the detector tells those).
    A CJK character counts as three letters (it is a word or a syllable)."""
    latin = cyrillic = kana = hangul = han = 0
    for ch in text:
        o = ord(ch)
        if o < 0x250:
            latin += ch.isalpha()
        elif 0x400 <= o < 0x530:
            cyrillic += 1
        elif 0x3040 <= o < 0x3100 or 0x31F0 <= o < 0x3200 or 0xFF66 <= o < 0xFF9E:
            kana += 1
        elif 0xAC00 <= o < 0xD7B0 or 0x1100 <= o < 0x1200 or 0x3130 <= o < 0x3190:
            hangul += 1
        elif 0x4E00 <= o < 0xA000 or 0x3400 <= o < 0x4DC0 or 0xF900 <= o < 0xFB00:
            han += 1
    cjk = 3 * (kana + hangul + han)
    if max(cjk, cyrillic) <= latin:
        return None
    if cyrillic > cjk:
        return "ru"
    return "ja" if kana else "ko" if hangul >= han else "zh"


def detected(text: str, confidence: float = MIN_CONFIDENCE) -> Optional[str]:
    """The language `text` is written in (an ISO 639-1 code among the ten) as py3langid tells it, or None when it
    is too short or too mixed to tell (under `confidence`)."""
    if sum(ch.isalpha() for ch in text) < MIN_LETTERS:
        return None
    code, probability = _identifier().classify(text)
    return code if probability >= confidence else None


def written_in(text: str, confidence: float = MIN_CONFIDENCE) -> Optional[str]:
    """The language `text` is written in: the one its script decides, else the detector's; None where neither can
    tell."""
    return script_language(text) or detected(text, confidence)


def reading_language(language: Optional[str], text: str = "", document: Optional[str] = None) -> str:
    """The code of the language `text` is read in: `language` when it names one, else `document` (the
    document's own), else the language `text` is written in, else English."""
    return named_language(language) or named_language(document) or written_in(text) or "en"


def _in_languages(normalize, paragraph: str, language: str) -> str:
    """A paragraph read in `language`, but a sentence of it in another language where its script decides or the
    detector is sure (SURE): "Das Ticket kostet 8,90 €. In London it is £7.40." German, then English. Neighbouring
    sentences of one language are read together, so a number is never read apart from its words."""
    from .cutting import sentences

    runs, at = [], 0  # (start, language) where a run of sentences in one language starts
    for sentence in sentences(paragraph):
        start = paragraph.find(sentence, at)
        if start < 0:
            return _normalized(normalize, paragraph, language)
        at = start + len(sentence)
        told = written_in(sentence, SURE) or language
        if not runs or runs[-1][1] != told:
            runs.append((start if runs else 0, told))
    if len(runs) <= 1:
        return _normalized(normalize, paragraph, runs[0][1] if runs else language)
    ends = [start for start, _ in runs[1:]] + [len(paragraph)]
    return "".join(_normalized(normalize, paragraph[start:end], told) for (start, told), end in zip(runs, ends))


def warm():
    """Every language's reader imported and run once (Russian's word forms loaded), the language detector loaded, the
    Markdown reader run and the lexicon's module imported, so that the first request's text costs what the next
    ones' does (its first reading took about 40 ms on this CPU, and importing markdown-it about 90 ms more)."""
    from ..languages import LANGUAGE_CODES
    from . import lexicon  # noqa: F401  (imported: what a first request with a lexicon would pay)
    from .markdown import as_heard

    for code in LANGUAGE_CODES.values():
        spoken("No. 1: 3.5 km, 12:30.", code)
    spoken("В 2 городах 3 шт.", "ru")  # Russian agreement's word forms (pymorphy3's dictionary) loaded
    detected("The first request reads its text as fast as the next one.")
    as_heard("The *first* request, [read](https://example.org) as Markdown.")


def spoken(text: str, language: str = "auto", document: Optional[str] = None) -> str:
    """`text` as it will be spoken: numbers, dates, amounts, symbols and abbreviations as words, each paragraph
    in its language (`language` when it names one; with 'auto' `document`, the document's own, else the
    paragraph's detected language, else the whole text's, else English). Its outer whitespace is kept as
    written."""
    from .normalize import normalize

    asked = named_language(language) or named_language(document)
    if asked is not None:
        return _normalized(normalize, text, asked)
    whole = written_in(text) or "en"
    parts = _PARAGRAPH.split(text)  # paragraphs, and the breaks between them kept as written
    return "".join(part if i % 2 else _in_languages(normalize, part, written_in(part) or whole)
                   for i, part in enumerate(parts))


def spoken_deltas(deltas: Iterable[str], language: str = "auto", document: Optional[str] = None) -> Iterator[str]:
    """Deltas of text as `spoken` says it, each settled stretch normalized once it is settled (see the module's
    docstring); with 'auto' each stretch is read in the language of its paragraph so far."""
    from .normalize import normalize

    asked = named_language(language) or named_language(document)
    held, paragraph, last, source = "", "", "en", iter(deltas)
    try:
        for delta in source:
            held += delta
            end = _settled(held)
            if not end:
                continue
            so_far = _PARAGRAPH.split(paragraph + held[:end])[-1]
            told = asked or _told_so_far(so_far, len(so_far) - end)
            if told is None and _DIGIT.search(held, 0, end) and "\n\n" not in held[:end]:
                continue  # a number whose language cannot be told yet: held until it can (or the paragraph ends)
            head, held = held[:end], held[end:]
            paragraph = _PARAGRAPH.split(paragraph + head)[-1]
            last = told or last
            yield _normalized(normalize, head, last)
        if held:
            so_far = _PARAGRAPH.split(paragraph + held)[-1]
            yield _normalized(normalize, held, asked or _told_so_far(so_far, len(so_far) - len(held)) or last)
    finally:
        getattr(source, "close", lambda: None)()  # the writer's generator ends when its reader stops


def _told_so_far(paragraph: str, start: int) -> Optional[str]:
    """The language `spoken` reads paragraph[start:] in, of a paragraph so far: that of the sentence it starts in
    where the detector is sure of it, else the paragraph's."""
    from .cutting import sentences

    tail = max(0, start - 600)
    at, sentence = tail, ""
    for s in sentences(paragraph[tail:]):
        found = paragraph.find(s, at)
        if found < 0 or found > start:
            break
        at, sentence = found + len(s), s
    return (written_in(sentence, SURE) if sentence else None) or written_in(paragraph)


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
