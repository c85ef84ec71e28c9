"""Issue 63 for Chinese, Korean and Japanese, second round, on sentences of our own: each class as a native
reader would state it, seen in Python (`normalize`, `text.spoken`) and on the command line's dry run (`--dry-run`
prints each piece as it will be spoken; no model is loaded).

Classes: Korean 번 counts times with native numbers after a span ("하루에 3번" 세 번) or before a word of amount
("2번씩"), but numbers a thing with Sino-Korean ones ("3번 출구" 삼 번); 줄 (lines) is a native counter; N장 closing a title line after a noun no sheet is names a part of a
document ("설치 방법 3장" 삼장), after one (사진, 표, 티켓) counts sheets (사진 2장 두장); a sign
before a percentage is said (플러스, 마이너스); a range of percentages is said "에서"; a dot in a file name or a bare host name (no e-mail) is 닷 and a short label after it spelled
in Hangul letter names (보고서 닷 디오씨엑스, seoul 닷 지오 닷 케이알), but 닷컴, 닷넷; Chinese 加 and 乘 between
numbers ("1 + 16%", "128 x 128"); Chinese letter-2-letter business words (B2B "B to B"), 万 written "w" after a
number, Japanese mixed numbers written with a space (2 1/2 二と二分の一), an afternoon hour written 15:30pm said 下午三点 (never 下午十五点), a slashed triple after a word for a date a date with a two-digit year (日期为24/3/15), a year with its era written after it ("2334bc" 公元前), and a month written with two digits before a
day or a year (06-15, 08/2015: a count is never written 08) or in a day-month-year date (05.03.2030)."""

import pytest

from test_reading_ru_cjk import read_in_python, read_on_the_command_line

# (language, written, words that must be said, words that must not) - what today's main says wrong in must_not
CASES = [
    ("ko", "이 약은 하루에 3번 드시고, 2번씩 나눠서 바르세요.", ["하루에 세번", "두번씩"], ["삼번 드", "이번씩"]),
    ("ko", "지하철 3번 출구로 나와서 5번 버스를 타세요.", ["삼번 출구", "오번 버스"], ["세번 출구", "다섯번"]),
    ("ko", "편지는 4줄로 쓰고 문단 사이는 2줄 띄웁니다.", ["네줄로", "두줄"], ["사줄", "이줄"]),
    ("ko", "가격이 +20% 올랐다가 다시 -5% 내렸다.", ["플러스 이십 퍼센트", "마이너스 오 퍼센트"], ["+"]),
    ("ko", "사용자 안내서, 설치 방법 3장\n\n준비물: 사진 2장", ["방법 삼장", "사진 두장"], ["세장", "이장"]),
    ("ko", "할인율은 10~30%입니다.", ["십에서 삼십 퍼센트"], ["부터"]),
    ("ko", "보고서.docx 파일을 첨부하고 결과는 seoul.go.kr 또는 naver.com 에 올리세요.",
     ["보고서 닷 디오씨엑스", "seoul 닷 지오 닷 케이알", "naver 닷컴"], [".docx", ".kr"]),
    ("ja", "小麦粉を2 1/2カップ、砂糖を1/3カップ入れます。", ["二と二分の一カップ", "三分の一カップ"], ["二 二分の一"]),
    ("zh", "这张桌子长 2 x 3 米，总价是 100 + 5% 的税。", ["二乘三米", "一百加百分之五"], ["x", "+"]),
    ("zh", "屏幕分辨率为 1920 x 1080。", ["一千九百二十乘一千零八十"], ["x"]),
    ("zh", "公司做B2B和O2O业务。", ["B to B", "O to O"], ["B二B"]),
    ("zh", "这部电影票房300w。", ["三百万"], ["三百w"]),
    ("zh", "这座城建于2334bc。", ["公元前二三三四年"], ["bc"]),
    ("zh", "会议在15:30pm开始。", ["下午三点三十分"], ["十五点"]),
    ("zh", "发票日期为24/3/15，请核对。", ["二四年三月十五日"], ["十五分之", "/"]),
    ("zh", "合同于08/2015签署，每年的06-15续约，截止05.03.2030。",
     ["二零一五年八月", "六月十五日", "二零三零年五月三日"], ["分之二", "到十五", "五点"]),
]


@pytest.mark.parametrize("language, written, must, must_not", CASES, ids=[c[1][:20] for c in CASES])
def test_each_class_is_read_right_in_python(language, written, must, must_not):
    read_in_python(language, written, must, must_not)


@pytest.mark.parametrize("language", sorted({c[0] for c in CASES}))
def test_each_class_is_read_right_on_the_command_line(tmp_path, language):
    read_on_the_command_line(tmp_path, [c for c in CASES if c[0] == language], language)
