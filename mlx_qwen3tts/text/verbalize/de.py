"""German as it is read: decimal comma ("2,5": "zwei Komma fünf"), thousands with dots or spaces,
ordinals with their dot and the case ending their article asks for ("am 3. Oktober": "am dritten
Oktober", "der 2. Weltkrieg": "der zweite Weltkrieg"), "12,50 €" as "zwölf Euro fünfzig", "14:30" as
"vierzehn Uhr dreißig", "ein halber Liter", "Ludwig XIV." as "Ludwig der Vierzehnte"."""

import re
from functools import lru_cache
from pathlib import Path

from .common import SPACES, Spec, context

MONTHS = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember")
_ABBREVIATED_MONTHS = {"Jan.": 0, "Febr.": 1, "Feb.": 1, "Mär.": 2, "Apr.": 3, "Jun.": 5, "Jul.": 6, "Aug.": 7,
                       "Sept.": 8, "Sep.": 8, "Okt.": 9, "Nov.": 10, "Dez.": 11, "Jänner": 0}
# Nouns after which (or before which) a number with a dot is an ordinal, not a sentence's end.
_ORDINAL_NOUNS = ("Jahrhundert", "Jahrtausend", "Jahrestag", "Geburtstag", "Stock", "Platz", "Kapitel", "Auflage",
                  "Klasse", "Mal", "Liga", "Weltkrieg", "Preis", "Tag", "Woche", "Runde", "Etage", "Ausgabe",
                  "Sinfonie", "Symphonie", "Satz", "Absatz", "Quartal", "Halbjahr", "Semester", "Grades", "Stufe",
                  "Version", "Band", "Teil", "Akt", "Szene", "Kongress", "Parteitag", "Lauf", "Spieltag", "Lektion",
                  "Obergeschoss", "Untergeschoss")
# Articles and prepositions after which an ordinal ends in -en (dative, genitive) or -e (nominative).
_EN = {"am", "im", "vom", "zum", "beim", "dem", "den", "des", "zur", "einem", "eines", "seinem", "ihrem", "unserem",
       "seit", "ab", "bis", "diesem", "jedem", "Am", "Im", "Vom", "Zum", "Beim", "Seit", "Ab", "Bis", "Dem", "Des"}
_E = {"der", "die", "das", "Der", "Die", "Das", "eine", "Eine"}
# Possessives and "kein": bare ("mein 2. Versuch": zweiter, "sein 3. Buch": drittes) the ordinal takes the noun's
# gender; with -e the ending -e, with -em, -en, -er, -es the ending -en.
_EIN_WORDS = ("mein", "dein", "sein", "ihr", "unser", "euer", "kein", "ein")
_EN |= {w + e for w in _EIN_WORDS for e in ("em", "en", "er", "es")}
_EN |= {w[0].upper() + w[1:] for w in list(_EN)}
_E |= {w + "e" for w in _EIN_WORDS} | {w.capitalize() + "e" for w in _EIN_WORDS}
_BARE = set(_EIN_WORDS) | {w.capitalize() for w in _EIN_WORDS}
_FEMININE = ("Stunde", "Minute", "Sekunde", "Tasse", "Seite", "Tonne", "Flasche", "Woche", "Dose", "Packung")
_NEUTER = ("Jahr", "Kilo", "Kilogramm", "Pfund", "Glas", "Stück", "Gramm", "Prozent", "Dutzend")
WEEKDAYS = {"Mo": "Montag", "Di": "Dienstag", "Mi": "Mittwoch", "Do": "Donnerstag", "Fr": "Freitag", "Sa": "Samstag",
            "So": "Sonntag"}


# "100,- DM", "5,– €", "100,-DM-Schein": a whole price's dash, no minus
_WHOLE_PRICE = re.compile(r"(?<=\d),[-–]{1,2}(?=\s?(?:DM|€|EUR|Euro|Mark|CHF|Franken)\b|\s?€|[\s.,;:!?)]|$)")

# "1 Buch": "ein Buch". The article "ein" takes the gender of the noun counted (data/de_genders.tsv, else its
# ending) and the case the preposition before asks for ("mit 1 Tasse": "mit einer Tasse", "für 1 Tag": "für einen").
# Adjectives a measure stands before in the accusative ("1 cm dick" einen Zentimeter dick, "1 m lang" einen Meter)
_MEASURED = {"hoch", "dick", "lang", "breit", "tief", "schwer", "weit", "entfernt", "stark", "dünn", "kurz", "schmal",
             "groß", "alt"}
_DATIVE = {"mit", "von", "vom", "aus", "bei", "beim", "nach", "seit", "zu", "zum", "zur", "außer", "gegenüber", "binnen",
           "samt", "nebst", "entsprechend", "in", "vor", "an", "hinter", "neben", "unter",
           "ab"}  # "in 1 Woche": in einer
# "innerhalb 1 Woche": "innerhalb einer Woche", "während 1 Jahres": "eines".
_GENITIVE = {"innerhalb", "außerhalb", "während", "wegen", "trotz", "statt", "anstatt", "aufgrund", "infolge",
             "oberhalb", "unterhalb", "jenseits", "diesseits", "mithilfe", "anhand", "zwecks"}
# Words between a verb or preposition and the "1" it governs ("es gibt nur 1 Gewinner", "gab ihr 1 Kuss"): passed.
MEALMASTER = {"tb": "EL", "ts": "TL", "pn": "Prise", "ds": "Spritzer"}
# Adverbs of sequence that may open a recipe's order before its amount ("Dann 1 l Wasser aufkochen").
_SEQUENCE = {"dann", "danach", "nun", "jetzt", "inzwischen", "zuerst", "zunächst", "anschließend", "anschliessend",
             "währenddessen", "dazu", "zuletzt", "nochmals", "außerdem", "nebenbei", "parallel", "erst", "zum",
             "schluss", "schluß", "ca.", "circa", "etwa", "ungefähr"}
_BETWEEN = {"nur", "noch", "genau", "etwa", "ungefähr", "rund", "ca.", "circa", "mindestens", "höchstens", "knapp",
            "fast", "insgesamt", "lediglich", "bloß", "immerhin", "sogar", "auch", "schon", "bereits", "maximal",
            "minimal", "mir", "dir", "ihm", "ihr", "uns", "euch", "ihnen", "sich", "jetzt", "heute", "morgen",
            "gestern", "wieder", "mal", "dann", "nun", "es"}
_ACCUSATIVE = {"für", "durch", "gegen", "ohne", "um", "pro", "je"}
# "1 von 10 Menschen": one of them, said as a pronoun in their gender and the case around it.
_ONE_OF = {"": {"m": "einer", "f": "eine", "n": "eines"}, "dat": {"m": "einem", "f": "einer", "n": "einem"},
           "acc": {"m": "einen", "f": "eine", "n": "eines"}, "gen": {"m": "eines", "f": "einer", "n": "eines"}}
# Verbs whose object "1" counts, right after them ("es gibt 1 Grund": "einen Grund", "hat 1 Hund": "einen").
_ACCUSATIVE_VERBS = set("gibt gab hat habe hast haben hatte hatten braucht brauche brauchen brauchte kauft kaufe "
                        "kaufen kaufte nimm nehmen nimmt nahm bekommt bekomme bekommen bekam sucht suche suchen kostet "
                        "kostete "
                        "dauert dauerte wiegt wog kennt kenne kennen sieht sah sehe hatte bestellt bestellte "
                        "erhält erhielt bleiben bleibt blieb bleibe warten wartet wartete".split())
# "1/2 Liter": a half in each gender and case ("ein halber Liter", "mit einer halben Tasse", "nimm einen halben").
_HALF = {"": {"m": "ein halber", "f": "eine halbe", "n": "ein halbes"},
         "acc": {"m": "einen halben", "f": "eine halbe", "n": "ein halbes"},
         "dat": {"m": "einem halben", "f": "einer halben", "n": "einem halben"},
         "gen": {"m": "eines halben", "f": "einer halben", "n": "eines halben"}}
_ARTICLE = {"": {"m": "ein", "f": "eine", "n": "ein"}, "dat": {"m": "einem", "f": "einer", "n": "einem"},
            "acc": {"m": "einen", "f": "eine", "n": "ein"}, "gen": {"m": "eines", "f": "einer", "n": "eines"}}
# Words after which "1" names a thing ("Kapitel 1 Abschnitt 2", "Platz 1 Ergebnis"): said "eins".
_LABELS = {"Nummer", "Seite", "Kapitel", "Platz", "Gleis", "Linie", "Teil", "Band", "Artikel", "Absatz", "Level",
           "Stufe", "Runde", "Folge", "Tor", "Version", "Paragraf", "Schritt", "Tabelle", "Abbildung", "Anhang",
           "Punkt", "Frage", "Aufgabe", "Typ", "Type", "Klasse", "Halle", "Raum", "Zimmer", "Haus", "Kanal", "Gruppe"}
# Words after which a number from 1100 to 2099 is a year even before a noun ("seit 1990 Mitglied").
_YEAR_BEFORE = {"jahr", "jahre", "jahres", "seit", "im", "ab", "bis", "anfang", "ende", "mitte", "frühjahr",
                "sommer", "herbst", "winter", "von", "zwischen", "um"}
# Words ending like an infinitive that are none (a clause ending in them has no infinitive there).
_NOT_INFINITIVES = {"den", "einen", "zwischen", "oben", "unten", "neben", "eben", "gegen", "offen", "trocken", "ihnen",
                    "wen", "denen", "seinen", "ihren", "meinen", "deinen", "unseren", "allen", "vielen", "beiden"}
# Finite verbs an infinitive at a clause's end goes with ("1 Mann kann nicht alles wissen": its subject).
_FINITE = set("kann muss muß soll will darf mag möchte wird ist war hat hatte wollte sollte konnte musste mußte "
              "könnte müsste müßte würde wäre lässt läßt ließ braucht bleibt geht scheint pflegt weiß hilft "
              "sieht hört".split())
_FEMININE_ENDINGS = ("ung", "heit", "keit", "schaft", "ion", "tät", "ei", "ie", "ik", "ur", "enz", "anz", "e")
_NEUTER_ENDINGS = ("chen", "lein", "um", "ment", "tum")


def _data(name: str) -> list:
    """The rows of data/<name>.tsv, each a list of its columns (comments and the header left out)."""
    rows = (Path(__file__).parent / "data" / f"{name}.tsv").read_text(encoding="utf-8").splitlines()
    return [row.split("\t") for row in rows if row and not row.startswith(("#", "written\t"))]


_UNITS = _data("de_units")  # written, singular, plural, gender
_CURRENCIES = _data("de_currencies")  # written, singular, plural, minor singular, minor plural, gender
_FEMININE_CURRENCIES = {row[0] for row in _CURRENCIES if row[5] == "f"}


@lru_cache(maxsize=1)
def genders() -> dict:
    """Noun -> 'm', 'f' or 'n', of the German nouns most often counted."""
    rows = (Path(__file__).parent / "data" / "de_genders.tsv").read_text(encoding="utf-8").splitlines()
    return dict(row.split("\t") for row in rows if row and not row.startswith("#"))


def gender(noun: str) -> str:
    """A German noun's gender: from the table, else from its last part or ending ("Apfelkuchen": "Kuchen")."""
    table = genders()
    if noun in table:
        return table[noun]
    for i in range(1, len(noun) - 2):  # a compound takes the gender of its last noun
        tail = noun[i].upper() + noun[i + 1:]
        if tail in table:
            return table[tail]
    lower = noun.lower()
    return "n" if lower.endswith(_NEUTER_ENDINGS) else "f" if lower.endswith(_FEMININE_ENDINGS) else "m"


def singular(noun: str) -> str:
    """A plural noun's singular where the table knows it ("Frauen": "Frau", "Fällen": "Fall", "Kindern": "Kind"),
    else the noun."""
    table = genders()
    for form in (noun, noun.replace("ä", "a").replace("ö", "o").replace("ü", "u")):  # "Fällen": "Fall"
        for cut in ("", "n", "en", "e", "er", "ern", "s"):
            if form.endswith(cut) and form[:len(form) - len(cut)] in table:
                return form[:len(form) - len(cut)]
    return noun


class German(Spec):
    code = "de"
    number_sign = "Nummer"
    group, decimal, point, dot = ".", ",", "Komma", "Punkt"
    minus, plus = "minus", "plus"
    months = MONTHS
    month_abbreviations = _ABBREVIATED_MONTHS
    minor_said = False
    currencies = {"€": ("Euro", "Euro", "Cent", "Cent"), "EUR": ("Euro", "Euro", "Cent", "Cent"),
                  "Euro": ("Euro", "Euro", "Cent", "Cent"), "$": ("Dollar", "Dollar", "Cent", "Cent"),
                  "US$": ("US-Dollar", "US-Dollar", "Cent", "Cent"), "USD": ("US-Dollar", "US-Dollar", "Cent", "Cent"),
                  "Dollar": ("Dollar", "Dollar", "Cent", "Cent"), "£": ("Pfund", "Pfund", "Penny", "Pence"),
                  "GBP": ("Pfund", "Pfund", "Penny", "Pence"), "¥": ("Yen", "Yen", "Sen", "Sen"),
                  "JPY": ("Yen", "Yen", "Sen", "Sen"), "CHF": ("Franken", "Franken", "Rappen", "Rappen"),
                  "Fr.": ("Franken", "Franken", "Rappen", "Rappen"), "₽": ("Rubel", "Rubel", "Kopeke", "Kopeken"),
                  "RUB": ("Rubel", "Rubel", "Kopeke", "Kopeken"), "R$": ("Real", "Real", "Centavo", "Centavos"),
                  **{row[0]: tuple(row[1:5]) for row in _CURRENCIES}}
    scales = {"Mio.": ("Million", "Millionen"), "Millionen": ("Million", "Millionen"),
              "Mrd.": ("Milliarde", "Milliarden"),
              "Milliarden": ("Milliarde", "Milliarden"), "Tsd.": ("Tausend", "Tausend"),
              "millionen": ("Million", "Millionen"), "milliarden": ("Milliarde", "Milliarden"),
              **{w: (singular, plural) for singular, plural in (("Million", "Millionen"), ("Milliarde", "Milliarden"),
                                                                ("Billion", "Billionen"))
                 for w in (singular, singular.lower(), plural.lower() if plural == "Billionen" else plural)}}
    per_word, proper_fractions_to, percent_gender = "pro", 99, "n"
    # Capitalized nouns a roman numeral follows as a label, not as a ruler's number ("System V", "Teil II").
    not_names = frozenset({"System", "Typ", "Type", "Version", "Modell", "Windows", "Klasse", "Stufe", "Phase", "Level",
                           "Staffel", "Folge", "Gruppe", "Block", "Abschnitt", "Anlage"})
    unit_scales = "(?i:tausend|millionen|million|milliarden|milliarde|mio\\.|mrd\\.)"
    units = {"km": ("Kilometer", "Kilometer"), "kg": ("Kilogramm", "Kilogramm"), "cm": ("Zentimeter", "Zentimeter"),
             "mm": ("Millimeter", "Millimeter"), "m": ("Meter", "Meter"), "g": ("Gramm", "Gramm"),
             "mg": ("Milligramm", "Milligramm"), "t": ("Tonne", "Tonnen"), "l": ("Liter", "Liter"),
             "L": ("Liter", "Liter"), "ml": ("Milliliter", "Milliliter"), "h": ("Stunde", "Stunden"),
             "Std.": ("Stunde", "Stunden"), "min": ("Minute", "Minuten"), "Min.": ("Minute", "Minuten"),
             "s": ("Sekunde", "Sekunden"), "Sek.": ("Sekunde", "Sekunden"), "ms": ("Millisekunde", "Millisekunden"),
             "TB": ("Terabyte", "Terabyte"), "GB": ("Gigabyte", "Gigabyte"), "MB": ("Megabyte", "Megabyte"),
             "kB": ("Kilobyte", "Kilobyte"), "KB": ("Kilobyte", "Kilobyte"), "KiB": ("Kibibyte", "Kibibyte"),
             "MiB": ("Mebibyte", "Mebibyte"), "GiB": ("Gibibyte", "Gibibyte"), "°C": ("Grad Celsius", "Grad Celsius"),
             "°F": ("Grad Fahrenheit", "Grad Fahrenheit"), "°": ("Grad", "Grad"),
             "km/h": ("Kilometer pro Stunde", "Kilometer pro Stunde"),
             "m/s": ("Meter pro Sekunde", "Meter pro Sekunde"),
             "m²": ("Quadratmeter", "Quadratmeter"), "qm": ("Quadratmeter", "Quadratmeter"),
             "km²": ("Quadratkilometer", "Quadratkilometer"), "m³": ("Kubikmeter", "Kubikmeter"),
             "Hz": ("Hertz", "Hertz"), "kHz": ("Kilohertz", "Kilohertz"), "MHz": ("Megahertz", "Megahertz"),
             "GHz": ("Gigahertz", "Gigahertz"), "W": ("Watt", "Watt"), "kW": ("Kilowatt", "Kilowatt"),
             "kWh": ("Kilowattstunde", "Kilowattstunden"), "V": ("Volt", "Volt"), "A": ("Ampere", "Ampere"),
             "ha": ("Hektar", "Hektar"), "kcal": ("Kilokalorie", "Kilokalorien"),
             "kJ": ("Kilojoule", "Kilojoule"), "PS": ("PS", "PS"), "Mbit/s": ("Megabit pro Sekunde", "Megabit pro Sekunde"),
             "cm²": ("Quadratzentimeter", "Quadratzentimeter"), "mm²": ("Quadratmillimeter", "Quadratmillimeter"),
             "cm³": ("Kubikzentimeter", "Kubikzentimeter"), "dm³": ("Kubikdezimeter", "Kubikdezimeter"),
             "km³": ("Kubikkilometer", "Kubikkilometer"), "mV": ("Millivolt", "Millivolt"),
             "mv": ("Millivolt", "Millivolt"), "kV": ("Kilovolt", "Kilovolt"), "mW": ("Milliwatt", "Milliwatt"),
             "MW": ("Megawatt", "Megawatt"), "mA": ("Milliampere", "Milliampere"), "ft": ("Fuß", "Fuß"),
             "mi": ("Meile", "Meilen"), "dl": ("Deziliter", "Deziliter"), "cl": ("Zentiliter", "Zentiliter"),
             "nm": ("Nanometer", "Nanometer"), "µm": ("Mikrometer", "Mikrometer"), "hPa": ("Hektopascal",
             "Hektopascal"), "bar": ("bar", "bar"), "EL": ("Esslöffel", "Esslöffel"), "El": ("Esslöffel", "Esslöffel"),
             "TL": ("Teelöffel", "Teelöffel"), "Tl": ("Teelöffel", "Teelöffel"), "Min": ("Minute", "Minuten"),
             "min.": ("Minute", "Minuten"),
             **{written: (singular, plural) for written, singular, plural, _ in _UNITS}}
    _GENDER = {"Tonne": "f", "Stunde": "f", "Minute": "f", "Sekunde": "f", "Millisekunde": "f",
               "Kilowattstunde": "f", "Kilogramm": "n", "Gramm": "n", "Milligramm": "n", "Grad Celsius": "n",
               "Grad": "n", "Kilokalorie": "f", "Kilojoule": "n", "Grad Fahrenheit": "n", "Byte": "n", "Watt": "n", "Volt": "n", "Hertz": "n",
               "Terabyte": "n", "Gigabyte": "n", "Megabyte": "n", "Kilobyte": "n",
               "Millivolt": "n", "Kilovolt": "n", "Milliwatt": "n", "Megawatt": "n", "Milliampere": "n", "Meile": "f",
               **{singular: gender for _, singular, _, gender in _UNITS}}
    percent = "Prozent"
    scale_nouns, scale_gender = ("Million", "Millionen", "Milliarde", "Milliarden", "Billion"), "f"
    range_word = "bis"
    equals = "gleich"
    score_word = "zu"
    phone_words = frozenset({"telefon", "tel", "fax", "mobil", "handy", "rufnummer", "telefonnummer", "hotline",
                             "anrufen", "durchwahl"})
    score_words = frozenset({"gewann", "gewinnt", "gewinnen", "gewonnen", "siegte", "siegt", "gesiegt", "verlor",
                             "verliert", "verloren", "sieg", "niederlage", "unentschieden", "remis", "führt", "führte",
                             "endstand", "halbzeit", "halbzeitstand", "spiel", "schlug", "besiegte", "endete",
                             "ergebnis", "stand", "heimsieg", "auswärtssieg", "pokal", "finale"})
    # Capitalized words that begin a sentence after an abbreviation ("… usw. Dann"); other capitals are nouns.
    sentence_starters = frozenset(
        "Der Die Das Den Dem Des Ein Eine Einen Einem Einer Er Sie Es Wir Ich Ihr Du Man Dann Danach Daraufhin Aber "
        "Und Oder Doch Denn Auch Im Am In An Auf Aus Bei Mit Nach Von Vor Zu Zum Zur Dies Diese Dieser Dieses So Da "
        "Dort Hier Heute Morgen Gestern Jetzt Nun Wenn Als Ob Wie Was Wer Wo Warum Weil Deshalb Daher Darum Trotzdem "
        "Außerdem Allerdings Jedoch Leider Zudem Später Vielleicht Bitte Alle Viele Nicht Kein Keine Mein Meine Sein "
        "Seine Ihre Unser Unsere Dabei Damit Dazu Hierzu Insgesamt Schließlich Zuletzt Zunächst Erst Noch Nur Sonst "
        "Also Ja Nein Mehr Weitere Weiteres Siehe".split())
    number_abbreviations = {"Nr.": "Nummer", "S.": "Seite", "Abb.": "Abbildung", "Kap.": "Kapitel",
                            "Tab.": "Tabelle", "Bd.": "Band", "Abs.": "Absatz", "Art.": "Artikel", "Bsp.": "Beispiel",
                            "Tel.": "Telefon", "§": "Paragraf", "§§": "Paragrafen", "Jh.": "Jahrhundert"}
    # "Dr." and "Prof." are titles before any word ("Dr. med.", "Dr. dao"): in the abbreviations table.
    name_abbreviations = {"Hr.": "Herr", "Fr.": "Frau", "St.": "Sankt"}
    roman_before = ("Kapitel", "Teil", "Band", "Akt", "Buch", "Anhang", "Artikel", "Abschnitt", "Titel")
    roman_after = ("Jahrhundert", "Jahrhunderts", "Jahrtausend", "Weltkrieg", "Weltkriegs", "Jh.")
    menu_words = frozenset({"Datei", "Bearbeiten", "Ansicht", "Bild", "Ebene", "Ebenen", "Farben", "Werkzeuge",
                            "Filter", "Fenster", "Hilfe", "Einstellungen", "Extras", "Format", "Einfügen", "Auswahl",
                            "Neu", "Öffnen", "Speichern", "Menü", "Optionen", "Tabelle"})
    symbols = {"±": "plus minus", "×": "mal", "→": "nach", "←": "von", "&": "und", "§": "Paragraf",
               "≈": "ungefähr", "≤": "kleiner gleich", "≥": "größer gleich", "−": "minus", "°": "Grad",
               "½": "ein halb", "¼": "ein Viertel", "¾": "drei Viertel", "~": "etwa", "‰": "Promille"}
    fractions = {(1, 2): "ein halb", (1, 4): "ein Viertel", (3, 4): "drei Viertel", (1, 3): "ein Drittel"}

    def __init__(self):
        super().__init__()
        months = "|".join(re.escape(m) for m in list(MONTHS) + list(_ABBREVIATED_MONTHS))
        nouns = "|".join(_ORDINAL_NOUNS)
        # "3. Oktober", "der 2. Weltkrieg", "am 3. Mai"; a number with a dot before a noun after an article.
        self.ordinal_pattern = re.compile(r"(?<![\w.,])(\d{1,4})(\.)(?=\s(?:" + months + "|" + nouns + r")\b)")
        self._date_ordinal = re.compile(r"(?<![\w.,])(\d{1,2})\.\s((?i:" + months + r"))(?!\w)")  # "24. juli" too
        # "im 2. oder 3. Jahr", "zwischen dem 15. und 35. Lebensjahr": a second ordinal joined to the first
        self._coordinated_ordinal = re.compile(r"(\d\.\s(?:und|oder|sowie|bzw\.|beziehungsweise)\s)(\d{1,3})\."
                                               r"(?=\s[A-ZÄÖÜ])")
        self._article_ordinal = re.compile(r"\b(" + "|".join(sorted(_EN | _E | _BARE, key=len, reverse=True))
                                           + r")\s(\d{1,3})\.(?=\s([A-ZÄÖÜ]\w*))")
        self._ending = re.compile(r"(\w+)\x01([rsne])")
        self._word_before = re.compile(r"(\S+)\s$")
        self._uhr = re.compile(r"(?<![\w.,:])(\d{1,2})(?:[.:]([0-5]\d))?\s(Uhr)\b")
        self._half = re.compile(r"(?<![\w.,/])1/2\s(?=([A-ZÄÖÜ]\w+))")
        units = "|".join(re.escape(u) for u in sorted(self.units, key=len, reverse=True))
        self._half_unit = re.compile(r"(?<![\w.,/])(?<!\d\s)(?<!\d-)1/2\s?(" + units + r")(?![\w/²³])")
        # "aus 1/8 l": one part of a unit after a preposition of the dative ("aus einem Achtel Liter")
        # "10-km-Lauf", "1,5-l-Flasche": a unit inside a compound, said by its name ("zehn-Kilometer-Lauf")
        self._unit_compound = re.compile(r"(?<=\d)-(" + units + r")-(?=[A-ZÄÖÜ])")
        self._part_unit = re.compile(r"(?<![\w.,/])(?<!\d\s)(?<!\d-)1/([3-9]|1[0-6])\s?(" + units + r")(?![\w/²³])")
        # "1,80 m": a length in meters and centimeters, said so ("ein Meter achtzig"), as a height is.
        self._meters_centimeters = re.compile(r"(?<![\w.,])(\d{1,2}),(\d\d)\s?m(?![\w²³/.,]|\.\w)")
        # "2 x täglich": so many times ("zweimal täglich").
        self._times_a = re.compile(r"(?<![\w.,])(\d{1,2})\s?[x×]\s(?=(?:täglich|wöchentlich|monatlich|jährlich|pro|"
                                   r"am|im|in der|die Woche|im Monat|hintereinander)\b)")
        # "02.03": a day and a month, both written with two digits (a decimal takes a comma, a time a colon).
        self._day_month = re.compile(r"(?<![\w.,:])(?<!\w-)(0?[1-9]|[12]\d|3[01])\.(0?[1-9]|1[0-2])(?![\w:]|[.,]\d|-\w)"
                                     r"(?:\.(?=\s+[a-zäöüß]|,))?")
        # "2003-03": a year and its month (a range never writes its end with a leading zero).
        self._year_month = re.compile(r"(?<![\w.,/-])(1\d{3}|20\d{2})-(0[1-9]|1[0-2])(?![\w-]|[.,]\d)")
        # "0123 1234-1233", "030/1234567": an area code with its leading zero, then the number (five digits or more).
        # "0221 / 12 34 56": the slash set apart, the number in pairs.
        # The code may be written apart from its zero ("0 30 / 12 34 56"), a firm's short number end in its
        # extension ("06221 54-0", "06221 / 54 - 0").
        # A code of one digit after its zero ("01 123-4567"), or the trunk zero alone in brackets ("(0) 1234-1233").
        self._area_phone = re.compile(r"(?<![\w.,/+-])(?:\(0\)|0\d{1,5}|0 \d{2,5})(?:\s?/\s?|\s?-\s?|\s)"
                                      r"(?=(?:\d[ -]?){5}|\d+\s?-\s?\d)\d+(?:(?:[ -]| - )\d+){0,3}(?![\w-]|[.,]\d)")
        # The emergency and service numbers, called by their figures ("Notruf 112", "die 110 wählen").
        self._service_line = re.compile(r"\b((?:Notruf(?:nummer)?|Polizei|Feuerwehr|Rettungsdienst):?\s)"
                                        r"(110|112|115|116117|116116|19222)\b(?![.,]\d)"
                                        r"|\b(110|112|115|116117|116116)(?=\s(?:an\b|wählen|anrufen|rufen))")
        # "+4930123456": a number with its country code, written without a space: digit by digit.
        self._plus_digits = re.compile(r"(?<![\w+])\+\d{8,15}(?![\w]|[.,]\d)")
        # "49 1234-1233": a two-digit country code (or "0") without its "+", then a number of seven digits or more
        # joined by a hyphen, as NeMo's German telephone grammar takes it (the code said as a number); no range
        # ("12 1990-1995").
        # The number's two groups may be parted by a space as well ("49 1234 1233").
        self._coded_phone = re.compile(r"(?<![\w.,/+-])(\d{2}|0) (\d{3,5})[- ](\d{3,5})(?![\w-]|[.,]\d)"
                                      r"|(?<![\w.,/+-])(0) (\d{7,12})(?![\w-]|[.,]\d)")
        self._clause_end = re.compile(r"[,;:.!?()\[\]]|\s(?:damit|dass|daß|bis|sodass|weil|wenn|und|oder|bevor"
                                      r"|nachdem)\s")
        self._dash_price = re.compile(r"(?<=\d),[-–]{1,2}(?=\s|$|[.;:!?)]|,\s)")
        self._street = re.compile(r"\b([A-ZÄÖÜ][a-zäöüß-]{2,})str\.(?=\s|$|,)")
        self._times = re.compile(r"(?<![\w.,])(\d+(?:,\d+)?(?:\s?(?:km|dm|cm|mm|m))?)(?:\s[x×]\s|(?<=\d)[x×])(?=\d)")
        self._times_word = re.compile(r"(?<![\w.,])(\d{1,3})[x×](?=\s+[a-zäöüß])")
        self._dot_before_word = re.compile(r"(?<![\w.,])(\d{1,4})\.(?=[ \t]+[a-zäöüß]|,)")  # "am 13., wenn"
        self._ordinal_suffix = re.compile(r"(?<![\w.,])(\d{1,4})-?(s?te)([nrsm]?)(?!\w)")  # "2te", "20sten", "3-te"
        words = "|".join(re.escape(c) for c in sorted(self.currencies, key=len, reverse=True) if c.istitle())
        self._major_minor = re.compile(r"(?<![\w.,])(\d{1,3}(?:\.\d{3})*)\s(" + words + r")\s(\d{1,2})"
                                       r"(?![\w%]|[.,]\d|\s(?!Cent\b)[A-ZÄÖÜ])")
        # "1-2 Tage", "1 oder 2 EL" (the second number maybe said already): a count of a noun, not of hours
        self._one_to = re.compile(r"\s(?:bis|oder)\s(?:\d+|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf"
                                  r"|[a-zäöü]+(?:zig|zehn|ßig)|[a-zäöü]*(?:hundert|tausend)[a-zäöü]*)"
                                  r"\s+(?!Uhr\b)[A-ZÄÖÜ]")
        self._unit_dot_end = re.compile(r"(?<=\d)\s?(?:" + "|".join(re.escape(u) for u in self.units if u.endswith("."))
                                        + r")(?=\s*$|\s+(?:" + "|".join(self.sentence_starters) + r")\b)")
        money = "|".join(re.escape(c) for c in ("€", "$", "£", "Euro", "EUR", "CHF", "Dollar"))
        per = "|".join(re.escape(u) for u in sorted(self.units, key=len, reverse=True) if "/" not in u)
        self._price_per = re.compile(r"(?<=\d)(\s?(?:" + money + r"))\s?/\s?(" + per
                                     + r"|[A-ZÄÖÜ][a-zäöüß]+)(?![\w/²³])")
        # "1.–3. März": a span of days, its dash "bis" ("vom ersten bis dritten März")
        self._day_span = re.compile(r"(?<![\w.,])(\d{1,2}\.)\s?[-–]\s?(?=\d{1,2}\.\s(?:" + "|".join(MONTHS) + r"))")
        self._clock_span = re.compile(r"(?<=\d:\d\d)\s?[-–]\s?(?=\d{1,2}:\d\d)")  # "8:30–12:00 Uhr"
        # "Abs. 1 S. 2": a law's sentence ("Satz"), not a page
        self._law_sentence = re.compile(r"(Abs\.\s?\d+[a-z]?\s)S\.(?=\s?\d)")
        # A day written short before its hours ("Fr 8–12 Uhr", "Sa. 10:00 Uhr")
        self._weekday_hours = re.compile(r"(?<![\w.])(" + "|".join(WEEKDAYS)
                                         + r")\.?(?=\s\d{1,2}(?:[:.]\d\d)?\s?(?:[-–]|Uhr\b))")
        self._phone_label = re.compile(r"(?<![\w.])(Tel|Fax)\.:")
        self._extra_time = re.compile(r"(?<=\d)\s(n\.\s?V|i\.\s?E)\.(\s*$)?")
        self._century = re.compile(r"(?<=\d\.)\s(?:Jh|Jhd|Jhdt)\.")
        # Days written short, from one to another ("Mo.–Fr.", "Mo-Sa"): opening hours, "Montag bis Freitag".
        days = "|".join(WEEKDAYS)
        self._weekdays = re.compile(r"(?<![\w.])(" + days + r")\.?\s?[-–]\s?(" + days + r")(?:\.|(?![\w.]))")
        self._er_suffix = re.compile(r"(?<![\w.,])(\d{1,4})(er|ern|ers|erin|erinnen)(?!\w)")  # "20er", "90ern"
        self._percent_suffix = re.compile(r"(?<![\w.,])(\d{1,3})\s?%(ig|ige[nrsm]?)(?!\w)")  # "100%ig"
        # "12-jährige", also written together ("10jährigen", "4facher", "2stündiger"): any adjective in -ig
        self._hyphen_suffix = re.compile(r"(?<![\w.,-])(\d{1,3})-?((?:mal|malige?[nrsm]?|fach|fache[nrsm]?"
                                         r"|[a-zäöüß]{2,}ig|[a-zäöüß]{2,}ige[nrsm]?)"
                                         r")(?![\w-])")
        self._one_of = re.compile(r"\s(?:von|aus)\s(?:den\s)?\d+\s([A-ZÄÖÜ][a-zäöüß]+)")
        # a share of a round hundred or more, as NeMo's German fractions read every denominator ("3/100", "1/250",
        # "1/1000000"): "drei Hundertstel", "ein Zweihundertfünfzigstel", "ein Millionstel"
        self._hundredths = re.compile(r"(?<![\w.,/])(\d{1,3})/([1-9]\d?0{1,5})(?![\w/]|[.,]\d)")
        self._spaced_fraction = re.compile(r"(?<![\w.,/])(\d{1,2}) / (\d{1,2})(?![\w/]|[.,]\d)")
        self._negative_fraction = re.compile(r"(?<![\w.,/-])[-−](?=(?:\d{1,3}\s)?\d{1,2}/\d{1,2}(?![\w/]|[.,]\d))")
        self._time_uhr = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?\s?Uhr\b")
        # "nach 3:45:12 h", "Fahrzeit 2:15 h": hours, minutes (and seconds) with the hour's letter are a duration.
        self._duration = re.compile(r"(?<![\w:.,])(\d{1,3}):([0-5]\d)(?::([0-5]\d))?\s?h\b(?!\.\w)")
        # "um 20.15", "gegen 7.30": after "um" or "gegen" hours and minutes with a dot are a time without its "Uhr"
        # (a date after them would be written "am 20.5.").
        self._um_dotted = re.compile(r"\b([Uu]m|[Gg]egen)\s([01]?\d|2[0-3])\.([0-5]\d)(?![\w.,:]\d|\.\d|\w|\s?Uhr\b)")

    def n2w(self, value, to="cardinal", **extra):
        """num2words says a thousands group ending in one with its "s" ("101000" "einhunderteinstausend"); before
        "tausend" the one is "ein", as in "einundzwanzigtausend": "einhunderteintausend"."""
        return super().n2w(value, to, **extra).replace("einstausend", "eintausend")

    def cardinal(self, n, gender=None):
        if n == 1 and gender:
            return "eine" if gender == "f" else "ein"
        return self.n2w(n)

    def ordinal(self, n, gender="m", mark="", ending="e"):
        return self.n2w(n, "ordinal") + "\x01" + ending  # its case ending is settled by `endings`

    def year(self, n):
        return self.n2w(n, "year")

    def unit_gender(self, unit):
        return self._GENDER.get(self.units[unit][0], "m")

    def currency_gender(self, currency, minor=False):
        if minor:
            return "f" if currency in ("₽", "RUB") else "m"
        return "f" if currency in _FEMININE_CURRENCIES else "m"

    def fraction_measure(self, numerator, denominator, unit):
        name = self.units[unit][0]  # "1/2 l": "ein halber Liter"
        if (numerator, denominator) == (1, 2):
            return {"f": "eine halbe", "n": "ein halbes"}.get(self.unit_gender(unit), "ein halber") + " " + name
        return f"{self.fraction(numerator, denominator)} {name}"

    def read_abbreviations(self, text):
        if "str." in text:  # "Hauptstr. 5": "Hauptstraße fünf"
            text = self._street.sub(lambda m: m.group(1) + "straße", text)
        text = self._phone_label.sub(lambda m: {"Tel": "Telefon", "Fax": "Fax"}[m.group(1)] + ":",
                                     text)  # "Tel.: 0221 …", before a number's cue of its own
        # "im 19. Jh.": the century after its ordinal (its dot ends the sentence where nothing follows)
        text = self._century.sub(lambda m: " Jahrhundert" + ("." if self._ends_sentence(text[m.end():]) else ""),
                                 text)
        return super().read_abbreviations(text)

    def read_telephones(self, text):
        text = self._service_line.sub(lambda m: (m.group(1) or "") + self.digits(m.group(2) or m.group(3)), text)
        text = self._coded_phone.sub(self._coded, text)
        text = self._plus_digits.sub(lambda m: f"{self.plus} {self.digits(m.group(0))}", text)
        return super().read_telephones(self._area_phone.sub(self._area, text))

    def _area(self, m):
        if re.search(r"\+\d{1,3}\s?$", m.string[:m.start()]):
            return m.group(0)  # "+49 (0) 1234-1233": the trunk zero after the country's code, said with the number
        return self.telephone(m.group(0))

    def _coded(self, m):
        if m.group(4):  # "0 12345678": the trunk zero, then one group of seven digits or more
            return f"{self.digits(m.group(4))}, {self.digits(m.group(5))}"
        code, first, second = m.groups()[:3]
        if re.search(r"\+\d{1,3}\s$", m.string[:m.start()]):
            return m.group(0)  # "+49 30 1234-567": the area code after the country's, said with the number
        if " " in m.group(0)[len(code) + 1:]:  # spaced groups: no range, but maybe years or a list of figures
            if len(second) < 4 or all(1000 <= int(g) <= 2099 for g in (first, second)):
                return m.group(0)  # "Werte 10 200 300", "12 1990 2000"
        elif len(first + second) < 7 or first[0] != "0" and (int(first) < int(second) or first.endswith("00")):
            return m.group(0)  # a number before a range ("12 1990-1995", "20 500-1000")
        return f"{self.cardinal(int(code))}, {self.telephone(first + '-' + second)}"

    def telephone(self, written):
        """Digit by digit, group by group; a country code of two digits said as a number, as German speakers
        and NeMo's German grammar say it ("+49": "plus neunundvierzig")."""
        said = super().telephone(written)
        code = re.match(r"\+(\d\d)(?!\d)", written)
        if code:
            said = said.replace(f"{self.plus} {self.digits(code.group(1))}",
                                f"{self.plus} {self.cardinal(int(code.group(1)))}", 1)
        return said

    def read_money(self, text):
        """"12,50 €" as said every day ("zwölf Euro fünfzig"); a currency written before its amount, the way
        NeMo's German grammar reads it, names the minor unit too ("€2,20": "zwei Euro zwanzig Cent")."""
        text = _WHOLE_PRICE.sub("", text)
        text = self._money_range.sub(f" {self.range_word} ", text)
        # A price per a unit or a noun ("4,99 €/Monat", "12 €/m²"): "pro"
        text = self._price_per.sub(lambda m: f"{m.group(1)} {self.per_word} "
                                             f"{self.units[m.group(2)][0] if m.group(2) in self.units else m.group(2)}",
                                   text)
        # "2 Euro 50": the cents after the currency's word, as said ("zwei Euro fünfzig"), not "Euro 50" read apart
        text = self._major_minor.sub(lambda m: self.money(f"{m.group(1)},{int(m.group(3)):02d}", m.group(2), None),
                                     text)
        text = self._money_before.sub(lambda m: m.group(0) if m.group(1).isalpha() and re.search(
            r"\d\s$", m.string[:m.start()]) else self.money(m.group(2), m.group(1), m.group(3), named=True), text)
        return self._money_after.sub(self._money_counted, text)

    def _money_counted(self, m):
        """An amount written after its number; "1 €" alone is the article of its currency, in the case around it
        ("es kostet 1 €": "einen Euro", "mit 1 €": "mit einem Euro")."""
        said = self.money(m.group(1), m.group(3), m.group(2))
        if re.fullmatch(r"1(?:,\d\d)?", m.group(1)) and not m.group(2) and said.startswith("ein "):
            noun = said.split()[1]
            said = f"{_ARTICLE[self._case(m, context(m.string, m.start(), m.end()), False)][gender(noun)]}{said[3:]}"
        return said

    def money(self, amount, currency, scale, named=False):
        whole, fraction = self.value(amount.lstrip("-−+"))
        if scale:  # "€1 million": "eine million Euro"; a scale written as a word is said as written
            one = whole == 1 and not fraction and amount[0].isdigit()
            word = self.scales[scale][0] if one else scale if scale[-1].isalpha() else self.scales[scale][1]
            return f"{'eine' if one else self.number(amount)} {word.lower() if scale.islower() else word} " \
                   f"{self.currencies[currency][1]}"
        if not scale and len(fraction) > 2 and not fraction[2:].strip("0"):  # "$2,20000": twenty cents
            amount, fraction = amount[:len(amount) - len(fraction) + 2], fraction[:2]
        said = super().money(amount, currency, scale)
        cents = int(fraction.ljust(2, "0")) if not scale and 0 < len(fraction) <= 2 else 0
        names = self.currencies[currency]
        if named and cents and not said.endswith((names[2], names[3])):
            said += " " + names[2 if cents == 1 else 3]
        return said

    def minor_named(self, cents):
        return cents == 1  # "zwei Pfund ein Penny": "ein" needs its noun

    def date(self, day, month, year):
        said = f"{self.ordinal(day, ending='r')} {self.months[month - 1]}"
        return said + (f" {self.year(year)}" if year else "")

    def time(self, hours, minutes, seconds):
        said = f"{'ein' if hours == 1 else self.cardinal(hours)} Uhr"  # "ein Uhr", not "eine" (a clock)
        if seconds is not None:
            return (said + f" {self.cardinal(minutes, 'f')} Minute{'' if minutes == 1 else 'n'}"
                    f" {self.cardinal(seconds, 'f')} Sekunde{'' if seconds == 1 else 'n'}")
        return said + (f" {self.cardinal(minutes)}" if minutes else "")

    def mixed(self, whole, numerator, denominator):
        if (numerator, denominator) == (1, 2):  # "2 1/2": "zweieinhalb", one word
            return self.cardinal(whole, "n") + "einhalb"
        return f"{self.cardinal(whole, 'n')} {self.fraction(numerator, denominator)}"  # "23 4/6": "… vier Sechstel"

    def fraction(self, numerator, denominator):
        if (numerator, denominator) in self.fractions:
            return self.fractions[(numerator, denominator)]
        base = self.n2w(denominator, "ordinal")[:-1]  # "dritte" -> "Drittel", "zwanzigste" -> "Zwanzigstel"
        if denominator in (100, 1000, 1000000):  # "einhundertste" -> "Hundertstel"
            base = base.removeprefix("ein")
        base = {"zweit": "halb" if numerator == 1 else "Halbe", "dritt": "Drittel"}.get(
            base, base[:1].upper() + base[1:] + "el")  # "4/2": "vier Halbe"
        return f"{self.cardinal(numerator, 'n')} {base}"

    def roman(self, value, kind, word=""):
        if kind == "regnal":
            return "der " + self.n2w(value, "ordinal").capitalize()
        if kind == "ordinal":
            return self.ordinal(value, ending="s")
        return self.cardinal(value)

    def read_dates(self, text):
        def day_month(m):  # after a label ("Seite 12.03") a section number
            ctx = context(m.string, m.start(), m.end())
            before = ctx.word_before()
            if before in _LABELS | {"Abschnitt", "Kap.", "S."} or ctx.word_after() == "Uhr":
                return m.group(0)  # "um 22.05 Uhr": a time, not the 22nd of May
            if self._version_before(m.string[max(0, m.start() - 40):m.start()]):
                return m.group(0)  # "von SuSE 6.0 auf 6.4": versions, as the one before that is no date
            # "2.3" written short: a date alone or after a lower-case word or a preposition ("am 2.3"), not
            # after a name ("Python 3.8") nor before a unit or "Uhr" ("1.5 kg", "8.05 Uhr")
            if len(m.group(1)) + len(m.group(2)) < 4 and (
                    before[:1].isupper() and before not in _EN or ctx.word_after() in self.units
                    or ctx.word_after() in ("Uhr", "h", "Prozent", "%") or ctx.touching == "%"):
                return m.group(0)
            return self.date(int(m.group(1)), int(m.group(2)), None)
        text = self._year_month.sub(lambda m: f"{MONTHS[int(m.group(2)) - 1]} {self.year(int(m.group(1)))}", text)
        text = self._short_year_date.sub(self._short_year, text)
        return super().read_dates(self._day_month.sub(day_month, text))

    # "am 25.6.75", "vom 05.11.48": a date with its year cut to two digits, after a word that tells a date.
    _short_year_date = re.compile(r"(?<![\w.,:/-])(0?[1-9]|[12]\d|3[01])\.(0?[1-9]|1[0-2])\.(\d\d)(?![\w.,:/-]?\d|\w)")
    _DATE_CUES = {"am", "vom", "den", "dem", "zum", "bis", "seit", "ab", "datiert", "datum", "geboren", "gestorben",
                  "stand"}  # as `Context.word_before` gives them: casefolded, without punctuation

    def _short_year(self, m):
        if context(m.string, m.start(), m.end()).word_before().casefold() not in self._DATE_CUES:
            return m.group(0)  # "Version 2.6.32": no date
        year = m.group(3)
        said = self.zeros(year) if year[0] == "0" else self.cardinal(int(year))  # "'05" null fünf
        return f"{self.date(int(m.group(1)), int(m.group(2)), None)} {said}"

    @staticmethod
    def _version_before(before):
        """Whether a number with a dot that is no day and month ("6.0", "2.14") stands right before, joined by "auf",
        "nach", "zu", "bis", "oder", "und" or "bzw." ("von 6.0 auf 6.4"): the two are versions."""
        m = re.search(r"(?<![\w.,])(\d{1,2})\.(\d{1,3})\s+(?:auf|nach|zu|bis|oder|und|bzw\.)\s+$", before)
        return bool(m) and not (1 <= int(m.group(1)) <= 31 and 1 <= int(m.group(2)) <= 12)

    def read_times(self, text):
        text = self._duration.sub(self._hours_minutes, text)
        text = self._um_dotted.sub(lambda m: f"{m.group(1)} {self.time(int(m.group(2)), int(m.group(3)), None)}", text)
        text = self._time_uhr.sub(lambda m: self.time(int(m.group(1)), int(m.group(2)),
                                                      int(m.group(3)) if m.group(3) else None), text)
        text = super().read_times(text)
        return self._uhr.sub(lambda m: self.time(int(m.group(1)), int(m.group(2) or 0), None), text)

    def _hours_minutes(self, m):
        """"2:15 h" "zwei Stunden fünfzehn Minuten": each count with its noun ("eine Stunde eine Minute")."""
        parts = [(int(m.group(1)), "Stunde"), (int(m.group(2)), "Minute")]
        if m.group(3):
            parts.append((int(m.group(3)), "Sekunde"))
        said = " ".join(f"{self.cardinal(n, 'f')} {noun}{'' if n == 1 else 'n'}" for n, noun in parts if n)
        return said or f"{self.cardinal(0)} Stunden"

    def read_fractions(self, text):
        text = self._hundredths.sub(lambda m: self.fraction(int(m.group(1)), int(m.group(2))) if 0 < int(m.group(1))
                                    < int(m.group(2)) and int(m.group(2)) >= 100 else m.group(0), text)
        text = self._spaced_fraction.sub(lambda m: f"{m.group(1)}/{m.group(2)}" if int(m.group(1)) < int(m.group(2))
                                         else m.group(0), text)  # "1 / 3"
        text = self._negative_fraction.sub(f"{self.minus} ", text)  # "-1/3": "minus ein Drittel"

        def half(m):
            noun = m.group(1)
            known = "f" if noun.startswith(_FEMININE) else "n" if noun.startswith(_NEUTER) else None
            return self.half_article(m, known or gender(noun)) + " "  # "1/2 Zitrone": "eine halbe Zitrone"
        text = self._mixed.sub(lambda m: self.mixed(*map(int, m.groups())) if 0 < int(m.group(2)) < int(m.group(3))
                               <= 16 else m.group(0), text)
        return super().read_fractions(self._half.sub(half, text))

    def read_ordinals(self, text):
        text = self._date_ordinal.sub(lambda m: f"{self.ordinal(int(m.group(1)), ending='r')} "
                                                f"{MONTHS[self.month_of(m.group(2)) - 1]}", text)
        text = self._coordinated_ordinal.sub(lambda m: m.group(1) + self.ordinal(int(m.group(2))), text)
        text = super().read_ordinals(text)
        text = self._article_ordinal.sub(self._after_article, text)
        return self._dot_before_word.sub(self._ordinal_before_word, text)

    def _after_article(self, m):
        """"der 2. Weltkrieg", "am 3. Tag"; after a bare possessive the noun's gender ("mein 2. Versuch")."""
        ending = {"m": "r", "n": "s", "f": "e"}[gender(m.group(3))] if m.group(1) in _BARE else "e"
        return f"{m.group(1)} {self.ordinal(int(m.group(2)), ending=ending)}"

    def _ordinal_before_word(self, m):
        """A number's dot before a small letter or a comma ends no German sentence: an ordinal ("vom 1. bis 3.
        Mai", "als 1. ins Ziel", "am 13., wenn"); not after a label ("Seite 3. oben") nor heading a line ("1.
        zuerst")."""
        before = context(m.string, m.start(), m.end()).word_before()
        return m.group(0) if not before or before in _LABELS else self.ordinal(int(m.group(1)))

    def read_suffixed(self, text):
        """Numbers a word ending is written onto: "2te" "zweite", "20er" "zwanziger", "90ern", "100%ig", "3-mal" "dreimal",
        "12-jährige" "zwölfjährige" (one word said, where the parts apart would be read with a pause)."""
        text = self._ordinal_suffix.sub(lambda m: self.n2w(int(m.group(1)), "ordinal") + m.group(3), text)
        text = self._er_suffix.sub(lambda m: self._decade_word(int(m.group(1))) + m.group(2), text)
        text = self._percent_suffix.sub(lambda m: self.cardinal(int(m.group(1))) + "prozent" + m.group(2), text)
        return self._hyphen_suffix.sub(lambda m: ("ein" if m.group(1) == "1" else self.cardinal(int(m.group(1))))
                                       + m.group(2), text)

    def _decade_word(self, n):
        """The number of "20er", "1920er": a decade of years said as its year ("neunzehnhundertzwanziger")."""
        return self.year(n) if 1100 <= n <= 1999 and n % 10 == 0 else self.cardinal(n)

    # A recipe in the MealMaster format, as German recipe collections keep them: its English codes after an amount
    # ("2 tb Olivenöl", "1 ts Essig", "1 pn Zucker", "1 ds Tabasco") are a tablespoon, a teaspoon, a pinch and a
    # dash, not a terabyte or a decisecond.
    _MEALMASTER = re.compile(r"(?<=\d)(\s+)(tb|ts|pn|ds)(?=\s+\w)")
    _RECIPE = re.compile(r"\b(?:Zutaten|Rezept|Gedecke?|EL|TL)\b|\d\s+(?:ts|pn|md|sm|lg)\s")

    def read(self, text):
        if self._MEALMASTER.search(text) and self._RECIPE.search(text):
            text = self._MEALMASTER.sub(lambda m: m.group(1) + MEALMASTER[m.group(2)], text)
        text = self._weekdays.sub(lambda m: f"{WEEKDAYS[m.group(1)]} {self.range_word} {WEEKDAYS[m.group(2)]}", text)
        text = self._weekday_hours.sub(lambda m: WEEKDAYS[m.group(1)], text)
        text = self._day_span.sub(rf"\1 {self.range_word} ", text)
        text = self._clock_span.sub(f" {self.range_word} ", text)
        text = self._law_sentence.sub(r"\1Satz", text)
        text = self._extra_time.sub(lambda m: (" nach Verlängerung" if m.group(1)[0] == "n"
                                               else " im Elfmeterschießen") + ("." if m.group(2) is not None else ""),
                                    text)  # "3:2 n. V."
        text = self.read_suffixed(self._dash_price.sub("", text))  # "5,- €", "1,-": a whole amount
        if "x" in text or "×" in text:  # "3 x 4 m", "20 cm x 30 cm", "1x1": times, "mal"
            text = self._times.sub(lambda m: m.group(0) if m.group(1) == "0" else f"{m.group(1)} mal ", text)
            text = self._times_word.sub(r"\1 mal", text)  # "2x täglich": "zweimal täglich"
        return self.endings(super().read(text))

    def say_number(self, m):
        """A lone "1" before a noun is its article, in the noun's gender and the case of the preposition before."""
        if not m.group(1) and m.group(2) == "1":
            part = self._one_of.match(m.string, m.end())
            ctx = context(m.string, m.start(), m.end())
            if part and ctx.word_before() not in _LABELS | {"Abschnitt"}:  # "Seite 1 von 10": a label's number
                # "1 von 10 Menschen": "einer von zehn Menschen", one of them in their gender
                return _ONE_OF[self._case(m, ctx, False)][gender(singular(part.group(1)))]
        if not m.group(1) and m.group(2) == "1" and self._one_to.match(m.string, m.end()):
            if context(m.string, m.start(), m.end()).word_before() not in _LABELS:
                return "ein"  # "1-2 Tage", "1 oder 2 EL": "ein bis zwei Tage", the first number uninflected
        if m.group(1) or m.group(2) != "1":
            if m.group(2).isdigit() and 1100 <= int(m.group(2)) <= 2099 and self._counts(m):
                return self.cardinal(int(m.group(2)))  # "1500 Menschen": a count, not a year
            return super().say_number(m)
        ctx = context(m.string, m.start(), m.end())
        noun = ctx.word_after()
        if (not noun or not noun[0].isupper() or not noun.isalpha() or ctx.touching not in SPACES
                or ctx.word_before() in _LABELS or noun in self.scale_nouns):
            return super().say_number(m)
        return _ARTICLE[self._case(m, ctx, False)][gender(noun)]

    def _case(self, m, ctx, measure=True):
        """The case of what "1" counts: the one the preposition before asks for, for a measure (a recipe's
        amount) the accusative of an order's object, else the nominative ('')."""
        if measure and ctx.word_after() in _MEASURED:
            return "acc"
        before = ctx.word_before().lower()
        if before in ("und", "oder", "sowie") or ctx.before and ctx.before[-1].endswith(","):
            before = self._governor(m.string[max(0, m.start() - 120):m.start()])  # "hat 2 Augen, 1 Nase und 1 Mund"
        elif before in _BETWEEN:  # "es gibt nur 1 Gewinner": the verb before the adverb
            words = [w.lower() for w in ctx.before]
            while words and words[-1] in _BETWEEN:
                words.pop()
            before = words[-1] if words else ""
        case = ("dat" if before in _DATIVE else "acc" if before in _ACCUSATIVE | _ACCUSATIVE_VERBS
                else "gen" if before in _GENITIVE else "")
        if not case and self._opens_order(m.string[max(0, m.start() - 80):m.start()]) \
                and self._instruction(m.string[m.end():m.end() + 160]):
            case = "acc"  # "1 EL der Masse … reiben", "Dann 1 l Wasser aufkochen": the object of a recipe's infinitive
        return case

    @staticmethod
    def _opens_order(before):
        """Whether an order starts right before: a sentence (nothing of it, or only an adverb of sequence: "Dann",
        "Inzwischen"), or a second order after an infinitive and "und" ("aufkochen und 1 Apfel schälen")."""
        words = re.split(r"[.!?:;]\s", " " + before)[-1].split()
        if len(words) > 1 and words[-1] == "und" and words[-2].islower() and words[-2].endswith(("en", "ern", "eln")) \
                and words[-2] not in _NOT_INFINITIVES:
            return True
        return all(w.rstrip(",").lower() in _SEQUENCE for w in words)

    def half_article(self, m, gender):
        """"ein halber", "einen halben", "einer halben": a half's article and adjective in the case around it."""
        case = self._case(m, context(m.string, m.start(), m.end()))
        return _HALF[case][gender]

    def _part_of_unit(self, m):
        """"aus 1/8 l" aus einem Achtel Liter: a part (a neuter noun) with its article in the dative; in the other
        cases the common reading ("ein Achtel Liter") stands."""
        if self._case(m, context(m.string, m.start(), m.end())) != "dat":
            return m.group(0)
        return f"einem {self.fraction(1, int(m.group(1))).removeprefix('ein ')} {self.units[m.group(2)][0]}"

    # "pro kg", "je m²": a unit's symbol after "pro" or "je" without a number is its name ("pro Kilogramm")
    _PER_UNIT = re.compile(r"\b([Pp]ro|[Jj]e)\s(kg|km|km²|m²|m³|cm|mm|ml|ha|kWh|MWh)(?![\w/²³]|[.,]\w)")

    consumption = "Liter auf hundert Kilometer"  # "5,6 l/100 km", `Spec.said_consumption`

    inch = ("Zoll", "Zoll")  # a screen's inches after a number ('6,1"', "27″"), `Spec.said_inches`

    def read_measures(self, text):
        text = self._unit_compound.sub(lambda m: f"-{self.units[m.group(1)][0]}-", text)
        text = self.said_inches(text)
        text = self.said_consumption(text)
        text = self._PER_UNIT.sub(lambda m: f"{m.group(1)} {self.units[m.group(2)][0]}", text)
        text = self._half_unit.sub(lambda m: f"{self.half_article(m, self.unit_gender(m.group(1)))} "
                                             f"{self.units[m.group(1)][0]}", text)  # "nimm 1/2 l": "einen halben Liter"
        text = self._part_unit.sub(self._part_of_unit, text)
        text = self._meters_centimeters.sub(lambda m: f"{'ein' if m.group(1) == '1' else self.cardinal(int(m.group(1)))}"
                                                      f" Meter {self.cardinal(int(m.group(2)))}", text)
        text = self._times_a.sub(lambda m: self.cardinal(int(m.group(1))) + "mal ", text)

        def one(m):  # "mit 1 kg": "mit einem Kilogramm"
            if m.group(1) != "1" or not self.is_unit(m):
                return m.group(0)
            case = self._case(m, context(m.string, m.start(), m.end()))
            gender, word = self.unit_gender(m.group(2)), self.units[m.group(2)][0]
            if case == "gen" and gender != "f" and not word.endswith(("s", "ß", "z", "x")):
                word += "s"  # "innerhalb 1 km": "innerhalb eines Kilometers"
            return f"{_ARTICLE[case][gender]} {word}" if case else m.group(0)
        if "1" in text:
            text = self._unit.sub(one, self._scaled_unit.sub(self._one_scaled, text))
        # A unit's dot that also ends the text ("ca. 25 Min.", "hält 10 Std."): the sentence's end is kept
        text = self._unit_dot_end.sub(r"\g<0>.", text)
        return super().read_measures(text)

    def _one_scaled(self, m):
        """"1 million kg": "eine million Kilogramm" (a scale noun is feminine), others left to `read_measures`."""
        if m.group(1) != "1":
            return m.group(0)
        scale = m.group(2)
        word = scale if scale[-1].isalpha() else self.scales.get(scale, (scale,))[0]
        if word.lower().endswith(("ionen", "iarden")):
            word = word[:-2] if word.lower().endswith("ionen") else word[:-1]  # "1 millionen": "eine million"
        return f"{'ein' if word.lower() == 'tausend' else 'eine'} {word} {self.units[m.group(3)][-1]}"

    @staticmethod
    def _governor(before):
        """In a list ("hat 2 Augen, 1 Nase und 1 Mund"), the preposition or verb the list's first member follows:
        the nearest one before, within the sentence."""
        seen_number = False  # a list of counted things: a number before ("2 Augen, 1 Nase"), not "einlegen und 1"
        for word in reversed(re.split(r"[.!?;:]", before)[-1].split()[-12:]):
            seen_number = seen_number or word[:1].isdigit()
            word = word.strip(",()\"'„“").lower()
            if word in _DATIVE or word in _ACCUSATIVE or word in _ACCUSATIVE_VERBS:
                return word if seen_number else ""
        return ""

    def _instruction(self, rest):
        """Whether the clause a sentence begins with ends in an infinitive, the way recipes and manuals give
        orders ("1 EL der Masse zwischen den Händen reiben, damit …"): then what it counts is its object."""
        clause = self._clause_end.split(rest, 1)[0].split()
        return (len(clause) > 1 and clause[-1].islower() and clause[-1].endswith(("en", "ern", "eln"))
                and clause[-1] not in _NOT_INFINITIVES and not _FINITE.intersection(clause))  # "1 Mann kann … sehen"

    def _counts(self, m):
        """Whether a number counts the noun after it ("1500 Menschen"), where a year stands before a verb, a
        preposition or a month ("1990 gesiegt", "1492 nach Amerika")."""
        ctx = context(m.string, m.start(), m.end())
        noun = ctx.word_after()
        return (ctx.touching in SPACES and noun[:1].isupper() and noun.isalpha() and noun not in self.sentence_starters
                and noun.casefold() not in self._month_index and ctx.word_before().casefold() not in _YEAR_BEFORE)

    def endings(self, text):
        """An ordinal's case ending from the word before it: -en after 'am', 'dem'..., -e after 'der'...,
        else the ending it was given (-r in a date, -s before 'Jahrhundert')."""
        if "\x01" not in text:
            return text

        last = [-1, ""]  # where the ordinal before ended, and its ending

        def said(m):
            word, ending = m.groups()
            before = self._word_before.search(m.string, max(0, m.start() - 40), m.start())
            before = before.group(1) if before else ""
            if before in ("und", "oder", "bis", "sowie", "bzw.", "beziehungsweise") and \
                    m.start() - last[0] <= len(before) + 2:
                ending = last[1]  # "am 1. und 2. Tag": "am ersten und zweiten Tag"
            elif before in _EN:
                ending = "n"
            elif before in _E or ending == "e":
                ending = ""
            last[:] = [m.end(), ending]
            return word + ending
        return self._ending.sub(said, text)


read = German().read
