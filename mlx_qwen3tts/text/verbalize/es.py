"""Spanish as it is read: "1.º" "primero", "1.ª" "primera", "12,50 €" "doce euros con cincuenta céntimos",
"5 de mayo de 2024", "siglo XX" "siglo veinte", "Felipe II" "Felipe segundo", "p. ej." "por ejemplo"."""

import re
import unicodedata

from .common import roman_value, sentence_dot
from .romance import DATA, Romance, with_plain_powers

MONTHS = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
          "noviembre", "diciembre")

# Words after a number that are no noun counted though their ending looks like one's (adverbs, verbs).
ADVERBS = ("ahora nunca siempre fuera contra cada toda todas mucha muchas poca pocas otra otras misma hacia sobre "
           "pero todo todos mucho muchos poco pocos otro otros mismo solo sólo tampoco también luego nada algo "
           "cerca encima debajo apenas casi entonces tanto tanta cuanto cuando donde esta este esto esa ese eso "
           "aquella aquel ninguna ninguno alguna alguno cuya cuyo todavía indica significa representa equivale "
           "muestra queda era está")


class Spanish(Romance):
    code = "es"
    number_sign = "número"
    # "ganó 3-1", "empate 2:2": a score, "tres a uno", after a word that tells a match
    score_word = "a"
    score_words = frozenset({"ganó", "gana", "ganaron", "ganar", "venció", "vence", "vencieron", "perdió", "pierde",
                             "perdieron", "empató", "empata", "empate", "goleó", "derrotó", "victoria", "derrota",
                             "triunfo", "marcador", "resultado", "partido", "final", "cayó", "cayeron", "remontó",
                             "terminó", "acabó", "gol"})
    point, dot = "coma", "punto"
    fraction_digits = "number"
    minus, plus = "menos", "más"
    months = MONTHS
    month_abbreviations = {"ene.": 0, "feb.": 1, "mar.": 2, "abr.": 3, "may.": 4, "jun.": 5, "jul.": 6, "ago.": 7,
                           "sep.": 8, "sept.": 8, "oct.": 9, "nov.": 10, "dic.": 11}
    joiner = " con "
    currencies = {"€": ("euro", "euros", "céntimo", "céntimos"), "EUR": ("euro", "euros", "céntimo", "céntimos"),
                  "$": ("dólar", "dólares", "centavo", "centavos"),
                  "USD": ("dólar estadounidense", "dólares estadounidenses", "centavo", "centavos"),
                  "US$": ("dólar estadounidense", "dólares estadounidenses", "centavo", "centavos"),
                  "£": ("libra", "libras", "penique", "peniques"),
                  "GBP": ("libra esterlina", "libras esterlinas", "penique", "peniques"),
                  "¥": ("yen", "yenes", "centavo", "centavos"),
                  "JPY": ("yen", "yenes", "centavo", "centavos"),
                  "CHF": ("franco suizo", "francos suizos", "céntimo", "céntimos"),
                  "₽": ("rublo", "rublos", "kopek", "kopeks"), "R$": ("real", "reales", "centavo", "centavos"),
                  "MXN": ("peso", "pesos", "centavo", "centavos")}
    feminine_currencies = ("£", "GBP")
    halves = ("medio", "media")
    law_words = ("ley", "leyes", "decreto", "real decreto", "orden", "directiva", "reglamento", "sentencia",
                 "resolución", "instrucción", "circular")
    currency_words = {w: names for names in (("euro", "euros", "céntimo", "céntimos"),
                                             ("dólar", "dólares", "centavo", "centavos"),
                                             ("peso", "pesos", "centavo", "centavos"),
                                             ("libra", "libras", "penique", "peniques"),
                                             ("sol", "soles", "céntimo", "céntimos"),
                                             ("peseta", "pesetas", "céntimo", "céntimos"))
                      for w in names[:2]}
    currency_words.update(dict.fromkeys(("pta", "pts", "ptas"), currency_words["pesetas"]))
    scales = {"millones": ("millón", "millones"), "millón": ("millón", "millones"),
              "billones": ("billón", "billones"), "billón": ("billón", "billones"),
              "mil millones": ("mil millones", "mil millones"), "mil": ("mil", "mil")}
    units = {"km": ("kilómetro", "kilómetros"), "kg": ("kilogramo", "kilogramos"), "cm": ("centímetro", "centímetros"),
             "mm": ("milímetro", "milímetros"), "m": ("metro", "metros"), "g": ("gramo", "gramos"),
             "mg": ("miligramo", "miligramos"), "t": ("tonelada", "toneladas"), "l": ("litro", "litros"),
             "L": ("litro", "litros"), "ml": ("mililitro", "mililitros"), "h": ("hora", "horas"),
             "min": ("minuto", "minutos"), "s": ("segundo", "segundos"), "ms": ("milisegundo", "milisegundos"),
             "TB": ("terabyte", "terabytes"), "GB": ("gigabyte", "gigabytes"), "MB": ("megabyte", "megabytes"),
             "kB": ("kilobyte", "kilobytes"), "KiB": ("kibibyte", "kibibytes"), "MiB": ("mebibyte", "mebibytes"),
             "GiB": ("gibibyte", "gibibytes"), "°C": ("grado Celsius", "grados Celsius"),
             "°F": ("grado Fahrenheit", "grados Fahrenheit"), "°": ("grado", "grados"),
             "°K": ("grado kelvin", "grados kelvin"),
             "km/h": ("kilómetro por hora", "kilómetros por hora"), "m/s": ("metro por segundo", "metros por segundo"),
             "m²": ("metro cuadrado", "metros cuadrados"), "km²": ("kilómetro cuadrado", "kilómetros cuadrados"),
             "m³": ("metro cúbico", "metros cúbicos"), "Hz": ("hercio", "hercios"),
             "MHz": ("megahercio", "megahercios"),
             "GHz": ("gigahercio", "gigahercios"), "W": ("vatio", "vatios"), "kW": ("kilovatio", "kilovatios"),
             "kWh": ("kilovatio hora", "kilovatios hora"), "V": ("voltio", "voltios"), "ha": ("hectárea", "hectáreas")}
    units = {**units, "mph": ("milla por hora", "millas por hora"),
             "kph": ("kilómetro por hora", "kilómetros por hora"),
             "µm": ("micrómetro", "micrómetros"), **dict.fromkeys(("gr", "gr.", "grs."), ("gramo", "gramos")),
             "seg.": ("segundo", "segundos"), "hab.": ("habitante", "habitantes"),
             **dict.fromkeys(("cda.", "cdas.", "cda", "cdas"), ("cucharada", "cucharadas")),
             **dict.fromkeys(("cdta.", "cdtas.", "cdta", "cdtas", "cdita.", "cditas."),
                             ("cucharadita", "cucharaditas")),
             "cc": ("centímetro cúbico", "centímetros cúbicos"), "dl": ("decilitro", "decilitros"),
             "cl": ("centilitro", "centilitros"), "kcal": ("kilocaloría", "kilocalorías"),
             "ud.": ("unidad", "unidades"), "uds.": ("unidad", "unidades"),
             # as NeMo's Spanish measure tables have them
             "gsm": ("gramo por metro cuadrado", "gramos por metro cuadrado"), "PB": ("petabyte", "petabytes"),
             "psi": ("p s i", "p s i")}
    # a square or cube written with a plain figure, as ads write it ("90 m2"); a battery's charge ("4.000 mAh")
    units = {**with_plain_powers(units),
             "mAh": ("miliamperio hora", "miliamperios hora"), "MP": ("megapíxel", "megapíxeles"),
             "dorm.": ("dormitorio", "dormitorios")}
    feminine_units = ("t", "h", "ha")
    percent = "por ciento"
    scale_nouns = ("millón", "millones", "millardo", "millardos", "billón", "billones", "trillón", "trillones",
                   "cuatrillón", "cuatrillones")
    and_word, half, day_one, local_phones = "y", "y medio", "primero", True
    per_word = "por"
    unit_scales = "mil"  # "3 mil km": the unit after the thousands read
    unit_after_words = ("por", "el", "cada", "al")  # "por kg", "le kg": the unit's name
    week_days = {"lun": "lunes", "Lun": "lunes", "mar": "martes", "Mar": "martes", "mié": "miércoles",
                 "Mié": "miércoles", "mie": "miércoles", "Mie": "miércoles", "miér": "miércoles",
                 "Miér": "miércoles", "jue": "jueves", "Jue": "jueves", "vie": "viernes", "Vie": "viernes",
                 "sáb": "sábado", "Sáb": "sábado", "sab": "sábado", "Sab": "sábado", "dom": "domingo",
                 "Dom": "domingo", "lunes": "lunes", "Lunes": "lunes", "martes": "martes", "Martes": "martes",
                 "miércoles": "miércoles", "Miércoles": "miércoles", "jueves": "jueves", "Jueves": "jueves",
                 "viernes": "viernes", "Viernes": "viernes", "sábado": "sábado", "Sábado": "sábado",
                 "domingo": "domingo", "Domingo": "domingo", "L": "lunes", "V": "viernes", "S": "sábado",
                 "D": "domingo"}
    week_span = ("de", "a")
    inch = ("pulgada", "pulgadas")
    range_word = "a"
    articles = ("el", "la", "los", "las", "lo", "del", "al", "su", "sus", "un", "una", "este", "esta", "ese", "esa")
    degrees_after = ("a", "hasta", "entre")
    degrees_before = ("durante", "por", "hasta", "para", "con", "más", "menos", "aproximadamente", "aprox", "unos",
                      "unas")
    degree_words = ("temperatura", "máxima", "mínima", "horno", "grados", "calor", "frío")
    time_words = ("a las", "las", "a la", "desde las", "hasta las")
    degrees_joins = ("y", "o", "a", "en")
    ordinal_marks = {"º": "m", "ª": "f", ".º": "m", ".ª": "f", "°": "m", ".°": "m", ".er": "short", "er": "short",
                     ".ᵉʳ": "short", "ᵉʳ": "short", ".ᵃ": "f", ".ᵒ": "m",
                     **{m + "o": "m" for m in ("r", "d", "t", "m", "v", "n")},
                     **{m + "a": "f" for m in ("r", "d", "t", "m", "v", "n")},
                     # NeMo's Spanish ordinal suffixes: "1ero" "primero", "1era" "primera", "1o", "2a"
                     "ero": "m", "era": "f", "o": "m", "a": "f"}
    gender_endings = (("ción", "f"), ("ciones", "f"), ("sión", "f"), ("siones", "f"), ("dad", "f"), ("dades", "f"),
                      ("tad", "f"), ("tades", "f"), ("tud", "f"), ("tudes", "f"), ("umbre", "f"), ("umbres", "f"),
                      ("ista", None), ("istas", None), ("a", "f"), ("as", "f"), ("o", "m"), ("os", "m"), ("or", "m"),
                      ("ores", "m"))
    singular_endings = (("ces", "z"), ("es", ""), ("s", ""))
    not_nouns = frozenset(ADVERBS.split() + "de del a al en y o u e que por para con sin sobre entre hasta desde según como más menos "
                          "veces por ciento mil los las el la lo un una uno unos unas se no ya".split())
    # units after a number (`units`), not said by the abbreviations pass
    in_context = ("gr.", "grs.", "cda.", "cdas.", "cdta.", "cdtas.", "cdita.", "cditas.", "ud.", "uds.")
    number_abbreviations = {"pág.": "página", "págs.": "páginas", "p.": "página", "núm.": "número",
                            "n.º": "número", "nº": "número", "N.º": "número", "cap.": "capítulo", "vol.": "volumen",
                            "art.": "artículo", "tel.": "teléfono", "fig.": "figura", "§": "párrafo"}
    name_abbreviations = {"Sr.": "señor", "Sra.": "señora", "Srta.": "señorita", "Dr.": "doctor", "Dra.": "doctora",
                          "D.": "don", "Dña.": "doña", "Sto.": "santo", "Sta.": "santa"}
    roman_before = ("capítulo", "Capítulo", "tomo", "Tomo", "parte", "Parte", "acto", "Acto", "libro", "Libro",
                    "artículo", "Artículo", "título", "Título", "siglo", "Siglo", "siglos", "año", "Año")
    century_words = ()
    symbols = {"±": "más o menos", "×": "por", "→": "a", "&": "y", "§": "párrafo", "≈": "aproximadamente",
               "≤": "menor o igual que", "≥": "mayor o igual que", "−": "menos", "°": "grados", "½": "un medio",
               "¼": "un cuarto", "¾": "tres cuartos", "~": "aproximadamente", "‰": "por mil"}
    per_time = {"s": "por segundo", "seg": "por segundo", "sec": "por segundo", "min": "por minuto", "h": "por hora",
                "día": "por día"}
    day_parts = ("de la tarde", "de la noche")
    round_the_clock = "las veinticuatro horas, los siete días de la semana"
    times_word, equals_word = "por", "es igual a"
    fractions = {(1, 2): "un medio", (1, 3): "un tercio", (2, 3): "dos tercios", (1, 4): "un cuarto",
                 (3, 4): "tres cuartos"}

    # num2words' ordinals as the RAE writes them: "decimotercero" (one word), "undécimo", "cuadragésimo".
    _ORDINAL_FIXES = ((re.compile(r"décimo ?primero"), "undécimo"), (re.compile(r"décimo ?segundo"), "duodécimo"),
                      (re.compile(r"décimo ?octavo"), "decimoctavo"),
                      (re.compile(r"vigésimo ?octavo"), "vigesimoctavo"), (re.compile(r"décimo ?(?=[a-zé])"), "decimo"),
                      (re.compile("quadra"), "cuadra"), (re.compile("cuadrigent"), "cuadringent"),
                      (re.compile("septigent"), "septingent"), (re.compile("octigent"), "octingent"))

    def ordinal(self, n, gender="m", mark=""):
        gender = self.ordinal_marks.get(mark, gender)
        said = self.n2w(n, "ordinal")
        if gender == "short" and n % 100 == 11:
            said = re.sub(r"décimo ?primero", "decimoprimero", said)
        for pattern, fixed in self._ORDINAL_FIXES:
            said = pattern.sub(fixed, said)
        if gender == "short":
            return re.sub(r"(primer|tercer)o$", r"\1", said)
        return re.sub(r"o\b", "a", said) if gender == "f" else said

    def cardinal(self, n, gender=None):
        # "un" before "mil" and "millones" ("trescientos un mil"), which num2words leaves "uno".
        said = re.sub(r"uno (?=mil|millones)", "ún ", re.sub(r"\buno (?=mil|millones)", "un ", self.n2w(n)))
        return self.feminine(said) if gender == "f" else self.masculine(said) if gender == "m" else said

    def masculine(self, said):
        return re.sub(r"iuno$", "iún", re.sub(r"\buno$", "un", said))

    def feminine(self, said):
        head, tail = self.scale_tail(said, r"mill[oó]n(?:es)?|bill[oó]n(?:es)?")
        return head + re.sub(r"ientos\b", "ientas", re.sub(r"uno$", "una", tail))

    # A roman numeral between an article and its noun is an ordinal: "el XI apóstol" "el undécimo apóstol", "la
    # III edición" "la tercera edición", "el III Congreso" "el tercer Congreso".
    _ROMAN_AFTER_ARTICLE = re.compile(r"\b([Ee]l|[Ll]a|[Dd]el|[Aa]l)\s([IVX]{2,7})\s(?=([^\W\d_]+))")

    _LOWER_CENTURY = re.compile(r"\b([Ss]iglos?)\s([ivxl]{1,7})\b")
    # "año mcmlxxxix" as "año MCMLXXXIX" is read: a year (four letters at least: "año mil" is a word).
    _LOWER_YEAR = re.compile(r"\b([Aa]ño)\s([ivxlcdm]{4,12})\b")

    # Nine figures in three hyphenated threes are a Spanish telephone number ("912-345-678"), figure by figure; so
    # are the spaced groups no number is written in (Spain's "91 234 56 78", "612 34 56 78", the Americas' "212 555
    # 0199", Mexico's "55 1234 5678"), and spaced threes after a word that names a telephone ("Llame al 912 345 678").
    _NINE_FIGURES = re.compile(r"(?<![\w.,/-])(?:\d{3}-\d{3}-\d{3}|\d{2}\s\d{3}\s\d{2}\s\d{2}"
                               r"|\d{3}\s\d{2}\s\d{2}\s\d{2}|\(?\d{3}\)?\s\d{3}\s\d{4}|\d{2}\s\d{4}\s\d{4})"
                               r"(?![\w/-]|[.,]\d)")
    phone_words = frozenset({"teléfono", "teléfonos", "tel", "telf", "tfno", "tlf", "móvil", "celular", "fax",
                             "whatsapp", "llame", "llamar", "llama", "llámenos", "marque"})

    def _unit_fraction_said(self, whole, numerator, denominator, unit):
        # A unit per another takes the half or the part on its first noun: "1 1/2 mph" "una milla y media por
        # hora"; a whole and a part other than a half as one amount of the noun: "2 3/4 tazas" "dos y tres cuartos
        # de taza".
        singular, plural = self.units[unit][0], self.units[unit][-1]
        head, per, rest = singular.partition(" por ")
        if per and (numerator, denominator) == ("1", "2"):
            gender = self.noun_gender(head) or "m"
            half = self.halves[gender == "f"]
            if not whole:
                return f"{half} {head} por {rest}"
            noun = head if whole == "1" else plural.partition(" por ")[0]
            return f"{self.counted(int(whole), gender, noun)} y {half} por {rest}"
        if whole and (numerator, denominator) != ("1", "2"):
            gender = self.noun_gender(head) or "m"
            part = self.fraction(int(numerator), int(denominator))
            return f"{self.cardinal(int(whole), gender)} y {part} de {singular}"
        return super()._unit_fraction_said(whole, numerator, denominator, unit)

    # "Da. Ana", "da. ana pérez", "da. Carmen": "doña" before a name, never after a pronoun ("se lo da."); a
    # title before a name says no sentence's end ("la dra. Gómez" "la doctora Gómez").
    _DONA = re.compile(r"\b([Dd])a\.(?=\s[^\W\d_])")
    _PRONOUN = re.compile(r"\b(?:lo|la|los|las|le|les|me|te|se|nos|os|no|que)\s$", re.I)
    # titles and streets' words before the name they go with: no sentence ends at their dot ("Pza. Mayor")
    _TITLES = {"dr": "doctor", "dra": "doctora", "sr": "señor", "sra": "señora", "srta": "señorita", "prof": "profesor",
               "profa": "profesora", "dña": "doña", "av": "avenida", "avda": "avenida", "pza": "plaza", "plza": "plaza",
               "ctra": "carretera", "carret": "carretera", "pje": "pasaje", "p.º": "paseo", "rbla": "rambla",
               "blvd": "bulevar", "c.º": "camino"}
    _TITLE = re.compile(r"(?<![\w.])(" + "|".join(re.escape(t) for t in sorted(_TITLES, key=len, reverse=True))
                        + r")\.?(?<=\.|º)(?=\s(?![^\W\d_]\.)[^\W\d_])", re.I)

    # In an equation "-" is "menos", "/" and "÷" are "entre" and "=" is "es igual a", as NeMo's Spanish measure grammar
    # reads "6 / 2 = 3" "seis entre dos es igual a tres".
    _DIVIDED = re.compile(r"(?<=\d)[ \u00a0]?÷[ \u00a0]?(?=[-−]?\d)")
    _EQUATION_OPERATOR = re.compile(r"(?<=\d)[ \u00a0]?([-/])[ \u00a0]?(?=\d+(?:[.,]\d+)?[ \u00a0]?=[ \u00a0]?[-−]?\d)")

    # A number grouped the way Mexico and the United States write it: commas between thousands where there are two
    # groups or more, or a dot's decimals after one ("12,345,678", "1,234.56"), or one group after a dollar's sign
    # ("$2,000" dos mil dólares); rewritten the way the rest of the reader takes it ("12.345.678", "1.234,56").
    _COMMA_GROUPED = re.compile(r"(?<![\w.,])((?:US)?\$\s?)?(\d{1,3}(?:,\d{3})+)(\.\d{1,2})?(?![\w,]|\.\d)")

    def _comma_grouped(self, m):
        sign, whole, cents = m.group(1) or "", m.group(2), m.group(3) or ""
        if whole.count(",") < 2 and not cents and not sign:
            return m.group(0)  # "1,250": a decimal, the comma Spain writes
        return sign + whole.replace(",", ".") + cents.replace(".", ",")

    # A half after a counted noun and "y": "1 hora y 1/2" una hora y media, "2 kg y 1/2" dos kilogramos y medio.
    # With no noun, a number and a half: "1 y 1/2" uno y medio.
    _AND_A_HALF = re.compile(r"(?<=\d)((?:\s?[^\W\d_]+\.?)?\s+y\s+)1/2(?![\w/]|[.,]\d)")

    def _and_a_half(self, m):
        noun = m.group(1).split()[0].rstrip(".") if m.group(1).split()[0] != "y" else ""
        gender = (self.unit_gender(noun) if noun in self.units else self.noun_gender(noun)) if noun else "m"
        return m.group(1) + self.halves[gender == "f"] if gender else m.group(0)

    def read(self, text):
        text = self._COMMA_GROUPED.sub(self._comma_grouped, text)
        text = self._AND_A_HALF.sub(self._and_a_half, text)
        # a zone's offset in hours and minutes before "+" is read and its minutes are taken for a time ("utc+5:30")
        text = self._ZONE.sub(lambda m: self._zone(m) if m.group(5) else m.group(0), text)
        text = self._EQUATION_OPERATOR.sub(lambda m: f" {self.minus if m.group(1) == '-' else 'entre'} ", text)
        return self._ONE_THOUSAND.sub(self._apocope, super().read(self._DIVIDED.sub(" entre ", text)))

    # A number before the word "mil" written out loses its last "o" ("21 mil personas" "veintiún mil", "31 mil"
    # "treinta y un mil"), as before a noun.
    _ONE_THOUSAND = re.compile(r"\b(veinti)?uno(?= mil\b)", re.I)

    @staticmethod
    def _apocope(m):
        return f"{m.group(1)}ún" if m.group(1) else m.group(0)[:-1]

    def read_abbreviations(self, text):
        def dona(m):
            if self._PRONOUN.search(m.string, max(0, m.start() - 5), m.start()):
                return m.group(0)
            return m.group(1) + "oña"

        def title(m):
            said = self._TITLES[m.group(1).casefold()]
            return said.capitalize() if m.group(1)[0].isupper() else said
        text = self._TITLE.sub(title, self._DONA.sub(dona, text))
        text = self._PHONE_LABEL.sub(lambda m: ("T" if m.group(1)[0] == "T" else "t") + "eléfono"
                                     + (m.group(2) or " "), text)
        return super().read_abbreviations(text)

    # "Tel. 91 234 56 78", "Tlf.: +34 ...", "tfno. 600 ...": the telephone's abbreviation before its number
    _PHONE_LABEL = re.compile(r"\b(Tel|tel|TEL|Tlf|tlf|Telf|telf|Tfno|tfno|Tfo|tfo)\.(:?\s?)(?=[+(]?\d)")

    # "Q50", "q 12,50", "q1": quetzales (NeMo writes the sign in small letters); "Q1" to "Q4" alone are a year's
    # quarters, no money.
    _QUETZAL = re.compile(r"(?<![\w$])(?:q|Q(?![1-4](?![\d.,])))\s?(?=\d)")

    # Cents after a dot, the English way, before a currency's sign: "$0.50" as "$0,50" (a dot before two figures
    # parts no thousands; "$1.5" too).
    _DOTTED_CENTS = re.compile(r"(?<![\w$])(US\$|\$|€|£)\s?(\d{1,3})\.(\d{1,2})(?![\w.,]?\d|\w|\s(?:mil|mill|bill))")
    # A currency's sign after a scale word and "de" is its name: "3,5 millones de €" "... millones de euros".
    _SCALE_OF_SIGN = re.compile(r"\b((?:mil\s)?(?:mill[oó]n|millones|millardos?|bill[oó]n|billones)\sde\s)(US\$|\$|€|£|¥)"
                                r"(?![\w$])")

    # "$" before an amount its currency's name follows is only that currency's sign: "$ 3.000 pesos" "tres mil pesos",
    # "$20 dólares" "veinte dólares".
    _SIGN_AND_NAME = re.compile(r"(?<![\w$])\$\s?(?=\d[\d.,\s]*?\s(?:" + "|".join(sorted(currency_words, key=len,
                                                                                         reverse=True)) + r")\b)")
    # A price per thing after a slash: "12 €/persona" "doce euros por persona", "80 $/noche".
    _PRICE_PER = re.compile(r"\b((?:" + "|".join(sorted({n for names in currency_words.values() for n in names[:2]},
                                                          key=len, reverse=True)) + r"))/([^\W\d_]{2,})(?![\w/])")

    # Cents after a dot before the name of a currency of the Americas, where the dot is the decimal point: "3.50
    # dólares" as "3,50 dólares" (a euro amount so written is said as written: "1.00 euros" uno punto cero cero).
    _DOTTED_CENTS_NAMED = re.compile(r"(?<![\w.,])(\d{1,3})\.(\d{2})(?=\s(?:dólar|dólares|peso|pesos)\b)")
    # Cents by their abbreviation after a number: "99 cts." noventa y nueve céntimos, "50 ctvs." centavos; millions of
    # a currency by "M" before its sign: "3,5 M€" tres coma cinco millones de euros.
    _CENTS = re.compile(r"(?<=\d)(\s?)(cts|cént|cent|ctvs|ctv)(\.?)(?=\s|$|[,;:)])")
    _MILLIONS_OF = re.compile(r"(?<=\d)\s?M(€|\$)(?!\w)")

    def _cents(self, m):
        word = "centavo" if m.group(2).startswith("ctv") else "céntimo"
        word += "" if re.search(r"(?<![\d.,])1$", m.string[:m.start()]) else "s"
        ends = m.group(3) and self._ends_sentence(m.string[m.end():])
        return f"{m.group(1) or ' '}{word}{'.' if ends else ''}"

    def read_money(self, text):
        text = self._MILLIONS_OF.sub(r" millones de \1", self._CENTS.sub(self._cents, text))
        text = self._DOTTED_CENTS_NAMED.sub(r"\1,\2", text)
        text = self._DOTTED_CENTS.sub(r"\1\2,\3", self._SIGN_AND_NAME.sub("", text))
        text = self._SCALE_OF_SIGN.sub(lambda m: m.group(1) + self.currencies[m.group(2)][1], text)
        text = super().read_money(self._QUETZAL.sub("GTQ ", text))
        return self._PRICE_PER.sub(lambda m: f"{m.group(1)} {self.per_word} {self._per_thing(m.group(2))}", text)

    def _per_thing(self, word):
        return self.units[word][0] if word in self.units else word

    def money(self, amount, currency, scale):
        # "con" joins every currency and its cents, as Spain and the Americas both say it ("doce euros con
        # cincuenta céntimos", "doce dólares con cinco centavos"): one style, where NeMo's files give three.
        if scale and amount == "1":  # "$1 millón" "un millón de dólares", "$1 mil millones" "mil millones de dólares"
            single = self.scales[scale][0]
            head = single if single.startswith("mil") and not single.startswith("mill") else f"un {single}"
            return f"{head}{' ' if single == 'mil' else ' de '}{self.currencies[currency][1]}"
        return super().money(amount, currency, scale)

    # A decimal without its whole, as NeMo's Spanish ITN writes one: ",26" "coma veintiséis", ".22" "punto veintidós".
    _BARE_DECIMAL = re.compile(r"(?<![\w.,;:])([-−]?)([,.])(\d{1,12})(?![\w.,]?\d|\w)")

    def read_numbers(self, text):
        text = self._BARE_DECIMAL.sub(lambda m: f"{self.minus + ' ' if m.group(1) else ''}"
                                                f"{self.point if m.group(2) == ',' else self.dot} "
                                                f"{self.fraction_part(m.group(3))}", text)
        return super().read_numbers(text)

    def dotted(self, m):
        # A decimal written the English way is said with "punto" as "1.33" "uno punto treinta y tres" is, a
        # whole of zero too ("0.5" "cero punto cinco").
        parts = m.group(1).split(".")
        if len(parts) == 2 and parts[0] == "0":
            return f"{self.cardinal(0)} {self.dot} {self.fraction_part(parts[1])}"
        return super().dotted(m)

    # "x" between two numbers is "por": the sides of a thing ("30 x 40 cm" "treinta por cuarenta centímetros",
    # "2x3 m"); not a hex number's ("0x1F")
    _BY = re.compile(r"(?<![\w.,])((?!0[xX])\d{1,4}(?:,\d+)?)[ \u00a0]?[xX][ \u00a0]?(?=\d{1,4}(?:,\d+)?(?![\w.,]\d|\w))")

    consumption = "litros a los cien kilómetros"  # "5,6 l/100 km", `Spec.said_consumption`

    def read_measures(self, text):
        text = self.said_consumption(text)
        text = self._BY.sub(r"\1 por ", text)
        text = self._scaled_units.sub(lambda m: f"{self.number(m.group(1), 'm')} {m.group(2)} de "
                                                f"{self.units[m.group(3)][-1]}", text)
        text = self._unit_per_unit.sub(lambda m: f"{self.measure(m.group(1), m.group(2))} {self.per_word} "
                                                 f"{self.units[m.group(3)][0]}", text)
        return super().read_measures(text)

    def telephone(self, written):
        # A country code of two figures as a number ("+58" "más cincuenta y ocho"); a short group after the
        # number's last four figures is its extension ("123-5678-12" "... cinco seis siete ocho, extensión uno dos").
        said = super().telephone(written)
        groups = re.findall(r"\+|\d+", written)
        if groups[0] == "+" and len(groups[1]) == 2 and groups[1][0] != "0":
            code = f"{self.plus} {self.cardinal(int(groups[1]))}"
            said = said.replace(f"{self.plus} {self.digits(groups[1])}", code, 1)
        if len(groups) > 3 and len(groups[-1]) < 4 and len(groups[-2]) == 4:
            head, _, tail = said.rpartition(", ")
            said = f"{head}, extensión {tail}"
        return said

    # A number spelt with a word, on a free line's code ("0-800-hermano", "1-800-555-flores"): the code's figures
    # one by one, "ochocientos" or "novecientos", the figures after one by one, then the word, as NeMo's Spanish
    # telephone grammar reads them.
    _VANITY = re.compile(r"(?<![\w.,+-])(\+?\d{1,3}-)?([89])00-((?:\d{1,4}-)*)([^\W\d_]{2,})(?![\w-])")
    # "ext." after a telephone number: "extensión" and its figures one by one (NeMo's "extensión uno dos").
    _EXTENSION = re.compile(r"\b((?:cero|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve),?\s)(?:ext\.?|[Ee]xtensión)"
                            r"\s?(\d{1,4})(?![\w.,]\d|\w)")

    def _vanity(self, m):
        code, middle = (m.group(1) or "").rstrip("-"), m.group(3).replace("-", "")
        said = [f"{self.plus} {self.digits(code[1:])}" if code.startswith("+") else self.digits(code) if code else "",
                "ochocientos" if m.group(2) == "8" else "novecientos", self.digits(middle) if middle else "",
                m.group(4)]
        return " ".join(part for part in said if part)

    def read_telephones(self, text):
        text = self._VANITY.sub(self._vanity, text)
        text = super().read_telephones(self._NINE_FIGURES.sub(lambda m: self.telephone(m.group(0)), text))
        return self._EXTENSION.sub(lambda m: f"{m.group(1)}extensión {self.digits(m.group(2))}", text)

    # A king's, queen's or pope's number in small letters after the name (data/es_regnal_names.tsv): "maría vii"
    # "maría séptima", as NeMo's Spanish grammar reads any roman numeral but "vi" (a verb); a numeral standing
    # alone as the whole text is a heading's ordinal ("V" "quinto").
    _REGNAL_NAMES = [line for line in (DATA / "es_regnal_names.tsv").read_text(encoding="utf-8").splitlines()
                     if line.strip() and not line.startswith("#")]
    _LOWER_REGNAL = re.compile(r"\b(" + "|".join(sorted(_REGNAL_NAMES, key=len, reverse=True)) + r")\s"
                               r"(?!vi\b)([ivx]{2,6})\b", re.I)
    _ROMAN_ALONE = re.compile(r"\s*([IVX]{1,6})\s*")

    def read_romans(self, text):
        alone = self._ROMAN_ALONE.fullmatch(text)
        if alone and roman_value(alone.group(1)):
            return self.ordinal(roman_value(alone.group(1)))
        # "siglo xix" as "siglo XIX" is read.
        text = self._LOWER_CENTURY.sub(lambda m: f"{m.group(1)} {m.group(2).upper()}", text)
        text = self._LOWER_YEAR.sub(lambda m: f"{m.group(1)} {m.group(2).upper()}", text)
        text = self._LOWER_REGNAL.sub(self._lower_regnal, text)

        def said(m):
            value = roman_value(m.group(2))
            if value is None:
                return m.group(0)
            gender = "f" if m.group(1).casefold() == "la" else "m"
            if gender == "m" and self._masculine_singular(m.string, m.end() - 1):
                gender = "short"
            return f"{m.group(1)} {self.ordinal(value, gender)} "
        return super().read_romans(self._ROMAN_AFTER_ARTICLE.sub(said, text))

    def _lower_regnal(self, m):
        value = roman_value(m.group(2).upper()) if m.group(2).islower() else None
        return f"{m.group(1)} {self.roman(value, 'regnal', m.group(1))}" if value else m.group(0)

    # A weekday abbreviated before a date ("vier. 10 de mayo" "viernes diez de mayo"); a year before or after
    # Christ ("10.000 a. C." "diez mil antes de Cristo").
    _WEEKDAYS = {"lun": "lunes", "mar": "martes", "mié": "miércoles", "miér": "miércoles", "jue": "jueves",
                 "vie": "viernes", "vier": "viernes", "sáb": "sábado", "dom": "domingo"}
    _ERA = re.compile(r"(?<=\d)\s([aAdD])\.\s?[cC]\.(?!\w)")

    def read_ordinals(self, text):
        def said(m):
            gender = self.ordinal_marks.get(m.group(2), "m")
            if gender == "m" and self._masculine_singular(m.string, m.end()):
                gender = "short"  # "1.º piso" "primer piso", "3er puesto" "tercer puesto"
            return self.ordinal(self.grouped(m.group(1)), gender)
        return self.ordinal_pattern.sub(said, text)

    def _masculine_singular(self, text, end):
        following = self._NEXT_WORD.match(text, end)
        if not following or following.group(1).casefold().endswith("s"):
            return False
        return self.noun_gender(following.group(1)) == "m"

    def fraction(self, numerator, denominator):
        if denominator in (2, 3):  # "ocho tercios", "tres medios"
            name = "medio" if denominator == 2 else "tercio"
            return f"{self.cardinal(numerator, 'm')} {name}{'s' if numerator > 1 else ''}"
        if denominator <= 10 or (numerator, denominator) in self.fractions or denominator % 100 == 0:
            part = self.ordinal(denominator)  # "un centésimo", "dos milésimos", "un cuadringentésimo"
            return f"{self.cardinal(numerator, 'm')} {part}{'s' if numerator > 1 else ''}"
        if denominator > 100:
            return f"{self.cardinal(numerator)} sobre {self.cardinal(denominator)}"
        # From eleven on a part is the number and "-avo": "un treceavo", "tres veinteavos", "un treintavo".
        base = unicodedata.normalize("NFD", self.n2w(denominator).replace(" y ", "i"))
        base = "".join(ch for ch in base if not unicodedata.combining(ch))
        name = (base[:-1] if base.endswith(("a", "uno")) else base) + "avo"
        return f"{self.cardinal(numerator, 'm')} {name}{'s' if numerator > 1 else ''}"

    # A fraction before "parte(s)" is said with the feminine ordinal: "2/3 partes" "dos terceras partes", "1/4 parte"
    # "una cuarta parte".
    _PARTS = re.compile(r"(?<![\w.,/])(\d{1,2})/([3-9]|10)\s(?=partes?\b)")

    # A mark out of a scale after a word that tells one ("una nota de 8/10", "sacó un 7,5/10"): "ocho sobre diez"
    _MARK = re.compile(r"\b((?i:nota|notas|calificación|puntuación|media|sacó|obtuvo|valorado|valorada|valoración)"
                       r"(?:\s?(?:es|fue|de|un|una|:))*\s)(\d{1,3}(?:,\d)?)\s?/\s?(10|20|100)(?![\w/]|[.,]\d)")

    def read_fractions(self, text):
        text = self._MARK.sub(lambda m: f"{m.group(1)}{self.number(m.group(2))} sobre {self.cardinal(int(m.group(3)))}",
                              text)
        text = self._PARTS.sub(lambda m: f"{self.cardinal(int(m.group(1)), 'f')} {self.ordinal(int(m.group(2)), 'f')}"
                                         f"{'s' if int(m.group(1)) > 1 else ''} ", text)
        return super().read_fractions(text)

    def fraction_part(self, digits):
        # Past three figures a decimal is read two at a time, a zero that would begin a pair alone ("3,1415"
        # "tres coma catorce quince", "1,25300" "una coma veinticinco treinta cero"); led by zeros, figure by figure.
        if digits[0] == "0" and len(digits.lstrip("0")) > 2:
            return self.digits(digits)  # "0,0101" "cero coma cero uno cero uno"
        if len(digits.lstrip("0")) <= 3 or digits[0] == "0":
            return super().fraction_part(digits)
        said, i = [], 0
        while i < len(digits):
            step = 1 if digits[i] == "0" or i + 1 == len(digits) else 2
            said.append(self.cardinal(int(digits[i:i + step])))
            i += step
        return " ".join(said)

    def large_fraction(self, numerator, denominator):
        # A part of a round thousand or million is one word: "un cincomilésimo", "un cienmilésimo", "un
        # millonésimo", "un mildoscientosmillonésimo"; any other is "sobre": "uno sobre mil cien".
        said = self.n2w(denominator)
        whole = re.sub(r"^un ", "", said)
        if re.search(r"\b(?:mil|mill[oó]n|millones)$", whole):
            part = re.sub(r"(?:mil|mill[oó]n|millones)$", lambda m: "milésimo" if m.group(0) == "mil"
                          else "millonésimo", whole.replace(" ", ""))
            return f"{self.cardinal(numerator, 'm')} {part}{'s' if numerator > 1 else ''}"
        return f"{self.cardinal(numerator)} sobre {self.cardinal(denominator)}"

    def __init__(self):
        super().__init__()
        # As NeMo's Spanish measure grammar reads them: a unit after a large quantity takes "de" ("1 millón g" "un
        # millón de gramos"), a unit per another ("1 kg/m²" "un kilogramo por metro cuadrado").
        units = "|".join(re.escape(u) for u in sorted(self.units, key=len, reverse=True))
        self._scaled_units = re.compile(r"(?<![\w.,])(-?" + self.NUM + r")\s(mil millones|mill[oó]n(?:es)?|"
                                        r"bill[oó]n(?:es)?)\s(" + units + r")(?![\w/²³'’])")
        self._unit_per_unit = re.compile(r"(?<![\w.,])(-?" + self.NUM + r")\s?(" + units + r")/(" + units
                                         + r")(?![\w/²³'’])")
        day = r"(0?[1-9]|[12]\d|3[01])"
        # "5 febrero", "30 julio del 2020", "abril 30", "junio 11 2000": as "cinco de febrero" is said.
        self._day_month = re.compile(r"(?<![\w.,/])" + day + r"\s(?:de\s)?(" + self._month + r")(?!\w)"
                                     r"(?:\s(?:(de|del)\s)?(\d{4})(?![\w]|[.,]\d))?")
        self._weekday = re.compile(r"\b(" + "|".join(sorted(self._WEEKDAYS, key=len, reverse=True)) + r")\.\s(?=\d{1,2}"
                                   r"\s(?:de\s)?(?:" + self._month + r")(?!\w))", re.I)
        self._month_day = re.compile(r"(?<![\w.])(" + self._month + r")(?<=\w|\.)\s" + day + r"(?![\w:/]|[.,]\d)"
                                     r"(?:,?\s(\d{4})(?![\w]|[.,]\d))?")

    # The first of a month written with a capital ("1 de Enero de 2000" "primero de enero ..."); a decade with an
    # "s" after its article ("los 90s" "los noventa": no seconds).
    _FIRST_CAPITAL = re.compile(r"(?<![\w.,])0?1(?:º|°|\.º)?(?=\s(?:de\s)?(?:"
                                + "|".join(m.capitalize() for m in MONTHS) + r")\b)")
    _DECADE_S = re.compile(r"\b([Ll]os|[Aa]ños)\s([1-9]0)['’]?s\b")

    def read_dates(self, text):
        text = self.read_padded_day_month(text)
        return super().read_dates(text)

    def read_written_dates(self, text):
        text = self._FIRST_CAPITAL.sub("primero", text)
        text = self._DECADE_S.sub(lambda m: f"{m.group(1)} {self.cardinal(int(m.group(2)))}", text)

        def weekday(m):
            said = self._WEEKDAYS[m.group(1).casefold()]
            return (said.capitalize() if m.group(1)[0].isupper() else said) + " "
        text = self._weekday.sub(weekday, text)
        text = self._ERA.sub(lambda m: " antes de Cristo" if m.group(1) in "aA" else " después de Cristo", text)

        def day_month(m):
            said = self.date(int(m.group(1)), self.month_of(m.group(2)), None)
            if not m.group(4):
                return said + sentence_dot(m.group(2), m.string, m.end())
            return said + f" {m.group(3) or 'de'} {self.year(int(m.group(4)))}"
        text = self._day_month.sub(day_month, text)
        text = self._month_day.sub(lambda m: self.date(int(m.group(2)), self.month_of(m.group(1)),
                                                       int(m.group(3)) if m.group(3) else None), text)
        return super().read_written_dates(text)

    def date(self, day, month, year):
        said = f"{'primero' if day == 1 else self.cardinal(day)} de {self.months[month - 1]}"
        return said + (f" de {self.year(year)}" if year else "")

    # A queen's number agrees with her name: "Isabel II" "Isabel segunda", "Juana I" "Juana primera".
    feminine_names = frozenset({"isabel", "leonor", "beatriz", "inés", "carmen", "mercedes"})
    masculine_names = frozenset({"garcía", "garcia"})

    def roman(self, value, kind, word=""):
        if word.startswith(("siglo", "Siglo")):
            return self.ordinal(value) if value <= 10 else self.cardinal(value)
        if kind == "regnal" and value <= 10 and self.feminine_name(word):
            return self.ordinal(value, "f")
        return super().roman(value, kind, word)

    def feminine_name(self, name):
        name = name.casefold()
        return name in self.feminine_names or name.endswith("a") and name not in self.masculine_names

    # A time on the twelve-hour clock: "2:30 p.m." "dos y media de la tarde", "12.15 p.m." "doce y cuarto del
    # mediodía", "1.00 a.m." "una de la mañana", "las 9 p.m." "las nueve de la noche" (a dot between hours and
    # minutes is a time before a.m./p.m. or "h": "1.05 h" "una y cinco"); a time zone's offset keeps its sign
    # ("gmt-3" "G M T menos tres").
    # The hour's letter after a time is no word: "h", "hs", "hrs" ("14:30 h.", "20:00 hs", "18:30 hrs").
    _H = r"\s?h(?:rs?|s)?(?!\w|\.\w)"
    _CLOCK = re.compile(r"(?<![\w:.,])(1[0-2]|0?\d)(?:[:.]([0-5]\d)(?:[:.]00)?)?\s?([ap])\.?\s?m(\.|\b)", re.I)
    _HOURS = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])[.:]([0-5]\d)(?:" + _H + r"|(?=\s(?:gmt|utc|est|pst|cet|cst|"
                        r"mst|edt|pdt|cest)\b))", re.I)
    # "14.05", "24:50": two figures of hours and two of minutes, a dot or a colon between, standing alone, are a
    # time on the 24-hour clock (a decimal has a comma; "1.33" stays a number written the English way).
    _DAY_CLOCK = re.compile(r"(?<![\w:.,])([01]\d|2[0-3])\.([0-5]\d)(?![\w:]|[.,]\d)"
                            r"|(?<![\w:.,])(24):([0-5]\d)(?![\w:]|[.,]\d)")
    # An hour on the hour with a dot, "7.00" "siete" (a decimal is not written so), where no currency or unit goes
    # with it ("$7.00", "7.00 €", "1.00 kg" are amounts).
    _ON_THE_HOUR = re.compile(r"(?<![\w:.,+\-−$€£¥])(?<!versión\s)([1-9])\.00(?![\w:]|[.,]\d|\s?[^\w\s.,;:!?)])"
                              r"(?=\s?([^\W\d_][\w./²³]*)?)")
    # "12h02m00s" "doce y dos", "9h30" "nueve y treinta": hours, minutes and seconds by their letters; "02:15:10 h":
    # the "h" is no word.
    _HMS = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])h([0-5]\d)(?:m(?:in)?(?:([0-5]\d)s(?:eg)?)?)?(?!\w)")
    # seconds before a.m./p.m.: "3:02:32 p.m." "tres horas dos minutos y treinta y dos segundos de la tarde"
    _HMS_CLOCK = re.compile(r"(?<![\w:.,])(1[0-2]|0?\d)([:.])([0-5]\d)\2([0-5]\d)\s?([ap])\.?\s?m(\.|\b)", re.I)
    _HMS_H = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])([:.])([0-5]\d)\2([0-5]\d)" + _H)
    # any zone spelt by its letters keeps its offset's sign ("5:00 p.m. cst-2" "c s t menos dos")
    _ZONE = re.compile(r"\b(gmt|utc|cst|cet|est|pst|mst|edt|pdt|mdt|cdt|cest|GMT|UTC|CST|CET|EST|PST|MST|EDT|PDT"
                       r"|MDT|CDT|CEST)(?:\s?([-+−])\s?|\s(más|menos)\s)(\d{1,2})(?::([0-5]\d))?(?![\w:])")
    # A time after its article is the clock's: "la 1" "la una"; "la 1:45" "las dos menos cuarto", the next hour
    # less the minutes left where they are twenty-five, twenty, a quarter, ten or five (as the time is said aloud,
    # and as NeMo's Spanish ITN reads "las tres menos veinticinco" "las 2:35"), on either clock ("las 14:45" "las
    # quince menos cuarto") and before the part of the day ("las 6:45 p.m." "las siete menos cuarto de la tarde").
    _ONE_OCLOCK = re.compile(r"\b([Ll]a)\s0?1(?![\w:ºª°/]|[.,]\d|\.[ºª°]|\s?[aApP]\.?\s?[mM]\b)")
    _TIME_TO = re.compile(r"\b([Ll]as?)\s([01]?\d|2[0-3])[:.](35|40|45|50|55)(?:" + _H
                          + r"|\s[Hh]oras\b)?(?:\s?([aApP])\.?\s?[mM](\.|\b))?(?![\w:]|[.,]\d)")

    # Two clock times joined by a dash, "a", "y" or "hasta" are a span of two times ("14:30-16:30" "catorce y media a
    # dieciséis y media", "de 9.15 a 13.30"): a colon in one of them, the hour's letter or an hour past twelve.
    _TIME_SPAN = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])([.:])([0-5]\d)([ \u00a0]?[-–][ \u00a0]?|\s(?:a|y|hasta)\s)"
                            r"([01]?\d|2[0-3])([.:])([0-5]\d)(" + _H + r")?(?![\w:]|[.,]\d)")

    # Noon as the RAE writes it, "m." after twelve (from the Latin "meridies"): "a las 12 m." "a las doce del mediodía",
    # no metres.
    _NOON = re.compile(r"\b([Ll]as)\s12(?:[:.]00)?\s?m\.(?!\w)")

    # After its article an hour of the 24-hour clock keeps a quarter and a half past as numbers ("a las 14:30" "a las
    # catorce y treinta", the corpus' own reading; the RAE keeps "y cuarto" and "y media" to the twelve-hour clock).
    _ARTICLE_DAY_CLOCK = re.compile(r"\b([Ll]as)\s(00?|1[3-9]|2[0-4])[:.](15|30)(?:" + _H + r")?(?![\w:]|[.,]\d)")

    # "2:30", "las 10:15", "2.30 h" on a clock's face (hours to twelve, a colon or an "h"): "dos y media", "las diez y
    # cuarto".
    _HALF_PAST = re.compile(r"(?<![\w:.,+\-−])(1[0-2]|0?[1-9])(?:[.:](15|30)" + _H
                            + r"|:(15|30)(?![\w:]|[.,]\d|\s?[aApP]\.?\s?[mM]\b))")

    # after its article a dot parts hours and minutes too: "las 7.30" "las siete y media"
    _ARTICLE_HALF_PAST = re.compile(r"\b([Ll]as?)\s(1[0-2]|0?[1-9])\.(15|30)(?![\w:]|[.,]\d|\s?[aApP]\.?\s?[mM]\b)")

    # A time zone named after a time (data/es_time_zones.tsv): "5:02 p.m. cot" "... hora estándar de Colombia".
    _ZONES = dict(line.split("\t") for line in (DATA / "es_time_zones.tsv").read_text(encoding="utf-8").splitlines()
                  if line.strip() and not line.startswith("#"))
    _NAMED_ZONE = re.compile(r"((?<![\w.,])\d{1,2}(?:(?:[:.][0-5]\d){1,2}(?:\s?h)?|\s?h|\s?[ap]\.?\s?m\.?)"
                             r"(?:\s?[ap]\.?\s?m\.?)?\s)("
                             + "|".join(sorted(_ZONES, key=len, reverse=True)) + r")(?!\w)", re.I)

    # Hours, minutes and seconds each with its letter, spaced: "2 h 30 min 15 s" "dos horas treinta minutos y quince
    # segundos" (NeMo's Spanish time grammar), "y" before the last.
    _SPACED_HMS = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])\s?h\s([0-5]?\d)\s?min\s([0-5]?\d)\s?s(?![\w/])")

    # "las 1:30", "las 1": one o'clock is "la una", whatever article was written ("a las 1:00" a la una).
    _LAS_ONE = re.compile(r"\b([Ll])as(\s0?1)(?=(?:[:.][0-5]\d)?(?:\s?h)?(?![\w:]|[.,]\d))")

    def read_times(self, text):
        text = self._LAS_ONE.sub(r"\1a\2", text)
        text = self._SPACED_HMS.sub(lambda m: self.time(int(m.group(1)), int(m.group(2)), int(m.group(3))), text)
        text = self._TIME_SPAN.sub(self._time_span, text)
        text = self._NOON.sub(lambda m: f"{m.group(1)} doce del mediodía"
                                        + ("." if self._ends_sentence(m.string[m.end():]) else ""), text)
        text = self._NAMED_ZONE.sub(lambda m: m.group(1) + self._ZONES[m.group(2).casefold()], text)
        text = self._TIME_TO.sub(self._time_to, text)
        text = self._ARTICLE_DAY_CLOCK.sub(lambda m: f"{m.group(1)} {self.cardinal(int(m.group(2)), 'f')} y "
                                                  f"{self.cardinal(int(m.group(3)))}", text)
        text = self._ARTICLE_HALF_PAST.sub(lambda m: f"{m.group(1)} {self.cardinal(int(m.group(2)), 'f')} y "
                                                  f"{'cuarto' if m.group(3) == '15' else 'media'}", text)
        text = self._HALF_PAST.sub(lambda m: f"{self.cardinal(int(m.group(1)), 'f')} y "
                                          f"{'cuarto' if (m.group(2) or m.group(3)) == '15' else 'media'}", text)
        text = self._HMS_CLOCK.sub(self._hms_clock, text)
        text = self._CLOCK.sub(self._clock, text)
        text = self._HMS_H.sub(lambda m: self.time(int(m.group(1)), int(m.group(3)), int(m.group(4))), text)
        text = self._HOURS.sub(lambda m: self.time(int(m.group(1)), int(m.group(2)), None), text)
        text = self._HMS.sub(lambda m: self.time(int(m.group(1)), int(m.group(2)),
                                                 int(m.group(3)) if m.group(3) else None, quarters=False), text)
        text = self._DAY_CLOCK.sub(lambda m: self.time(int(m.group(1) or m.group(3)), int(m.group(2) or m.group(4)),
                                                       None), text)
        text = self._ON_THE_HOUR.sub(self._on_the_hour, text)
        text = self._ZONE.sub(self._zone, text)
        text = self._ONE_OCLOCK.sub(lambda m: f"{m.group(1)} una", text)
        return super().read_times(text)

    def _time_span(self, m):
        if ":" not in (m.group(2), m.group(6)) and not m.group(8) and not 13 <= int(m.group(5)) <= 23:
            return m.group(0)  # "de 1.15 a 2.30": amounts as well as times
        joint = m.group(4).strip()
        first, second = (self.time(int(m.group(i)), int(m.group(i + 2)), None) for i in (1, 5))
        return f"{first} {joint if joint.isalpha() else self.range_word} {second}"

    def _on_the_hour(self, m):
        for word in {m.group(2) or "", (m.group(2) or "").rstrip(".")}:
            if word in self.units or word.casefold() in self.currency_words or word.upper() in self.currencies:
                return m.group(0)
        return self.cardinal(int(m.group(1)), "f")

    def _time_to(self, m):
        written, period = int(m.group(2)), m.group(4)
        hour = written % 12 + 1 if written <= 12 else written + 1
        left = {35: "veinticinco", 40: "veinte", 45: "cuarto", 50: "diez", 55: "cinco"}[int(m.group(3))]
        article = ("L" if m.group(1)[0] == "L" else "l") + ("a" if hour == 1 else "as")
        said = f"{article} {self.cardinal(hour, 'f')} menos {left}"
        if not period:
            return said
        # the part of the day of the hour written, but "12:45 p.m." is "la una menos cuarto de la tarde"
        said += " " + self._day_part(hour if written == 12 else written, period.casefold())
        return said + "." if m.group(5) == "." and self._ends_sentence(m.string[m.end():]) else said

    @staticmethod
    def _day_part(hours, period):
        if period == "a":
            return "de la noche" if hours in (0, 12) else "de la mañana"
        return "del mediodía" if hours == 12 else "de la noche" if hours >= 7 else "de la tarde"

    def _clock(self, m):
        hours, minutes, period = int(m.group(1)), int(m.group(2) or 0), m.group(3).casefold()
        said = self.cardinal(hours, "f")
        if minutes:
            said += " y " + {15: "cuarto", 30: "media"}.get(minutes, self.cardinal(minutes))
        said += " " + self._day_part(hours, period)
        return said + "." if m.group(4) == "." and self._ends_after_period(m.string[m.end():]) else said

    def _ends_after_period(self, rest):
        """Whether the dot of "a.m."/"p.m." also ends the sentence: not before a time zone ("p.m. GMT")."""
        zone = re.match(r"\s*([A-Za-z]{2,5})\b", rest)
        if zone and (zone.group(1).casefold() in self._ZONES or zone.group(1).casefold() in self._SPELT_ZONES):
            return False
        return self._ends_sentence(rest)

    def _hms_clock(self, m):
        hours, period = int(m.group(1)), m.group(5).casefold()
        said = f"{self.time(hours, int(m.group(3)), int(m.group(4)))} {self._day_part(hours, period)}"
        return said + "." if m.group(6) == "." and self._ends_after_period(m.string[m.end():]) else said

    _SPELT_ZONES = ("utc", "gmt", "cst", "cet", "pst", "est", "mdt", "mst", "pt", "et", "mt", "edt", "pdt", "cest")

    def _zone(self, m):
        zone, sign, word, hours, minutes = m.groups()
        sign = word or (self.plus if sign == "+" else self.minus)
        said = f"{' '.join(zone.upper())} {sign} {self.cardinal(int(hours))}"
        return said + (f" {self.cardinal(int(minutes))}" if minutes and int(minutes) else "")

    def time(self, hours, minutes, seconds, quarters=True):
        said = self.cardinal(hours, "f")
        seconds = seconds or None  # no seconds said where there are none: "12:00:00" "doce"
        if seconds is not None:
            # "una hora un minuto y un segundo": each noun agrees with its number
            parts = [f"{self.cardinal(n, 'm')} {noun}{'s' if n != 1 else ''}"
                     for n, noun in ((minutes, "minuto"), (seconds, "segundo"))]
            return said + f" hora{'s' if hours != 1 else ''} {parts[0]} y {parts[1]}"
        if not minutes:
            return said
        # A clock's quarter and half are "cuarto" and "media" on either clock, as NeMo's Spanish TN grammar reads
        # them ("14:30" "catorce y media", "02:15:00" "dos y cuarto", "01.30 est" "una y media e s t"); hours and
        # minutes by their letters are numbers ("10h15m" "diez y quince").
        half = {15: "cuarto", 30: "media"}.get(minutes) if quarters else None
        return f"{said} y {half or self.cardinal(minutes)}"


read = Spanish().read
