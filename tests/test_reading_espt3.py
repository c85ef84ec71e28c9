"""Issue 63, Spanish and Portuguese, third round: classes read as a native reader says them (sentences of our own),
in Python (`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path
given does not exist, none is loaded). What is said is compared after casefolding and keeping letters and digits.

Spanish: a time after its article is the clock's ("a la 1" "a la una", "las 11:45" "las doce menos cuarto"), an hour
alone before a.m./p.m. and the evening from seven ("las 9 p.m." "las nueve de la noche"), two figures of hours and
two of minutes after a dot are a time ("07.45"), hours, minutes and seconds agree ("una hora un minuto"), a time
zone after a time by its name ("cot"); street and title abbreviations (pza., ctra., avda., dra., EE.UU., c.º b.), no
sentence's end before the name after them ("Pza. Mayor"); every currency joins its cents with "con" (issue 63's fourth round chose one style), US$
and USD are "dólares estadounidenses", GBP "libras esterlinas" (NeMo's Spanish tables), the guaraní and the quetzal
("Q75", but "Q4" a quarter) are currencies, "mil" after an amount is its scale ("$100 mil" "cien mil dólares"), one
of a scale is "un millón" ("$1 millón"); 28th is "vigesimoctavo", as 18th "decimoctavo"; a roman numeral after "año"
is a year; a telephone number's two-figure country code is a number and a short group after its last four figures an
extension. Portuguese: a time written with a dot ("14.30", "9.00 da manhã") or with its letters ("8h30min",
"10:15h") is read as one; the pound is "libra esterlina"; the units of NeMo's Portuguese measure tables (rpm, dB,
mA, cm³...), a compound unit agreeing with its first noun ("um quilowatt-hora")."""

from reading_cases import class_tests, said_in_order

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("time", "es", "Quedamos a la 1 en la plaza.", ["a la una en la plaza"], ["uno"]),
    ("time", "es", "El tren sale a las 11:45 del andén dos.", ["a las doce menos cuarto del andén"], ["cuarenta"]),
    ("time", "es", "Cenamos a las 9 p.m. en casa.", ["a las nueve de la noche en casa"], ["p.m."]),
    ("time", "es", "El vuelo aterriza a las 8:10 p.m. en Lima.", ["ocho y diez de la noche"], ["tarde"]),
    ("time", "es", "Hora de salida: 07.45 desde Sevilla.", ["siete y cuarenta y cinco desde"], ["punto"]),
    ("time", "es", "La etapa se cerró en 01:01:01 h exactas.", ["una hora un minuto y un segundo exactas"],
     ["una horas", " h "]),
    ("time", "es", "La transmisión empieza a las 9:00 p.m. cot en todo el país.",
     ["nueve de la noche hora estándar de Colombia en todo"], ["cot"]),
    ("abbreviation", "es", "Vivo en la pza. Mayor, junto a la ctra. de Burgos.",
     ["plaza Mayor junto a la carretera de Burgos"], ["pza", "ctra"]),
    ("abbreviation", "es", "Nos atendió la dra. Gómez, que estudió en EE.UU. y en la avda. de América.",
     ["la doctora Gómez", "en Estados Unidos y en la avenida de América"], ["dra.", "avda"]),
    ("abbreviation", "es", "Nos vemos en la Pza. Mayor, junto al c.º b. del pueblo.",
     ["en la Plaza Mayor junto al camino bajo del pueblo"], ["Pza", "c.º"]),
    ("money", "es", "El libro cuesta $12,05 en México.", ["doce dólares con cinco centavos en México"], ["$"]),
    ("money", "es", "Pagamos ₲ 5000 por el pasaje.", ["cinco mil guaraníes por el pasaje"], ["₲"]),
    ("money", "es", "El anillo costó $100 mil en la subasta.", ["cien mil dólares en la subasta"], ["dólares mil"]),
    ("money", "es", "El vuelo cuesta US$ 450 y el hotel GBP 90.",
     ["cuatrocientos cincuenta dólares estadounidenses y el hotel noventa libras esterlinas"], ["US$", "GBP"]),
    ("money", "es", "La obra costó $1 millón al final.", ["un millón de dólares al final"], ["uno", "millones"]),
    ("money", "es", "En Guatemala la cena costó Q75 por persona.", ["setenta y cinco quetzales por persona"], ["Q"]),
    ("date", "es", "La película se rodó en el año MCMXCIV en Madrid.", ["año mil novecientos noventa y cuatro en"],
     ["MCMXCIV"]),
    ("ordinal", "es", "El equipo quedó en el 28º lugar.", ["vigesimoctavo lugar"], ["vigésimo octavo"]),
    ("telephone", "es", "Llame al +58 (212) 555-1234-12 hoy.", ["más cincuenta y ocho", "extensión uno dos hoy"],
     ["cinco ocho"]),
    ("time", "pt", "O trem parte às 14.30 de Lisboa e a loja abre às 9.00 da manhã.",
     ["às catorze horas e trinta de Lisboa", "às nove horas da manhã"], ["ponto"]),
    ("time", "pt", "A aula começa às 8h30min e a prova às 10:15h.",
     ["às oito horas e trinta e a prova às dez horas e quinze"], ["min", " h "]),
    ("measure", "pt", "O motor gira a 3000 rpm e gasta 1 kWh por dia.",
     ["três mil rotações por minuto", "um quilowatt-hora por dia"], ["rpm", "uma quilowatt"]),
    ("money", "pt", "O ingresso custa £ 20 em Londres.", ["vinte libras esterlinas em Londres"], ["£"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)
