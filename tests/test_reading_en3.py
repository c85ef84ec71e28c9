"""Issue 63, English classes read as NeMo's English grammars read them and a native reader says them (sentences of
our own), in Python (`text.spoken`, `normalize`) and through the command line's dry run (`mlx_qwen3tts.generate
--dry-run`, the model path given does not exist, none is loaded): fractions of any whole numbers, four plain digits
in hundreds, short numeric dates, toll-free numbers and extensions, four dotted groups, clock ranges, state codes,
more currencies and units, "º" and a lone "v" as units, feet and inches, sizes, street addresses, a year's era,
titles. What is said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_together

# (class, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("fraction", "The ratio came to 29/3 in the end.", ["twenty-nine thirds in the end"], ["/"]),
    ("fraction", "Each heir got a 2 3/20 share.", ["two and three twentieths share"], ["/"]),
    ("fraction", "The piece is in 5/4 time.", ["five quarters time"], ["fourths"]),
    ("fraction", "The desk is staffed 24/7 here.", ["twenty-four seven here"], ["sevenths"]),
    ("cardinal", "The CDC 7600 was faster still.", ["seventy-six hundred was"], ["thousand"]),
    ("money", "The bike cost $2400 used.", ["twenty-four hundred dollars"], ["thousand"]),
    ("ordinal", "She was the 2300th visitor.", ["twenty-three hundredth visitor"], ["thousand"]),
    ("date", "The lease was signed 4/22/98 in Ohio.", ["April twenty-second ninety-eight"], ["/"]),
    ("telephone", "Call 1-800-555-0142 today.", ["one eight hundred five five five zero one four two"], ["zero zero"]),
    ("telephone", "The front desk is 212-555-0147 12.", ["zero one four seven one two"], ["twelve"]),
    ("telephone", "The label reads 412.980.7.15 on the box.",
     ["four one two dot nine eight zero dot seven dot one five"], ["point"]),
    ("time", "The talk runs 9:30-10:15 today.", ["nine thirty to ten fifteen"], ["-"]),
    ("abbreviation", "She moved to Boise, ID last year.", ["Boise Idaho last year"], [" ID "]),
    ("abbreviation", "Write to Austin, TX 78701 soon.", ["Texas seven eight seven zero one soon"], ["TX"]),
    ("money", "The fare is HK$12 each way.", ["twelve Hong Kong dollars each way"], ["$"]),
    ("money", "A coffee costs ₪14 there.", ["fourteen shekels there"], ["₪"]),
    ("measure", "Heat the oven to 200ºC first.", ["two hundred degrees Celsius first"], ["º"]),
    ("measure", "The old cell gives 3 v.", ["three volts"], [" v."]),
    ("measure", "Let it rest 15 mins, then bake 2 hrs.", ["fifteen minutes then bake two hours"], ["mins", "hrs"]),
    ("measure", "The flat has 850 sq. ft. of floor.", ["eight hundred fifty square feet of floor"], ["sq."]),
    ("measure", "Stir in 2 tbsp of oil.", ["two tablespoons of oil"], ["tbsp"]),
    ("measure", "The guard is 6'4\" tall.", ["six feet four inches tall"], ["'"]),
    ("measure", "Cut a 4x8 ft sheet.", ["four by eight feet sheet"], ["x"]),
    ("measure", "Mail it to 2788 San Tomas Expy today.", ["twenty-seven eighty-eight San Tomas Expressway"],
     ["Expy"]),
    ("date", "Rome was sacked in 410 A.D. by Alaric.", ["four ten AD by"], ["hundred"]),
    ("date", "Sales rose in 1H24 again.", ["the first half of twenty-four"], ["H"]),
    ("date", "Music of the 1970 s came back.", ["the nineteen seventies came"], ["seconds"]),
    ("date", "The log starts 2019.03.14 at dawn.", ["March fourteenth twenty nineteen"], ["point"]),
    ("money", "The fee is US$40 a month.", ["forty US dollars"], ["$"]),
    ("money", "Gas was $3.4590 a gallon.", ["three point four five nine dollars"], ["zero"]),
    ("money", "The account shows -$25 today.", ["minus twenty-five dollars"], ["-$"]),
    ("abbreviation", "We met Capt. Hale at the dock.", ["Captain Hale"], ["Capt."]),
    ("money", "A pencil is $.75 there.", ["seventy-five cents there"], ["point"]),
    ("money", "Tickets run $30-45 a seat.", ["thirty to forty-five dollars a seat"], ["dollars to"]),
    ("range", "The desk is open 2-4pm daily.", ["two to four PM daily"], ["-"]),
    ("range", "Prices fell 10%-15% in May.", ["ten percent to fifteen percent in May"], ["minus"]),
    ("range", "It takes 5+ years to learn.", ["five plus years"], ["+"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together, language="en")
