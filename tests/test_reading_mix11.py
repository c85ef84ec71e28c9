"""Issue 63, eleventh round: what the grown real-sentence corpus (German recipes, English and Russian fortunes) showed,
on sentences of our own, in Python and through the command line's dry run.

- A range whose two ends carry the same degree sign says it once ("160°-180°" hundertsechzig bis hundertachtzig
  Grad; it was "Grad minus"), in every language (common verbalizer).
- de: "Essl." and "Teel." are a tablespoon and a teaspoon; one part of a unit after a preposition of the dative
  takes "einem" ("aus 1/8 l" aus einem Achtel Liter; it was "aus ein Achtel").
- en: a pound written with a capital L, as typewriters without "£" wrote it ("L12,500", "fined L250"); "L2 cache"
  stays a code.
- ru: a third or a quarter of a whole named after the fraction is said with the part's own word ("2/3 высоты" две
  трети, "3/4 населения" три четверти), as a half already was; a bare fraction keeps the ordinal reading."""

from reading_cases import class_tests, said_in_order

# (kind, language, written, words said in this order, words that must not be left)
CASES = [
    ("measure", "de", "Den Ofen auf 170°-190° vorheizen.", ["hundertsiebzig bis", "hundertneunzig Grad vorheizen"],
     ["minus", "°"]),
    ("measure", "en", "Heat the oil to 160°-175° before frying.",
     ["one hundred sixty", "to one hundred seventy-five degrees"], ["minus", "°"]),
    ("abbreviation", "de", "Dazu 2 Essl. Honig und 3 Teel. Zimt geben.", ["zwei Esslöffel Honig", "drei Teelöffel Zimt"],
     ["Essl.", "Teel."]),
    ("fraction", "de", "Den Reis mit 1/4 l Brühe ablöschen.", ["mit einem Viertel Liter Brühe"], ["mit ein Viertel"]),
    ("money", "en", "The court fined him L250 and costs.", ["fined him two hundred fifty pounds"], ["L two"]),
    ("money", "en", "Repairs to the roof came to L12,500 in all.", ["twelve thousand five hundred pounds"], ["L twelve"]),
    ("measure", "en", "Keep the L2 cache warm.", ["L two cache"], ["pounds"]),
    ("fraction", "ru", "Залейте водой на 2/3 высоты банки.", ["на две трети высоты"], ["третьих"]),
    ("fraction", "ru", "Почти 3/4 населения живёт в городах.", ["три четверти населения"], ["четвёртых"]),
    ("fraction", "ru", "Возьми 3/4.", ["три четвёртых"], ["четверти"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)
