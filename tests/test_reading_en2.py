"""Issue 63, English and German classes read as a native reader says them (sentences of our own), in Python
(`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path given
does not exist, none is loaded). What is said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_together


# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("measure", "en", "The pump moves 40 cc/s of oil.", ["forty c c per second"], ["cc/s"]),
    ("measure", "en", "The beam carries 30 kgf/cm² at most.", ["thirty kilograms force per square centimeter"],
     ["kgf"]),
    ("measure", "en", "The county has 210 /km² on average.", ["two hundred ten per square kilometer"], ["km²"]),
    ("measure", "en", "The old card ran at 900 mhz only.", ["nine hundred megahertz"], ["mhz"]),
    ("measure", "en", "A lake of 12 km³ of water.", ["twelve cubic kilometers"], ["km³"]),
    ("measure", "en", "They shipped 300 million kg of grain.", ["three hundred million kilograms"], ["kg"]),
    ("money", "en", "Parking is $90/wk downtown.", ["ninety dollars per week"], ["/"]),
    ("money", "en", "The room is £45/d in winter.", ["forty-five pounds per day"], ["/"]),
    ("time", "en", "The train left at 4.45 p.m. sharp.", ["four forty-five PM"], ["point"]),
    ("time", "en", "The shop opens 9am-6pm daily.", ["nine AM to six PM"], ["-"]),
    ("range", "en", "Music of the 1950s-70s returned.", ["nineteen fifties to seventies"], ["-"]),
    ("range", "en", "Each bag holds 3-4kg of rice.", ["three to four kilograms"], ["-"]),
    ("decimal", "en", "The error fell to .04 last year.", ["point zero four"], [".0"]),
    ("decimal", "en", "Cut it to .5 m lengths.", ["point five meters"], ["m "]),
    ("fraction", "en", "Drill a 15/32 hole.", ["fifteen thirty-seconds"], ["/"]),
    ("fraction", "en", "Add 1/3rd of the milk.", ["one third of the milk"], ["/", "R D"]),
    ("measure", "en", "The pipe is 2 1/2 ft long.", ["two and a half feet"], ["/", "ft"]),
    ("measure", "de", "Im Kreis leben 150 /km² im Schnitt.", ["hundertfünfzig pro Quadratkilometer"], ["km²"]),
    ("measure", "de", "Das Gewicht liegt bei 20 kg/m³.", ["zwanzig Kilogramm pro Kubikmeter"], ["kg", "m³"]),
    ("measure", "de", "Der Tank fasst 250 cm³ Öl.", ["zweihundertfünfzig Kubikzentimeter"], ["cm³"]),
    ("measure", "de", "Es flossen 3 millionen l Wasser.", ["drei millionen Liter"], [" l "]),
    ("measure", "de", "Ein Brett von 1 1/2 ft Länge.", ["eineinhalb Fuß"], ["/", "ft"]),
    ("money", "de", "Das Porto kostet £3,01 extra.", ["drei Pfund ein Penny"], ["£"]),
    ("money", "de", "Der Umsatz lag bei €4,5 millionen.", ["vier Komma fünf millionen Euro"], ["€"]),
    ("fraction", "de", "Nur 1/25 der Fläche ist Wald.", ["ein Fünfundzwanzigstel der Fläche"], ["/"]),
    ("fraction", "de", "Im Takt 5/2 spielen.", ["fünf Halbe"], ["/"]),
    ("electronic", "en", "Order at shop4you.com before noon.", ["shop four you dot com"], [".com"]),
    ("electronic", "de", "Bestellen Sie bei teeladen.de noch heute.", ["teeladen Punkt de"], [".de"]),
    ("ordinal", "en", "The form says 5st by mistake.", ["five st"], ["fifth"]),
    ("ordinal", "en", "Stream it in 1080p tonight.", ["ten eighty p"], ["thousand"]),
    ("date", "en", "Sales fell in 3Q21 again.", ["the third quarter of twenty-one"], ["Q"]),
    ("abbreviation", "en", "we met mrs. jones there.", ["Missus jones"], ["mrs."]),
    ("abbreviation", "en", "He lived at 221 Baker St. near the park.", ["Baker Street near"], ["Saint"]),
    ("time", "de", "Der Zug fährt um 1:20 Uhr ab.", ["um ein Uhr zwanzig"], ["eine Uhr"]),
    ("abbreviation", "de", "Termin bei Dr. dao am Montag.", ["Doktor dao"], ["Dr."]),
    ("measure", "en", "Mix in 3/4 lb of butter.", ["three quarters of a pound"], ["/"]),
    ("measure", "en", "The belt moves 12 inches/second at most.", ["twelve inches per second"], ["/"]),
    ("symbol", "en", "The list (#4) ends here.", ["number four"], ["#"]),
    ("measure", "de", "Dazu 1/2 l Brühe geben.", ["einen halben Liter Brühe"], ["/", "ein halber"]),
    ("measure", "de", "Nun 2 EL Zucker und 1 TL Salz.", ["zwei Esslöffel Zucker und ein Teelöffel Salz"], ["EL", "TL"]),
    ("measure", "de", "Alles 5 Min kochen.", ["fünf Minuten kochen"], ["Min "]),
    ("percent", "de", "Nur 1% der Fläche ist bebaut.", ["ein Prozent der Fläche"], ["eins"]),
    ("roman", "de", "Das läuft unter System III noch.", ["System III"], ["Dritte"]),
    ("symbol", "en", "Choose install/remove/purge first.", ["install slash remove slash purge"], ["/"]),
    ("symbol", "en", "Bring a pen and/or a pencil.", ["pen and or a pencil"], ["/", "or or"]),
    ("date", "en", "The visa ends 23/04/2027 sharp.", ["the twenty-third of April twenty twenty-seven"], ["/"]),
    ("date", "de", "Am 05.11. ist der Markt offen.", ["am fünften November ist der Markt"], ["Punkt"]),
    ("date", "de", "Lies Seite 12.03 genau.", ["Seite zwölf Punkt null drei"], ["März"]),
    ("measure", "en", "The gauge read −1 1/2 ft at dawn.", ["minus one and a half feet"], ["/"]),
    ("date", "en", "She was born on 3 may 1990 in Leeds.", ["the third of May nineteen ninety"], []),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
