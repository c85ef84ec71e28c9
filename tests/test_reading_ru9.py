"""Issue 63, Russian, ninth round: classes read wrong before, on sentences of our own (manuals, recipes, notices), in
Python (`text.spoken`, `normalize`) and through the command line's dry run (`--dry-run`: no model is loaded).

Measure: the units of NeMo's Russian measure vocabulary that were left unread, said agreeing with their number
("5 А" пять ампер, "77 К" семьдесят семь кельвинов, "2 рад" два радиана, "512 Б" пятьсот двенадцать байт, "3 Пбайт",
"2 Тбит", "10 бит/с", "5 кл" килолитров, "100 кд" сто кандел) and the electrician's and the physicist's ("10 Ом",
"4,7 кОм", "100 мкФ", "3000 мАч", "101 кПа", "2,2 бар", "10 Н"). A capital letter after a number and a space is a
school class's or a house's letter, not a unit, before "класс" or after a label ("5 В класса" пятого В класса, "дом
12 А" дом двенадцать А).
Telephone: eleven digits written together after +7 or 8 ("+79123456789" плюс семь, девятьсот двенадцать, триста сорок
пять, шестьдесят семь, восемьдесят девять), a small town's number of five or six digits in pairs ("12-34-56",
"2-45-17"), and any grouping after a telephone's or a fax's label ("Телефон: 123-456") is no range."""

from reading_cases import class_tests, said_in_order

# (class, written, words said in this order, words that must not be left) - what main said wrong is in must_not
CASES = [
    ("measure", "Сила тока в цепи 5 А, сопротивление 10 Ом.", ["пять ампер", "десять ом"], [" А,", "Ом"]),
    ("measure", "Азот кипит при 77 К, а поворот составляет 2 рад.",
     ["при семидесяти семи кельвинах", "два радиана"], [" К,", "рад."]),
    ("measure", "Заголовок занимает 512 Б, архив 3 Пбайт, канал 10 бит/с.",
     ["пятьсот двенадцать байт", "три петабайта", "десять бит в секунду"], ["Б,", "Пбайт", "бит/с", "трёх"]),
    ("measure", "За сутки прошло 2 Тбит данных, в резервуаре 5 кл воды, лампа даёт 100 кд.",
     ["два терабита данных", "пять килолитров воды", "сто кандел"], ["Тбит", " кл ", " кд", "двух"]),
    ("measure", "Резистор 4,7 кОм и конденсатор 100 мкФ, аккумулятор на 3000 мАч.",
     ["четыре целых семь десятых килоома", "сто микрофарад", "три тысячи миллиампер-часов"],
     ["кОм", "мкФ", "мАч"]),
    ("measure", "Давление 101 кПа, в шинах 2,2 бар, сила 10 Н.",
     ["сто один килопаскаль", "две целых две десятых бара", "десять ньютонов"], ["кПа", " бар,", " Н."]),
    ("measure", "Ученики 5 В класса и ученица 11 А класса пришли в дом 12 А, а напряжение было 5 В.",
     ["пятого В класса", "одиннадцатого А класса", "дом двенадцать А", "пять вольт"], ["вольт класса", "ампер"]),
 ("telephone", "Пишите в WhatsApp: +79123456789 или звоните 89031234567.",
     ["плюс семь, девятьсот двенадцать, триста сорок пять, шестьдесят семь, восемьдесят девять",
      "восемь, девятьсот три, сто двадцать три, сорок пять, шестьдесят семь"], ["один два три"]),
    ("telephone", "Администрация села: 12-34-56, фельдшерский пункт 2-45-17.",
     ["двенадцать, тридцать четыре, пятьдесят шесть", "два, сорок пять, семнадцать"], ["-"]),
    ("telephone", "Телефон: 123-456, факс 45-67.",
     ["Телефон: сто двадцать три, четыреста пятьдесят шесть", "факс сорок пять, шестьдесят семь"], ["до", "-"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order, language="ru")
