"""Issue 63 for German, third round, on sentences of our own: each class as a native reader (and NeMo's German
grammars, where they read it so) states it, seen in Python (`normalize`, `text.spoken`) and on the command line's
dry run (`--dry-run` prints each piece as it will be spoken; no model is loaded).

Classes: money written currency-first names the minor unit ("€3,40": drei Euro vierzig Cent), cents written long
("$5,50000"), a scale word after the amount ("€1 million": eine million Euro), a price written "7,- €", currencies
of NeMo's German table (data/de_currencies.tsv: "DM", "DKK"); telephone numbers with an area code and its zero
("0711 4567-890") and a two-digit country code said as a number ("+49": plus neunundvierzig); abbreviations of
running text from data/de_abbreviations.tsv ("Mr.", "zzgl.", "i. d. R.", "Anm.") and streets ("Hauptstr."); units of
NeMo's German measurements table (data/de_units.tsv: "mAh", "db", "kw", "v", "m/s²") and "x" between sizes and
before a word said "mal" ("4 x 3 m", "2x täglich"); "1" before a unit in the case its preposition or a recipe's
order asks for ("mit 1 kg": mit einem Kilogramm, "in 1 Woche": in einer Woche, "1 EL Honig … rühren": einen
Esslöffel), after a verb with an accusative object ("es gibt 1 Grund") and in a list after one ("hat 3 Kinder und 1
Enkel"); numbers joined by commas as a list ("1,2,3"); fractions with a sign, a spaced slash, hundredths and mixed
numbers ("-1/3", "1 / 5", "3/100", "23 2/3"); a year and its month ("2003-05"), a short day and month ("am 3.4") and
a number's dot before a small letter as an ordinal, its ending carried over "bis" and "und" ("vom 1. bis 3. Mai"); a
number from 1100 to 2099 before a noun as a count ("1500 Besucher")."""

import pytest

from test_reading_ru_cjk import read_in_python, read_on_the_command_line

# (language, written, words that must be said, words that must not) - what today's main says wrong in must_not
CASES = [
    ("de", "Das Ticket kostet €3,40 am Automaten.", ["drei Euro vierzig Cent am Automaten"], ["€"]),
    ("de", "Der Händler nahm $5,50000 dafür.", ["fünf Dollar fünfzig Cent dafür"], ["fünf Komma fünf"]),
    ("de", "Der Etat wuchs um €1 million im Jahr.", ["um eine million Euro im Jahr"], ["Euro million"]),
    ("de", "Das Buch kostet 7,- € im Laden.", ["sieben Euro im Laden"], [",-"]),
    ("de", "Das kostete 5 DM und 1 DKK.", ["fünf D-Mark und eine dänische Krone"], ["DM", "DKK"]),
    ("de", "Rufen Sie 0711 4567-890 an.", ["null sieben eins eins vier fünf sechs sieben acht neun null"],
     ["viertausend"]),
    ("de", "Aus dem Ausland wählen Sie +49 89 1234567.", ["plus neunundvierzig acht neun eins zwei"], ["vier neun"]),
    ("de", "Wir treffen Mr. Brown in der Hauptstr. 5 zzgl. Anfahrt.",
     ["Mister Brown in der Hauptstraße fünf zuzüglich Anfahrt"], ["Mr.", "str.", "zzgl."]),
    ("de", "Das gilt i. d. R. für alle, vgl. Anm. 3 im Anhang.", ["in der Regel für alle", "Anmerkung drei"],
     ["i. d. R.", "Anm."]),
    ("de", "Der Akku hat 5000 mAh und liefert 12 v Spannung.",
     ["fünftausend Milliamperestunden", "zwölf Volt Spannung"], ["mAh", " v "]),
    ("de", "Der Lüfter macht 40 db bei 3 kw Leistung.", ["vierzig Dezibel bei drei Kilowatt"], ["db", "kw"]),
    ("de", "Ein Raum von 4 x 3 m und 20 cm x 30 cm.", ["vier mal drei Meter", "zwanzig Zentimeter mal dreißig"],
     [" x "]),
    ("de", "Die Tabletten 2x täglich nehmen.", ["zwei mal täglich"], ["2x", "zwei x"]),
    ("de", "Die Kugel fällt mit 10 m/s² nach unten.", ["zehn Meter pro Quadratsekunde"], ["m/s²"]),
    ("de", "Das Schiff lädt 1 million kg Getreide.", ["eine million Kilogramm Getreide"], ["eins million"]),
    ("de", "1 EL Honig unter den Teig rühren.", ["einen Esslöffel Honig"], ["ein Esslöffel"]),
    ("de", "Mit 1 kg Mehl beginnen und rühren.", ["mit einem Kilogramm Mehl"], ["ein Kilogramm"]),
    ("de", "Es gibt 1 Grund dafür.", ["es gibt einen Grund"], ["ein Grund"]),
    ("de", "In 1 Woche ist es soweit.", ["in einer Woche ist"], ["eine Woche"]),
    ("de", "Er hat 3 Kinder und 1 Enkel.", ["drei Kinder und einen Enkel"], ["ein Enkel"]),
    ("de", "Die Folge 1,2,3 ist einfach.", ["die Folge eins zwei drei ist"], ["eins Komma zwei"]),
    ("de", "Nur 3/100 der Proben und 1 / 5 der Gäste.", ["drei Hundertstel der Proben", "ein Fünftel der Gäste"],
     ["/"]),
    ("de", "Der Wert sank auf -1/3 des Mittels.", ["auf minus ein Drittel des Mittels"], ["-ein"]),
    ("de", "Die Karte zeigt 23 2/3 Meilen Weg.", ["dreiundzwanzig zwei Drittel"], ["dreiundzwanzigzwei"]),
    ("de", "Der Bericht vom 2003-05 liegt vor.", ["Mai zweitausenddrei liegt vor"], ["bis fünf"]),
    ("de", "Am 3.4 beginnt der Kurs.", ["am dritten April beginnt"], ["drei Punkt vier"]),
    ("de", "Geöffnet vom 1. bis 3. Mai und am 1. und 2. Juni.", ["vom ersten bis dritten Mai",
                                                              "am ersten und zweiten Juni"], ["eins.", "zweite Juni"]),
    ("de", "Es kamen 1500 Besucher zum Fest.", ["eintausendfünfhundert Besucher"], ["fünfzehnhundert"]),
    ("de", "Nur 1 von 5 Frauen und bei 1 von 3 Fällen, Seite 1 von 9 Seiten.",
     ["nur eine von fünf Frauen", "bei einem von drei Fällen", "Seite eins von neun Seiten"], ["eins von fünf"]),
    ("de", "Das ist mein 2. Versuch und sein 3. Buch.", ["mein zweiter Versuch", "sein drittes Buch"], ["zwei."]),
    ("de", "In den 90ern lief ein 386er Rechner 3-mal täglich.",
     ["in den neunzigern", "dreihundertsechsundachtziger Rechner", "dreimal täglich"], ["neunzig ern", "achtzig er"]),
    ("de", "Die 2te Auflage ist 100%ig korrekt.", ["die zweite Auflage", "einhundertprozentig korrekt"],
     ["zwei te", "Prozentig"]),
]


@pytest.mark.parametrize("language, written, must, must_not", CASES, ids=[c[1][:30] for c in CASES])
def test_each_class_is_read_right_in_python(language, written, must, must_not):
    read_in_python(language, written, must, must_not)


@pytest.mark.parametrize("language", sorted({c[0] for c in CASES}))
def test_each_class_is_read_right_on_the_command_line(tmp_path, language):
    read_on_the_command_line(tmp_path, [c for c in CASES if c[0] == language], language)
