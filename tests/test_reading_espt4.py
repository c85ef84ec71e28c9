"""Issue 63, Spanish and Portuguese, fourth round: one style per question where NeMo's own files read a form two
ways (sentences of our own), in Python (`text.spoken`) and through the command line's dry run
(`mlx_qwen3tts.generate --dry-run`, the model path given does not exist, none is loaded). What is said is compared
after casefolding and keeping letters and digits.

Spanish: every currency joins its cents with "con" ("doce dólares con cinco centavos", "cinco euros con cincuenta
céntimos"); the hour's letters after a time are no word ("19:30 h." before a sentence's end, "20:00 hs", "06:45
hrs"), "9h30" is a time; a queen's number agrees with her name ("Isabel II" "Isabel segunda", in Portuguese too);
spaced groups no number is written in, or spaced threes after "llame", are a telephone number ("91 234 56 78").
Portuguese: so are "(21) 3456 7890" and "11 98765 4321"; "e" joins the classes of a large number before a group
below a hundred or of round hundreds, as Brazilian grammar does ("um milhão e dez mil", "dois bilhões e quarenta
mil", "um bilhão e mil"), not before another ("um milhão cento e dez mil")."""

from reading_cases import class_tests, said_in_order

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("money", "es", "El taxi al aeropuerto costó $23,40 con propina.",
     ["veintitrés dólares con cuarenta centavos con propina"], ["y cuarenta"]),
    ("money", "es", "En Monterrey la comida cuesta MXN 120,50 y la bebida 2 €.",
     ["ciento veinte pesos con cincuenta centavos", "dos euros"], ["y cincuenta", "€"]),
    ("money", "es", "El pasaje en Guatemala es de Q 3,75 por persona.",
     ["tres quetzales con setenta y cinco centavos por persona"], ["y setenta"]),
    ("time", "es", "El museo abre a las 9h30, en verano cierra a las 20:00 hs y en invierno a las 19:30 h.",
     ["a las nueve y treinta en verano cierra a las veinte y en invierno a las diecinueve y treinta"],
     [" h.", " hs", "h30"]),
    ("time", "es", "La salida es a las 06:45 hrs desde el puerto.", ["a las siete menos cuarto desde el puerto"],
     ["hrs"]),
    ("roman", "es", "El retrato de Isabel II cuelga junto al de Felipe V y al de Cristina III.",
     ["de Isabel segunda cuelga junto al de Felipe quinto y al de Cristina tercera"], ["II", "segundo"]),
    ("roman", "pt", "A coroa de Isabel II e a espada de D. João VI estão no museu.",
     ["de Isabel segunda e a espada de Dom João sexto"], ["II", "segundo"]),
    ("telephone", "es", "Para reservar llame al 912 345 678 o al 91 234 56 78 antes del viernes.",
     ["al nueve uno dos tres cuatro cinco seis siete ocho o al nueve uno dos tres cuatro cinco seis siete ocho antes"],
     ["millones", "noventa"]),
    ("telephone", "pt", "Para agendar ligue para (21) 3456 7890 ou 11 98765 4321 até sexta.",
     ["dois um três quatro cinco seis sete oito nove zero ou um um nove oito sete seis cinco quatro três dois um"],
     ["mil", "vinte"]),
    ("cardinal", "pt", "O município tem 2.040.350 eleitores e a capital 1.001.200 moradores.",
     ["dois milhões e quarenta mil trezentos e cinquenta eleitores",
      "um milhão e mil e duzentos moradores"], ["milhões quarenta"]),
    ("cardinal", "pt", "O arquivo tem 1.048.576 bytes e a cidade 1.110.000 moradores.",
     ["um milhão e quarenta e oito mil quinhentos e setenta e seis bytes", "um milhão cento e dez mil moradores"],
     ["milhão e cento"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)
