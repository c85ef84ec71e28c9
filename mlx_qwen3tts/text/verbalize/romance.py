"""What French, Spanish, Italian and Portuguese share: a decimal comma, thousands with dots or spaces,
the day before the month in a date, an ordinal's mark after its digits ("1er", "1.º", "1°", "1ª"), and the
readings that look at a number's neighbours: a cardinal agrees with the noun it counts (the genders of
the nouns most often counted in data/<code>_genders.tsv, a noun's ending where it is not there), "º" and
"°" are degrees or an ordinal by the words around them, a letter is a unit only where it stands alone, a
currency's name after an amount is money, a half agrees with its noun ("media taza", "meio litro")."""

import re
from functools import cached_property, lru_cache
from pathlib import Path

from ..abbreviations import GO_ON
from .common import Spec

DATA = Path(__file__).parent / "data"


@lru_cache(maxsize=None)
def genders(code: str) -> dict:
    """{noun: 'm' or 'f'} of the nouns most often counted in a language (data/<code>_genders.tsv)."""
    path = DATA / f"{code}_genders.tsv"
    if not path.exists():
        return {}
    rows = (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line[:1] not in "#")
    return {noun: gender for noun, gender in rows}


@lru_cache(maxsize=None)
def currencies(code: str) -> dict:
    """{written: (singular, plural, minor singular, minor plural)} of the currencies in
    data/<code>_currencies.tsv; a three-letter ISO code also in lower case, as it is often typed ("1 chf")."""
    path = DATA / f"{code}_currencies.tsv"
    if not path.exists():
        return {}
    table = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line[:1] != "#" and line.strip():
            written, *names = line.split("\t")
            table[written] = tuple(names)
            if len(written) == 3 and written.isalpha() and written.isupper():
                table[written.lower()] = tuple(names)
    return table


def with_plain_powers(units: dict) -> dict:
    """`units` and each square or cube written with a plain figure, as ads write it ("m2" as "m²")."""
    return {**units, **{u[:-1] + {"²": "2", "³": "3"}[u[-1]]: said for u, said in units.items() if u[-1] in "²³"}}


class Romance(Spec):
    group, decimal = ".", ","
    says_decimal_dot = True  # "2.00 kg" dos punto cero cero kilogramos, as Latin America and NeMo read it
    date_order = "dmy"
    minor_said = True
    feminine_units: tuple = ()  # units whose noun is feminine ("heure", "hora")
    feminine_currencies: tuple = ()
    century_words: tuple = ()  # after which a roman numeral is an ordinal
    ordinal_marks = {}  # mark -> gender ('m', 'f', or 'short': "1er" "primer")
    # A number with "º" or "°" is an ordinal after an article ("el 1º piso", "il 150° anniversario") and
    # degrees after these words ("a 190º", "fino a 200°") or before these ("180° per 35 minuti").
    articles: tuple = ()
    degrees_after: tuple = ()
    degrees_before: tuple = ()
    degrees_joins: tuple = ()  # "and", "or", "to" after it: degrees from 40 on ("180° e 200°", "1º e 2º")

    # What a noun's gender is where the table does not say: its singular's ending.
    gender_endings: tuple = ()  # (ending, gender), the first that fits
    singular_endings: tuple = ()  # (plural ending, singular ending), each tried
    not_nouns: frozenset = frozenset()  # words after a number that are no noun counted ("de", "por")
    halves = ("", "")  # "half" before a masculine and a feminine noun ("medio litro", "media hora")
    time_words: tuple = ()  # before which "7.30" is a time ("alle 7.30", "a las 7.30")
    degree_words: tuple = ()  # where these come shortly before, a number with "º" at the end is degrees
    # A law's number and year after these words: "Ley 39/2015" "ley treinta y nueve de dos mil quince".
    law_words: tuple = ()
    law_of = "de"
    law_short_years = True  # "Lei 8.666/93"
    per_word = ""  # "per" between a number and a unit after a slash ("4/s")
    # words after which a unit's symbol without a number is its name ("por kg" "por kilogramo", "le kg"): each
    # language's "per" and articles; only symbols no word is spelt like (`_NAMED_UNITS`)
    unit_after_words: tuple = ()
    # A span of weekdays in a timetable ("lun-vie", "de lun. a vie.", "L-V"): each day's name, the span said with
    # the language's words ("de lunes a viernes"); `week_days` maps each written day (abbreviation or name, as
    # written) to its name, `week_span` is (from, to) where no "from" word stands before
    week_days: dict = {}
    week_span: tuple = ()
    _NAMED_UNITS = ("kg", "km", "km²", "m²", "m³", "cm", "mm", "ml", "cl", "ha", "kWh", "MWh")
    currency_words: dict = {}  # a currency's name after an amount ("4,50 euros"), as `currencies`

    def __init__(self):
        self.genders = genders(self.code)
        self.currencies = {**currencies(self.code), **self.currencies}
        self.currencies.update({c.lower(): names for c, names in list(self.currencies.items())
                                if len(c) == 3 and c.isalpha() and c.isupper() and c.lower() not in self.currencies})
        self._degree = self.units.get("°")
        self.units = {u: said for u, said in self.units.items() if u != "°"}  # "1° gennaio": an ordinal
        # A unit written with its dot ("10 min. à feu doux", `abbreviations.GO_ON`): the unit, its dot said only
        # where it also ends the sentence (`_measure`).
        dotted = [a for a in GO_ON.get(self.code, ()) if a[:-1] in self.units and a not in self.units]
        self.units.update({a: self.units[a[:-1]] for a in dotted})
        self.feminine_units = (*self.feminine_units, *(a for a in dotted if a[:-1] in self.feminine_units))
        super().__init__()
        sign = r"(?:(?<![\w.,])[-−+])?"
        self._compile_measures(sign)
        self._compile_words(sign)
        marks = "|".join(re.escape(m) for m in sorted(self.ordinal_marks, key=len, reverse=True) if "°" not in m)
        # "1° gennaio" is an ordinal, "30°" an angle: a degree sign is a mark only before a word.
        marks += r"|\.?°(?=\s[a-zà-öø-ÿ])"
        # "1.000.º", "1 000.º", "1.000ª": a grouped number takes a mark too.
        self.ordinal_pattern = re.compile(r"(?<![\w.,])(\d{1,3}(?:[. \u00a0]\d{3})+|\d{1,6})(" + marks + r")(?![\w])")
        months = "|".join(self.months)
        day = r"([0-2]?\d|3[01])"
        self._two_days = re.compile(r"(?<![\w.,/])" + day + "/" + day + r"(?=\s(?:de\s)?(?:" + months + r")\b)")
        self._day_one = re.compile(r"(?<![\w.,])0?1(?:º|°|er|\.º)?(?=\s(?:de\s)?(?:" + months + r")\b)")

    def _compile_measures(self, sign: str):
        # A unit only where it stands as one: not a letter elided before a word ("En 2021 l'État": "l'" is
        # an article, "Nel 2021 l'inflazione"), and not a letter joined to another word.
        units = "|".join(re.escape(u) for u in sorted(self.units, key=len, reverse=True))
        self._unit = re.compile(r"(?<![\w.,/])(" + sign + self.NUM + r")\s?(" + units + r")(?![\w/²³'’])")
        # A fraction of a unit or a noun: "1/2 l" "medio litro", "1 1/2 h" "una hora y media", "3/4 kg".
        # "1.05 kg", "2.5 km": a dot before one or two figures is a decimal point written the English way.
        self._dotted_unit = re.compile(r"(?<![\w.,/])(\d{1,3})\.(\d{1,2})\s?(" + units + r")(?![\w/²³'’])")
        self._fraction_unit = re.compile(r"(?<![\w.,/])(?:(\d{1,3})\s)?(\d{1,2})/(\d{1,2})\s?(" + units
                                         + r")(?![\w/²³'’])")
        self._half_noun = re.compile(r"(?<![\w.,/])(?:(\d{1,3})\s)?1/2[ \u00a0]+([^\W\d_]+)(?![\w'’-])")
        # "30 °C", "-8° c", "40 ° K": a scale's letter in either case.
        scale = r"([CFK]|[cfk](?=\s*$|\s*[.,;:)]|\s+[a-zà-ÿ]))"
        self._temperature = re.compile(r"(?<![\w.,])(" + sign + self.NUM + r")\s?\.?[º°]\s?" + scale + r"(?![\w'’])")
        # A number per unit, written with a slash: "4,51/s" "cuatro coma cincuenta y uno por segundo".
        times = "|".join(re.escape(u) for u in sorted(self.per_time, key=len, reverse=True)) or "(?!)"
        self._per_time = re.compile(r"(?<=\d)([ \u00a0][^\W\d_]+)/(" + times + r")(?![\w/])")
        # A price or a count per unit after its word: "12 €/m²" "douze euros par mètre carré".
        self._word_per_unit = (re.compile(r"(?<=[^\W\d_]{2})\s?/(" + units + r")(?![\w/²³'’])")
                               if self.per_word else None)
        self._per_unit = (re.compile(r"(?<![\w.,/])(" + sign + self.NUM + r")\s?/(" + units + r")(?![\w/²³'’])")
                          if self.per_word else None)
        self._marked = re.compile(r"(?<![\w.,])(" + sign + self.NUM + r")(\.?[º°])(?![\wªº°])")
        if self.week_days:
            days = "|".join(re.escape(d) for d in sorted(self.week_days, key=len, reverse=True))
            start, to = self.week_span
            self._week_span = re.compile(r"(?<![\w.])(?:(" + start + r")\s)?(" + days + r")\.?(?:[ \u00a0]?[-–]"
                                         r"[ \u00a0]?|\s(?:" + to + r"|a|à)\s)(" + days + r")(\.?)(?![\w-])")
        named = [u for u in self._NAMED_UNITS if u in self.units]
        self._bare_unit = (re.compile(r"\b((?i:" + "|".join(self.unit_after_words) + r")\s)(" + "|".join(named)
                                      + r")(?![\w/²³'’]|[.,]\w)") if self.unit_after_words and named else None)

    def _compile_words(self, sign: str):
        """Laws' numbers, times after a word, currencies' names after an amount."""
        currency = "|".join(re.escape(c) for c in sorted(self.currencies, key=len, reverse=True))
        scale = "|".join(re.escape(w) for w in sorted(self.scales, key=len, reverse=True)) or "(?!)"
        self._dotted_money = re.compile(r"(?<![\w$])(" + currency + r")\s?(\d{1,3})\.(\d{1,2})\s(" + scale
                                        + r")(?!\w)")
        years = r"(?:1[89]|20)\d{2}" + (r"|\d{2}" if self.law_short_years else "")
        self._law = (re.compile(r"(\b(?:" + "|".join(re.escape(w) for w in self.law_words) + r")\.?\s"
                                r"(?:(?:n\.?[º°]|número|numero|numéro)\s?)?)(\d{1,3}(?:\.\d{3})+|\d{1,5})/(" + years
                                + r")(?![\w/]|[.,]\d)", re.I) if self.law_words else None)
        self._dotted_time = (re.compile(r"(\b(?:" + "|".join(self.time_words) + r")\s)([01]?\d|2[0-3])\.([0-5]\d)"
                                        r"(?![\w.,]\d|\d)", re.I) if self.time_words else None)
        self._afternoon = re.compile(r"(?<![\w:.,])(1[3-9]|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?=\s(?:"
                                     + "|".join(re.escape(w) for w in self.day_parts) + r")\b)") if self.day_parts else None
        if self.currency_words:  # said as money after an amount only: "el euro 2 veces" is no money
            words = "|".join(re.escape(w) for w in sorted(self.currency_words, key=len, reverse=True))
            self._money_words = re.compile(r"(?<![\w.,])(" + sign + self.NUM + r")[ \u00a0](" + words
                                           + r")(?![\w'’])")
            self.currencies = {**self.currencies, **self.currency_words}

    def ordinal(self, n, gender="m", mark=""):
        gender = self.ordinal_marks.get(mark.lstrip("."), self.ordinal_marks.get(mark, gender))
        said = self.n2w(n, "ordinal")
        if gender == "f":
            said = re.sub(r"o\b", "a", said)
        return said

    def read_ordinals(self, text):
        return self.ordinal_pattern.sub(lambda m: self.ordinal(self.grouped(m.group(1)), mark=m.group(2)), text)

    @staticmethod
    def grouped(written: str) -> int:
        return int(re.sub(r"\D", "", written))

    # A time of the afternoon or evening written on the 24-hour clock before "da tarde", "de la noche", "du soir":
    # said on the twelve-hour clock the words name ("16:00 da tarde" "quatro horas da tarde").
    day_parts: tuple = ()

    def read_times(self, text):
        if self.day_parts:
            text = self._afternoon.sub(lambda m: self.time(int(m.group(1)) - 12, int(m.group(2)),
                                                           int(m.group(3)) if m.group(3) else None), text)
        if self._dotted_time:
            text = self._dotted_time.sub(lambda m: m.group(1) + self.time(int(m.group(2)), int(m.group(3)), None), text)
        return super().read_times(text)

    def read_money(self, text):
        # "$ 4.8 milhões", "$9.5 millones": a dot before one or two figures and a scale word is a decimal point
        # written the English way (no thousands group has fewer than three figures); said as written.
        text = self._dotted_money.sub(self._dotted_amount, text)
        text = super().read_money(text)
        if self.currency_words:
            text = self._money_words.sub(lambda m: self.money(m.group(1), m.group(2), None), text)
        return text

    def read_measures(self, text):
        text = self._temperature.sub(self._temperature_said, text)
        if self._per_unit:
            text = self._per_unit.sub(lambda m: f"{self.number(m.group(1))} {self.per_word} "
                                                f"{self.units[m.group(2)][0]}", text)
        if self._degree:
            text = self._marked.sub(self._degrees_or_ordinal, text)
        text = self._dotted_unit.sub(lambda m: f"{self.cardinal(int(m.group(1)))} {self.dot} "
                                               f"{self.fraction_part(m.group(2))} {self.units[m.group(3)][1]}", text)
        text = self._fraction_unit.sub(self._unit_fraction, text)
        if self.unit_scales != "(?!)":  # "3 mil km": the unit's name; the number read later, agreeing with it
            text = self._scaled_unit.sub(lambda m: f"{m.group(1)} {m.group(2)} {self.units[m.group(3)][-1]}", text)
        text = self._unit.sub(self._measure, text)
        if self._word_per_unit:
            text = self._word_per_unit.sub(lambda m: f" {self.per_word} {self.units[m.group(1)][0]}", text)
        if self._bare_unit:
            text = self._bare_unit.sub(lambda m: m.group(1) + self.units[m.group(2)][0], text)
        return text

    def _unit_fraction(self, m):
        whole, numerator, denominator, unit = m.groups()
        if not 0 < int(numerator) < int(denominator) <= 16 or not self.halves[0]:
            return m.group(0)
        said = self._unit_fraction_said(whole, numerator, denominator, unit)
        return said + "." if unit.endswith(".") and self._ends_sentence(m.string[m.end():]) else said

    def _unit_fraction_said(self, whole, numerator, denominator, unit):
        singular, plural = self.units[unit][0], self.units[unit][-1]
        gender = self.unit_gender(unit)
        if (numerator, denominator) == ("1", "2"):
            half = self.halves[gender == "f"]
            if whole:
                noun = singular if whole == "1" else plural
                return f"{self.counted(int(whole), gender, noun)} {self.and_word} {half}"
            return self.half_of(half, singular)
        part = f"{self.fraction(int(numerator), int(denominator))} {self.of(singular)}"
        if whole:
            return f"{self.counted(int(whole), gender, singular if whole == '1' else plural)} {self.and_word} {part}"
        return part

    def counted(self, n: int, gender: str, noun: str) -> str:
        """A whole number and the noun it counts."""
        return f"{self.cardinal(n, gender)} {noun}".rstrip()

    def half_of(self, half: str, noun: str) -> str:
        return f"{half} {noun}"

    def of(self, noun: str) -> str:
        return f"{self.of_word} {noun}"

    # A day past the twelfth over a month, no year: a date, no fraction ("31/12" "trinta e um de dezembro").
    _DAY_MONTH = re.compile(r"(?<![\w.,/-])(1[3-9]|2\d|3[01])/(0?[1-9]|1[0-2])(?![\w/-]|[.,]\d)")

    # A day and a month, no year, one written with a leading zero ("01/12", "05/03"): a date, no fraction is
    # written so (es and pt call it).
    _PADDED_DAY_MONTH = re.compile(r"(?<![\w.,/-])(0[1-9]|[12]\d|3[01])/(0[1-9]|1[0-2])(?![\w/-]|[.,]\d)")

    def read_padded_day_month(self, text):
        return self._PADDED_DAY_MONTH.sub(lambda m: self.date(int(m.group(1)), int(m.group(2)), None)
                                          if "0" in (m.group(1)[0], m.group(2)[0]) else m.group(0), text)

    def read_dates(self, text):
        if self._law:
            text = self._law.sub(self._law_number, text)
        if self.months:
            text = self._DAY_MONTH.sub(lambda m: self.date(int(m.group(1)), int(m.group(2)), None), text)
        if self.months:  # "les 17/18 juin": two days, no fraction
            text = self._two_days.sub(r"\1 \2", text)
        return super().read_dates(text)

    def _law_number(self, m):
        year = int(m.group(3)) if len(m.group(3)) == 4 else None
        said_year = self.year(year) if year else self.cardinal(int(m.group(3)))
        return f"{m.group(1)}{self.number(m.group(2))} {self.law_of} {said_year}"

    def read_fractions(self, text):
        def half(m):
            whole, noun = m.groups()
            gender = self.noun_gender(noun)
            if not gender or not self.halves[0]:
                return m.group(0)
            if whole:  # "1 1/2 tazas": "una taza y media", "2 1/2 tazas": "dos tazas y media"
                single = self.singular(noun) if whole == "1" else noun
                if single:
                    return f"{self.counted(int(whole), gender, single)} {self.and_word} {self.halves[gender == 'f']}"
                return f"{self.counted(int(whole), gender, '')} {self.and_word} {self.halves[gender == 'f']} {noun}"
            return self.half_of(self.halves[gender == "f"], noun)
        text = self._half_noun.sub(half, text)
        text = super().read_fractions(self._NEGATIVE_FRACTION.sub(self.minus + " ", text))
        return self._LARGE_FRACTION.sub(self._large_fraction, text)

    # A proper fraction with a larger denominator than the shared pass reads ("1/20", "3/100", "1/1000"); past a
    # thousand (grouped or not: "1/5000", "1/100.000") where the language says it (`large_fraction`), never a
    # month and year ("3/2024").
    _LARGE_FRACTION = re.compile(r"(?<![\w.,/])(?:(\d{1,3})\s)?(\d{1,3})/(\d{1,3}(?:\.\d{3})+|\d{2,10})(?![\w/]|[.,]\d)")

    def _large_fraction(self, m):
        whole, numerator, denominator = m.group(1), int(m.group(2)), int(m.group(3).replace(".", ""))
        if not 0 < numerator < denominator or denominator <= 16:
            return m.group(0)
        if denominator <= 1000:
            said = self.fraction(numerator, denominator)
        elif numerator <= 12 and 1800 <= denominator <= 2100 and "." not in m.group(3):
            return m.group(0)
        else:
            said = self.large_fraction(numerator, denominator)
            if said is None:
                return m.group(0)
        # A whole number before it: "2 2/1000" "dos y dos milésimos".
        return f"{self.cardinal(int(whole))} {self.and_word} {said}" if whole else said

    def large_fraction(self, numerator, denominator):
        """A fraction whose denominator is past a thousand, or None where the language leaves it."""
        return None

    _NEGATIVE_FRACTION = re.compile(r"(?<![\w.,/-])[-−](?=(?:\d{1,3}\s)?\d{1,3}/\d{1,4}(?![\w/]|[.,]\d))")

    def _dotted_amount(self, m):
        currency, whole, fraction, scale = m.groups()
        scale_name = self.scales[scale][1]
        name = self.currencies[currency][1]
        of = "d'" if self.code == "fr" and name[0] in "aeiouéèh" else self.of_word + " "
        return f"{self.cardinal(int(whole))} {self.dot} {self.fraction_part(fraction)} {scale_name} {of}{name}"

    def _temperature_said(self, m):
        unit = "°" + m.group(2).upper()
        return self.measure(m.group(1), unit) if unit in self.units else m.group(0)

    def _measure(self, m):
        said = self.measure(m.group(1), m.group(2))
        # An abbreviation's dot ("200 gr.") ends the sentence too where the text ends or a capital follows.
        return said + "." if m.group(2).endswith(".") and self._ends_sentence(m.string[m.end():]) else said

    def _degrees_or_ordinal(self, m):
        """"a 190º", "180° per 35 minuti", "30°." as degrees; "el 1º piso", "1° gennaio" left to the ordinals."""
        before = re.search(r"([^\W\d]+)\W*$", m.string[max(0, m.start() - 30):m.start()])
        before = before.group(1).casefold() if before and m.string[m.start() - 1:m.start()].isspace() else ""
        after = re.match(r"\s+([^\W\d]+)", m.string[m.end():])
        after = after.group(1).casefold() if after else ""
        if after in self.months or before in self.articles:
            return m.group(0)
        if m.group(2).startswith("."):  # "11.º": the dot is an ordinal's only
            return m.group(0)
        recent = m.string[max(0, m.start() - 80):m.start()].casefold()
        warm = any(word in recent for word in self.degree_words) or "°c" in recent or "ºc" in recent
        if (after in self.degrees_before or before in self.degrees_after or not after and ("°" in m.group(2) or warm)
                or {after, before} & set(self.degrees_joins) and self.value(m.group(1).lstrip("-−+"))[0] >= 40):
            names = self._degree
            return f"{self.number(m.group(1), 'm')} {names[min(self.plural_index(m.group(1)), len(names) - 1)]}"
        return m.group(0)

    def feminine(self, said: str) -> str:
        return said

    def cardinal(self, n, gender=None):
        said = self.n2w(n)
        return self.feminine(said) if gender == "f" else self.masculine(said) if gender == "m" else said

    def masculine(self, said: str) -> str:
        return said

    def unit_gender(self, unit):
        return "f" if unit in self.feminine_units else self.noun_gender(self.units[unit][0].split()[0]) or "m"

    def currency_gender(self, currency, minor=False):
        if currency in self.feminine_currencies and not minor:
            return "f"
        return self.noun_gender(self.currencies[currency][2 if minor else 0].split()[0]) or "m"

    def noun_gender(self, word: str):
        """'m' or 'f' for a noun (singular or plural) by the table, else by its ending; None for no noun."""
        word = word.casefold()
        if word in self.not_nouns or len(word) < 2:
            return None
        forms = [word] + [word[: -len(end)] + single for end, single in self.singular_endings if word.endswith(end)]
        for form in forms:
            if form in self.genders:
                return self.genders[form]
        if len(word) < 4 or word in self._month_index:
            return None
        return next((gender for end, gender in self.gender_endings if word.endswith(end)), None)

    def singular(self, word: str):
        """A noun's singular as the genders table holds it, keeping a capital; None where it is not there."""
        lower = word.casefold()
        forms = [lower] + [lower[: -len(end)] + single for end, single in self.singular_endings if lower.endswith(end)]
        for form in forms:
            if form in self.genders:
                return word[0] + form[1:] if word[:1].isupper() else form
        return None

    _NEXT_WORD = re.compile(r"[ \u00a0]+([^\W\d_]+)(?![\w'’-])")

    _LAST_WORD = re.compile(r"([^\W\d_]+)[ \u00a0]*$")

    def counted_gender(self, text: str, start: int, end: int):
        """The gender of the noun the number text[start:end] counts (the next word); None where no noun
        follows, or where a noun comes before it (a label: "lo stato 1 indica", "capítulo 3 trata")."""
        following = self._NEXT_WORD.match(text, end)
        if not following:
            return None
        before = self._LAST_WORD.search(text, max(0, start - 30), start)
        label = before and before.group(1)
        if label and (label.casefold() in self.genders or len(label) > 1 and label.isupper()) \
                and following.group(1).casefold() not in self.unit_words:
            return None  # "valor 1", "LZMA 2": a label, not a count ("el párrafo 1 centímetro" counts: un)
        gender = self.noun_gender(following.group(1))
        if gender is None and following.group(1).casefold() in self.not_nouns:
            return self._earlier_count(text, start)
        return gender

    @cached_property
    def unit_words(self) -> frozenset:
        """The units' names written out, singular and plural ("centímetro", "centímetros")."""
        return frozenset(word.casefold() for names in self.units.values() for word in names[:2]
                         if isinstance(word, str))

    _COUNT = re.compile(r"\d[ \u00a0]+([^\W\d_]+)")

    def _earlier_count(self, text, start):
        """A number standing for a noun counted shortly before in its sentence takes its gender: "10 compilações
        diferentes: 1 para cada programa" "uma para cada"."""
        head = re.split(r"[.!?]\s", text[max(0, start - 100):start])[-1]
        for noun in reversed(self._COUNT.findall(head)):
            gender = self.noun_gender(noun)
            if gender:
                return gender
        return None

    def say_number(self, m):
        """A number agrees with the noun it counts: "21 años" "veintiún años", "500 personas" "quinientas"."""
        if self.decimal not in m.group(2) and not self._scale_noun.match(m.string, m.end()):
            gender = self.counted_gender(m.string, m.start(), m.end())
            if gender:
                return self.number(m.group(1) + m.group(2), gender)
        return super().say_number(m)

    def dotted(self, m):
        written = m.group(1)
        parts = written.lstrip("-−").split(".")
        if parts[0][0] != "0" and len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:]):  # "200.500"
            scale = self._scale_noun and self._scale_noun.match(m.string, m.end())
            gender = self.scale_gender if scale else self.counted_gender(m.string, m.start(), m.end())
            if gender:
                return self.number(written, gender)
        return super().dotted(m)

    @staticmethod
    def scale_tail(said: str, scales: str):
        """(head, tail) of a said number: the tail after its last scale word ("millones"), which agrees with
        the noun counted; the head agrees with the scale word."""
        last = None
        for last in re.finditer(r"\b(?:" + scales + r")\b,?", said):
            pass
        return (said[: last.end()], said[last.end():]) if last else ("", said)

    def roman(self, value, kind, word=""):
        if kind == "regnal":
            return self.regnal_number(value)
        if kind == "ordinal" or word.casefold() in self.century_words:
            return self.ordinal(value)
        return self.cardinal(value)

    def regnal_number(self, value):
        return self.ordinal(value) if value <= 10 else self.cardinal(value)

    def fraction(self, numerator, denominator):
        said = self.fractions.get((numerator, denominator))
        if said:
            return said
        name = self.n2w(denominator, "ordinal")
        return f"{self.cardinal(numerator, 'm')} {self.plural_of(name) if numerator > 1 else name}"

    def plural_of(self, word: str) -> str:
        return word + "s"

    day_one = ""  # the first of a month ("primero", "premier")
    half = ""  # "and a half" after a whole number ("et demi")
    of_word = "de"  # between a scale word and its currency ("un millón de euros")
    _SCALE_END = re.compile(r"(?:mill[oó]n(?:es)?|milh(?:ão|ões)|millions?|milliards?|milion[ei]|miliard[oi]|"
                            r"bilh(?:ão|ões)|bill[oó]n(?:es)?)$")

    def mixed(self, whole, numerator, denominator):
        if (numerator, denominator) == (1, 2) and self.half:
            return f"{self.cardinal(whole)} {self.half}"
        return super().mixed(whole, numerator, denominator)

    def money(self, amount, currency, scale):
        said = super().money(amount, currency, scale)
        names = self.currencies[currency]
        for name in (names[1], names[0]):
            head = said[: -len(name)].rstrip()
            if said.endswith(" " + name) and self._SCALE_END.search(head):
                elided = self.code == "fr" and name[0] in "aeiouéèh"  # "un million d'euros"
                of = "d'" if elided else self.of_word + " "
                return f"{head} {of}{name}"
        return said

    _FRACTION_SLASH = re.compile(r"(?<=\d)\u2044(?=\d)")
    _VULGAR = re.compile(r"(?<![\w.,])(?:(\d{1,3})\s?)?([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])")
    _VULGAR_VALUE = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5",
                     "⅗": "3/5", "⅘": "4/5", "⅙": "1/6", "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8", "⅞": "7/8"}

    # "24/7" is round the clock, every day; "4 * 4 = 16" a product and an equality between numbers.
    round_the_clock = ""
    times_word, equals_word = "", ""
    _ROUND_THE_CLOCK = re.compile(r"(?<![\w/.,])24\s?/\s?7(?![\w/]|[.,]\d)")
    _TIMES = re.compile(r"(?<=\d)[ \u00a0]?\*[ \u00a0]?(?=[-−]?\d)")
    _EQUALS = re.compile(r"(?<=\d)[ \u00a0]?=[ \u00a0]?(?=[-−]?\d)")

    # "+" between two terms, joined or spaced alike, is "plus": "I+D", "2+3", "2500 lire + IVA", "49 € + TVA" (not
    # "+34 91").
    _PLUS = re.compile(r"(?<=[^\W_])\+(?=[^\W_])|(?:(?<=[^\W_])|(?<=[€$£¥%])) \+ (?=[^\W_])")
    # A number and a noun per unit of time: "1200 bits/seg" "mil doscientos bits por segundo" (unit -> "per unit").
    per_time: dict = {}

    def _per_time_said(self, m):
        if m.group(1).strip() + "/" + m.group(2) in self.units:  # "km/h" is a unit of its own
            return m.group(0)
        return f"{m.group(1)} {self.per_time[m.group(2)]}"

    def _days(self, m):
        start, to = self.week_span
        if self.week_days[m.group(2)] == self.week_days[m.group(3)]:
            return m.group(0)  # "de mar a mar": no span of days
        said = f"{m.group(1) or start} {self.week_days[m.group(2)]} {to} {self.week_days[m.group(3)]}"
        return said + "." if m.group(4) and self._ends_sentence(m.string[m.end():]) else said

    def read(self, text):
        text = self.said_inches(text)
        if self.week_days:
            text = self._week_span.sub(self._days, text)
        text = self._PLUS.sub(f" {self.plus} ", text)
        if self.per_time:
            text = self._per_time.sub(self._per_time_said, text)
        if self.round_the_clock:
            text = self._ROUND_THE_CLOCK.sub(self.round_the_clock, text)
        if self.times_word:
            text = self._TIMES.sub(f" {self.times_word} ", text)
            text = self._EQUALS.sub(f" {self.equals_word} ", text)
        # "3⁄4" (a fraction slash) and "1½" as the fractions they write, read by the fraction passes.
        text = self._FRACTION_SLASH.sub("/", text)
        text = self._VULGAR.sub(lambda m: (m.group(1) + " " if m.group(1) else "") + self._VULGAR_VALUE[m.group(2)],
                                text)
        return super().read(text)

    def read_written_dates(self, text):
        if self.day_one:
            text = self._day_one.sub(self.day_one, text)
        return super().read_written_dates(text)


class SaidRanges:
    """What Italian and Portuguese say of ranges, before a `Romance` language's class in its bases: a range of
    two clock times is two times, a currency's sign before a range belongs to both amounts, and the first number
    agrees with the noun after the second."""

    # A range of two clock times, written with a colon or a dot ("8.30-12.30", "9:00 – 13:00"): both times.
    _TIME_RANGE = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])[.:]([0-5]\d)[ \u00a0]?[-–][ \u00a0]?([01]?\d|2[0-3])[.:]"
                             r"([0-5]\d)(?![\w:]|[.,]\d)")

    def _time_range(self, m):
        if re.search(r"\b(?:vers\w*|v)\.?\s*$", m.string[max(0, m.start() - 12):m.start()], re.I):
            return m.group(0)  # "versão 1.10-2.20": versions, no times
        first, second = (self.time(int(m.group(i)), int(m.group(i + 1)), None) for i in (1, 3))
        return f"{first} {self.range_word} {second}"

    # A currency's sign before a range of amounts belongs to both ("R$ 10,50-15,00", "€ 10-15"): said after each.
    def read_ranges(self, text):
        text = self._TIME_RANGE.sub(self._time_range, text)
        signs = "|".join(re.escape(c) for c in sorted(self.currencies, key=len, reverse=True) if not c.isalpha())
        text = re.sub(r"(?<![\w$])(" + signs + r")\s?(" + self.NUM + r")\s?[–-]\s?(?=\d)", r"\1\2-\1", text)
        return super().read_ranges(text)

    # A range's first number agrees with the noun after its second ("2-3 colheres" "duas a três colheres").
    def counted_gender(self, text, start, end):
        rest = re.match(r"[ \u00a0]+" + self.range_word + r"[ \u00a0]+" + self.NUM + r"[ \u00a0]+([^\W\d_]+)"
                        r"(?![\w'’-])", text[end:end + 60])
        if rest and self.noun_gender(rest.group(1)):
            return self.noun_gender(rest.group(1))
        return super().counted_gender(text, start, end)
