"""The defects issue 56 lists that belong to the normalizer (items 1, 2, 3, 4, 5, 7, 9 and the review's),
each on numbers and words of our own, at the normalize() level."""

import pytest

from mlx_qwen3tts.text.normalize import normalize


@pytest.mark.parametrize("language, written, said", [
    # 1: decimal commas and currencies, the minor unit only when written
    ("german", "Das kostet 7,30 €.", "Das kostet sieben Euro dreißig."),
    ("french", "Cela coûte 9,40 €.", "Cela coûte neuf euros quarante."),
    ("portuguese", "Custa R$ 7,25.", "Custa sete reais e vinte e cinco centavos."),
    ("english", "Only $4 today.", "Only four dollars today."),
    ("german", "Nur $9.", "Nur neun Dollar."),
    ("german", "Füll 3,5 Liter ein.", "Füll drei Komma fünf Liter ein."),
    # 2: thousands with spaces of every kind
    ("french", "Soit 3 456 789 lignes.",
     "Soit trois millions quatre cent cinquante-six mille sept cent quatre-vingt-neuf lignes."),
    ("french", "Soit 7\u00a0200 lignes.", "Soit sept mille deux cents lignes."),
    ("french", "Soit 7\u202f200 lignes.", "Soit sept mille deux cents lignes."),
    # 3: a leading zero is never dropped
    ("german", "Faktor 0.272 hier.", "Faktor null Komma zwei sieben zwei hier."),
    ("french", "Facteur 0.272 ici.", "Facteur zéro virgule deux cent soixante-douze ici."),
    # 4: ordinals with each language's marks
    ("german", "Am 5. Juni kam sie.", "Am fünften Juni kam sie."),
    ("french", "Le 1er juin.", "Le premier juin."),
    ("spanish", "El 3.º puesto.", "El tercer puesto."),  # apocope before a masculine noun (issue 63)
    ("italian", "Il 1° marzo.", "Il primo marzo."),
    ("russian", "Это 5-й дом.", "Это пятый дом."),
    # 5: abbreviations said in full
    ("german", "Das geht z. B. so, vgl. Nr. 9.", "Das geht zum Beispiel so, vergleiche Nummer neun."),
    ("spanish", "Un caso, p. ej. pág. 40.", "Un caso, por ejemplo página cuarenta."),
    ("italian", "Vedi pag. 8.", "Vedi pagina otto."),
    ("english", "See Fig. 9 and Eq. 4.", "See figure nine and equation four."),
    ("english", "Since Mar. 2021.", "Since March twenty twenty-one."),
    # 7: an address inside guillemets is said, not dropped
    ("french", "Le préfixe «https://», puis «http://exemple.org/doc».",
     "Le préfixe «H T T P S», puis «exemple point org slash doc»."),
    # 9: minus signs, dates, fractions, numéro, manual sections, e-mail zeros
    ("german", "Es hat −12 °C.", "Es hat minus zwölf Grad Celsius."),
    ("german", "Am 20.07.1969 landeten sie.", "Am zwanzigsten Juli neunzehnhundertneunundsechzig landeten sie."),
    ("german", "Stand 2021-04-09.", "Stand neunter April zweitausendeinundzwanzig."),
    ("german", "Ab 3.8.2026 neu.", "Ab dritten August zweitausendsechsundzwanzig neu."),
    ("french", "Le 3.8.2026.", "Le trois août deux mille vingt-six."),
    ("german", "Nimm 1/2 Liter.", "Nimm einen halben Liter."),  # the object of "nimm": accusative
    ("french", "Voir n° 12.", "Voir numéro douze."),
    ("german", "Siehe grep(1).", "Siehe grep."),
    ("english", "Mail x100@a0.io now.", "Mail x one zero zero at a zero dot io now."),
])
def test_issue_56_defects(language, written, said):
    assert normalize(written, language) == said


def test_the_pronoun_i_is_no_roman_numeral():
    assert normalize("Then I said no.", "english") == "Then I said no."


def test_a_run_of_digits_longer_than_any_number_is_said_digit_by_digit():
    said = normalize(f"Hash {'7' * 30} and {'1' * 5000}.", "german")
    assert said.split().count("sieben") == 30 and said.split().count("eins") == 5000
    assert not any(ch.isdigit() for ch in said)


@pytest.mark.parametrize("language", ["english", "german", "french", "spanish", "italian", "portuguese", "russian"])
def test_what_is_not_read_keeps_its_characters(language):
    written = "Plain words, a dash - and (brackets); no numbers here!"
    assert normalize(written, language) == written


@pytest.mark.parametrize("language, written, said", [
    ("english", "I bought 3 100-page books.", "I bought three one hundred page books."),
    ("english", "Call 555-0142 now.", "Call five five five, zero one four two now."),
    ("english", "Seats for 500-1000 people.", "Seats for five hundred to one thousand people."),
    ("portuguese", "Ontem José D. Silva viu D. Pedro II.", "Ontem José D. Silva viu Dom Pedro segundo."),
    ("english", "Run ./configure in ~/src; it takes ~5 s.", "Run ./configure in ~/src; it takes about five seconds."),
    ("german", "Leerraum (U+0009 und U+00A0).", "Leerraum (U plus null null null neun und U plus null null A null)."),
    ("russian", "Это было в 1812 г. Потом 5 мая 2001 г.",
     "Это было в тысяча восемьсот двенадцатом году. Потом пятое мая две тысячи первого года."),
])
def test_readings_chosen_where_a_string_could_be_two_things(language, written, said):
    assert normalize(written, language) == said
