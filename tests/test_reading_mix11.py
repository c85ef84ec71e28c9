"""Issue 63, eleventh round: what the grown real-sentence corpus (German recipes, English and Russian fortunes) showed,
on sentences of our own, in Python and through the command line's dry run.

- A range whose two ends carry the same degree sign says it once ("160°-180°" hundertsechzig bis hundertachtzig
  Grad; it was "Grad minus"), in every language (common verbalizer).
- de: "Essl." and "Teel." are a tablespoon and a teaspoon; one part of a unit after a preposition of the dative
  takes "einem" ("aus 1/8 l" aus einem Achtel Liter; it was "aus ein Achtel").
- en: a pound written with a capital L, as typewriters without "£" wrote it ("L12,500", "fined L250"); "L2 cache"
  stays a code.
- ru: a third or a quarter of a whole named after the fraction is said with the part's own word ("2/3 высоты" две
  трети, "3/4 населения" три четверти), as a half already was; a bare fraction keeps the ordinal reading.
- Found in fortune files outside the corpus: ru ordinal endings in capitals ("ИЗ 5-ГО" из пятого); a lone letter plus
  a number is a sum ("N+1" N плюс один, common); de "min." a minute (no sentence end before a small letter), "1
  Gedeck" neuter, a measure before an adjective of size in the accusative ("1 cm dick" einen Zentimeter dick); en a
  number before hyphened words is no code ("a 130-page report" was "one three zero page"), a recipe's "425 F"
  degrees Fahrenheit; a descending range before an era counted down is a range in every language ("(427-347 a.C.)",
  "BC"), Italian and Portuguese "a.C." and "d.C." read;
  an English gun's caliber ".45 caliber" forty-five (was "point four five"); where a comma is the decimal, "97.6%"
  is a decimal percentage (its "%" had been left) and "5,000 años" five thousand (was "cinco coma cero cero cero");
  ">=" and "<=" between operands are said ("x>=2"); de a version inside a hyphened code is no date ("core-3.1-noarch"
  was "core-dritter Januar-noarch"); de "um 22.05 Uhr" a time (was "zweiundzwanzigster Mai Uhr"), "1.20 m" a decimal
  where a comma is the decimal (as "97.6%"), "100,-DM-Schein" a whole price; "6.02 x 10^23" times, "N=1" N equals
  one, "+/- 5%" plus or minus, en "ppm" parts per million; en a Bible verse ("Romans 13:8" was "thirteen to eight"),
  an amount before the noun it describes in the singular ("a $10 bill" a ten dollar bill); ru a scale's or a
  currency's dot before a small letter ("3 млрд. руб. в год") no sentence end; de a second ordinal joined by "und",
  "oder", "bzw." ("im 2. oder 3. Jahr", also no sentence end for the cutter), "sein 13. Monatsgehalt" neuter."""

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
    # found reading fortune files outside the corpus (fortunes-de salat/kalt/suppe, fortunes food/sports,
    # fortunes-ru murphy): each a class
    ("ordinal", "ru", "ВЫВОД ИЗ 3-ГО ЗАКОНА И 7-Е ПРАВИЛО", ["из третьего", "седьмое"], ["-ГО", "-Е"]),
    ("symbol", "ru", "Ответ: k+2 шага.", ["k плюс два шага"], ["+"]),
    ("symbol", "en", "We need n+1 servers.", ["n plus one servers"], ["+"]),
    ("measure", "de", "Den Teig 5 min. ruhen lassen.", ["fünf Minuten ruhen lassen"], ["Minuten."]),
    ("cardinal", "de", "Die Zutaten reichen für 1 Gedeck.", ["für ein Gedeck"], ["einen Gedeck"]),
    ("measure", "de", "Den Teig 1 cm dick ausrollen, das Blech ist 1 m lang.", ["einen Zentimeter dick",
     "einen Meter lang"], ["ein Zentimeter", "ein Meter"]),
    ("cardinal", "en", "She wrote a 130-page report on a 125-year-old tree.", ["a one hundred thirty page report",
     "one hundred twenty-five year old"], ["one three zero", "one two five"]),
    ("measure", "en", "Bake in a hot oven (425 F) for 20 minutes.", ["four hundred twenty-five degrees Fahrenheit"],
     [" F)"]),
    # fortunes-es ciencia: a philosopher's years before Christ, counted down
    ("range", "es", "Tales de Mileto (640-543 a.C.) fue filósofo.", ["seiscientos cuarenta a quinientos cuarenta y tres "
     "antes de Cristo"], ["cuarenta-quinientos"]),
    ("range", "it", "Platone (427-347 a.C.) scrisse.", ["quattrocentoventisette a trecentoquarantasette avanti Cristo"],
     ["a.C."]),
    ("range", "pt", "Platão (427-347 a.C.) escreveu.", ["sete a trezentos", "antes de Cristo"], ["a.C."]),
    ("range", "de", "Platon (427-347 v. Chr.) schrieb.", ["siebenundzwanzig bis dreihundert"], ["minus"]),
    ("range", "fr", "Platon (427-347 av. J.-C.) a écrit.", ["vingt-sept à trois cent"], ["moins"]),
    ("range", "en", "Plato (427-347 BC) wrote.", ["four twenty-seven to three forty-seven BC"], ["seven three"]),
    ("measure", "en", "He carried a .45 caliber pistol and a .357 Magnum.", ["a forty-five caliber pistol",
     "a three fifty-seven Magnum"], ["point"]),
    # fortunes-es varios: a percentage with a decimal dot where a comma is the decimal; thousands written "5,000"
    ("percent", "es", "Un 97.6% de las estadísticas son falsas.", ["noventa y siete coma seis por ciento"], ["%"]),
    ("percent", "de", "Nur 12.5% der Befragten stimmten zu.", ["zwölf Komma fünf Prozent"], ["%"]),
    ("percent", "ru", "Около 97.6% статистики ложно.", ["девяноста семи целых шести десятых процента"], ["%"]),
    ("cardinal", "es", "Hace 5,000 años no había relojes.", ["hace cinco mil años"], ["coma"]),
    ("cardinal", "it", "Costruita 2,000 anni fa.", ["duemila anni fa"], ["virgola"]),
    ("cardinal", "fr", "Il y a 10,000 ans déjà.", ["dix mille ans"], ["virgule"]),
    # the German Debian FAQ: a comparison written ">=", a version inside a hyphened code is no date
    ("symbol", "de", "Für x>=2 und y <= 5 gilt das.", ["x größer gleich zwei", "y kleiner gleich fünf"], [">=", "<="]),
    ("symbol", "en", "It needs version >= 2.3 to run.", ["version greater than or equal to two point three"], [">="]),
    ("date", "de", "Die Kennung core-3.1-noarch steht dort.", ["core drei Punkt eins noarch"], ["Januar"]),
    # fortunes-de witze/tips: a time with a dot that is also a date, a decimal dot before a unit, a whole price
    ("time", "de", "Er kam erst um 22.05 Uhr nach Hause.", ["um zweiundzwanzig Uhr fünf"], ["Mai"]),
    ("measure", "de", "Ab einem Wasserstand von 1.20 m wird geschwommen.", ["Meter zwanzig"], ["Punkt"]),
    ("money", "de", "Auf dem Tisch liegt ein 100,-DM-Schein.", ["hundert D-Mark-Schein"], [",-"]),
    # fortunes science: scientific notation, a letter equal to a number, plus or minus, parts per million
    ("measure", "en", "Call Avogadro at 6.02 x 10^23.", ["six point zero two times ten to the power of"], [" x "]),
    ("symbol", "en", "Assume it holds for N=1 first.", ["for N equals one first"], ["="]),
    ("symbol", "de", "Für x=2 gilt das.", ["x gleich zwei"], ["="]),
    ("percent", "en", "The tolerance is +/- 5% at most.", ["plus or minus five percent"], ["+/-"]),
    ("measure", "en", "It is fatal at 0.5 ppm in the air.", ["zero point five parts per million"], ["ppm"]),
    # fortunes work/law: a verse of the Bible, an amount before the noun it describes
    ("date", "en", "Owe no man any thing, says Romans 13:8 and 2 Corinthians 3:1-2.", ["Romans thirteen eight",
     "Corinthians three one to two"], ["to eight", ":"]),
    ("money", "en", "He found a $10 bill and paid a $500 fine for the $90-per-share deal.", ["a ten dollar bill",
     "a five hundred dollar fine", "ninety dollar"], ["dollars bill", "dollars fine"]),
    # fortunes-ru M$: a scale's or a currency's dot before a small letter ends no sentence
    ("money", "ru", "Бюджет 3 млрд. руб. в год и ещё $200 млн. сверху.", ["три миллиарда рублей в год",
     "двести миллионов долларов сверху"], ["рублей.", "долларов."]),
    # fortunes-de zitate: a second ordinal joined to the first, a neuter noun after a bare possessive
    ("ordinal", "de", "Was zwischen deinem 15. und 35. Lebensjahr erfunden wird, ist im 2. oder 3. Jahr alt.",
     ["deinem fünfzehnten und fünfunddreißigsten Lebensjahr", "im zweiten oder dritten Jahr"], ["ßig.", "drei."]),
    ("ordinal", "de", "Er verzichtet auf sein 13. Monatsgehalt.", ["sein dreizehntes Monatsgehalt"], ["dreizehnter"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)
