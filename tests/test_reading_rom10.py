"""Issue 63, French and Spanish, tenth round: a day before an abbreviated month with no year after it, on sentences
of our own (notices, timetables), in Python and through the command line's dry run.

Date: the month was read only where a year followed ("le 3 janv. 2024"); a day before the abbreviation alone is a
date too, the month said whole ("le 3 janv. à Paris" le trois janvier, "du 1 janv. au 5 févr." du premier janvier
au cinq février, "el 3 ene." el tres de enero)."""

from reading_cases import class_tests, said_in_order

# (class, language, written, words said in this order, words that must not be left)
CASES = [
    ("date", "fr", "La mairie est fermée du 1 janv. au 5 févr. inclus.",
     ["du premier janvier au cinq février inclus"], ["janv.", "févr."]),
    ("date", "fr", "Le 3 janv. à Paris, puis le 31 déc. à Lyon.",
     ["le trois janvier à Paris", "le trente et un décembre à Lyon"], ["janv.", "déc."]),
    ("date", "fr", "Fin des inscriptions le 12 sept.", ["le douze septembre"], ["sept."]),
    ("date", "es", "La oficina cierra el 3 ene. por inventario.", ["el tres de enero por inventario"], ["ene."]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)


def test_an_abbreviated_month_whose_dot_ends_a_sentence_still_ends_it():
    """The dot of "sept." or "abr." read out as the month is also the sentence's end before a capital or at the
    end of the text (Spanish dropped it: "el siete de abril Luego cerrado", one sentence)."""
    from mlx_qwen3tts.text.normalize import normalize

    assert normalize("Abierto hasta el 7 abr. Luego cerrado.", "spanish") == \
        "Abierto hasta el siete de abril. Luego cerrado."
    assert normalize("Réunion le 12 sept. Tous invités.", "french") == "Réunion le douze septembre. Tous invités."
    assert normalize("Le 3 janv. à Paris.", "french") == "Le trois janvier à Paris."
