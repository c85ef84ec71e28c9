"""Issue 63 for Chinese, Korean and Japanese, third round, on sentences of our own (recipes, news, timetables,
notices): each class as a native reader would state it, seen in Python (`normalize`, `text.spoken`) and on the
command line's dry run (`--dry-run`; no model is loaded).

Classes: a game's score (zh 比, ko 대, ja 対) where a team's name stands before a pair of numbers or a word of the
game's result is in its clause, but a range where a measure word or 月 follows (中国1-2月); zh 两 before 万 written as a
character, before more measure words and units written as words (两册, 两片, 两厘米) and for a span of years (两年), also
past a space, but never in an ordinal or a list after 第 (第1、2项); zh codes digit by digit (a room 302室, a code after
验证码, a train or flight number G1234次); a range of percentages and temperatures (zh 到, ja から); blood pressure (zh
120/80mmHg 一百二十比八十); the second day of a range of dotted dates (2024.3.4.~3.15.); Korean native numbers before
recipe counters (큰술, 컵), before 대 after a vehicle, and before 번 followed by a predicate (3번 봤어요), Sino-Korean before
달러; a Korean nationwide telephone number (1588-1234); binary units (MiB, KiB) in ko and ja; Japanese M/D before a
weekday in brackets a date, and a postal code or any number after 番号 digit by digit."""

import pytest

from test_reading_ru_cjk import read_in_python, read_on_the_command_line

# (language, written, words that must be said, words that must not) - what today's main says wrong in must_not
CASES = [
    ("zh", "中国队以3:1战胜日本队，巴西队上半场0-0，下半场爆冷1-2输球。",
     ["以三比一战胜", "零比零", "一比二"], ["三点", "零到零", "一到二输"]),
    ("zh", "中国1-2月出口增长3%，湖人 102:98 险胜。", ["一到二月", "一百零二比九十八"], ["一比二月", "九十八分"]),
    ("zh", "中国队在19:30开始的比赛中获胜，获胜概率为1/3，比分定格在21:19。",
     ["十九点三十分开始", "三分之一", "二十一比十九"], ["十九比三十", "一比三", "二十一点"]),
    ("zh", "他花了2万元，买了2册书和2片药，保修期为2年。", ["两万元", "两册", "两片", "两年"],
     ["二万", "二册", "二片", "二年"]),
    ("zh", "第1、2项规定的情形除外，第 2 个参数可选，等待 2 秒。", ["第一、二项", "第 二 个", "两 秒"],
     ["两项", "二 秒"]),
    ("zh", "将牛肉切成2厘米见方的块，再加2kg土豆。", ["两厘米", "两千克"], ["二厘米", "二千克"]),
    ("zh", "请到302室找我，验证码为208135，乘坐G1234次列车。", ["三零二室", "二零八一三五", "G一二三四次"],
     ["三百零二", "二十万", "一千二百"]),
    ("zh", "增长率在10%-15%之间，气温在-3℃~5℃之间。", ["百分之十到百分之十五", "负三摄氏度到五摄氏度"], ["负百分之十五", "~"]),
    ("zh", "血压为120/80mmHg。", ["一百二十比八十毫米汞柱"], ["八十分之", "mmHg"]),
    ("zh", "报名时间：2024.3.4-3.15", ["二零二四年三月四日到三月十五日"], ["三点一五"]),
    ("ko", "설탕 3큰술과 물 2컵을 넣고, 환율은 1달러에 1,350원입니다.", ["세큰술", "두컵", "일달러"],
     ["삼큰술", "이컵", "한달러"]),
    ("ko", "그 영화는 3번 봤어요. 4번 문제를 풀어 보세요.", ["세번 봤", "사번 문제"], ["삼번 봤"]),
    ("ko", "고객센터 1588-1234로 전화하세요.", ["일오팔팔 일이삼사"], ["천오백"]),
    ("ko", "주차장에 차 2대가 있고 20대 손님이 왔다.", ["두대가", "이십대"], ["이대가"]),
    ("ko", "신청 기간: 2024.3.4.~3.15.", ["삼월 사일 부터 삼월 십오일"], ["삼점일오"]),
    ("ko", "한국은 일본을 2-1로 이겼고, 전반은 0-0으로 끝났다.", ["이 대 일로", "영 대 영으로"], ["이 부터", "영 부터"]),
    ("ko", "사전 크기는 64 MiB, 버퍼는 4 KiB입니다.", ["육십사 메비바이트", "사 키비바이트"], ["MiB", "KiB"]),
    ("ja", "辞書サイズは64 MiBです。", ["六十四メビバイト"], ["MiB"]),
    ("ja", "日本代表は2-1で勝利した。", ["二対一で勝利"], ["二から一"]),
    ("ja", "説明会は3/15(金)に開催します。", ["三月十五日金曜日"], ["十五分の三"]),
    ("ja", "ポート番号は8080、会員番号：123456です。", ["八〇八〇", "一二三四五六"], ["八千", "十二万"]),
    ("ja", "郵便番号は100-0001、割引率は10〜20%です。", ["一〇〇の〇〇〇一", "十から二十パーセント"],
     ["百から", "〜"]),
]


@pytest.mark.parametrize("language, written, must, must_not", CASES, ids=[c[1][:20] for c in CASES])
def test_each_class_is_read_right_in_python(language, written, must, must_not):
    read_in_python(language, written, must, must_not)


@pytest.mark.parametrize("language", sorted({c[0] for c in CASES}))
def test_each_class_is_read_right_on_the_command_line(tmp_path, language):
    read_on_the_command_line(tmp_path, [c for c in CASES if c[0] == language], language)
