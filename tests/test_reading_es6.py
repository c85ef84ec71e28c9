"""Issue 63, Spanish, sixth round: time, decimal, money and measure read as NeMo's Spanish TN grammar classifies and
says them (sentences of our own), in Python (`text.spoken`) and through the command line's dry run
(`mlx_qwen3tts.generate --dry-run`, the model path given does not exist, none is loaded). What is said is compared
after casefolding and keeping letters and digits.

Time: a quarter and a half past are "cuarto" and "media" in every form of a clock time, on either clock ("14:30"
"catorce y media", "16.15 h", "07:15:00", "9.30 est"); after its article a 24-hour time keeps them numbers ("a las
14:30" "a las catorce y treinta", the project's own row), and hours and minutes by their letters are numbers
("8h45min" "ocho y cuarenta y cinco"); two clock times joined by a dash, "a", "y" or "hasta" are a span of two
times where a colon, the hour's letter or an hour past twelve says they are times ("9:30-14:15", "de 16.15 a
20.30 h"); noon as the RAE writes it after the article ("a las 12 m." "a las doce del mediodía"); a zone's offset in hours and minutes is the offset ("utc+5:30" "U T C más
cinco treinta", "gmt - 3").
Decimal: a decimal without its whole, as NeMo's ITN writes one (",25" "coma veinticinco", ".22" "punto veintidós").
Money: "$1.5" is a dollar and fifty cents; a sign after a scale word and "de" is the currency's name ("3,5
millones de €"); NeMo's names of "inr" ("rupias indias"), "cny" ("yuanes chinos"), "ptas" before an amount, "MX$";
"q" in small letters before any amount is the quetzal ("q1" "un quetzal"; "Q1" to "Q4" stay a year's quarters).
Measure: an equation as NeMo's measure grammar reads it ("6 / 2 = 3" "seis entre dos es igual a tres", "5 - 2 = 3"
"cinco menos dos ...", "÷" "entre"); "psi" a unit ("un p s i")."""

from reading_cases import class_tests, said_in_order

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("time", "es", "Horario de verano: salida 14:30, llegada 16.15 h.",
     ["salida catorce y media llegada dieciséis y cuarto"], ["treinta", "quince", " h."]),
    ("time", "es", "La alarma suena a las 07:15:00 cada mañana.", ["a las siete y cuarto cada mañana"],
     ["quince", "cero"]),
    ("time", "es", "Emisión en directo: 9.30 est, repetición 11.15 pst.",
     ["nueve y media", "est", "once y cuarto", "pst"], ["treinta", "quince", "coma"]),
    ("time", "es", "Tren de Sevilla (14:30): sale a las 14:30 en punto.",
     ["Sevilla catorce y media sale a las catorce y treinta en punto"], ["14"]),
    ("time", "es", "El autobús sale a las 8h45min del andén central.",
     ["a las ocho y cuarenta y cinco del andén"], ["h ", "min"]),
    ("time", "es", "La reunión es a las 8:00 utc+5:30 y termina a las 20:00 gmt - 3.",
     ["a las ocho U T C más cinco treinta y termina a las veinte G M T menos tres"], ["y media", "-"]),
    ("time", "es", "La biblioteca abre 9:30-14:15 y de 16.15 a 20.30 h los sábados.",
     ["abre nueve y media a catorce y cuarto y de dieciséis y cuarto a veinte y media los sábados"],
     ["-", "punto", " h "]),
    ("time", "es", "Nos vemos en la plaza a las 12 m.", ["en la plaza a las doce del mediodía"], ["metros"]),
    ("decimal", "es", "El margen bajó a ,25 puntos y el calibre .22 sigue en venta.",
     ["bajó a coma veinticinco puntos y el calibre punto veintidós sigue"], [",2", ".2"]),
    ("money", "es", "Pagó $1.5 por el café y 3,5 millones de € por la casa.",
     ["pagó un dólar con cincuenta centavos por el café y tres coma cinco millones de euros por la casa"],
     ["$", "€", "dólar."]),
    ("money", "es", "Cuesta 500 inr en Delhi, 20 cny en Pekín y costaba ptas 2,50 antes del euro.",
     ["quinientas rupias indias en Delhi", "veinte yuanes chinos en Pekín",
      "costaba dos pesetas con cincuenta céntimos antes"], ["inr", "cny", "ptas"]),
    ("money", "es", "El menú vale MX$ 200 en Monterrey.", ["vale doscientos pesos mexicanos en Monterrey"],
     ["MX$"]),
    ("money", "es", "El chicle cuesta q1 y el café q3 en Antigua, y el Q4 fue bueno.",
     ["cuesta un quetzal y el café tres quetzales en Antigua", "el Q cuatro fue"], ["q1", "q3"]),
    ("measure", "es", "En clase vimos que 6 / 2 = 3, que 5 - 2 = 3 y que 12 ÷ 4 da 3.",
     ["seis entre dos es igual a tres que cinco menos dos es igual a tres y que doce entre cuatro da tres"],
     ["/", "÷", "="]),
    ("measure", "es", "El neumático trasero lleva 1 psi de más.", ["lleva un p s i de más"], ["uno"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)
