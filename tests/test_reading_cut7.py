"""Issue 63, round seven: the dot of a unit, a reference or a month's abbreviation that a small letter or a number
follows is no sentence's end (en "10 min. then", "eq. 3", de "20 Min. quellen", es/pt "5 de ago. de 1990"), and
ends one before a capital as any dot does ("Wait 10 min. Then stir."); de "1 €" in the case a verb or preposition
asks for ("kostet einen Euro"); en a degree mark that qualifies a noun ("a 360° view": "degree"). Sentences of our
own, in Python (`text.spoken`, `text.sentences`, a `PieceCutter` fed in deltas) and through the command line's dry
run (`mlx_qwen3tts.generate --dry-run`, the model path given does not exist, none is loaded)."""


from reading_cases import class_tests, cutter_tests, said_together

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("abbreviation", "en", "Let the dough rest 2 hrs. before baking.", ["two hours before baking"], ["hrs.", "hours."]),
    ("abbreviation", "en", "Boil the eggs 8 min. and cool them.", ["eight minutes and cool"], ["min.", "minutes."]),
    ("abbreviation", "en", "Fill the pan with 2 in. of oil.", ["two inches of oil"], ["in.", "inches."]),
    ("abbreviation", "en", "Rest the steak 30 sec. then slice it.", ["thirty seconds then slice"], ["sec.", "seconds."]),
    ("abbreviation", "en", "The shed holds 80 cu. ft. of hay.", ["eighty cubic feet of hay"], ["cu.", "cubic."]),
    ("abbreviation", "en", "The proof is in eq. 7 of the paper.", ["equation seven of the paper"], ["eq.", "equation."]),
    ("abbreviation", "en", "The map in fig. 4 shows the coast.", ["figure four shows the coast"], ["fig.", "figure."]),
    ("abbreviation", "de", "Den Reis 20 Min. quellen lassen.", ["zwanzig Minuten quellen lassen"], ["Min.", "Minuten."]),
    ("abbreviation", "de", "Der Zug braucht 3 Std. bis Wien.", ["drei Stunden bis Wien"], ["Std.", "Stunden."]),
    ("date", "es", "Nació el 7 de ago. de 1990 en Lima.", ["siete de agosto de mil novecientos noventa"],
     ["ago.", "agosto."]),
    ("date", "pt", "Chegou em 9 de fev. de 2023 ao Porto.", ["nove de fevereiro de dois mil e vinte e três"],
     ["fev.", "fevereiro."]),
    ("cardinal", "de", "Der Eintritt kostet 1 € für alle.", ["kostet einen Euro für alle"], ["ein Euro", "€"]),
    ("cardinal", "de", "Mit 1 € kommt man nicht weit.", ["Mit einem Euro kommt"], ["ein Euro", "€"]),
    ("cardinal", "de", "Für 1 $ gibt es hier nichts.", ["Für einen Dollar gibt"], ["ein Dollar", "$"]),
    ("cardinal", "de", "Der Kaffee kostet 1,50 € am Automaten.", ["kostet einen Euro fünfzig"], ["ein Euro", "€"]),
    ("measure", "en", "The tower has a 360° view of the bay.", ["a three hundred sixty degree view"], ["degrees", "°"]),
    ("measure", "en", "Cut a 45° angle on each end.", ["a forty-five degree angle"], ["degrees", "°"]),
    ("measure", "en", "It was a 30°C day in June.", ["a thirty degree Celsius day"], ["degrees", "°"]),
]

test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)


# Each one sentence, the abbreviation's dot inside it (a small letter or a number follows).
GOES_ON = ["Wait 10 min. then stir the sauce.", "It took 3 hrs. to finish.", "Add 2 in. of water.",
           "See fig. 2 and eq. 3 below.", "The tank holds 500 cu. ft. in all.", "Nach 10 Min. wird es fest.",
           "Das dauert 2 Std. und mehr.", "Cuire 10 min. à feu doux.", "Hervir 10 min. a fuego lento.",
           "El 5 de dic. de 2024 nevó.", "O prazo acaba em 5 de mar. de 2024.", "Em 5 de out. de 2024 choveu.",
           "Il 5 gen. 2024 piovve.", "Cuocere 10 min. a fuoco lento."]
# The same abbreviations before a capital that starts the next sentence, and words that are no month's abbreviation
# away from a day ("the sea", "went out"): two sentences, as before.
ENDS = ["Wait 10 min. Then stir.", "It is 3 in. Then more.", "Nach 10 Min. Dann rühren.", "Cuire 10 min. Puis servir.",
        "Fuimos al mar. 3 días después volvimos.", "He went out. 3 days later he came back."]


(test_the_cutter_goes_on_after_a_unit_or_reference_before_a_small_letter_or_a_number,
 test_the_cutter_still_ends_a_sentence_there_before_a_capital,
 test_the_cutter_cuts_the_same_given_in_deltas) = cutter_tests(GOES_ON, ENDS, "Dann gehen wir.")
