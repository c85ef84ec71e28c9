"""The reading of an alphabetic language's semiotic classes, shared: a `Spec` holds one language's words
(numbers by num2words, months, currencies, units, abbreviations) and reads a text in passes, each a regex
compiled once that finds one class and says it: abbreviations, dates, telephone numbers, ranges, money,
times, measures, percentages, fractions, ordinals, roman numerals, technical words, versions, numbers,
symbols. The classes are those of text-normalization grammars (Sparrowhawk, NeMo); the order of the
passes settles what a string is (a date before a range, a range before money, money before a number). A language module subclasses `Spec` with its words
and the readings that differ (German case endings, Russian agreement); what no pass takes keeps its
characters, so a reading is never worse than the text as written.
"""

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple, Optional

from num2words import num2words

from ..abbreviations import ABBREVIATIONS
from . import electronic

SPACES = " \u00a0\u202f\u2009"  # a space, no-break space, narrow no-break space, thin space
DASHES = "\u2013\u2014-"  # en dash, em dash, hyphen-minus
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ROMAN_FORM = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")


class Context(NamedTuple):
    """What stands around a token: the words before it (nearest last) and after it (nearest first), as written
    with their punctuation, and the character right after it ('' at the end). A reader decides by it what a
    token is (a unit or a word, a score or a range) and how it agrees (the noun a number counts)."""
    before: tuple
    after: tuple
    touching: str

    def word_before(self, i: int = 1) -> str:
        """The i-th word before, without its punctuation ('' where there is none)."""
        return _bare(self.before[-i]) if len(self.before) >= i else ""

    def word_after(self, i: int = 1) -> str:
        return _bare(self.after[i - 1]) if len(self.after) >= i else ""

    def next_is_word(self) -> bool:
        """Whether a word (letters or digits) follows right after the token and a space at most."""
        return bool(self.after) and (self.after[0][:1].isalnum()) and self.touching in SPACES


def _bare(word: str) -> str:
    return word.strip("\"'“”„‘’«»‹›()[]{},.;:!?…")




def context(text: str, start: int, end: int, span: int = 3) -> Context:
    """The `Context` of text[start:end]: `span` words each side, within the sentence's reach (80 characters)."""
    return Context(tuple(text[max(0, start - 80):start].split()[-span:]), tuple(text[end:end + 80].split()[:span]),
                   text[end:end + 1])


_SENTENCE_ENDS = re.compile(r"\s*(?:[A-ZÀ-ÖØ-ÞА-ЯЁ]|$)")


def sentence_dot(abbreviation: str, text: str, end: int) -> str:
    """"." where the dot of `abbreviation`, read out and ending at `end` in `text`, also ended the sentence: a
    capital or the text's end follows ("le 12 sept. Tous" le douze septembre. Tous); else ""."""
    return "." if abbreviation.endswith(".") and _SENTENCE_ENDS.match(text, end) else ""


def roman_value(numeral: str) -> Optional[int]:
    """The value of a well-formed roman numeral ('XIV': 14), None for anything else."""
    if not numeral or not _ROMAN_FORM.fullmatch(numeral):
        return None
    values = [ROMAN[ch] for ch in numeral]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


# A word of letters and digits together (parts joined by "-", "." or "_"), e.g. Qwen2, fp16, Mistral-7B-v0.1; one
# joined by a hyphen to a word with letters outside ASCII ends there ("dom0-системы", "3D-Körper").
_TECH = re.compile(r"(?<![\w.-])(?=[A-Za-z0-9._-]*[A-Za-z])(?=[A-Za-z0-9._-]*\d)"
                   r"[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*(?!\w|-[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*(?![\w-]))")
# Three or more numbers joined by commas without a space ("1,2,3"): where a comma is the decimal, a list (a number has
# one decimal comma at most; Spanish reads "1,234,567", grouped as Mexico writes it, before: es.py).
_COMMA_LIST = re.compile(r"(?<![\w.,])\d{1,4}(?:,\d{1,4}){2,}(?![\w]|[.,]\d)")
_LONG_DIGITS = re.compile(r"\d{26,}")
_TILDE = re.compile(r"(?<![\w~])~\s?(?=\d)")
_CODE_POINT = re.compile(r"\bU\+([0-9A-Fa-f]{4,6})\b")
_TECH_PART = re.compile(r"[A-Za-z]+|\d+(?:\.\d+)*")
_VULGAR = re.compile("(\\d?)([\u00bc-\u00be\u2150-\u215e])")  # "½", "1½": a fraction written in one character
_FRACTION_SLASH = re.compile(r"(?<=\d)\u2044(?=\d)")  # "3⁄4": the fraction slash between digits
# An era before Christ's, as written or as the abbreviations step has said it: a descending range before it is a range
# ("427-347 BC", "(384-322 a.C.)": years counted down), not a difference.
_BEFORE_ERA = re.compile(r"\s?(?:BC|B\.C\.|BCE|B\.C\.E\.|vor Christus|v\.\s?Chr\.|avant Jésus-Christ|av\.\s?J\.-C\."
                         r"|antes de Cristo|avanti Cristo|a\.\s?C\.|до нашей эры|до н\.\s?э\.)(?!\w)")
# "2+3", "N+1": a sum (of numbers, or of a lone letter and a number), not a sign
_PLUS = re.compile(r"(?<=\d)\s?\+\s?(?=\d)|(?<=(?<![\w.])[A-Za-z])(?: \+ |\+)(?=\d)")
_PLUS_MINUS = re.compile(r"(?<![\w+])\+/?-\s?(?=\d)")  # "+/- 5%", "+-3": plus or minus
# "n-1", "x - 2": a lone small letter less a number (capitals are names: "B-52", "S-1", "A-1"; the vowels and "y"
# are words in one language or another: es "y", fr "a", it "e", pt "o")
_LETTER_MINUS = re.compile(r"(?<=(?<![\w.-])[b-df-hj-np-tv-xz])(?: - |-)(?=\d+(?![\w.,-]\w|[-/]\d))")
# "N-1" after "N" alone in the same text ("из N дисков ... N-1"): a capital that stands as a variable, less a number
_CAPITAL_MINUS = re.compile(r"(?<![\w.-])([A-Z])(?: - |-)(?=\d+(?![\w.,-]\w|[-/]\d))")
_NUMBER_SIGN = re.compile(r"(?<![\w#&])#(?=\d)")  # "#7": the number seven, not a hashtag
_LETTER_EQUALS = re.compile(r"(?<![\w.])([A-Za-z])\s?=\s?(?=[-−]?\d)")  # "N=1": a letter equal to a number
# "x>=2", "a <= b": a comparison's sign between operands
_AT_LEAST = re.compile(r"(?<=[\w)])\s?>=\s?(?=[\w(-])|(?<=\s)>=(?=\s)")
_AT_MOST = re.compile(r"(?<=[\w)])\s?<=\s?(?=[\w(-])|(?<=\s)<=(?=\s)")
_COMMA_THOUSANDS = re.compile(r"(?<![\w.,])([1-9]\d{0,2}),(000)(?![\w,]|\.\d)")
_DOTTED = re.compile(r"(?<![\w.,])((?:(?<![\w.,])[-−])?\d+(?:\.\d+)+)(?![\w]|[.,]\d)")


def tech(word: str) -> str:
    """A word of letters and digits, its parts apart; a lower-case run without a vowel spelled."""
    said = []
    for part in _TECH_PART.findall(word):  # "_", "-" and "." between letters: a pause
        if part.islower() and len(part) > 1 and not set(part) & set("aeiouy"):
            part = " ".join(part.upper())
        said.append(part)
    return " ".join(said)


@lru_cache(maxsize=65536)
def _n2w(value, lang: str, to: str, extra: tuple) -> str:
    """num2words, remembered (a book says the same numbers again and again)."""
    try:
        return num2words(value, lang=lang, to=to, **dict(extra))
    except (OverflowError, NotImplementedError, ValueError, TypeError):
        # Beyond num2words (a 20-digit number): every digit said, never a digit dropped.
        return " ".join(num2words(int(d), lang=lang) for d in str(value) if d.isdigit())


def _vulgar(m) -> str:
    """"½" as "1/2", "1½" as "1 1/2": a fraction in one character read as one written with a slash."""
    numerator, _, denominator = unicodedata.normalize("NFKC", m.group(2)).partition("\u2044")
    return f"{m.group(1)}{' ' if m.group(1) else ''}{numerator}/{denominator}"


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _spaced(written: str) -> str:
    """An abbreviation as a pattern that matches it with or without the space after its inner dots."""
    return r"\s?".join(re.escape(part) for part in re.split(r"(?<=\.)\s", written))


class Spec:
    """One language's words and readings; `read(text)` says its semiotic classes as words."""

    code = "en"
    numbers = None  # num2words' language where it is not `code` (Brazilian Portuguese)
    group = ","  # thousands separators besides spaces
    group_spaces = SPACES  # the spaces that group thousands ("1 234 567")
    decimal = "."  # the decimal separator
    point = "point"  # the decimal separator as said
    dot = "point"  # the dot of a version ("1.30.0")
    ip_dot = None  # the dot of an IP address ("192.168.0.1") where it is not a version's
    fraction_digits = "digits"  # after the separator: "digits" one by one, or "number" (leading zeros said)
    minus, plus = "minus", "plus"
    months: tuple = ()
    month_abbreviations: dict = {}
    currencies: dict = {}  # written -> (singular, plural, minor singular, minor plural)
    minor_said = True  # "12,50 €": the minor unit's name said after its number
    joiner = " "  # between the major and minor parts of money
    scales: dict = {}  # "million" -> (singular, plural) as said after a number
    units: dict = {}  # written -> (singular, plural)
    percent = "percent"
    and_word = "and"
    local_phones = False  # "1234-5678" is a telephone number, not a range
    range_word = "to"
    date_order = "dmy"  # numeric dates
    ordinal_pattern = None  # regex whose group 1 is the number and group 2 the mark
    scale_nouns: tuple = ()  # "Million", "millón": a number before one agrees with it
    scale_gender = "m"
    in_context: tuple = ()  # abbreviations of the shared table said only by a pass that knows their context
    number_abbreviations: dict = {}  # said only before a number: "No. 5", "S. 12"
    name_abbreviations: dict = {}  # said only before a capitalized name: "M. Dupont"
    roman_before: tuple = ()  # words after which a roman numeral is a number (Chapter IV)
    roman_after: tuple = ()  # words before which it is an ordinal (XX. Jahrhundert, XXe siècle)
    regnal = True  # a roman numeral after a capitalized name is a regnal number (Louis XIV)
    not_names: frozenset = frozenset()  # capitalized words that are no names (The, And)
    symbols: dict = {}
    equals = None  # "=" between numbers as said ("2+3=5")
    number_sign = None  # "#7" as said before the number ("Tipp #6": "Nummer"); Russian says it its way ("№")
    menu_words: frozenset = frozenset()  # a program's menus: a menu path's arrow between them is not said
    says_decimal_dot = False  # a decimal written with a dot where the decimal is a comma is said with its "point"
    word_units: frozenset = frozenset()  # units written like words of the language ("in"): a unit only where one
    phone_words: frozenset = frozenset()  # words before a telephone number written in spaced groups, casefolded
    score_word = None  # "2:1", "won 3-1": the word between a score's numbers
    score_words: frozenset = frozenset()  # words before a score ("won", "gewann"), casefolded
    sentence_starters = None  # where nouns are capitalized (German): the capitalized words an abbreviation's dot
    # ends a sentence before ("usw. Dann"); any other capital word goes on the sentence ("z. B. Äpfel")
    fractions: dict = {}  # (numerator, denominator) -> said; others: numerator and ordinal denominator
    percent_gender = None  # the gender a number takes before the word for percent, where it agrees (de "ein Prozent")
    proper_fractions_to = 16  # the largest denominator of a proper fraction read as one ("1/18": en, de 99)
    per_word = None  # "per", "pro": where set, compound units are read ("12 kg/cm²", "56 /km²": per a unit) and a
    unit_scales = "(?!)"  # scale word between a number and its unit ("100 million kg") is kept, the unit read
    # A screen's or a wheel's inches after a number ('6,1"', "27″", "15''"), where the mark closes no quotation
    # (an even count of '"' before it): the unit's name, (singular, plural); `said_inches` reads them
    inch: tuple = ()
    _INCH = re.compile(r"(?<![\w.,])(\d{1,3}(?:[.,]\d{1,2})?)[ \u00a0]?(″|''|\")(?![\w\"])")

    def __init__(self):
        self.abbreviations = {w: s for w, s in ABBREVIATIONS.get(self.code, {}).items()
                              if w not in self.number_abbreviations and w not in self.name_abbreviations
                              and w not in self.in_context}
        for written, said in list(self.abbreviations.items()):  # "См." at a sentence's start, as "см."
            if written[0].islower() and written[0].upper() + written[1:] not in self.abbreviations:
                self.abbreviations[written[0].upper() + written[1:]] = said[0].upper() + said[1:]
        g = re.escape(self.group) + self.group_spaces
        # At most eight groups of thousands (27 digits, past num2words' largest scale): a longer run is no number
        # anyone writes, and its value would pass Python's limit on converting digits to int.
        self.NUM = (r"(?:[1-9]\d{0,2}(?:[" + g + r"]\d{3}){1,8}(?![" + g + r"]?\d)|\d+)(?:" + re.escape(self.decimal)
                    + r"\d+)?")
        num, sign = self.NUM, r"(?:(?<![\w.,])[-−+])?"
        self._abbr = self._table_pattern(self.abbreviations, r"(?!\w)")
        self._num_abbr = self._table_pattern(self.number_abbreviations, r"(?=\s?[\d+(])")
        self._name_abbr = self._table_pattern(self.name_abbreviations, r"(?=\s[A-ZÀ-ÖØ-ÞА-Я])")
        currency = _alternation(self.currencies)
        scale = _alternation(self.scales) or "(?!)"
        self._money_before = re.compile(r"(?<![\w$])(" + currency + r")\s?(" + sign + num + r")(?:\s?(" + scale +
                                        r")(?!\w))?")
        self._money_after = re.compile(r"(?<![\w.,])(" + sign + num + r")(?:\s(" + scale + r"))?\s?(" + currency +
                                       r")(?![\w$])")
        self._money_range = re.compile(r"(?<=\d)\s?[–-]\s?(?=(?:" + currency + r")\s?\d)") if currency else None
        self._iso_date = re.compile(r"(?<![\w./-])(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?![\w/-]|\.\d)")
        sep = r"[./-]"
        self._numeric_date = re.compile(r"(?<![\w.,/-])(\d{1,2})(" + sep + r")(\d{1,2})\2(\d{4})(?![\w/]|[.,]\d)")
        months = list(self.months) + list(self.month_abbreviations)
        self._month = _alternation(months) if months else "(?!)"
        self._month_index = {m.casefold(): i for i, m in enumerate(self.months)}
        for written, index in self.month_abbreviations.items():
            self._month_index[written.casefold()] = index
        self._time = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?![\w:]|[.,]\d)")
        self._phone = re.compile(r"(?<![\w+])(\+\d{1,3}[" + SPACES + r"-]?(?:\(\d+\)[" + SPACES + r"-]?)?"
                                 r"\d+(?:[" + SPACES + r"-]\d+)+|\(\d{2,5}\)[" + SPACES + r"-]?\d+(?:[" + SPACES +
                                 r"-]\d+)*|\d{3}-\d{3}-\d{4}(?:-\d+)?|\d{3}\.\d{3}\.\d{4}|\d{3}-\d{2}-\d{4}|\d-\d{3}-\d{3}-\d{2}-\d{2})"
                                 r"(?![\w-]|[.,]\d)")  # "(1953) 1,965 pyramids": a year, then a number
        units = _alternation(self.units)
        self._unit = re.compile(r"(?<![\w.,])(" + sign + num + r")\s?(" + units + r")(?![\w/²³])")
        self._percent = re.compile(r"(?<![\w.,])(" + sign + num + r")\s?%")
        simple = "(?:" + _alternation([u for u in self.units if "/" not in u and " " not in u]) + ")"
        self._compound = re.compile(r"(?<![\w.,])(" + sign + num + r")\s?(" + simple + r")?\s?/\s?(" + simple
                                    + r")(?![\w/²³])")
        self._scaled_unit = re.compile(r"(?<![\w.,])(" + sign + num + r")\s(" + self.unit_scales + r")\s(" + units
                                       + r")(?![\w/²³])")
        self._mixed_unit = re.compile(r"(?<![\w.,/])(" + sign + r"\d{1,3})\s(\d{1,2})/(\d{1,2})\s?(" + units
                                      + r")(?![\w/²³])")  # "1 1/2 ft"
        self._fraction_unit = re.compile(r"(?<![\w.,/])(\d{1,2})/(\d{1,2})\s?(" + units + r")(?![\w/²³])")  # "1/2 l"
        # "97.6%", "1.20 m" where a comma is the decimal: a decimal all the same (a thousands group has three digits);
        # before a unit only where the language does not say the dot itself ("1.85 m" un point quatre-vingt-cinq), and
        # not before an hour's "h" or "ч", where the dot parts hours and minutes ("в 10.00 ч." в десять часов)
        units_after = "" if self.says_decimal_dot else r"|(?![hч](?![\w/²³]))(?:" + units + r")(?![\w/²³])"
        self._dot_decimal = re.compile(r"(?<![\w.,])(\d{1,3})\.(\d{1,2})(?=\s?(?:%" + units_after + r"))")
        self._local_phone = re.compile(r"(?<![\w.,-])(\d{2,3}\s)?(\d{3,5})-(\d{4})(?![\w-]|[.,]\d)")
        self._mixed = re.compile(r"(?<![\w.,/])(\d{1,3})\s(\d{1,2})/(\d{1,2})(?![\w/]|[.,]\d)")
        self._fraction = re.compile(r"(?<![\w.,/])(\d{1,2})/(\d{1,2})(?![\w/]|[.,]\d)")
        self._range = re.compile(r"(?<![\w.,:/-])(" + num + r")\s?[" + DASHES + r"]\s?(" + num
                                 + r")(?![\w.,:/-]\d|[-\w])")
        # "160°-180°", "20 °C – 25 °C": a range whose two ends carry the same degree sign is said with it once
        self._degree_range = re.compile(r"(?<![\w.,:/-])(" + num + r")\s?(°[CF]?)(\s?[" + DASHES + r"]\s?)(?=(?:"
                                        + num + r")\s?\2(?![\w]))")
        # A manual page's section: "find(1)", "PSTREE(1)", "open(3perl)", "sources.list(5)".
        self._man = re.compile(r"(?<=[A-Za-z][\w.+-])\(([1-9][a-z]{0,4})\)(?!\w)")
        self._number = re.compile(r"(?<![\w])(" + sign + r")(" + num + r")(?![\w])")
        self._score = re.compile(r"(?<![\w.,:/-])(\d{1,2})\s?([:\u2013-])\s?(\d{1,2})(?![\w:/]|[.,:-]\d)")
        self._minus = re.compile(r"(?<=\d)\s?-\s?(?=\d+\s?=)")
        self._equals = re.compile(r"(?<=\d)\s?=\s?(?=[-−]?\d)")
        romans = r"(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
        self._roman_before = (re.compile(r"\b(" + _alternation(self.roman_before) + r")\s(" + romans
                                         + r")\b(?![.\w']\w)")
                              if self.roman_before else None)
        self._roman_after = (re.compile(r"\b(" + romans + r")(\.|e|er|ème|º|°)?\s(" + _alternation(self.roman_after)
                                        + r")\b") if self.roman_after else None)
        self._regnal = re.compile(r"\b([A-ZÀ-ÖØ-ÞА-Я][a-zà-öø-ÿа-яё]{2,})\s(?=[IVX])(X{0,3}(?:IX|IV|V?I{0,3}))"
                                  r"(?![\w'’-])" + (r"(?:\.(?=\s[a-zà-öø-ÿ]))?" if self.group == "." else ""))
        self._scale_noun = (re.compile(r"\s(?:" + _alternation(self.scale_nouns) + r")\b", re.I)
                            if self.scale_nouns else None)
        symbols = [w for w in self.symbols if w != "~"]  # "~": a pass of its own in `read`
        self._symbols = re.compile(_alternation(symbols)) if symbols else None
        self._month_year = re.compile(r"\b(" + self._month + r")\.?\s(\d{4})\b") if months else None
        short = [m for m in self.month_abbreviations if m.endswith(".")]  # "janv.": a day before it is a date
        self._day_short_month = (re.compile(r"(?<![\w.,/:-])(0?[1-9]|[12]\d|3[01])\s(" + _alternation(short)
                                            + r")(?=[\s,;:)]|$)") if short else None)

    # A car's consumption after a number ("5,6 l/100 km"): `consumption`, the language's words for it ("Liter auf
    # hundert Kilometer"); `said_consumption` reads it
    consumption = None
    _CONSUMPTION = re.compile(r"(?<=\d)[ \u00a0]?[lL][ \u00a0]?/[ \u00a0]?100[ \u00a0]?km(?![\w/²³])")

    def said_inches(self, text):
        return self._INCH.sub(self._inches, text) if self.inch else text

    def said_consumption(self, text):
        return self._CONSUMPTION.sub(f" {self.consumption}", text) if self.consumption else text

    def _inches(self, m):
        if m.group(2) == '"' and m.string.count('"', 0, m.start(2)) % 2:
            return m.group(0)  # 'he said "buy 5"': a quotation's end
        return f"{m.group(1)} {self.inch[m.group(1) != '1']}"
    def _table_pattern(self, table, after):
        if not table:
            return None
        alternation = "|".join(_spaced(w) for w in sorted(table, key=len, reverse=True))
        return re.compile(r"(?<![\w.])(" + alternation + r")" + after)

    # Numbers ------------------------------------------------------------------------------------------------

    def n2w(self, value, to="cardinal", **extra) -> str:
        return _n2w(value, self.numbers or self.code, to, tuple(sorted(extra.items())))

    def cardinal(self, n: int, gender: Optional[str] = None) -> str:
        """A whole number; `gender` (None: counted alone, 'm', 'f', 'n': before a noun) where the language's
        number agrees with its noun."""
        return self.n2w(n)

    def ordinal(self, n: int, gender: str = "m", mark: str = "") -> str:
        return self.n2w(n, "ordinal")

    def year(self, n: int) -> str:
        return self.cardinal(n)

    def digits(self, digits: str) -> str:
        return " ".join(self.cardinal(int(d)) for d in digits if d.isdigit())

    def value(self, written: str):
        """(whole part as int, fraction digits or '') of a number written in this language."""
        whole, _, fraction = written.partition(self.decimal) if self.decimal in written else (written, "", "")
        whole = re.sub("[" + re.escape(self.group) + SPACES + "]", "", whole)
        return int(whole), fraction

    def fraction_part(self, digits: str) -> str:
        if self.fraction_digits == "number" and len(digits.lstrip("0")) <= 3:
            zeros = len(digits) - len(digits.lstrip("0"))
            return " ".join([self.cardinal(0)] * zeros + ([self.cardinal(int(digits))] if digits.strip("0") else []))
        return self.digits(digits)

    def number(self, written: str, gender: Optional[str] = None) -> str:
        """A number as written here ('1 234,5', '-3'), said."""
        sign = ""
        if written[0] in "-−+":
            sign, written = (self.plus if written[0] == "+" else self.minus) + " ", written[1:]
        whole, fraction = self.value(written)
        if fraction:
            return sign + self.decimal_number(whole, fraction)
        return sign + self.cardinal(whole, gender)

    def leading_zeros(self, written: str) -> bool:
        """Whether a number is written with leading zeros ('007', '0042', not '0' nor '0,5')."""
        return len(written) > 1 and written[0] == "0" and written[1].isdigit()

    def padded(self, m) -> bool:
        """Whether a number's leading zero only pads a day, month, hour or minute to two digits: "01 de janeiro",
        "05.", "01/07", "12h02" (said as the number), where "007" and "0042" are codes (said digit by digit)."""
        written = m.group(2)
        if len(written) != 2:
            return False
        text, start, end = m.string, m.start(2), m.end(2)
        if start and text[start - 1] in "/:.-hH" or text[end:end + 1] in ("/", ":", ".", "-", "h", "H", "m"):
            return True
        ctx = context(text, start, end)
        return any(ctx.word_after(i).casefold() in self._month_index for i in (1, 2))

    def zeros(self, digits: str) -> str:
        """A number written with leading zeros: every digit said (a code, a postcode, 'Agent 007')."""
        return self.digits(digits)

    def decimal_number(self, whole: int, fraction: str) -> str:
        return f"{self.cardinal(whole)} {self.point} {self.fraction_part(fraction)}"

    def plural_index(self, written: str) -> int:
        """0 for a number that takes a noun's singular, 1 for its plural (Russian: 0, 1 or 2)."""
        whole, fraction = self.value(written.lstrip("-−+"))
        return 0 if whole == 1 and not fraction else 1

    # Classes -------------------------------------------------------------------------------------------------

    def money(self, amount: str, currency: str, scale: Optional[str]) -> str:
        names = self.currencies[currency]
        if scale:
            return f"{self.number(amount)} {self.scales[scale][1]} {names[1]}"
        sign = ""
        if amount[0] in "-−+":
            sign, amount = (self.plus if amount[0] == "+" else self.minus) + " ", amount[1:]
        whole, fraction = self.value(amount)
        if len(fraction) == 3 and fraction.endswith("0"):  # "$2.000", "$20.500": a trailing zero of a price
            fraction = fraction[:2].rstrip("0") if fraction[:2] == "00" else fraction[:2]
        if fraction and len(fraction) > 2:
            return sign + f"{self.number(amount)} {names[1]}"
        cents = int(fraction.ljust(2, "0")) if fraction else 0
        major = f"{self.cardinal(whole, self.currency_gender(currency))} {names[self.plural_index(str(whole))]}"
        if not cents:
            return sign + major
        minor = self.cardinal(cents, self.currency_gender(currency, minor=True))
        if self.minor_said or not whole or self.minor_named(cents):
            minor += " " + names[2 + self.plural_index(str(cents))]
        return sign + (minor if not whole else major + self.joiner + minor)

    def minor_named(self, cents: int) -> bool:
        """Whether the minor unit is named after a major one where the language leaves it out ("zwei Euro fünfzig")."""
        return False

    def currency_gender(self, currency: str, minor: bool = False) -> str:
        return "m"  # the gender of a currency's noun, where a number agrees with it

    def measure(self, amount: str, unit: str) -> str:
        names = self.units[unit]
        return f"{self.number(amount, self.unit_gender(unit))} {names[min(self.plural_index(amount), len(names) - 1)]}"

    def unit_gender(self, unit: str) -> str:
        return "m"

    def date(self, day: int, month: int, year: Optional[int]) -> str:
        said = f"{self.ordinal(day)} {self.months[month - 1]}"
        return said + (f" {self.year(year)}" if year else "")

    def time(self, hours: int, minutes: int, seconds: Optional[int]) -> str:
        said = self.cardinal(hours)
        if minutes:
            said += " " + self.cardinal(minutes)
        return said

    def fraction(self, numerator: int, denominator: int) -> str:
        said = self.fractions.get((numerator, denominator))
        if said:
            return said
        return f"{self.cardinal(numerator)} {self.ordinal(denominator)}{'s' if numerator > 1 else ''}"

    def roman(self, value: int, kind: str, word: str = "") -> str:
        """A roman numeral's value said: kind 'cardinal' (Chapter IV), 'ordinal' (XX. Jahrhundert), 'regnal'."""
        return self.cardinal(value) if kind == "cardinal" else self.ordinal(value)

    def telephone(self, written: str) -> str:
        groups = re.findall(r"\+|\d+", written)
        said = [self.digits(g) for g in groups if g != "+"]
        if groups[0] == "+":
            said[0] = f"{self.plus} {said[0]}"
        return ", ".join(said)

    def man_section(self, section: str) -> str:
        return ""  # a manual page's section ("find(1)") is a cross-reference for the eye: not said

    # The passes ------------------------------------------------------------------------------------------------

    def read(self, text: str) -> str:
        # A run of more digits than any number has (a hash, a serial): said digit by digit, first.
        text = _LONG_DIGITS.sub(lambda m: f" {self.digits(m.group(0))} ", text)
        if "~" in self.symbols:  # "~5 s": "about", before the number is read; "~/.config" is a path
            text = _TILDE.sub(self.symbols["~"] + " ", text)
        text = self.read_arithmetic(_VULGAR.sub(_vulgar, _FRACTION_SLASH.sub("/", text)))
        if self.decimal == "," and "." in text:  # "97.6%", "1.20 m" where a comma is the decimal: a decimal still
            text = self._dot_decimal.sub(r"\1,\2", text)
        if self.decimal == "," and "," in text:  # "1,2,3" where a comma is the decimal: a list, no number
            text = _COMMA_LIST.sub(lambda m: ", ".join(m.group(0).split(",")), text)
        for step in (self.read_domains, self.read_abbreviations, self.read_scores, self.read_dates, self.read_telephones, self.read_ranges,
                     self.read_money, self.read_times, self.read_measures, self.read_percentages,
                     self.read_fractions, self.read_ordinals, self.read_romans, self.read_numbers,
                     self.read_symbols):
            text = step(text)
        return re.sub(r"[ \t]{2,}", " ", text)

    def read_domains(self, text: str) -> str:
        """A host or file name without scheme ("nvidia.com/drivers", "intro.html"), said as an address
        (`electronic`); a word whose dot is an abbreviation's ("sig.ra") or a file type not listed ("rustfmt.toml")
        keeps its dot; and a payment card's number after a cue ("card ending in 8876"), digit by digit."""
        text = electronic.read_cards(self.code, text, self.digits)
        return electronic.read_hosts(self.code, text, self.digits, self.is_abbreviation)

    def is_abbreviation(self, written: str) -> bool:
        tables = (self.abbreviations, self.number_abbreviations, self.name_abbreviations,
                  ABBREVIATIONS.get(self.code, {}))
        return any(written in table or written.lower() in table for table in tables)

    def read_arithmetic(self, text: str) -> str:
        """"2+3": "two plus three" ("+49" stays a sign), and "=" between numbers where the language says it;
        "+/- 5" plus or minus, "N=1" a letter equal to a number, "n-1" a letter less one, "x>=2" the comparison's
        sign."""
        if "=" in text:
            text = _AT_MOST.sub(" ≤ ", _AT_LEAST.sub(" ≥ ", text))
        if "+" in text:
            text = _PLUS.sub(f" {self.plus} ", _PLUS_MINUS.sub("± ", text))
        if "-" in text:
            text = _LETTER_MINUS.sub(f" {self.minus} ", text)
            text = _CAPITAL_MINUS.sub(lambda m: f"{m.group(1)} {self.minus} " if re.search(
                rf"(?<![\w.-]){m.group(1)}(?![\w.-])", text) else m.group(0), text)
        if self.equals and "=" in text:
            text = _LETTER_EQUALS.sub(rf"\1 {self.equals} ", text)
            text = self._minus.sub(f" {self.minus} ", text)  # "1-2=5": a difference, not a range
            text = self._equals.sub(f" {self.equals} ", text)
        return text

    def read_scores(self, text: str) -> str:
        """A score or ratio: "2:1" (a colon before one digit is never a time), and "3-1", "2:10" after a word
        that tells a match ("won 3-1", "gewann 2:10")."""
        if self.score_word is None:
            return text

        def said(m):
            first, mark, second = m.groups()
            if mark != ":" or len(second) != 1:
                ctx = context(m.string, m.start(), m.end())
                if not any(_bare(w).casefold() in self.score_words for w in ctx.before):
                    return m.group(0)
            return f"{self.number(first)} {self.score_word} {self.number(second)}"
        return self._score.sub(said, text)

    def read_number_sign(self, text: str) -> str:
        """"#7": the language's word for number before it (`number_sign`), where it has one."""
        return _NUMBER_SIGN.sub(self.number_sign + " ", text) if self.number_sign and "#" in text else text

    def read_abbreviations(self, text: str) -> str:
        text = self.read_number_sign(text)

        def said(table):
            index = {re.sub(r"\s", "", w): s for w, s in table.items()}
            return lambda m: index[re.sub(r"\s", "", m.group(1))]
        if self._abbr is not None:
            say = said(self.abbreviations)
            # The abbreviation's dot ends the sentence too when a capital or the end follows.
            text = self._abbr.sub(lambda m: say(m) + ("." if m.group(1).endswith(".") and
                                                      self._ends_sentence(text[m.end():]) else ""), text)
        if self._num_abbr is not None:
            text = self._num_abbr.sub(said(self.number_abbreviations), text)
        if self._name_abbr is not None:
            say = said(self.name_abbreviations)
            text = self._name_abbr.sub(lambda m: m.group(0) if self._initial(m) else say(m), text)
        return text

    @staticmethod
    def _initial(m) -> bool:
        """Whether a one-letter abbreviation ("M.", "D.") is a middle initial: it follows a capitalised
        word that does not begin its sentence ("Jean M. Dupont", but "Voir M. Martin")."""
        if len(m.group(1)) != 2:
            return False
        before = m.string[max(0, m.start() - 40):m.start()].split()
        return (len(before) >= 2 and before[-1][:1].isupper() and before[-1][-1:].isalpha()
                and not before[-2].endswith((".", "!", "?", ":", ";")))

    def _ends_sentence(self, rest: str) -> bool:
        """Whether an abbreviation's dot also ends its sentence: the text ends, or a capital follows that
        begins no abbreviation of its own ("vgl. Nr. 9")."""
        following = re.match(r"\s*(\S*)", rest).group(1)
        if not following:
            return True
        if self.sentence_starters is not None and _bare(following) not in self.sentence_starters:
            return False  # "z. B. Äpfel", "3 Mio. Follower": a noun goes on the sentence
        return following[0].isupper() and not any(following.startswith(w.split()[0]) for w in
                                                  (*self.number_abbreviations, *self.name_abbreviations))

    def read_money(self, text: str) -> str:
        if not self.currencies:
            return text
        text = self._money_range.sub(f" {self.range_word} ", text)  # "$250-$300"
        text = self._money_before.sub(lambda m: self.money(m.group(2), m.group(1), m.group(3)), text)
        return self._money_after.sub(lambda m: self.money(m.group(1), m.group(3), m.group(2)), text)

    def read_dates(self, text: str) -> str:
        def iso(m):
            year, month, day = int(m.group(1)), int(m.group(3)), int(m.group(4))
            return self.date(day, month, year) if 1 <= month <= 12 and 1 <= day <= 31 else m.group(0)

        def numeric(m):
            a, b, year = int(m.group(1)), int(m.group(3)), int(m.group(4))
            day, month = (b, a) if self.date_order == "mdy" and (a <= 12 or b > 12) else (a, b)
            return self.date(day, month, year) if 1 <= month <= 12 and 1 <= day <= 31 else m.group(0)

        text = self._iso_date.sub(iso, text)
        text = self._numeric_date.sub(numeric, text)
        return self.read_written_dates(text)

    def month_of(self, written: str) -> int:
        return self._month_index[written.casefold()] + 1

    def read_written_dates(self, text: str) -> str:
        if self._month_year is None:
            return text
        text = self._month_year.sub(lambda m: f"{self.months[self.month_of(m.group(1)) - 1]} "
                                              f"{self.year(int(m.group(2)))}", text)
        if self._day_short_month is None:
            return text
        # "le 3 janv. à Paris" le trois janvier; the abbreviation's dot that also ends a sentence stays ("le 12
        # sept. Tous" le douze septembre. Tous)
        return self._day_short_month.sub(lambda m: self.date(int(m.group(1)), self.month_of(m.group(2)), None)
                                         + sentence_dot(m.group(2), m.string, m.end()), text)

    def read_times(self, text: str) -> str:
        return self._time.sub(lambda m: self.time(int(m.group(1)), int(m.group(2)),
                                                  int(m.group(3)) if m.group(3) else None), text)

    def read_telephones(self, text: str) -> str:
        text = self._phone.sub(lambda m: self.telephone(m.group(1)), text)
        if not self.local_phones:
            return text

        def local(m):
            first, second = m.group(2), m.group(3)
            if not m.group(1) and second[0] != "0" and (  # "555-0100": no range ends in a leading zero
                    len(first) == 4 and 1000 <= int(first) <= 2099 and 1000 <= int(second) <= 2099
                    or first.endswith("00") or second.endswith("00")):
                return m.group(0)  # "1990-1995", "500-1000": a range
            return self.telephone(m.group(0))
        return self._local_phone.sub(local, text)

    def read_measures(self, text: str) -> str:
        if self.units and self.per_word:
            text = self._scaled_unit.sub(lambda m: f"{self.number(m.group(1))} {m.group(2)} "
                                                   f"{self.units[m.group(3)][-1]}", text)
            text = self._compound.sub(self.compound, text)
            text = self._mixed_unit.sub(self.mixed_measure, text)
            text = self._fraction_unit.sub(lambda m: self.fraction_measure(int(m.group(1)), int(m.group(2)), m.group(3))
                                           if 0 < int(m.group(1)) < int(m.group(2)) <= 16 else m.group(0), text)
        if self.units:
            text = self._unit.sub(lambda m: self.measure(m.group(1), m.group(2)) if self.is_unit(m) else m.group(0),
                                  text)
        return text

    def compound(self, m) -> str:
        """A unit per another ("12kg/kg", "3 cc/s") or a number per a unit ("56.3 /km²")."""
        amount, first, second = m.groups()
        per = f"{self.per_word} {self.units[second][0]}"
        return f"{self.measure(amount, first) if first else self.number(amount)} {per}"

    def mixed_measure(self, m) -> str:
        whole, numerator, denominator, unit = m.groups()
        if not 0 < int(numerator) < int(denominator) <= 16:
            return m.group(0)
        sign = f"{self.minus} " if whole[0] in "-−" else ""
        said = self.mixed(int(whole.lstrip("-−+")), int(numerator), int(denominator))
        return f"{sign}{said} {self.units[unit][-1]}"

    def fraction_measure(self, numerator: int, denominator: int, unit: str) -> str:
        """A fraction of a unit ("3/4 kg")."""
        return f"{self.fraction(numerator, denominator)} {self.units[unit][0]}"

    def is_unit(self, m) -> bool:
        """Whether the unit of a measure's match (group 2, after the number) stands as one: a unit written like a
        word ("in") only before no word ("12 in."), or after another measure ("6 ft 2 in"): "1 in 10", "300 in
        March" are no inches."""
        if m.group(2) not in self.word_units:
            return True
        ctx = context(m.string, m.start(), m.end())
        if not ctx.next_is_word():
            return True
        return len(ctx.before) > 0 and _bare(ctx.before[-1]) in self.units and ctx.before[-1][-1:].isalnum()

    def read_percentages(self, text: str) -> str:
        return self._percent.sub(lambda m: f"{self.number(m.group(1), self.percent_gender)} {self.percent}", text)

    def mixed(self, whole: int, numerator: int, denominator: int) -> str:
        """A whole number and a fraction ("1 1/2")."""
        return f"{self.cardinal(whole)} {self.and_word} {self.fraction(numerator, denominator)}"

    def read_fractions(self, text: str) -> str:
        text = self._mixed.sub(lambda m: self.mixed(*map(int, m.groups())) if 0 < int(m.group(2)) < int(m.group(3))
                               <= 16 else m.group(0), text)

        def said(m):
            numerator, denominator = int(m.group(1)), int(m.group(2))
            if numerator < denominator <= self.proper_fractions_to and numerator:
                return self.fraction(numerator, denominator)  # "31/32", "1/18"
            if not 1 < denominator <= 16 or numerator >= denominator * 4:
                return m.group(0)
            return self.fraction(numerator, denominator)
        return self._fraction.sub(said, text)

    def read_ordinals(self, text: str) -> str:
        if self.ordinal_pattern is None:
            return text
        return self.ordinal_pattern.sub(lambda m: self.ordinal(int(re.sub(r"\D", "", m.group(1))), mark=m.group(2)),
                                        text)

    def read_romans(self, text: str) -> str:
        if self._roman_before is not None:
            text = self._roman_before.sub(
                lambda m: f"{m.group(1)} {self.roman(roman_value(m.group(2)), 'cardinal', m.group(1))}", text)
        if self._roman_after is not None:
            text = self._roman_after.sub(
                lambda m: f"{self.roman(roman_value(m.group(1)), 'ordinal', m.group(3))} {m.group(3)}", text)
        if self.regnal:
            def regnal(m):
                value = roman_value(m.group(2))
                if value is None or m.group(2) == "I" or m.group(1) in self.not_names:
                    return m.group(0)
                return f"{m.group(1)} {self.roman(value, 'regnal', m.group(1))}"
            text = self._regnal.sub(regnal, text)
        return text

    def read_ranges(self, text: str) -> str:
        def said(m):
            first, second = m.group(1), m.group(2)
            if first.isdigit() and 1000 <= int(first) <= 2099 and len(second) == 2 and second.isdigit():
                return f"{first} {self.range_word} {int(second)}"  # "1960-80": a year and its decade
            try:  # a hyphen between descending numbers may be a minus (not before an era counted down); an en dash
                # is always a range
                if self.value(first)[0] >= self.value(second)[0] and "-" in m.group(0) \
                        and not _BEFORE_ERA.match(m.string, m.end()):
                    return m.group(0)
            except ValueError:
                return m.group(0)
            return f"{first} {self.range_word} {second}"
        return self._range.sub(said, self._degree_range.sub(r"\1\3", text))

    def read_numbers(self, text: str) -> str:
        if self.decimal == "," and ",000" in text:  # "5,000 años", "10,000 anni": thousands, as no decimal is written
            text = _COMMA_THOUSANDS.sub(r"\1\2", text)  # with three zeros (a unit's or a price's was read before)
        text = self._man.sub(lambda m: self.man_section(m.group(1)), text)  # find(1): "find"
        text = _CODE_POINT.sub(self.code_point, text)
        text = _TECH.sub(self.tech, text)
        text = _DOTTED.sub(self.dotted, text)
        return self._number.sub(self.say_number, text)

    @staticmethod
    def listed(written: str) -> bool:
        """Whether numbers apart by plain spaces are a list, not thousands: every group a round hundred
        ("100 200 300"), where a number's groups would hold other digits or "000"."""
        groups = written.split(" ")
        return (len(groups) > 1 and len(groups[0]) == 3
                and all(len(g) == 3 and g.endswith("00") and g != "000" for g in groups))

    def code_point(self, m) -> str:
        """A Unicode code point ("U+0020"): "U plus", then its hex digits one by one."""
        return f"U {self.plus} " + " ".join(self.cardinal(int(ch)) if ch.isdigit() else ch.upper()
                                            for ch in m.group(1))

    def tech(self, m) -> str:
        if self.ordinal_pattern is not None and self.ordinal_pattern.fullmatch(m.group(0)):
            return m.group(0)
        return self.name_numbers(tech(m.group(0)))

    def name_numbers(self, parts: str) -> str:
        """The numbers of a word of letters and digits, its parts apart: a whole number after letters is the name's,
        said as it is ("B1 функция" B один, agreeing with no noun after it); a number first ("21km", "3x") is left
        to agree with what follows."""
        parts = parts.split(" ")
        return " ".join(self.cardinal(int(part)) if i and part.isdigit() and part[0] != "0" else part
                        for i, part in enumerate(parts))

    def dotted(self, m) -> str:
        """A number with dots: a decimal or thousands where the language writes them so, else a version,
        each part a number and a part with a leading zero digit by digit."""
        written = m.group(1)
        if written[0] in "-−":
            return f"{self.minus} {self.dotted(_DOTTED.match(written[1:]))}"
        parts = written.split(".")
        if self.decimal == "." and len(parts) == 2:
            return self.number(written)
        if self.group == "." and parts[0][0] != "0" and len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:]):
            return self.number(written)
        if len(parts) == 4 and all(int(p) <= 255 and (p == "0" or p[0] != "0") for p in parts):
            return f" {self.ip_dot or self.dot} ".join(self.digits(p) for p in parts)  # an IP address
        if self.decimal != "." and len(parts) == 2 and parts[0] == "0":
            return self.decimal_number(0, parts[1])
        return f" {self.dot} ".join(self.digits(p) if len(p) > 1 and p[0] == "0" else self.cardinal(int(p))
                                    for p in parts)

    def say_number(self, m) -> str:
        sign, written = m.group(1), m.group(2)
        if self.leading_zeros(written) and not self.padded(m):  # "007", "01067": every digit said
            head, _, fraction = written.partition(self.decimal)
            said = self.zeros(head) + (f" {self.point} {self.fraction_part(fraction)}" if fraction else "")
            return (f"{self.plus if sign == '+' else self.minus} " if sign else "") + said
        if " " in written and self.phone_words and any(
                _bare(w).casefold() in self.phone_words for w in context(m.string, m.start(), m.end()).before):
            return self.telephone(written)  # "Telefon 030 123 456": digits, group by group
        if self.listed(written):  # "die Werte 100 200 300": three numbers
            return " ".join(self.number(g) for g in (sign + written).split(" "))
        whole, fraction = self.value(written)
        scale = self._scale_noun.match(m.string, m.end()) if self._scale_noun else None
        if scale:  # "1 Million": "eine Million", "1 millón": "un millón"
            return self.number(sign + written, self.scale_gender)
        if not fraction and 1100 <= whole <= 2099 and written.isdigit():
            return (self.minus + " " if sign in "-−" and sign else "") + self.year(whole)
        return self.number(sign + written)

    # A menu path of a program's manual ("Datei → Neu", "File → Open → Recent"): its arrows are not said, the items a
    # pause apart. A path: two arrows or more in a row, or one between capitalized words of which one is a menu's.
    _MENU_CHAIN = re.compile(r"(?<![\w-])[^\W\d_][\w.-]*(?:\s?→\s?[^\W\d_][\w.-]*){2,}(?![\w-])")
    _MENU_STEP = re.compile(r"(?<![\w-])([A-ZÀ-ÖØ-ÞА-ЯЁ][\w-]*)\s?→\s?([A-ZÀ-ÖØ-ÞА-ЯЁ][\w-]*)(?![\w-])")

    def read_menu_paths(self, text: str) -> str:
        if "→" not in text:
            return text
        text = self._MENU_CHAIN.sub(lambda m: re.sub(r"\s?→\s?", ", ", m.group(0)), text)
        return self._MENU_STEP.sub(lambda m: f"{m.group(1)}, {m.group(2)}" if {m.group(1), m.group(2)} & self.menu_words
                                   else m.group(0), text)

    def read_symbols(self, text: str) -> str:
        text = self.read_menu_paths(text)
        if self._symbols is None:
            return text
        return self._symbols.sub(lambda m: f" {self.symbols[m.group(0)]} ", text)
