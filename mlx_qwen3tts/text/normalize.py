"""Numbers, dates, times, currencies, percentages and units as words, per language, by num2words;
emoji and other pictographs dropped. Qwen3-TTS reads raw digits and symbols unreliably (it can
garble them or run on), so long-form text is normalized by default; other paths only when asked.
Languages num2words does not know (Chinese) keep their digits.

Technical writing, as people say it:
- Letters and digits joined in one word are said apart, a hyphen between them as a pause: "Phi2" is
  "Phi two", "M1" "M one", "GPT-4o" "GPT four o", "Mistral-7B-v0.1" "Mistral seven B v zero point
  one". A run of two or more lower-case letters without a vowel (a, e, i, o, u, y) is spelled out in
  capitals ("fp16": "F P sixteen", "mp3": "M P three"); other letters stay as written (the model
  spells capitals). A unit or ordinal after a number is still read as one ("5km", "3rd").
- A web address (http://, https:// or www.) is its host and path: the scheme, "www.", a query and a
  fragment are left out, "." read "dot" and "/" "slash", "-" and "_" as spaces ("https://github.com/
  ml-explore/mlx" is "github dot com slash ml explore slash mlx"). An e-mail address is its name "at"
  its host ("ann@example.org": "ann at example dot org"). Angle brackets around either are dropped.
- Numbers with dots keep every digit written, and a dot that ends a sentence is no part of them. Two or
  more dots make a version, each part a number ("1.30.0": "one point thirty point zero"). One dot is a
  decimal point where the language writes one (English, Japanese, Korean: "3.10" "three point one
  zero", digit by digit after it); where the language writes a decimal comma (German, French, Spanish,
  Italian, Portuguese, Russian) groups of three digits after dots are thousands ("1.000" "eintausend")
  and any other dotted number is read as a version ("3.10" "drei Punkt zehn"). A part written with a
  leading zero is read digit by digit ("1.05" never loses its zero).
- In an identifier an underscore between letters or digits is a pause ("x86_64": "x eighty-six sixty-four",
  "max_tokens": "max tokens"), and a caret a power ("10^6": "ten to the power of six").
"""

import re
import unicodedata
from functools import partial

from num2words import CONVERTER_CLASSES, num2words

from . import LANGUAGE_CODES

CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
PERCENT = {"en": "percent", "de": "Prozent", "fr": "pour cent", "es": "por ciento", "it": "per cento",
           "pt": "por cento", "ru": "процентов"}
UNITS_EN = {"km": "kilometers", "kg": "kilograms", "cm": "centimeters", "mm": "millimeters", "m": "meters",
            "g": "grams", "mi": "miles", "lb": "pounds", "lbs": "pounds", "ms": "milliseconds", "min": "minutes",
            "h": "hours", "s": "seconds", "GB": "gigabytes", "MB": "megabytes", "kB": "kilobytes", "°C": "degrees Celsius",
            "°F": "degrees Fahrenheit", "km/h": "kilometers per hour", "mph": "miles per hour"}
MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")

_NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"
_CURRENCY = re.compile(r"([$€£¥])\s?(" + _NUMBER + r")")
_PERCENT = re.compile(r"(" + _NUMBER + r")\s?%")
_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_TIME = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b")
_ORDINAL = re.compile(r"\b(\d+)(st|nd|rd|th)\b")
_YEAR = re.compile(r"(?<![\d.,])\b(1[1-9]\d\d|20\d\d)\b(?![.,]?\d)")
_UNIT = re.compile(r"(" + _NUMBER + r")\s?(" + "|".join(re.escape(u) for u in sorted(UNITS_EN, key=len, reverse=True))
                   + r")(?![\w/])")
_PLAIN = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)*")  # a sentence's final dot is not followed by a digit: never taken
# A word of letters and digits together (parts joined by "-", "." or "_"), e.g. Qwen2, fp16, Mistral-7B-v0.1.
_TECH = re.compile(r"(?<![\w.-])(?=[A-Za-z0-9._-]*[A-Za-z])(?=[A-Za-z0-9._-]*\d)"
                   r"[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*(?![\w-])")
_UNDERSCORE = re.compile(r"(?<=[^\W_])_+(?=[^\W_])")  # snake_case: a pause between the words
_POWER = re.compile(r"(?<![\w^])([A-Za-z]|\d+(?:\.\d+)?)\s?\^\s?(-?(?:\d+|[A-Za-z]))(?![\w^])")
_TECH_PART = re.compile(r"[A-Za-z]+|\d+(?:\.\d+)*")
_URL_CHARS = r"[^\s<>\"'()\[\]]*[^\s<>\"'()\[\].,;:!?]"  # its last one is no sentence's punctuation
_URL = re.compile(r"<((?:https?://|www\.)" + _URL_CHARS + r")>"
                  r"|(?<![\w@/])((?:https?://|www\.)" + _URL_CHARS + ")", re.I)
_EMAIL = re.compile(r"<(?:mailto:)?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)>"
                    r"|(?<![\w.+-])(?:mailto:)?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)\b")
# "dot", "slash" and "at" of web and e-mail addresses, per language (English for the rest).
ADDRESS_WORDS = {"en": ("dot", "slash", "at"), "de": ("Punkt", "Schrägstrich", "at"),
                 "fr": ("point", "slash", "arobase"), "es": ("punto", "barra", "arroba"),
                 "it": ("punto", "slash", "chiocciola"), "pt": ("ponto", "barra", "arroba"),
                 "ru": ("точка", "слэш", "собака"), "zh": ("点", "斜杠", "at")}


# The dot of a dotted number, and how a power is said, per language (English for the rest).
POINT = {"en": "point", "de": "Punkt", "fr": "point", "es": "punto", "it": "punto", "pt": "ponto", "ru": "точка",
         "ja": "点", "ko": "점"}
POWER = {"en": "{} to the power of {}", "de": "{} hoch {}", "fr": "{} puissance {}", "es": "{} elevado a {}",
         "it": "{} elevato alla {}", "pt": "{} elevado a {}", "ru": "{} в степени {}", "ja": "{}の{}乗",
         "ko": "{}의 {}제곱"}
DECIMAL_COMMA = {"de", "fr", "es", "it", "pt", "ru"}  # a dot is no decimal point there


def language_code(language: str, text: str) -> str:
    """num2words' code for a language name or ISO 639-1 code ('en-US'); 'auto' guesses English for Latin text."""
    key = (language or "auto").strip().lower().replace("_", "-").split("-")[0]
    code = LANGUAGE_CODES.get(key, key if key in LANGUAGE_CODES.values() else None)
    if code is None:
        latin = sum(ch.isascii() for ch in text if ch.isalpha())
        code = "en" if latin >= 0.5 * max(sum(ch.isalpha() for ch in text), 1) else "zh"
    return code


def _value(digits: str):
    digits = digits.replace(",", "")
    return float(digits) if "." in digits else int(digits)


def _words(lang: str, digits: str, to: str = "cardinal", **extra) -> str:
    if to == "cardinal" and "." in digits:
        return _dotted(lang, digits)
    try:  # num2words reads a whole number as cents: $5 would be "zero dollars, five cents"
        return num2words(float(_value(digits)) if to == "currency" else _value(digits), lang=lang, to=to, **extra)
    except (NotImplementedError, KeyError, ValueError, OverflowError):
        return num2words(_value(digits), lang=lang) if to != "cardinal" else digits


def _dotted(lang: str, digits: str) -> str:
    """A number with dots, every digit said (see the module's docstring)."""
    parts = digits.split(".")
    whole = partial(_words, lang)
    if lang in DECIMAL_COMMA and len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:]):
        return whole("".join(parts))  # 1.000: thousands
    point = f" {POINT.get(lang, POINT['en'])} "
    if len(parts) == 2 and lang not in DECIMAL_COMMA:
        return whole(parts[0]) + point + " ".join(whole(d) for d in parts[1])
    return point.join(" ".join(whole(d) for d in p) if len(p) > 1 and p[0] == "0" else whole(p) for p in parts)


def _date_en(say, m) -> str:
    year, month, day = m.groups()
    if not 1 <= int(month) <= 12 or not 1 <= int(day) <= 31:
        return m.group(0)
    return f"{MONTHS_EN[int(month) - 1]} {say(day, 'ordinal')}, {say(year, 'year')}"


def _time_en(say, m) -> str:
    hours, minutes = m.groups()
    if minutes == "00":
        return f"{say(hours)} o'clock"
    return f"{say(hours)} {'oh ' if minutes[0] == '0' else ''}{say(str(int(minutes)))}"


def _address(words, host_and_path: str) -> str:
    """A web address or e-mail host as said: "." as "dot", "/" as "slash", "-" and "_" as spaces."""
    dot, slash, _ = words
    parts = [p for p in host_and_path.split("/") if p]
    said = [" ".join(f" {dot} ".join(w for w in p.split(".") if w).replace("-", " ").replace("_", " ").split())
            for p in parts]
    return f" {slash} ".join(w for w in said if w)


def _url(words, m) -> str:
    url = m.group(1) or m.group(2)
    url = re.sub(r"^(?:https?://)?(?:www\.)?", "", url, flags=re.I)
    return _address(words, re.split(r"[?#]", url)[0])


def _email(words, m) -> str:
    name, _, host = (m.group(1) or m.group(2)).partition("@")
    return f"{_address(words, name)} {words[2]} {_address(words, host)}"


def _tech(lang: str, m) -> str:
    """A word of letters and digits, its parts apart (see the module's docstring)."""
    said = []
    for part in _TECH_PART.findall(m.group(0)):  # "_", "-" and "." between letters: a pause
        if part.islower() and len(part) > 1 and not set(part) & set("aeiouy"):
            part = " ".join(part.upper())
        said.append(part)
    return " ".join(said)


def normalize(text: str, language: str = "auto") -> str:
    """`text` with its numbers and symbols as words in `language` (a request language name or 'auto')."""
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("So", "Cs") and ch != "\ufe0f")
    # The spaces a dropped emoji leaves before punctuation (not before a word's dot: "or .clippy.toml").
    text = re.sub(r"[ \t]+(?=[.,!?;:](?!\w)|$)", "", text)
    lang = language_code(language, text)
    words = ADDRESS_WORDS.get(lang, ADDRESS_WORDS["en"])
    text = _URL.sub(partial(_url, words), text)
    text = _EMAIL.sub(partial(_email, words), text)
    text = _UNDERSCORE.sub(" ", text)
    if lang not in CONVERTER_CLASSES:
        return text
    say = partial(_words, lang)
    text = _POWER.sub(lambda m: POWER.get(lang, POWER["en"]).format(*(say(g) if g[-1].isdigit() else g
                                                                      for g in m.groups())), text)
    text = _CURRENCY.sub(lambda m: say(m.group(2), "currency", currency=CURRENCIES[m.group(1)]), text)
    text = _PERCENT.sub(lambda m: f"{say(m.group(1))} {PERCENT.get(lang, '%')}", text)
    if lang == "en":
        text = _DATE.sub(partial(_date_en, say), text)
        text = _TIME.sub(partial(_time_en, say), text)
        text = _ORDINAL.sub(lambda m: say(m.group(1), "ordinal"), text)
        text = _UNIT.sub(lambda m: f"{say(m.group(1))} {UNITS_EN[m.group(2)]}", text)
        text = _YEAR.sub(lambda m: say(m.group(1), "year"), text)
        text = text.replace(" & ", " and ")
    else:
        text = _TIME.sub(lambda m: f"{say(m.group(1))} {say(str(int(m.group(2))))}", text)
    text = _TECH.sub(partial(_tech, lang), text)
    return re.sub(r"[ \t]{2,}", " ", _PLAIN.sub(lambda m: say(m.group(0)), text))
