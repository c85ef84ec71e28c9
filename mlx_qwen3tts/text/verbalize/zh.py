"""Chinese (Mandarin, simplified characters) numbers and symbols as they are said.

Readings follow WeTextProcessing's and NeMo's published test data where they agree; where they differ, the
choice is stated here and in docs/text_cjk.md:
- 两 for a leading 2 before 百, 千, 万, 亿 (2350 两千三百五十, 200 两百, 20000 两万) and for 2 before a measure word
  (2个 两个, 2点 两点); 二 elsewhere (2 二, 12 十二, 22000 两万二千, 2月 二月) and in ordinals (第2名 第二名, 第200 第二百).
- 一十 inside a number (110 一百一十, 10010 一万零一十), 十 at its start (10 十, 100000 十万).
- Years digit by digit (2024年 二零二四年, 公元前202年 公元前二零二年, 05年 零五年): a number from 1000 to 2099, one after
  an era, one with a leading zero, or one before a month; other numbers before 年 are counted (20年后 二十年后,
  5000年前 五千年前).
- Telephone numbers digit by digit with 幺 for 1 (13501234567 幺三五零幺二三四五六七), as a mainland
  operator reads them; IP addresses and versions digit by digit with 一 (127.0.0.1 一二七点零点零点一).
- Times 14:30 十四点三十分, 9:05 九点零五分, 11:00 十一点; a "time" past 24:59 is a score (78:96 七十八比九十六).
- A game's score 比 (中国1-2 中国一比二, 以21:19获胜 以二十一比十九获胜): a pair of numbers written with -, :, / is a
  score where a team's name stands right before it or a word of a game's result (比分, 战胜, 爆冷, 半场 ...) is in
  its clause (data/zh_sports.tsv, as WeTextProcessing's sport rule reads a pair after a team), unless a measure
  word, a unit or 月/日 follows (中国1-2月 is a range of months).
- Money ¥ and ￥ 元, CNY and RMB 人民币, $ 美元; km 公里, kg 千克 (the SI name, as both test sets say).
- Identifiers digit by digit with 一: a model's number (386 PC 三八六, Intel 8086 八零八六, RFC 822 八二二), digits
  joined to letters (i386 i三八六), an account's (QQ 123456789), groups joined by hyphens (ISBN 978-7-111-12345-6).
- A range's first number takes the measure word after the second (2-3 个小时 两到三个小时).
"""

import re
from pathlib import Path

from .cjk import (DATE_WORDS, DOTTED_DATE, DOTTED_RANGE_END, MONTH_DAYS, NUMBER, Reader, Spelling, digits, kept_end,
                  month_days_said, number, parse)

DIGITS = "零一二三四五六七八九"
PHONE_DIGITS = "零幺二三四五六七八九"
SPELLING = Spelling(digits=DIGITS, small="十百千", myriads="万亿兆京", zero_inside=True,
                    one_before=lambda i, before_myriad, inside: i > 0 or inside,
                    one_myriad=lambda i, inside: True)
# Measure words after which 2 is 两 (两个, 两年后, 两点): a count, not a label (二月, 二号, 二楼).
COUNTERS = ("个位只条张本件次天种名家台辆双人岁倍块元毛角份杯瓶碗节层口头匹棵支把间周项场部篇首句段页斤吨米里"
            "册套艘架座栋幢所片粒颗根副盒包袋箱桶罐壶勺滴圈遍趟顿步排批群堆串束朵枝枚票户例轮集届晚夜秒克升亩封幅扇道季点行列回折")
COUNTER_WORDS = ("小时", "分钟", "点钟", "星期", "礼拜", "公里", "千克", "公斤", "年后", "年前", "年内", "年多", "年来", "年间", "周年",
                 "厘米", "毫米", "微米", "纳米", "千米", "毫升", "毫克", "平方", "立方", "英寸", "英尺", "英里", "公顷",
                 "公分", "千瓦", "毫秒", "千赫", "兆赫")
CURRENCY = {"¥": "元", "￥": "元", "CNY": "人民币", "RMB": "人民币", "$": "美元", "US$": "美元", "USD": "美元",
            "€": "欧元", "EUR": "欧元", "£": "英镑", "GBP": "英镑", "₩": "韩元", "KRW": "韩元", "JPY": "日元",
            "A$": "澳元", "AUD": "澳元", "HK$": "港元", "HKD": "港元", "C$": "加元", "CAD": "加元"}
UNITS = {"km": "公里", "m": "米", "cm": "厘米", "mm": "毫米", "μm": "微米", "um": "微米", "nm": "纳米",
         "kg": "千克", "g": "克", "mg": "毫克", "t": "吨", "L": "升", "mL": "毫升", "ml": "毫升",
         "km²": "平方公里", "m²": "平方米", "cm²": "平方厘米", "m³": "立方米", "km2": "平方公里", "m2": "平方米",
         "m3": "立方米", "℃": "摄氏度", "°C": "摄氏度", "°F": "华氏度", "℉": "华氏度", "°": "度", "m/s": "米每秒",
         "ms": "毫秒", "s": "秒", "min": "分钟", "h": "小时", "Hz": "赫兹", "kHz": "千赫", "MHz": "兆赫", "GHz": "吉赫",
         "W": "瓦", "kW": "千瓦", "mmHg": "毫米汞柱", "kWh": "千瓦时", "V": "伏", "mAh": "毫安时", "mA": "毫安", "A": "安", "dB": "分贝",
         # squared units (㏄ ㎗ ㎘ ㏊) as NFKC writes them
         "cc": "毫升", "dL": "分升", "dl": "分升", "kL": "千升", "kl": "千升", "ha": "公顷"}
UNIT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
CUR = "|".join(re.escape(c) for c in sorted(CURRENCY, key=len, reverse=True))
# words before a number said digit by digit: a code, an account, a room
CODE_WORDS = "|".join(("验证码", "校验码", "密码", "编号", "邮编", "邮政编码", "工号", "学号", "卡号", "账号", "帐号",
                       "订单号", "单号", "房间号", "房号", "门牌号", "航班号", "车次", "序列号", "批号", "货号", "型号",
                       "端口号", "端口",
                       # a file's mode, octal, said digit by digit (chmod 755 七五五, 权限为 644 六四四)
                       "chmod", "umask", "权限", "模式",
                       # an account's number (QQ 123456789, 微信号 12345)
                       "QQ号", "QQ", "微信号", "用户ID", "ID"))
_CODE_END = r"(?!\d|\.\d|,\d{3}(?!\d))"  # a code's end: no more digits, no decimal, no thousands after it
# words a model's number stands before (386 PC, 8086 处理器, 747 客机), and what may not follow a number after a
# standard's or a maker's name (a count, an amount or a unit: "ISO 100 个", "Intel 500 亿")
MODEL_WORDS = "PC|CPU|处理器|微处理器|芯片|客机|机型|系列"
# standards and makers of chips whose numbers are said so (RFC 822 八二二, ISO 9001 九零零一, Intel 8086 八零八六)
MODEL_NAMES = "RFC|ISO|IEC|IEEE|ANSI|ECMA|GB|GB/T|JIS|DIN|Intel|AMD|Motorola|Zilog|波音|空客"
_NOT_A_CODE = r"(?!\s?(?:[A-Za-z%‰℃°万亿千百]|[" + COUNTERS + r"]|" + "|".join(COUNTER_WORDS) + "))"
SIGNS = {"±": "正负", "≥": "大于等于", ">=": "大于等于", "≤": "小于等于", "<=": "小于等于", "≠": "不等于", "×": "乘",
         "÷": "除以", "=": "等于", "+": "加", ">": "大于", "<": "小于"}


def integer(n: int, after: str = "") -> str:
    """A whole number, 两 where a speaker says it (see the module's docstring); never in an ordinal (after 第)."""
    if after == "第":
        return number(n, SPELLING)
    if n == 2 and after[:1] and (after[:1] in COUNTERS + "百千万亿" or after.startswith(COUNTER_WORDS)
                                 or after[:1] == "年" and not after.startswith("年级")):
        return "两"  # 两个, 两万, 两年 (but 二年级, a grade)
    said = number(n, SPELLING)
    return "两" + said[1:] if said[:1] == "二" and said[1:2] in "百千万亿" and said[1:2] else said


def cardinal(s: str, after: str = "") -> str:
    """'28,000' 两万八千, '3.05' 三点零五; a number too long to count is read digit by digit."""
    whole, frac = parse(s)
    if len(str(whole)) > 17:
        said = digits(str(whole), DIGITS)
    else:
        said = integer(whole, "" if frac else after)
    return said + ("点" + digits(frac, DIGITS) if frac else "")


def _sports() -> tuple:
    """(team names, words of a game's result) from data/zh_sports.tsv."""
    kinds = {"team": [], "word": []}
    for line in (Path(__file__).parent / "data" / "zh_sports.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, word = line.split("\t")
            kinds[kind].append(word)
    return tuple(kinds["team"]), re.compile("|".join(sorted(kinds["word"], key=len, reverse=True)))


TEAMS, RESULT_WORDS = _sports()
_CLAUSE_END = re.compile(r"[。，,；;！!？?\n]")
# what may not follow a score: a digit, a letter, a unit or measure word (1-2月, 3-5个, 5-8折, 1/4决赛)
_NOT_AFTER_SCORE = re.compile(r"\s?(?:[\dA-Za-z%‰℃°.]|[" + COUNTERS + "年月日号时点分秒周轮级期届季代章节折成倍赛]|决赛)")


_AT_TIME = re.compile(r"(?:在|于|从|自|晚上|下午|上午|中午|凌晨|早上|今晚|明晚|时间)\s?$")
_TIME_AFTER = re.compile(r"\s?(?:开始|开赛|开球|进行|举行|举办|之前|以前|之后|以后|前|后|左右|起)")


def _clock(m, before: str) -> bool:
    """Whether h:mm at `m` is a time of day: a time it can be, after 在/于/晚上 ... or before 开始/举行/前 ..."""
    if not (len(m.group(3)) == 2 and int(m.group(1)) <= 24 and int(m.group(3)) <= 59):
        return False
    return bool(_AT_TIME.search(before) or _TIME_AFTER.match(m.string, m.end()))


def _score(m) -> str:
    """A pair of numbers as a game's score (三比二) where a team or a result word says it is one (module
    docstring); else the pair as written, for a later rule (a range, a fraction, a time)."""
    start = m.string.rfind("\n", 0, m.start()) + 1
    before = _CLAUSE_END.split(m.string[max(start, m.start() - 16):m.start()])[-1]
    after = _CLAUSE_END.split(m.string[m.end():m.end() + 10])[0]
    if _NOT_AFTER_SCORE.match(m.string, m.end()):
        return m.group(0)
    if m.group(2) == ":" and _clock(m, before) and not re.search("比分|比数", before + after):
        return m.group(0)
    # a slash is a score's only after a team (拉齐奥 2/2); with a result word it stays a fraction (获胜概率为1/3)
    if not (before.rstrip().endswith(TEAMS) or m.group(2) != "/" and RESULT_WORDS.search(before + " " + after)):
        return m.group(0)
    return integer(int(m.group(1))) + "比" + integer(int(m.group(3)))


# the second number of a range after the first ("2-3 个", "2 到 3 天"), and what follows it
_RANGE_REST = re.compile(r" ?(?:到|至) ?\d+(?:\.\d+)? ?(.{0,2})")


def _after(m) -> str:
    """The two characters after a number, past a space (technical text writes "2 个", "等待 2 秒"); for the first
    number of a range, those after the second (2-3 个小时 两到三个小时: the measure word counts both)."""
    rest = _RANGE_REST.match(m.string, m.end())
    if rest:
        return rest.group(1)
    return m.string[m.end():m.end() + 3].lstrip(" ")[:2]


# what stands before the number of an ordinal: 第, or 第 and a list or range of numbers (第1、2项, 第3至5条)
_ORDINAL_BEFORE = re.compile(r"第 ?(?:(?:\d+|[零一二三四五六七八九十百]+) ?(?:[、和及或至到~-]) ?)*$")


def _number(m) -> str:
    s = m.group(0)
    if len(s) > 1 and s[0] == "0" and s[1] != ".":  # 007, 0755: a code, said digit by digit
        return digits(s, DIGITS)
    if _ORDINAL_BEFORE.search(m.string, max(0, m.start() - 24), m.start()):  # 第二名, 第 2 个, 第1、2项 第一、二项
        return cardinal(s, "第")
    return cardinal(s, _after(m))


def _dotted(m) -> str:
    return "点".join(digits(p, DIGITS) for p in m.group(0).split("."))


def _date(m) -> str:
    year, month, day = m.group("y"), int(m.group("m") or m.group("m2")), m.group("d")
    if not 1 <= month <= 12 or (day and not 1 <= int(day) <= 31):
        return m.group(0)
    return digits(year, DIGITS) + "年" + integer(month) + "月" + (integer(int(day)) + "日" if day else "")


def _said_date(year: str, month: int, day: int) -> str:
    return digits(year, DIGITS) + "年" + integer(month) + "月" + integer(day) + "日"


def _dotted_date(m) -> str:
    month, day = int(m.group("m")), int(m.group("d"))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group(0)
    return _said_date(m.group("y"), month, day) + kept_end(m)


def _date_dmy(m, first: str, second: str, year: str) -> str:
    """03/07/2025: month first (三月七日) unless the first number can only be a day (29/12/2000)."""
    a, b = int(first), int(second)
    month, day = (a, b) if a <= 12 else (b, a)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group(0)
    return _said_date(year, month, day)


def _short_date(m) -> str:
    """After a word for a date (日期是12/2/2), a slashed triple is year (two digits), month and day."""
    month, day = int(m.group(2)), int(m.group(3))
    if not (1 <= month <= 12 and 1 <= day <= 31 and DATE_WORDS.search(m.string[max(0, m.start() - 12):m.start()])):
        return m.group(0)
    return _said_date(m.group(1), month, day)


def _month_days(m) -> str:
    """(4.2〜9): 四月二日到九日; a range of numbers where no date is meant (4.2〜9 四点二到九)."""
    return month_days_said(m, lambda month, day: (integer(int(month)) + "月" if month else "") + integer(int(day)) + "日",
                           "到")


def _time(m) -> str:
    h, mi, sec, half = int(m.group(1)), int(m.group(2)), m.group(3), (m.group(5) or "").lower()
    if sec and h > 24 and mi <= 59 and int(sec) <= 59:  # 48:00:00, a duration: 四十八小时零分零秒
        return integer(h) + "小时" + integer(mi) + "分" + _seconds(sec, m.group(4))
    if h > 24 or mi > 59 or (sec and int(sec) > 59):  # 78:96 is a score
        return integer(h) + "比" + integer(mi) + ("比" + integer(int(sec)) if sec else "")
    if half and half[0] == "p" and 12 < h < 24:  # 13:10pm: the afternoon's hour as 下午 says it (下午一点十分)
        h -= 12
    said = ("两" if h == 2 else integer(h)) + "点"
    if mi or sec:
        said += ("零" if 0 < mi < 10 else "") + integer(mi) + "分"
    if sec:
        said += _seconds(sec, m.group(4))
    return _part_of_day(half, h) + said if half else said


def _seconds(sec: str, fraction) -> str:
    """Seconds, with their fraction where written (15.25 十五点二五秒)."""
    return integer(int(sec)) + ("点" + digits(fraction, DIGITS) if fraction else "") + "秒"


def _part_of_day(half: str, hour: int) -> str:
    """上午 or 下午 for am or pm; twelve is noon (12:30 PM 中午十二点三十分) or midnight (12:00 AM 凌晨十二点)."""
    if hour == 12:
        return "凌晨" if half[0] in "aA" else "中午"
    return "上午" if half[0] in "aA" else "下午"


def _hour_half(m) -> str:
    """An hour with am or pm and no minutes (3pm, 10 AM): 下午三点, 上午十点."""
    h = int(m.group(1))
    return _part_of_day(m.group(2), h) + ("两" if h == 2 else integer(h)) + "点"


def _percent(m) -> str:
    sign = "负" if m.group(1) else ""
    return sign + ("千分之" if m.group(3) == "‰" else "百分之") + cardinal(m.group(2))


def _fraction(m) -> str:
    whole, num, den = m.group(2), m.group(3), m.group(4)
    sign = "负" if m.group(1) else ""
    return sign + (cardinal(whole) + "又" if whole else "") + cardinal(den) + "分之" + cardinal(num)


def _measure(m) -> str:
    sign = "负" if m.group(1) else ""
    unit = m.group(3)
    if unit == "km/h":
        return "每小时" + sign + cardinal(m.group(2)) + "公里"
    return sign + cardinal(m.group(2), UNITS[unit]) + UNITS[unit]


def _phone(m) -> str:
    lead, num = m.group(1) or "", m.group(2)
    plus = "加" + digits(num[1:num.index(" ")] if " " in num else "", PHONE_DIGITS) if num.startswith("+") else ""
    body = num.split(" ", 1)[1] if plus else num
    return lead + plus + "".join(digits(group, PHONE_DIGITS) for group in re.split(r"[ -]", body))


def _money(m) -> str:
    unit = CURRENCY[m.group(1)]
    sign = "负" if m.group(2) else ""
    return sign + cardinal(m.group(3), m.group(4) or "") + (m.group(4) or "") + unit


def _year(m) -> str:
    era, year = m.group(1) or "", m.group(2)
    if era or 1000 <= int(year) < 2100 or year[0] == "0" or m.group(3):
        return era + digits(year, DIGITS) + "年"
    return era + integer(int(year), "年" + m.string[m.end():m.end() + 1]) + "年"


def _era(m) -> str:
    era = "公元前" if m.group(3)[0] in "bB" else "公元"
    return era + digits(m.group(1), DIGITS) + "年" + (m.group(2) or "年")[1:]


read = Reader([
    (r"(?<=\d)\.\.(?=\d)", "到"),  # (00..23), a range as manuals write it: 零零到二十三
    # "180° C", "25 ºC" (a space before the scale, the ordinal sign for the degree): one unit, °C
    (r"(?<=\d)(\s?)[°º]\s?(?=[CF](?![A-Za-z]))", lambda m: m.group(1) + "°"),
    (r"(?<![\d./:-])(\d{1,3})\s?([-–—:/])\s?(\d{1,3})(?![\d./:-])", _score),  # 中国1-2, 以3:2获胜, 拉齐奥 2/2
    (DOTTED_DATE, _dotted_date),  # 2024.03.05.
    ("(?<=日)" + DOTTED_RANGE_END, lambda m: "到" + integer(int(m.group("m"))) + "月" + integer(int(m.group("d"))) + "日"
     if 1 <= int(m.group("m")) <= 12 and 1 <= int(m.group("d")) <= 31 else m.group(0)),  # 2024.3.4-3.15
    (r"(?<![\d./-])(\d{2})/(\d{1,2})/(\d{1,2})(?![\d./-])", _short_date),  # 日期是12/2/2
    (r"(?<![\d./-])(\d{1,2})([-/.])(\d{1,2})\2(\d{4})(?![\d./-])",
     lambda m: _date_dmy(m, m.group(1), m.group(3), m.group(4))),  # 03/07/2025, 08-08-2008
    # a month written with two digits before a year (08/2008) or a day (08-08): a count is never written 08
    (r"(?<![\d./-])(0[1-9]|1[0-2])[/.](\d{4})(?![\d./-])",
     lambda m: digits(m.group(2), DIGITS) + "年" + integer(int(m.group(1))) + "月"),
    (r"(?<![\d./-])(0[1-9])[-/.](0[1-9]|[12]\d|3[01])(?![\d./-])",
     lambda m: integer(int(m.group(1))) + "月" + integer(int(m.group(2))) + "日"),
    (r"(?<![\d.,/-])(\d{4})\s?[-–—〜～~]\s?(\d{4})(?=\s?年)",
     lambda m: digits(m.group(1), DIGITS) + "到" + digits(m.group(2), DIGITS)),  # 2024-2025年
    (MONTH_DAYS, _month_days),
    # 127.0.0.1, 1.30.0: parts digit by digit (a date of this shape is taken first)
    (r"(?<![\d.])(?P<y>\d{4})(?P<s>[-/.·])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})(?![\d.])", _date),
    (r"(?<![\d.])\d+(?:\.\d+){2,}(?![\d.])", _dotted),
    (r"(?<![\d.,/-])(?P<y>\d{4})(?:(?P<s>[-/])(?P<m>\d{1,2})|\.(?P<m2>\d\d)(?![万亿]))(?P<d>)(?![\d.,/-])", _date),
    (r"(?<=\d:\d\d)\s?[-~〜～–—]\s?(?=\d{1,2}:\d\d)", "到"),  # 10:00-22:00
    # 9am-5pm, 12:00 AM–11:59 PM: a range of times each with am or pm
    (r"(?<=\d)(\s?(?:am|pm|a\.m\.|p\.m\.|AM|PM))\s?[-~〜～–—]\s?(?=\d{1,2}(?::\d\d)?\s?(?:am|pm|a\.m\.|p\.m\.|AM|PM))",
     lambda m: m.group(1) + "到"),
    (r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+)(?![\d.]))?)?(?![\d:])"
     r"(?:\s?(am|pm|a\.m\.|p\.m\.|AM|PM)(?![A-Za-z]))?", _time),
    (r"(?<![\d:.])(1[0-2]|0?[1-9])\s?(am|pm|a\.m\.|p\.m\.|AM|PM)(?![A-Za-z])", _hour_half),  # 3pm 下午三点
    (r"(?<![\d:.])(\d{1,3}):(\d)(?![\d:])", lambda m: integer(int(m.group(1))) + "比" + integer(int(m.group(2)))),
    # telephone numbers: a mobile number, a number with an area code, or digits a telephone word announces
    (r"()(?<![\d.])((?:\+86 )?1[3-9]\d{9})(?![\d.])", _phone),
    # a mobile number grouped 3-4-4 by spaces or hyphens (+86 138 1234 5678, 138-1234-5678)
    (r"()(?<![\d.])((?:\+86 ?)?1[3-9]\d(?:[ -]\d{4}){2})(?![\d.])", _phone),
    (r"()(?<![\d.-])(0\d{2,3}-\d{7,8})(?![\d.-])", _phone),
    (r"()(?<![\d.-])(\(0\d{2,3}\) ?\d{3,4}[ -]?\d{4})(?![\d.-])", _phone),  # (010) 1234 5678
    (r"((?:电话|手机|拨打|致电|热线|尾号|号码|分机|拨)(?:是|为|：|:)?\s?)(\d[\d-]{2,})(?!\d)", _phone),
    (r"(给)(\d{3,})(?=打)", _phone),
    # codes said digit by digit with 一: after a word naming one (验证码为208135, 房间号1103), a room (301室), and a
    # flight's or train's number (CA1501, G1234次)
    (r"((?:" + CODE_WORDS + r")(?:默认|设为|设置为)?(?:是|为|：|:)?\s?)(\d{3,})" + _CODE_END,
     lambda m: m.group(1) + digits(m.group(2), DIGITS)),
    (r"(?<![\d.,])\d{3,4}(?=\s?(?:室|房间|号房))", lambda m: digits(m.group(0), DIGITS)),
    # digits joined to a name's letters (i386 i三八六, RTX4090: below, after money) and groups of digits joined by three
    # hyphens or more (ISBN 978-7-111-12345-6): an identifier, said digit by digit, group by group
    (r"(?<![\d.-])\d+(?:-\d+){3,}(?:-X)?(?![\d-])", lambda m: " ".join(digits(g, DIGITS) if g.isdigit() else g
                                                                      for g in m.group(0).split("-"))),
    (r"(?<![A-Za-z])([A-Z]{1,2})(\d{3,5})" + _CODE_END, lambda m: m.group(1) + digits(m.group(2), DIGITS)),
    # a model's number said digit by digit (386 PC 三八六, Intel 80386 处理器 八零三八六, RFC 822 八二二): before a
    # word of a machine or a chip (an aside in brackets may stand between), or after a name in capitals
    (r"(?<![\d.,])(?!\d{1,3}00(?!\d))\d{3,5}(?=\s?(?:[(（][^()（）]{0,12}[)）]\s?)?(?:" + MODEL_WORDS + r")(?![A-Za-z]))",
     lambda m: digits(m.group(0), DIGITS)),
    (r"(?<![A-Za-z])((?:" + MODEL_NAMES + r")\s?)(\d{3,5})(?![\d.,:/-])" + _NOT_A_CODE,
     lambda m: m.group(1) + digits(m.group(2), DIGITS)),
    (r"(?<![A-Za-z$])(" + CUR + r")\s?(-)?(" + NUMBER + r")(万|亿)?", _money),  # not a cell's $A$1
    (r"(?<=[A-Za-z_])\d{3,}" + _CODE_END + "(?![万亿])", lambda m: digits(m.group(0), DIGITS)),  # i386 i三八六
    # 1 + 16%, 1 x 2, 128 x 128: 加 and 乘 between numbers, before a percent takes its number (not 0x1F)
    (r"(?<![\d.])(\d+)\s?\^\s?(\d+)(?![\d.])", lambda m: cardinal(m.group(1)) + "的" + cardinal(m.group(2)) + "次方"),
    (r"(?<=\d)\s?\+\s?(?=\d)", "加"),
    (r"(?<!\b0)(?<=\d)\s?[xX×]\s?(?=\d)", "乘"),
    (r"(?<=\d[%‰℃])\s?[-–—~〜～]\s?(?=[-−]?\d)", "到"),  # 10%-15% 百分之十到百分之十五, -3℃~5℃
    (r"(?<=\d)\s?[~〜～]\s?(?=[-−]?\d+(?:\.\d+)?\s?(?:℃|°[CF]|[%‰]))", "到"),  # -5~5℃ 负五到五摄氏度
    # blood pressure, systolic over diastolic: 120/80mmHg 一百二十比八十毫米汞柱
    (r"(?<![\d/.])(\d{2,3})/(\d{2,3})\s?mmHg", lambda m: integer(int(m.group(1))) + "比" + integer(int(m.group(2)))
     + "毫米汞柱"),
    (r"(-|负)?(" + NUMBER + r")\s?([%‰])", _percent),
    (r"(-|负)?(?<![\d/.])(?:(\d+)又)?(\d+)\s?/\s?(\d+)(?![\d/.])", _fraction),
    (r"(-)?(" + NUMBER + r")\s?(km/h|" + UNIT + r")(?![A-Za-z²³/])", _measure),
    # an era written after the year, as English writes it (2334bc, 1823年3月bc): said before it, 公元前/公元
    (r"(?i)(?<![\d.])(\d{1,4})(年(?:\d{1,2}月(?:\d{1,2}[日号])?)?)?\s?(b\.?c\.?|a\.?d\.?)(?![A-Za-z])", _era),
    (r"(?<=\d)w(?![A-Za-z])", "万"),  # 300w: 万 as written in chat
    (r"(?<=[A-Z])2(?=[A-Z])", " to "),  # B2B, O2O
    (r"(公元前|公元|纪元|西元)?(?<!\d)(\d+) ?年(?=(\d{1,2}月))?", _year),  # "于 1993 年": spaced as in mixed text
    (r"(?<!\d)(\d0)(?=后)", lambda m: digits(m.group(1), DIGITS)),  # 90后: a generation
    # minutes and seconds of a clock keep their zero, as 9:05 九点零五分 does: 3点05分 三点零五分, 15时05分
    (r"(?<=\d[点时分])0([1-9])(?=[分秒])", lambda m: "零" + integer(int(m.group(1)))),
    (r"(?<![\d.])0(\d)(?=[月日号时点分秒])", lambda m: integer(int(m.group(1)))),  # 08月 八月
    (r"(?<=[\d年月日号点分秒])\s?(?:[" + "~〜～–—" + r"]|-(?=\s?\d))\s?(?=\d)", "到"),  # 3-5, 3~5, 15日-20日: a range
    (r"\s?(±|≥|>=|≤|<=|≠|×|÷)\s?", lambda m: SIGNS[m.group(1)]),
    (r"(?<=\d)\s?([=+<>])\s?(?=[-\d])", lambda m: SIGNS[m.group(1)]),
    (r"(?<![A-Za-z0-9.])[-−](?=\d|百分之)", "负"),
    (NUMBER, _number),
])
