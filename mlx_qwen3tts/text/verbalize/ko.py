"""Korean numbers and symbols as they are said, in Hangul.

Sino-Korean numbers (일, 이, 삼) count money, dates, measures, minutes, years and telephone digits: 2024년 3월 5일
이천이십사년 삼월 오일 (6월 유월, 10월 시월), 10000 만, 13000 만삼천, 100000000 일억, 0 영. Native numbers
(하나, 둘: 한, 두, 세) count things and people before a counter word, up to 99 (3개 세개, 20명 스무명,
3번째 세번째, 1번째 첫번째), and say the hour from 1 to 12 (3시 세시, 오후 3:30 오후 세시 삼십분); hours 0 and 13
to 24 are Sino-Korean (14:05 십사시 오분, 0시 영시), as NeMo's published test data reads them.
Decimals 점 (3.5 삼점오), percent 퍼센트, a negative number 마이너스, a fraction 1/2 이분의 일 (with the
particle after it matched to its last syllable: 4/7이 칠분의 사가), a range's 〜 부터, telephone numbers digit
by digit in groups (010-1234-5678 영일영 일이삼사 오육칠팔, +82 국가번호 팔이, 1588-1234 일오팔팔 일이삼사).
A pair written with a hyphen is a game's score (2-1로 이겼다 이 대 일로) where a word of a game's result is in its
sentence.
"""

import re
from pathlib import Path

from . import electronic
from .cjk import (DOTTED_DATE, DOTTED_RANGE_END, MONTH_DAYS, NUMBER, Reader, Spelling, digits, kept_end,
                  month_days_said, number, parse)

DIGITS = "영일이삼사오육칠팔구"
SPELLING = Spelling(digits=DIGITS, small="십백천", myriads="만억조경", zero_inside=False,
                    one_before=lambda i, before_myriad, inside: False,
                    one_myriad=lambda i, inside: i > 0)
NATIVE_ONES = ("", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉")
NATIVE_TENS = ("", "열", "스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔")
MONTHS = {6: "유월", 10: "시월"}
# Counter words after which a number up to 99 is native: 세개, 두명, 다섯살, 세번째 (but 삼개월, 삼개국, 삼개년: months,
# countries and years are Sino).
COUNTERS = ("번째", "개(?![월국년])", "명", "마리", "살", "권", "잔", "병", "장", "벌", "켤레", "송이", "그루", "가지", "군데",
            "사람", "시간", "곳", "달(?!러)", "척", "채", "통", "자리", "줄",
            # in a recipe: 설탕 세 큰술, 물 두 컵, 마늘 한 줌
            "큰술", "작은술", "숟가락", "스푼", "컵", "조각", "봉지", "방울", "줌", "꼬집", "그릇", "접시", "팩", "캔",
            "끼", "바퀴", "마디", "걸음",
            # bunches, boxes and pieces: 배추 두 포기, 장갑 세 쌍, 사과 한 상자, 연필 두 자루, 노래 세 곡
            "쌍", "포기", "상자", "다발", "묶음", "개비", "덩어리", "덩이", "가닥", "움큼", "모금", "자루", "짝",
            "곡(?![물선식])",
            "배(?![율속수열])",  # multiples: 두 배, 열 배 (but 2배속, 배율)
            # characters of a text: 여덟 자 이상, 스무 자까지 (but 3자 회담, 제3자: parties, Sino-Korean)
            r"자(?=\s?(?:이상|이하|이내|미만|까지|씩|를|로|[.,)]|$))")
# words a model's number stands before (386 PC, 486 프로세서), and names of standards and chip makers whose numbers
# are said digit by digit (RFC 822, ISO 9001, Intel 8086)
MODEL_WORDS = "PC|CPU|프로세서|마이크로프로세서|칩|컴퓨터|기종|시리즈"
MODEL_NAMES = "RFC|ISO|IEC|IEEE|ANSI|ECMA|JIS|DIN|KS|Intel|AMD|Motorola|Zilog|인텔|보잉|에어버스"
CURRENCY = {"₩": "원", "KRW": "원", "krw": "원", "$": "달러", "US$": "달러", "USD": "달러", "HK$": "홍콩 달러",
            "€": "유로", "EUR": "유로", "¥": "엔", "JPY": "엔", "£": "파운드", "GBP": "파운드", "CNY": "위안",
            "CAD": "캐나다 달러", "NZD": "뉴질랜드 달러", "AUD": "호주 달러", "CHF": "스위스 프랑",
            "AED": "아랍에미리트 디르함"}
UNITS = {"km": "킬로미터", "m": "미터", "cm": "센티미터", "mm": "밀리미터", "nm": "나노미터", "kg": "킬로그램",
         "g": "그램", "mg": "밀리그램", "t": "톤", "L": "리터", "l": "리터", "mL": "밀리리터", "ml": "밀리리터",
         "km²": "제곱킬로미터", "m²": "제곱미터", "m³": "세제곱미터", "h": "시간", "s": "초", "ms": "밀리초",
         "min": "분", "W": "와트", "kW": "킬로와트", "kWh": "킬로와트시", "V": "볼트", "Hz": "헤르츠",
         "kHz": "킬로헤르츠", "MHz": "메가헤르츠", "GHz": "기가헤르츠", "N": "뉴턴", "rpm": "분당회전수", "℃": "도",
         "°C": "도", "°F": "화씨 도", "°": "도", "mAh": "밀리암페어시", "dB": "데시벨", "KB": "킬로바이트",
         "MB": "메가바이트", "GB": "기가바이트", "TB": "테라바이트",
         "KiB": "키비바이트", "MiB": "메비바이트", "GiB": "기비바이트", "TiB": "테비바이트",
         # squared units (㏄ ㎗ ㎘ ㏊) as NFKC writes them
         "cc": "씨씨", "dL": "데시리터", "dl": "데시리터", "kL": "킬로리터", "kl": "킬로리터", "ha": "헥타르",
         # type, screens and networks (12pt 십이 포인트, 300dpi 삼백 디피아이, 100Mbps 백 메가비피에스)
         "pt": "포인트", "px": "픽셀", "dpi": "디피아이", "ppi": "피피아이", "bps": "비피에스", "kbps": "킬로비피에스",
         "Kbps": "킬로비피에스", "Mbps": "메가비피에스", "Gbps": "기가비피에스", "PB": "페타바이트",
         "kcal": "킬로칼로리", "cal": "칼로리", "µm": "마이크로미터", "μm": "마이크로미터", "ppm": "피피엠",
         "MW": "메가와트", "GW": "기가와트", "mA": "밀리암페어", "inch": "인치", "ft": "피트", "lb": "파운드",
         "oz": "온스", "fps": "프레임", "bit": "비트", "bits": "비트", "kB": "킬로바이트", "kb": "킬로비트",
         "Kb": "킬로비트", "Mb": "메가비트", "Gb": "기가비트", "sec": "초", "hr": "시간", "hrs": "시간"}
UNIT_WORD = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
UNIT = "(?:" + UNIT_WORD + ")(?:/(?:" + UNIT_WORD + "))?"  # km/h: 킬로미터 퍼 시간
CUR = "|".join(re.escape(c) for c in sorted(CURRENCY, key=len, reverse=True))
SIGNS = {"±": "플러스마이너스", "×": "곱하기", "÷": "나누기", "=": "는", "+": "더하기"}
WEEKDAY = "월화수목금토일"
PARTICLE = r"([이가은는을를과와](?=[\s.,!?]|$))?"  # a particle after a number written in digits
PARTICLES = {"이": "가", "가": "이", "은": "는", "는": "은", "을": "를", "를": "을", "과": "와", "와": "과"}


def cardinal(s: str) -> str:
    """Sino-Korean: '28,000' 이만팔천, '0.03' 영점영삼; a number too long to count is read digit by digit."""
    whole, frac = parse(s)
    said = digits(str(whole), DIGITS) if len(str(whole)) > 20 else number(whole, SPELLING)
    return said + ("점" + digits(frac, DIGITS) if frac else "")


def native(n: int) -> str:
    """1..99 as said before a counter: 한, 스무, 스물한, 아흔아홉."""
    if n == 20:
        return "스무"
    return NATIVE_TENS[n // 10] + NATIVE_ONES[n % 10]


def _counted(m) -> str:
    n = int(m.group(1))
    if m.group(2).strip() == "번째" and n == 1:
        return "첫번째"
    return (native(n) if 0 < n < 100 else cardinal(m.group(1))) + m.group(2)


# 번 counts times (native: 하루에 세 번, 두 번씩) after a span "...에" or before a word of amount; else it
# numbers a thing (Sino: 3번 출구, 2번 버스, 5번 선수).
_TIMES_BEFORE = ("최대", "최소", "총", "모두", "매일", "매번", "하루", "몇")  # 최대 3번까지 세 번
_TIMES_AFTER = ("씩", "이나", "정도", "쯤", "이상", "이하", "더", "만에", "도", "째")


# a predicate's ending: "3번 봤어요", "2번 읽고" count times; a noun after 번 ("4번 문제를") numbers it
_PREDICATE = re.compile(r"\s[가-힣]*(?:다|요|죠|고|서|며|면|니다)(?![가-힣])")


def _times(m) -> str:
    before = m.string[max(0, m.start() - 2):m.start()].rstrip()
    after = m.string[m.end():m.end() + 3].lstrip()
    n = int(m.group(1))
    if 0 < n < 100 and (before.endswith("에") or after.startswith(_TIMES_AFTER) or _PREDICATE.match(m.string, m.end())
                        or m.string[max(0, m.start() - 4):m.start()].rstrip().endswith(_TIMES_BEFORE)):
        return native(n) + m.group(2)
    return cardinal(m.group(1)) + m.group(2)


# Things counted in 대 (차 두 대, 컴퓨터 세 대): a number after one of them counts it; else 대 is an age group
# (20대 이십대) or a rank (세계 3대 박물관 삼대), Sino-Korean.
MACHINES = ("차", "자동차", "버스", "트럭", "택시", "승용차", "오토바이", "자전거", "비행기", "헬리콥터", "기차", "배",
            "컴퓨터", "노트북", "태블릿", "휴대폰", "스마트폰", "전화기", "카메라", "냉장고", "세탁기", "에어컨",
            "텔레비전", "TV", "모니터", "프린터", "서버", "기계", "장비", "드론", "로봇", "피아노")


def _machines(m) -> str:
    before = m.string[max(0, m.start() - 8):m.start()].rstrip().split()
    if before and before[-1].endswith(MACHINES) and 0 < int(m.group(1)) < 100:
        return native(int(m.group(1))) + m.group(2)
    return cardinal(m.group(1)) + m.group(2)


def hour(h: int) -> str:
    return native(h) if 1 <= h <= 12 else cardinal(str(h))


def _date(m) -> str:
    g = m.groupdict()
    year, month, day = g["y"], int(g["m"]), int(g["d"]) if g["d"] else None
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return m.group(0)
    said = f"{cardinal(year)}년 {month_name(month)}"
    return said + (f" {cardinal(str(day))}일" if day else "")


def _date_dmy(m) -> str:
    a, b, year = int(m.group(1)), int(m.group(2)), m.group(3)
    month, day = (a, b) if a <= 12 else (b, a)  # 10/30/2024 (US), 29/12/2000 (day first when it can only be a day)
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        return m.group(0)
    return f"{cardinal(year)}년 {month_name(month)} {cardinal(str(day))}일"


def _dotted_date(m) -> str:
    said = _date(m)
    return said if said == m.group(0) else said + kept_end(m)


def _month_days(m) -> str:
    """(4.2〜9): 사월 이일 부터 구일; a range of numbers where no date is meant (4.2〜9 사점이 부터 구)."""
    return month_days_said(m, lambda month, day: (month_name(int(month)) + " " if month else "") + cardinal(day) + "일",
                           " 부터 ")


# Things counted in sheets (장): a number after one of them at the end of a line counts them (사진 2장).
SHEETS = ("종이", "사진", "표", "티켓", "카드", "우표", "엽서", "편지", "지폐", "쿠폰", "수건", "접시", "타일", "유리",
          "이불", "담요", "용지", "서류", "도화지", "스티커", "입장권", "영수증", "장")


def _chapter(m) -> str:
    """A number before 장: a chapter's, Sino-Korean, where it heads a line or is followed by a reference
    (1장 서론, 2장에서, 3장 참조, 1장부터); else a count of sheets, native (종이 한장, 사진 두장을)."""
    n, word = m.group(1), m.group(2)
    start = m.string.rfind("\n", 0, m.start()) + 1
    end = m.string.find("\n", m.end())
    line_rest = m.string[m.end():end if end >= 0 else len(m.string)].rstrip()
    # a heading: first on its line, and the line no sentence ("3장 남았어요." counts sheets)
    heads = not m.string[start:m.start()].strip(" \t#*-") and not line_rest.endswith((".", "!", "?", "다", "요"))
    after = m.string[m.end():m.end() + 3]
    # last on a title line (no sentence) after a noun no sheet is: a part of a document (함수 목록 2장)
    before = m.string[start:m.start()].split()
    closes = (not line_rest and before and not before[-1].endswith(SHEETS)
              and not m.string[start:m.start()].rstrip().endswith((".", "!", "?", "다", "요")))
    if heads or closes or after.startswith(("에서", " 참조", " 참고", "부터")):
        return cardinal(n) + word
    return _counted(m)


def month_name(month: int) -> str:
    return MONTHS.get(month, cardinal(str(month)) + "월")


def _time(m) -> str:
    """14:30 십사시 삼십분; with AM or PM after it, 오전 or 오후 before (9:00 AM 오전 아홉시); its particle matched to the
    last syllable said (12:00:00을 열두시를)."""
    h, mi, sec, fraction, half = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4), m.group(5)
    seconds = f" {cardinal(str(int(sec)))}" + ("점" + digits(fraction, DIGITS) if fraction else "") + "초" if sec else ""
    if sec and h > 24 and mi <= 59 and int(sec) <= 59:  # 36:20:05, a duration: 삼십육시간 이십분 오초
        said = f"{cardinal(str(h))}시간 {cardinal(str(mi))}분{seconds}"
        return said + particle(said, m.group(6) or "")
    if h > 24 or mi > 59 or (sec and int(sec) > 59):
        said = " 대 ".join(cardinal(str(int(g))) for g in m.groups()[:3] if g)
        return said + (" " + half if half else "") + particle(said, m.group(6) or "")
    said = hour(h) + "시" + (f" {cardinal(str(mi))}분" if mi else "")
    said += seconds if sec and (int(sec) or fraction) else ""
    if half:
        said = ("오전 " if half[0] in "aA" else "오후 ") + said
    return said + particle(said, m.group(6) or "")


def _hour_day_part(m) -> str:
    said = ("오전 " if m.group(2) in "aA" else "오후 ") + hour(int(m.group(1))) + "시"
    return said + particle(said, m.group(3) or "")


def _phone(m) -> str:
    country, body = m.group(1), m.group(2)
    groups = [g for g in re.split(r"[-.\s()]+", body) if g]
    said = " ".join(digits(g, DIGITS) for g in groups)
    return (f"국가번호 {digits(country, DIGITS)} " if country else "") + said


def _money(m) -> str:
    sign = "마이너스 " if m.group(2) else ""
    said = sign + cardinal(m.group(3)) + (m.group(4) or "") + CURRENCY[m.group(1)]
    return said + particle(said, m.group(5) or "")


def unit_words(unit: str) -> str:
    return " 퍼 ".join(UNITS[u] for u in unit.split("/"))


def _fraction(m) -> str:
    sign = "마이너스 " if m.group(1) else ""
    whole = cardinal(m.group(2)) + m.group(3) + " " if m.group(2) else ""
    num = ("루트 " if m.group(4) else "") + cardinal(m.group(5))
    den = ("루트 " if m.group(6) else "") + cardinal(m.group(7))
    said = f"{sign}{whole}{den}분의 {num}"
    if m.group(8):
        return f"{said} {unit_words(m.group(8))}"
    return said + particle(said, m.group(9) or "")


def particle(said: str, p: str) -> str:
    """A particle after a number said as words, matched to its last syllable (삼이, 사가)."""
    if not p:
        return ""
    last = said[-1]
    closed = "가" <= last <= "힣" and (ord(last) - 0xAC00) % 28 != 0
    wants_closed = p in "이은을과"
    return p if closed == wants_closed else PARTICLES[p]


def _measure(m) -> str:
    """10 cm 십 센티미터; a particle after it matched to the unit's word (10 cm을 십 센티미터를: 씨엠을 as letters)."""
    sign = "마이너스 " if m.group(1) else ""
    said = f"{sign}{cardinal(m.group(2))} {unit_words(m.group(3))}"
    return said + particle(said, m.group(4) or "")


# words of a game's result: a pair of numbers in their sentence is its score (2-1로 승리 이 대 일로 승리)
RESULT_WORDS = re.compile("승리|이겼|이기|졌다|졌습|패배|패했|무승부|비겼|비기|꺾|격파|역전|완승|완패|대승|대패|석패|"
                          "신승|스코어|점수|전반|후반|연장")
_SENTENCE_END = re.compile(r"[.!?\n]\s")


def _score(m) -> str:
    """A pair written with a hyphen as a game's score, where a word of a game's result is in its sentence; else the
    pair as written, for a later rule (a range)."""
    before = _SENTENCE_END.split(m.string[max(0, m.start() - 20):m.start()])[-1]
    after = _SENTENCE_END.split(m.string[m.end():m.end() + 12])[0]
    if re.match(r"\s?[\dA-Za-z%℃°.년월일시분초개명번층세살]", m.string[m.end():]) or not RESULT_WORDS.search(before + after):
        return m.group(0)
    return f"{cardinal(m.group(1))} 대 {cardinal(m.group(2))}"


_read_numbers = Reader([
    (r"(?<=\d)\.\.(?=\d)", " 부터 "),  # (00..23), a range as manuals write it
    (DOTTED_DATE, _dotted_date),  # 2024.03.05., 2024. 3. 5.
    (r"(?<![\d./:-])(\d{1,3})\s?[-–]\s?(\d{1,3})(?![\d./:-])", _score),  # 2-1로 승리
    ("(?<=일)" + DOTTED_RANGE_END, lambda m: f" 부터 {month_name(int(m.group('m')))} {cardinal(m.group('d'))}일"
     if 1 <= int(m.group("m")) <= 12 and 1 <= int(m.group("d")) <= 31 else m.group(0)),  # 2024.3.4.~3.15.
    (r"(?<![\d.])(?P<m>\d{1,2})\.(?P<d>\d{1,2})\.?(?=\s?[(（][월화수목금토일])",
     lambda m: f"{month_name(int(m.group('m')))} {cardinal(m.group('d'))}일" if 1 <= int(m.group("m")) <= 12
     and 1 <= int(m.group("d")) <= 31 else m.group(0)),  # 3.5(화): 삼월 오일 화요일
    (r"(?<![\d.])(?P<y>\d{4})(?P<s>[-/.])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})(?![\d.])", _date),
    (r"(?<![\d.])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d.])", _date_dmy),
    (r"(?<![\d.,/-])(?P<y>\d{4})/(?P<m>\d{1,2})(?P<d>)(?![\d.,/-])", _date),
    (r"(?<=[일\d])\s?[(（]([" + WEEKDAY + r"])[〜～~-]([" + WEEKDAY + r"])[)）]",
     lambda m: f" {m.group(1)}요일부터{m.group(2)}요일"),
    (r"(?<=[일\d])\s?[(（]([" + WEEKDAY + r"])(?:요일)?[)）]", lambda m: f" {m.group(1)}요일"),
    (MONTH_DAYS, _month_days),
    # (a sentence's stop may follow a number: "02-123-4567.")
    (r"(?<![\d.-])(?:\+(\d{1,3})[\s-]?)?((?:\(\d{2,4}\)[\s-]?|\d{2,4}[-.])\d{3,4}[-.]\d{4})(?![\d-]|\.\d)", _phone),
    (r"(?<![\d.-])()(\d{4}-\d{4}-\d{4}-\d{4})(?![\d-]|\.\d)", _phone),  # a card number
    (r"(?<![\d.-])()(1[5-8]\d\d-\d{4})(?![\d-]|\.\d)", _phone),  # a nationwide number: 1588-1234 일오팔팔 일이삼사
    (r"(?<![\d.-])()(0\d{1,2} \d{3,4} \d{4})(?![\d-]|\.\d)", _phone),  # 010 1234 5678
    (r"(?<![\d.-])\+(\d{1,3})[\s-](\d{1,2}[\s-]\d{3,4}[\s-]\d{4})(?![\d-]|\.\d)", _phone),  # +82 10 1234 5678
    # 192.168.0.1, 2.1.0: parts digit by digit (telephone numbers with dots are taken first)
    (r"(?<![\d.])\d+(?:\.\d+){2,}(?![\d.])", lambda m: " 점 ".join(digits(p, DIGITS) for p in m.group(0).split("."))),
    # a model's number digit by digit (386 PC 삼팔육, Intel 8086 팔영팔육, 486 프로세서): before a word of a machine
    # or a chip (an aside in brackets may stand between), or after a standard's or a chip maker's name
    (r"(?<![\d.,])(?!\d{1,3}00(?!\d))\d{3,5}(?=\s?(?:[(（][^()（）]{0,16}[)）]\s?)?(?:" + MODEL_WORDS + r")(?![A-Za-z]))",
     lambda m: digits(m.group(0), DIGITS)),
    (r"(?<![A-Za-z])((?:" + MODEL_NAMES + r")\s?)(\d{3,5})(?![\d.,:/-])(?!\s?(?:[A-Za-z%]|" + "|".join(COUNTERS)
     + r"))", lambda m: m.group(1) + digits(m.group(2), DIGITS)),
    # 끝자리 3456; a port and a file's mode, digit by digit too (포트 8080 팔영팔영, chmod 755 칠오오)
    (r"((?:자리|번호|포트|chmod|umask|권한)(?:는|은|가|이|을|를|:)?\s?)(\d{3,})(?!\d)",
     lambda m: m.group(1) + digits(m.group(2), DIGITS)),
    (r"(?<=\d)\s?[–—~〜～-]\s?(?=\d+(?:\.\d+)?\s?%)", "에서 "),  # 0–15%: 영에서 십오 퍼센트
    (r"(?<=[\d일월년시분초])\s?[〜～~]\s?(?=\d)", " 부터 "),
    (r"(?<=요일)\s?[〜～~]\s?", " 부터 "),  # 3.4(월)〜3.8(금)
    (r"(?<=[\d시분초일])\s?[〜～~]\s?(?=(?:오전|오후)\s?\d)", " 부터 "),  # 오전 9시~오후 6시
    # 15일-20일; but "다시 -5%": a hyphen with a space before and none after is a minus sign
    (r"(?<=[일월년시분초])(?:\s?[–—]\s?|-\s?|\s-\s)(?=\d)", " 부터 "),
    (r"(?<=\d:\d\d)\s?[-~〜～–—]\s?(?=\d{1,2}:\d\d)", " 부터 "),
    # 9am-5pm, 9:00 AM~6:00 PM: a range of times each with AM or PM
    (r"(?<=\d)(\s?[AaPp]\.?[Mm]\.?)\s?[-~〜～–—]\s?(?=\d{1,2}(?::\d\d)?\s?[AaPp]\.?[Mm]\.?)",
     lambda m: m.group(1) + " 부터 "),
    (r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+)(?![\d.]))?)?(?![\d:])(?:\s?([AaPp]\.?[Mm]\.?)"
     r"(?![A-Za-z]))?" + PARTICLE, _time),
    # an hour with a.m. or p.m. after it (9 a.m. 오전 아홉시), and a.m. or p.m. before an hour (p.m. 3시 오후 세시);
    # 오전 or 오후 written beside it is not said twice
    (r"(?:(?:오전|오후)\s?)?(?<![\d.,:])(1[0-2]|0?[1-9])\s?([AaPp])\.?\s?[Mm]\.?(?![A-Za-z])" + PARTICLE, _hour_day_part),
    (r"(?:(?<=\s)|^)([AaPp])\.?\s?[Mm]\.?\s?(?=(?:1[0-2]|0?[1-9])\s?시)", lambda m: "오전 " if m.group(1) in "aA" else "오후 "),
    (r"(?<![\d:.])(\d{1,3}):(\d)(?![\d:])", lambda m: f"{cardinal(m.group(1))} 대 {cardinal(m.group(2))}"),  # 3:2
    # (a sign after a letter is a cell's reference, $A$1, no money)
    (r"(?<![A-Za-z$])(" + CUR + r")\s?(-)?(" + NUMBER + r")(만|억|조)?" + PARTICLE, _money),
    (r"((?<![\w.])[-+])?(" + NUMBER + r")\s?%p(?![A-Za-z])",  # 3%p: percentage points, 삼 퍼센트포인트
     lambda m: {"-": "마이너스 ", "+": "플러스 ", None: ""}[m.group(1)] + cardinal(m.group(2)) + " 퍼센트포인트"),
    (r"((?<![\w.])[-+])?(" + NUMBER + r")\s?%",
     lambda m: {"-": "마이너스 ", "+": "플러스 ", None: ""}[m.group(1)] + cardinal(m.group(2)) + " 퍼센트"),
    (r"(-|마이너스)?(?<![\d/.])(?:(\d+)(과|와))?(√)?(\d+)\s?/\s?(√)?(\d+)(?![\d/.])"
     r"(?:(" + UNIT + r")(?![A-Za-z])|" + PARTICLE[:-1] + ")?", _fraction),
    # 10 cm x 5 cm, 2 x 3: a product, as "×" is
    (r"(?<![A-Za-z\d.,])(" + NUMBER + r"\s?(?:" + UNIT + r")?)\s[xX]\s(?=\d)", lambda m: m.group(1) + " 곱하기 "),
    # pieces as a shop writes them: 사과 2 ea 사과 두 개, 10pcs 열 개
    (r"(?<![\d.,])(\d+)\s?(?:ea|EA|pcs|PCS)(?![A-Za-z])",
     lambda m: (native(int(m.group(1))) if 0 < int(m.group(1)) < 100 else cardinal(m.group(1))) + " 개"),
    # inches as written after a number, "in." (1 in.로 일 인치로); its dot kept where no particle follows
    (r"(?<=\d)(\s?)in\.(?=([가-힣])?)", lambda m: m.group(1) + ("inch" if m.group(2) else "inch.")),
    (r"(-)?(" + NUMBER + r")\s?(" + UNIT + r")(?![A-Za-z²³])" + PARTICLE, _measure),
    # a range, but not inside a name a Latin letter begins (x86-64, i386-2)
    (r"(?<=\d)(?<![A-Za-z]\d)(?<![A-Za-z]\d\d)(?<![A-Za-z]\d{3})\s?[–—-]\s?(?=\d)", " 부터 "),
    # words spoken with a number: 제3장 제삼장, 3개 세개, 10~20명 열 부터 스무명, 6월 유월, 3시 세시
    (r"(?<=제)(\d+)", lambda m: cardinal(m.group(1))),
    (r"(?<![\d.,])(\d{1,2})(\s?장)", _chapter),  # 1장 서론 (a chapter), 종이 1장 (a sheet)
    (r"(?<![\d.,])(\d{1,2})(\s?번)(?![째호지])", _times),  # 하루에 3번 세 번, 3번 출구 삼 번
    (r"(?<![\d.,])(\d{1,2})(대)", _machines),  # 차 2대 두대, but 20대 남성 이십대, 세계 3대 박물관 삼대
    (r"(?<![\d.,])(\d{1,2})(?=\s?(?:[-~〜～]|부터)\s?\d{1,2}\s?(?:" + "|".join(COUNTERS) + "))",
     lambda m: native(int(m.group(1))) if int(m.group(1)) else m.group(1)),
    (r"(?<![\d.,])(\d{1,2})(?=\s?(?:" + "|".join(COUNTERS) + r"))(\s?(?:" + "|".join(COUNTERS) + "))",
     _counted),
    (r"(?<![\d.,])(\d{1,2})(?=월)", lambda m: month_name(int(m.group(1)))[:-1]),
    (r"(?<![\d.,])(\d{1,2})(?=\s?시(?!간))", lambda m: hour(int(m.group(1)))),
    (r"(?<![\d.,])0(\d)(?=\s?[분초일])", lambda m: cardinal(m.group(1))),  # 09분 구분
    (r"\s?([±×÷])\s?", lambda m: SIGNS[m.group(1)]),
    (r"(?<=\d)\s?([+])\s?(?=[-\d])", lambda m: SIGNS[m.group(1)]),
    (r"(?<![A-Za-z0-9.])[-−](?=\d)", "마이너스 "),
    (r"√", "루트 "),
    (NUMBER, lambda m: digits(m.group(0), DIGITS) if len(m.group(0)) > 1 and m.group(0)[0] == "0"
     and m.group(0)[1] != "." else cardinal(m.group(0))),
])


# File names and bare host names: a dot is 닷, and a short label after it (a domain, a file's type) is spelled in Hangul
# letter names (hotmail 닷 디이, 사진 닷 제이피지), but for those said as words (닷컴, 닷넷, 앱).
LETTERS = dict(zip("abcdefghijklmnopqrstuvwxyz", ("에이", "비", "씨", "디", "이", "에프", "지", "에이치", "아이", "제이",
                                                 "케이", "엘", "엠", "엔", "오", "피", "큐", "알", "에스", "티", "유",
                                                 "브이", "더블유", "엑스", "와이", "제트")))
LABEL_WORDS = {"com": "컴", "net": "넷", "app": "앱"}
# the last label of a host or file name read so without "@" or "www." before it (nvidia.co.kr, 사진.jpg)
_ENDINGS = ("com|net|org|kr|jp|cn|de|fr|it|uk|us|io|app|jpg|jpeg|png|gif|pdf|txt|docx?|xlsx?|pptx?|hwp|zip|mp3|mp4|"
            "wav|csv|html?|exe")
# and the path after a host, each "/" 슬래시 and each dot in it 닷 (nvidia.com/drivers/index.html)
_FILE_OR_HOST = re.compile(r"(?<=\w)\.((?:[A-Za-z]{2,4}\.)*(?i:" + _ENDINGS + r"))((?:/[\w.-]*[\w-])+/?|/)?(?![\w.])")
_LABEL_AFTER_DOT = re.compile(r"(?<=닷 )([A-Za-z][A-Za-z\d]{1,3})(?![\w])")


def label(word: str) -> str:
    """A label after a dot in Hangul letter names, its digits in English as Koreans say them (mp3 엠피쓰리)."""
    low = word.lower()
    return LABEL_WORDS.get(low) or "".join(ENGLISH_DIGITS[int(c)] if c.isdigit() else LETTERS[c] for c in low)


def _file_or_host(m) -> str:
    path = (m.group(2) or "").replace("/", " 슬래시 ").replace(".", " 닷 ")
    return "".join(" 닷 " + p for p in m.group(1).split(".")) + path


def _card_digits(number: str) -> str:
    """A card number's digits one by one, four to a group (신용카드 1234567890123456: 일이삼사 오육칠팔 ...)."""
    return " ".join(digits(number[i:i + 4], DIGITS) for i in range(0, len(number), 4))


# A company's legal form written in brackets, joined to its name: ㈜삼성, (주)한화, 삼성(주) 주식회사; (유) 유한회사,
# (사) 사단법인, (재) 재단법인. "(주)" standing apart is a note, left as it is.
COMPANY_FORMS = {"주": "주식회사", "유": "유한회사", "사": "사단법인", "재": "재단법인"}
_COMPANY = re.compile(r"㈜|(?<=[가-힣A-Za-z])\((주|유|사|재)\)|\((주|유|사|재)\)(?=[가-힣A-Za-z])")


def _company(m) -> str:
    form = COMPANY_FORMS[m.group(1) or m.group(2) or "주"]
    after_name = m.start() > 0 and m.string[m.start() - 1].isalnum()
    return f" {form}" if after_name else f"{form} "  # 현대 주식회사가, 주식회사 한화


def _abbreviation(m) -> str:
    if m.group(1).rstrip(".") in UNITS and re.search(r"\d\s?$", m.string[:m.start()]):
        return m.group(0)
    said = ABBREVIATIONS[m.group(1)]
    if m.string[m.end():m.end() + 1].isdigit():
        return said + " "  # No.1 넘버 일
    return said + particle(said, m.group(2) or "")


def _abbreviations() -> dict:
    path = Path(__file__).parent / "data" / "ko_abbreviations.tsv"
    rows = (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line[:1] != "#")
    return dict(rows)


# Latin abbreviations in Korean text (data/ko_abbreviations.tsv): 사과 vs. 배 사과 대 배, 연필 etc. 연필 등,
# Dr. Lee 닥터 Lee, No. 5 넘버 오, a label joined to its number (No.1 넘버 일, Vol.2 볼륨 이), vs written without its
# dot (서울 vs 부산 서울 대 부산); never inside a word or an address (Dr.Web, e.g.com).
ABBREVIATIONS = _abbreviations()
_ABBREVIATION = re.compile(r"(?<![\w.])(" + "|".join(re.escape(a) for a in sorted(ABBREVIATIONS, key=len, reverse=True))
                           + r")(?=\s|$|[,;:)\]가-힣]|(?<=\.)\d)" + PARTICLE)


# A paper size before a word of paper said as Koreans say it, in English (A4 용지 에이포 용지, B5 크기 비파이브 크기);
# a spreadsheet's cell (A1 셀) keeps its Sino-Korean number.
ENGLISH_DIGITS = ("제로", "원", "투", "쓰리", "포", "파이브", "식스", "세븐", "에이트", "나인", "텐", "일레븐", "트웰브")
_PAPER = re.compile(r"(?<![A-Za-z\d])([AB])(10|\d)(?=\s?(?:용지|종이|사이즈|크기|규격|판형|지\b))")
# A function key as Koreans say it, in English (F1 키 에프원 키, Ctrl+F10 컨트롤 ... 에프텐)
# A digit and a capital said as one English word (3D 쓰리디, 5G 파이브지, 4K 포케이): dimensions, networks, screens
_TECH_TERM = re.compile(r"(?<![A-Za-z\d.,])([1-9])([DGK])(?![A-Za-z\d])")
_FUNCTION_KEY = re.compile(r"(?<![A-Za-z\d])F(1[0-2]|[1-9])(?![\dA-Za-z])")


def read(text: str) -> str:
    # "180° C", "200 ºC" (a space before the scale, the ordinal sign for the degree): one unit, °C
    text = re.sub(r"(?<=\d)(\s?)[°º]\s?(?=[CF](?![A-Za-z]))", lambda m: m.group(1) + "°", text)
    text = _PAPER.sub(lambda m: LETTERS[m.group(1).lower()] + ENGLISH_DIGITS[int(m.group(2))], text)
    text = _FUNCTION_KEY.sub(lambda m: "에프" + ENGLISH_DIGITS[int(m.group(1))], text)
    text = _TECH_TERM.sub(lambda m: ENGLISH_DIGITS[int(m.group(1))] + LETTERS[m.group(2).lower()], text)
    # its particle matched to the word said (etc.를 등을); a unit's letters after a number stay a unit (5 min. 오 분)
    text = _ABBREVIATION.sub(_abbreviation, text)
    if "㈜" in text or "(" in text:
        text = _COMPANY.sub(_company, text)
    if "카드" in text:  # a card number after a cue (data/card_cues.tsv: 카드번호, 신용카드 ...)
        text = electronic.read_cards("ko", text, _card_digits)
    if "." in text or "닷 " in text:
        text = _FILE_OR_HOST.sub(_file_or_host, text)
        text = _LABEL_AFTER_DOT.sub(lambda m: label(m.group(1)), text)
    return _read_numbers(text)
