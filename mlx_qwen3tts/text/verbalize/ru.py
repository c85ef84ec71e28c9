"""Russian as it is read: numbers agree with their noun in gender and number ("1 минута" "одна минута",
"2 рубля" "два рубля", "5 рублей" "пять рублей"), "2-й" "второй", "3-я" "третья", "14.07.1789" "четырнадцатое
июля тысяча семьсот восемьдесят девятого года", "8–17" "от восьми до семнадцати", "XX век" "двадцатый век"."""

import re
from decimal import Decimal

from .common import Spec

MONTHS = ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
          "ноября", "декабря")  # a date's month is in the genitive
# Case and gender of an ordinal from its written ending ("2-й", "3-я", "5-го").
_ENDINGS = {"й": ("n", "m"), "ый": ("n", "m"), "ий": ("n", "m"), "ой": ("n", "m"), "я": ("n", "f"), "ая": ("n", "f"),
            "е": ("n", "n"), "ое": ("n", "n"), "го": ("g", "m"), "ого": ("g", "m"), "му": ("d", "m"),
            "ому": ("d", "m"), "м": ("p", "m"), "ом": ("p", "m"), "ю": ("a", "f"), "ую": ("a", "f"), "х": ("p", "m"),
            "ых": ("p", "m"), "ми": ("i", "m"), "ые": ("n", "m")}
_PLURAL = {"е": "n", "ые": "n", "х": "g", "ых": "g"}  # after a decade: "1950-е", "1960-х"


class Russian(Spec):
    code = "ru"
    group, decimal = "", ","
    point, dot = "целых", "точка"
    minus, plus = "минус", "плюс"
    months = MONTHS
    currencies = {"₽": ("рубль", "рубля", "рублей", "копейка", "копейки", "копеек"),
                  "руб.": ("рубль", "рубля", "рублей", "копейка", "копейки", "копеек"),
                  "RUB": ("рубль", "рубля", "рублей", "копейка", "копейки", "копеек"),
                  "$": ("доллар", "доллара", "долларов", "цент", "цента", "центов"),
                  "USD": ("доллар", "доллара", "долларов", "цент", "цента", "центов"),
                  "долл.": ("доллар", "доллара", "долларов", "цент", "цента", "центов"),
                  "€": ("евро", "евро", "евро", "цент", "цента", "центов"),
                  "EUR": ("евро", "евро", "евро", "цент", "цента", "центов"),
                  "£": ("фунт", "фунта", "фунтов", "пенни", "пенни", "пенни"),
                  "¥": ("иена", "иены", "иен", "сен", "сены", "сен")}
    scales = {"тыс.": ("тысяча", "тысячи", "тысяч"), "млн": ("миллион", "миллиона", "миллионов"),
              "млрд": ("миллиард", "миллиарда", "миллиардов")}
    units = {"км": ("километр", "километра", "километров"), "кг": ("килограмм", "килограмма", "килограммов"),
             "см": ("сантиметр", "сантиметра", "сантиметров"), "мм": ("миллиметр", "миллиметра", "миллиметров"),
             "м": ("метр", "метра", "метров"), "г": ("грамм", "грамма", "граммов"), "т": ("тонна", "тонны", "тонн"),
             "л": ("литр", "литра", "литров"), "мл": ("миллилитр", "миллилитра", "миллилитров"),
             "ч": ("час", "часа", "часов"), "мин": ("минута", "минуты", "минут"), "с": ("секунда", "секунды", "секунд"),
             "сек": ("секунда", "секунды", "секунд"), "мс": ("миллисекунда", "миллисекунды", "миллисекунд"),
             "ТБ": ("терабайт", "терабайта", "терабайт"), "ГБ": ("гигабайт", "гигабайта", "гигабайт"),
             "МБ": ("мегабайт", "мегабайта", "мегабайт"), "КБ": ("килобайт", "килобайта", "килобайт"),
             "Гб": ("гигабайт", "гигабайта", "гигабайт"), "Мб": ("мегабайт", "мегабайта", "мегабайт"),
             "GB": ("гигабайт", "гигабайта", "гигабайт"), "MB": ("мегабайт", "мегабайта", "мегабайт"),
             "°C": ("градус Цельсия", "градуса Цельсия", "градусов Цельсия"),
             "°С": ("градус Цельсия", "градуса Цельсия",
                                                                                   "градусов Цельсия"),
             "°": ("градус", "градуса", "градусов"), "км/ч": ("километр в час", "километра в час", "километров в час"),
             "м/с": ("метр в секунду", "метра в секунду", "метров в секунду"),
             "м²": ("квадратный метр", "квадратных метра", "квадратных метров"),
             "км²": ("квадратный километр", "квадратных километра", "квадратных километров"),
             "Гц": ("герц", "герца", "герц"), "МГц": ("мегагерц", "мегагерца", "мегагерц"),
             "ГГц": ("гигагерц", "гигагерца", "гигагерц"), "Вт": ("ватт", "ватта", "ватт"),
             "кВт": ("киловатт", "киловатта", "киловатт"), "В": ("вольт", "вольта", "вольт"),
             "га": ("гектар", "гектара", "гектаров")}
    _FEMININE = ("т", "мин", "с", "сек", "мс")
    percent = ("процент", "процента", "процентов")
    in_context = ("г.", "гг.")  # "1789 г." is a date's "года"; "г. Москва" a city's
    number_abbreviations = {"№": "номер", "стр.": "страница", "рис.": "рисунок", "гл.": "глава", "табл.": "таблица",
                            "т.": "том", "§": "параграф"}
    roman_before = ("глава", "Глава", "часть", "Часть", "том", "Том", "раздел", "Раздел")
    roman_after = ("век", "века", "веке", "веков", "веку", "съезд", "съезда")
    symbols = {"±": "плюс-минус", "×": "умножить на", "→": "в", "&": "и", "§": "параграф", "≈": "примерно",
               "≤": "меньше или равно", "≥": "больше или равно", "−": "минус", "°": "градусов", "~": "около",
               "½": "одна вторая", "¼": "одна четвёртая", "¾": "три четвёртых", "‰": "промилле"}

    def __init__(self):
        super().__init__()
        endings = "|".join(sorted(_ENDINGS, key=len, reverse=True))
        self.ordinal_pattern = re.compile(r"(?<![\w.,])(\d{1,6})-(" + endings + r")(?![\w])")
        self._rub_kop = re.compile(r"(?<![\w.,])(\d+)\s?руб\.\s(\d{1,2})\s?коп\.")
        self._year = re.compile(r"(?<![\w.,])(\d{4})\s?(году|года|год|г\.(?!\s*(?:$|[А-ЯЁA-Z]))|г(?=\.))(?=\W|$)")
        # "с 1 января 1970 года": after a preposition that governs it, the day in the genitive; "г." keeps
        # its dot where it also ends the sentence.
        year_word = r"(?:\s?(?:года|г\.(?!\s*(?:$|[А-ЯЁA-Z]))|г(?=\.)))?"
        self._written_date = re.compile(r"(?<![\w.,])((?:[Сс]|[Сс]о|[Дд]о|[Оо]т|[Пп]осле|[Оо]коло)\s)?(\d{1,2})\s("
                                        + "|".join(MONTHS) + r")(?:\s(\d{4})" + year_word + ")?")
        self._ru_percent = re.compile(r"(?<![\w.,])([-−+]?" + self.NUM + r")\s?%")

    def cardinal(self, n, gender=None, case="n"):
        said = self.n2w(n, gender=gender or "m", case=case)
        return re.sub(r"^одн(?:а|ой|у|ою) (?=тысяч)", "", said)  # "тысяча сто", not "одна тысяча сто"

    def ordinal(self, n, gender="m", mark="", case="n"):
        if mark in _PLURAL and n % 10 == 0 and n >= 1000:
            return self.n2w(n, "ordinal", case=_PLURAL[mark], plural=True)
        if mark:
            case, gender = _ENDINGS[mark]
        return self.n2w(n, "ordinal", case=case, gender=gender)

    def plural_index(self, written):
        whole, fraction = self.value(written.lstrip("-−+"))
        if fraction:
            return 1
        if whole % 10 == 1 and whole % 100 != 11:
            return 0
        return 1 if 2 <= whole % 10 <= 4 and not 12 <= whole % 100 <= 14 else 2

    def decimal_number(self, whole, fraction):
        return self.n2w(Decimal(f"{whole}.{fraction}"))

    def unit_gender(self, unit):
        return "f" if unit in self._FEMININE else "m"

    def currency_gender(self, currency, minor=False):
        return "f" if (minor and currency in ("₽", "руб.", "RUB")) or (not minor and currency == "¥") else "m"

    def money(self, amount, currency, scale):
        names = self.currencies[currency]
        if scale:
            return f"{self.number(amount)} {self.scales[scale][self.plural_index(amount)]} {names[2]}"
        whole, fraction = self.value(amount.lstrip("-−+"))
        sign = self.minus + " " if amount[0] in "-−" else ""
        if fraction and len(fraction) != 2:
            return f"{sign}{self.number(amount.lstrip('-−+'))} {names[1]}"
        said = f"{self.cardinal(whole, self.currency_gender(currency))} {names[self.plural_index(str(whole))]}"
        cents = int(fraction or 0)
        if cents:
            minor = (f"{self.cardinal(cents, self.currency_gender(currency, True))} "
                     f"{names[3 + self.plural_index(str(cents))]}")
            said = minor if not whole else f"{said} {minor}"
        return sign + said

    def date(self, day, month, year):
        said = f"{self.ordinal(day, 'n')} {self.months[month - 1]}"
        return said + (f" {self.ordinal(year, 'm', case='g')} года" if year else "")

    def time(self, hours, minutes, seconds):
        said = f"{self.cardinal(hours)} {('час', 'часа', 'часов')[self.plural_index(str(hours))]}"
        if seconds is not None:
            said += f" {self.cardinal(minutes, 'f')} {('минута', 'минуты', 'минут')[self.plural_index(str(minutes))]}"
            seconds_word = ("секунда", "секунды", "секунд")[self.plural_index(str(seconds))]
            return said + f" {self.cardinal(seconds, 'f')} {seconds_word}"
        if minutes:
            said += f" {self.cardinal(minutes, 'f')} {('минута', 'минуты', 'минут')[self.plural_index(str(minutes))]}"
        return said

    def fraction(self, numerator, denominator):
        if numerator == 1:
            return f"одна {self.n2w(denominator, 'ordinal', gender='f')}"
        return f"{self.cardinal(numerator, 'f')} {self.n2w(denominator, 'ordinal', case='g', plural=True)}"

    def mixed(self, whole, numerator, denominator):
        return f"{self.cardinal(whole, 'f')} {('целая', 'целых', 'целых')[self.plural_index(str(whole))]} " \
               f"{self.fraction(numerator, denominator)}"

    def roman(self, value, kind, word=""):
        if kind == "regnal":  # "Екатерина II": a queen's number is feminine
            return self.n2w(value, "ordinal", gender="f" if word.endswith(("а", "я")) else "m").capitalize()
        if kind == "ordinal":
            case = {"века": "g", "веке": "p", "веку": "d", "съезда": "g"}.get(word, "n")
            return self.ordinal(value, case=case)
        return self.cardinal(value)

    def read_money(self, text):
        text = self._rub_kop.sub(lambda m: self.money(f"{m.group(1)},{int(m.group(2)):02d}", "₽", None), text)
        return super().read_money(text)

    def read_written_dates(self, text):
        def written(m):
            case = "g" if m.group(1) else "n"
            said = f"{m.group(1) or ''}{self.ordinal(int(m.group(2)), 'n', case=case)} {m.group(3)}"
            return said + (f" {self.ordinal(int(m.group(4)), 'm', case='g')} года" if m.group(4) else "")

        def year(m):
            case = {"году": "p", "года": "g", "г.": "g", "г": "g", "год": "n"}[m.group(2)]
            word = {"году": "году", "года": "года", "г.": "года", "г": "года", "год": "год"}[m.group(2)]
            if m.group(2).startswith("г") and len(m.group(2)) <= 2 and re.search(r"\b[Вв]\s$", m.string[:m.start()]):
                case, word = "p", "году"  # "в 1812 г.": "в ... году"
            return f"{self.ordinal(int(m.group(1)), 'm', case=case)} {word}"
        text = self._written_date.sub(written, text)
        return self._year.sub(year, text)

    def read_percentages(self, text):
        return self._ru_percent.sub(
            lambda m: f"{self.number(m.group(1))} {self.percent[self.plural_index(m.group(1))]}", text)

    def read_ranges(self, text):
        def said(m):
            first, second = self.value(m.group(1)), self.value(m.group(2))
            if first[1] or second[1] or first[0] >= second[0]:
                return m.group(0)
            return f"от {self.cardinal(first[0], case='g')} до {self.cardinal(second[0], case='g')}"
        return self._range.sub(said, text)


read = Russian().read
