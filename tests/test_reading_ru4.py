"""Issue 63, Russian, fourth round: classes read wrong before, on sentences of our own, in Python (`text.spoken`,
`normalize`) and through the command line's dry run (`--dry-run`: no model is loaded).

Classes: a time after в, на, за in the accusative ("в 8:21" в восемь часов двадцать одну минуту); a price with
kopecks or cents in the case of its preposition ("до 99,90 ₽" до девяноста девяти рублей девяноста копеек); "евро"
masculine ("21 евро" двадцать один евро); an ordinal whose ending says two things agreeing with its noun or its
preposition ("на 5-й минуте" пятой, "с 1-й по 5-ю" с первой, "перед 3-м уроком" третьим); a number written
close before a word ("1тест" один тест, "3комнатная" трёхкомнатная); a time with a dot at a sentence's end ("в 6.45."),
a timetable's range with dots ("13.00–14.00"); "больше", "меньше" governing the genitive ("больше 300 ₽" трёхсот);
the first of two numbers of a noun a number names ("с 7 по 11 класс" с седьмого по одиннадцатый класс); a currency's
abbreviation ending the sentence keeps its dot ("1 250 руб. Спасибо"); no zero seconds ("1:42:00"); a quantity after
"в" that says where in the prepositional ("в 200 мл воды" в двухстах миллилитрах, "в 15 км от"), after a size in the
accusative ("расстояние в 300 км"); a signed quantity in its preposition's case ("до +35 °C" до плюс тридцати пяти); a time
with a hyphen ("с 9-00", "в 10-30 утра") and its "ч." ("в 10.00 ч."); ordinal endings "-им", "-ей", "-ья", "-его"; a fraction of
something after "в" in the prepositional ("в 1/4 финала" в одной четвёртой); after "по" an amount ending in one in the
dative ("по 1 ч. л." по одной чайной ложке, "по 1 €" по одному евро); a feminine unit's accusative ("через 1 мин."
через одну минуту); a scaled price in its preposition's case ("около 1,5 тыс. руб.")."""

import pytest

from reading_cases import read_each_on_the_command_line, read_in_python, said_in_order

# (class, written, words said in this order, words that must not be left) - what main said wrong is in must_not
CASES = [
    ("time", "Сбор группы в 8:21 у входа в парк.", ["в восемь часов двадцать одну минуту у входа"],
     ["одна минута"]),
    ("time", "Рейс перенесли на 23:41, посадка за 0:31 до вылета.",
     ["на двадцать три часа сорок одну минуту"], ["одна минута"]),
    ("money", "Литр молока подешевел до 89,90 ₽.", ["до восьмидесяти девяти рублей девяноста копеек"],
     ["до восемьдесят девять рублей"]),
    ("money", "Он отдал 21 евро за обед, а за такси 31 евро.", ["отдал двадцать один евро", "тридцать один евро"],
     ["одно евро"]),
    ("money", "Сбор начался с 2,50 $ на человека.", ["с двух долларов пятидесяти центов"],
     ["с два доллара"]),
    ("ordinal", "Гол забили на 9-й минуте второго тайма.", ["на девятой минуте"], ["девятый"]),
    ("ordinal", "Читайте с 1-й по 4-ю главу.", ["с первой по четвёртую главу"], ["с первый"]),
    ("ordinal", "Контрольная перед 6-м уроком.", ["перед шестым уроком"], ["шестом"]),
    ("time", "Электричка уходит в 6.45.", ["в шесть часов сорок пять минут"], ["точка"]),
    ("time", "Перерыв 13.00–14.00, касса до 19.30.", ["с тринадцати часов до четырнадцати часов",
     "до девятнадцати часов тридцати минут"], ["точка"]),
    ("money", "Это стоит больше 300 ₽, но меньше 5 €.", ["больше трёхсот рублей", "меньше пяти евро"],
     ["больше триста"]),
    ("ordinal", "Олимпиада для учеников с 7 по 11 класс.", ["с седьмого по одиннадцатый класс"], ["с семи"]),
    ("time", "Рекорд трассы 1:42:00, прошлый был 1:45:30.", ["один час сорок две минуты прошлый",
     "один час сорок пять минут тридцать секунд"], ["ноль секунд"]),
    ("measure", "Растворите соль в 200 мл воды: посёлок в 15 км от города, пачка в 250 г масла, сбор в 7 ч утра, "
     "ремонт в 2 млн рублей.", ["в двухстах миллилитрах воды", "в пятнадцати километрах от города",
     "пачка в двести пятьдесят граммов", "в семь часов утра", "в два миллиона рублей"],
     ["в двести миллилитров", "в пятнадцать", "в семи", "двух миллионах"]),
    ("measure", "Расстояние в 300 км, а днём до +35 °C.", ["расстояние в триста километров",
     "до плюс тридцати пяти градусов"], ["плюс тридцать пять"]),
    ("time", "Приём с 9-00 до 13-00, собрание в 10.00 ч. в актовом зале.",
     ["с девяти часов до тринадцати часов", "собрание в десять часов в актовом"], ["ноль ноль", "ч."]),
    ("ordinal", "Он пришёл 3-им, а его брат был на 4-ом месте и в 3-ей группе.",
     ["пришёл третьим", "на четвёртом месте", "в третьей группе"], ["три-им", "три-ей"]),
    ("fraction", "Соперники в 1/4 финала известны: в 3/4 случаев фаворит побеждает в 1,5 раза чаще.",
     ["соперники в одной четвёртой финала", "в трёх четвёртых случаев", "в одну целую пять десятых раза"],
     ["в одну четвёртую", "в три четвёртых"]),
    ("measure", "Детям дают по 1 ч. л. сиропа, взрослым по 1 ст. л., повторить через 1 мин.",
     ["по одной чайной ложке сиропа", "по одной столовой ложке", "через одну минуту"],
     ["по одну", "одна минута"]),
    ("money", "Пирожки продают по 1 €, а обед стоит около 1,5 тыс. руб.", ["по одному евро",
     "около одной целой пяти десятых тысячи рублей"], ["по один евро", "около одна"]),
    ("cardinal", "Сдаётся 2комнатная квартира, к ней 1гараж.", ["двухкомнатная квартира", "один гараж"],
     ["2", "1"]),
]


@pytest.mark.parametrize("cls, written, must, must_not", CASES, ids=[f"{c[0]}:{c[1][:30]}" for c in CASES])
def test_each_class_is_read_right_in_python(cls, written, must, must_not):
    read_in_python("ru", written, must, must_not, said_in_order)


def test_each_class_is_read_right_on_the_command_line(tmp_path):
    read_each_on_the_command_line(tmp_path, "ru", [case[1:] for case in CASES], said_in_order)


def test_a_currency_abbreviation_ending_a_sentence_keeps_its_dot():
    from mlx_qwen3tts.text.normalize import normalize

    said = normalize("Итого к оплате 1 250 руб. Спасибо за покупку! Сдача 3 руб.", "ru")
    assert "рублей. Спасибо" in said and said.endswith("рубля."), said
