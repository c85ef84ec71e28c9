"""Issue 63, round seven: English, German and Portuguese classes as a native reader says them, on sentences of our
own (en measures written as a size of a noun or with their marks, en abbreviations of streets and of numbered
parts; de telephone numbers and emergency lines; pt dates in their short forms, a year's agreement, telephone
numbers), in Python (`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`,
the model path given does not exist, none is loaded). What is said is compared after casefolding and keeping
letters and digits; a written form that must not be said is looked for as written."""

from reading_cases import class_tests, said_together


# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("measure", "en", "Buy a 5-lb bag of flour.", ["a five pound bag"], ["L B", "lb"]),
    ("measure", "en", "Cut a 3-ft board for the shelf.", ["a three foot board"], ["F T"]),
    ("measure", "en", "He ran a 100-km race in May.", ["a one hundred kilometer race"], ["K M"]),
    ("measure", "en", "Grill a 6-oz. steak for each guest.", ["a six ounce steak"], ["oz"]),
    ("measure", "en", "The laptop has a 13.3\" screen.", ["a thirteen point three inch screen"], ['"']),
    ("measure", "en", "The storm dropped 2\" of rain overnight.", ["two inches of rain"], ['"']),
    ("measure", "en", "Set the oven to 180 degrees C and wait.", ["degrees Celsius and wait"], [" C "]),
    ("measure", "en", "Fasting glucose stayed under 100 mg/dL all year.", ["milligrams per deciliter"], ["/"]),
    ("measure", "en", "Her glucose was 5.5 mmol/L at noon.", ["five point five millimoles per liter"], ["/"]),
    ("measure", "en", "The old truck did 55 m.p.h. on the highway.", ["fifty-five miles per hour on the"],
     ["meters", "m.p.h."]),
    ("measure", "en", "The boat's engine has 300 h.p. now.", ["three hundred horsepower now"], ["hours", "h.p."]),
    ("date", "en", "The sale ends Fri, Dec 25, 2020 at noon.", ["ends Friday December twenty-fifth"], ["Fri,", "Dec "]),
    ("date", "en", "The office is open Mon-Fri from nine.", ["open Monday to Friday from nine"], ["Mon-", "Fri "]),
    ("date", "en", "The shop is closed Sun and Mon in winter.", ["closed Sunday and Monday in winter"], ["Sun "]),
    ("date", "en", "The memo dated 2/14 was lost.", ["dated February fourteenth was lost"], ["fourteenths"]),
    ("date", "en", "The tax bill is due 3/15 this year.", ["due March fifteenth this year"], ["fifteenths"]),
    ("date", "en", "On 7/4 we watch the fireworks.", ["On July fourth we watch"], ["quarters"]),
    ("date", "en", "In 1066 the Normans took England.", ["In ten sixty-six the Normans"], ["thousand"]),
    ("date", "en", "In the year 2525, if man is still alive.", ["the year twenty-five twenty-five"], ["hundred"]),
    ("abbreviation", "en", "He lives on Main St. in the old town.", ["Main Street in the old town"], ["St."]),
    ("abbreviation", "en", "The proof is in ch. 4 of the book.", ["chapter four"], ["ch."]),
    ("fraction", "de", "Für den Teig nimm 1/2 Liter Milch.", ["nimm einen halben Liter Milch"], ["ein halber"]),
    ("fraction", "de", "Dazu 1/2 Zitrone auspressen.", ["eine halbe Zitrone"], ["ein halber"]),
    ("measure", "de", "Er ist 1,80 m groß und schlank.", ["ein Meter achtzig groß"], ["Komma"]),
    ("measure", "de", "Die Tabletten 2 x täglich einnehmen.", ["zweimal täglich"], [" x "]),
    ("telephone", "de", "Tel. 0 30 / 12 34 56", ["null drei null eins zwei drei vier fünf sechs"],
     ["dreißig", "zwölf", "/"]),
    ("telephone", "de", "Tel. +49 30 1234-567", ["plus neunundvierzig drei null eins zwei drei vier"],
     ["dreißig"]),
    ("telephone", "de", "Die Zentrale erreichen Sie unter 06221 54-0.", ["null sechs zwei zwei eins fünf vier null"],
     ["vierundfünfzig"]),
    ("telephone", "de", "Im Notfall den Notruf 112 wählen.", ["Notruf eins eins zwei wählen"], ["hundert"]),
    ("cardinal", "de", "Bei der Verlosung gibt es nur 1 Gewinner.", ["gibt es nur einen Gewinner"], ["ein Gewinner"]),
    ("cardinal", "de", "Er gab ihr 1 Kuss zum Abschied.", ["gab ihr einen Kuss"], ["ein Kuss"]),
    ("cardinal", "de", "Der Gruppenpreis gilt ab 1 Person.", ["ab einer Person"], ["ab eine Person"]),
    ("cardinal", "de", "Die Ware kommt innerhalb 1 Woche.", ["innerhalb einer Woche"], ["innerhalb eine Woche"]),
    ("measure", "de", "Alle Läden liegen innerhalb 1 km vom Bahnhof.", ["innerhalb eines Kilometers"], ["km"]),
    ("date", "pt", "A reunião foi em 05/03/24 na sede.", ["cinco de março de vinte e quatro"], ["/"]),
    ("date", "pt", "O contrato vence em 31.12.99 à noite.", ["trinta e um de dezembro de noventa e nove"],
     ["ponto"]),
    ("date", "pt", "O balanço de março/2024 saiu ontem.", ["março de dois mil e vinte e quatro"], ["/"]),
    ("date", "pt", "A fatura de 03/2024 está paga.", ["março de dois mil e vinte e quatro"], ["/"]),
    ("date", "pt", "Ele nasceu em 5 mar 2024 em Lisboa.", ["cinco de março de dois mil e vinte e quatro"],
     [" mar "]),
    ("date", "pt", "O tratado foi assinado em 5 março 2024 em Brasília.", ["cinco de março de dois mil"], ["março dois"]),
    ("date", "pt", "No dia 5/3 haverá feira.", ["dia cinco de março"], ["terço"]),
    ("date", "pt", "A festa será em 2º de maio.", ["em dois de maio"], ["graus"]),
    ("cardinal", "pt", "Na década de 1980 havia crise.", ["de mil novecentos e oitenta havia"], ["novecentas"]),
    ("cardinal", "pt", "De 1980 a 1990 havia crise.", ["de mil novecentos e oitenta a mil"], ["novecentas"]),
    ("cardinal", "pt", "Sobraram 2 das 10 maçãs na cesta.", ["duas das dez maçãs"], ["dois das"]),
    ("telephone", "pt", "Ligue +55 (11) 3333.4444 hoje.", ["mais cinco cinco um um três três"], ["cinquenta"]),
    ("telephone", "pt", "Ligue 11999998888 agora.", ["um um nove nove nove nove nove oito"], ["bilhões"]),
    ("telephone", "pt", "Ligue 11 9 9999-8888 agora.", ["um um nove nove nove nove nove oito"], ["onze"]),
    # units' and references' dots before a small letter or a number: no sentence's end (cutting.py)
    ("measure", "en", "The tank holds 500 cu. ft. in all.", ["five hundred cubic feet in all"], ["cu."]),
    ("measure", "en", "Wait 10 min. then stir the sauce.", ["ten minutes then stir"], ["min.", "minutes."]),
    ("measure", "en", "She is 5 ft. 4 in. tall.", ["five feet four inches tall"], ["in.", "feet.", "inches."]),
    ("abbreviation", "en", "See fig. 2 and eq. 3 below.", ["figure two and equation three"], ["fig.", "eq."]),
    ("date", "pt", "O prazo acaba em 5 de mar. de 2024.", ["cinco de março de dois mil"], ["mar."]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
