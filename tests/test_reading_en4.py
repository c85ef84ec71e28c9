"""Issue 63, English round two: classes read as NeMo's English range grammar reads them (sentences of our own), in
Python (`text.spoken`, `normalize`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the
model path given does not exist, none is loaded): a span of multipliers ("5x-7x") and a product ("3*4"); a price in
cents ("35¢") and per a unit ("$2.40/lb"); more units of NeMo's table; "a.k.a.", "e.g." before a capital, "Ph.D.",
"ltd", "dept", more titles ("Sen.", "Pvt.", "Dr" without its dot), "Ste."; Greek letters by name; a fraction after a
hyphen ("1-3/4") or a minus ("-5/8"), with "ths" or an inch mark; a month's short form before a year ("Sept 2019");
a year and the next ("2023/24"); a regnal number before "'s"; a lettered telephone number of any area code
("1-877-GO-TAXIS"). What is said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_together

# (class, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("range", "The new lens gives 3x-5x zoom.", ["three to five x zoom"], ["-"]),
    ("range", "Our pumps run 2X–4X faster now.", ["two to four x faster"], ["–"]),
    ("range", "The grid holds 6*8 tiles.", ["six times eight tiles"], ["*"]),
    ("range", "A crate of 12 * 20 cans came.", ["twelve times twenty cans"], ["*"]),
    ("money", "Gum was 35¢ a pack then.", ["thirty-five cents a pack"], ["¢"]),
    ("money", "Plums sell at $2.40/lb today.", ["two dollars forty cents per pound today"], ["/", "slash"]),
    ("money", "Flour is €1.10/kg here.", ["one euro ten cents per kilogram here"], ["/", "slash"]),
    ("measure", "The wheel turned 3 rad in all.", ["three radians in all"], [" rad "]),
    ("measure", "The flash lasts 2 ds only.", ["two deciseconds only"], [" ds "]),
    ("measure", "The lake holds 4 mi³ of water.", ["four cubic miles of water"], ["³"]),
    ("abbreviation", "The singer, a.k.a. Prince, sang.", ["also known as Prince sang"], ["a.k.a.", "as. "]),
    ("abbreviation", "Buy fruit, e.g. Apples or pears.", ["for example Apples"], ["e.g.", "example. "]),
    ("abbreviation", "She holds a Ph.D. in math.", ["P H D in math"], ["Ph.D."]),
    ("abbreviation", "He works for an ltd firm in the sales dept now.", ["limited firm in the sales department now"],
     [" ltd ", "dept "]),
    ("fraction", "Drill a 1-3/4 inch hole.", ["one and three quarters inch hole"], ["slash", "/"]),
    ("fraction", "The stock fell -5/8 of a point.", ["minus five eighths of a point"], ["slash", "/"]),
    ("date", "The plant closed in Sept 2019 for good.", ["September twenty nineteen for good"], ["Sept "]),
    ("date", "Our 2023/24 budget is out.", ["twenty twenty-three to twenty-four budget"], ["/", "fourths"]),
    ("fraction", "Mix in 3/8ths of the salt.", ["three eighths of the salt"], ["T H S", "/"]),
    ("fraction", "Use a 5/16\" drill bit.", ["five sixteenths inch drill bit"], ["\"", "/"]),
    ("telephone", "Dial 1-877-GO-TAXIS now.", ["one eight seven seven GO TAXIS now"], ["hundred"]),
    ("telephone", "Text 866-555-HELP for aid.", ["eight six six five five five HELP for aid"], ["hundred"]),
    ("roman", "It was Edward VII's yacht.", ["Edward the seventh's yacht"], ["VII"]),
    ("abbreviation", "We heard Sen. Tillis and Pvt. Ortiz.", ["Senator Tillis and Private Ortiz"], ["Sen.", "Pvt."]),
    ("abbreviation", "Ask Dr Okafor at Ste. 410.", ["Doctor Okafor at Suite four hundred ten"], ["Dr ", "Ste."]),
    ("symbol", "The β strand binds the α-helix.", ["beta strand binds the alpha-helix"], ["β", "α"]),
    ("symbol", "Here π is close to 3.14 and ΔT rose.", ["pi is close to three point one four and delta T"],
     ["π", "Δ"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together, language="en")
