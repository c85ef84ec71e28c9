"""Russian as it is read: numbers agree with their noun in gender and number ("1 минута" "одна минута",
"2 рубля" "два рубля", "5 рублей" "пять рублей"), "2-й" "второй", "3-я" "третья", "14.07.1789" "четырнадцатое
июля тысяча семьсот восемьдесят девятого года", "8–17" "от восьми до семнадцати", "XX век" "двадцатый век"."""

import re
from decimal import Decimal
from pathlib import Path

from ..abbreviations import ABBREVIATIONS, STREETS
from . import ru_grammar as grammar
from .common import Spec, _spaced, roman_value

MONTHS = ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
          "ноября", "декабря")  # a date's month is in the genitive
_MONTHS_WRITTEN = "|".join(f"[{m[0].upper()}{m[0]}]{m[1:]}" for m in MONTHS)  # a holiday's capital: "8 Марта"
# Case and gender of an ordinal from its written ending ("2-й", "3-я", "5-го").
_ENDINGS = {"й": ("n", "m"), "ый": ("n", "m"), "ий": ("n", "m"), "ой": ("n", "m"), "я": ("n", "f"), "ая": ("n", "f"),
            "е": ("n", "n"), "ое": ("n", "n"), "го": ("g", "m"), "ого": ("g", "m"), "му": ("d", "m"),
            "ому": ("d", "m"), "м": ("p", "m"), "ом": ("p", "m"), "ю": ("a", "f"), "ую": ("a", "f"), "х": ("p", "m"),
            "ых": ("p", "m"), "ми": ("i", "m"), "ые": ("n", "m"), "ья": ("n", "f"), "ье": ("n", "n"), "ью": ("a", "f"),
            "ьи": ("n", "m"), "ей": ("g", "f"), "ьей": ("g", "f"), "его": ("g", "m"), "ьего": ("g", "m"),
            "ему": ("d", "m"), "ьему": ("d", "m"), "ем": ("p", "m"), "ьем": ("p", "m"), "им": ("i", "m"),
            "ьим": ("i", "m"), "ым": ("i", "m")}
_PLURAL = {"е": "n", "ые": "n", "х": "g", "ых": "g"}  # after a decade: "1950-е", "1960-х"
# A cardinal's case ending: "из 2-х блюд" из двух, "до 18-ти" до восемнадцати, "с 7-ми лет" с семи, "2-мя" двумя.
_CARDINAL_ENDINGS = ("х", "ух", "ёх", "ти", "и", "ми", "мя", "ка")  # "после 40-ка" после сорока


def _proper(numerator, denominator):
    """Whether a fraction with a denominator over 16 reads as one: a proper fraction of one ("1/32 дюйма" одна
    тридцать вторая) or of tens ("3/20", "1/1000 доля" одна тысячная); not "24/7", nor a house "2/17"."""
    return 0 < numerator < denominator and (denominator % 10 == 0 or numerator == 1)


# A decimal over a whole is a score out of it, no fraction ("рейтинг 8,7/10", "4,5/5").
_DECIMAL_OVER = re.compile(r"(?<![\w.,/])(\d{1,3},\d{1,2})/(\d{1,3})(?![\w/]|[.,]\d)")
# A fraction of a power of ten ("1/100 часть" одна сотая часть, "3/1000" три тысячных).
_PER_POWER = re.compile(r"(?<![\w.,/])(\d{1,3})/(10{2,6})(?![\w/]|[.,]\d)")


def _cardinal_case(n, mark):
    """The case a cardinal's written ending says, or None where the ending is an ordinal's ("5-х классах" пятых)."""
    if mark in ("ти", "и", "ух", "ёх", "ка") or mark == "х" and n % 10 in (2, 3, 4) and not 12 <= n % 100 <= 14 \
            or mark == "ми" and n % 10 in (7, 8):
        return "g"
    return "i" if mark == "мя" else None


# A scale's dot before a small letter ends no sentence ("$200 млн. уговаривания", "5 тыс. человек").
_SCALE_DOT = re.compile(r"(?<=\d)([\s\u00a0]?(?:тыс|млн|млрд))\.(?=[\s\u00a0]+[а-яё])")
# The case of a day's ordinal after a preposition: "с 4 по 11 марта" с четвёртого по одиннадцатое марта.
_DATE_CASES = {"с": "g", "со": "g", "от": "g", "до": "g", "после": "g", "около": "g", "из": "g", "для": "g",
               "накануне": "g", "кроме": "g", "по": "a", "на": "a", "в": "a", "через": "a", "за": "a", "про": "a",
               "к": "d", "ко": "d", "о": "p", "об": "p", "при": "p", "между": "i", "перед": "i", "над": "i"}
_PREPOSITION_VOWEL = re.compile(r"(?<![\w-])(?:([ВвКкСс]) (?=втор)|([Сс]) (?=ст[аоу]))")  # "со ста", "со стопроцентной"
# Numbered things named in the plural before their range: "главы с 8 по 10", "разделы 2-4" (`labels_from_to`).
_LABELS_FROM_TO = re.compile(r"(?<![\w-])([А-Яа-яЁё]{4,})([\s\u00a0]+)(?:[Сс]о?[\s\u00a0]+(\d{1,3})"
                             r"[\s\u00a0]+по[\s\u00a0]+(\d{1,3})|(\d{1,3})\s?[–—-]\s?(\d{1,3}))"
                             r"(?![\w:/-]|[.,]\d|[\s\u00a0]?%)")
# A year after a month's name or a season in any case, without "года" ("с декабря 2011 по", "в мае 2012", "весной
# 2020"): the year's ordinal in the genitive, as "года" were said (декабря две тысячи одиннадцатого).
_MONTH_NAMES = ("(?:январ|феврал|апрел|июн|июл|сентябр|октябр|ноябр|декабр)(?:ь|я|е|ю|ём|ем)"
                "|(?:март|август)(?:а|е|у|ом)?|ма(?:й|я|е|ю|ем)|весной|летом|осенью|зимой")
_MONTH_YEAR = re.compile(r"(?<![\w-])((?i:" + _MONTH_NAMES + r")[\s\u00a0]+)(1\d{3}|20\d\d)"
                         r"(?![\w:/-]|[.,]\d|[\s\u00a0]?(?:гг?\.|гг?(?!\w)|год(?:а|у)?(?!\w)))")
# "н. э." нашей эры; a year before it, of any length, with "г." ("в 300 г. до н. э." в трёхсотом году до нашей эры).
_ERA = re.compile(r"(?<![\w.])н\.\s?э\.")
_ERA_YEAR = re.compile(r"(?<![\w.,])(\d{1,4})\s?г\.(?=\s(?:до\s)?н\.\s?э\.)")
# A numeric date's "г." after its year, which the date says already ("до 31.12.2024 г." года).
_DATE_YEAR_MARK = re.compile(r"(?<![\w.,/-])(\d{1,2}\.\d{1,2}\.\d{4})\s?г\.?(?!\w)")
# A timetable's days of the week ("пн–пт 9:00–18:00", "сб, вс: выходной"): a range "с ... по ...", a day before a
# time or in a list of days by its name.
_DAYS = dict(zip(("пн", "вт", "ср", "чт", "пт", "сб", "вс"),
                 ("понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье")))
_DAY = r"(?:[Пп]н|[Вв]т|[Сс]р|[Чч]т|[Пп]т|[Сс]б|[Вв]с)"
_DAY_RANGE = re.compile(r"(?<![\w-])(" + _DAY + r")\.?\s?[–—-]\s?(" + _DAY + r")\.?(?![\w-])")
_DAY_LISTED = re.compile(r"(?<![\w-])(" + _DAY + r")\.?(?=(?:,\s?" + _DAY + r"\.?)*(?::?\s\d{1,2}[:.]\d\d|,\s?"
                         + _DAY + r"(?![\w-])))")
_DAY_AFTER_DAY = re.compile(r"((?:понедельник|вторник|среда|четверг|пятница|суббота|воскресенье),\s)(" + _DAY
                            + r")(\.?)(?![\w-])", re.I)
# A day and a month without a year, the month with its zero ("15.03", "01.12" is no decimal, Russian writes a comma);
# not after a preposition of time, where "в 10.05" is a time, nor after a Latin name, where "Ubuntu 22.04" is a version.
_DAY_MONTH = re.compile(r"(?<![\w.,:/-])(?<![Вв] )(?<![Кк] )(?<![Сс] )(?<![Дд]о )(?<!после )(?<!около )(?<![A-Za-z] )"
                        r"(0[1-9]|[12]\d|3[01])\.(0[1-9]|1[0-2])(?![\w:/]|[.,]\d|\s?(?:утра|вечера|ч\b))")
# A Cyrillic word and a number written together ("тест2", "Вариант3"): the word, then the number.
_GLUED = re.compile(r"(?<![\w-])([А-Яа-яЁё]{2,})(\d{1,6})(?!\w|[.,]\d)")
# A number and a Cyrillic word written together the other way ("1тест", "5этаж"): the number, then the word.
_GLUED_BEFORE = re.compile(r"(?<![\w.,-])(\d{1,6})([А-Яа-яЁё]{3,})(?![\w-])")
# A number joined to an adjective ("64-битных", "1-байтный", "5-этажный"): the number's combining form, one word.
_COMPOUND = re.compile(r"(?<![\w.,/-])(\d{1,4})-([а-яё]{3,})(?![\w-])")
# A number joined to a noun of years ("100-летие" столетие, "50-летия" пятидесятилетия).
_ANNIVERSARY = re.compile(r"(?<![\w.,/-])(\d{1,4})-(лети[еяюи]|летием)(?![\w-])")
# A number and a letter written after it: a house, a route, a school class ("12Б", "7А", "5А класс").
# Spaced, a capital only ("5 В класс", "дом 12 А"), where a class or a label names it; else it is a unit ("5 В" вольт).
_LETTERED = re.compile(r"(?<![\w.,/-])(\d{1,4})(?:([А-ЯЁа-яё])|[ \u00a0]([А-ЯЁ]))(?![\w-]|[.,]\d)")
# What a number and its letter name: a house, a building, a route, a room (said before it, or its abbreviation).
_LETTER_LABELS = {"дом", "корпус", "строение", "литера", "маршрут", "автобус", "трамвай", "троллейбус", "кабинет",
                  "квартира", "аудитория", "помещение", "офис", "сектор", "ряд", "блок", "подъезд", "участок",
                  "палата", "павильон", "секция", "вариант", "группа", "выход", "терминал", "платформа", "школа",
                  "номер"}
_LETTER_LABEL = re.compile(r"(?<![\w.])(?:д|корп|стр|лит|кв|каб|ауд|пом|уч|№)\.?\s?$", re.I)
# "100% непрозрачностью", "с 100%-ой непрозрачностью": a percentage before a noun, its written ending optional
_PERCENT_BEFORE_NOUN = re.compile(r"(?<![\w.,-])(\d{1,3})\s?%(-(?:й|я|е|ю|м|х|го|му|ми)(?![\w-])"
                                  r"|-?(?:ой|ая|ый|ое|ую|ых|ым|ыми|ом|ей|ого|ому))?\s+(?=([а-яё]{3,})(?![\w-]))")
_ZERO_OBLIQUE = {"g": "нуля", "d": "нулю", "i": "нулём", "p": "нуле"}
_LATIN_NUMERO = re.compile(r"(?<![\w.+=-])N\s(?=\d{1,6}(?![\w:/+=-]|[.,]\d))")  # "журнал N 25" номер
_HALF_COMPOUND = re.compile(r"(?<![\w.,/-])1/2-([а-яё]{3,})(?![\w-])")  # "1/2-дюймовая" полудюймовая
_PERCENT_ADJECTIVE = re.compile(r"(?<![\w.,-])(\d{1,3})\s?%-(н[а-яё]{1,3})(?![\w-])")  # "5%-ный" пятипроцентный
_COMBINING = {"одного": "одно", "ста": "сто", "девяноста": "девяносто", "тысячи": "тысяче"}
# "целая" after a number, in each case: after one (одну целую), after more (двух целых, двум целым)
_WHOLE = {True: dict(zip("ngdaip", ("целая", "целой", "целой", "целую", "целой", "целой"))),
          False: dict(zip("ngdaip", ("целых", "целых", "целым", "целых", "целыми", "целых")))}
# Two numbers in a ratio or a score: "в соотношении 11:1" одиннадцать к одному, "со счётом 2:1" два-один.
_RATIO = re.compile(r"(?<![\w-])((?:[Сс]оотношени|[Пп]ропорци|[Оо]тношени)[а-яё]*|[Сс]ч[её]том|[Сс]ч[её]т)"
                    r"\s(\d{1,3}):(\d{1,3})(?![\d:])")
# Two numbers joined by a colon, the second of one digit (a time has two): a score, "1:0 в пользу" один-ноль.
_SCORE = re.compile(r"(?<![\w.,:/-])(\d{1,2}):(\d)(?![\w:]|[.,]\d)")
# Two years and "гг." (годы): "в 2020–2021 гг." в две тысячи двадцатом — две тысячи двадцать первом годах.
_YEAR_RANGE = re.compile(r"(?<![\w.,])(\d{4})\s?[–—-]\s?(\d{4})\s?(гг\.|гг(?!\w)|годах|годов|годы|годам|годами)")
# Two years of one season or school year: "в 2020/2021 учебном году", "сезон 2023/24".
_YEAR_SLASH = re.compile(r"(?<![\w.,/])((?:19|20)\d\d)/(\d{2}|(?:19|20)\d\d)(?![\w/]|[.,]\d)")
# Two decades or numbers with one ordinal ending: "в 60-70-х годах" шестидесятых-семидесятых.
_ORDINAL_PAIR = re.compile(r"(?<![\w.,-])(\d{1,4})[–—-](\d{1,4})-(х|е|ые|ых)(?![\w-])")
# A roman numeral with an ordinal's ending ("в XX-м веке", "XXI-й век", "с XIX-го века"): read as the digits would be.
_ROMAN_ORDINAL = re.compile(r"(?<![\w-])((?=[XVI])X{0,3}(?:IX|IV|V?I{0,3}))-(й|ый|ой|го|ого|му|ому|м|ом|я|ая|е|ое|х)"
                            r"(?![\w-])")
_YEARS = dict(zip("ngdaip", ("годы", "годов", "годам", "годы", "годами", "годах")))
_YEAR_ABBREVIATED = {"в": ("p", "году"), "во": ("p", "году"), "к": ("d", "году"), "ко": ("d", "году"),
                     "на": ("a", "год"), "за": ("a", "год"), "через": ("a", "год"), "по": ("a", "год")}
_YEARS_CASE = {word: case for case, word in _YEARS.items() if case != "a"}
# A time written with a dot after a preposition of time: "в 6.30 утра" в шесть часов тридцать минут утра.
_DOTTED_TIME = re.compile(r"(?<![\w-])((?:[Вв]|[Сс]|[Дд]о|[Кк]|[Пп]осле|[Оо]коло)\s)([01]?\d|2[0-3])\.([0-5]\d)"
                          r"(?!\d|[.,]\d|\s?(?:раз|%|процент))")
# A time written with a hyphen: "9-00" (a range never ends at 00), "в 10-30" where nothing a range counts follows
# ("в 5-10 раз", "в 10-15 км" stay ranges).
_HYPHEN_TIME = re.compile(r"(?<![\w.,:-])(?:([01]?\d|2[0-3])-(00)|(?<=[Вв] |[Кк] )([01]?\d|2[0-3])-([0-5]\d)"
                          r"(?=\s*(?:$|[.,;!?)]|(?:утра|дня|вечера|ночи|по|до|и)\b)))(?![\w-]|[.,]\d)")
# "ч." before a number and after none: a law's part ("ч. 2 ст. 15"), not hours ("2 ч. 15 мин.").
_PART = re.compile(r"(?<![\w.])(?<!\d )(?<!\d)([Чч])\.(?=\s?\d)")
# A time's "ч." after its minutes ("в 10.00 ч.", "в 18:30 ч"): the hours said already.
_HOURS_MARK = re.compile(r"(?<=\d:\d\d)\s?ч(\.?)(?!\w)")
# A range of times written with dots: "13.00–14.00" с тринадцати часов до четырнадцати часов, where a minute is a
# timetable's (00, 15, 30, 45): "12.05–18.05" stays a date's, "1.10-2.20" two numbers.
_DOTTED_RANGE = re.compile(r"(?<![\w.,:])([01]?\d|2[0-3])\.([0-5]\d)(\s?[–—-]\s?)([01]?\d|2[0-4])\.([0-5]\d)"
                           r"(?!\d|[.,]\d)")
# A month's abbreviation after a day's number ("5 янв. 2024", "до 3 сент."; `abbreviations.MONTHS_SHORT`): the month
# in the genitive, as a date says it.
_SHORT_MONTHS = {"янв": 0, "фев": 1, "февр": 1, "мар": 2, "апр": 3, "авг": 7, "сен": 8, "сент": 8, "окт": 9, "ноя": 10,
                 "нояб": 10, "дек": 11}
_DAY_SHORT_MONTH = re.compile(r"(?<![\w.,])(0?[1-9]|[12]\d|3[01])(\s)("
                              + "|".join(sorted(_SHORT_MONTHS, key=len, reverse=True)) + r")\.")
# Two numbers of one noun a number names: "с 1 по 5 класс" с первого по пятый класс, "со 2 по 4 этаж".
_DECADE_YEARS = re.compile(r"(?<![\w.,-])(\d{2,4}-(х|е))\s?гг\.")
_FROM_TO = re.compile(r"(?<![\w-])([Сс]о?\s)(\d{1,4})(\s(?:по|до)\s)(\d{1,4})(?=[\s\u00a0]+[а-яё]+)")
# Nouns of a size that "в" and a quantity in the accusative follow ("расстояние в 300 км", "весом в 2 кг").
_SIZES = {"расстояние", "высота", "глубина", "длина", "ширина", "толщина", "вес", "масса", "объём", "объем",
          "мощность", "площадь", "размер", "рост", "диаметр", "радиус", "емкость", "ёмкость", "стоимость", "цена",
          "сумма", "дистанция", "отрезок", "путь", "перепад", "слой", "упаковка", "пачка", "бутылка", "банка",
          "пакет", "мешок", "флакон", "канистра", "бочка", "коробка", "тюбик", "порция", "кусок", "бак"}
# Numbers joined by "и", "или", commas before one noun: "между 2 и 3 этажом", "на 2 и 3 этажах", "в 5, 6 и 7 классе".
_JOINED = re.compile(r"(?<![\w.,-])(\d{1,4}(?:\s?,\s?\d{1,4})*)(\s(?:и|или)\s)(\d{1,4})(?=[\s\u00a0]+[а-яё]+)")
# Nouns a number after them labels (said in the nominative whatever follows).
_LABELS = {"пункт", "статья", "глава", "страница", "том", "номер", "рисунок", "таблица", "параграф", "раздел",
           "часть", "подпункт", "абзац", "приложение", "строка", "столбец", "шаг", "этап", "лист", "слайд",
           "пример", "упражнение", "вопрос", "задача", "вариант"}
_LABEL_GENDERS = {**dict.fromkeys(("статья", "глава", "страница", "таблица", "часть", "строка", "задача"), "f"),
                  **dict.fromkeys(("приложение", "упражнение"), "n")}  # the rest are masculine
# A range of times: "9:00–18:00" с девяти часов до восемнадцати часов.
_TIME_RANGE = re.compile(r"(?<![\w.,:])(?:(?<![\w-])([Вв])\s)?(\d{1,2}):(\d{2})\s?[–—-]\s?(\d{1,2}):(\d{2})(?![\d:])")
# Ordinals joined to the one that shares their noun: "95-е и 98-е чудеса", "1-е, 2-е и 3-е места".
_COORDINATED = re.compile(r"^(?:\s*(?:,|и|или|[–—-])\s*\d{1,6}-[а-яё]{1,3})+")
# A price per a unit: "50 руб/кг", "100 рублей/кг" (the currency already said) пятьдесят рублей за килограмм.
_PRICE = re.compile(r"\s?(?:руб\.?|р\.|коп\.?)")
# A price per unit in words: "500 рублей за кг" за килограмм, "5 руб. за мин." за минуту, "по 100 руб. за шт."
_PER_WORD_UNIT = re.compile(r"(?<![\w.])([Зз]а)[\s\u00a0](кг|л|мл|м|км|шт|мин|сек|ч|уп|пач|экз|ед)(\.?)(?![\w/²³])")
_PRICE_PER = re.compile(r"(?<![\w-])((?:рубл|доллар|копе|цент|фунт|иен)[а-яё]*|евро)/([^\W\d_]+[²³]?\.?)(?![\w/])")
_SIGN_RANGE = re.compile(r"(?<![\w.,])([$€£¥₽])\s?(\d{1,6})(\s?[–—-]\s?)(\d{1,6})(?![\w.,]\d|[\w.,]?\d)")
# A count per a unit: "25 чел./км²" двадцать пять человек на квадратный километр, "3 шт./м²" три штуки на метр.
_COUNT_PER = re.compile(r"(?<=\d)(\s?(?:чел|шт|экз|ед)\.)/([^\W\d_]+[²³]?\.?)(?![\w/])")
_DOT_CENTS = re.compile(r"([$€£]\s?\d{1,3})\.(\d{2})(?!\d|[.,]\d)")
# Minutes and seconds, no hour of a day ("пробежал за 42:15" за сорок две минуты пятнадцать секунд).
_MINUTES_SECONDS = re.compile(r"(?<![\w:.,])(2[5-9]|[3-9]\d):([0-5]\d)(?![\w:]|[.,]\d)")
# An hour's zero minutes written out ("с 13 ч 00 мин", "в 9 ч. 00 мин."): the hours said alone.
_ZERO_MINUTES = re.compile(r"(?<![\w.,])(\d{1,2}\s?ч)\.?\s00\s?мин(\.?)(?!\w)")
# The hour after "половина" is its ordinal in the genitive ("в половине 3" в половине третьего).
_HALF_PAST = re.compile(r"(?<![\w-])([Пп]оловин[аеуы][\s\u00a0])(\d{1,2})(?![\w:/-]|[.,]\d|\s?(?:ч\b|час|мин|%))")
_MIDNIGHT = re.compile(r"(?<![\w:.,])24:00(?![\w:]|[.,]\d)")  # "до 24:00" до двадцати четырёх часов
_TIME_UNITS = {"час", "минута", "секунда", "миллисекунда", "сутки", "день", "неделя", "месяц", "год"}  # в час, в месяц
_ROMAN = r"(?=[XVI])X{0,3}(?:IX|IV|V?I{0,3})"
# A century or two in roman numerals before "в.", "вв." or "век" in any case ("в XIX в.", "XIX–XX вв.", "XX и XXI
# веков").
_CENTURY = re.compile(r"(?<![\w-])(" + _ROMAN + r")(?:(\s?[–—-]\s?|\s(?:и|или)\s)(" + _ROMAN + r"))?\s"
                      r"(вв?\.|век[а-я]{0,3})(?![\w-])")
_CENTURY_CASES = {"век": "n", "века": "g", "веку": "d", "веком": "i", "веке": "p", "веков": "g", "векам": "d",
                  "веками": "i", "веках": "p"}
# A roman numeral before a noun it names ("во II половине", "I квартал", "III степени").
_ROMAN_NAMED = re.compile(r"(?<![\w-])(" + _ROMAN + r")\s(половин|квартал|полугоди|тысячелети|степен|категори|разряд|"
                          r"этап|созыв|съезд|групп)([а-я]{0,4})(?![\w-])")
# A verb of going somewhere before "в" or "на" ("перейдите на стр. 5", "вернитесь в п. 3"): the place in the accusative.
_TOWARD = re.compile(r"([А-Яа-яЁё]+)[\s\u00a0]+(?:на|в|во)[\s\u00a0]+$")
_MOVING = {"перейти", "переходить", "вернуться", "возвращаться", "отправиться", "отправляться", "пролистать",
           "перелистнуть", "перелистать", "листать", "прокрутить", "попасть", "идти", "пойти", "зайти", "заходить"}
_REGNAL = re.compile(r"\b([А-ЯЁ][а-яё]{2,})\s(X{0,3}(?:IX|IV|V?I{0,3}))(?![\w'’-])")
# An equation's signs between numbers: "2+2=4" два плюс два равно четырём, "2*3" два умножить на три.
_EQUALS = re.compile(r"(?<=\d)\s?=\s?(?=[-−+]?\d)|(?<=\s)=(?=\s)")
_TIMES = re.compile(r"(?<=\d)\s?\*\s?(?=\d)")
# Two sizes with a letter x between them ("1920x1080", "3х4 м"): "на"; a number and a plus after it, an age's or a
# least ("18+", "50+"): "плюс".
_BY = re.compile(r"(?<![\w.,])(?!0[xX][0-9A-Fa-f])(\d{1,5})\s?[xхXХ×]\s?(\d{1,5})(?:\s?[xхXХ×]\s?(\d{1,5}))?"
                 r"(?![\w.,]\d|[\w]|\s?(?:=|равно))")  # "30×20×10 см"; not "2 × 3 = 6" (умножить на)
_AND_OVER = re.compile(r"(?<![\w.,])(\d{1,4})\+(?![\w+]|\s?\d)")
_COLLECTIVE = {2: "двое", 3: "трое", 4: "четверо"}
_NEXT_WORD = re.compile(r"[\s\u00a0]+(\w+)")
_WEEKDAYS = {"понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье"}  # "пятница, 13 мая"
_DAY_JOIN = r"(?:\s?[–—-]\s?|\s(?:по|до|и|или)\s|,\s)"  # between two days of one month
# Nouns of measure: time, containers, units written out, times and scales. A half, a third, a quarter of one is said
# with its own word ("1/2 стакана" половина стакана, "3/4 часа" три четверти часа), and a number and a half before
# one with "с половиной" ("в 2,5 раза" в два с половиной раза, "1,5 часа" полтора часа).
_MEASURE_NOUNS = {"секунда", "минута", "час", "сутки", "день", "неделя", "месяц", "год", "век", "столетие",
                  "стакан", "чашка", "кружка", "ложка", "ложечка", "банка", "бутылка", "пачка", "ведро", "упаковка",
                  "литр", "килограмм", "грамм", "тонна", "метр", "километр", "сантиметр", "раз", "тысяча", "миллион",
                  "миллиард", "оборот", "круг", "порция", "кило", "дюйм", "фут", "миля"}
_PARTS = {2: "половина", 3: "треть", 4: "четверть"}
_STAGES = {"финал"}  # "1/2 финала", "1/8 финала": a tournament's stage is named by the fraction ("одна восьмая финала")
# A fraction with a denominator of up to four digits ("1/125 секунды" одна сто двадцать пятая секунды).
_FRACTION = re.compile(r"(?<![\w.,/])(\d{1,3})/(\d{1,4})(?![\w/]|[.,]\d)")
# Two numbers with a slash that are no fraction: "50/50", "120/80" пятьдесят на пятьдесят, сто двадцать на восемьдесят;
# after an address's word "дом 12/3" двенадцать дробь три.
_SLASHED = re.compile(r"(?<![\w.,/])(\d{1,3})/(\d{1,3})(?![\w/]|[.,]\d)")
_ADDRESS = {"дом", "д", "корпус", "корп", "строение", "квартира", "кв", "владение", "вл", "участок", "офис"}
# A scale or a ratio whose second number has three digits or more ("1:100", "1:50 000"): no time.
_WIDE_RATIO = re.compile(r"(?<![\w.,:])(\d{1,3}):(\d{1,3}(?:[ \u00a0]\d{3})+|\d{3,})(?![\d:]|[.,]\d)")
# A code of numbers and single letters joined by hyphens ("2-б-34", "2-b-3"): said sign by sign.
_CODE = re.compile(r"(?<![\w.,/-])\d+(?:-[^\W\d_]-\d+)+(?![\w-]|[.,]\d)")
# A Russian telephone number: an area code after an optional 8, 7 or +7 ("8 (812) 987-65-43", "8 800 555-35-35",
# "(495) 123-45-67"), the last seven digits in groups of 3-2-2; a city's seven digits alone ("123-45-67"); the eleven
# digits in spaced groups 1-3-3-2-2 ("8 800 555 35 35").
_RU_PHONE = re.compile(r"(?<![\w+.,/-])(?:(?:(?:\+7|[78])[\s\u00a0-]?)?(?:\(\d{3,5}\)[\s\u00a0-]?|\d{3}[\s\u00a0-])"
                       r"\d{1,3}-\d{2}-\d{2}|\d{1,3}-\d{2}-\d{2}"
                       r"|[78][\s\u00a0]\d{3}[\s\u00a0]\d{3}[\s\u00a0]\d{2}[\s\u00a0]\d{2})(?![\w-]|[.,]\d)")

# The same written with other groups ("8-800-2000-122", "+7 9161234567", "8 495 1234567"): eleven digits after 8 or
# +7, an area code of three digits first.
_RU_PHONE_GROUPS = re.compile(r"(?<![\w+.,/-])(?:\+7|8)[\s\u00a0-]?(?:\(\d{3,5}\)[\s\u00a0-]?\d{1,7}|\d{3}(?:\d{7})?)"
                              r"(?:[\s\u00a0-]\d{1,7}){0,4}(?![\w-]|[.,]\d)")
# Groups of digits after a telephone's label, whatever their grouping ("Телефон: 123-456", "факс 2-45-17").
_LABELLED_PHONE = re.compile(r"(?<![\w-])((?:[Тт]елефон|[Фф]акс|[Тт]ел)[а-я]*\.?:?[\s\u00a0]+)"
                             r"(\d{2,4}(?:-\d{2,4})+)(?![\w-]|[.,]\d)")
# A hexadecimal number ("0x80070005"): "ноль икс", then each sign.
_HEX = re.compile(r"(?<![\w.])0[xX]([0-9A-Fa-f]+)(?!\w|\.\w)")


def _label_case(cases):
    """The case a label before its number takes after a preposition of `cases` ("в п. 3" в пункте, "по ст. 7" по
    статье, "согласно ч. 2" согласно части); None without a preposition."""
    return {"ap": "p", "ad": "d", "gi": "g", "ai": "a"}.get(cases, cases[0]) if cases else None


def _measure(phrase):
    """Whether a counted phrase ("чайная ложка", "килограмм") names a measure: one of `_MEASURE_NOUNS`."""
    return any(grammar.lemma(w) in _MEASURE_NOUNS for w in phrase.split())


def _distributive(cases, amount, value):
    """The case of an amount after a preposition governing `cases`: the first, but after "по" (dative or
    accusative) the dative where the amount ends in one ("по 1 кг" по одному килограмму, "по 21 руб." по двадцать
    одному рублю; "по 2 кг" по два килограмма)."""
    if not cases:
        return "n"
    whole, fraction = value(amount.lstrip("-−+"))
    if cases == "ad" and not fraction and whole % 10 == 1 and whole % 100 != 11:
        return "d"
    return cases[0]


def _currency_word(name, n, case):
    """A currency's word after `n` in `case`; one that does not decline ("тенге", "евро", "пенни") as it is."""
    return name if name in ("тенге", "евро", "пенни") else grammar.agreeing(name, n, case)


def _letter_names():
    """Latin letter -> its Russian name, from data/ru_letters.tsv."""
    lines = (Path(__file__).parent / "data" / "ru_letters.tsv").read_text(encoding="utf-8").splitlines()
    return dict(line.split("\t") for line in lines if line and not line.startswith(("#", "written\t")))


_LETTERS = _letter_names()


def _counted_table():
    """written -> (phrase, forms after 1, 2 and 5 or None), from data/ru_counted.tsv."""
    table = {}
    for line in (Path(__file__).parent / "data" / "ru_counted.tsv").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith(("#", "written\t")):
            continue
        written, phrase, *forms = line.split("\t")
        table[written] = (phrase, tuple(forms[0].split("|")) if forms and forms[0] else None)
    return table


class Russian(Spec):
    code = "ru"
    group, decimal = ".", ","  # "2.300" две тысячи триста (the space groups too)
    point, dot = "целых", "точка"
    minus, plus = "минус", "плюс"
    months = MONTHS
    currencies = {"₽": ("рубль", "рубля", "рублей", "копейка", "копейки", "копеек"),
                  "руб.": ("рубль", "рубля", "рублей", "копейка", "копейки", "копеек"),
                  "RUB": ("рубль", "рубля", "рублей", "копейка", "копейки", "копеек"),
                  "$": ("доллар", "доллара", "долларов", "цент", "цента", "центов"),
                  "USD": ("доллар", "доллара", "долларов", "цент", "цента", "центов"),
                  "долл.": ("доллар", "доллара", "долларов", "цент", "цента", "центов"),
                  "долл. США": ("доллар США", "доллара США", "долларов США", "цент", "цента", "центов"),
                  "€": ("евро", "евро", "евро", "цент", "цента", "центов"),
                  "EUR": ("евро", "евро", "евро", "цент", "цента", "центов"),
                  "£": ("фунт", "фунта", "фунтов", "пенни", "пенни", "пенни"),
                  "¥": ("иена", "иены", "иен", "сен", "сены", "сен"),
                  "JPY": ("иена", "иены", "иен", "сен", "сены", "сен"),
                  "GBP": ("фунт", "фунта", "фунтов", "пенни", "пенни", "пенни"),
                  "₸": ("тенге", "тенге", "тенге", "тиын", "тиына", "тиынов"),
                  "KZT": ("тенге", "тенге", "тенге", "тиын", "тиына", "тиынов"),
                  "₴": ("гривна", "гривны", "гривен", "копейка", "копейки", "копеек"),
                  "UAH": ("гривна", "гривны", "гривен", "копейка", "копейки", "копеек"),
                  "CNY": ("юань", "юаня", "юаней", "фэнь", "фэня", "фэней"),
                  "CHF": ("франк", "франка", "франков", "сантим", "сантима", "сантимов")}
    scales = {"тыс.": ("тысяча", "тысячи", "тысяч"), "тыс": ("тысяча", "тысячи", "тысяч"),
              "млн": ("миллион", "миллиона", "миллионов"),
              "млрд": ("миллиард", "миллиарда", "миллиардов"), "трлн": ("триллион", "триллиона", "триллионов")}
    units = {"км": ("километр", "километра", "километров"), "кг": ("килограмм", "килограмма", "килограммов"),
             "см": ("сантиметр", "сантиметра", "сантиметров"), "мм": ("миллиметр", "миллиметра", "миллиметров"),
             "м": ("метр", "метра", "метров"), "г": ("грамм", "грамма", "граммов"), "т": ("тонна", "тонны", "тонн"),
             "л": ("литр", "литра", "литров"), "мл": ("миллилитр", "миллилитра", "миллилитров"),
             "мг": ("миллиграмм", "миллиграмма", "миллиграммов"),
             "ч": ("час", "часа", "часов"), "мин": ("минута", "минуты", "минут"), "с": ("секунда", "секунды", "секунд"),
             "сек": ("секунда", "секунды", "секунд"), "мс": ("миллисекунда", "миллисекунды", "миллисекунд"),
             "с²": ("секунда в квадрате", "секунды в квадрате", "секунд в квадрате"),
             "ТБ": ("терабайт", "терабайта", "терабайт"), "ГБ": ("гигабайт", "гигабайта", "гигабайт"),
             "МБ": ("мегабайт", "мегабайта", "мегабайт"), "КБ": ("килобайт", "килобайта", "килобайт"),
             "Гб": ("гигабайт", "гигабайта", "гигабайт"), "Мб": ("мегабайт", "мегабайта", "мегабайт"),
             "GB": ("гигабайт", "гигабайта", "гигабайт"), "MB": ("мегабайт", "мегабайта", "мегабайт"),
             "°C": ("градус Цельсия", "градуса Цельсия", "градусов Цельсия"),
             "°С": ("градус Цельсия", "градуса Цельсия",
                                                                                   "градусов Цельсия"),
             "°F": ("градус Фаренгейта", "градуса Фаренгейта", "градусов Фаренгейта"),
             "°": ("градус", "градуса", "градусов"), "км/ч": ("километр в час", "километра в час", "километров в час"),
             "м/с": ("метр в секунду", "метра в секунду", "метров в секунду"),
             "м²": ("квадратный метр", "квадратных метра", "квадратных метров"),
             "км²": ("квадратный километр", "квадратных километра", "квадратных километров"),
             "Гц": ("герц", "герца", "герц"), "МГц": ("мегагерц", "мегагерца", "мегагерц"),
             "ГГц": ("гигагерц", "гигагерца", "гигагерц"), "Вт": ("ватт", "ватта", "ватт"),
             "кВт": ("киловатт", "киловатта", "киловатт"), "В": ("вольт", "вольта", "вольт"),
             "га": ("гектар", "гектара", "гектаров")}
    _FEMININE = ("т", "мин", "с", "сек", "мс", "с²")
    # The counting form after five and more, in the nominative and accusative, where usage prefers it to the
    # genitive plural ("12 кг" двенадцать килограмм; "от 80 кг" от восьмидесяти килограммов).
    counting = {"кг": "килограмм", "kg": "килограмм"}
    percent = ("процент", "процента", "процентов")
    # "1789 г." is a date's "года", "г. Москва" a city's; what a number counts ("3 шт.") agrees with it
    # "долл.": a currency, said with its amount; "ч.": hours after a number, a law's part before one; "в.", "вв.": a
    # century's after its roman numeral
    in_context = ("г.", "гг.", "долл.", "ч.", "в.", "вв.", *_counted_table())
    number_abbreviations = {"№": "номер", "стр.": "страница", "рис.": "рисунок", "гл.": "глава", "табл.": "таблица",
                            "т.": "том", "§": "параграф", "п.": "пункт", "ст.": "статья", "д.": "дом",
                            "кв.": "квартира", "корп.": "корпус", "тел.": "телефон", "доб.": "добавочный",
                            "тел": "телефон", "моб.": "мобильный", "разд.": "раздел", "прил.": "приложение"}
    # at a sentence's head, capitalized: "Стр. 5" Страница пять, "Тел. 8 800 …" Телефон
    number_abbreviations.update({w[0].upper() + w[1:]: said.capitalize() for w, said in number_abbreviations.items()
                                 if w[0].islower()})
    # a street's or a square's word before its name: "ул. Ленина" улица Ленина, "на ул. Ленина" на улице Ленина
    name_abbreviations = {w: said for w, said in ABBREVIATIONS["ru"].items() if w.casefold() in STREETS["ru"]}
    roman_before = ("глава", "Глава", "часть", "Часть", "том", "Том", "раздел", "Раздел")
    roman_after = ("век", "века", "веке", "веков", "веку", "съезд", "съезда")
    symbols = {"±": "плюс-минус", "×": "умножить на", "→": "в", "&": "и", "§": "параграф", "≈": "примерно",
               "≤": "меньше или равно", "≥": "больше или равно", "−": "минус", "°": "градусов", "~": "около",
               "½": "одна вторая", "¼": "одна четвёртая", "¾": "три четвёртых", "‰": "промилле"}

    def __init__(self):
        super().__init__()
        endings = "|".join(sorted({*_ENDINGS, *_CARDINAL_ENDINGS}, key=len, reverse=True))
        self.ordinal_pattern = re.compile(r"(?<![\w.,])(\d{1,6})-(" + endings + r")(?![\w])")
        # a heading in capitals writes the ending so too ("ИЗ 5-ГО СЛЕДСТВИЯ", "9-Е СЛЕДСТВИЕ"): read as written small
        self._capital_ending = re.compile(r"(?<![\w.,])(\d{1,6})-(" + endings.upper().replace("Ё", "[ЁЕ]")
                                          + r")(?![\w])")
        self._rub_kop = re.compile(r"(?<![\w.,])(\d+)\s?руб\.\s(\d{1,2})\s?коп\.")
        # a label before a colon and its number is still read: "Тел.: 8 800 …" Телефон: восемь, восемьсот
        # one that is also a unit not after a number, where it is the unit ("2 ст. (по 250 мл)" два стакана, not
        # статья; "д. 5 кв. 12" квартира)
        counted = {*self.units, *_counted_table()}
        units = [w for w in self.number_abbreviations if w in counted or w.rstrip(".") in counted]
        self._num_abbr = re.compile(r"(?:(?<!\d)(?<!\d[ \u00a0])(?=" + "|".join(map(re.escape, units)) + r")|(?!"
                                    + "|".join(map(re.escape, units)) + r"))"
                                    + self._table_pattern(self.number_abbreviations, r"(?=:?\s?[\d+(])").pattern)
        self._year = re.compile(r"(?<![\w.,])(\d{4})\s?(году|года|год|г\.(?!\s*(?:$|[А-ЯЁA-Z]))|г(?=\.))(?=\W|$)")
        # "с 1 января 1970 года": after a preposition that governs it, the day in the genitive; "г." keeps
        # its dot where it also ends the sentence.
        year_word = r"(?:\s?(?:года|г\.(?!\s*(?:$|[А-ЯЁA-Z]))|г(?=\.)))?"
        self._written_date = re.compile(r"(?<![\w.,])((?:[Сс]|[Сс]о|[Дд]о|[Оо]т|[Пп]осле|[Оо]коло)\s)?(\d{1,2})\s("
                                        + _MONTHS_WRITTEN + r")(?:\s(\d{4})" + year_word + ")?")
        # A number (or a range of two) and what it counts: a unit or an abbreviation ("3 ч. л.", "2–3 шт.").
        self.counted = {**{w: (forms[0], forms) for w, forms in self.units.items()}, **_counted_table()}
        words = "|".join(_spaced(w) for w in sorted(self.counted, key=len, reverse=True))
        self._counted = re.compile(r"(?<![\w.,])(?:(" + self.NUM + r")\s?[–—-]\s?)?([-−+]?" + self.NUM + r")\s?("
                                   + words + r")(?![\w/²³])(\.(?=[\s\u00a0]+[а-яё\d]))?")
        units = "|".join(re.escape(u) for u in sorted(self.counted, key=len, reverse=True)
                         if (len(u) > 1 or u in "тлм") and u not in self.scales and u.rstrip(".") not in self.scales)
        self._scaled_unit = re.compile(r"(?<=\d)(\s?(?:тыс\.?|млн\.?|млрд\.?))\s(" + units + r")(?![\w/²³])"
                                       r"(?:\.(?=[\s\u00a0]+[а-яё\d]))?")  # "3 млрд руб. в год": no sentence's dot
        self._fraction_counted = re.compile(r"(?<![\w.,/])(?<!\d )(\d{1,2})/(\d{1,2})\s?(" + words + r")(?![\w/²³])")
        self._ordinal_unit = re.compile(r"(?<![\w.,])(\d{1,5})-(й|ый|ой|го|ого|му|ому|м|ом)[ \u00a0](" + words
                                        + r")(?![\w/²³])(\.(?=[\s\u00a0]+[а-яё\d]))?")
        self._mixed_counted = re.compile(r"(?<![\w.,/])(\d{1,3}) (\d{1,2})/(\d{1,2})\s?(" + words + r")(?![\w/²³])")
        per = "|".join(re.escape(u) for u in sorted(self.counted, key=len, reverse=True)
                       if re.fullmatch(r"[^\W\d_]+[²³]?", u) and u not in self.scales)
        self._per_unit = re.compile(r"(?<![\w.,/])([-−+]?" + self.NUM + r")(\s?(?:" + per + r"))?/(" + per
                                    + r")(?![\w/²³])")
        self._counted_before = re.compile(r"(?<![\w.,])" + self.NUM + r"\s?(?:" + words + r")\.?[\s\u00a0]+$")
        self._counted_after = re.compile(r"\s?(?:" + words + r")(?![\w/²³])")
        self._day_range = re.compile(r"(?<![\w.,])(\d{1,2})(" + _DAY_JOIN + r")(\d{1,2})\s(" + _MONTHS_WRITTEN
                                     + r")(?!\w)")

    def cardinal(self, n, gender=None, case="n"):
        if gender == "pltm" and case in "na":  # a noun with no singular: "1 сутки" одни, "3 суток" трое
            if n in _COLLECTIVE:
                return _COLLECTIVE[n]
            said = self.cardinal(n, "m", case)
            return said[:-len("один")] + "одни" if said.endswith("один") else said
        if n == 0 and case in "gdip":  # "от нуля", "ниже нуля", "равно нулю": нуль's forms, as Russian says them
            return _ZERO_OBLIQUE[case]
        animate = gender == "anim"  # "вижу 21 студента": двадцать одного
        said = self.n2w(n, gender="m" if animate or gender == "pltm" else gender or "m", case=case, animate=animate)
        return re.sub(r"^одн(?:а|ой|у|ою) (?=тысяч)", "", said)  # "тысяча сто", not "одна тысяча сто"

    def read_ordinals(self, text):
        # "1990-х гг." девяностых годов, "80-е гг." восьмидесятые годы: the years' word for the plural ordinal to agree
        text = _DECADE_YEARS.sub(lambda m: f"{m.group(1)} {'годов' if m.group(2) == 'х' else 'годы'}{self._stop(m)}",
                                 text)
        text = _ROMAN_ORDINAL.sub(lambda m: f"{roman_value(m.group(1))}-{m.group(2)}" if roman_value(m.group(1))
                                  else m.group(0), text)
        text = _ORDINAL_PAIR.sub(lambda m: f"{m.group(1)}-{m.group(3)}-{m.group(2)}-{m.group(3)}"
                                 if int(m.group(1)) < int(m.group(2)) else m.group(0), text)

        def said(m):
            n, mark = int(m.group(1)), m.group(2)
            noun = _NEXT_WORD.match(_COORDINATED.sub("", m.string[m.end():], count=1))
            noun = noun.group(1) if noun and re.fullmatch(r"[А-Яа-яЁё]+", noun.group(1)) else ""
            if mark in ("е", "ые") and self._plural_e(n, mark, noun):  # "5-е классы", "95-е и 98-е": пятые
                return self.n2w(n, "ordinal", case="n", plural=True)
            if mark == "ми" and not _cardinal_case(n, mark):  # "5-ми": пятыми, or пяти after "до", "с", "из"
                return self._mi(n, m.string[:m.start()], noun)
            if mark == "ю" and grammar.plural_instrumental(noun) and self.cardinal(n, case="i").endswith("ю"):
                return self.cardinal(n, case="i")  # "с 12-ю платежами" двенадцатью: the cardinal's instrumental
            found = grammar.ordinal_ending_form(mark, noun)
            cases = grammar.preposition(m.string[:m.start()]) if mark in ("й", "ой") and not found else None
            if cases and "n" not in cases and "a" not in cases:  # "с 1-й по 5-ю страницу": с первой
                found = cases[0], "f"
            if mark == "м" and not found and not grammar.is_noun(noun) \
                    and grammar.is_verb(grammar.word_before(m.string[:m.start()])):
                found = "i", "m"  # "стал 1-м" первым: a predicate after a verb, no noun
            if found:  # "на 5-й минуте" пятой, "перед 3-м уроком" третьим
                return self.n2w(n, "ordinal", case=found[0], gender=found[1], animate=False)
            return self.ordinal(n, mark=mark)
        return self.ordinal_pattern.sub(said, text)

    def _mi(self, n, before, noun):
        """"N-ми" where the cardinal's genitive does not end so (пяти, девяти): the ordinal's instrumental plural the
        ending spells ("5-ми классами" пятыми), but the cardinal's genitive, as it is loosely written, after a
        preposition that governs it and before no noun in the instrumental plural ("с 5-ми лет" с пяти)."""
        cases = grammar.preposition(before)
        if cases and cases[0] == "g" and not grammar.plural_instrumental(noun):
            return self.cardinal(n, case="g")
        return self.n2w(n, "ordinal", case="i", plural=True)

    @staticmethod
    def _plural_e(n, mark, noun):
        """Whether "N-е" is the plural (пятые): before a plural noun, or before none it agrees with ("в 90-е",
        "1-е и 2-е"), where "-е" ends the plural as often as the neuter; not after 3 (третье: the plural is "3-и"),
        nor before a month ("1-е мая") or a singular noun ("5-е издание")."""
        if mark == "ые" or grammar.plural_case(noun):
            return True
        if n % 10 == 3 and n % 100 != 13 or noun.lower() in MONTHS:
            return False
        return not grammar.singular_noun(noun)

    def ordinal(self, n, gender="m", mark="", case="n"):
        if mark in ("и", "ьи") and n % 10 == 3 and n % 100 != 13:  # "3-и сутки": третьи (the cardinal's is "3-х")
            return self.n2w(n, "ordinal", case="n", plural=True)
        if mark == "ью" and not (n % 10 == 3 and n % 100 != 13):  # "8-ью" восемью; "3-ью" третью
            return self.cardinal(n, case="i")
        if mark == "ой" and not self.n2w(n, "ordinal").endswith("ой"):  # "5-ой" пятой; "2-ой", "6-ой" второй, шестой
            return self.n2w(n, "ordinal", case="g", gender="f")
        if _cardinal_case(n, mark):  # "2-х" двух, "18-ти" восемнадцати
            return self.cardinal(n, case=_cardinal_case(n, mark))
        if mark in _PLURAL and (n % 10 == 0 and n >= 20 or mark in ("х", "ых")):  # "1960-х", "5-х классах"
            return self.n2w(n, "ordinal", case=_PLURAL[mark], plural=True)
        if mark:
            case, gender = _ENDINGS[mark]
        return self.n2w(n, "ordinal", case=case, gender=gender, animate=False)

    def plural_index(self, written):
        whole, fraction = self.value(written.lstrip("-−+"))
        if fraction:
            return 1
        if whole % 10 == 1 and whole % 100 != 11:
            return 0
        return 1 if 2 <= whole % 10 <= 4 and not 12 <= whole % 100 <= 14 else 2

    def decimal_number(self, whole, fraction, case="n"):
        """"1,09" одна целая девять сотых; in the case its preposition governs: "в 1,09 раза" в одну целую девять
        сотых раза, "до 2,5" до двух целых пяти десятых."""
        if case == "n":
            return self.n2w(Decimal(f"{whole}.{fraction}"))
        return f"{self.cardinal(whole, 'f', case)} {self._part(whole, case)} " \
               f"{self.fraction(int(fraction), 10 ** len(fraction), case)}"

    def unit_gender(self, unit):
        return "f" if unit in self._FEMININE else "m"

    def currency_gender(self, currency, minor=False):
        return "f" if self.currencies[currency][3 if minor else 0] in ("копейка", "иена", "гривна") else "m"

    def _money(self, amount, currency, scale):
        names = self.currencies[currency]
        if scale:
            word = self.scales[scale]  # "1 тыс. руб." одна тысяча, "2 тыс." две тысячи
            return f"{self.number(amount, grammar.gender(word[0]))} {word[self.plural_index(amount)]} {names[2]}"
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

    def time(self, hours, minutes, seconds, case="n"):
        """13:05 тринадцать часов пять минут; in the case of a preposition: "с 6:00" с шести часов."""
        seconds = seconds or None  # "1:30:00" один час тридцать минут
        parts = [(hours, "час", "m")] + ([(minutes, "минута", "f")] if minutes or seconds is not None else []) + \
            ([(seconds, "секунда", "f")] if seconds is not None else [])
        return " ".join(f"{self.cardinal(n, gender, case)} {grammar.agreeing(noun, n, case)}"
                        for n, noun, gender in parts)

    def minutes_seconds(self, m):
        case = self._time_case(m)
        return " ".join(f"{self.cardinal(int(n), 'f', case)} {grammar.agreeing(noun, int(n), case)}"
                        for n, noun in ((m.group(1), "минута"), (m.group(2), "секунда")))

    @staticmethod
    def _time_case(m):
        cases = grammar.preposition(m.string[:m.start()])
        # "в 8:21" в восемь часов двадцать одну минуту: the accusative after в, на, за, через (said as the
        # nominative but for one minute); "до 9:30" до девяти часов тридцати минут
        return cases[0] if cases and cases[0] in "gdia" else "n"

    def read_time(self, text):
        def said(m):
            seconds = int(m.group(3)) if m.group(3) else None
            return self.time(int(m.group(1)), int(m.group(2)), seconds, self._time_case(m))
        return self._time.sub(said, text)

    def fraction(self, numerator, denominator, case="n"):
        """"3/4" три четвёртых; in a preposition's case: "около 1/3" около одной третьей, "к 2/3" к двум третьим."""
        return f"{self.cardinal(numerator, 'f', case)} {self._part(numerator, case, denominator)}"

    def say_mixed(self, m):
        """"1 1/2 часа" полтора часа, "2 1/2 минуты" две с половиной минуты (a half of a noun counted, as said);
        else "одна целая одна вторая"."""
        whole, numerator, denominator = map(int, m.groups())
        if not 0 < numerator < denominator <= 16:
            return m.group(0)
        gender = grammar.noun_gender(grammar.word_after(m.string[m.end():]))
        if (numerator, denominator) == (1, 4) and gender and whole:  # "3 1/4 дюйма" три с четвертью дюйма
            return f"{self.cardinal(whole, gender)} с четвертью"
        if (numerator, denominator) != (1, 2) or not gender:
            return self.mixed(whole, numerator, denominator)
        if whole == 1:
            return "полторы" if gender == "f" else "полтора"
        return f"{self.cardinal(whole, gender)} с половиной"

    def _part(self, n, case, denominator=None):
        """What follows `n` in a decimal or a fraction, in `case`: "целая"/"целых" (no denominator), else the
        denominator's ordinal ("сотая", "сотых"): singular after one, else the genitive plural in the nominative and
        accusative, the plural of the case in the others."""
        one = n % 10 == 1 and n % 100 != 11
        form = case if one or case not in "na" else "g"
        if denominator is None:
            return _WHOLE[one][form]
        return self.n2w(denominator, "ordinal", case=form, **({"gender": "f"} if one else {"plural": True}))

    def read_fractions(self, text):
        text = self._mixed.sub(self.say_mixed, text)

        def said(m):
            numerator, denominator = int(m.group(1)), int(m.group(2))
            if self._address(m.string[:m.start()]) and m.re is _FRACTION:
                return self.slashed(m)
            if not (1 < denominator <= 16 and numerator < denominator * 4 or _proper(numerator, denominator)):
                return m.group(0)
            if numerator >= 10 and numerator > denominator and m.re is _FRACTION:
                return self.slashed(m)  # "24/7" двадцать четыре на семь: no improper fraction of two digits
            of = grammar.word_after(m.string[m.end():])  # a fraction of something: "Съешь 1/2 яблока"
            case = self.part_case(m.string[:m.start()], bool(of), m.string[m.end():])
            if case == "a" and grammar.word_before(m.string[:m.start()]).lower() in ("в", "во") \
                    and grammar.genitive_noun(of) and grammar.lemma(of) != "раз" \
                    and not grammar.is_verb(grammar.word_before(m.string[:m.start()].rstrip()[:-1])):
                # "в 3/4 случаев" в трёх четвёртых случаев, "соперники в 1/4 финала" в одной четвёртой; after a
                # verb "в" is as often a direction ("вышла в 1/4 финала" в одну четвёртую)
                case = "p"
            if denominator in _PARTS and numerator < denominator and grammar.lemma(of) not in _STAGES and (
                    grammar.noun_gender(of) or grammar.genitive_word(of)):
                # a half, a third or a quarter of a whole named after it, as everyday speech says them ("1/2 яблока"
                # половину, "2/3 территории" две трети, "на 3/4 своего веса" на три четверти): the part's own word
                return self.part_of_measure(numerator, denominator, case)
            half = (numerator, denominator) == (1, 2)
            if half and (owner := grammar.feminine_before(m.string[:m.start()])):
                return grammar.inflected("половина", owner, "sing")  # "моя 1/2" моя половина
            if half and grammar.genitive_word(of) and grammar.lemma(of) not in _STAGES:
                return self.part_of_measure(1, 2, case)  # "1/2 данных", "1/2 всего": половина
            return self.fraction(numerator, denominator, case)
        text = _DECIMAL_OVER.sub(lambda m: f"{self.number(m.group(1))} из {self.cardinal(int(m.group(2)), case='g')}",
                                 text)  # "8,7/10" восемь целых семь десятых из десяти: a score out of a whole
        return _SLASHED.sub(self.slashed, _FRACTION.sub(said, _PER_POWER.sub(said, text)))

    @staticmethod
    def _address(before):
        return grammar.word_before(before.rstrip(" .\u00a0") + " ").lower() in _ADDRESS or \
            grammar.lemma(grammar.word_before(before)) in _ADDRESS

    def slashed(self, m):
        """Two numbers a slash joins that are no fraction: "на" between them ("50/50", "120/80"), "дробь" in an
        address ("дом 12/3")."""
        word = "дробь" if self._address(m.string[:m.start()]) else "на"
        return f"{self.cardinal(int(m.group(1)))} {word} {self.cardinal(int(m.group(2)))}"

    def part_of_measure(self, numerator, denominator, case):
        """"1/2 стакана" половина стакана, "3/4 часа" три четверти часа, "2/3 срока" две трети: a part of a measure by
        its own word, in `case`."""
        part = _PARTS[denominator]
        if numerator == 1:
            return grammar.inflected(part, case, "sing")
        return f"{self.cardinal(numerator, 'f', case)} {grammar.agreeing(part, numerator, case)}"

    @staticmethod
    def part_case(before, of=True, after=""):
        """The case of a fraction of something after `before` (`of`): its preposition's, the accusative as a verb's
        object ("Добавьте 1/3 стакана" одну третью), else the nominative; after "с" the instrumental where no "до" or
        "по" makes it a range's start ("с 1/2 стакана воды" с половиной стакана; "с 1/2 до 3/4" с одной второй)."""
        cases = grammar.preposition(before)
        if cases == "gi" and of and not re.match(r"[^,;!?]{0,25}?[\s\u00a0](?:до|по)[\s\u00a0]", after):
            return "i"
        if cases == "ad" and grammar.word_before(before).lower() == "по" and of:
            return "d"  # "по 1/2 стакана" по половине стакана: a share each, as "по 1 кг" по одному
        return cases[0] if cases else "a" if of and grammar.object_of_verb(before) else "n"

    def mixed(self, whole, numerator, denominator):
        return f"{self.cardinal(whole, 'f')} {('целая', 'целых', 'целых')[self.plural_index(str(whole))]} " \
               f"{self.fraction(numerator, denominator)}"

    def read_romans(self, text):
        """A monarch's number after a name in another case than the nominative agrees with it ("при Петре I" при
        Петре Первом, "эпоха Людовика XIV" Людовика Четырнадцатого); the rest as every language reads them."""
        def regnal(m):
            value, found = roman_value(m.group(2)), grammar.name_form(m.group(1))
            if not value or not found or found[0] == "n":
                return m.group(0)
            case, gender = found
            return f"{m.group(1)} {self.n2w(value, 'ordinal', case=case, gender=gender).capitalize()}"
        text = _ROMAN_NAMED.sub(self.roman_named, _CENTURY.sub(self.century, _REGNAL.sub(regnal, text)))
        return super().read_romans(text)

    def century(self, m):
        """"в XIX в." в девятнадцатом веке, "XIX–XX вв." девятнадцатый — двадцатый века, "XX и XXI веков" двадцатого и
        двадцать первого веков: ordinals in the case of the word written after them, of "в."/"вв." the case of their
        preposition (в: the prepositional), after a noun the genitive ("искусство XIX в.")."""
        first, second, word = roman_value(m.group(1)), m.group(3) and roman_value(m.group(3)), m.group(4)
        if not first or m.group(3) and not second:
            return m.group(0)
        case = _CENTURY_CASES.get(word)
        if second and word == "века" and not grammar.preposition(m.string[:m.start()]):
            case = "n"  # "XIX–XX века" девятнадцатый — двадцатый века: the plural
        if case is None:
            before = m.string[:m.start()]
            cases = grammar.preposition(before)
            case = ("p" if cases == "ap" else cases[0]) if cases else \
                "g" if grammar.is_noun(grammar.word_before(before)) else "n"
            word = grammar.inflected("век", case, "plur" if word == "вв." or second else "sing") + self._stop(m)
        said = self.ordinal(first, case=case)
        if second:
            join = " — " if m.group(2).strip() in "–—-" else m.group(2)
            said += join + self.ordinal(second, case=case)
        return f"{said} {word}"

    def roman_named(self, m):
        """"во II половине" во второй половине, "I квартал" первый квартал: an ordinal agreeing with its noun."""
        found = grammar.counted(1, m.group(2) + m.group(3), None)
        value = roman_value(m.group(1))
        if not found or not value:
            return m.group(0)
        return f"{self.n2w(value, 'ordinal', case=found[0], gender=found[1], animate=False)} {m.group(2)}{m.group(3)}"

    def roman(self, value, kind, word=""):
        if kind == "regnal":  # "Екатерина II": a queen's number is feminine
            return self.n2w(value, "ordinal", gender="f" if word.endswith(("а", "я")) else "m").capitalize()
        if kind == "ordinal":
            case = {"века": "g", "веке": "p", "веку": "d", "съезда": "g"}.get(word, "n")
            return self.ordinal(value, case=case)
        return self.cardinal(value)

    # Agreement ------------------------------------------------------------------------------------------------

    def agreement(self, n, text, start, end):
        """(case, gender, ordinal) of the whole number `n` written at text[start:end]: from the preposition before it
        and the noun after it (an adjective or two may stand between: "в 5 крупных городах"); an ordinal before a
        singular noun it cannot count ("в 5 классе"); else None."""
        if grammar.lemma(grammar.word_before(text[:start])) in _LABELS:
            return None  # "пункт 3 статьи 15", "глава 2 книги": a label's number, said as it is
        cases = grammar.preposition(text[:start]) or grammar.parallel_case(text[:start], grammar.word_after(text[end:]))
        if not cases and grammar.object_of_verb(text[:start]):
            cases = "angdip"  # a verb's object: "знаю 1000 способов" тысячу способов
        after = text[end:end + 60]
        named = not re.search(r"[A-Za-z]\s?$", text[max(0, start - 2):start])  # not "Win 98", "C-64"
        for i in range(3):
            word = grammar.word_after(after)
            if not word or word[0].isupper():
                break  # "WinErr: 1001 Ошибка при записи": a capital starts what follows, no noun counted
            if i == 0 and grammar.lemma(word) in _LABELS | _LETTER_LABELS \
                    and re.match(r"[\s\u00a0]*" + word + r"[\s\u00a0]+\d", after):
                return None  # "д. 5 кв. 12" дом пять квартира двенадцать: the next label's, not this number's noun
            found = None if i == 0 and grammar.names(n, word) else grammar.counted(n, word, cases)
            if not found and i == 0 and cases == "d" and grammar.word_before(text[:start]).lower() == "равно":
                found = grammar.counted(n, word, None)  # "1 час = 100 рублей" равно сто рублей: as the noun is
            if found:
                return (*found, False)
            if i == 0 and named and (n > 1 or grammar.names(n, word)) and (found := grammar.ordinal_use(word, cases)):
                return (*found, True)
            if not grammar.is_adjective(word):
                break
            after = after[after.index(word) + len(word):]
        if cases == "ap" and 1000 <= n <= 2100 and named:  # "в 1968 (году)": в тысяча девятьсот шестьдесят восьмом
            return "p", "m", True
        if cases == "ap" and re.match(r"[\s\u00a0]+из[\s\u00a0]+\d", text[end:]):  # "в 3 из 4 случаев" в трёх из
            return "p", "m", False
        return (cases[0], "m", False) if cases else None

    def say_number(self, m):
        sign, written = m.group(1), m.group(2)
        whole, fraction = self.value(written)
        if written[0] == "0" and len(written) > 1 and written.isdigit():  # "Агент 007", "индекс 01067": every digit
            return (f"{self.minus if sign in '-−' else self.plus} " if sign else "") + self.digits(written)
        if fraction == "5" and not sign and (half := self.and_a_half(whole, m)):
            return half
        if fraction and sign != "+" and (cases := grammar.preposition(m.string[:m.start()])
                                          or ("a" if grammar.object_of_verb(m.string[:m.start()]) else None)):
            found = grammar.counted(whole, grammar.word_after(m.string[m.end():]), cases, decimal=True)
            said = self.decimal_number(whole, fraction, found[0] if found else cases[0])
            return f"{self.minus} {said}" if sign else said
        if sign == "+" and not grammar.preposition(m.string[:m.start()]) or fraction:
            return super().say_number(m)  # "от +2 до +6 °C": от плюс двух до плюс шести
        found = self.agreement(whole, m.string, m.start(), m.end())
        if found is None:
            return super().say_number(m)
        case, gender, ordinal = found
        if case == "g" and whole in _COLLECTIVE and self._children(m):  # "У него 3 детей" трое детей
            return _COLLECTIVE[whole]
        said = self.ordinal(whole, gender, case=case) if ordinal else self.cardinal(whole, gender, case)
        if sign:  # "до -15 градусов": до минус пятнадцати градусов
            return f"{self.plus if sign == '+' else self.minus} {said}"
        return said

    @staticmethod
    def _children(m):
        """Whether "детей" follows a number nothing before governs (no preposition, verb or "нет"): its collective."""
        before = m.string[:m.start()]
        return grammar.word_after(m.string[m.end():]).lower() == "детей" and not grammar.preposition(before) \
            and not grammar.is_verb(grammar.word_before(before)) \
            and grammar.word_before(before).lower() not in ("нет", "нету")

    def range_start(self, first, written, case):
        """The first number of a range of what `written` counts, in `case`, its decimal said ("0,5–1 кг" ноль целых
        пять десятых — один; "1,5–2 кг" полтора-два, a half of a measure as in `and_a_half`)."""
        whole, fraction = self.value(first)
        gender = self._counted_gender(written)
        if fraction == "5" and _measure(self.counted[written][0]) and case in "na" and whole and not (whole % 10 == 1 and whole != 1):
            return self.half(whole, gender)
        if fraction:
            return self.number(first, gender) if case == "n" else self.decimal_number(whole, fraction, case)
        return self.cardinal(whole, gender, case)

    def half(self, whole, gender):
        """A number and a half: полтора, полторы, два с половиной."""
        if whole == 1:
            return "полторы" if gender == "f" else "полтора"
        return f"{self.cardinal(whole, gender)} с половиной"

    def and_a_half(self, whole, m):
        """"1,5 часа" полтора часа, "в 2,5 раза" в два с половиной раза: a number and a half before a noun of measure
        in the nominative or the accusative; None elsewhere (a whole ending in one, another case, another noun)."""
        noun = grammar.word_after(m.string[m.end():])
        # one and a half of anything counted is полтора ("1,5 землекопа", "1,5 процента"); more, of a measure only
        gender = grammar.noun_gender(noun) if whole == 1 or grammar.lemma(noun) in _MEASURE_NOUNS else None
        if not gender or whole == 0 or whole % 10 == 1 and whole != 1:
            return None
        before = m.string[:m.start()]
        cases = grammar.preposition(before)
        found = grammar.counted(whole, noun, cases, decimal=True) if cases else None
        if (found[0] if found else cases[0] if cases else "n") not in "na":
            return None
        return self.half(whole, gender)

    def counted_phrase(self, amount, written, case):
        """What a number counts (a unit, an abbreviation) as said after `amount` in `case`."""
        phrase, forms = self.counted[written]
        whole, fraction = self.value(amount.lstrip("-−+"))
        if fraction and " " in phrase and case in "na":  # "2,5 м²" две целых пять десятых квадратного метра
            return grammar.inflected(phrase, "g", "sing")
        if forms and case in "na" and not (case == "a" and self.plural_index(amount) == 0):  # через 1 мин: минуту
            index = self.plural_index(amount)
            return self.counting.get(written, forms[2]) if index == 2 else forms[min(index, len(forms) - 1)]
        if forms and len(forms) == 3 and case == "g":  # the counting genitive as listed: до пяти килограммов
            return forms[1 if grammar.noun_form(whole, case, bool(fraction))[1] == "sing" else 2]
        return grammar.agreeing(phrase, whole, case, bool(fraction))

    def read_measures(self, text):
        # "3,2 млн л" три целых две десятых миллиона литров: a unit after a scale word in the genitive plural
        text = self._scaled_unit.sub(lambda m: f"{m.group(1)} {self.scaled(m.group(2))}{self._stop(m)}", text)
        text = self._ordinal_unit.sub(self.ordinal_unit, text)
        text = self._fraction_counted.sub(self.fraction_counted, self._mixed_counted.sub(self.mixed_counted, text))
        text = _PRICE_PER.sub(self.price_per, _COUNT_PER.sub(self.count_per, text))
        text = _PER_WORD_UNIT.sub(self.price_per_word, text)
        text = self._per_unit.sub(lambda m: f"{m.group(1)}{m.group(2) or ''} "
                                  f"{self.per(m.group(3), bool(_PRICE.fullmatch(m.group(2) or '')))}"
                                  f"{self._stop(m)}", text)

        def said(m):
            first, amount, written = m.group(1), m.group(2), re.sub(r"\s", " ", m.group(3))
            written = written if written in self.counted else self._counted_key(written)
            after = m.string[m.end():]
            if written == "ст." and re.match(r"\s?\d", after):
                return m.group(0)  # "п. 3 ст. 15": an article of a law, said by the abbreviations before its number
            if written == "с" and (re.match(r"\s+\d", after) or grammar.is_preposition_use(grammar.word_after(after))):
                return m.group(0)  # "2 с половиной", "10 с лишним", "№ 7 с 3 пути": the preposition, not seconds
            before = self._compound_head(m.string[:m.start()])
            cases = grammar.preposition(before)
            case = "p" if cases == "ap" and self._located(m) else _distributive(cases, amount, self.value)
            if case == "n" and grammar.object_of_verb(before):
                case = "a"  # "Добавьте 1 ч. л. сахара" одну чайную ложку
            gender = self._counted_gender(written)
            whole, fraction = self.value(amount.lstrip("-−+"))
            number = self.number(amount, gender) if case == "n" else \
                self.decimal_number(whole, fraction, case) if fraction else self.cardinal(whole, gender, case)
            if case != "n" and amount[0] in "-−+":  # "до +35 °C" до плюс тридцати пяти градусов
                number = f"{self.plus if amount[0] == '+' else self.minus} {number}"
            if first:  # "2–3 ст. л.": две-три столовые ложки, "1,5–2 кг" полтора-два килограмма
                number = f"{self.range_start(first, written, case)}-{number}"
            said = f"{number} {self.counted_phrase(amount, written, case)}"
            if written.endswith(".") and self._ends_sentence(after):
                said += "."
            elif m.group(4) and written in ("г", "т"):  # "1 т. е.", "в 1812 г. он": the dot is no unit's
                said += "."
            return said  # "5 мин. спустя": a unit's dot before a lower-case word is its abbreviation's
        return self._counted.sub(said, text)

    def _compound_head(self, before):
        """`before` less a quantity the number's own one goes on ("к 7 ч 30 мин" к семи часам тридцати минутам, "около
        2 кг 300 г" около двух килограммов трёхсот граммов): the second part takes the case of the first."""
        head = self._counted_before.search(before[-40:])
        return before[:len(before) - len(head.group(0))] if head and not grammar.preposition(before) else before

    @staticmethod
    def _located(m):
        """Whether "в" before a quantity says where, in the prepositional ("в 5 км от города" в пяти километрах,
        "в 50 мл воды" в пятидесяти миллилитрах): "от" or a noun in the genitive follows (not a time of day: "в 2 ч
        дня"), and no noun of size or container stands before ("расстояние в 300 км", "пачка в 500 г": the
        accusative)."""
        if grammar.lemma(grammar.word_before(m.string[:m.start()].rstrip()[:-1])) in _SIZES \
                or m.group(3).rstrip(".") in Russian.scales or m.group(3).startswith("шт"):
            return False  # "обошлось в 1 млн рублей", "в 5 шт." count, they do not place
        after = grammar.word_after(m.string[m.end():])
        return after == "от" or len(after) > 1 and grammar.genitive_noun(after) \
            and not grammar.time_of_day(after)  # "в 2 ч дня"

    def count_per(self, m):
        unit = m.group(2) if m.group(2) in self.counted else m.group(2).rstrip(".")
        if unit not in self.counted:
            return m.group(0)
        return f"{m.group(1)} {self.per(unit, price=True).replace('за ', 'на ', 1)}{self._stop(m)}"

    def price_per(self, m):
        """"рублей/кг" рублей за килограмм, "руб./мес." рублей в месяц."""
        unit = m.group(2) if m.group(2) in self.counted else m.group(2).rstrip(".")
        if unit not in self.counted:
            # a noun written out ("рублей/час" в час, "евро/ночь" за ночь): per it, in the accusative
            lemma = grammar.lemma(unit) if grammar.is_noun(unit) else ""
            if not lemma or unit.endswith("."):
                return m.group(0)
            return f"{m.group(1)} {'в' if lemma in _TIME_UNITS else 'за'} {grammar.inflected(lemma, 'a', 'sing')}"
        return f"{m.group(1)} {self.per(unit, price=True)}{self._stop(m)}"

    def _stop(self, m):
        """"." where an abbreviation's dot at the end of `m` also ends the sentence ("Сумма 5 руб.", "… руб./мес.")."""
        return "." if m.group(0).endswith(".") and self._ends_sentence(m.string[m.end():]) else ""

    def per(self, unit, price=False):
        """"/кг" в килограмме, "/ч" в час, a price's "за килограмм" (but "в месяц"): what a quantity is per."""
        phrase = self.counted[unit][0]
        timed = grammar.lemma(phrase.split()[0]) in _TIME_UNITS  # "/с²" в секунду в квадрате
        if timed or price:
            return ("в " if timed else "за ") + grammar.inflected(phrase, "a", "sing")
        return "в " + grammar.inflected(phrase, "p", "sing")

    def price_per_word(self, m):
        """"за кг" за килограмм, "за шт." за штуку: what a price is per, in the accusative; the dot kept where it
        also ends the sentence."""
        unit = m.group(2) + m.group(3) if m.group(2) + m.group(3) in self.counted else m.group(2)
        if unit not in self.counted:
            return m.group(0)
        said = f"{m.group(1)} {grammar.inflected(self.counted[unit][0], 'a', 'sing')}"
        return said + ("." if m.group(3) and self._ends_sentence(m.string[m.end():]) else "")

    def scaled(self, written):
        """A unit or what a number counts after "тыс.", "млн": in the genitive plural (миллиона литров)."""
        if written in self.units:
            return self.units[written][2]
        phrase, forms = self.counted[written]
        return forms[-1] if forms else grammar.inflected(phrase, "g", "plur")

    def fraction_counted(self, m):
        """"3/4 ч. л." три четвёртых чайной ложки: a fraction of what it counts, that in the genitive singular."""
        numerator, denominator = int(m.group(1)), int(m.group(2))
        written = re.sub(r"\s", " ", m.group(3))
        written = written if written in self.counted else self._counted_key(written)
        if not (1 < denominator <= 16 or _proper(numerator, denominator)) or numerator >= denominator \
                or written == "с":
            return m.group(0)
        phrase, case = self.counted[written][0], self.part_case(m.string[:m.start()], True, m.string[m.end():])
        part = self.part_of_measure if denominator in _PARTS and _measure(phrase) else self.fraction
        said = f"{part(numerator, denominator, case)} {grammar.inflected(phrase, 'g', 'sing')}"
        return said + ("." if written.endswith(".") and self._ends_sentence(m.string[m.end():]) else "")

    def ordinal_unit(self, m):
        """"на 101-м км" на сто первом километре, "с 5-го км" с пятого километра: an ordinal and the unit it names, in
        the case its ending says (of "-м" the preposition's: "перед 3-м км" перед третьим; of a feminine's "-й" too: "на
        2-й мин." на второй минуте)."""
        written = re.sub(r"\s", " ", m.group(3))
        written = written if written in self.counted else self._counted_key(written)
        phrase = self.counted[written][0]
        gender, cases = grammar.gender(phrase), grammar.preposition(m.string[:m.start()]) or ""
        if written == "с" or gender == "n" or gender == "f" and (m.group(2) not in ("й", "ой") or not cases):
            return m.group(0)
        if gender == "f":  # "на 2-й мин." на второй минуте: the feminine's case is its preposition's
            case = "p" if cases == "ap" else cases[0]
        else:
            case = {"й": "n", "ый": "n", "ой": "n", "го": "g", "ого": "g", "му": "d", "ому": "d"}.get(
                m.group(2), "i" if "i" in cases and "p" not in cases else "p")
        said = f"{self.ordinal(int(m.group(1)), gender, case=case)} {grammar.inflected(phrase, case, 'sing')}"
        return said + ("." if written.endswith(".") and self._ends_sentence(m.string[m.end():]) else "")

    def mixed_counted(self, m):
        """"1 1/2 ч. л." полторы чайные ложки, "2 1/2 ст." два с половиной стакана, "2 1/4 стакана" два с четвертью
        стакана (the unit agreeing with the whole, one and a half as two), else "1 1/3 стакана" одна целая одна третья
        стакана."""
        whole, numerator, denominator = map(int, m.groups()[:3])
        written = re.sub(r"\s", " ", m.group(4))
        written = written if written in self.counted else self._counted_key(written)
        if not 0 < numerator < denominator <= 16 or written == "с":
            return m.group(0)
        gender = self._counted_gender(written)
        if (numerator, denominator) in ((1, 2), (1, 4)) and whole:
            number = self.half(whole, gender) if denominator == 2 else f"{self.cardinal(whole, gender)} с четвертью"
            said = f"{number} {self.counted_phrase(str(max(whole, 2)), written, 'n')}"
        else:
            said = f"{self.mixed(whole, numerator, denominator)} " \
                   f"{grammar.inflected(self.counted[written][0], 'g', 'sing')}"
        return said + ("." if written.endswith(".") and self._ends_sentence(m.string[m.end():]) else "")

    def _counted_key(self, written):
        return next(w for w in self.counted if re.sub(r"\s", "", w) == re.sub(r"\s", "", written))

    def _counted_gender(self, written):
        if written in self.units:
            return self.unit_gender(written)
        phrase = self.counted[written][0]
        return "pltm" if grammar.plurale_tantum(phrase) else grammar.gender(phrase)  # "1 сут." одни сутки

    def combining(self, n):
        """A number as the first part of a compound word: пяти-, одно-, сто-, девяносто-, шестидесятичетырёх-."""
        return "".join(_COMBINING.get(w, w) for w in self.cardinal(n, case="g").split())

    def lettered(self, m):
        """"дом 12Б" двенадцать Б, "маршрут 7А" семь А, "в 5А классе" в пятом А классе: a number and the letter
        written after it, where the letter is no unit ("3В" is three volts, "5г" five grams) unless a label names
        what the number is ("корпус 3В", "д. 12а")."""
        n, letter = int(m.group(1)), m.group(2) or m.group(3)
        noun = grammar.word_after(m.string[m.end():])
        if grammar.lemma(noun) == "класс" and (found := grammar.ordinal_use(noun, None)):
            return f"{self.n2w(n, 'ordinal', case=found[0], gender=found[1], animate=False)} {letter}"
        before = m.string[max(0, m.start() - 24):m.start()]
        labelled = _LETTER_LABEL.search(before) or grammar.lemma(grammar.word_before(before)) in _LETTER_LABELS
        if (m.group(3) or letter.islower() or letter in self.counted) and not labelled:
            return m.group(0)
        written = m.group(1)
        return f"{self.digits(written) if written[0] == '0' and len(written) > 1 else self.cardinal(n)} {letter}"

    def percent_described(self, m):
        """"со 100% непрозрачностью" со стопроцентной непрозрачностью: a percentage before the noun it describes
        (not one it counts, "5% населения", nor an amount after a preposition, "на 20% выручка") is an adjective
        agreeing with it."""
        adjective = f"{self.combining(int(m.group(1)))}процентный"
        if m.group(2):  # an adjective's ending written ("при 5%-й годовой ставке"): the noun after any adjectives
            noun = next((w for w in re.findall(r"[а-яё]+", m.string[m.end():m.end() + 60])[:3]
                         if not grammar.is_adjective(w)), m.group(3))
            said = grammar.described_form(adjective, noun)
            return f"{said or adjective} "
        before = grammar.word_before(m.string[:m.start()]).lower()
        case = grammar.noun_case(m.group(3))
        if case in (None, "g") or before in grammar.PREPOSITIONS and not (before in ("с", "со") and case == "i"):
            return m.group(0)
        said = grammar.described_form(adjective, m.group(3))
        return f"{said} " if said else m.group(0)

    def compound(self, m):
        """"64-битных" шестидесятичетырёхбитных: the number in the genitive (one, a hundred and ninety as in
        "однобайтный", "стограммовый", "девяностоградусный"), joined to the adjective."""
        said, word = self.combining(int(m.group(1))), m.group(2)
        # the genitive's ending written before the adjective is no second one ("5-тиэтажный" пятиэтажный,
        # "2-хкомнатная" двухкомнатная)
        ending = next((e for e in ("ти", "ми", "ух", "ёх", "х") if word.startswith(e) and said.endswith(e)
                       and grammar.is_adjective(word[len(e):])), "")
        if not ending and not grammar.is_adjective(word) and not grammar.adjective_likelier(word):
            return m.group(0)
        return said + word[len(ending):]

    def ratio(self, m):
        first, second = int(m.group(2)), int(m.group(3))
        if m.group(1).lower().startswith("сч"):
            return f"{m.group(1)} {self.cardinal(first)}-{self.cardinal(second)}"
        return f"{m.group(1)} {self.cardinal(first)} к {self.cardinal(second, case='d')}"

    def read(self, text):
        text = _LATIN_NUMERO.sub("№ ", text)  # "N 25": a Latin N for "№", as typewriters wrote it
        text = self._capital_ending.sub(lambda m: f"{m.group(1)}-{m.group(2).lower()}", text)
        text = _HYPHEN_TIME.sub(lambda m: f"{m.group(1) or m.group(3)}:{m.group(2) or m.group(4)}", text)
        # "100 ºC" (the ordinal sign for a degree), "180° С" (a space before the scale): one unit, "°C"
        text = re.sub(r"(?<=\d)(\s?)[°º]\s?(?=[CСF](?!\w))", "\\1°", text)
        text = _HALF_COMPOUND.sub(lambda m: "полу" + m.group(1) if grammar.is_adjective(m.group(1)) else m.group(0),
                                  text)
        text = _ANNIVERSARY.sub(lambda m: self.combining(int(m.group(1))) + m.group(2), text)
        text = _RATIO.sub(self.ratio, _COMPOUND.sub(self.compound, text))
        text = _WIDE_RATIO.sub(lambda m: f"{self.cardinal(int(m.group(1)))} к "
                               f"{self.cardinal(int(re.sub(r'[ ]', '', m.group(2).replace(chr(160), ''))), case='d')}",
                               text)
        text = _SCORE.sub(lambda m: f"{self.cardinal(int(m.group(1)))}-{self.cardinal(int(m.group(2)))}", text)
        text = _PERCENT_ADJECTIVE.sub(lambda m: f"{self.combining(int(m.group(1)))}процент{m.group(2)}", text)
        text = _PERCENT_BEFORE_NOUN.sub(self.percent_described, text)
        text = _TIMES.sub(" умножить на ", _EQUALS.sub(" равно ", text))
        text = _AND_OVER.sub(lambda m: f"{m.group(1)} {self.plus}", _BY.sub(self.by, text))
        text = _CODE.sub(self.code_said, text)
        text = _HEX.sub(lambda m: "ноль икс " + " ".join(self.digits(c) if c.isdigit() else _LETTERS[c.lower()]
                                                         for c in m.group(1)), text)
        text = _GLUED.sub(lambda m: m.group(0) if m.group(1) in self.counted else f"{m.group(1)} {m.group(2)}", text)
        text = _GLUED_BEFORE.sub(self.unglued, text)
        # "с 2-го пути", "в 2-м", "к 2-му": со второго, во втором, ко второму (the preposition's vowel before "вт")
        return _PREPOSITION_VOWEL.sub(lambda m: (m.group(1) or m.group(2)) + "о ", super().read(text))

    def by(self, m):
        """"1920x1080" тысяча девятьсот двадцать на тысячу восемьдесят; "3х4 м": "на" between, the unit's pass reads
        the numbers (три на четыре метра)."""
        sizes = [n for n in m.groups() if n]
        if "×" in m.group(0) and len(sizes) == 2 and not self._counted_after.match(m.string, m.end()):
            return m.group(0)  # "2 × 3" два умножить на три; "1×1 см" a size, один на один сантиметр
        if self._counted_after.match(m.string, m.end()):
            return " на ".join(sizes)
        return " на ".join([self.cardinal(int(sizes[0]))] + [self.cardinal(int(n), case='a') for n in sizes[1:]])

    def code_said(self, m):
        """"2-b-34" два би три четыре: a code's digits one by one, a Latin letter by its Russian name."""
        return " ".join(self.digits(piece) if piece.isdigit() else _LETTERS.get(piece.lower(), piece)
                        for piece in m.group(0).split("-"))

    def unglued(self, m):
        """"1тест" один тест, "3комнатная" трёхкомнатная (as "3-комнатная"); not a unit or a currency written close
        ("5мин", "10руб"), nor an ordinal's or a cardinal's ending without its hyphen ("5ого", "2мя")."""
        word = m.group(2)
        if word in _ENDINGS or word in _CARDINAL_ENDINGS or any(
                word == w.rstrip(".") for w in (*self.counted, *self.currencies) if w[:1].isalpha()):
            return m.group(0)
        return self.combining(int(m.group(1))) + word if grammar.is_adjective(word) else f"{m.group(1)} {word}"

    def read_telephones(self, text):
        text = _LABELLED_PHONE.sub(lambda m: m.group(1) + self.telephone(m.group(2)), text)
        text = _RU_PHONE.sub(lambda m: self.telephone(m.group(0)), text)
        text = _RU_PHONE_GROUPS.sub(lambda m: self.telephone(m.group(0)) if len(re.sub(r"\D", "", m.group(0))) == 11
                                    else m.group(0), text)
        return super().read_telephones(text)

    def telephone(self, written):
        """A telephone number group by group, each said as a number, as Russians say them: "+7 (495) 123-45-67"
        плюс семь, четыреста девяносто пять, сто двадцать три, сорок пять, шестьдесят семь."""
        groups = re.findall(r"\d+", written)
        if len(groups[0]) == 11 and groups[0][0] in "78":  # "+79161234567", "89161234567": the country's digit apart
            groups[:1] = [groups[0][0], groups[0][1:]]
        said = [self.phone_group(g) for g in groups]
        if written.lstrip().startswith("+"):
            said[0] = f"{self.plus} {said[0]}"
        return ", ".join(said)

    def phone_group(self, digits):
        """One group of a telephone number: its leading zeros said ("05" ноль пять, "00" ноль ноль), up to three digits
        as a number, four as two pairs ("1234" двенадцать тридцать четыре), ten or seven as 3-3-2-2 or 3-2-2 (a
        Russian number written together: "9161234567"), another run digit by digit."""
        if len(digits) in (7, 10):
            cuts = (0, 3, 6, 8, 10) if len(digits) == 10 else (0, 3, 5, 7)
            return ", ".join(self.phone_group(digits[a:b]) for a, b in zip(cuts, cuts[1:]))
        if len(digits) > 4:
            return self.digits(digits)
        if len(digits) == 4 and digits.endswith("00") and digits[0] != "0":
            return self.cardinal(int(digits))  # "2000" две тысячи
        if len(digits) == 4:
            return f"{self.phone_group(digits[:2])} {self.phone_group(digits[2:])}"
        zeros = len(digits) - len(digits.lstrip("0")) if digits.strip("0") else len(digits)
        return " ".join(["ноль"] * zeros + ([self.cardinal(int(digits))] if digits.strip("0") else []))

    def read_abbreviations(self, text):
        text = re.sub(r"(?:№|(?<![\w&])#)\s?(?=\d)", "№ ", text)  # "№7", "#7": номер семь
        text = re.sub(r"(?<=\()([Рр]ис)(?= \d)", r"\1.", text)  # "(рис 2)": a figure's, written without its dot
        # "на 3 см.": centimetres, not "смотри" (the counted pass reads it, its dot kept)
        text = re.sub(r"(?<=\d)(\s?)см\.", "\\1см\0.", text)
        text = re.sub(r"(?<=\d )ст\.(?=\s?\d)", "статьи", text)  # "п. 3 ст. 15": пункт три статьи пятнадцать
        text = _PART.sub(self.part_of_law, text)
        text = self._num_abbr.sub(self.label_in_case, text)
        text = self._name_abbr.sub(self.street_in_case, text)
        text = super().read_abbreviations(text).replace("см\0.", "см.")
        return _LETTERED.sub(self.lettered, text)  # after "д.", "№" are said: "д. 12а" дом двенадцать а

    def part_of_law(self, m):
        """"ч. 2 ст. 15" часть два статьи пятнадцать, "согласно ч. 2" согласно части два: "ч." before a number that
        follows no number (after one it is hours: "2 ч. 15 мин.")."""
        case = _label_case(grammar.preposition(m.string[:m.start()])) or "n"
        said = grammar.inflected("часть", case, "sing")
        return said.capitalize() if m.group(1) == "Ч" else said

    def label_in_case(self, m):
        """"в п. 3" в пункте три, "по ст. 7" по статье семь, "на стр. 5" на странице пять: a label before its number in
        the case of its preposition (в, на: the prepositional; по: the dative)."""
        before = m.string[:m.start()]
        case = _label_case(grammar.preposition(before))
        if re.search(r"(?<![\w.])(?:[Сс]м\.|[Сс]мотрите|[Сс]мотри)\s?$", before):
            case = "a"  # "см. стр. 5" смотри страницу пять: what one is sent to see, in the accusative
        elif (toward := _TOWARD.search(before)) and grammar.lemma(toward.group(1)) in _MOVING:
            case = "a"  # "перейдите на стр. 5" на страницу пять: where one goes, not where one is
        if not case:
            return m.group(0)
        word = self.number_abbreviations[self._counted_key_in(m.group(1), self.number_abbreviations)]
        if not word[0].isalpha():
            return m.group(0)
        if case == "a" and grammar.gender(word.lower()) == "m":
            case = "n"  # a label is a thing: "см. т. 2" смотри том два
        said = grammar.inflected(word.lower(), case, "sing")
        return said.capitalize() if word[0].isupper() else said

    def street_in_case(self, m):
        """"на ул. Ленина" на улице Ленина, "с пл. Победы" с площади Победы: a street's word before its name in the
        case of its preposition, as a label before its number."""
        word = self.name_abbreviations[self._counted_key_in(m.group(1), self.name_abbreviations)]
        case = _label_case(grammar.preposition(m.string[:m.start()])) or "n"
        said = grammar.inflected(word.lower(), case, "sing")
        return said.capitalize() if word[0].isupper() else said

    @staticmethod
    def _counted_key_in(written, table):
        return next(w for w in table if re.sub(r"\s", "", w) == re.sub(r"\s", "", written))

    def money(self, amount, currency, scale, case="n"):
        """`amount` of `currency`, in the case of the preposition before it ("до 500 ₽" до пятисот рублей)."""
        whole, fraction = self.value(amount.lstrip("-−+"))
        names = self.currencies[currency]
        if scale and case != "n" and amount[0] not in "-−+":  # "около 1,5 тыс. руб." около одной целой пяти
            word = self.scales[scale][0]                      # десятых тысячи рублей
            number = self.decimal_number(whole, fraction, case) if fraction else \
                self.cardinal(whole, grammar.gender(word), case)
            return f"{number} {grammar.agreeing(word, whole, case, bool(fraction))} {names[2]}"
        if fraction and len(fraction) != 2 and case != "n" and amount[0] not in "-−+":
            # "до 92,5 руб." до девяноста двух целых пяти десятых рубля
            return f"{self.decimal_number(whole, fraction, case)} {names[1]}"
        if case == "n" or scale or fraction and len(fraction) != 2 or amount[0] in "-−+":
            return self._money(amount, currency, scale)
        said = [(whole, names[0], self.currency_gender(currency))] if whole or not int(fraction or 0) else []
        if int(fraction or 0):  # "до 99,90 ₽" до девяноста девяти рублей девяноста копеек
            said.append((int(fraction), names[3], self.currency_gender(currency, True)))
        return " ".join(f"{self.cardinal(n, gender, case)} {_currency_word(name, n, case)}"
                        for n, name, gender in said)

    def read_money(self, text):
        def case(m):
            amount = m.group(2) if m.re is self._money_before else m.group(1)
            before = m.string[:m.start()]
            cases = grammar.preposition(before) or ("a" if grammar.object_of_verb(before) else None)
            return _distributive(cases, amount, self.value)  # "потерял 1 000 $" тысячу долларов
        text = _DOT_CENTS.sub(r"\1,\2", text)  # "$2.50": a price in the notation of its currency's country
        text = _SCALE_DOT.sub(r"\1", text)
        text = re.sub(r"(?<=\d)(\s?)(?:р\.|руб)(?=/[^\W\d_])", r"\1руб.", text)  # "500 р./мес.", "500 руб/час"
        stop = self._stop
        text = self._rub_kop.sub(lambda m: self.money(f"{m.group(1)},{int(m.group(2)):02d}", "₽", None, case(m))
                                 + stop(m), text)
        # a sign after an amount is that amount's before it is the next one's ("1 ₴ 50 коп." одна гривна пятьдесят)
        text = self._money_after.sub(lambda m: self.money(m.group(1), m.group(3), m.group(2), case(m)) + stop(m),
                                     text)
        return self._money_before.sub(lambda m: self.money(m.group(2), m.group(1), m.group(3), case(m)), text)

    def date_case(self, text, start, end):
        """The case of a date's day at text[start:end]: the one its preposition governs ("с 4 по 11 марта"); the
        genitive after a verb ("родился 9 мая"), a noun ("выборы 8 сентября", not a weekday's) or at the head of a
        sentence that goes on ("9 мая в Москве прошёл парад"); else the nominative ("Сегодня 9 мая", "Дата: 9 мая",
        "Это было девятое мая")."""
        before = grammar.word_before(text[:start])
        if before.lower() in _DATE_CASES:
            return _DATE_CASES[before.lower()]
        if before and grammar.is_verb(before):
            return "g"
        if before and grammar.is_noun(before) and grammar.lemma(before) not in _WEEKDAYS:
            return "g"  # a noun's date: "Встреча 15.03 в офисе" встреча пятнадцатого марта
        head = text[:start].rstrip()
        if not head or head[-1] in ".!?\n":
            rest = text[end:].lstrip()
            return "g" if rest[:1].islower() or rest[:1] == "," else "n"
        return "n"

    def date(self, day, month, year, case="n"):
        said = f"{self.ordinal(day, 'n', case=case)} {self.months[month - 1]}"
        return said + (f" {self.ordinal(year, 'm', case='g')} года" if year else "")

    def year_range(self, m):
        """"в 2020–2021 гг." в две тысячи двадцатом — две тысячи двадцать первом годах: the years ordinals in the case
        of the word written after them, else of their preposition (в, на: the prepositional)."""
        cases = grammar.preposition(m.string[:m.start()]) or "n"
        case = _YEARS_CASE.get(m.group(3)) or ("p" if cases == "ap" else cases[0])
        said = " — ".join(self.ordinal(int(y), "m", case=case) for y in m.groups()[:2])
        return f"{said} {_YEARS[case]}"

    def era_year(self, m):
        """"в 300 г. до н. э." в трёхсотом году: a year of the era, said as "1812 г." is."""
        case, word = _YEAR_ABBREVIATED.get(grammar.word_before(m.string[:m.start()]).lower(), ("g", "года"))
        return f"{self.ordinal(int(m.group(1)), 'm', case=case)} {word}"

    def year_slash(self, m):
        """"в 2020/2021 учебном году" в две тысячи двадцатом — две тысячи двадцать первом учебном году: two years in
        a row, ordinals agreeing with "год" or "сезон" written after them; before no such noun two numbers ("сезон
        2023/24" две тысячи двадцать три — двадцать четыре)."""
        first, second = int(m.group(1)), m.group(2)
        following = first // 100 * 100 + int(second) if len(second) == 2 else int(second)
        if following != first + 1:
            return m.group(0)
        cases = grammar.preposition(m.string[:m.start()])
        words = re.findall(r"[а-яё]+", m.string[m.end():m.end() + 30])[:2]
        noun = next((w for w in words if grammar.lemma(w) in ("год", "сезон")), None)
        found = grammar.counted(1, noun, cases) if noun else None
        if not found:
            return f"{self.cardinal(first)} — {self.cardinal(int(second))}"
        return " — ".join(self.ordinal(y, found[1], case=found[0]) for y in (first, following))

    def time_range(self, m):
        h1, m1, h2, m2 = map(int, m.groups()[1:])
        if not (h1 < 24 and h2 < 25 and m1 < 60 and m2 < 60):
            return m.group(0)
        before = grammar.word_before(m.string[:m.start()]).lower()
        said = f"{self.time(h1, m1, None, 'g')} до {self.time(h2, m2, None, 'g')}"
        if m.group(1):  # "перерыв в 12:00–13:00": с двенадцати часов до тринадцати часов
            return f"{'С' if m.group(1) == 'В' else 'с'} {said}"
        return said if before in ("с", "со", "от") else f"с {said}"

    def weekdays(self, text):
        def day(written, case, capital):
            said = grammar.inflected(_DAYS[written.lower()], case, "sing")
            return said.capitalize() if capital else said
        text = _DAY_RANGE.sub(lambda m: f"{'С' if m.group(1)[0].isupper() else 'с'} {day(m.group(1), 'g', False)} по "
                              f"{day(m.group(2), 'a', False)}", text)
        text = _DAY_LISTED.sub(lambda m: day(m.group(1), "n", m.group(1)[0].isupper()), text)
        for _ in range(5):  # "сб, вс, пн": each day after a day said
            text = _DAY_AFTER_DAY.sub(lambda m: m.group(1) + day(m.group(2), "n", False) + m.group(3), text)
        return text

    def read_times(self, text):
        text = self.weekdays(text)
        text = _DOTTED_TIME.sub(lambda m: f"{m.group(1)}{m.group(2)}:{m.group(3)}", text)
        text = _DOTTED_RANGE.sub(lambda m: f"{m.group(1)}:{m.group(2)}{m.group(3)}{m.group(4)}:{m.group(5)}"
                                 if {m.group(2), m.group(5)} & {"00", "15", "30", "45"} else m.group(0), text)
        text = _HOURS_MARK.sub(lambda m: "." if m.group(1) and self._ends_sentence(m.string[m.end():]) else "", text)
        text = _MIDNIGHT.sub(lambda m: self.time(24, 0, None, self._time_case(m)), text)
        text = _MINUTES_SECONDS.sub(self.minutes_seconds, text)
        text = _ZERO_MINUTES.sub(lambda m: m.group(1) + m.group(2), text)
        text = _HALF_PAST.sub(lambda m: m.group(1) + self.ordinal(int(m.group(2)), "m", case="g")
                              if 1 <= int(m.group(2)) <= 12 else m.group(0), text)
        return self.read_time(_TIME_RANGE.sub(self.time_range, text))

    def read_dates(self, text):
        text = _DAY_SHORT_MONTH.sub(lambda m: f"{m.group(1)}{m.group(2)}{MONTHS[_SHORT_MONTHS[m.group(3)]]}"
                                    + ("." if self._ends_sentence(m.string[m.end():]) else ""), text)
        text = _YEAR_SLASH.sub(self.year_slash, _DATE_YEAR_MARK.sub(
            lambda m: m.group(1) + ("." if self._ends_sentence(m.string[m.end():]) else ""), text))
        text = _ERA.sub(lambda m: "нашей эры" + ("." if self._ends_sentence(m.string[m.end():]) else ""),
                        _ERA_YEAR.sub(self.era_year, text))
        text = _LABELS_FROM_TO.sub(self.labels_from_to, text)
        text = _FROM_TO.sub(self.from_to_named, _YEAR_RANGE.sub(self.year_range, text))  # before "2015 год" is read

        def said(m, day, month, year):
            if not (1 <= month <= 12 and 1 <= day <= 31):
                return m.group(0)
            return self.date(day, month, year, self.date_case(m.string, m.start(), m.end()))

        text = self._iso_date.sub(lambda m: said(m, int(m.group(4)), int(m.group(3)), int(m.group(1))), text)
        text = self._numeric_date.sub(lambda m: said(m, int(m.group(1)), int(m.group(3)), int(m.group(4))), text)
        text = _DAY_MONTH.sub(lambda m: said(m, int(m.group(1)), int(m.group(2)), None)
                              if m.group(1)[0] == "0" or m.group(2)[0] == "0" else m.group(0), text)
        return self.read_written_dates(text)

    def read_day_ranges(self, text):
        """Two days of one month: "с 4 по 11 марта", "4–11 марта" (с четвёртого по одиннадцатое марта), "4 и 5 мая"."""
        def said(m):
            join, first, second = m.group(2).strip(" ,"), int(m.group(1)), int(m.group(3))
            if not (1 <= first <= 31 and 1 <= second <= 31):
                return m.group(0)
            case = self.date_case(m.string, m.start(), m.end())
            if join in "–—-":
                prefix = "" if grammar.word_before(m.string[:m.start()]).lower() in ("с", "со") else "с "
                return f"{prefix}{self.ordinal(first, 'n', case='g')} по {self.ordinal(second, 'n', case='a')} " \
                       f"{m.group(4)}"
            second_case = _DATE_CASES.get(join, case)
            return f"{self.ordinal(first, 'n', case=case)}{m.group(2)}{self.ordinal(second, 'n', case=second_case)} " \
                   f"{m.group(4)}"
        return self._day_range.sub(said, text)

    def read_written_dates(self, text):
        text = self.read_day_ranges(text)

        def written(m):
            case = self.date_case(m.string, m.start(2), m.end())
            said = f"{m.group(1) or ''}{self.ordinal(int(m.group(2)), 'n', case=case)} {m.group(3)}"
            return said + (f" {self.ordinal(int(m.group(4)), 'm', case='g')} года" if m.group(4) else "")

        def year(m):
            case = {"году": "p", "года": "g", "г.": "g", "г": "g", "год": "n"}[m.group(2)]
            word = {"году": "году", "года": "года", "г.": "года", "г": "года", "год": "год"}[m.group(2)]
            if m.group(2).startswith("г") and len(m.group(2)) <= 2:
                # "в 1812 г." в ... году, "к 2025 г." к ... году, "на 2025 г." на ... год; else "года"
                before = grammar.word_before(m.string[:m.start()]).lower()
                case, word = _YEAR_ABBREVIATED.get(before, (case, word))
            if word == "году" and (grammar.preposition(m.string[:m.start()]) or "") == "d":
                case = "d"  # "к 2030 году": к две тысячи тридцатому году
            return f"{self.ordinal(int(m.group(1)), 'm', case=case)} {word}"
        text = self._written_date.sub(written, text)
        text = _MONTH_YEAR.sub(lambda m: f"{m.group(1)}{self.ordinal(int(m.group(2)), 'm', case='g')}", text)
        return self._year.sub(year, text)

    def labels_from_to(self, m):
        """"главы с 8 по 10" главы с восьмой по десятую, "разделы 2-4" со второго по четвёртый: numbered things named
        in the plural before their range, each number the ordinal in the label's gender."""
        word, label = m.group(1), grammar.lemma(m.group(1))
        if label not in _LABELS or not grammar.plural_noun(word):
            return m.group(0)
        first, last = int(m.group(3) or m.group(5)), int(m.group(4) or m.group(6))
        if not 0 < first < last:
            return m.group(0)
        kind = _LABEL_GENDERS.get(label, "m")
        return (f"{m.group(1)}{m.group(2)}с {self.n2w(first, 'ordinal', case='g', gender=kind)} по "
                f"{self.n2w(last, 'ordinal', case='a', gender=kind, animate=False)}")

    def from_to_named(self, m):
        """"с 1 по 5 класс": the first number an ordinal like the second, in the genitive of "с"; "с 1941 по 1945 г.":
        the first year, the second read with its "г." (по ... год)."""
        noun = grammar.word_after(m.string[m.end():])
        if noun == "г" and len(m.group(2)) == 4:
            return f"{m.group(1)}{self.ordinal(int(m.group(2)), 'm', case='g')}{m.group(3)}{m.group(4)}"
        to = "a" if m.group(3).strip() == "по" else "g"
        found = grammar.ordinal_use(noun, to) if int(m.group(4)) > 1 and not grammar.counted(
            int(m.group(4)), noun, to) else None
        if not found:
            return m.group(0)
        case, gender = found
        return f"{m.group(1)}{self.ordinal(int(m.group(2)), gender, case='g')}{m.group(3)}" \
               f"{self.ordinal(int(m.group(4)), gender, case=case)}"

    def joined_named(self, m):
        """Numbers joined before a noun a number names, each an ordinal in its case: "между 2 и 3 этажом" между
        вторым и третьим этажом, "на 2 и 3 этажах" на втором и третьем этажах (the noun's plural for all)."""
        noun = grammar.word_after(m.string[m.end():])
        numbers = [int(n) for n in re.findall(r"\d+", m.group(1))] + [int(m.group(3))]
        case = grammar.named_plural(noun)
        found = (case, grammar.gender(grammar.lemma(noun))) if case else None
        if not found and numbers[-1] > 1 and not grammar.counted(numbers[-1], noun, None):
            found = grammar.ordinal_use(noun, grammar.preposition(m.string[:m.start()]))
        if not found:
            return m.group(0)
        said = [self.ordinal(n, found[1], case=found[0]) for n in numbers]
        return ", ".join(said[:-1]) + m.group(2) + said[-1]

    def read_ranges(self, text):
        text = _SIGN_RANGE.sub(r"\2\3\4 \1", text)  # "$80–85" as "80–85 $", read with its currency
        text = _JOINED.sub(self.joined_named, text)
        def said(m):
            first, second = self.value(m.group(1)), self.value(m.group(2))
            if first[1] == "5" and not second[1] and first[0] < second[0] \
                    and (half := self.and_a_half(first[0], m)):  # "1,5–2 часа" полтора-два часа
                found = grammar.counted(second[0], grammar.word_after(m.string[m.end():]), None)
                return f"{half}-{self.cardinal(second[0], found[1] if found else 'm')}"
            if first[1] or second[1] or first[0] >= second[0] or self._counted_after.match(m.string, m.end()) \
                    or re.match(r"\s?[$€£¥₽]", m.string[m.end():]) \
                    or re.match(r"0\d\d", m.group(1)) or re.match(r"0\d\d", m.group(2)) \
                    or re.match(r"0\d", m.group(1)) and re.match(r"0\d", m.group(2)):
                return m.group(0)  # a range of a unit ("2–3 ст. л.") is read with its unit; "0001-0002", "00-01" a code
            named = grammar.named_plural(grammar.word_after(m.string[m.end():]))
            if named:  # "1–4 классы" первые — четвёртые классы, "в 5-9 классах" в пятых — девятых классах
                return " — ".join(self.n2w(n, "ordinal", case=named, plural=True) for n in (first[0], second[0]))
            found = self.agreement(second[0], m.string, m.start(), m.end())
            noun = grammar.word_after(m.string[m.end():])
            if found and not found[2] and noun and noun.lower() not in grammar.PREPOSITIONS:  # "2–3 дня": два-три
                case, gender, _ = found
                return f"{self.cardinal(first[0], gender, case)}-{self.cardinal(second[0], gender, case)}"
            before = grammar.word_before(m.string[:m.start()]).lower()
            if before in grammar.PREPOSITIONS and before not in ("с", "со", "от"):
                # "лет на 10-15" на десять-пятнадцать: the preposition's case, no "от ... до"
                case = grammar.PREPOSITIONS[before][0]
                return f"{self.cardinal(first[0], 'm', case)}-{self.cardinal(second[0], 'm', case)}"
            said = f"{self.cardinal(first[0], case='g')} до {self.cardinal(second[0], case='g')}"
            return said if before in ("с", "со", "от") else f"от {said}"
        return self._range.sub(said, text)


read = Russian().read
