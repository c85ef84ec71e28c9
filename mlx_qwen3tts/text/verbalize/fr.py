"""French as it is read: "12,50 €" as "douze euros cinquante", "1er" "premier", "2e" "deuxième", "XXe siècle"
"vingtième siècle", "Louis XIV" "Louis quatorze", "14h30" "quatorze heures trente", "n° 5" "numéro cinq"."""

import re

from .romance import Romance, with_plain_powers

MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
          "novembre", "décembre")

# Words after a number that are no noun counted though their ending looks like one's (adverbs, verbs).
ADVERBS = ("encore toujours jamais contre chaque toute toutes autre autres même vers sur sous aussi quand après "
           "avant environ aucune aucun cette cet ces ceci cela tout tous très bien")


class French(Romance):
    code = "fr"
    number_sign = "numéro"
    # "a gagné 3-1", "victoire 2:0": a score, "trois à un", after a word that tells a match
    score_word = "à"
    score_words = frozenset({"gagné", "gagne", "gagnent", "battu", "bat", "perdu", "perd", "victoire", "défaite",
                             "score", "match", "nul", "s'impose", "l'emporte", "vainqueur", "finale", "mené", "mène",
                             "s'est", "imposé", "résultat"})
    group = "."
    point, dot = "virgule", "point"
    fraction_digits = "number"
    minus, plus = "moins", "plus"
    months = MONTHS
    month_abbreviations = {"janv.": 0, "févr.": 1, "avr.": 3, "juil.": 6, "sept.": 8, "oct.": 9, "nov.": 10,
                           "déc.": 11}
    minor_said = False
    currencies = {"€": ("euro", "euros", "centime", "centimes"), "EUR": ("euro", "euros", "centime", "centimes"),
                  "$": ("dollar", "dollars", "cent", "cents"), "USD": ("dollar", "dollars", "cent", "cents"),
                  "US$": ("dollar américain", "dollars américains", "cent", "cents"),
                  "£": ("livre", "livres", "penny", "pence"),
                  "GBP": ("livre sterling", "livres sterling", "penny", "pence"),
                  "¥": ("yen", "yens", "sen", "sens"), "JPY": ("yen", "yens", "sen", "sens"),
                  "CHF": ("franc suisse", "francs suisses", "centime", "centimes"),
                  "₽": ("rouble", "roubles", "kopeck", "kopecks"), "R$": ("réal", "reais", "centavo", "centavos"),
                  "euros": ("euro", "euros", "centime", "centimes"), "euro": ("euro", "euros", "centime", "centimes"),
                  # the written forms of NeMo's French money grammar (data/money/currency_major.tsv, Apache 2.0)
                  "$ US": ("dollar américain", "dollars américains", "cent", "cents"),
                  "$ CA": ("dollar canadien", "dollars canadiens", "cent", "cents"),
                  "$ AU": ("dollar australien", "dollars australiens", "cent", "cents"),
                  "$ NZ": ("dollar néo-zélandais", "dollars néo-zélandais", "cent", "cents"),
                  "$ HK": ("dollar de Hong Kong", "dollars de Hong Kong", "cent", "cents"),
                  "₩": ("won", "wons", "chon", "chons"), "KRW": ("won", "wons", "chon", "chons"),
                  "DA": ("dinar algérien", "dinars algériens", "centime", "centimes"),
                  "DH": ("dirham marocain", "dirhams marocains", "centime", "centimes"),
                  "CAD": ("dollar canadien", "dollars canadiens", "cent", "cents"),
                  "CNY": ("yuan", "yuans", "fen", "fens"),
                  # the minor units written alone ("50 ¢", "25 cts") and the CFA franc of West and Central Africa
                  "¢": ("cent", "cents", "cent", "cents"), "cts": ("centime", "centimes", "centime", "centimes"),
                  "FCFA": ("franc CFA", "francs CFA", "centime", "centimes"),
                  "XOF": ("franc CFA", "francs CFA", "centime", "centimes"),
                  "XAF": ("franc CFA", "francs CFA", "centime", "centimes")}
    feminine_currencies = ("£", "GBP")
    halves = ("demi", "demie")
    law_short_years = False
    law_words = ("loi", "décret", "directive", "règlement", "arrêté", "ordonnance", "circulaire")
    currency_words = {w: names for names in (("dollar", "dollars", "cent", "cents"),
                                             ("franc", "francs", "centime", "centimes"))
                      for w in names[:2]}
    scales = {"millions": ("million", "millions"), "million": ("million", "millions"),
              "milliards": ("milliard", "milliards"), "milliard": ("milliard", "milliards"),
              "M": ("million", "millions"), "Md": ("milliard", "milliards"), "Mds": ("milliard", "milliards")}
    units = {"km": ("kilomètre", "kilomètres"), "kg": ("kilogramme", "kilogrammes"),
             "cm": ("centimètre", "centimètres"),
             "mm": ("millimètre", "millimètres"), "m": ("mètre", "mètres"), "g": ("gramme", "grammes"),
             "mg": ("milligramme", "milligrammes"), "t": ("tonne", "tonnes"), "l": ("litre", "litres"),
             "L": ("litre", "litres"), "ml": ("millilitre", "millilitres"), "cl": ("centilitre", "centilitres"),
             "min": ("minute", "minutes"), "s": ("seconde", "secondes"), "ms": ("milliseconde", "millisecondes"),
             "To": ("téraoctet", "téraoctets"), "Go": ("gigaoctet", "gigaoctets"), "Mo": ("mégaoctet", "mégaoctets"),
             "ko": ("kilooctet", "kilooctets"), "Ko": ("kilooctet", "kilooctets"), "GB": ("gigaoctet", "gigaoctets"),
             "MB": ("mégaoctet", "mégaoctets"), "°C": ("degré Celsius", "degrés Celsius"),
             "°F": ("degré Fahrenheit", "degrés Fahrenheit"), "°": ("degré", "degrés"),
             "km/h": ("kilomètre par heure", "kilomètres par heure"),
             "m/s": ("mètre par seconde", "mètres par seconde"),
             "m²": ("mètre carré", "mètres carrés"), "km²": ("kilomètre carré", "kilomètres carrés"),
             "m³": ("mètre cube", "mètres cubes"), "Hz": ("hertz", "hertz"), "kHz": ("kilohertz", "kilohertz"),
             "MHz": ("mégahertz", "mégahertz"), "GHz": ("gigahertz", "gigahertz"), "W": ("watt", "watts"),
             "kW": ("kilowatt", "kilowatts"), "kWh": ("kilowattheure", "kilowattheures"), "V": ("volt", "volts"),
             "ha": ("hectare", "hectares")}
    units = {**units, "mph": ("mile par heure", "miles par heure"),
             "kph": ("kilomètre par heure", "kilomètres par heure"),
             "µm": ("micromètre", "micromètres"), "mn": ("minute", "minutes"), "h": ("heure", "heures"),
             "sec.": ("seconde", "secondes"), "hab.": ("habitant", "habitants"),
             "dL": ("décilitre", "décilitres"), "dl": ("décilitre", "décilitres"),
             "Kio": ("kibioctet", "kibioctets"), "Mio": ("mébioctet", "mébioctets"), "Gio": ("gibioctet", "gibioctets"),
             "Tio": ("tébioctet", "tébioctets"), "Kibit": ("kibibit", "kibibits"), "Mibit": ("mébibit", "mébibits"),
             "cL": ("centilitre", "centilitres"), "mL": ("millilitre", "millilitres"),
             "kcal": ("kilocalorie", "kilocalories"), "lb": ("livre", "livres"),
             "cm²": ("centimètre carré", "centimètres carrés"), "mm²": ("millimètre carré", "millimètres carrés"),
             "cm³": ("centimètre cube", "centimètres cubes"), "mm³": ("millimètre cube", "millimètres cubes"),
             "dm³": ("décimètre cube", "décimètres cubes"), "km³": ("kilomètre cube", "kilomètres cubes"),
             "m/h": ("mètre à l'heure", "mètres à l'heure"),
             "dm": ("décimètre", "décimètres"), "dam": ("décamètre", "décamètres"), "hm": ("hectomètre", "hectomètres"),
             "nm": ("nanomètre", "nanomètres"), "ft": ("pied", "pieds"), "yd": ("yard", "yards"),
             "oz": ("once", "onces"), "gal": ("gallon", "gallons"),
             "kbit": ("kilobit", "kilobits"), "Mbit": ("mégabit", "mégabits"), "Gbit": ("gigabit", "gigabits"),
             "bar": ("bar", "bars"), "Pa": ("pascal", "pascals"), "hPa": ("hectopascal", "hectopascals"),
             "kPa": ("kilopascal", "kilopascals"), "kJ": ("kilojoule", "kilojoules"), "cal": ("calorie", "calories"),
             "µs": ("microseconde", "microsecondes"), "ns": ("nanoseconde", "nanosecondes"),
             "mA": ("milliampère", "milliampères"), "Ω": ("ohm", "ohms"), "dB": ("décibel", "décibels"),
             "mol": ("mole", "moles"), "ppm": ("partie par million", "parties par million"),
             "MW": ("mégawatt", "mégawatts"), "GW": ("gigawatt", "gigawatts"), "mV": ("millivolt", "millivolts"),
             "kV": ("kilovolt", "kilovolts"), "lm": ("lumen", "lumens"),
             **dict.fromkeys(("c. à soupe", "c. à s.", "càs", "cuil. à soupe", "c. s."),
                             ("cuillère à soupe", "cuillères à soupe")),
             **dict.fromkeys(("c. à café", "c. à c.", "càc", "cuil. à café", "c. c."),
                             ("cuillère à café", "cuillères à café"))}
    # a square or cube written with a plain figure, as ads write it ("90 m2"); a battery's charge ("4.000 mAh")
    units = {**with_plain_powers(units),
             "mAh": ("milliampère-heure", "milliampères-heures"), "MP": ("mégapixel", "mégapixels")}
    feminine_units = ("t", "min", "s", "sec.", "ms", "lb", "oz", "cal", "µs", "ns", "mol", "ppm")
    percent = "pour cent"
    scale_nouns = ("million", "millions", "milliard", "milliards")
    and_word, half, day_one = "et", "et demi", "premier"
    range_word = "à"
    articles = ("le", "la", "les", "du", "des", "au", "aux", "un", "une", "son", "sa", "ce", "cette")
    degrees_after = ("à", "jusqu", "entre")
    degrees_before = ("pendant", "jusqu", "pour", "avec", "environ", "durant")
    degree_words = ("température", "maximale", "minimale", "four", "degrés", "chaleur", "froid")
    degrees_joins = ("et", "ou", "à", "en")
    ordinal_marks = {"er": "m", "re": "f", "ère": "f", "e": "m", "ème": "m", "è": "m", "nd": "m", "nde": "f",
                     "de": "f"}
    ordinal_marks = {**ordinal_marks, **{mark + "s": gender for mark, gender in ordinal_marks.items()}}  # "1ers"
    # Superscript letters as the letters they raise: "1ᵉʳ", "XIXᵉ siècle", "Mᵐᵉ", "2ᵈᵉˢ".
    _SUPERSCRIPTS = str.maketrans("ᵉʳˢᵈᵐˡⁿᵒ", "ersdmlno")
    _RAISED = re.compile(r"(?<=[\dIVXLCDMA-Za-z])[ᵉʳˢᵈᵐˡⁿᵒ]+(?![\w])")
    gender_endings = (("tion", "f"), ("tions", "f"), ("sion", "f"), ("sions", "f"), ("ette", "f"), ("ettes", "f"),
                      ("ment", "m"), ("ments", "m"), ("isme", "m"), ("ismes", "m"))
    singular_endings = (("aux", "al"), ("x", ""), ("s", ""))
    not_nouns = frozenset(ADVERBS.split() + "de du des à au aux en et ou que par pour avec sans sur sous entre jusqu dans fois pour "
                          "cent mille le la les un une ne pas plus moins".split())
    # units after a number (`units`), not said by the abbreviations pass
    in_context = ("c. à soupe", "c. à café", "c. à s.", "c. à c.", "cuil. à soupe", "cuil. à café")
    number_abbreviations = {"n°": "numéro", "N°": "numéro", "nº": "numéro", "no": "numéro", "p.": "page",
                            "pp.": "pages", "vol.": "volume", "chap.": "chapitre", "fig.": "figure", "art.": "article",
                            "tél.": "téléphone", "§": "paragraphe"}
    name_abbreviations = {"M.": "Monsieur", "MM.": "Messieurs", "Mme": "Madame", "Mmes": "Mesdames",
                          "Mlle": "Mademoiselle", "Dr": "docteur", "Pr": "professeur", "St": "Saint", "Ste": "Sainte"}
    roman_before = ("chapitre", "Chapitre", "tome", "Tome", "partie", "Partie", "acte", "Acte", "livre", "Livre",
                    "article", "Article", "titre", "Titre", "annexe", "Annexe")
    roman_after = ("siècle", "siècles", "millénaire", "arrondissement")
    # Capitalized words a roman numeral follows as a label, not as a ruler's number ("System V", "Type II").
    not_names = frozenset({"System", "Système", "Windows", "Type", "Version", "Modèle", "Level", "Niveau"})
    symbols = {"±": "plus ou moins", "×": "fois", "→": "vers", "&": "et", "§": "paragraphe", "≈": "environ",
               "≤": "inférieur ou égal à", "≥": "supérieur ou égal à", "−": "moins", "°": "degrés", "½": "un demi",
               "¼": "un quart", "¾": "trois quarts", "~": "environ", "‰": "pour mille"}
    per_word = "par"
    unit_scales = "mille"  # "3 mille km": the unit after the thousands read
    unit_after_words = ("par", "le", "du", "au", "chaque")  # "por kg", "le kg": the unit's name
    week_days = {"lun": "lundi", "Lun": "lundi", "mar": "mardi", "Mar": "mardi", "mer": "mercredi",
                 "Mer": "mercredi", "jeu": "jeudi", "Jeu": "jeudi", "ven": "vendredi", "Ven": "vendredi",
                 "sam": "samedi", "Sam": "samedi", "dim": "dimanche", "Dim": "dimanche", "lundi": "lundi",
                 "Lundi": "lundi", "mardi": "mardi", "Mardi": "mardi", "mercredi": "mercredi",
                 "Mercredi": "mercredi", "jeudi": "jeudi", "Jeudi": "jeudi", "vendredi": "vendredi",
                 "Vendredi": "vendredi", "samedi": "samedi", "Samedi": "samedi", "dimanche": "dimanche",
                 "Dimanche": "dimanche"}
    week_span = ("du", "au")
    inch = ("pouce", "pouces")
    per_time = {"s": "par seconde", "sec": "par seconde", "min": "par minute", "h": "par heure", "j": "par jour",
                "jour": "par jour"}
    day_parts = ("du soir", "de l'après-midi")
    round_the_clock = "vingt-quatre heures sur vingt-quatre, sept jours sur sept"
    times_word, equals_word = "fois", "égale"
    fractions = {(1, 2): "un demi", (1, 3): "un tiers", (2, 3): "deux tiers", (1, 4): "un quart",
                 (3, 4): "trois quarts"}
    _pairs = re.compile(r"(?<![\w.,])0\d(?:[ .\u00a0]\d\d){4}(?![\w]|[.,]\d)")
    _hours = re.compile(r"(?<![\w.,:/])([01]?\d|2[0-3])\s?h\s?([0-5]\d)?(?![\w])")

    def __init__(self):
        super().__init__()
        # lower-case words that may start a sentence before a date ("Le 17.06"): no name before a version
        self.function_words = self.not_nouns | set(self.articles) | {"dès", "depuis", "avant", "après"}
        # "%C siècle" (a format's code, as date(1) documents it) is no roman numeral
        self._roman_after = re.compile(r"(?<!%)" + self._roman_after.pattern)

    def feminine(self, said):
        return re.sub(r"\bun$", "une", said)

    def ordinal(self, n, gender="m", mark=""):
        gender = self.ordinal_marks.get(mark, gender)
        plural = "s" if mark.endswith("s") else ""
        if n == 1:
            return ("première" if gender == "f" else "premier") + plural
        if mark.rstrip("s") in ("nd", "nde", "d", "de"):
            return ("seconde" if gender == "f" else "second") + plural
        return self.n2w(n, "ordinal") + plural

    def n2w(self, value, to="cardinal", **extra):
        said = super().n2w(value, to, **extra)
        # num2words keeps the plural s of "quatre-vingts", "deux cents" before "-ième": "quatre-vingtième"
        return re.sub(r"(vingt|cent)sième", r"\1ième", said) if to == "ordinal" else said

    # Titles said wherever they stand, not only before a name ("Mme", "Mᵐᵉˢ"); "c-à-d".
    _TITLES = {"Mme": "madame", "Mmes": "mesdames", "Mlle": "mademoiselle", "Mlles": "mesdemoiselles",
               "Dr": "docteur", "Drs": "docteurs", "Dre": "docteure", "Dres": "docteures", "c-à-d": "c'est-à-dire"}
    _TITLE = re.compile(r"(?<![\w-])(Mmes|Mlles|Mme|Mlle|Dres|Drs|Dre|Dr|c-à-d)(?![\w-])")
    # "le hon." "l'honorable", "le très hon." "le très honorable": the title of a minister or a judge.
    _HONOURABLE = re.compile(r"\b(?:([Ll]e) )?hon\.")
    # "%" standing alone, no number before it ("le symbole %"); "50 %" is the percent pass's.
    _PERCENT_ALONE = re.compile(r"(?<!\S)%(?!\S)")

    _SAINT = re.compile(r"\b(St|Ste)-(?=[A-ZÀ-ÖØ-Þ])")  # "St-Denis", "la Ste-Marie": Saint-, Sainte-

    def read_abbreviations(self, text):
        text = self._SAINT.sub(lambda m: "Saint-" if m.group(1) == "St" else "Sainte-", text)
        text = self._HONOURABLE.sub(lambda m: "l'honorable" if m.group(1) else "honorable", text)
        text = self._PERCENT_ALONE.sub(self.percent, text)
        return self._TITLE.sub(lambda m: self._TITLES[m.group(1)], super().read_abbreviations(text))

    # A decimal's figures grouped by three with spaces after the comma ("3,141 592", "60,240 0"): one number. Its
    # figures after the comma are said one by one, as a long decimal typeset so is read (NeMo's French decimal
    # grammar writes "moins soixante virgule deux quatre zéro zéro" so); before a unit or a currency they are joined
    # and read as any decimal is.
    _SPACED_FRACTION = re.compile(r"(?<=\d,\d{3})[ \u00a0\u202f](?=\d{1,3}(?![\d,]))")
    _SPACED_DECIMAL = re.compile(r"(?:(?<![\w.,])([-−+]))?(?<![\w.,])(\d{1,3}(?:[ \u00a0\u202f]\d{3})*),"
                                 r"(\d{3}(?:[ \u00a0\u202f]\d{3})*[ \u00a0\u202f]\d{1,3})(?![\d,])")

    def spaced_decimal(self, m):
        after = re.match(r"[ \u00a0]?([^\W\d_][\w/²³]*|[€$£%°])", m.string[m.end():])
        if after and (after.group(1) in self.units or after.group(1) in self.currencies
                      or after.group(1) in self.scales or after.group(1) in "%°"):
            return m.group(0)
        sign = {"+": self.plus + " ", None: ""}.get(m.group(1), self.minus + " ")
        return f"{sign}{self.cardinal(self.value(m.group(2))[0])} {self.point} {self.digits(m.group(3))}"
    # A decade written the English way ("les 80s") is said so, as French speakers borrow it: "les eighties".
    _DECADE = re.compile(r"(?<![\w.,])([2-9])0s(?![\w'’])")
    DECADES = {"2": "twenties", "3": "thirties", "4": "forties", "5": "fifties", "6": "sixties", "7": "seventies",
               "8": "eighties", "9": "nineties"}

    # "de", "que" elide before "un"/"une" counting a noun ("de 1 €" "d'un euro", "que 1 personne" "qu'une personne",
    # "de 1 h à 2 h" "d'une heure", 'de 1"' "d'un pouce"); a number said as itself keeps them ("de 1 à 5" "de un à
    # cinq", "de 1,5").
    _ELIDED = re.compile(r"\b([Dd]e|[Qq]ue|[Jj]usque|[Ll]orsque|[Pp]uisque) 1(?=[ \u00a0]"
                         r"(?!(?:à|a|et|ou|sur|sont)\b|k[€$£])[^\W\d_]|[ \u00a0]?(?:[€$£%°″\"]|'')|h\d|h\b)")

    # "fois" counted is feminine ("1 fois par jour" "une fois", "21 fois" "vingt et une fois"); before a number it
    # is the product's "times" ("3 fois 4"), no noun, as `not_nouns` holds it.
    _TIMES_COUNTED = re.compile(r"(?<![\w.,])(?<!\d[ \u00a0])(\d{1,3}) fois(?![ \u00a0]*[\d(])")

    # Opening hours: "9h-18h", "9-18h" from one hour to another ("neuf heures à dix-huit heures"); "24h/24",
    # "7j/7" all the hours of the day, all its days ("vingt-quatre heures sur vingt-quatre", "sept jours sur sept").
    _HOURS_RANGE = re.compile(r"(?<![\w.,:/])(\d{1,2}(?:\s?h(?:\s?[0-5]\d)?)?)\s?[-–]\s?(?=\d{1,2}\s?h(?![^\W\d]))")
    _ROUND = re.compile(r"(?<![\w.,/])(24\s?h|7\s?j)\s?/\s?(24|7)(?![\w/])")

    def round_period(self, m):
        n, period = (24, "heures") if m.group(1).startswith("24") else (7, "jours")
        return f"{self.cardinal(n)} {period} sur {self.cardinal(n)}" if int(m.group(2)) == n else m.group(0)

    def read(self, text):
        def lowered(m):
            plain = m.group(0).translate(self._SUPERSCRIPTS)
            return "n" + plain if plain[0] == "d" else plain  # "2ᵈ" as "2nd"
        text = self._SPACED_DECIMAL.sub(self.spaced_decimal, text)
        while self._SPACED_FRACTION.search(text):
            text = self._SPACED_FRACTION.sub("", text)
        text = self._DECADE.sub(lambda m: self.DECADES[m.group(1)], text)
        text = self._ELIDED.sub(lambda m: m.group(1)[:-1] + "'1", text)
        text = self._ROUND.sub(self.round_period, text)
        text = self._HOURS_RANGE.sub(r"\1 à ", text)
        text = self._TIMES_COUNTED.sub(lambda m: f"{self.cardinal(int(m.group(1)), 'f')} fois", text)
        return super().read(self._RAISED.sub(lowered, text))

    def fraction_part(self, digits):
        """Four figures or more after the comma, read in pairs as French speakers do ("24,1313" "vingt-quatre
        virgule treize treize", "2400" "vingt-quatre zéro zéro"); fewer, as one number ("0,181")."""
        if len(digits) < 4 or digits[0] == "0":
            return super().fraction_part(digits)
        pairs = [digits[i:i + 2] for i in range(0, len(digits), 2)]
        return " ".join(self.cardinal(int(p)) if p[0] != "0" else self.digits(p) for p in pairs)

    # "17.06": a day and a month (two figures) with a dot; not a version after a name ("Ubuntu 18.04").
    _DOTTED_DAY = re.compile(r"(?<![\w.,/-])(0?[1-9]|[12]\d|3[01])\.(0[1-9]|1[0-2])(?![\w.,/-]|\s?(?:%|°|€|\$|£))")
    _NAME_BEFORE = re.compile(r"\b([A-Z][\w-]*|versions?|v)\s$")

    def read_dates(self, text):
        text = super().read_dates(text)

        def said(m):
            after = re.match(r"\s?([^\W\d_][\w/²³]*)", m.string[m.end():])
            name = self._NAME_BEFORE.search(m.string[max(0, m.start() - 30):m.start()])
            if after and after.group(1) in self.units or name and name.group(1).casefold() not in self.function_words:
                return m.group(0)  # "1.05 kg": a decimal written the English way; "Ubuntu 18.04" a version
            return self.date(int(m.group(1)), int(m.group(2)), None)
        return self._DOTTED_DAY.sub(said, text)

    def regnal_number(self, value):
        return "premier" if value == 1 else self.cardinal(value)

    def date(self, day, month, year):
        said = f"{'premier' if day == 1 else self.cardinal(day)} {self.months[month - 1]}"
        return said + (f" {self.year(year)}" if year else "")

    def time(self, hours, minutes, seconds, half=True, quarters=False):
        """Half past an hour of the twelve-hour range is "et demie" ("11 h 30" "onze heures et demie"), of the
        afternoon's hours "trente" ("14h30" "quatorze heures trente"), and after a 24-hour time said on the twelve
        hours of its "du soir" (`half` False: "18:30 du soir" "six heures trente du soir"). Written spaced with "h"
        as typeset French and NeMo's French time grammar write it (`quarters`), a quarter past an hour of that range
        is "et quart" and a quarter to one "moins le quart" ("9 h 15" "neuf heures et quart", "10 h 45" "onze heures
        moins le quart"); a clock's "9:15" and "9h15" keep their minutes ("neuf heures quinze")."""
        said = f"{self.cardinal(hours, 'f')} heure{'s' if hours > 1 else ''}"
        if seconds is not None:
            return (said + f" {self.cardinal(minutes, 'f')} minute{'s' if minutes > 1 else ''}"
                    f" {self.cardinal(seconds, 'f')} seconde{'s' if seconds > 1 else ''}")
        if 0 < hours <= 12 and half and (minutes == 30 or minutes == 15 and quarters):
            return said + (" et demie" if minutes == 30 else " et quart")
        if minutes == 45 and 0 < hours < 12 and quarters:  # "10 h 45": "onze heures moins le quart"
            return ("midi" if hours == 11 else self.time(hours + 1, 0, None)) + " moins le quart"
        return said + (f" {self.cardinal(minutes, 'f')}" if minutes else "")

    # A price with its currency's sign between the units and the cents, as French prices are often written
    # ("3€50", "12 € 90"): "trois euros cinquante"; spaced, not where a word follows ("2 € 30 fois").
    _SIGN_BETWEEN = re.compile(r"(?<![\w.,])(\d{1,3}(?:[ \u00a0\u202f.]\d{3})*)\s?(€|\$|£)(?:\s(?=\d{2}(?![\w]|[.,]\d|"
                               r"\s+[^\W\d_])))?(\d{2})(?![\w]|[.,]\d)")

    # The same with the currency's name ("2 euros 50 le kilo", "3 dollars 20"): "deux euros cinquante"; not before
    # "fois" or a unit, which the number after counts ("2 euros 30 fois", "5 euros 50 kg").
    _WORD_BETWEEN = re.compile(r"(?<![\w.,])(\d{1,3}(?:[ \u00a0\u202f.]\d{3})*) (euros?|dollars?|francs?) (\d{2})"
                               r"(?![\w]|[.,]\d)")

    def word_between(self, m):
        after = re.match(r"[ \u00a0]?([^\W\d_][\w/²³]*)", m.string[m.end():])
        if after and (after.group(1) == "fois" or after.group(1) in self.units):
            return m.group(0)
        return self.money(f"{m.group(1)},{m.group(3)}", m.group(2), None)

    # A price written with the English decimal point before its sign ("12.50 $", "9.5 €"): one or two figures after
    # the dot are cents (a thousands group has three), said as "12,50 $" is.
    _DOTTED_PRICE = re.compile(r"(?<![\w.,])(\d+)\.(\d{1,2})[ \u00a0]?(€|\$|£)(?![\w$])")

    # A currency's sign after a scale's noun and "de" ("3,5 millions de €"): its name, elided ("millions d'euros").
    _SCALE_OF_SIGN = re.compile(r"\b(millions?|milliards?|billions?) de (€|\$|£)(?![\w$])")

    def money(self, amount, currency, scale):
        """A scale's noun takes the plural s from two on, as every French noun: "1,5 M€" "un virgule cinq million
        d'euros" (as "1,5 million d'euros" is written), "2,5 M€" "deux virgule cinq millions d'euros"."""
        said = super().money(amount, currency, scale)
        if scale and self.value(amount.lstrip("-−+"))[0] < 2:
            singular, plural = self.scales[scale]
            said = said.replace(f" {plural} ", f" {singular} ", 1)
        return said

    # Thousands of a currency ("50 k€", "1,5 k€"), as business French writes them: "cinquante mille euros".
    _KILO = re.compile(r"(?<![\w.,])(\d{1,3})(?:,(\d{1,3}))?[ \u00a0]?k(€|\$|£)(?![\w$])")

    def kilo_amount(self, m):
        thousands = int(m.group(1)) * 1000 + int((m.group(2) or "0").ljust(3, "0"))
        return self.money(str(thousands), m.group(3), None)

    # A price per a period or a head ("15 €/mois", "30 $/personne"): "par mois"; a unit's ("€/kWh") is a measure's.
    _PER_PERIOD = re.compile(r"(?<=[€$£])\s?/\s?(mois|an|ans|année|jour|semaine|nuit|nuitée|personne|pers\.?|"
                             r"adulte|enfant|repas|séance|unité|pièce|tête|page)(?![\w])")

    def read_money(self, text):
        text = self._PER_PERIOD.sub(lambda m: " par " + ("personne" if m.group(1).startswith("pers") and
                                                          len(m.group(1)) < 6 else m.group(1)), text)
        text = self._KILO.sub(self.kilo_amount, text)
        text = self._SCALE_OF_SIGN.sub(lambda m: f"{m.group(1)} {self.of(self.currencies[m.group(2)][1])}", text)
        text = self._SIGN_BETWEEN.sub(lambda m: self.money(f"{m.group(1)},{m.group(3)}", m.group(2), None), text)
        text = self._WORD_BETWEEN.sub(self.word_between, text)
        text = self._DOTTED_PRICE.sub(lambda m: self.money(f"{m.group(1)},{m.group(2)}", m.group(3), None), text)
        return super().read_money(text)

    consumption = "litres aux cent kilomètres"  # "5,6 l/100 km", `Spec.said_consumption`

    def read_measures(self, text):
        text = self.said_consumption(text)
        # a unit per another ("30 kg/m³", "3 t/ha"): "trente kilogrammes par mètre cube"
        text = self._compound.sub(lambda m: self.compound(m) if m.group(2) else m.group(0), text)
        return super().read_measures(text)

    # A French number in the international form ("+33 1 23 45 67 89", "+33 (0)6 12 34 56 78", "+33612345678"): the
    # country's code and the first figure as numbers, then the pairs, as the national form is said ("plus
    # trente-trois, un, vingt-trois, ...").
    _INTERNATIONAL = re.compile(r"(?<![\w+])\+(33|262|590|594|596|687|689)[ \u00a0.]?(?:\(0\)[ \u00a0]?)?([1-9])"
                                r"((?:[ .\u00a0]?\d\d){4})(?![\w]|[.,]\d)")

    def pair(self, p):
        return f"{self.cardinal(0)} {self.cardinal(int(p[1]))}" if p[0] == "0" else self.cardinal(int(p))

    def international(self, m):
        said = [f"{self.plus} {self.cardinal(int(m.group(1)))}", self.cardinal(int(m.group(2)))]
        return ", ".join(said + [self.pair(p) for p in re.findall(r"\d\d", m.group(3))])

    # "Tél. : 01 23 …", "tel. 06 …": the telephone's abbreviation before its number
    _PHONE_LABEL = re.compile(r"\b([Tt])[ée]l\.(\s?:?\s?)(?=[+(]?\d)")

    def read_telephones(self, text):
        text = self._PHONE_LABEL.sub(lambda m: m.group(1) + "éléphone" + (m.group(2) or " "), text)
        text = self._INTERNATIONAL.sub(self.international, text)
        text = self._pairs.sub(lambda m: ", ".join(self.pair(p) for p in re.findall(r"\d\d", m.group(0))), text)
        return super().read_telephones(text)

    # "0 h", "0 h 17": midnight, as it is said ("minuit dix-sept"); "00:00", "00h00", a clock's display, keep
    # "zéro heure" (the form of timetables and decrees).
    _MIDNIGHT = re.compile(r"(?<![\w.,:/])0\s?h(?:\s?([0-5]\d))?(?![\w])")
    _CAPITAL_H = re.compile(r"(?<![\w.,:/])([01]?\d|2[0-3])H([0-5]\d)(?![\w])")  # "9H30", as "9h30"

    def midnight(self, minutes):
        """Midnight and its minutes; half past it "et demi" (minuit is masculine: "minuit et demi")."""
        return "minuit" + (" et demi" if minutes == 30 else f" {self.cardinal(minutes, 'f')}" if minutes else "")

    # A duration in hours and minutes ("1 h 30 min", "2h05min"): "une heure trente minutes", no clock's half past.
    _DURATION = re.compile(r"(?<![\w.,:/])(\d{1,3})\s?h\s?([0-5]?\d)\s?min(?![\w])")

    def duration(self, m):
        hours, minutes = int(m.group(1)), int(m.group(2))
        return (f"{self.cardinal(hours, 'f')} heure{'s' if hours > 1 else ''} "
                f"{self.cardinal(minutes, 'f')} minute{'s' if minutes > 1 else ''}")

    def read_times(self, text):
        text = self._DURATION.sub(self.duration, text)
        text = self._CAPITAL_H.sub(r"\1h\2", text)
        text = self._MIDNIGHT.sub(lambda m: self.midnight(int(m.group(1) or 0)), text)
        text = self._afternoon.sub(lambda m: self.time(int(m.group(1)) - 12, int(m.group(2)),
                                                       int(m.group(3)) if m.group(3) else None, half=False), text)
        text = super().read_times(text)
        return self._hours.sub(lambda m: self.time(int(m.group(1)), int(m.group(2) or 0), None,
                                                   quarters=" h " in m.group(0)), text)

    def plural_index(self, written):
        """Zero counts in the singular in French, as one does: "0 €" "zéro euro", "0 point" "zéro point"."""
        whole, fraction = self.value(written.lstrip("-−+"))
        return 0 if whole <= 1 and not fraction else 1

    def plural_of(self, word):
        return word + "s"

    # A mark out of a scale after a word that tells one ("une note de 15/20", "noté 8/10"): "quinze sur vingt"
    _MARK = re.compile(r"\b((?i:note|notes|noté|notée|notés|notées|moyenne|obtenu|obtient|score|évalué|évaluée)"
                       r"(?:\s?(?:est|était|de|à|:))*\s)(\d{1,3}(?:,\d)?)\s?/\s?(10|20|100)(?![\w/]|[.,]\d)")

    def read_fractions(self, text):
        text = self._MARK.sub(lambda m: f"{m.group(1)}{self.number(m.group(2))} sur {self.cardinal(int(m.group(3)))}",
                              text)
        return super().read_fractions(text)

    def fraction(self, numerator, denominator):
        name = {2: "demi", 3: "tiers", 4: "quart"}.get(denominator)
        if name and (numerator, denominator) not in self.fractions:
            plural = name if name.endswith("s") or numerator == 1 else name + "s"
            return f"{self.cardinal(numerator, 'm')} {plural}"
        return super().fraction(numerator, denominator)

    def half_of(self, half, noun):
        return f"{'un' if half == 'demi' else 'une'} demi-{noun}"

    def of(self, noun):
        return f"d'{noun}" if noun[0] in "aeiouéèh" else f"de {noun}"


read = French().read
