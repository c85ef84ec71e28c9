"""Issue 63, English round three: classes read as NeMo's English grammars read them (sentences of our own), in
Python (`text.spoken`, `normalize`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the
model path given does not exist, none is loaded): units of NeMo's inverse normalization table (watt hours,
milliamperes, data rates, atmospheres, knots, micrograms), a unit word per a time ("beats/min"), an address with a
numbered street; a card number without a cue, an extension with its word, a country code without plus, an area code
and seven digits, a number in spaced groups, a serial code's long digit run; titles in small letters ("dr.", "st."),
"e. g." with a space, "vol", technical names ("C++", "IEEE", "I/O"); a roman numeral after a numbered kind ("Type
II", "Episode IV", "vol. III"); a clock time's minutes under ten after "o" ("ten o five", as NeMo's time grammars
say them both ways); "may" in small letters before a day and a year; a span of hours to a time with AM or PM, of a
year to the next century or "oh five", of a year to a decade, to a multiple ("2-3x"), with the unit or scale after
both ends; a fraction with a spaced slash, thousandths; thousands grouped by spaces; a price per a noun or a unit of
two words ("$90/night", "$4/sq ft"). What is said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_in_order

# (class, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("measure", "The pack stores 90 Wh of energy.", ["ninety watt hours of energy"], [" Wh "]),
    ("measure", "The sensor draws 15 mA at rest.", ["fifteen milliamperes at rest"], [" mA "]),
    ("measure", "Our link runs at 40 Gbps today.", ["forty gigabits per second today"], ["Gbps"]),
    ("measure", "The tank holds 3 atm of gas.", ["three atmospheres of gas"], [" atm "]),
    ("measure", "The boat made 12 kt all day.", ["twelve knots all day"], [" kt "]),
    ("measure", "Take 400 mcg daily with food.", ["four hundred micrograms daily"], ["mcg"]),
    ("measure", "Gravity pulls at 9.8 m/s² here.", ["nine point eight meters per second squared here"], ["m/s"]),
    ("telephone", "My card is 4929 1234 5678 9012 now.",
     ["four nine two nine one two three four five six seven eight nine zero one two now"], ["hundred", "thousand"]),
    ("telephone", "Ring 212-555-0147 ext. 38 today.", ["five five five zero one four seven extension three eight"],
     ["ext.", "thirty"]),
    ("telephone", "Dial 44 212-555-0147 from abroad.", ["four four two one two five five five"], ["forty"]),
    ("telephone", "The desk is 312-5550147 now.", ["three one two five five five zero one four seven now"],
     ["million", " to "]),
    ("telephone", "Phone 312 555 0147 after six.", ["three one two five five five zero one four seven after"],
     ["hundred"]),
    ("telephone", "The unit is model qx4471 now.", ["q x four four seven one now"], ["hundred", "thousand"]),
    ("abbreviation", "we met dr. okafor and prof. lind.", ["doctor okafor and professor lind"], ["dr.", "prof."]),
    ("abbreviation", "the bus to st. paul left.", ["saint paul left"], ["st."]),
    ("abbreviation", "Bring fruit, e. g. pears.", ["for example pears"], ["e. g."]),
    ("abbreviation", "Read vol 2 first.", ["volume two first"], ["vol "]),
    ("abbreviation", "She codes C++ and C# for the IEEE.", ["C plus plus and C sharp for the I triple E"],
     ["++", "#"]),
    ("abbreviation", "Check the I/O port.", ["I O port"], ["/", "slash"]),
    ("range", "The clinic is open 8:30-11 am only.", ["eight thirty to eleven AM only"], ["-", "thirty-eleven"]),
    ("range", "The gap from 9-10:45 is free.", ["nine to ten forty-five is free"], ["9-"]),
    ("range", "It ran in 1999-00 and 2003-04.",
     ["nineteen ninety-nine to two thousand", "two thousand three to oh four"],
     ["1999", "-0", "to zero", "to four"]),
    ("range", "The style of 1890-1910s faded.", ["eighteen ninety to nineteen tens faded"], ["-"]),
    ("range", "The new zoom is 2-3x better.", ["two to three x better"], ["-"]),
    ("range", "Walk 5 km-8 km each day.", ["five kilometers to eight kilometers each"], ["-"]),
    ("range", "Bids ran $5k-$9k last year.", ["five thousand dollars to nine thousand dollars"], ["-"]),
    ("fraction", "Only 2 / 7 of them came.", ["two sevenths of them"], ["/", "slash"]),
    ("fraction", "A 1/1000 chance.", ["one one thousandth chance"], ["/", "slash"]),
    ("cardinal", "It cost 2 500 000 in all.", ["two million five hundred thousand in all"], ["zero zero"]),
    ("money", "The inn asks $90/night in June.", ["ninety dollars per night in June"], ["/", "slash"]),
    ("money", "Tiles cost $4/sq ft now.", ["four dollars per square foot now"], ["/", "sq ft"]),
    ("measure", "Her heart beat 60 beats/min at rest.", ["sixty beats per minute at rest"], ["/", "min "]),
    ("measure", "Meet me at 7 W 34th St. at noon.", ["seven West thirty-fourth Street at noon"], ["watts", " St."]),
    ("date", "the fair opened may 5, 2019 and closed may 9th.", ["May fifth twenty nineteen", "May ninth"],
     ["five twenty", "nine th"]),
    ("time", "The bus leaves at 10:05 tonight and 7:08 pm.", ["ten o five tonight", "seven o eight PM"],
     ["oh five", "oh eight"]),
    ("roman", "He has Type II diabetes.", ["Type two diabetes"], ["II", "second"]),
    ("roman", "We watched Episode IV again.", ["Episode four again"], ["IV", "fourth"]),
    ("roman", "Read vol. III of the set.", ["volume three of the set"], ["III", "vol."]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order, language="en")
