"""Issue 63, Russian, sixth round: classes read wrong before, on sentences of our own, in Python (`text.spoken`,
`normalize`) and through the command line's dry run (`--dry-run`: no model is loaded).

Telephone: a number said group by group, each group a number, as Russians say them ("+7 (495) 123-45-67" плюс семь,
четыреста девяносто пять, сто двадцать три, сорок пять, шестьдесят семь), a leading zero said ("05" ноль пять), the
formats "8 800 555-35-35", "8 (812) …", a city's "234-56-78". Fraction: a half, a third, a quarter of a measure by its
own word ("1/2 стакана" половину стакана, "¾ чашки" три четверти чашки, "3/4 часа" три четверти часа, "1/4 ч. л."
четверть чайной ложки), "2 1/4 дюйма" два с четвертью дюйма, a denominator of three digits ("1/125 секунды"), two
numbers a slash joins that are no fraction ("50/50" пятьдесят на пятьдесят, "дом 7/2" дом семь дробь два), a scale
("1:50 000" один к пятидесяти тысячам). Decimal: a number and a half before a measure ("в 2,5 раза" в два с
половиной раза, "1,5 часа" полтора часа). Cardinal: a code of numbers and single letters ("4-b-17" четыре би один
семь). Money: "долл. США" доллары США, with no stop inside."""

import pytest

from reading_cases import read_each_on_the_command_line, read_in_python, said_in_order

# (class, written, words said in this order, words that must not be left) - what main said wrong is in must_not
CASES = [
    ("telephone", "Звоните: +7 (495) 123-45-67.",
     ["плюс семь, четыреста девяносто пять, сто двадцать три, сорок пять, шестьдесят семь"], ["четыре девять пять"]),
    ("telephone", "Горячая линия 8 800 555-35-35 работает круглосуточно.",
     ["восемь, восемьсот, пятьсот пятьдесят пять, тридцать пять, тридцать пять, работает"], ["миллион"]),
    ("telephone", "Справки по телефону 234-56-78 и в приёмной 8 (812) 907-05-43.",
     ["двести тридцать четыре, пятьдесят шесть, семьдесят восемь",
      "восемь, восемьсот двенадцать, девятьсот семь, ноль пять, сорок три"], ["восемь один два", "-"]),
    ("fraction", "Налейте 1/2 стакана сливок и всыпьте ¾ чашки муки.",
     ["налейте половину стакана сливок", "всыпьте три четверти чашки муки"], ["вторую", "четвёртых"]),
    ("fraction", "Тушите 3/4 часа, затем добавьте 1/4 ч. л. перца.",
     ["тушите три четверти часа", "добавьте четверть чайной ложки перца"], ["четвёртых", "четвёртую"]),
    ("fraction", "Болт длиной 2 1/4 дюйма, снимок с выдержкой 1/125 секунды.",
     ["два с четвертью дюйма", "одна сто двадцать пятая секунды"], ["целых", "/"]),
    ("fraction", "Шансы 50/50, давление 120/80, адрес: д. 7/2, кв. 15.",
     ["пятьдесят на пятьдесят", "сто двадцать на восемьдесят", "дом семь дробь два", "квартира пятнадцать"],
     ["/", "седьмых"]),
    ("fraction", "Карта в масштабе 1:50 000, уклон 1:200.", ["один к пятидесяти тысячам", "один к двумстам"],
     ["час", ":"]),
    ("decimal", "Цены выросли в 2,5 раза, а зарплаты в 1,5 раза, варить 1,5 часа и ещё 2,5 минуты.",
     ["в два с половиной раза", "в полтора раза", "варить полтора часа", "две с половиной минуты"], ["целых", "целую"]),
    ("cardinal", "Проверьте артикул 4-b-17 и шифр 3-д-25.", ["четыре би один семь", "три д два пять"],
     ["семнадцать", "двадцать пять"]),
    ("money", "Кредит в 250 000 долл. США выдан банком.", ["двести пятьдесят тысяч долларов США выдан"],
     ["долларов. США"]),
]


@pytest.mark.parametrize("cls, written, must, must_not", CASES, ids=[f"{c[0]}:{c[1][:30]}" for c in CASES])
def test_each_class_is_read_right_in_python(cls, written, must, must_not):
    read_in_python("ru", written, must, must_not, said_in_order)


def test_each_class_is_read_right_on_the_command_line(tmp_path):
    read_each_on_the_command_line(tmp_path, "ru", [case[1:] for case in CASES], said_in_order)
