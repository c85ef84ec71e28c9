"""Issue 63, Spanish and Portuguese, fifth round: forms of a class as NeMo's Spanish grammar classifies them and as
the visible rows of that class read them (sentences of our own), in Python (`text.spoken`) and through the command
line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path given does not exist, none is loaded). What is
said is compared after casefolding and keeping letters and digits.

Spanish time: after its article a time twenty-five, twenty, a quarter, ten or five minutes before the hour is the
next hour "menos" the minutes left, on either clock and before the part of the day ("las 2:35" "las tres menos
veinticinco", "las 14:45" "las quince menos cuarto", "las 12:45 p.m." "la una menos cuarto de la tarde"), as
NeMo's ITN reads them; a dot parts hours and minutes after an article as a colon does ("las 7.30" "las siete y
media"); an hour on the hour with a dot is a time ("7.00" "siete"), unless a currency or a unit goes with it; no
seconds are said where there are none before a.m./p.m. ("3:02:00 p.m." "tres y dos de la tarde"); "y" joins the
seconds of hours, minutes and seconds each with its letter ("2 h 30 min 15 s"); a time zone's offset says no zero
minutes ("utc+01:00" "U T C más uno").
Spanish telephone: a number spelt with a word on a free line's code is its code's figures, "ochocientos" or
"novecientos", the figures after one by one, then the word ("1-800-555-flores" "uno ochocientos cinco cinco cinco
flores"); "ext" after a number is "extensión" and its figures one by one.
Spanish money: the currencies of NeMo's Spanish table that ours lacked ("s/" "soles", "gyd" "dólares guyaneses",
"us $"), a balboa is masculine ("un balboa"); "¢" is "centavos"; cents after a dot, the English way, are cents
("$0.50" "cincuenta centavos"). Spanish decimal: a decimal written the English way is said with "punto", a whole
of zero too ("0.5" "cero punto cinco", as "1.33" "uno punto treinta y tres").
Spanish roman numerals: a number in small letters after a king's, queen's or pope's name ("carlos iii" "carlos
tercero", "maría vii" "maría séptima"), but "vi" (a verb); a numeral alone as the whole text is an ordinal.
Spanish ordinal: NeMo's suffixes "ero", "era", "o", "a" ("el 1ero de mayo" "el primero de mayo", "la 2a edición"
"la segunda edición").
Spanish date: the first of a month written with a capital ("1 de Enero" "primero de enero"); a decade with an "s"
after its article ("los 90s" "los noventa", no seconds); a day and a month written with a leading zero are a
date, no fraction ("05/03" "cinco de marzo"; in Portuguese too).
Spanish measure, as NeMo's Spanish measure grammar reads it: a unit after a large quantity takes "de" ("2
millones kg" "dos millones de kilogramos"), a unit per another ("1 kg/m²" "un kilogramo por metro cuadrado").
Portuguese date, as NeMo's Portuguese date grammar reads it: a month before a day past the twelfth ("03/15/2024"
"quinze de março de dois mil e vinte e quatro"), a year first with dots ("2024.03.15"), the first of a month
written with a capital ("1 de Janeiro" "primeiro de janeiro"). Portuguese telephone: a dot between the groups
as a hyphen ("(11) 99999.8888"), "ramal" and its figures one by one."""

from reading_cases import class_tests, said_in_order

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("time", "es", "El tren sale a las 2:35 y llega a las 14:45 a Sevilla.",
     ["a las tres menos veinticinco y llega a las quince menos cuarto a Sevilla"], ["treinta y cinco", "cuarenta"]),
    ("time", "es", "La misa empieza a las 12:45 p.m. y termina a las 6:50 p.m. en punto.",
     ["a la una menos cuarto de la tarde y termina a las siete menos diez de la tarde en punto"],
     ["doce", "cincuenta", "p.m"]),
    ("time", "es", "Quedamos a las 23:55 horas en la plaza.", ["a las veinticuatro menos cinco en la plaza"],
     ["cincuenta y cinco", "horas"]),
    ("time", "es", "Desayunamos a las 7.30 y salimos a las 8.45 hacia el puerto.",
     ["a las siete y media y salimos a las nueve menos cuarto hacia el puerto"], ["punto", "coma", "treinta"]),
    ("time", "es", "La tienda abre de 9.00 a 14.00, la bolsa vale 1.00 euros y el saco pesa 2.00 kg.",
     ["de nueve a catorce", "uno punto cero cero euros", "dos punto cero cero kilogramos"], ["una euros", "dos kg"]),
    ("telephone", "es", "Pida su ramo al 1-800-555-flores o al 0-900-pizza antes de las ocho.",
     ["al uno ochocientos cinco cinco cinco flores o al cero novecientos pizza antes"], ["mil", "ochocientas"]),
    ("telephone", "es", "La oficina atiende en el 123-456-7890 ext 25 de lunes a viernes.",
     ["siete ocho nueve cero extensión dos cinco de lunes"], ["veinticinco"]),
    ("date", "pt", "O voo de 03/15/2024 foi remarcado para 2024.04.02 pela companhia.",
     ["o voo de quinze de março de dois mil e vinte e quatro foi remarcado para dois de abril de dois mil e vinte e "
      "quatro pela"], ["três quinze", "ponto"]),
    ("date", "pt", "A escola abriu a 1 de Outubro de 1910 e fechou em 12/31/1999.",
     ["a primeiro de outubro de mil novecentos e dez e fechou em trinta e um de dezembro de mil novecentos e noventa "
      "e nove"], ["um de outubro", "doze"]),
    ("telephone", "pt", "Fale com a recepção pelo (21) 98765.4321 ramal 204 durante a semana.",
     ["dois um nove oito sete seis cinco quatro três dois um ramal dois zero quatro durante"],
     ["mil", "duzentos"]),
    ("money", "es", "En Lima pagué s/ 20,50, en Georgetown 5 gyd y en Panamá 1 pab por el café de 99¢.",
     ["veinte soles con cincuenta céntimos en Georgetown cinco dólares guyaneses y en Panamá un balboa por el café "
      "de noventa y nueve centavos"], ["gyd", "una balboa", "coma", "¢"]),
    ("roman", "es", "el retrato de carlos iii y el de maría vii están en la sala y juan vi el cuadro.",
     ["de carlos tercero y el de maría séptima están en la sala y juan vi el cuadro"], ["iii", "vii", "sexto"]),
    ("roman", "es", "XIV", ["decimocuarto"], ["XIV"]),
    ("date", "es", "El 1 de Enero de 1990 empezó la década y los 90s trajeron la música de los 80's.",
     ["el primero de enero de mil novecientos noventa", "y los noventa trajeron la música de los ochenta"],
     ["uno de enero", "segundos"]),
    ("measure", "es", "La cosecha fue de 2 millones kg y el abono de 1 kg/m² en cada parcela.",
     ["de dos millones de kilogramos y el abono de un kilogramo por metro cuadrado en cada parcela"],
     ["kg", "uno kg"]),
    ("time", "es", "La alarma sonó a las 3:02:00 p.m. en la estación.",
     ["a las tres y dos de la tarde en la estación"], ["p.m", "cero"]),
    ("time", "es", "El récord quedó en 2 h 30 min 15 s tras la última vuelta.",
     ["en dos horas treinta minutos y quince segundos tras"], ["30 min", "15 s"]),
    ("ordinal", "es", "La 2a edición salió el 1ero de mayo y la 1era reimpresión en el 3o trimestre.",
     ["la segunda edición salió el primero de mayo y la primera reimpresión en el tercer trimestre"],
     ["dos a", "uno ero", "uno era"]),
    ("date", "es", "La entrega del 05/03 se movió al 01/04 por la lluvia.",
     ["la entrega del cinco de marzo se movió al primero de abril por la lluvia"], ["tercios", "cuartos"]),
    ("date", "pt", "A entrega de 05/03 passou para 01/04 por causa da chuva.",
     ["a entrega de cinco de março passou para primeiro de abril por causa"], ["terços", "quartos"]),
    ("time", "es", "La llamada es a las 3:00 utc+01:00 desde Madrid.",
     ["a las tres U T C más uno desde Madrid"], ["cero", "01"]),
    ("money", "es", "El chicle cuesta $0.50 y el refresco $1.25 en la tienda.",
     ["cuesta cincuenta centavos y el refresco un dólar con veinticinco centavos en la tienda"],
     ["cero dólares", "dólar.", "$"]),
    ("decimal", "es", "El índice subió de 0.5 a 2.5 puntos en un año.",
     ["de cero punto cinco a dos punto cinco puntos"], ["coma"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)
