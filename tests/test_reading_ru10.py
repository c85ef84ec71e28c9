"""Issue 63, Russian, tenth round: a reading left alone in the ninth, on sentences of our own, in Python and through
the command line's dry run.

Cardinal: a preposition's case reaches a number past an adjective only where the adjective is plural, as one counted
with the number is ("от лишних 80 кг" от лишних восьмидесяти); a singular one is a noun left out ("с мобильного 103"
с мобильного сто три, a number dialled, not "ста трёх").
Abbreviation: a label after "на" or "в" that a verb of going governs is where one goes, in the accusative
("перейдите на стр. 5" на страницу пять, "вернитесь в п. 3" в пункт три; "ответ на стр. 12" stays на странице);
"разд." and "прил." before a number are a section and an appendix ("в разд. 4" в разделе четыре, "в прил. 1" в
приложении один)."""

from reading_cases import class_tests, said_in_order

# (class, written, words said in this order, words that must not be left) - what main said wrong is in must_not
CASES = [
    ("cardinal", "С городского звоните 03, с мобильного 103 или 112.",
     ["с мобильного сто три или сто двенадцать"], ["ста трёх", "ста двенадцати"]),
    ("abbreviation", "Перейдите на стр. 5, а затем вернитесь в п. 3.",
     ["Перейдите на страницу пять", "вернитесь в пункт три"], ["на странице", "в пункте"]),
    ("abbreviation", "Ответ дан на стр. 12, форма — в прил. 1, порядок — в разд. 4.",
     ["на странице двенадцать", "в приложении один", "в разделе четыре"], ["прил.", "разд."]),
    ("cardinal", "Она избавилась от лишних 80 кг за два года.", ["от лишних восьмидесяти килограммов"],
     ["восемьдесят"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order, language="ru")
