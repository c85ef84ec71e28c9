"""Numbers, dates, times, currencies, percentages and units as words, per language, by num2words;
emoji and other pictographs dropped. Qwen3-TTS reads raw digits and symbols unreliably (it can
garble them or run on), so long-form text is normalized by default; other paths only when asked.
Languages num2words does not know (Chinese) keep their digits."""

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
_PLAIN = re.compile(_NUMBER)


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
    try:
        return num2words(_value(digits), lang=lang, to=to, **extra)
    except (NotImplementedError, KeyError, ValueError, OverflowError):
        return num2words(_value(digits), lang=lang) if to != "cardinal" else digits


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


def normalize(text: str, language: str = "auto") -> str:
    """`text` with its numbers and symbols as words in `language` (a request language name or 'auto')."""
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("So", "Cs") and ch != "\ufe0f")
    text = re.sub(r"[ \t]+(?=[.,!?;:]|$)", "", text)  # the spaces a dropped emoji leaves before punctuation
    lang = language_code(language, text)
    if lang not in CONVERTER_CLASSES:
        return text
    say = partial(_words, lang)
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
    return re.sub(r"[ \t]{2,}", " ", _PLAIN.sub(lambda m: say(m.group(0)), text))
