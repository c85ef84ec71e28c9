"""Issue 63, round six: English and German classes read as NeMo's grammars (en money, range, telephone, fraction,
roman; de telephone) and a native reader (de weekdays, decades, centuries) say them, on sentences of our own, in
Python (`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path
given does not exist, none is loaded). What is said is compared after casefolding and keeping letters and digits;
a written form that must not be said is looked for as written."""

from reading_cases import class_tests, said_together


# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("money", "en", "The stall sold mangoes at ₵20 a bag.", ["twenty cedis"], ["₵"]),
    ("money", "en", "Rent there is DH 4,500 a month.", ["four thousand five hundred dirhams"], ["DH"]),
    ("money", "en", "The fund raised $3 Million last year.", ["three million dollars"], ["Million"]),
    ("money", "en", "The bank lent €40 mln to the port.", ["forty million euros"], ["mln"]),
    ("money", "en", "Bolts cost $2/ea at the store.", ["two dollars each"], ["/", "slash"]),
    ("money", "en", "Storage is $3/cu ft per month.", ["three dollars per cubic foot"], ["/", "slash"]),
    ("money", "en", "Tiles run $4/sq foot installed.", ["four dollars per square foot"], ["/", "slash"]),
    ("range", "en", "The price is ~$15 today.", ["about fifteen dollars"], ["~"]),
    ("range", "en", "The deal is worth $2.5-3 billion.", ["two point five to three billion dollars"], ["cents"]),
    ("range", "en", "Fashion of the 1970s-1985 came back.", ["nineteen seventies to nineteen eighty-five"], []),
    ("range", "en", "Rock of the 1965-70s era.", ["nineteen sixty-five to seventies"], []),
    ("range", "en", "He played there '88-'93.", ["eighty-eight to ninety-three"], ["'"]),
    ("telephone", "en", "Call 1-866-555-0142 for help.", ["one eight six six five five five zero one four two"],
     ["one eight six six"]),
    ("telephone", "en", "Reach me at 123 456 7890 tonight.", ["one two three four five six seven eight nine zero"],
     ["hundred"]),
    ("telephone", "en", "Call 415 555 0123 ext. 204 today.", ["zero one two three extension two zero four"],
     ["ext."]),
    ("telephone", "en", "Dial +442079460958 from abroad.", ["plus four four two zero seven nine four six"],
     ["billion"]),
    ("fraction", "en", "The tower is 1250 1/2 feet tall.", ["one thousand two hundred fifty and a half feet"], ["/"]),
    ("fraction", "en", "The level fell to -2 3/4 inches.", ["minus two and three quarters inches"], ["/"]),
    ("date", "en", "The fair runs May 1-3 downtown.", ["May first to third downtown"], ["-"]),
    ("date", "en", "The course runs 12th-15th June online.", ["the twelfth to the fifteenth of June"], ["th-"]),
    ("date", "en", "Rooms are free between 5 and 10 June only.", ["between the fifth and the tenth of June"], []),
    ("date", "en", "He died 12-Aug-1890 in Paris.", ["the twelfth of August eighteen ninety"], ["Aug-"]),
    ("date", "en", "The chapel was built c. 1450 by monks.", ["built circa fourteen fifty by"], ["c."]),
    ("measure", "en", "She finished in 3h 15m flat.", ["three hours fifteen minutes flat"], ["meters"]),
    ("measure", "en", "The clip runs 2m 30s in all.", ["two minutes thirty seconds in all"], ["thirties"]),
    ("score", "en", "The Lakers won 102-99 last night.", ["won one hundred two to ninety-nine"], ["two-ninety"]),
    ("abbreviation", "en", "It is Lakers vs Celtics tonight.", ["Lakers versus Celtics"], [" vs "]),
    ("score", "en", "The bill passed 52-48 in the Senate.", ["passed fifty-two to forty-eight"], ["two-forty"]),
    ("abbreviation", "en", "He lives at No. 5 Elm St. now.", ["number five Elm Street"], ["No."]),
    ("telephone", "en", "In an emergency call 911 at once.", ["call nine one one at once"], ["hundred"]),
    ("roman", "en", "The Vostok I capsule landed.", ["Vostok one capsule"], [" I "]),
    ("date", "de", "Geöffnet Mo.–Fr. von 9 bis 18 Uhr.", ["Montag bis Freitag von neun bis achtzehn Uhr"],
     ["Franken", "Mo."]),
    ("date", "de", "Die Messe läuft vom 1.–3. März in Köln.", ["vom ersten bis dritten März"], ["eins"]),
    ("time", "de", "Sprechstunde ist 8:30–12:00 Uhr im Rathaus.", ["acht Uhr dreißig bis zwölf Uhr"], ["–"]),
    ("date", "de", "Geöffnet Fr 8–12 Uhr und nach Absprache.", ["Freitag acht bis zwölf Uhr"], ["Fr "]),
    ("abbreviation", "de", "Nach § 823 Abs. 1 S. 2 BGB haftet er.", ["Absatz eins Satz zwei"], ["Seite"]),
    ("score", "de", "Bayern gewann 3:2 n. V. in Berlin.", ["drei zu zwei nach Verlängerung in Berlin"], ["n. V."]),
    ("date", "de", "Die Mode der 1960er kehrt zurück.", ["neunzehnhundertsechziger"], ["tausend"]),
    ("date", "de", "Das Schloss stammt aus dem 16. Jh. und steht leer.", ["sechzehnten Jahrhundert und"], ["Jh."]),
    ("money", "de", "Der Kaffee kostet 2 Euro 50 im Laden.", ["zwei Euro fünfzig im Laden"], ["fünfzig Euro"]),
    ("money", "de", "Das Abo kostet 4,99 €/Monat ab sofort.", ["vier Euro neunundneunzig pro Monat"], ["/"]),
    ("money", "de", "Die Miete beträgt 12 €/m² kalt.", ["zwölf Euro pro Quadratmeter kalt"], ["/", "m²"]),
    ("range", "de", "Die Lieferung dauert 1-2 Tage.", ["ein bis zwei Tage"], ["eins"]),
    ("range", "de", "Dazu 1–2 EL Honig geben.", ["ein bis zwei Esslöffel Honig"], ["eins"]),
    ("telephone", "de", "Rufen Sie 0221 / 12 34 56 an.", ["null zwei zwei eins eins zwei drei vier fünf sechs"],
     ["zwölf", "/"]),
    ("telephone", "de", "Tel.: 030 123456", ["Telefon null drei null"], ["Tel."]),
    ("telephone", "de", "Ruf +4930123456 an.", ["plus vier neun drei null eins zwei"], ["Milliarden"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
