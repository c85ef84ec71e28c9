"""Issue 63, English classes read as a native reader says them (sentences of our own: news, recipes, manuals,
timetables), in Python (`text.spoken`, `text.normalize.normalize`) and through the command line's dry run. What is
said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_together


# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("range", "en", "Delivery takes between 3-5 working days.", ["between three and five working days"], ["-"]),
    ("range", "en", "Prices rose between 10-20% in a year.", ["between ten and twenty percent"], ["%"]),
    ("range", "en", "The mill ran between 1890-95 only.", ["between eighteen ninety and ninety-five"], ["1890", " to "]),
    ("range", "en", "Keep the parcel between 2-4kg if you can.", ["between two and four kilograms"], ["kg"]),
    ("range", "en", "The new chip is 3x faster than the old one.", ["three times faster"], ["three x"]),
    ("range", "en", "Our rents are 2.5x higher than in 2010.", ["two point five times higher"], ["point five x"]),
    ("money", "en", "A loaf now costs 95p at the corner shop.", ["ninety-five pence at the"], ["95p"]),
    ("money", "en", "She kept a 2p coin in her shoe.", ["a two pence coin"], ["2p"]),
    ("date", "en", "Sales were flat from Jan-Mar this year.", ["from January to March this year"], ["Jan-", "Mar "]),
    ("date", "en", "The ferry runs Oct.–Dec. on weekends.", ["runs October to December on weekends"], ["Oct.", "–"]),
    ("measure", "en", "He cut a 10 ft pole from the ash.", ["a ten foot pole"], ["feet"]),
    ("measure", "en", "The pump needs a 5 kW motor to start.", ["a five kilowatt motor"], ["kilowatts"]),
    ("measure", "en", "The flat has 45 m2 of floor space.", ["forty-five square meters of floor"], ["m2"]),
    ("measure", "en", "The plot covers 600 sq. m in all.", ["six hundred square meters in all"], ["sq."]),
    ("measure", "en", "Pour 3 m3 of gravel into the trench.", ["three cubic meters of gravel"], ["m3"]),
    ("telephone", "en", "Front desk: 555-0100, open all night.", ["five five five zero one zero zero"],
     ["hundred"]),
    ("telephone", "en", "For bookings call us on 020-7946-0958 after nine.",
     ["zero two zero seven nine four six zero nine five eight after"], ["seventy", "hundred"]),
    ("telephone", "en", "Text the nurse on 07700 900123 if the fever rises.",
     ["zero seven seven zero zero nine zero zero one two three if"], ["hundred", "thousand"]),
    ("telephone", "en", "For a taxi, call 555 0187 at any hour.", ["call five five five zero one eight seven"],
     ["hundred"]),
    ("telephone", "en", "Ask the front desk for Ext. 2041 before noon.", ["Extension two zero four one before"],
     ["Ext.", "thousand"]),
    ("roman", "en", "A chapel of the XIVth century stands there.", ["of the fourteenth century"], ["XIV"]),
    ("roman", "en", "Coins of King George I were found.", ["King George the first were found"], [" I "]),
    ("money", "en", "The fund hopes to raise $2 million-$3 million by May.",
     ["two million dollars to three million dollars by"], ["-"]),
    ("date", "en", "The form was signed 11-23-98 in Dallas.", ["November twenty-third ninety-eight in"], ["-2"]),
    ("measure", "en", "The price per kg has doubled.", ["price per kilogram has"], ["kg"]),
    ("measure", "en", "Stir in 4 fl oz of cream.", ["four fluid ounces of cream"], ["fl oz"]),
    ("symbol", "en", "Solve x + 3 = 7 for x.", ["x plus three equals seven for x"], ["+", "="]),
    ("cardinal", "en", "The app now has 1.2M users in Asia.", ["one point two million users"], [" M "]),
    ("time", "en", "The convoy leaves at 0600 hours sharp.", ["at zero six hundred hours sharp"], ["0600"]),
    ("time", "en", "She won in 4:05.3 at the indoor meet.", ["in four minutes five point three seconds at"],
     [":"]),
    ("range", "en", "Both ran in the 1st-3rd heats.", ["the first to third heats"], ["-"]),
    ("money", "en", "The plant cost AWG 40 million to build.", ["forty million Aruban florins to build"], ["AWG"]),
    ("money", "en", "The flat sold for ₹1.5 crore last year.", ["one point five crore rupees last"], ["paise"]),
    ("money", "en", "The car sold for Rs. 5,00,000 in Pune.", ["five hundred thousand rupees in Pune"], [","]),
    ("fraction", "en", "Critics gave the film 8.5/10 overall.", ["eight point five out of ten overall"], ["slash"]),
    ("decimal", "en", "The error was 2.5e-3 at most.", ["two point five e minus three at"], ["-"]),
    ("date", "en", "The manual was revised 10/2019 by the staff.", ["revised October twenty nineteen by"], ["/"]),
    ("date", "en", "The market opens Saturday, 6/14 at dawn.", ["Saturday June fourteenth at"], ["/"]),
    ("date", "en", "She left school in '86 for good.", ["school in eighty-six for"], ["'"]),
    ("measure", "en", "Beat in 1 t. vanilla and 2 T. butter.", ["one teaspoon vanilla and two tablespoons butter"],
     ["t.", "T."]),
    ("measure", "en", "Sift 1/2 c. flour twice.", ["one half cup flour twice"], ["c."]),
    ("measure", "en", "The lawn is 60 sq. yards in all.", ["sixty square yards in all"], ["sq."]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
