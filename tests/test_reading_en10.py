"""Issue 63, English, tenth round: a pint in a recipe, on sentences of our own, in Python and through the command
line's dry run.

Measure: "pt." before "of" is a pint ("2 pt. of cream" two pints of cream), where it was the typographer's point
("two points. of cream", the dot left in the sentence); the point keeps its reading and loses the dot before a word
("12 pt. type" twelve points type)."""

from reading_cases import class_tests, said_in_order

# (class, written, words said in this order, words that must not be left)
CASES = [
    ("measure", "Whisk 2 pt. of cream with 1/2 pt. of milk.", ["two pints of cream", "one half pint of milk"],
     ["points", "pt."]),
    ("measure", "Print the notice in 12 pt. type.", ["twelve points type"], ["pt.", "pints"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order, language="en")
