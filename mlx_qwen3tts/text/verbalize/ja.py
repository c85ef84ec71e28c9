"""Japanese numbers and symbols as they are said, written in kanji numerals (the model reads a counter's sound
change itself: 3人 三人, 6本 六本), no spaces added.

Readings follow NeMo's published Japanese test data: 千 alone but 一千 before 万 and 億 (1000 千, 12345000
一千二百三十四万五千), 一万, years counted (2024年 二千二十四年), 14:30 十四時三十分, a range's 〜 から,
(土) 土曜日. Decimals 3.5 三点五, 0.5 零点五; 10% 十パーセント; ¥1,000 千円; telephone numbers digit by digit,
their groups joined by の (03-1234-5678 〇三の一二三四の五六七八), as they are said, and a number after 番号.
A pair written with - or : is a game's score (2-1で勝利 二対一で勝利) where a word of a game's result is in its clause.
"""

import re

from .cjk import NUMBER, Reader, Spelling, digits, number, parse

DIGITS = "零一二三四五六七八九"
DIGIT_STRING = "〇一二三四五六七八九"  # digits read one by one (telephone numbers, versions)
SPELLING = Spelling(digits=DIGITS, small="十百千", myriads="万億兆京", zero_inside=False,
                    one_before=lambda i, before_myriad, inside: i == 2 and before_myriad,
                    one_myriad=lambda i, inside: True)
CURRENCY = {"¥": "円", "￥": "円", "JPY": "円", "$": "ドル", "US$": "米ドル", "USD": "米ドル", "€": "ユーロ",
            "EUR": "ユーロ", "£": "ポンド", "GBP": "ポンド", "₩": "ウォン", "KRW": "ウォン", "CNY": "元",
            "RMB": "人民元", "HK$": "香港ドル"}
UNITS = {"km": "キロメートル", "m": "メートル", "cm": "センチメートル", "mm": "ミリメートル", "μm": "マイクロメートル",
         "nm": "ナノメートル", "kg": "キログラム", "g": "グラム", "mg": "ミリグラム", "t": "トン", "L": "リットル",
         "mL": "ミリリットル", "ml": "ミリリットル", "km²": "平方キロメートル", "m²": "平方メートル", "m³": "立方メートル",
         "km/h": "キロメートル毎時", "m/s": "メートル毎秒", "℃": "度", "°C": "度", "°F": "華氏度", "°": "度",
         "ms": "ミリ秒", "Hz": "ヘルツ", "kHz": "キロヘルツ", "MHz": "メガヘルツ", "GHz": "ギガヘルツ", "W": "ワット",
         "kW": "キロワット", "kWh": "キロワット時", "V": "ボルト", "mAh": "ミリアンペア時", "dB": "デシベル",
         "KB": "キロバイト", "MB": "メガバイト", "GB": "ギガバイト", "TB": "テラバイト",
         "KiB": "キビバイト", "MiB": "メビバイト", "GiB": "ギビバイト", "TiB": "テビバイト",
         # squared units (㏄ ㎗ ㎘ ㏊) as NFKC writes them
         "cc": "シーシー", "dL": "デシリットル", "dl": "デシリットル", "kL": "キロリットル", "kl": "キロリットル", "ha": "ヘクタール"}
UNIT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
CUR = "|".join(re.escape(c) for c in sorted(CURRENCY, key=len, reverse=True))
SIGNS = {"±": "プラスマイナス", "×": "かける", "÷": "わる", "=": "イコール", "+": "プラス", "≒": "ニアリーイコール"}
ERA = r"紀元前|紀元後|紀元|西暦|令和|平成|昭和|大正|明治"
WEEKDAY = "月火水木金土日"
ERA_INITIAL = {"R": "令和", "H": "平成", "S": "昭和", "T": "大正", "M": "明治"}


def cardinal(s: str) -> str:
    """'28,000' 二万八千, '3.05' 三点零五; a number too long to count is read digit by digit."""
    whole, frac = parse(s)
    said = digits(str(whole), DIGIT_STRING) if len(str(whole)) > 20 else number(whole, SPELLING)
    return said + ("点" + digits(frac, DIGITS) if frac else "")


def _number(m) -> str:
    s = m.group(0)
    if len(s) > 1 and s[0] == "0" and s[1] != ".":  # 007: a code, said digit by digit
        return digits(s, DIGIT_STRING)
    return cardinal(s)


def _date(m) -> str:
    year, month, day = m.group("y"), int(m.group("m")), m.group("d")
    if not 1 <= month <= 12 or (day and not 1 <= int(day) <= 31):
        return m.group(0)
    return cardinal(year) + "年" + cardinal(str(month)) + "月" + (cardinal(str(int(day))) + "日" if day else "")


def _dotted(m) -> str:
    """1.30.0, 192.168.0.1: parts digit by digit."""
    return "点".join(digits(p, DIGIT_STRING) for p in m.group(0).split("."))


def _era(m) -> str:
    initial, year = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    if m.group(3) and not m.group(5):
        return m.group(0)
    return ERA_INITIAL[initial] + cardinal(year) + "年"


def _time(m) -> str:
    h, mi, sec = int(m.group(1)), int(m.group(2)), m.group(3)
    if mi > 59 or (sec and int(sec) > 59):  # 3:12 as a score or ratio
        return "対".join(cardinal(str(int(g))) for g in m.groups()[:3] if g)
    said = cardinal(str(h)) + "時" + (cardinal(str(mi)) + "分" if mi or sec else "")
    fraction = "点" + digits(m.group(4), DIGITS) if m.group(4) else ""  # 15.25秒 十五点二五秒
    return said + (cardinal(str(int(sec))) + fraction + "秒" if sec else "")


def _phone(m) -> str:
    s = m.group(0)
    country = ""
    if s.startswith("+"):
        code, _, s = s[1:].partition(" " if " " in s else "-")
        country = "プラス" + digits(code, DIGIT_STRING) + "の"
    return country + "の".join(digits(g, DIGIT_STRING) for g in re.split(r"[-\s()]+", s) if g)


def _money(m) -> str:
    sign = "マイナス" if m.group(2) else ""
    return sign + cardinal(m.group(3)) + (m.group(4) or "") + CURRENCY[m.group(1)]


def _fraction(m) -> str:
    sign = "マイナス" if m.group(1) else ""
    whole = cardinal(m.group(2)) + m.group(3).replace(" ", "と") if m.group(2) else ""  # 1 1/2: a mixed number
    root = "ルート" if m.group(4) else ""
    return sign + whole + cardinal(m.group(6)) + "分の" + root + cardinal(m.group(5))


def _measure(m) -> str:
    sign = "マイナス" if m.group(1) else ""
    unit = m.group(3)
    if unit == "km/h" and m.string[:m.start()].endswith("時速"):  # 時速100km/h: 時速 says "per hour"
        return sign + cardinal(m.group(2)) + "キロメートル"
    return sign + cardinal(m.group(2)) + UNITS[unit]


# words of a game's result: a pair of numbers in their clause is its score (2-1で勝利 二対一で勝利)
RESULT_WORDS = re.compile("勝利|勝ち|勝っ|勝つ|負け|負け|敗れ|敗戦|敗退|引き分け|下し|下す|破っ|破り|逆転|快勝|完勝|圧勝|"
                          "辛勝|惜敗|大勝|大敗|スコア|得点|前半|後半|延長")
_CLAUSE_END = re.compile(r"[。、，,；;！!？?\n]")
_NOT_AFTER_SCORE = re.compile(r"\s?[\dA-Za-z%℃°.年月日時分秒回位人個点号番歳]")


def _score(m) -> str:
    """A pair of numbers (2-1, 3:2) as a game's score, 二対一, where a word of a game's result is in its clause;
    else the pair as written, for a later rule (a range, a time)."""
    before = _CLAUSE_END.split(m.string[max(0, m.start() - 16):m.start()])[-1]
    after = _CLAUSE_END.split(m.string[m.end():m.end() + 10])[0]
    if _NOT_AFTER_SCORE.match(m.string, m.end()) or not RESULT_WORDS.search(before + " " + after):
        return m.group(0)
    return cardinal(m.group(1)) + "対" + cardinal(m.group(2))


def _month_day(m) -> str:
    month, day = int(m.group(1)), int(m.group(2))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group(0)
    return cardinal(str(month)) + "月" + cardinal(str(day)) + "日"


read = Reader([
    (r"(?<=\d)\.\.(?=\d)", "から"),  # (00..23), a range as manuals write it: 零零から二十三
    (r"(?<![\d.])(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})(?![\d.])", _date),
    (r"(?<![\d./:-])(\d{1,3})\s?[-–:]\s?(\d{1,3})(?![\d./:-])", _score),  # 2-1で勝利
    (r"(?<![\d./])(\d{1,2})/(\d{1,2})(?=\s?[(（][" + WEEKDAY + "])", _month_day),  # 3/15(金) 三月十五日金曜日
    # a number after 番号 (a port, a member's, a room's), digit by digit: ポート番号は8080 八〇八〇
    (r"(?<=番号)(は|：|:)?\s?(\d{3,})(?![\d.,-])", lambda m: (m.group(1) or "") + digits(m.group(2), DIGIT_STRING)),
    # a postal code, digit by digit (郵便番号は100-0001 一〇〇の〇〇〇一)
    (r"(?<=郵便番号)(は|：|:)?\s?(\d{3})-(\d{4})(?!\d)",
     lambda m: (m.group(1) or "") + digits(m.group(2), DIGIT_STRING) + "の" + digits(m.group(3), DIGIT_STRING)),
    (r"(?<![\d.])\d+(?:\.\d+){2,}(?![\d.])", _dotted),
    (r"(?<![\d.,/-])(?P<y>\d{4})/(?P<m>\d{1,2})(?P<d>)(?![\d.,/-])", _date),
    # weekdays in brackets after a date: (土) 土曜日, (火〜土) 火曜日から土曜日
    (r"[(（]([" + WEEKDAY + r"])[〜～~-]([" + WEEKDAY + r"])[)）]", lambda m: f"{m.group(1)}曜日から{m.group(2)}曜日"),
    (r"(?<=[日\d])\s?[(（]([" + WEEKDAY + r"])(?:曜日?)?(・祝)?[)）]",
     lambda m: m.group(1) + "曜日" + ("祝日" if m.group(2) else "")),
    # era initials: R.4 令和四年, H.30 平成三十年, S.60年 昭和六十年 (S., T. and M. only before 年: M.2 is a connector)
    (r"(?<![A-Za-z.])(?:([RH])\.\s?(\d{1,2})(?![\d.])|([STM])\.\s?(\d{1,2}))(年)?",
     _era),
    (r"(?<=\d:\d\d)\s?[-~〜～–—]\s?(?=\d{1,2}:\d\d)", "から"),
    (r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+)(?![\d.]))?)?(?![\d:])", _time),
    (r"(?<![\d:.])(\d{1,3}):(\d{1,2})(?![\d:])", lambda m: cardinal(m.group(1)) + "対" + cardinal(m.group(2))),
    (r"(?<![\d.-])(?:\+\d{1,3}[- ])?0\d{1,4}-\d{1,4}-\d{3,4}(?![\d.-])", _phone),
    (r"(?<![\d.-])(?:0120|0800)-\d{3}-\d{3}(?![\d.-])", _phone),
    (r"(?<![A-Za-z$])(" + CUR + r")\s?(-)?(" + NUMBER + r")(万|億|兆)?", _money),  # not a cell's $A$1
    (r"(?<=\d)\s?[〜～~–-]\s?(?=-?\d+(?:\.\d+)?\s?%)", "から"),  # 10〜20%
    (r"(-)?(" + NUMBER + r")\s?%", lambda m: ("マイナス" if m.group(1) else "") + cardinal(m.group(2)) + "パーセント"),
    (r"(-|マイナス)?(?<![\d/.])(?:(\d+)(と|荷| ))?(√)?(\d+)\s?/\s?(\d+)(?![\d/.])", _fraction),
    (r"(-)?(" + NUMBER + r")\s?(" + UNIT + r")(?![A-Za-z²³/])", _measure),
    (r"(?<=[\d日月年旬代紀半頭末期時分秒])\s?[〜～~]\s?(?=\d|同|午前|午後|" + ERA + ")", "から"),
    (r"(?<=[日月年時分秒])\s?[–—-]\s?(?=\d)", "から"),  # 3月20日-25日
    (r"(?<=\d)\s?[–—-]\s?(?=\d)", "から"),
    (r"[-−](?=√)", "マイナス"),
    ("√", "ルート"),
    (r"\s?([±×÷≒])\s?", lambda m: SIGNS[m.group(1)]),
    (r"(?<=\d)\s?([=+])\s?(?=[-\d])", lambda m: SIGNS[m.group(1)]),
    (r"(?<![A-Za-z0-9.])[-−](?=\d)", "マイナス"),
    (NUMBER, _number),
])
