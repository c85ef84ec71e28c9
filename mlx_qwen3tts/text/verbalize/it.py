"""Italian as it is read: "1°" "primo", "2ª" "seconda", "3,23 €" "tre euro e ventitre centesimi", "1° gennaio"
"primo gennaio", "XX secolo" "ventesimo secolo", "Luigi XIV" "Luigi quattordicesimo", "pag." "pagina"."""

import re

from ..abbreviations import MONTHS_SHORT
from .romance import Romance, SaidRanges

MONTHS = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
          "novembre", "dicembre")

# Words after a number that are no noun counted though their ending looks like one's (adverbs, verbs).
ADVERBS = ("ancora sempre fuori contro ogni tutta tutte molta molte poca poche altra altre stessa verso sopra "
           "sotto però tutto tutti molto molti poco pochi altro altri stesso solo anche quando dopo prima oltre "
           "circa nessuna nessuno alcuna alcuno questa questo quella quello cui dove tanto tanta indica significa "
           "rappresenta equivale segna mostra resta manca passa era sta")


class Italian(SaidRanges, Romance):
    code = "it"
    number_sign = "numero"
    point, dot = "virgola", "punto"
    fraction_digits = "number"
    minus, plus = "meno", "più"
    months = MONTHS
    joiner = " e "
    currencies = {"€": ("euro", "euro", "centesimo", "centesimi"), "EUR": ("euro", "euro", "centesimo", "centesimi"),
                  "eur": ("euro", "euro", "centesimo", "centesimi"),
                  "$": ("dollaro", "dollari", "centesimo", "centesimi"),
                  # an ISO code names the country's dollar, as NeMo's Italian money data (Apache 2.0) says it
                  "USD": ("dollaro statunitense", "dollari statunitensi", "centesimo", "centesimi"),
                  "CAD": ("dollaro canadese", "dollari canadesi", "centesimo", "centesimi"),
                  "HKD": ("dollaro di Hong Kong", "dollari di Hong Kong", "centesimo", "centesimi"),
                  "₹": ("rupia", "rupie", "paisa", "paisa"), "INR": ("rupia", "rupie", "paisa", "paisa"),
                  "Rs": ("rupia", "rupie", "paisa", "paisa"), "rs": ("rupia", "rupie", "paisa", "paisa"),
                  "£": ("sterlina", "sterline", "penny", "penny"),
                  "GBP": ("sterlina", "sterline", "penny", "penny"), "¥": ("yen", "yen", "sen", "sen"),
                  "JPY": ("yen", "yen", "sen", "sen"),
                  "CHF": ("franco svizzero", "franchi svizzeri", "centesimo", "centesimi"),
                  "₽": ("rublo", "rubli", "copeco", "copechi"), "R$": ("real", "reais", "centavo", "centavos")}
    feminine_currencies = ("£", "GBP", "₹", "INR", "Rs", "rs", "₧", "₨", "₴", "₺")
    halves = ("mezzo", "mezza")
    law_words = ("legge", "leggi", "decreto", "d.lgs", "d.l", "dpr", "regolamento", "direttiva", "sentenza",
                 "circolare", "delibera")
    law_of = "del"
    currency_words = {w: names for names in (("euro", "euro", "centesimo", "centesimi"),
                                             ("dollaro", "dollari", "centesimo", "centesimi"),
                                             ("franco", "franchi", "centesimo", "centesimi"),
                                             ("sterlina", "sterline", "penny", "penny"))
                      for w in names[:2]}
    scales = {"milioni": ("milione", "milioni"), "milione": ("milione", "milioni"),
              "miliardi": ("miliardo", "miliardi"),
              "mln": ("milione", "milioni"), "mld": ("miliardo", "miliardi"),
              "mila": ("mila", "mila")}  # "€ 10 mila" "dieci mila euro"
    units = {"km": ("chilometro", "chilometri"), "kg": ("chilogrammo", "chilogrammi"),
             "cm": ("centimetro", "centimetri"),
             "mm": ("millimetro", "millimetri"), "m": ("metro", "metri"), "g": ("grammo", "grammi"),
             "mg": ("milligrammo", "milligrammi"), "t": ("tonnellata", "tonnellate"), "l": ("litro", "litri"),
             "L": ("litro", "litri"), "ml": ("millilitro", "millilitri"), "h": ("ora", "ore"),
             "min": ("minuto", "minuti"), "s": ("secondo", "secondi"), "ms": ("millisecondo", "millisecondi"),
             "TB": ("terabyte", "terabyte"), "GB": ("gigabyte", "gigabyte"), "MB": ("megabyte", "megabyte"),
             "kB": ("kilobyte", "kilobyte"), "°C": ("grado Celsius", "gradi Celsius"),
             "°F": ("grado Fahrenheit", "gradi Fahrenheit"), "°": ("grado", "gradi"),
             "km/h": ("chilometro orario", "chilometri orari"),
             "km/s": ("chilometro per secondo", "chilometri per secondo"),
             "m/s": ("metro per secondo", "metri per secondo"), "m²": ("metro quadrato", "metri quadrati"),
             "km²": ("chilometro quadrato", "chilometri quadrati"), "m³": ("metro cubo", "metri cubi"),
             "Hz": ("hertz", "hertz"), "MHz": ("megahertz", "megahertz"), "GHz": ("gigahertz", "gigahertz"),
             "W": ("watt", "watt"), "kW": ("chilowatt", "chilowatt"), "kWh": ("chilowattora", "chilowattora"),
             "V": ("volt", "volt"), "A": ("ampere", "ampere"), "ha": ("ettaro", "ettari")}
    units = {**units, "mph": ("miglio orario", "miglia orarie"), "kph": ("chilometro orario", "chilometri orari"),
             "µm": ("micrometro", "micrometri"), "gr": ("grammo", "grammi"), "gr.": ("grammo", "grammi"),
             "sec.": ("secondo", "secondi"), "ab.": ("abitante", "abitanti"),
             "hg": ("etto", "etti"),
             "cl": ("centilitro", "centilitri"), "dl": ("decilitro", "decilitri"),
             "kcal": ("chilocaloria", "chilocalorie"),
             # more of NeMo's Italian units (data/measure/measurements.tsv, Apache 2.0)
             "nm": ("nanometro", "nanometri"), "dm": ("decimetro", "decimetri"), "µg": ("microgrammo", "microgrammi"),
             "μs": ("microsecondo", "microsecondi"), "µs": ("microsecondo", "microsecondi"),
             "lb": ("libbra", "libbre"), "ft": ("piede", "piedi"), "K": ("kelvin", "kelvin"),
             "m2": ("metro quadrato", "metri quadrati"), "km2": ("chilometro quadrato", "chilometri quadrati"),
             "m3": ("metro cubo", "metri cubi"), "kHz": ("kilohertz", "kilohertz"), "mA": ("milliampere", "milliampere"),
             "kV": ("kilovolt", "kilovolt"), "mV": ("millivolt", "millivolt"), "MW": ("megawatt", "megawatt"),
             "GW": ("gigawatt", "gigawatt"), "TW": ("terawatt", "terawatt"), "Ω": ("ohm", "ohm"),
             "dB": ("decibel", "decibel"), "kN": ("kilonewton", "kilonewton"), "bar": ("bar", "bar"),
             "cal": ("caloria", "calorie")}
    feminine_units = ("t", "h", "lb", "cal")
    percent = "per cento"
    scale_nouns = ("milione", "milioni", "miliardo", "miliardi")
    and_word, half, day_one, of_word = "e", "e mezzo", "primo", "di"
    range_word = "a"
    # a game's score, "tre a uno", after a word of a match ("ha vinto 3-1", "finita 2-2")
    score_word = "a"
    score_words = frozenset({"vinto", "vince", "vincono", "vinse", "perso", "perde", "perdono", "perse", "battuto",
                             "batte", "pareggiato", "pareggio", "pari", "finita", "finisce", "finale", "risultato",
                             "partita", "punteggio", "sconfitta", "vittoria", "gol", "espugnato", "derby"})
    articles = ("il", "lo", "la", "i", "gli", "le", "del", "dello", "della", "dei", "degli", "delle", "al", "allo",
                "alla", "ai", "agli", "alle", "nel", "nello", "nella", "dal", "dallo", "dalla", "un", "una", "uno",
                "suo", "sua", "quel", "quella", "questo", "questa")
    degrees_after = ("a", "fino", "tra", "fra", "da")
    degrees_before = ("per", "fino", "con", "circa", "finché", "durante", "ventilato", "statico")
    degree_words = ("temperatura", "massima", "minima", "forno", "gradi", "caldo", "freddo")
    time_words = ("alle", "dalle", "ore", "entro le", "verso le", "fino alle", "le")
    degrees_joins = ("e", "o", "a", "in")
    ordinal_marks = {"°": "m", "º": "m", "ª": "f"}
    gender_endings = (("zione", "f"), ("zioni", "f"), ("sione", "f"), ("sioni", "f"), ("tà", "f"), ("tù", "f"),
                      ("ista", None), ("iste", None), ("isti", None), ("a", "f"), ("o", "m"), ("ore", "m"))
    singular_endings = (("che", "ca"), ("ghe", "ga"), ("chi", "co"), ("ghi", "go"), ("i", "o"), ("i", "e"),
                        ("i", "a"), ("e", "a"))
    not_nouns = frozenset(ADVERBS.split() + "di del della dei degli delle a al alla ai agli alle da dal dalla in nel nella nei con su "
                          "per tra fra e o ed che come più meno volte mila il lo la i gli le un una uno non già "
                          "anni".split()[:-1])
    in_context = ("gr.",)  # units after a number (`units`)
    number_abbreviations = {"pag.": "pagina", "pagg.": "pagine", "p.": "pagina", "n.": "numero", "nr.": "numero",
                            "cap.": "capitolo", "vol.": "volume", "art.": "articolo", "tel.": "telefono",
                            "fig.": "figura", "§": "paragrafo", "pp.": "pagine", "artt.": "articoli",
                            "capp.": "capitoli", "figg.": "figure", "voll.": "volumi"}
    # the same at a sentence's start or in a heading: "Art. 5", "Cap. 3", "Pag. 12"
    number_abbreviations.update({k.capitalize(): v for k, v in number_abbreviations.items() if k[0].isalpha()})
    name_abbreviations = {"sig.": "signor", "Sig.": "signor", "sig.ra": "signora", "Sig.ra": "signora",
                          "dott.": "dottor", "Dott.": "dottor", "prof.": "professor", "Prof.": "professor",
                          "avv.": "avvocato", "Avv.": "avvocato", "ing.": "ingegner", "Ing.": "ingegner",
                          "S.": "San"}
    roman_before = ("capitolo", "Capitolo", "parte", "Parte", "atto", "Atto", "libro", "Libro", "articolo",
                    "Articolo", "titolo", "Titolo", "secolo", "Secolo")
    roman_after = ("secolo", "secoli")
    century_words = ("secolo",)
    # Capitalized words a roman numeral follows as a label, not as a ruler's number ("System V", "Tipo II").
    not_names = frozenset({"System", "Sistema", "Windows", "Tipo", "Type", "Versione", "Version", "Modello", "Level",
                           "Livello"})
    symbols = {"±": "più o meno", "×": "per", "→": "a", "&": "e", "§": "paragrafo", "≈": "circa",
               "≤": "minore o uguale a", "≥": "maggiore o uguale a", "−": "meno", "°": "gradi", "½": "un mezzo",
               "¼": "un quarto", "¾": "tre quarti", "~": "circa", "‰": "per mille"}
    per_word = "al"
    per_time = {"s": "al secondo", "sec": "al secondo", "min": "al minuto", "h": "all'ora", "giorno": "al giorno"}
    day_parts = ("di sera", "del pomeriggio", "di notte")
    round_the_clock = "ventiquattro ore su ventiquattro, sette giorni su sette"
    times_word, equals_word = "per", "uguale a"
    fractions = {(1, 2): "un mezzo", (1, 3): "un terzo", (2, 3): "due terzi", (1, 4): "un quarto",
                 (3, 4): "tre quarti"}

    def cardinal(self, n, gender=None):
        said = super().cardinal(n, gender).replace("centodicotto", "centodiciotto")  # num2words' "118"
        said = re.sub(r"(milion[ei]|miliard[oi]),? e ", r"\1 ", said).replace(",", "")
        return re.sub(r"(?<=\w)tre\b", "tré", said)  # ventitré, trentatré

    def masculine(self, said):
        return "un" if said == "uno" else said

    def half_of(self, half, noun):
        return f"{'un' if half == 'mezzo' else 'una'} {half} {noun}"  # "un mezzo bicchiere", "una mezza tazza"

    def counted(self, n, gender, noun):
        return self._elided(super().counted(n, gender, noun))

    def measure(self, amount, unit):
        return self._elided(super().measure(amount, unit))

    @staticmethod
    def _elided(said):
        return re.sub(r"^una (?=[aeiouàèéìòù])", "un'", said)

    _TENS = re.compile(r"(?:venti|trenta|quaranta|cinquanta|sessanta|settanta|ottanta|novanta)$")

    def say_number(self, m):
        said = super().say_number(m)
        if said.endswith("un") and self._PAIRED.match(m.string, m.end()):
            return said + "o"  # "da uno a tre anni", "tra ventuno e trenta giorni"
        following = self._NEXT_WORD.match(m.string, m.end())
        if not following or not re.match(r"[aeiouàèéìòù]", following.group(1), re.I) \
                or following.group(1).casefold() in self.not_nouns:
            return said  # "una a Roma": a preposition is no noun to elide before
        # "un'ora", "sessant'anni", "vent'ore": elided before the noun, joined to it below; the other tens keep
        # their vowel before "ore" ("quaranta ore settimanali", "cinquanta ore di seguito")
        noun = re.match(r"\s+(anni|ore)\b", m.string[m.end():])
        if said.endswith("una") or noun and self._TENS.search(said) and (noun.group(1) == "anni"
                                                                            or said.endswith("venti")):
            return said[:-1] + "'\u2060"
        return said

    # "il 11 maggio", "dell'8": an article before a number said with a vowel elides ("l'undici", "dell'otto").
    _ELIDED = re.compile(r"\b([Ii]|[Dd]e|[Aa]|[Nn]e|[Dd]a|[Ss]u)l (?=(?:otto|undici|ottanta|ottocento|ottomila)"
                         r"[a-zéè]*\b)")

    # A caret typed for the raised ordinal mark: "il 1^ maggio" "il primo maggio", "la 3^ classe" "la terza classe".
    _CARET = re.compile(r"(?<![\w.,^])(\d{1,4})\^(?=[ \u00a0]+([^\W\d_]+))")

    # The first of a month opening a range of days is "primo" too: "dal 1 al 5 marzo" "dal primo al cinque marzo".
    _FIRST_OF_RANGE = re.compile(r"(?<![\w.,'’])0?1(?:[ \u00a0]?([-–])[ \u00a0]?|(?=[ \u00a0](?:al|all['’])))"
                                 r"(?=[ \u00a0]?(?:al[ \u00a0]|all['’])?\d{1,2}[ \u00a0]+(?:" + "|".join(MONTHS) + r")\b)",
                                 re.I)

    # An Italian number in spaced groups: a landline's begins with its area's 0 ("06 1234 5678", "02 123 4567"), a
    # mobile's with 3 ("333 123 4567"); no number is written so: figure by figure in its groups.
    _SPACED_PHONE = re.compile(r"(?<![\w.,+])(?:0\d{1,3}[ \u00a0]\d{3,4}[ \u00a0]?\d{3,4}|3\d\d[ \u00a0]\d{3}[ \u00a0]\d{3,4})"
                               r"(?![\w]|[.,]\d)")

    def spaced_phone(self, m):
        if re.search(r"\+\d{1,3}[ \u00a0]$", m.string[max(0, m.start() - 5):m.start()]):
            return m.group(0)  # "+39 06 1234 5678": the country's code before it, read whole by the shared pass
        return self.telephone(m.group(0))

    def read_telephones(self, text):
        return super().read_telephones(self._SPACED_PHONE.sub(self.spaced_phone, text))

    # A currency's sign after a scale's noun and "di" ("3 miliardi di $"): its name ("tre miliardi di dollari").
    _SCALE_OF_SIGN = re.compile(r"\b(milion[ei]|miliard[oi]) di (€|\$|£|¥)(?![\w$])")

    # A price written with a point and two decimals beside a currency's sign ("$1.25", "12.50 €"), as English writes
    # it: the point is the decimal comma ("un dollaro e venticinque centesimi"); "€ 1.250" keeps its thousands.
    _POINT_PRICE = re.compile(r"(?<![\w.,])((?:€|\$|£)\s?\d{1,3})\.(\d{2})(?![\d.,])|(?<![\w.,])(\d{1,3})\.(\d{2})"
                              r"(?=\s?(?:€|\$|£))")

    def read_money(self, text):
        text = self._POINT_PRICE.sub(lambda m: f"{m.group(1) or m.group(3)},{m.group(2) or m.group(4)}", text)
        text = self._SCALE_OF_SIGN.sub(lambda m: f"{m.group(1)} di {self.currencies[m.group(2)][1]}", text)
        return super().read_money(text)

    # A clock time written with a comma after a word of time ("alle 11,30", "dalle 8,45"), as Italian text often
    # writes it: a time ("alle undici e trenta"), as "alle 11.30" is; an amount after it keeps its comma.
    _COMMA_TIME = re.compile(r"(\b(?:alle|dalle|ore|verso le|fino alle|entro le)\s)([01]?\d|2[0-3]),([0-5]\d)"
                             r"(?![\w.,]\d|\d|\s?(?:€|euro|%|per cento))", re.I)

    # Two numbers joined by "e", "o" or a range's "a" before one noun ("tra 1 e 2 ore", "1 o 2 persone", "da 1 a 3
    # anni"): the first agrees with that noun, and "uno" keeps its vowel, standing before no noun ("da uno a tre").
    _PAIRED = re.compile(r"[ \u00a0]+(?:e|ed|o|oppure|a)[ \u00a0]+\d+[ \u00a0]+([^\W\d_]+)(?![\w'’-])")

    # Two numbers with a slash before a plural noun of time or count ("10/15 minuti", "2/3 volte al giorno", "7/8
    # ore"): a range, as a fraction is never said before a plural noun without "di" ("due terzi di ...").
    _SLASH_RANGE = re.compile(r"(?<![\w.,/])(\d{1,3})/(\d{1,3})(?=[ \u00a0]+(?:secondi|minuti|ore|giorni|notti|"
                              r"settimane|mesi|anni|volte|persone|porzioni|pezzi|gocce)\b)")

    def _slash_range(self, m):
        first, second = int(m.group(1)), int(m.group(2))
        return f"{first}-{second}" if first < second else m.group(0)

    def read(self, text):
        text = self._SLASH_RANGE.sub(self._slash_range, text)
        text = self._COMMA_TIME.sub(lambda m: f"{m.group(1)}{m.group(2)}.{m.group(3)}", text)
        text = self._FIRST_OF_RANGE.sub(lambda m: f"primo {self.range_word} " if m.group(1) else "primo", text)
        text = self._CARET.sub(lambda m: m.group(1) + ("ª" if self.noun_gender(m.group(2)) == "f" else "°"), text)
        said = super().read(text).replace("\u2060 ", "").replace("\u2060", "")
        return self._ELIDED.sub(lambda m: {"I": "L", "i": "l"}.get(m.group(1), m.group(1) + "ll") + "'", said)

    def counted_gender(self, text, start, end):
        paired = self._PAIRED.match(text, end, min(len(text), end + 60))
        if paired and self.noun_gender(paired.group(1)):
            return self.noun_gender(paired.group(1))
        gender = super().counted_gender(text, start, end)
        if gender == "m" and re.match(r"\s+(?:s[^aeiouàèéìòù\W]|z|gn|ps|x|y)", text[end:end + 4], re.I):
            return None  # "uno studente", "uno zaino"
        return gender

    def feminine(self, said):
        return "una" if said == "uno" else said

    def plural_of(self, word):
        return re.sub(r"o$", "i", word)

    def regnal_number(self, value):
        return self.ordinal(value)

    # A month's abbreviation after a day's number ("5 gen. 2024", "dal 3 feb. al 5 mar."): the month, its dot
    # said only where it also ends the sentence (`abbreviations.MONTHS_SHORT`, in the months' order).
    _DAY_SHORT_MONTH = re.compile(r"(?<![\w.,])(0?[1-9]|[12]\d|3[01])([°º]?\s)("
                                  + "|".join(m[:-1] for m in MONTHS_SHORT["it"]) + r")\.")

    def read_dates(self, text):
        return super().read_dates(self._DAY_SHORT_MONTH.sub(self._short_month, text))

    def _short_month(self, m):
        month = MONTHS[MONTHS_SHORT["it"].index(m.group(3) + ".")]
        return f"{m.group(1)}{m.group(2)}{month}" + ("." if self._ends_sentence(m.string[m.end():]) else "")

    def date(self, day, month, year):
        said = f"{'primo' if day == 1 else self.cardinal(day)} {self.months[month - 1]}"
        return said + (f" {self.year(year)}" if year else "")

    # A time standing alone, a sentence of its own (a label, a timetable's cell, an answer: "03:38"), is said
    # with its minutes named, "tre e trentotto minuti"; in running text ("alle 14:30") the clock's words only.
    _TIME_ALONE = re.compile(r"^(\s*)([01]?\d|2[0-3]):([0-5]\d)(?=\s*[.!?]?\s*$)")

    def read_times(self, text):
        def said(m):
            hours, minutes = int(m.group(2)), int(m.group(3))
            if minutes == 1:
                return f"{m.group(1)}{self.time(hours, 0, None)} e un minuto"
            return m.group(1) + self.time(hours, minutes, None) + (" minuti" if minutes else "")
        return super().read_times(self._TIME_ALONE.sub(said, text))

    def time(self, hours, minutes, seconds):
        said = self.cardinal(hours)
        if seconds is not None:
            return said + f" e {self.cardinal(minutes)} minuti e {self.cardinal(seconds)} secondi"
        return said + (f" e {self.cardinal(minutes)}" if minutes else "")


read = Italian().read
