"""What Chinese, Japanese and Korean share when numbers become words: numbers counted in groups of four
digits (万, 億/亿, 兆; 만, 억, 조), digits read one by one, full-width digits and signs, and a reader that applies
a language's rules in order. Each rule turns the digits it matches into words, so a later rule never sees them
again; the order of a language's rules is its priority (a date before a range, a range before a minus sign).

`Spelling` says how one language writes its numbers; `number` is the shared counting, e.g. 2350:
zh 两千三百五十, ja 二千三百五十, ko 이천삼백오십; 28000: zh 两万八千, ja 二万八千, ko 이만팔천.
"""

import re
from dataclasses import dataclass
from typing import Callable

# Full-width digits, letters and % as ASCII, so one set of patterns reads both; full-width punctuation only between
# digits (２２：５８, ３．５), elsewhere it stays the sentence's own.
FULL_WIDTH = str.maketrans({**{chr(c): chr(c - 0xFEE0) for c in [*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B),
                                                               *range(0xFF41, 0xFF5B), 0xFF05]},
                            "\u223c": "〜"})  # the tilde operator, written for a range's wave dash ("4.2∼9")
_FULL_WIDTH_SIGN = re.compile(r"(?<=\d)[：．，／－](?=\d)")
# 28,000 and 3.5, never begun inside a longer number (which also keeps a search over a long digit run linear)
# A number: thousands grouped by three, or by four as Chinese and Japanese also group them ("9,9999,9999")
NUMBER = r"(?<!\d)(?:\d{1,3}(?:,\d{3}(?!\d))+(?:\.\d+)?|\d{1,4}(?:,\d{4}(?!\d))+(?:\.\d+)?|\d+(?:\.\d+)?)"


@dataclass(frozen=True)
class Spelling:
    """How a language writes its numbers in words."""
    digits: str            # 0..9, a character each
    small: str             # 十百千
    myriads: str           # 万億兆京
    zero_inside: bool      # zh: 一万零一 (a gap of zeros is said); ja, ko: 一万一
    one_before: Callable   # (十/百/千 as 0..2, a myriad follows, digits said before) -> whether "one" is said
    one_myriad: Callable   # (万/億/兆/京 as 0..3, digits said before) -> whether "one" is said before it

    def section(self, n: int, before_myriad: bool, first: bool) -> str:
        """0 < n < 10000 in words."""
        out, gap = [], False
        for power in (3, 2, 1):
            d = n // 10 ** power % 10
            if d == 0:
                gap = bool(out)
                continue
            if gap and self.zero_inside:
                out.append(self.digits[0])
            gap = False
            if d > 1 or self.one_before(power - 1, before_myriad, bool(out) or not first):
                out.append(self.digits[d])
            out.append(self.small[power - 1])
        if n % 10:
            if gap and self.zero_inside:
                out.append(self.digits[0])
            out.append(self.digits[n % 10])
        return "".join(out)


def number(n: int, sp: Spelling) -> str:
    """A whole number >= 0 in words, in groups of four digits."""
    if n == 0:
        return sp.digits[0]
    groups = []
    while n:
        groups.append(n % 10000)
        n //= 10000
    if len(groups) > len(sp.myriads) + 1:
        raise ValueError("too large")
    out, gap = [], False
    for i in range(len(groups) - 1, -1, -1):
        g = groups[i]
        if g == 0:
            gap = bool(out)
            continue
        # zh says a zero for a gap, also for a group under 1000 after a higher group: 一万零五十
        if out and sp.zero_inside and (gap or g < 1000):
            out.append(sp.digits[0])
        gap = False
        if i and g == 1 and not sp.one_myriad(i - 1, bool(out)):
            out.append(sp.myriads[i - 1])
            continue
        out.append(sp.section(g, i > 0, not out))
        if i:
            out.append(sp.myriads[i - 1])
    return "".join(out)


# 2024.03.05. and 2024. 3. 5. (Korean writes a dot after each part): a date, its last dot a part of it.
DOTTED_DATE = r"(?<![\d.])(?P<y>\d{4})\.\s?(?P<m>\d{1,2})\.\s?(?P<d>\d{1,2})(?P<end>\.(?!\d))?(?!\d)"
# "2024.3.4.~3.15.": the second day of a range of dates, once the first (a dotted date) is said, its word for a day
# (日, 일) before the range's sign
DOTTED_RANGE_END = r"\s?[〜～~–-]\s?(?P<m>\d{1,2})\.\s?(?P<d>\d{1,2})(?:\.(?!$))?(?!\d|\.\d)"
# "(4.2〜9)", "4.2〜5.9": days of a month and a range of them, where a date is meant (`month_days`).
MONTH_DAYS = (r"(?<![\d.])(?P<m>\d{1,2})\.(?P<d>\d{1,2})\.?\s?〜\s?(?:(?P<m2>\d{1,2})\.)?(?P<d2>\d{1,2})\.?"
              r"(?![\d.%])")
# words before a date, in the three languages: 기간 (period), 일시, 일정, 期间, 日期, 期限, 期間, 日程 ...
DATE_WORDS = re.compile(r"(?:기간|일시|일정|일자|날짜|기한|접수|期间|日期|时间|期限|截止|期間|日程|日時)\s*(?:[:：]|是|为)?\s*[(（]?\s*$")
_WEEKDAY_AFTER = re.compile(r"\s?[(（][月火水木金土日월화수목금토일一二三四五六]")


def month_days(m) -> bool:
    """Whether "4.2〜9" at match `m` is a range of days (April 2 to 9), not of numbers: it stands in brackets of
    its own, after a word for a date or a period, or before a weekday in brackets; and its month and days can be."""
    g = m.groupdict()
    if not (1 <= int(g["m"]) <= 12 and 1 <= int(g["d"]) <= 31 and 1 <= int(g["d2"]) <= 31
            and (g["m2"] is None or 1 <= int(g["m2"]) <= 12)):
        return False
    before, after = m.string[max(0, m.start() - 12):m.start()], m.string[m.end():m.end() + 3]
    return (before.endswith(("(", "（")) and after.startswith((")", "）")) or bool(DATE_WORDS.search(before))
            or bool(_WEEKDAY_AFTER.match(after)))


def month_days_said(m, date, through: str) -> str:
    """A range of days at match `m` (`month_days`) as said: `date(month, day)` (the digits as written; month None
    for the second day of the same month) of the first day, `through`, the second; the written text where no date
    is meant."""
    if not month_days(m):
        return m.group(0)
    g = m.groupdict()
    return date(g["m"], g["d"]) + through + date(g["m2"], g["d2"])


def kept_end(m) -> str:
    """A dotted date's last dot, kept where it also ends the text."""
    return "." if m.group("end") and m.end() == len(m.string) else ""


def digits(s: str, table) -> str:
    """Digits read one by one; anything else in `s` is dropped."""
    return "".join(table[int(c)] for c in s if c.isdigit())


def parse(s: str):
    """'28,000' -> (28000, ''); '3.50' -> (3, '50'): the whole part and the digits after the point."""
    whole, _, frac = s.replace(",", "").partition(".")
    return int(whole), frac


class Reader:
    """A language's rules (compiled pattern, function of the match) applied in order."""

    def __init__(self, rules):
        self.rules = [(re.compile(p) if isinstance(p, str) else p, f) for p, f in rules]

    def __call__(self, text: str) -> str:
        text = _FULL_WIDTH_SIGN.sub(lambda m: chr(ord(m.group(0)) - 0xFEE0), text.translate(FULL_WIDTH))
        if not any(c.isdigit() or c in SYMBOL_HINTS for c in text):
            return text
        for pattern, fn in self.rules:
            text = pattern.sub(fn, text)
        return text


# Signs some rule reads without a digit beside them; a text with neither these nor digits is returned as it is.
SYMBOL_HINTS = set("%‰±×÷=≤≥<>+~〜∼℃°$¥￥€£₩")
