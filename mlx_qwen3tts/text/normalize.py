"""Text as it is said: numbers, dates, times, money, measures, ordinals, abbreviations and symbols as words,
in the language of the text. Qwen3-TTS reads raw digits and symbols unreliably (it garbles them, reads
them in another language or runs on), so what a listener hears is decided here.

`normalize(text, language)` does the work no language changes and hands the rest to the language's
reader, `verbalize.<code>.read` (docs/text.md has the tables of what each reads how):
- CJK squared units and dates are what they stand for ("10㎞" 10km, "30㎡" 30m², "㋃" 4月), then read.
- Emoji and other pictographs are dropped.
- Web and e-mail addresses and handles are said as text-normalization standards say them (`verbalize.electronic`):
  the scheme spelled, "www" spelled, every symbol by its word in the language and every digit one by one
  ("https://github.com/ml-explore" is "H T T P S colon slash slash github dot com slash ml dash explore").
  Angle brackets, guillemets or quotes around one stay (only "<>" are dropped); a scheme alone ("«http://»")
  is spelled ("H T T P").
- In an identifier an underscore between letters or digits is a pause ("max_tokens": "max tokens"), and a
  caret a power ("10^6": "ten to the power of six").
The alphabetic languages' readers share `verbalize.common`, which also keeps technical writing as people
say it: letters and digits joined in one word said apart ("GPT-4o": "GPT four o"), a run of lower-case
letters without a vowel spelled ("fp16": "F P sixteen"), numbers with two or more dots a version
("1.30.0": "one point thirty point zero"). Chinese, Japanese and Korean have readers of their own; a
language without one keeps its text as written.
"""

import importlib
import re
import unicodedata
from functools import lru_cache, partial

from num2words import num2words

from .reading import reading_language
from .verbalize import electronic

_BARE_SCHEME = re.compile(r"(?<![\w/])(https?|ftp)://(?![\w.-])", re.I)  # "«http://»": a scheme alone
_UNDERSCORE = re.compile(r"(?<=[^\W_])_+(?=[^\W_])")  # snake_case: a pause between the words
_POWER = re.compile(r"(?<![\w^])([A-Za-z]|\d+(?:\.\d+)?)\s?\^\s?(-?(?:\d+|[A-Za-z]))(?![\w^])")
_EMOJI_SPACE = re.compile(r"[ \t]+(?=[.,!?;:](?![\w/~.])|$)")
_PICTOGRAPHS = re.compile("[\u2300-\U0010ffff\ufe0f]")  # where emoji and pictographs are
# CJK squared units, months, days and eras (㎞ ㎡ ㏄ ㎒, ㋃ 4月, ㏩ 10日, ㍻ 平成) and parenthesized Hangul (㈜ (주)):
# what they stand for, as NFKC writes it
_SQUARED = re.compile("[\u3300-\u33ff\u32c0-\u32cb\u32ff\u3200-\u321e]")
_POWER_OF_UNIT = re.compile(r"(?<=[A-Za-zμ])([23])$")  # ㎡ is m2 in NFKC: m²
# More digits in a row, or more groups of thousands, than any number has (a hash, a pathological line): its digits or
# groups apart, so that no reader converts thousands of digits to one int (Python refuses past 4,300).
_DIGIT_RUN = re.compile(r"[0-9\uff10-\uff19]{26,}")
_GROUP_RUN = re.compile(r"[0-9\uff10-\uff19]{1,3}(?:[,.\s\uff0c][0-9\uff10-\uff19]{3}){9,}")
_TIMES_TEN = re.compile(r"(?<=\d)\s?[x×]\s?(?=10\^)")  # "6.02 x 10^23": a product in scientific notation
POWER = {"en": "{} to the power of {}", "de": "{} hoch {}", "fr": "{} puissance {}", "es": "{} elevado a {}",
         "it": "{} elevato alla {}", "pt": "{} elevado a {}", "ru": "{} в степени {}", "ja": "{}の{}乗",
         "ko": "{}의 {}제곱"}
ALPHABETIC = ("en", "de", "fr", "es", "it", "pt", "ru")  # their digits in addresses are said here


@lru_cache(maxsize=None)
def reader(code: str):
    """`read(text)` of a language's module in `verbalize`, or None where it has none."""
    name = f"{__package__}.verbalize.{code}"
    try:
        return importlib.import_module(name).read
    except ModuleNotFoundError as e:
        if e.name != name:  # the module is there but something it needs is not: say so
            raise
        return None


def _digit_words(lang: str, digits: str) -> str:
    return " ".join(num2words(int(d), lang=lang) for d in digits)


def _pictograph(ch: str) -> bool:
    """Emoji and other pictographs (never spoken); symbols that are read (°, №, ©, arrows) are kept."""
    return ch == "\ufe0f" or ord(ch) >= 0x2300 and unicodedata.category(ch) in ("So", "Cs", "Sk")


def _unsquared(m) -> str:
    said = unicodedata.normalize("NFKC", m.group(0))
    return _POWER_OF_UNIT.sub(lambda p: "²³"[int(p.group(1)) - 2], said)


def normalize(text: str, language: str = "auto") -> str:
    """`text` with its numbers and symbols as words in `language` (a request language name, a code or 'auto': the
    language `text` is written in, as `reading.reading_language` tells it)."""
    text = _SQUARED.sub(_unsquared, text)  # read as units, not dropped as pictographs
    text = _PICTOGRAPHS.sub(lambda m: "" if _pictograph(m.group(0)) else m.group(0), text)
    # The spaces a dropped emoji leaves before punctuation (not before a word's dot: "or .clippy.toml").
    text = _EMOJI_SPACE.sub("", text)
    text = _DIGIT_RUN.sub(lambda m: f" {' '.join(m.group(0))} ", text)
    text = _GROUP_RUN.sub(lambda m: re.sub(r"[,.\s\uff0c]", " ", m.group(0)), text)
    lang = reading_language(language, text)
    text = electronic.read(lang, text, partial(_digit_words, lang) if lang in ALPHABETIC else str)
    text = _BARE_SCHEME.sub(lambda m: " ".join(m.group(1).upper()), text)
    text = _UNDERSCORE.sub(" ", text)
    read = reader(lang)
    if read is None:
        return text
    if lang in ALPHABETIC:
        text = _POWER.sub(lambda m: POWER[lang].format(*m.groups()), _TIMES_TEN.sub(" × ", text))
    return read(text)
