"""Issue 63, Russian, second round: classes read wrong before, on sentences of our own, in Python (`text.spoken`,
`normalize`) and through the command line's dry run (`--dry-run`: no model is loaded).

Classes: the case of a preposition carried over a list ("из 3% соли и 5% сахара") and over the adjectives between it
and the number ("от последних 40 страниц"); a number joined to an adjective said as one word ("32-битный"
тридцатидвухбитный); a decimal and a fraction in the case of their preposition ("в 1,5 раза" в полтора
раза, "около 1/3" около одной третьей), a fraction of what it counts ("3/4 ч. л." три четверти чайной ложки), a half
of a noun counted ("1 1/2 часа" полтора часа); a unit after "млн", "тыс" in the genitive plural; "°F" Fahrenheit; a
ratio ("в соотношении 3:1" три к одному) and a score ("со счётом 2:1" два-один); the animate accusative ("видели 2
котов" двух котов, "1 барана" одного барана); a range of years with "гг." (в ... годах), a range of times (с ... до
...), "экз." copies; "п. 2 ст. 7" a law's point and article, in the case of the preposition before them (a
label's number a cardinal), a range of classes ordinals ("в 5–9 классах" в пятых — девятых), a time with a dot after a
preposition ("с 8.30"); thousands grouped by dots ("12.500"); a word and a number written together ("Вариант7"),
"м2", "м3"; an ordinal in "-е" before a plural noun plural ("5-е классы" пятые классы), "3-и" третьи; a
day and a month written with a zero and no year ("28.02" двадцать восьмое февраля); "ккал" kilocalories; "10%-ную"
десятипроцентную."""

import pytest

from test_reading_e2e import dry_run, folded

# (written, words that must be said, words that must not) - what main said wrong is in must_not
CASES = [
    ("Смесь состоит из 3% соли и 5% сахара.", ["из трёх процентов соли и пяти процентов сахара"],
     ["и пять процентов"]),
    ("Сеанс длился в течение 3 часов, 12 минут и 7 секунд.", ["двенадцати минут и семи секунд"], ["и семь секунд"]),
    ("Он отказался от последних 40 страниц рукописи.", ["от последних сорока страниц"], ["сорок страниц"]),
    ("Старые 32-битные программы и 8-битный звук.", ["тридцатидвухбитные", "восьмибитный"], ["два-битные", "восемь-"]),
    # a decimal in the case of its preposition, its noun in the genitive singular
    ("Доход вырос в 1,5 раза, а вес упал до 2,5 кг.", ["в полтора раза",
     "до двух целых пяти десятых килограмма"], ["в одна целая", "до две целых", "килограммов"]),
    # a unit or currency after a scale word, in the genitive plural; degrees Fahrenheit
    ("Завод выпустил 1,2 млн л сока на 4 тыс руб. при 70 °F.", ["миллиона литров", "четыре тысячи рублей",
     "семидесяти градусах Фаренгейта"], ["млн л", "руб.", "°F"]),
    # a ratio and a score
    ("Раствор смешивают в соотношении 3:1, матч закончился со счётом 2:1.", ["три к одному", "два-один"],
     ["3:1", "2:1", "три:один"]),
    # the animate accusative: a number before an animal or a person counted takes the genitive's form
    ("На ферме мы видели 2 котов и 1 барана, наняли 21 работника.", ["двух котов", "одного барана",
     "двадцать одного работника"], ["два котов", "один барана"]),
    # a fraction in a preposition's case, a fraction of what it counts, a half of a noun counted
    ("Добавьте 3/4 ч. л. соли, около 1/3 стакана воды и варите 1 1/2 часа или 2 1/2 минуты.",
     ["три четверти чайной ложки соли", "около трети стакана", "полтора часа", "две с половиной минуты"],
     ["три/четыре", "около одна", "целая одна вторая"]),
    # a range of years with "гг.", a range of times, copies counted, a score at a sentence's head
    ("В 2015–2016 гг. библиотека работала 10:00–19:00 и выдала 4 тыс. экз. Счёт 2:0.",
     ["в две тысячи пятнадцатом — две тысячи шестнадцатом годах", "с десяти часов до девятнадцати часов",
      "четыре тысячи экземпляров", "два-ноль"], ["от двух тысяч", "гг.", "экз.", "часов–"]),
    # a law's article is no glass; a label's number stays a cardinal; a range of classes ordinals; a time with a dot
    ("По п. 2 ст. 7 устава в 5–9 классах уроки с 8.30 утра.", ["по пункту два статьи семь",
     "в пятых — девятых классах", "с восьми часов тридцати минут утра"],
     ["стакана семь", "вторая", "от пяти", "точка", "по пункт "]),
    # thousands grouped by dots, as in the other languages that write a decimal comma
    ("Тираж 12.500 книг.", ["двенадцать тысяч пятьсот книг"], ["точка"]),
    # a word and a number written together; square and cubic metres written with a digit
    ("Квартира 45 м2, кладовка 3 м3, код Вариант7.", ["сорок пять квадратных метров", "три кубических метра",
     "вариант семь"], ["м2", "м3", "Вариант7"]),
    # an ordinal in -е before a plural noun is plural; "3-и" третьи
    ("Все 5-е классы пишут контрольную, а 3-и сутки идёт дождь.", ["пятые классы", "третьи сутки"],
     ["пятое классы", "трёх сутки"]),
    # a day and a month with its zero, no year; kilocalories
    ("Срок сдачи: 28.02, в 100 г продукта 250 ккал.", ["двадцать восьмое февраля", "двести пятьдесят килокалорий"],
     ["точка", "пятидесятый"]),
    ("Добавьте 10%-ную сметану.", ["десятипроцентную сметану"], ["процентов-ную"]),
    ("Купили 2-этажный дом и 100-граммовую плитку.", ["двухэтажный дом", "стограммовую плитку"], ["два-этажный"]),
]


@pytest.mark.parametrize("written, must, must_not", CASES, ids=[c[0][:30] for c in CASES])
def test_each_class_is_read_right_in_python(written, must, must_not):
    from mlx_qwen3tts.text import spoken
    from mlx_qwen3tts.text.normalize import normalize

    for said in (spoken(written, "ru"), normalize(written, "ru")):
        assert all(folded(word) in folded(said) for word in must), said
        assert not any(word in said for word in must_not), said


def test_each_class_is_read_right_on_the_command_line(tmp_path):
    source = tmp_path / "cases.txt"  # one paragraph a case
    source.write_text("\n\n".join(written for written, _, _ in CASES) + "\n", encoding="utf-8")
    rc, lines, err = dry_run("--text-file", source, "--language", "ru")
    assert rc == 0, err
    said = " ".join(lines)
    for written, must, must_not in CASES:
        assert all(folded(word) in folded(said) for word in must), (written, said)
        assert not any(word in said for word in must_not), (written, said)
