"""Portuguese as it is read: "R$ 12,50" "doze reais e cinquenta centavos", "1º" "primeiro", "1ª" "primeira",
"14h30" "catorze horas e trinta", "14 de julho de 1789", "D. Pedro II" "Dom Pedro segundo", "2 horas" "duas horas"."""

import re

from .common import tech
from .romance import Romance, SaidRanges, with_plain_powers

MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
          "novembro", "dezembro")

# Words after a number that are no noun counted though their ending looks like one's (adverbs, verbs).
ADVERBS = ("ainda agora nunca sempre fora contra cada toda todas muita muitas pouca poucas outra outras mesma "
           "apenas bastante quase depois antes logo também então portanto todo todos muito muitos pouco poucos "
           "outro outros mesmo só somente tanto tanta quando onde esta este isto essa esse isso aquela aquele "
           "nenhuma nenhum alguma algum cuja cujo indica significa representa equivale mostra fica era está")


class Portuguese(SaidRanges, Romance):
    code = "pt"
    number_sign = "número"
    score_word = "a"  # "venceu 3-1" "três a um" (the words before a score: `score_words` below)
    point, dot = "vírgula", "ponto"
    fraction_digits = "digits"
    minus, plus = "menos", "mais"
    months = MONTHS
    joiner = " e "
    currencies = {"R$": ("real", "reais", "centavo", "centavos"), "BRL": ("real", "reais", "centavo", "centavos"),
                  "€": ("euro", "euros", "centavo", "centavos"), "EUR": ("euro", "euros", "centavo", "centavos"),
                  "US$": ("dólar", "dólares", "centavo", "centavos"), "$": ("dólar", "dólares", "centavo", "centavos"),
                  "USD": ("dólar", "dólares", "centavo", "centavos"), "£": ("libra esterlina", "libras esterlinas", "pêni", "pence"),
                  "GBP": ("libra esterlina", "libras esterlinas", "pêni", "pence"), "¥": ("iene", "ienes", "sen", "sen"),
                  "JPY": ("iene", "ienes", "sen", "sen"),
                  "CHF": ("franco suíço", "francos suíços", "centavo", "centavos"),
                  "₽": ("rublo", "rublos", "copeque", "copeques")}
    feminine_currencies = ("£", "GBP")
    halves = ("meio", "meia")
    law_words = ("lei", "leis", "decreto", "decreto-lei", "portaria", "resolução", "instrução", "diretiva",
                 "medida provisória")
    currency_words = {w: names for names in (("real", "reais", "centavo", "centavos"),
                                             ("euro", "euros", "centavo", "centavos"),
                                             ("dólar", "dólares", "centavo", "centavos"),
                                             ("libra", "libras", "pêni", "pence"))
                      for w in names[:2]}
    scales = {"milhões": ("milhão", "milhões"), "milhão": ("milhão", "milhões"), "bilhões": ("bilhão", "bilhões"),
              "bilhão": ("bilhão", "bilhões"), "mil": ("mil", "mil"), "mi": ("milhão", "milhões"),
              "bi": ("bilhão", "bilhões")}
    units = {"km": ("quilômetro", "quilômetros"), "kg": ("quilograma", "quilogramas"),
             "cm": ("centímetro", "centímetros"),
             "mm": ("milímetro", "milímetros"), "m": ("metro", "metros"), "g": ("grama", "gramas"),
             "mg": ("miligrama", "miligramas"), "t": ("tonelada", "toneladas"), "l": ("litro", "litros"),
             "L": ("litro", "litros"), "ml": ("mililitro", "mililitros"), "h": ("hora", "horas"),
             "min": ("minuto", "minutos"), "s": ("segundo", "segundos"), "ms": ("milissegundo", "milissegundos"),
             "TB": ("terabyte", "terabytes"), "GB": ("gigabyte", "gigabytes"), "MB": ("megabyte", "megabytes"),
             "kB": ("kilobyte", "kilobytes"), "KiB": ("kibibyte", "kibibytes"), "MiB": ("mebibyte", "mebibytes"),
             "GiB": ("gibibyte", "gibibytes"), "°C": ("grau Celsius", "graus Celsius"),
             "°F": ("grau Fahrenheit", "graus Fahrenheit"), "°": ("grau", "graus"),
             "km/h": ("quilômetro por hora", "quilômetros por hora"),
             "m/s": ("metro por segundo", "metros por segundo"),
             "m²": ("metro quadrado", "metros quadrados"), "km²": ("quilômetro quadrado", "quilômetros quadrados"),
             "m³": ("metro cúbico", "metros cúbicos"), "Hz": ("hertz", "hertz"), "MHz": ("megahertz", "megahertz"),
             "GHz": ("gigahertz", "gigahertz"), "W": ("watt", "watts"), "kW": ("quilowatt", "quilowatts"),
             "kWh": ("quilowatt-hora", "quilowatts-hora"), "V": ("volt", "volts"), "ha": ("hectare", "hectares")}
    units = {**units, "mph": ("milha por hora", "milhas por hora"),
             "kph": ("quilômetro por hora", "quilômetros por hora"),
             "µm": ("micrômetro", "micrômetros"), **dict.fromkeys(("xíc.", "xícs.", "xic."), ("xícara", "xícaras")),
             "seg.": ("segundo", "segundos"), "hab.": ("habitante", "habitantes"),
             "colh.": ("colher", "colheres"), "c. de sopa": ("colher de sopa", "colheres de sopa"),
             "c. de chá": ("colher de chá", "colheres de chá"), "c. de café": ("colher de café", "colheres de café"),
             "c. de sobremesa": ("colher de sobremesa", "colheres de sobremesa"),
             "kcal": ("quilocaloria", "quilocalorias"),
             "dl": ("decilitro", "decilitros"), "cl": ("centilitro", "centilitros"),
             # as NeMo's Portuguese measure tables have them
             "ns": ("nanossegundo", "nanossegundos"), "μs": ("microssegundo", "microssegundos"),
             "µs": ("microssegundo", "microssegundos"), "μm": ("micrômetro", "micrômetros"),
             "nm": ("nanômetro", "nanômetros"), "cm²": ("centímetro quadrado", "centímetros quadrados"),
             "cm³": ("centímetro cúbico", "centímetros cúbicos"), "kgf": ("quilograma força", "quilogramas força"),
             "kHz": ("quilohertz", "quilohertz"), "MW": ("megawatt", "megawatts"), "GW": ("gigawatt", "gigawatts"),
             "Wh": ("watt hora", "watts hora"), "MWh": ("megawatt hora", "megawatts hora"),
             "GWh": ("gigawatt hora", "gigawatts hora"), "kV": ("quilovolt", "quilovolts"),
             "mV": ("milivolt", "milivolts"), "mA": ("miliampere", "miliamperes"),
             "rpm": ("rotação por minuto", "rotações por minuto"), "dB": ("decibel", "decibéis"),
             "cal": ("caloria", "calorias")}
    # a square or cube written with a plain figure, as ads write it ("90 m2"); a battery's charge ("4.000 mAh")
    units = {**with_plain_powers(units),
             "mAh": ("miliampere-hora", "miliamperes-hora"), "MP": ("megapixel", "megapixels"),
             "dorm.": ("dormitório", "dormitórios")}
    feminine_units = ("t", "h")
    percent = "por cento"
    scale_nouns = ("milhão", "milhões", "bilhão", "bilhões")
    numbers = "pt_BR"  # Brazilian numbers: "dezesseis", "um bilhão"
    and_word, half, day_one, local_phones = "e", "e meio", "primeiro", True
    range_word = "a"
    articles = ("o", "os", "as", "do", "dos", "das", "no", "nos", "nas", "ao", "aos", "um", "uma", "seu", "sua",
                "este", "esta", "esse", "essa")
    degrees_after = ("a", "até", "entre")
    degrees_before = ("por", "durante", "até", "para", "com", "mais", "menos", "aproximadamente", "de")
    degree_words = ("temperatura", "máxima", "mínima", "forno", "graus", "calor", "frio")
    time_words = ("às", "das", "até as", "as")
    degrees_joins = ("e", "ou", "a", "em")
    ordinal_marks = {"º": "m", "ª": "f", ".º": "m", ".ª": "f", "°": "m", ".°": "m"}
    # "-ções"/"-sões" also as typed without accents ("365 desilusoes", "2 informacoes").
    gender_endings = (("ção", "f"), ("ções", "f"), ("são", "f"), ("sões", "f"), ("coes", "f"), ("soes", "f"), ("dade", "f"), ("dades", "f"),
                      ("tude", "f"), ("tudes", "f"), ("gem", "f"), ("gens", "f"), ("ista", None), ("istas", None),
                      ("a", "f"), ("as", "f"), ("o", "m"), ("os", "m"), ("ão", "m"), ("or", "m"), ("ores", "m"))
    singular_endings = (("ões", "ão"), ("ães", "ão"), ("ãos", "ão"), ("ns", "m"), ("is", "l"), ("es", ""),
                        ("s", ""))
    not_nouns = frozenset(ADVERBS.split() + "de do da dos das a ao aos à às em no na nos nas e ou que por para com sem sobre entre até "
                          "desde segundo como mais menos vezes mil o os as um uma uns umas se não já".split())
    in_context = ("xíc.", "xícs.", "colh.", "c. (sopa)", "c. (chá)", "c. (café)")  # units after a number (`units`)
    number_abbreviations = {"pág.": "página", "págs.": "páginas", "p.": "página", "n.º": "número", "nº": "número",
                            "Nº": "número", "N.º": "número", "cap.": "capítulo", "vol.": "volume", "art.": "artigo",
                            "tel.": "telefone", "fig.": "figura", "§": "parágrafo"}
    name_abbreviations = {"Sr.": "senhor", "Sra.": "senhora", "Srta.": "senhorita", "Dr.": "doutor", "Dra.": "doutora",
                          "D.": "Dom", "Prof.": "professor", "Profa.": "professora", "Sto.": "Santo", "Sta.": "Santa"}
    roman_before = ("capítulo", "Capítulo", "parte", "Parte", "ato", "Ato", "livro", "Livro", "artigo", "Artigo",
                    "título", "Título", "século", "Século", "séculos")
    symbols = {"±": "mais ou menos", "×": "vezes", "→": "para", "&": "e", "§": "parágrafo", "≈": "aproximadamente",
               "≤": "menor ou igual a", "≥": "maior ou igual a", "−": "menos", "°": "graus", "½": "um meio",
               "¼": "um quarto", "¾": "três quartos", "~": "cerca de", "‰": "por mil"}
    per_word = "por"
    unit_scales = "mil"  # "3 mil km": the unit after the thousands read
    unit_after_words = ("por", "o", "cada", "ao", "do")  # "por kg", "le kg": the unit's name
    week_days = {"seg": "segunda", "Seg": "segunda", "ter": "terça", "Ter": "terça", "qua": "quarta",
                 "Qua": "quarta", "qui": "quinta", "Qui": "quinta", "sex": "sexta", "Sex": "sexta", "sáb": "sábado",
                 "Sáb": "sábado", "sab": "sábado", "Sab": "sábado", "dom": "domingo", "Dom": "domingo",
                 "segunda": "segunda", "Segunda": "segunda", "terça": "terça", "Terça": "terça", "quarta": "quarta",
                 "Quarta": "quarta", "quinta": "quinta", "Quinta": "quinta", "sexta": "sexta", "Sexta": "sexta",
                 "sábado": "sábado", "Sábado": "sábado", "domingo": "domingo", "Domingo": "domingo"}
    week_span = ("de", "a")
    inch = ("polegada", "polegadas")
    per_time = {"s": "por segundo", "seg": "por segundo", "sec": "por segundo", "min": "por minuto", "h": "por hora",
                "dia": "por dia"}
    day_parts = ("da tarde", "da noite")
    round_the_clock = "vinte e quatro horas por dia, sete dias por semana"
    times_word, equals_word = "vezes", "igual a"
    fractions = {(1, 2): "um meio", (1, 3): "um terço", (2, 3): "dois terços", (1, 4): "um quarto",
                 (3, 4): "três quartos"}
    _hours = re.compile(r"(?<![\w.,:])([01]?\d|2[0-3])[hH]([0-5]\d)?(?![\w])")

    def unit_gender(self, unit):
        # a compound unit's gender is its first noun's: "um quilowatt-hora"
        if unit in self.feminine_units:
            return "f"
        return self.noun_gender(re.split(r"[\s-]", self.units[unit][0])[0]) or "m"

    # "2 mil pessoas" "duas mil pessoas", "200 mil vagas" "duzentas mil vagas": a number before "mil" agrees with
    # the noun the thousands count ("mil" has no gender of its own).
    _THOUSANDS_OF = re.compile(r"[ \u00a0]+mil[ \u00a0]+([^\W\d_]+)(?![\w'’-])")

    # "vezes" counted is feminine ("2 vezes por dia" "duas vezes"); before a number it is the product's "times"
    # ("3 vezes 4"), no noun, as `not_nouns` holds it.
    _TIMES_COUNTED = re.compile(r"[ \u00a0]+vez(?:es)?(?![\w'’-])(?![ \u00a0]*[\d(])")

    def counted_gender(self, text, start, end):
        if self._TIMES_COUNTED.match(text, end):
            return "f"
        thousands = self._THOUSANDS_OF.match(text, end)
        if thousands and self.noun_gender(thousands.group(1)):
            return self.noun_gender(thousands.group(1))
        following = self._NEXT_WORD.match(text, end)
        if following and following.group(1).casefold() in ("das", "dos"):
            return "f" if following.group(1).casefold() == "das" else "m"  # "2 das 10 maçãs": "duas das"
        if (following and text[start:end].lstrip("0") != "1" and not following.group(1).casefold().endswith("s")
                and following.group(1).casefold() not in self.not_nouns):
            return None  # more than one counts a plural: "a década de 1980 havia" counts no "havia"
        rest = re.match(r"[ \u00a0]+" + self.range_word + r"[ \u00a0]+" + self.NUM + r"[ \u00a0]+([^\W\d_]+)"
                        r"(?![\w'’-])", text[end:end + 60])
        if rest and not rest.groups()[-1].casefold().endswith("s"):
            return None  # "de 1980 a 1990 havia": the range counts no "havia"
        return super().counted_gender(text, start, end)

    def money(self, amount, currency, scale):
        """A scale's noun stays singular below two, as Brazilian writing has it: "R$ 1,5 milhão" "um vírgula cinco
        milhão de reais" ("1,5 milhão de pessoas")."""
        said = super().money(amount, currency, scale)
        if scale and self.scales[scale][0] != self.scales[scale][1] and self.value(amount.lstrip("-−+"))[0] < 2:
            singular, plural = self.scales[scale]
            said = said.replace(f" {plural} ", f" {singular} ", 1)
        return said

    def feminine(self, said):
        head, tail = self.scale_tail(said, r"milh(?:ão|ões)|bilh(?:ão|ões)|trilh(?:ão|ões)")
        tail = re.sub(r"\bdois\b", "duas", re.sub(r"\bum\b", "uma", tail))
        return head + re.sub(r"entos\b", "entas", tail)

    # Dates NeMo's Portuguese date grammar reads that the shared passes leave: a month before a day past the twelfth
    # ("03/15/2024" "quinze de março de ..."), a year first with dots ("2024.03.15"), and the first of a month
    # written with a capital ("1 de Janeiro de 2000" "primeiro de janeiro de ...").
    _MONTH_FIRST = re.compile(r"(?<![\w.,/-])(0?[1-9]|1[0-2])([./-])(1[3-9]|2\d|3[01])\2(\d{4})(?![\w/]|[.,]\d)")
    _DOTTED_ISO = re.compile(r"(?<![\w.,/-])(?<!versão\s)(\d{4})\.(0?[1-9]|1[0-2])\.(0?[1-9]|[12]\d|3[01])"
                             r"(?![\w/]|[.,]\d)")
    _FIRST_CAPITAL = re.compile(r"(?<![\w.,])0?1(?:º|°|\.º)?(?=\s(?:de\s)?(?:"
                                + "|".join(m.capitalize() for m in MONTHS) + r")\b)")

    # More written dates, as a Brazilian or Portuguese reader says them: a year of two digits ("05/03/24" "cinco de
    # março de vinte e quatro"; with dots or hyphens only where day and month take two digits, so that a version
    # "1.2.10" stays one), a month and a year ("03/2024", "março/2024", "mar/2024"; "1/1000" is a fraction), a
    # day, a month's name and a year without "de" ("5 março 2024"), a month's abbreviation with a year or its dot
    # ("5 mar 2024", "5-mar-2024", "5 de mar. de 2024"), a day and a month after "dia" or a weekday ("no dia 5/3",
    # "seg., 5/3"; elsewhere "1/3" is a fraction), and a day written as an ordinal ("2º de maio").
    _ABBR = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
    _SHORT_YEAR = re.compile(r"(?<![\w.,/-])(?:(\d{1,2})/(\d{1,2})/|(\d\d)([.-])(\d\d)\4)(\d\d)(?![\w/]|[.,]\d)")
    _MONTH_WORD = r"(?i:" + "|".join(MONTHS) + "|" + "|".join(_ABBR) + r")"
    _SLASH_MONTH_YEAR = re.compile(r"(?<![\w.,/-])(0[1-9]|1[0-2]|" + _MONTH_WORD + r"\.?)/(1[5-9]\d\d|2[01]\d\d)"
                                   r"(?![\w/]|[.,]\d)")
    _BARE_DATE = re.compile(r"(?<![\w.,/-])(\d{1,2})[\s-](" + "|".join(MONTHS) + r")[\s-](\d{4})(?![\w/-]|[.,]\d)",
                            re.I)
    _ABBR_DATE = re.compile(r"(?<![\w.,/-])(\d{1,2})(?:\s(?:de\s)?|-)(" + "|".join(_ABBR) + r")(?i:(\.)?)"
                            r"(?:(?:\s(?:de\s)?|-)(\d{4}))?(?![\w-]|[.,]\d)", re.I)
    _MONTH_ABBR_YEAR = re.compile(r"(?<![\w.,/-])(" + "|".join(_ABBR) + r")\.?\s(?:de\s)?(\d{4})(?![\w/]|[.,]\d)",
                                  re.I)
    _DAY_SLASH_MONTH = re.compile(r"\b((?i:dias?|(?:seg|ter|qua|qui|sex|sáb|dom)\.|feira|sábado|domingo),?\s)"
                                  r"(\d{1,2})/(\d{1,2})(?![\w/]|[.,]\d)")
    _ORDINAL_DAY = re.compile(r"(?<![\w.,])(\d{1,2})(?:º|°|\.º)(?=\s(?:de\s)?(?i:" + "|".join(MONTHS) + r")\b)")

    def month_number(self, written):
        written = written.casefold().rstrip(".")
        return int(written) if written.isdigit() else (
            MONTHS.index(written) if written in MONTHS else self._ABBR.index(written[:3])) + 1

    def checked_date(self, day, month, year):
        """The date said, or None where no day or month is one."""
        return self.date(int(day), month, year) if 1 <= int(day) <= 31 and 1 <= month <= 12 else None

    def short_year(self, m):
        day, month = m.group(1, 2) if m.group(1) else m.group(3, 5)
        year = int(m.group(6)) or 2000  # "1/1/00": "de dois mil"
        return self.checked_date(day, int(month), year) or m.group(0)

    def abbreviated(self, m):
        if not m.group(3) and not m.group(4):
            return m.group(0)  # "5 mar" may be the sea
        year = int(m.group(4)) if m.group(4) else None
        return self.checked_date(m.group(1), self.month_number(m.group(2)), year) or m.group(0)

    def read_more_dates(self, text):
        text = self._SHORT_YEAR.sub(self.short_year, text)
        text = self._SLASH_MONTH_YEAR.sub(lambda m: f"{self.months[self.month_number(m.group(1)) - 1]} de "
                                                    f"{self.year(int(m.group(2)))}", text)
        text = self._BARE_DATE.sub(lambda m: self.checked_date(m.group(1), self.month_number(m.group(2)),
                                                               int(m.group(3))) or m.group(0), text)
        text = self._ABBR_DATE.sub(self.abbreviated, text)
        text = self._MONTH_ABBR_YEAR.sub(lambda m: f"{self.months[self.month_number(m.group(1)) - 1]} de "
                                                   f"{self.year(int(m.group(2)))}", text)
        text = self._DAY_SLASH_MONTH.sub(lambda m: m.group(1) + (self.checked_date(m.group(2), int(m.group(3)), None)
                                                                 or m.group(2) + "/" + m.group(3)), text)
        return self._ORDINAL_DAY.sub(lambda m: "primeiro" if int(m.group(1)) == 1 else self.cardinal(int(m.group(1))),
                                     text)

    def read_dates(self, text):
        text = self.read_more_dates(self.read_padded_day_month(text))
        text = self._MONTH_FIRST.sub(lambda m: self.date(int(m.group(3)), int(m.group(1)), int(m.group(4))), text)
        text = self._DOTTED_ISO.sub(lambda m: self.date(int(m.group(3)), int(m.group(2)), int(m.group(1))), text)
        return super().read_dates(self._FIRST_CAPITAL.sub("primeiro", text))

    def date(self, day, month, year):
        said = f"{'primeiro' if day == 1 else self.cardinal(day)} de {self.months[month - 1]}"
        return said + (f" de {self.year(year)}" if year is not None else "")

    # A queen's number agrees with her name: "Maria I" "Maria primeira", "Isabel II" "Isabel segunda".
    feminine_names = frozenset({"isabel", "leonor", "beatriz", "inês", "elizabeth", "elisabete"})

    # "I" after a name is a ruler's first where a title stands before the name ("D. Pedro I" "Dom Pedro primeiro",
    # "o papa João Paulo I", "rainha Maria I"); elsewhere it may be the English pronoun, left as written.
    _FIRST_RULER = re.compile(r"\b((?:Dom|D\.|[Rr]ei|[Rr]ainha|[Pp]apa|[Ii]mperador|[Ii]mperatriz|[Pp]r[íi]ncipe|"
                              r"[Pp]rincesa|[Cc]zar|[Dd]uque|[Dd]uquesa)\s(?:[A-ZÀ-Ö][a-zà-ÿ]+\s){1,2})I(?![\w'’-])")

    def read_romans(self, text):
        text = self._FIRST_RULER.sub(lambda m: m.group(1) + self.roman(1, "regnal", m.group(1).split()[-1]), text)
        return super().read_romans(text)

    # Spaced groups no number is written in are a telephone number ("11 98765 4321", "21 3456 7890"), and so are
    # spaced threes after a word that names one ("Ligue para 912 345 678").
    # A country's code may come first ("+55 (11) 3333.4444"), and a mobile's leading 9 may stand apart ("(11) 9
    # 9999-8888").
    _SPACED_PHONE = re.compile(r"(?<![\w.,/+-])(?:\+\d{1,3}[\s-])?\(?\d{2}\)?\s(?:9\s\d{4}[\s-]|\d{4,5}\s)\d{4}"
                               r"(?![\w/-]|[.,]\d)")
    phone_words = frozenset({"telefone", "telefones", "tel", "fone", "celular", "fax", "whatsapp", "ligue", "ligar",
                             "disque"})

    # As NeMo's Portuguese telephone grammar reads them: a dot between the groups as a hyphen ("3333.4444", "(11)
    # 99999.8888"; no number is written so), and an extension after a number, "ramal" or "ext." "extensão", figure
    # by figure ("ramal um dois três").
    _DOTTED_PHONE = re.compile(r"(?<![\w.,/+-])(?:\+\d{1,3}[\s-])?(?:\(\d{2}\)\s?|\d{2}\s)?\d{3,5}\.\d{4}"
                               r"(?![\w/-]|[.,]\d)")
    # A number of ten or eleven figures written together after a word that names a telephone ("ligue 11987654321"):
    # its area code and its two groups, figure by figure.
    _WORD_PHONE = re.compile(r"\b((?i:telefone|tel\.?|fone|celular|whatsapp|ligue|ligar|disque)(?::|\s(?:para|no))?\s)"
                             r"(\d{10,11})(?![\w]|[.,]\d)")
    _EXTENSION = re.compile(r"\b((?:zero|um|dois|três|quatro|cinco|seis|sete|oito|nove),?\s)(ramal|ext\.|extensão)"
                            r"\s?(\d{1,4})(?![\w.,]\d|\w)")

    # A toll-free or shared-cost number ("0800 123 4567", "0300-789-1234", "4004-0001" is the shared kind's short
    # form), and a number in the international form without spaces ("+5511987654321"): figure by figure, in the
    # groups a Brazilian number has (country, area, number) where it is one.
    _TOLL_FREE = re.compile(r"(?<![\w.,/-])0[3589]00[ \u00a0-]?\d{3}[ \u00a0-]?\d{4}(?![\w/-]|[.,]\d)")
    _INTERNATIONAL = re.compile(r"(?<![\w+])\+(\d{10,13})(?![\w]|[.,]\d)")

    def international(self, m):
        number = m.group(1)
        if number.startswith("55") and len(number) in (12, 13):
            number = f"{number[:2]} {number[2:4]} {number[4:-4]} {number[-4:]}"
        return self.telephone("+" + number)

    # "Tel.: (21) …", "tel. 11 …": the telephone's abbreviation before its number
    _PHONE_LABEL = re.compile(r"\b([Tt])el\.(\s?:?\s?)(?=[+(]?\d)")

    def read_telephones(self, text):
        text = self._PHONE_LABEL.sub(lambda m: m.group(1) + "elefone" + (m.group(2) or " "), text)
        text = self._TOLL_FREE.sub(lambda m: self.telephone(m.group(0)), text)
        text = self._INTERNATIONAL.sub(self.international, text)
        text = self._DOTTED_PHONE.sub(lambda m: self.telephone(m.group(0)), text)
        text = self._WORD_PHONE.sub(lambda m: m.group(1) + self.telephone(
            f"{m.group(2)[:2]} {m.group(2)[2:-4]} {m.group(2)[-4:]}"), text)
        text = super().read_telephones(self._SPACED_PHONE.sub(lambda m: self.telephone(m.group(0)), text))
        return self._EXTENSION.sub(lambda m: f"{m.group(1)}{'ramal' if m.group(2) == 'ramal' else 'extensão'} "
                                             f"{self.digits(m.group(3))}", text)

    # A file's name of letters and digits keeps the dot before its type ("TZDIR/iso3166.tab" "iso três mil cento e
    # sessenta e seis ponto tab", "dir/file1.txt"), said as the domains pass says a file's dot.
    _FILE_TYPE = re.compile(r"(.*[A-Za-z].*)\.([A-Za-z]{1,4})$")

    def tech(self, m):
        file = self._FILE_TYPE.match(m.group(0))
        if not file:
            return super().tech(m)
        return f"{tech(file.group(1))} {self.dot} {tech(file.group(2))}"

    def roman(self, value, kind, word=""):
        if word.startswith(("século", "Século")):
            return self.ordinal(value) if value <= 10 else self.cardinal(value)
        if kind == "regnal" and value <= 10 and (word.casefold() in self.feminine_names or word.endswith("a")):
            return self.ordinal(value, "f")
        return super().roman(value, kind, word)

    def time(self, hours, minutes, seconds):
        said = f"{self.cardinal(hours, 'f')} hora{'s' if hours != 1 else ''}"
        if seconds is not None:
            return said + f" e {self.cardinal(minutes)} minutos e {self.cardinal(seconds)} segundos"
        return said + (f" e {self.cardinal(minutes)}" if minutes else "")

    _SCALE_AND = re.compile(r"\b(mi|bi|tri|quatri)(lh(?:ão|ões)),?(?: e)? (?=\w)")
    _SCALE_POWER = {"mi": 2, "bi": 3, "tri": 4, "quatri": 5}

    def cardinal(self, n, gender=None):
        # "e" after a scale word before a group below a hundred or of round hundreds, as Brazilian grammar
        # joins the classes ("um milhão e quarenta e oito mil", "um bilhão e mil cento e um", "um milhão e
        # duzentos mil", but "um milhão cento e dez mil").
        def joined(m):
            rest = n % 1000 ** self._SCALE_POWER[m.group(1)]
            group = rest // 1000 ** ((len(str(rest)) - 1) // 3)
            return f"{m.group(1)}{m.group(2)} {'e ' if group < 100 or group % 100 == 0 else ''}"
        return self._SCALE_AND.sub(joined, super().cardinal(n, gender).replace(",", ""))

    def fraction(self, numerator, denominator):
        if denominator <= 10 or denominator in (100, 1000) or (numerator, denominator) in self.fractions:
            if denominator in (100, 1000):
                name = "centésimo" if denominator == 100 else "milésimo"
                return f"{self.cardinal(numerator, 'm')} {name}{'s' if numerator > 1 else ''}"
            return super().fraction(numerator, denominator)
        return f"{self.cardinal(numerator, 'm')} {self.cardinal(denominator)} avos"  # "um onze avos"

    # "1 colher (sopa)", "2 xíc. (chá)": the measure's kind in brackets, said "de sopa", "de chá".
    _spoon = re.compile(r"(?<![\w.])(colher(?:es)?|xícaras?|xícs?\.|colh\.|c\.)\s?\((sopa|chá|café|sobremesa)\)",
                        re.I)

    # A list's item numbered with a mark and a dash or a bracket, at the list's start or after an item ("duas
    # regras: 1° - Nunca ...; 2° - ..."): an ordinal, never degrees, agreeing with the noun counted before it
    # ("primeira", "segunda"; "primeiro" where none is).
    _ENUMERATOR = re.compile(r"(?:^|(?<=[:;,.!?\n]))[ \u00a0]*(\d{1,2})\.?[º°]"
                             r"(?=[ \u00a0]?[-–—)][ \u00a0])")
    _LISTED = re.compile(r"(?:\d|\b(?:duas|dois|três|quatro|cinco|seis|sete|oito|nove|dez|algumas|alguns|as|os))"
                         r"[ \u00a0]+([^\W\d_]+)", re.I)

    def _item(self, m):
        head = re.split(r"[.!?]\s", m.string[max(0, m.start() - 100):m.start()])[-1]
        genders = [self.noun_gender(noun) for noun in self._LISTED.findall(head)]
        gender = next((g for g in reversed(genders) if g), "m")
        return m.string[m.start():m.start(1)] + self.ordinal(int(m.group(1)), gender)

    # A degree sign typed for the ordinal's mark before a noun the genders table holds is an ordinal agreeing with
    # it ("a 3° série" "a terceira série", "na 5° posição" "na quinta posição"); "30° de inclinação" is an angle.
    _SIGN_BEFORE_NOUN = re.compile(r"(?<![\w.,])(\d{1,3})\.?°(?=[ \u00a0]+([^\W\d_]+)(?![\w'’-]))")
    # "os 2ºs colocados" "os segundos colocados", "as 1ªs páginas" "as primeiras páginas": a plural mark.
    _PLURAL_MARK = re.compile(r"(?<![\w.,])(\d{1,3})\.?([ºª°])s(?!\w)")

    def _before_noun(self, m):
        noun = m.group(2)
        if (noun.casefold() in (*self.degrees_before, *self.months, *self._degree) or self.singular(noun) is None):
            return m.group(0)
        return self.ordinal(int(m.group(1)), self.noun_gender(noun) or "m")

    def _plural_ordinal(self, m):
        said = self.ordinal(int(m.group(1)), "f" if m.group(2) == "ª" else "m")
        return re.sub(r"([oa])\b", r"\1s", said)

    # "x" between two numbers: a game's score in a sentence about one ("venceu por 2x1" "dois a um"), else the sides
    # of a thing, a screen's resolution ("2x3 m" "dois por três metros", "1920x1080").
    _BY = re.compile(r"(?<![\w.,])(\d{1,4}(?:,\d+)?)[ \u00a0]?[xX×][ \u00a0]?(\d{1,4}(?:,\d+)?)(?![\w.,]\d|\w)")
    score_words = frozenset({"placar", "venceu", "vence", "vencer", "vitória", "derrota", "perdeu", "ganhou",
                             "empate", "empatou", "jogo", "partida", "gols", "goleada", "bateu", "final", "resultado"})

    def _by(self, m):
        head = re.split(r"[.!?]\s", m.string[max(0, m.start() - 80):m.start()])[-1]
        tail = re.split(r"[.!?]", m.string[m.end():m.end() + 40])[0]
        score = any(w.casefold() in self.score_words for w in re.findall(r"[^\W\d_]+", head + " " + tail))
        return f"{m.group(1)} {'a' if score else 'por'} {m.group(2)}"

    # A decimal written with a dot is said with "ponto", its fraction as a number as "1.33" "um ponto trinta e três"
    # (NeMo's Portuguese ITN), a whole of zero too ("0.25" "zero ponto vinte e cinco"); a fraction written without
    # its whole (",5") is said from its comma ("vírgula cinco").
    _BARE_FRACTION = re.compile(r"(?<![\w.,])([-−]?),(\d+)(?![\w]|[.,]\d)")

    def dotted(self, m):
        parts = m.group(1).split(".")
        if len(parts) == 2 and parts[0] == "0":
            fraction = parts[1]
            said = self.digits(fraction) if fraction[0] == "0" else self.cardinal(int(fraction))
            return f"{self.cardinal(0)} {self.dot} {said}"
        return super().dotted(m)

    # "1,2 mi", "R$ 3 bi": the news' short millions and billions, singular below two ("um vírgula dois milhão")
    _SHORT_SCALE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{1,3})?)\s(mi|bi)(?!\w|[.,]\w)")

    def _short_scale(self, m):
        few = float(m.group(1).replace(",", ".")) < 2
        return f"{m.group(1)} {'milh' if m.group(2) == 'mi' else 'bilh'}{'ão' if few else 'ões'}"

    def read_numbers(self, text):
        text = self._SHORT_SCALE.sub(self._short_scale, text)
        text = self._BARE_FRACTION.sub(lambda m: (f"{self.minus} " if m.group(1) else "")
                                       + f"{self.point} {self.fraction_part(m.group(2))}", text)
        return super().read_numbers(text)

    consumption = "litros por cem quilômetros"  # "5,6 l/100 km", `Spec.said_consumption`

    def read_measures(self, text):
        text = self.said_consumption(text)
        text = self._BY.sub(self._by, text)
        text = self._ENUMERATOR.sub(self._item, text)
        text = self._PLURAL_MARK.sub(self._plural_ordinal, text)
        text = self._SIGN_BEFORE_NOUN.sub(self._before_noun, text)
        return super().read_measures(self._spoon.sub(r"\1 de \2", text))

    # A time before the part of the day it falls in: said on the twelve-hour clock where the hour lies in that
    # part ("16:00 da tarde" "quatro horas da tarde", "21h da noite"), as written where it does not ("23:18 da
    # tarde"); a dot between hours and minutes as a colon ("9.00 da manhã").
    _PERIODS = {"madrugada": range(0, 6), "manhã": range(6, 12), "tarde": range(12, 18), "noite": range(18, 24)}
    _PERIOD_TIME = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])(?:[:.]([0-5]\d)(?:[:.]([0-5]\d))?|[hH]([0-5]\d)?)"
                              r"(?=\s(?:da|de)\s(madrugada|manhã|tarde|noite)\b)")
    # "14.30", "08.15.20": two figures of hours and two of minutes after a dot are a time ("1.33" stays a number);
    # "14:30h", "8h30min": the letters after a time are no words.
    _DOTTED = re.compile(r"(?<![\w:.,])([01]\d|2[0-3])\.([0-5]\d)(?:\.([0-5]\d))?(?![\w:]|[.,]\d)")
    _LETTERED = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])(?::([0-5]\d)h|[hH]([0-5]\d)min)(?!\w)")

    # "9h-18h", "8h30-12h": a span of two times by their letter, "nove horas às dezoito horas"
    _LETTERED_SPAN = re.compile(r"(?<![\w:.,])([01]?\d|2[0-3])[hH]([0-5]\d)?[ \u00a0]?[-–][ \u00a0]?"
                                r"(?=(?:[01]?\d|2[0-3])[hH](?:[0-5]\d)?(?!\w))")

    def read_times(self, text):
        text = self._LETTERED_SPAN.sub(lambda m: f"{self.time(int(m.group(1)), int(m.group(2) or 0), None)} às ", text)
        text = self._PERIOD_TIME.sub(self._period_time, text)
        text = self._LETTERED.sub(lambda m: self.time(int(m.group(1)), int(m.group(2) or m.group(3)), None), text)
        text = self._DOTTED.sub(lambda m: self.time(int(m.group(1)), int(m.group(2)),
                                                    int(m.group(3)) if m.group(3) else None), text)
        text = super().read_times(text)
        return self._hours.sub(lambda m: self.time(int(m.group(1)), int(m.group(2) or 0), None), text)

    def _period_time(self, m):
        hours = int(m.group(1))
        if hours in self._PERIODS[m.group(5)] and hours > 12:
            hours -= 12
        minutes = m.group(2) or m.group(4)
        return self.time(hours, int(minutes or 0), int(m.group(3)) if m.group(3) else None)


read = Portuguese().read
