"""Issue 63 for Russian, Chinese, Japanese, Korean and `auto`, on sentences of our own (recipes, news, notices,
timetables), each class seen where a user sees it: Python (`text.spoken`, `normalize`), the command line's dry run
(`--dry-run` prints each piece as it will be spoken; no model is loaded) and HTTP (a real server process: the audio
of a text equals, code for code, that of the words it should be read as, given with normalization off).

Classes: a Russian number agrees with the noun it counts and takes the case of its preposition; Russian
abbreviations after a number are said, agreeing ("ч. л." a teaspoon, not hours; "с" before "половиной" a
preposition, not seconds); a leading zero said; days of a month after prepositions and in ranges; CJK squared
unit symbols (㎞ ㎡ ㎏) read, not dropped as emoji; Korean and Chinese dates written with dots, slashes or a wave
dash read as dates, not decimals; Korean "N장" a chapter or sheets by context; `auto` decided by the script
however short the line, and a sentence in another language inside a paragraph read in its own."""

import pytest

from test_reading_e2e import _speech, dry_run, folded, http, said_by_cli  # noqa: F401  (http: the server fixture)

# (language, written, words that must be said, words that must not) - what today's main says wrong in must_not
CASES = [
    # agreement in gender and number, and the case a preposition governs
    ("ru", "На полке стоят 2 книги и 1 тетрадь.", ["две книги", "одна тетрадь"], ["два книги", "один тетрадь"]),
    ("ru", "Фестиваль пройдёт с 4 по 11 марта в 75 городах страны.",
     ["с четвёртого по одиннадцатое марта", "в семидесяти пяти городах"], ["с четыре", "семьдесят пять городах"]),
    ("ru", "Купите 1 книгу и 2 тетради к 1 сентября.", ["одну книгу", "две тетради", "к первому сентября"],
     ["один книгу", "два тетради"]),
    ("ru", "Скидки до 30 % действуют на 21 товар.", ["до тридцати процентов", "двадцать один товар"],
     ["до тридцать"]),
    ("ru", "Он родился 9 мая 1945 года в деревне под Тверью.", ["девятого мая"], ["девятое мая"]),
    ("ru", "Поезд №7 отходит в 14:05 с 3 пути, билеты до 500 ₽.",
     ["номер семь", "с третьего пути", "до пятисот рублей"], ["номер7", "три пути", "до пятьсот"]),
    ("ru", "Ученики 5 класса занимаются на 2 этаже.", ["пятого класса", "на втором этаже"], ["пять класса"]),
    ("ru", "Электричка отходит со 2-го пути в 2-м часу.", ["со второго пути", "во втором часу"], ["в втором"]),
    ("ru", "Автобус ходит с 6:00 до 23:00, к 2030 году маршрут продлят.",
     ["с шести часов до двадцати трёх часов", "к две тысячи тридцатому году"], ["с шесть", "тридцатом году"]),
    ("ru", "Ночью до -15 градусов, поднимитесь на 2 этаж.", ["до минус пятнадцати градусов", "на второй этаж"],
     ["минус пятнадцать", "два этаж"]),
    # never a digit lost: a leading zero is said
    ("ru", "Агент 007 отправил письмо на индекс 01067.", ["ноль ноль семь", "ноль один ноль шесть семь"],
     ["тысяча шестьдесят семь"]),
    # abbreviations counted after a number
    ("ru", "Для теста возьмите 2 яйца и 1 ч. л. соли.", ["два яйца", "одну чайную ложку соли"], ["один час", "ч. л."]),
    ("ru", "Добавьте 2 ст. л. сахара и варите 2 с половиной часа.",
     ["две столовые ложки сахара", "два с половиной часа"], ["секунд", "ст."]),
    ("ru", "Нужно 2–3 ст. л. масла и 500 г муки.", ["две-три столовые ложки", "пятьсот граммов"], ["ст."]),
    ("ru", "Мука — 200 гр, сливочное масло — 1 пачка.", ["двести граммов", "одна пачка"], ["гр,"]),
    ("ru", "Население области превысило 300 тыс. человек, бюджет составил 5 млрд.",
     ["триста тысяч человек", "пять миллиардов"], ["тыс.", "млрд"]),
    ("ru", "На складе осталось 3 шт., заказ придёт через 2 недели.", ["три штуки", "две недели"], ["шт."]),
    # CJK squared units
    ("zh", "这套公寓面积85㎡，离地铁站1.5㎞。", ["八十五平方米", "一点五公里"], []),
    ("ja", "荷物は12㎏まで、サイズは60㎝以内です。", ["十二キログラム", "六十センチメートル"], []),
    ("ko", "집에서 회사까지 7㎞이고 방은 33㎡입니다.", ["칠 킬로미터", "삼십삼 제곱미터"], []),
    ("en", "The trail is 10㎞ long and climbs 3㎞ more.", ["ten kilometers", "three kilometers"], []),
    # dates, not decimals
    ("ko", "공고일 2024.03.05. 접수 기간(4.2∼9)", ["이천이십사년 삼월 오일", "사월 이일 부터 구일"], ["사점이", "점영삼"]),
    ("ko", "신청: 2025. 1. 15.(수)까지", ["이천이십오년 일월 십오일 수요일까지"], ["점 일", "점일"]),
    ("zh", "报名截止日期为03/07/2025，活动时间(4.2∼9)。", ["二零二五年三月七日", "四月二日到九日"], ["四点二", "/"]),
    ("zh", "2024-2025年赛季的比赛将于2024.09.01.开始。", ["二零二四到二零二五年赛季", "二零二四年九月一日"], ["点零九", "-"]),
    # a chapter or sheets
    ("ko", "1장 서론", ["일장 서론"], ["한장 서론"]),
    ("ko", "남은 표가 3장 남았어요.", ["세장"], ["삼장"]),
    ("ko", "자세한 내용은 2장에서 다룬다. 사진 2장을 첨부하고 종이 1장에 적는다.",
     ["이장에서", "사진 두장을", "종이 한장에"], ["두장에서"]),
]
AUTO = [  # (written, must, must_not)
    ("Яблоки — 3 шт", ["три штуки"], ["three"]),
    ("Старт в 8:30", ["восемь часов тридцать минут"], ["eight"]),
    ("사과 3개", ["세개"], ["three"]),
    ("りんご3個", ["三個"], ["three"]),
    ("苹果3个", ["三个"], ["three"]),
    ("Das Ticket kostet 8,90 €. In London it is £7.40.", ["acht Euro neunzig", "seven pounds forty"],
     ["eight,ninety", "sieben"]),
]


def read_in_python(language, written, must, must_not):
    """`spoken` and `normalize` both say every word of `must` and none of `must_not`."""
    from mlx_qwen3tts.text import spoken
    from mlx_qwen3tts.text.normalize import normalize

    for said in (spoken(written, language), normalize(written, language)):
        assert all(folded(word) in folded(said) for word in must), said
        assert not any(word in said for word in must_not), said


def read_on_the_command_line(tmp_path, cases, language):
    """`--dry-run` of `cases` (language, written, must, must_not), one paragraph a case, says each case's `must`
    and none of its `must_not`."""
    source = tmp_path / "cases.txt"
    source.write_text("\n\n".join(written for _, written, _, _ in cases) + "\n", encoding="utf-8")
    rc, lines, err = dry_run("--text-file", source, "--language", language)
    assert rc == 0, err
    said = " ".join(lines)
    for _, written, must, must_not in cases:
        assert all(folded(word) in folded(said) for word in must), (written, said)
        assert not any(word in said for word in must_not), (written, said)


@pytest.mark.parametrize("language, written, must, must_not", CASES, ids=[c[1][:30] for c in CASES])
def test_each_class_is_read_right_in_python(language, written, must, must_not):
    read_in_python(language, written, must, must_not)


@pytest.mark.parametrize("language", sorted({c[0] for c in CASES}))
def test_each_class_is_read_right_on_the_command_line(tmp_path, language):
    read_on_the_command_line(tmp_path, [c for c in CASES if c[0] == language], language)


@pytest.mark.parametrize("written, must, must_not", AUTO, ids=[c[0][:24] for c in AUTO])
def test_auto_reads_each_line_and_sentence_in_its_own_language(written, must, must_not):
    from mlx_qwen3tts.text import spoken
    from mlx_qwen3tts.text.normalize import normalize

    saids = [spoken(written), said_by_cli(written)]
    if written.count(".") < 2:  # one sentence: normalize's auto decides as the reading layer does
        saids.append(normalize(written))
    for said in saids:
        assert all(folded(word) in folded(said) for word in must), said
        assert not any(word in said for word in must_not), said


def test_auto_deltas_are_read_as_the_whole_text_however_they_are_cut():
    from mlx_qwen3tts.text import spoken, spoken_deltas

    for text, _, _ in AUTO:
        for size in (1, 2, 3, 5, 8):
            parts = [text[i:i + size] for i in range(0, len(text), size)]
            assert "".join(spoken_deltas(iter(parts), "auto")) == spoken(text), (text, size)


def test_one_function_tells_the_reading_language():
    """Issue 65 item 6: the name a request gives is one function's question, the language a text is read in
    another's; normalize's `auto` and the reading layer's agree on a short line."""
    from mlx_qwen3tts.text import normalize as normalize_module
    from mlx_qwen3tts.text import reading

    assert not hasattr(reading, "language_code") and not hasattr(normalize_module, "language_code")
    assert reading.named_language("Russian") == "ru" and reading.named_language("auto") is None
    assert reading.named_language("pt-BR") == "pt" and reading.named_language("xx") is None
    assert [reading.reading_language("auto", t) for t in ("Яблоки — 3 шт", "사과 3개", "りんご3個", "苹果3个")] == \
        ["ru", "ko", "ja", "zh"]
    assert reading.reading_language("German", "Яблоки") == "de"


HTTP_CASES = [c for c in CASES if c[0] != "en"][::3] + [("en", "The trail is 10㎞ long.", ["ten kilometers"], [])]


@pytest.mark.parametrize("language, written, must, must_not", HTTP_CASES, ids=[c[1][:30] for c in HTTP_CASES])
def test_each_class_is_read_right_over_http(http, language, written, must, must_not):  # noqa: F811
    from mlx_qwen3tts.text import spoken

    said = spoken(written, language)
    answer = _speech(http, written, language=language)
    assert answer.status_code == 200, answer.text
    assert answer.content == _speech(http, said, language=language, normalize=False).content
    assert all(folded(word) in folded(said) for word in must), said


def test_auto_over_http_reads_a_short_russian_line_in_russian(http):  # noqa: F811
    answer = _speech(http, "Яблоки — 3 шт")
    assert answer.status_code == 200, answer.text
    assert answer.content == _speech(http, "Яблоки — три штуки", normalize=False).content
