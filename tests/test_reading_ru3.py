"""Issue 63, Russian, third round: classes read wrong before, on sentences of our own, in Python (`text.spoken`,
`normalize`) and through the command line's dry run (`--dry-run`: no model is loaded).

Classes: an ordinal in "-е" with no singular noun after it is the plural ("в 80-е" восьмидесятые, "7-е и 8-е
чудеса" седьмые и восьмые; "3-е" stays третье, its plural is "3-и"); kilograms counted by five and more in the
nominative in their counting form ("15 кг" пятнадцать килограмм); a quantity per a unit ("6 г/л" в литре, "40
ц/га" в гектаре, "5 л/мин" в минуту) and a price per a unit ("80 руб/кг" за килограмм); units not read before
("мм рт. ст.", "Мбит/с", "л. с.", "см²", "мкм"); a fraction of something or a decimal as a transitive verb's object
in the accusative ("Отрежьте 1/4 батона" четверть, "налил 1,5 стакана" полтора); "24:00"; a
dollar price with a dot ("$3.75"), a price per a month ("руб./мес." в месяц), "грн", "тг"; a monarch's number after
a name in another case ("при Петре I" при Петре Первом); a holiday's month with its capital ("8 Марта"); a score
without "счёт" ("3:2" три-два); "=" and "*" between numbers; "Кб"; a number a verb's object in the accusative ("знает
1000 способов" тысячу); a code range with leading zeros ("0001-0003") said digit by digit, "#" a number sign; "с
9-12" с девяти до двенадцати; a fraction of one or of tens over sixteen ("1/32" одна тридцать вторая, "3/100" три
сотых); a noun with no singular counted by the collective ("3 суток" трое суток, "1 сутки" одни сутки)."""

import pytest

from test_reading_e2e import dry_run, folded

# (class, written, words that must be said, words that must not) - what main said wrong is in must_not
CASES = [
    ("time", "Магазин открыт до 24:00, а касса с 9:00.", ["до двадцати четырёх часов"], ["24:00"]),
    ("ordinal", "Мода на джинсы пришла в 80-е, а 7-е и 8-е чудеса света ещё ищут.",
     ["в восьмидесятые", "седьмые и восьмые чудеса"], ["седьмое", "восьмое чудеса"]),
    ("ordinal", "Победители: 4-е и 6-е, ещё 3-е место.", ["четвёртые и шестые", "третье место"],
     ["четвёртое", "шестое"]),
    ("measure", "Рюкзак весит 15 кг, а палатка 27 кг.", ["пятнадцать килограмм", "двадцать семь килограмм"],
     ["килограммов"]),
    ("measure", "Раствор содержит 6 г/л соли, урожай 40 ц/га, насос качает 5 л/мин.",
     ["шесть граммов в литре", "сорок центнеров в гектаре", "пять литров в минуту"], ["/", "ц/га"]),
    ("money", "Черешня по 80 руб/кг, а мёд по 500 ₽/кг.", ["восемьдесят рублей за килограмм",
     "пятьсот рублей за килограмм"], ["/", "в килограмме"]),
    ("measure", "Давление 120 мм рт. ст., канал 100 Мбит/с, мотор в 150 л. с.",
     ["сто двадцать миллиметров ртутного столба", "сто мегабит в секунду", "сто пятьдесят лошадиных сил"],
     ["рт.", "Мбит", "л. с"]),
    ("measure", "Пластина 4 см² толщиной 7 мкм.", ["четыре квадратных сантиметра", "семь микрометров"],
     ["см²", "мкм"]),
    ("fraction", "Отрежьте 1/4 батона и налейте 1/2 стакана молока.", ["четверть батона",
     "половину стакана"], ["четвёртая", "одна вторая"]),
    ("decimal", "Он налил 1,5 стакана воды.", ["налил полтора стакана"], ["одна целая"]),
    ("roman", "Эпоха Людовика XIV кончилась, при Петре I строили флот.", ["Людовика Четырнадцатого",
     "при Петре Первом"], ["Четырнадцатый", "I "]),
    ("date", "С 8 Марта и до 9 Мая.", ["с восьмого марта", "до девятого мая"], ["восьми Марта", "девяти Мая"]),
    ("score", "Наши выиграли 3:2, а соседи 1:0.", ["три-два", "один-ноль"], ["3:2", "1:0", "три:", "один:"]),
    ("symbol", "Все знают, что 2+2=4, а 3*3=9.", ["два плюс два равно четырём", "три умножить на три равно девяти"],
     ["=", "*"]),
    ("measure", "Этой программе хватало 640 Кб памяти.", ["шестьсот сорок килобайт"], ["Кб"]),
    ("cardinal", "Он знает 1000 способов отдохнуть.", ["знает тысячу способов"], ["тысяча способов"]),
    ("telephone", "Ошибки с 0001-0003 и #007 не страшны.", ["ноль ноль ноль один", "ноль ноль ноль три",
     "номер ноль ноль семь"], ["от одного", "#"]),
    ("range", "Приём с 9-12 по субботам.", ["с девяти до двенадцати"], ["с от"]),
    ("fraction", "Зазор 1/32 дюйма, примесь 3/100 и 1/1000 доля.", ["одна тридцать вторая дюйма", "три сотых",
     "одна тысячная доля"], ["/"]),
    ("cardinal", "Поезд шёл 3 суток, а мы ждали 1 сутки.", ["трое суток", "одни сутки"], ["три суток", "один сутки"]),
    ("money", "Кофе стоил $3.75, аренда 900 руб./мес., сыр 100 грн.", ["три доллара семьдесят пять центов",
     "девятьсот рублей в месяц", "сто гривен"], ["доллара.", "мес.", "грн"]),
]


@pytest.mark.parametrize("cls, written, must, must_not", CASES, ids=[f"{c[0]}:{c[1][:30]}" for c in CASES])
def test_each_class_is_read_right_in_python(cls, written, must, must_not):
    from mlx_qwen3tts.text import spoken
    from mlx_qwen3tts.text.normalize import normalize

    for said in (spoken(written, "ru"), normalize(written, "ru")):
        assert all(folded(word) in folded(said) for word in must), said
        assert not any(word in said for word in must_not), said


def test_each_class_is_read_right_on_the_command_line(tmp_path):
    source = tmp_path / "cases.txt"  # one paragraph a case
    source.write_text("\n\n".join(written for _, written, _, _ in CASES) + "\n", encoding="utf-8")
    rc, lines, err = dry_run("--text-file", source, "--language", "ru")
    assert rc == 0, err
    said = " ".join(lines)
    for _, written, must, must_not in CASES:
        assert all(folded(word) in folded(said) for word in must), (written, said)
        assert not any(word in said for word in must_not), (written, said)
