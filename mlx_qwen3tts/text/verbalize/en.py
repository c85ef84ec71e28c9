"""English as it is read: US style numbers ("one hundred twenty-three", no "and"), month-day-year dates,
"two dollars fifty cents", "Chapter IV" as "Chapter four", "Louis XIV" as "Louis the fourteenth"."""

import re

from ..abbreviations import ABBREVIATIONS, BIBLE_ABBREVIATIONS
from .common import Spec, context, roman_value

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")

# The codes of the states of the United States (and of its capital district), said as the state's name after a
# place ("Austin, TX"); "OK", "OR", "IN", "ME", "HI" are also words and are left as written.
STATES = {"AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
          "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "ID": "Idaho", "IL": "Illinois",
          "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "MD": "Maryland",
          "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri",
          "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
          "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio",
          "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
          "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
          "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "DC": "D C"}

# Kinds of street, after NeMo text processing's address words (en/data/address/address_word.tsv, Apache License 2.0).
ADDRESS_WORDS = {"st": "Street", "street": "Street", "expy": "Expressway", "fwy": "Freeway", "hwy": "Highway",
                 "dr": "Drive", "rd": "Road", "road": "Road", "ct": "Court", "ave": "Avenue", "av": "Avenue",
                 "cir": "Circle", "blvd": "Boulevard", "alley": "Alley", "way": "Way", "jct": "Junction",
                 "ln": "Lane", "pkwy": "Parkway", "pl": "Place", "sq": "Square", "ter": "Terrace"}
PER_WRITTEN = {"sq meter": "square meter", "sq foot": "square foot", "cu foot": "cubic foot", "cu meter": "cubic meter",
               "class": "class", "'": "foot", '"': "inch"}
DIRECTIONS = {"N": "North", "S": "South", "E": "East", "W": "West"}

_DOLLAR = ("dollar", "dollars", "cent", "cents")
# More currencies, after NeMo text processing's currency table (en/data/money/currency_major.tsv, Apache License
# 2.0), with their minor units.
_HK, _NZ, _AU, _CA, _SG = ((f"{place} dollar", f"{place} dollars", "cent", "cents") for place in
                           ("Hong Kong", "New Zealand", "Australian", "Canadian", "Singapore"))
_DIRHAM = ("dirham", "dirhams", "fils", "fils")
CURRENCIES = {"HK$": _HK, "NZ$": _NZ, "A$": _AU, "AU$": _AU, "C$": _CA, "S$": _SG,
              "AUD": _AU, "CAD": _CA, "NZD": _NZ, "HKD": _HK, "SGD": _SG,
              "INR": ("rupee", "rupees", "paisa", "paise"), "Rs.": ("rupee", "rupees", "paisa", "paise"),
              "Rs": ("rupee", "rupees", "paisa", "paise"), "₨": ("rupee", "rupees", "paisa", "paise"),
              "CNY": ("yuan", "yuan", "fen", "fen"), "KRW": ("won", "won", "jeon", "jeon"),
              "BRL": ("real", "reais", "centavo", "centavos"), "฿": ("baht", "baht", "satang", "satang"),
              "₪": ("shekel", "shekels", "agora", "agorot"), "₱": ("peso", "pesos", "centavo", "centavos"),
              "₺": ("lira", "liras", "kurus", "kurus"), "₴": ("hryvnia", "hryvnias", "kopiyka", "kopiykas"),
              "₦": ("naira", "naira", "kobo", "kobo"), "₫": ("dong", "dong", "xu", "xu"),
              "₿": ("bitcoin", "bitcoins", "satoshi", "satoshis"), "SEK": ("krona", "kronor", "ore", "ore"),
              "NOK": ("krone", "kroner", "ore", "ore"), "DKK": ("krone", "kroner", "ore", "ore"),
              "CZK": ("koruna", "korunas", "haler", "halers"), "ZAR": ("rand", "rand", "cent", "cents"),
              "MXN": ("peso", "pesos", "centavo", "centavos"),
              # The rest of NeMo's major currencies (en/data/money/currency_major.tsv), with their minor units.
              "₡": ("colon", "colones", "centimo", "centimos"), "₭": ("kip", "kip", "att", "att"),
              "₮": ("tugrik", "tugriks", "mongo", "mongo"), "₲": ("guarani", "guaranis", "centimo", "centimos"),
              "₵": ("cedi", "cedis", "pesewa", "pesewas"), "₸": ("tenge", "tenge", "tiyn", "tiyn"),
              "₼": ("manat", "manats", "qapik", "qapiks"), "₾": ("lari", "lari", "tetri", "tetri"),
              "﷼": ("rial", "rials", "dinar", "dinars"), "DH": _DIRHAM, "Dh": _DIRHAM, "Dhs.": _DIRHAM,
              "Dhs": _DIRHAM, "AED": _DIRHAM, "PKR": ("Pakistani rupee", "Pakistani rupees", "paisa", "paise"),
              "NPR": ("Nepalese rupee", "Nepalese rupees", "paisa", "paise"),
              "SAR": ("Saudi riyal", "Saudi riyals", "halala", "halalas"),
              "TZS": ("Tanzanian shilling", "Tanzanian shillings", "cent", "cents"),
              # NeMo's codes of smaller or former currencies; "PHP" (the language) and "CRC" (the checksum) left out.
              "AWG": ("Aruban florin", "Aruban florins", "cent", "cents"),
              "CYP": ("Cypriot pound", "Cypriot pounds", "cent", "cents"),
              "CVE": ("Cape Verdean escudo", "Cape Verdean escudos", "centavo", "centavos"),
              "RSD": ("Serbian dinar", "Serbian dinars", "para", "paras"),
              "SHP": ("Saint Helena pound", "Saint Helena pounds", "penny", "pence"),
              "SSP": ("South Sudanese pound", "South Sudanese pounds", "piaster", "piasters"),
              "SCR": ("Seychellois rupee", "Seychellois rupees", "cent", "cents"),
              "MVR": ("Maldivian rufiyaa", "Maldivian rufiyaa", "laari", "laari"),
              "MRO": ("Mauritanian ouguiya", "Mauritanian ouguiyas", "khoums", "khoums"),
              "FIM": ("Finnish markka", "Finnish markkas", "penni", "pennia")}

# More units, after NeMo text processing's unit table (en/data/measure/unit.tsv, Apache License 2.0) and the
# cooking and time abbreviations people write; those that are also words ("bar", "mo", "d") are units only where
# they stand as one (`word_units`).
UNITS = {"amu": ("atomic mass unit", "atomic mass units"), "bar": ("bar", "bar"), "℃": ("degree Celsius",
         "degrees Celsius"), "℉": ("degree Fahrenheit", "degrees Fahrenheit"), "ºc": ("degree Celsius",
         "degrees Celsius"), "°c": ("degree Celsius", "degrees Celsius"), "°f": ("degree Fahrenheit",
         "degrees Fahrenheit"), "cm2": ("square centimeter", "square centimeters"),
         "cm3": ("cubic centimeter", "cubic centimeters"), "cwt": ("hundredweight", "hundredweight"),
         "db": ("decibel", "decibels"), "dm3": ("cubic decimeter", "cubic decimeters"),
         "dm": ("decimeter", "decimeters"), "GW": ("gigawatt", "gigawatts"), "gw": ("gigawatt", "gigawatts"),
         "GWh": ("gigawatt hour", "gigawatt hours"), "gwh": ("gigawatt hour", "gigawatt hours"),
         "kbps": ("kilobit per second", "kilobits per second"), "kgs": ("kilogram", "kilograms"),
         "km2": ("square kilometer", "square kilometers"), "km3": ("cubic kilometer", "cubic kilometers"),
         "kpa": ("kilopascal", "kilopascals"), "kwh": ("kilowatt hour", "kilowatt hours"),
         "kw": ("kilowatt", "kilowatts"), "mi2": ("square mile", "square miles"), "mi²": ("square mile", "square miles"),
         "cu mi": ("cubic mile", "cubic miles"), "mol": ("mole", "moles"), "MPa": ("megapascal", "megapascals"),
         "mpa": ("megapascal", "megapascals"), "ng": ("nanogram", "nanograms"),
         "ppm": ("part per million", "parts per million"), "p.p.m.": ("part per million", "parts per million"),
         "ppb": ("part per billion", "parts per billion"), "rpm": ("revolution per minute", "revolutions per minute"),
         "Sv": ("sievert", "sieverts"), "TJ": ("terajoule", "terajoules"),
         "μg": ("microgram", "micrograms"), "µg": ("microgram", "micrograms"), "μm": ("micrometer", "micrometers"),
         "μs": ("microsecond", "microseconds"), "Ω": ("ohm", "ohms"), "kΩ": ("kilohm", "kilohms"),
         "sq. ft.": ("square foot", "square feet"), "sq. mi.": ("square mile", "square miles"),
         "sq. ft": ("square foot", "square feet"), "sq. mi": ("square mile", "square miles"),
         "secs": ("second", "seconds"), "mins": ("minute", "minutes"), "hr": ("hour", "hours"),
         "hrs": ("hour", "hours"), "d": ("day", "days"), "wk": ("week", "weeks"), "wks": ("week", "weeks"),
         "mo": ("month", "months"), "mos": ("month", "months"), "yr": ("year", "years"), "yrs": ("year", "years"),
         "kph": ("kilometer per hour", "kilometers per hour"), "mpg": ("mile per gallon", "miles per gallon"),
         "fps": ("frame per second", "frames per second"), "tbsp": ("tablespoon", "tablespoons"),
         "Tbsp": ("tablespoon", "tablespoons"), "tsp": ("teaspoon", "teaspoons"), "cal": ("calorie", "calories"),
         "ds": ("decisecond", "deciseconds"), "rad": ("radian", "radians"), "mi3": ("cubic mile", "cubic miles"),
         "mi³": ("cubic mile", "cubic miles"),
         # More of NeMo's inverse normalization units (en/data/measurements.tsv, Apache License 2.0): electric,
         # data rates in bits and bytes, and a few of physics; "da", "au", "cd", "kt" also words (`word_units`).
         "Wh": ("watt hour", "watt hours"), "gWh": ("gigawatt hour", "gigawatt hours"), "gW": ("gigawatt",
         "gigawatts"), "tW": ("terawatt", "terawatts"), "TW": ("terawatt", "terawatts"),
         "mA": ("milliampere", "milliamperes"), "µA": ("microampere", "microamperes"),
         "μA": ("microampere", "microamperes"), "dA": ("deciampere", "deciamperes"), "kv": ("kilovolt", "kilovolts"),
         "ev": ("electron volt", "electron volts"), "eV": ("electron volt", "electron volts"),
         "keV": ("kiloelectron volt", "kiloelectron volts"), "MeV": ("megaelectron volt", "megaelectron volts"),
         "kn": ("kilonewton", "kilonewtons"), "kN": ("kilonewton", "kilonewtons"),
         "atm": ("atmosphere", "atmospheres"), "gpa": ("gigapascal", "gigapascals"),
         "GPa": ("gigapascal", "gigapascals"), "hl": ("hectoliter", "hectoliters"), "gl": ("gigaliter", "gigaliters"),
         "tl": ("teraliter", "teraliters"), "tj": ("terajoule", "terajoules"),
         "da": ("dalton", "daltons"), "kDa": ("kilodalton", "kilodaltons"), "au": ("astronomical unit",
         "astronomical units"), "bq": ("becquerel", "becquerels"), "Bq": ("becquerel", "becquerels"),
         "cd": ("candela", "candelas"), "gy": ("gray", "grays"), "Gy": ("gray", "grays"), "sv": ("sievert",
         "sieverts"), "kt": ("knot", "knots"),
         "Kb": ("kilobit", "kilobits"), "Mb": ("megabit", "megabits"), "Gb": ("gigabit", "gigabits"),
         "Tb": ("terabit", "terabits"), "Pb": ("petabit", "petabits"), "pb": ("petabit", "petabits"),
         "MA": ("megaampere", "megaamperes"), "PB": ("petabyte", "petabytes"),
         "bps": ("bit per second", "bits per second"), "Kbps": ("kilobit per second", "kilobits per second"),
         "Gbps": ("gigabit per second", "gigabits per second"), "Tbps": ("terabit per second", "terabits per second"),
         "Pbps": ("petabit per second", "petabits per second"),
         "KBps": ("kilobyte per second", "kilobytes per second"), "kB/s": ("kilobyte per second",
         "kilobytes per second"), "MBps": ("megabyte per second", "megabytes per second"),
         "MB/s": ("megabyte per second", "megabytes per second"), "GBps": ("gigabyte per second",
         "gigabytes per second"), "GB/s": ("gigabyte per second", "gigabytes per second"),
         "TBps": ("terabyte per second", "terabytes per second"), "PBps": ("petabyte per second",
         "petabytes per second"), "mcg": ("microgram", "micrograms"), "µl": ("microliter", "microliters"),
         "μl": ("microliter", "microliters"), "µL": ("microliter", "microliters"), "μL": ("microliter", "microliters"),
         "ft²": ("square foot", "square feet"), "ft2": ("square foot", "square feet"),
         "ft³": ("cubic foot", "cubic feet"), "in²": ("square inch", "square inches"),
         "mm³": ("cubic millimeter", "cubic millimeters"), "dL": ("deciliter", "deciliters"),
         "m.p.h.": ("mile per hour", "miles per hour"), "h.p.": ("horsepower", "horsepower"),
         "yds": ("yard", "yards"), "cu. ft.": ("cubic foot", "cubic feet"), "cu. in.": ("cubic inch", "cubic inches"),
         "sq. in.": ("square inch", "square inches"), "sq. yd.": ("square yard", "square yards"),
         "cL": ("centiliter", "centiliters"), "mmol": ("millimole", "millimoles"), "µmol": ("micromole", "micromoles"),
         "μmol": ("micromole", "micromoles"), "nmol": ("nanomole", "nanomoles"), "m/s²": ("meter per second squared",
         "meters per second squared"), "kms": ("kilometer", "kilometers"),
         # Square and cubic units written with a plain digit or a dotted "sq." ("50 m2", "100 sq. m").
         "m2": ("square meter", "square meters"), "m3": ("cubic meter", "cubic meters"),
         "mm2": ("square millimeter", "square millimeters"), "mm3": ("cubic millimeter", "cubic millimeters"),
         "sq. m": ("square meter", "square meters"), "sq. km": ("square kilometer", "square kilometers"),
         "sq yd": ("square yard", "square yards"), "sq in": ("square inch", "square inches"),
         "cu in": ("cubic inch", "cubic inches"), "km/hr": ("kilometer per hour", "kilometers per hour"),
         "fl oz": ("fluid ounce", "fluid ounces"), "fl. oz.": ("fluid ounce", "fluid ounces"),
         "fl. oz": ("fluid ounce", "fluid ounces"),
         # NeMo's inverse normalization writes hertz in small letters ("50 hz"); "K" (kelvin) and "st" (stone)
         # are left out: "10K" is ten thousand, "21st" an ordinal.
         "hz": ("hertz", "hertz")}


# Greek letters by name (after NeMo text processing's English whitelist, en/data/whitelist/tts.tsv, Apache License
# 2.0): "α-helix", "π is", "Δ of 3". Both cases, final sigma too.
GREEK = dict(zip("αβγδεζηθικλμνξοπρσςτυφχψω", ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu "
                                               "xi omicron pi rho sigma sigma tau upsilon phi chi psi omega").split()))
GREEK.update({letter.upper(): name for letter, name in GREEK.items() if letter != "ς"})


# The books of the Bible as English Bibles name them, before a chapter and verse.
BIBLE_BOOKS = ("Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy", "Joshua", "Judges", "Ruth", "Samuel",
               "Kings", "Chronicles", "Ezra", "Nehemiah", "Esther", "Job", "Psalms", "Psalm", "Proverbs", "Ecclesiastes",
               "Songs", "Isaiah", "Jeremiah", "Lamentations", "Ezekiel", "Daniel", "Hosea", "Joel", "Amos", "Obadiah",
               "Jonah", "Micah", "Nahum", "Habakkuk", "Zephaniah", "Haggai", "Zechariah", "Malachi", "Matthew", "Mark",
               "Luke", "John", "Acts", "Romans", "Corinthians", "Galatians", "Ephesians", "Philippians", "Colossians",
               "Thessalonians", "Timothy", "Titus", "Philemon", "Hebrews", "James", "Peter", "Jude", "Revelation",
               "Song of Solomon", "Song of Songs")


class English(Spec):
    code = "en"
    months = MONTHS
    month_abbreviations = {"Jan.": 0, "Feb.": 1, "Mar.": 2, "Apr.": 3, "Jun.": 5, "Jul.": 6, "Aug.": 7,
                           "Sep.": 8, "Sept.": 8, "Oct.": 9, "Nov.": 10, "Dec.": 11}
    date_order = "mdy"
    currencies = {"$": ("dollar", "dollars", "cent", "cents"), "US$": ("US dollar", "US dollars", "cent", "cents"),
                  "USD": ("US dollar", "US dollars", "cent", "cents"), "€": ("euro", "euros", "cent", "cents"),
                  "EUR": ("euro", "euros", "cent", "cents"), "£": ("pound", "pounds", "penny", "pence"),
                  "GBP": ("pound", "pounds", "penny", "pence"), "¥": ("yen", "yen", "sen", "sen"),
                  "JPY": ("yen", "yen", "sen", "sen"), "CHF": ("franc", "francs", "centime", "centimes"),
                  "₽": ("ruble", "rubles", "kopeck", "kopecks"), "RUB": ("ruble", "rubles", "kopeck", "kopecks"),
                  "₩": ("won", "won", "jeon", "jeon"), "R$": ("real", "reais", "centavo", "centavos"),
                  "₹": ("rupee", "rupees", "paisa", "paise"), "CA$": ("dollar", "dollars", "cent", "cents"),
                  **CURRENCIES}
    scales = {"thousand": ("thousand", "thousand"), "million": ("million", "million"),
              "billion": ("billion", "billion"), "trillion": ("trillion", "trillion"), "m": ("million", "million"),
              "bn": ("billion", "billion"), "b": ("billion", "billion"), "k": ("thousand", "thousand"),
              "B": ("billion", "billion"), "M": ("million", "million"), "K": ("thousand", "thousand"),
              "tn": ("trillion", "trillion"),
              # A scale written capitalized or as NeMo's quantity abbreviations have it ("$2 Million", "€3 mln").
              **{w: (said, said) for said in ("thousand", "million", "billion", "trillion") for w in
                 (said.capitalize(), said.upper())},
              "mln": ("million", "million"), "MLN": ("million", "million"), "BN": ("billion", "billion"),
              "Bn": ("billion", "billion"), "bln": ("billion", "billion"),
              # The Indian scales ("₹1.5 crore": "one point five crore rupees").
              "lakh": ("lakh", "lakh"), "crore": ("crore", "crore"), "lakhs": ("lakh", "lakh"),
              "crores": ("crore", "crore")}
    units = {"km": ("kilometer", "kilometers"), "kg": ("kilogram", "kilograms"), "cm": ("centimeter", "centimeters"),
             "mm": ("millimeter", "millimeters"), "m": ("meter", "meters"), "g": ("gram", "grams"),
             "mg": ("milligram", "milligrams"), "mi": ("mile", "miles"), "lb": ("pound", "pounds"),
             "lbs": ("pounds", "pounds"), "oz": ("ounce", "ounces"), "ft": ("foot", "feet"), "in": ("inch", "inches"),
             "ms": ("millisecond", "milliseconds"), "µs": ("microsecond", "microseconds"),
             "ns": ("nanosecond", "nanoseconds"), "min": ("minute", "minutes"), "h": ("hour", "hours"),
             "s": ("second", "seconds"), "sec": ("second", "seconds"), "l": ("liter", "liters"),
             "L": ("liter", "liters"), "ml": ("milliliter", "milliliters"), "mL": ("milliliter", "milliliters"),
             "TB": ("terabyte", "terabytes"), "GB": ("gigabyte", "gigabytes"), "MB": ("megabyte", "megabytes"),
             "kB": ("kilobyte", "kilobytes"), "KB": ("kilobyte", "kilobytes"), "KiB": ("kibibyte", "kibibytes"),
             "MiB": ("mebibyte", "mebibytes"), "GiB": ("gibibyte", "gibibytes"), "TiB": ("tebibyte", "tebibytes"),
             "Gbit/s": ("gigabit per second", "gigabits per second"),
             "Mbit/s": ("megabit per second", "megabits per second"),
             "Mbps": ("megabit per second", "megabits per second"),
             "°C": ("degree Celsius", "degrees Celsius"), "°F": ("degree Fahrenheit", "degrees Fahrenheit"),
             "°": ("degree", "degrees"), "º": ("degree", "degrees"), "ºC": ("degree Celsius", "degrees Celsius"),
             "ºF": ("degree Fahrenheit", "degrees Fahrenheit"), "km/h": ("kilometer per hour", "kilometers per hour"),
             "mph": ("mile per hour", "miles per hour"), "m/s": ("meter per second", "meters per second"),
             "m²": ("square meter", "square meters"), "km²": ("square kilometer", "square kilometers"),
             "m³": ("cubic meter", "cubic meters"), "cm²": ("square centimeter", "square centimeters"),
             "Hz": ("hertz", "hertz"), "kHz": ("kilohertz", "kilohertz"), "MHz": ("megahertz", "megahertz"),
             "GHz": ("gigahertz", "gigahertz"), "W": ("watt", "watts"), "kW": ("kilowatt", "kilowatts"),
             "kWh": ("kilowatt hour", "kilowatt hours"), "V": ("volt", "volts"),
             "mAh": ("milliamp hour", "milliamp hours"),
             "dB": ("decibel", "decibels"), "px": ("pixel", "pixels"), "pt": ("point", "points"),
             "ha": ("hectare", "hectares"), "t": ("ton", "tons"),
             "kcal": ("kilocalorie", "kilocalories"), "kJ": ("kilojoule", "kilojoules"),
             # Units written in lower case where the case tells nothing (NeMo's "850 mhz", "870 hp").
             "km³": ("cubic kilometer", "cubic kilometers"), "cm³": ("cubic centimeter", "cubic centimeters"),
             "dm³": ("cubic decimeter", "cubic decimeters"), "mm²": ("square millimeter", "square millimeters"),
             "mhz": ("megahertz", "megahertz"), "khz": ("kilohertz", "kilohertz"), "ghz": ("gigahertz", "gigahertz"),
             "mbps": ("megabit per second", "megabits per second"), "gb": ("gigabyte", "gigabytes"),
             "mb": ("megabyte", "megabytes"), "kb": ("kilobyte", "kilobytes"), "tb": ("terabyte", "terabytes"),
             "nm": ("nanometer", "nanometers"), "µm": ("micrometer", "micrometers"), "lm": ("lumen", "lumens"),
             "hp": ("horsepower", "horsepower"), "mW": ("milliwatt", "milliwatts"), "mV": ("millivolt", "millivolts"),
             "mv": ("millivolt", "millivolts"), "kV": ("kilovolt", "kilovolts"), "MW": ("megawatt", "megawatts"),
             "kl": ("kiloliter", "kiloliters"), "dl": ("deciliter", "deciliters"), "cl": ("centiliter", "centiliters"),
             "cc": ("c c", "c c"), "sq mi": ("square mile", "square miles"), "sq ft": ("square foot", "square feet"),
             "sq km": ("square kilometer", "square kilometers"),
             "sq m": ("square meter", "square meters"), "cu m": ("cubic meter", "cubic meters"),
             "cu ft": ("cubic foot", "cubic feet"), "kgf": ("kilogram force", "kilograms force"),
             "yd": ("yard", "yards"), "gal": ("gallon", "gallons"), "qt": ("quart", "quarts"), "pa": ("pascal",
             "pascals"), "kPa": ("kilopascal", "kilopascals"), "hPa": ("hectopascal", "hectopascals"),
             "v": ("volt", "volts"), **UNITS}
    range_word = "to"
    equals = "equals"
    number_sign = "number"
    ip_dot = "dot"
    word_units = frozenset({"in", "v", "bar", "mo", "d", "cal", "da", "au", "cd", "MA"})  # "5 v 3" is no volt
    score_word = "to"
    score_words = frozenset({"won", "win", "wins", "winning", "beat", "beats", "beating", "lost", "lose", "loses",
                             "losing", "defeated", "defeat", "drew", "draw", "tied", "score", "scored", "scores",
                             "victory", "lead", "led", "leads", "leading", "trailed", "trailing", "final", "halftime",
                             # a vote's count ("passed 52-48", "a 7-2 ruling" keeps its hyphen)
                             "passed", "vote", "voted", "votes", "approved", "rejected", "margin",
                             "half-time", "thrashed", "edged", "routed"})
    local_phones = True  # "555-1234"
    in_context = ("sq. ft.", "sq. mi.", "oz.", "lb.", "lbs.", "ft.", "mi.", "yd.", "gal.", "qt.", "tsp.", "tbsp.",
                  "dr.", "st.", "prof.", "ext.", "Ext.", "Rs.")
    group_spaces = "\u00a0\u202f\u2009"  # "3 100-page books" are three: a plain space groups no thousands
    ordinal_pattern = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(st|nd|rd|th|ST|ND|RD|TH)\b")  # "42ND STREET"
    number_abbreviations = {"No.": "number", "Nos.": "numbers", "no.": "number", "Fig.": "figure", "Figs.": "figures",
                            "Eq.": "equation", "Eqs.": "equations", "p.": "page", "pp.": "pages", "Vol.": "volume",
                            "Ch.": "chapter", "Sec.": "section", "Ste.": "Suite", "§": "section",
                            # The same written in lower case before a number ("see ch. 4", "fig. 2", "eq. 3").
                            "ch.": "chapter", "fig.": "figure", "figs.": "figures", "eq.": "equation",
                            "eqs.": "equations", "sec.": "section", "vol.": "volume", "art.": "article",
                            "para.": "paragraph", "§§": "sections"}
    name_abbreviations = {"Mr.": "Mister", "Mrs.": "Missus", "Dr.": "Doctor", "St.": "Saint", "Prof.": "Professor",
                          "Hon.": "Honorable", "Mt.": "Mount", "Maj.": "Major", "Rev.": "Reverend", "Gov.": "Governor",
                          "Capt.": "Captain", "Col.": "Colonel", "Gen.": "General", "Lt.": "Lieutenant",
                          "Sgt.": "Sergeant", "Drs.": "Doctors", "Ft.": "Fort", "Sen.": "Senator",
                          "Rep.": "Representative", "Pres.": "President", "Adm.": "Admiral", "Cmdr.": "Commander",
                          "Pvt.": "Private", "Cpl.": "Corporal", "Fr.": "Father", "Messrs.": "Messieurs",
                          "Supt.": "Superintendent",
                          # Titles written without their dot, as British English writes them ("Dr Jones").
                          "Mr": "Mister", "Mrs": "Missus", "Dr": "Doctor", "St": "Saint", "Prof": "Professor"}
    roman_before = ("Chapter", "chapter", "Part", "part", "Volume", "volume", "Book", "book", "Act", "act",
                    "Scene", "scene", "Section", "Appendix", "Article", "World War", "Phase", "Title",
                    # A numbered kind, not a name: a cardinal ("Type II", "Episode IV"), as NeMo's roman grammar
                    # reads a numeral after a key word (a regnal ordinal only after a name).
                    "Vol.", "vol.", "Episode", "episode", "Type", "type", "Class", "class", "Grade", "grade",
                    "Level", "level", "Stage", "stage", "Mark", "Model", "Series", "Round", "Tier", "Category",
                    "Division", "Apollo", "Gemini", "Super Bowl", "Star Wars", "Final Fantasy", "Windows", "Psalm",
                    "Canto", "Plate", "Table", "Figure", "Annex", "Schedule", "Amendment", "Rule", "Exhibit",
                    "Track", "Lesson", "Unit", "Step", "Form", "Division", "Corps", "Army", "Olympiad",
                    # Spacecraft and rockets of a numbered series ("Mariner I", "Saturn V"): "Mariner one".
                    "Mariner", "Pioneer", "Surveyor", "Vostok", "Voskhod", "Sputnik", "Venera", "Soyuz", "Saturn",
                    "Vanguard")
    roman_after = ("century",)
    menu_words = frozenset({"File", "Edit", "View", "Image", "Layer", "Layers", "Colors", "Tools", "Filters", "Windows",
                            "Help", "Preferences", "Settings", "Insert", "Format", "Select", "New", "Open", "Save",
                            "Menu", "Options", "Table"})
    symbols = {"±": "plus or minus", "×": "times", "→": "to", "←": "from", "&": "and", "§": "section",
               "≈": "approximately", "≤": "less than or equal to", "≥": "greater than or equal to", "−": "minus",
               "°": "degrees", "½": "one half", "¼": "one quarter", "¾": "three quarters", "‰": "per mille",
               "~": "about"}
    fractions = {(1, 2): "one half", (1, 4): "one quarter", (3, 4): "three quarters"}
    _decade = re.compile(r"(?<![\w.,'’])['’]?(\d{1,3}0)['’]?s\b")
    # The twenty-four hour clock in four digits after a word that tells a time and before "hours" ("at 0800 hours":
    # "zero eight hundred hours"; "1500 hours of work" is a count).
    _military = re.compile(r"\b((?:[Aa]t|[Bb]y|[Uu]ntil|[Tt]ill|[Ff]rom|[Bb]efore|[Aa]fter|[Ss]ince|[Tt]o)\s)"
                           r"([01]\d|2[0-3])([0-5]\d)\s(?:hours|hrs)\b")
    # A race's time with tenths ("3:45.2"): minutes and seconds.
    _race_time = re.compile(r"(?<![\w.,:])(\d{1,2}):([0-5]\d)\.(\d{1,3})(?![\w:]|[.,]\d)")
    _time_ampm = re.compile(r"(?<![\w:.,])(1[0-2]|0?\d)(?:[:.]([0-5]\d))?\s?([ap])\.?\s?m\b\.?(?=\W|$)", re.I)
    _time_range = re.compile(r"(?<=\b[AP]M)\s?[-–]\s?(?=\w)")  # "2pm-5pm": "two PM to five PM"
    # "2-3pm", "7:30-8 pm": the first hour takes the second's AM or PM
    _hour_range = re.compile(r"(?<![\w.,:-])(\d{1,2}(?::[0-5]\d)?)\s?[-–]\s?(?=\d{1,2}(?:[:.][0-5]\d)?\s?[ap]\.?m\b)",
                             re.I)
    # An hour to a time ("8-10:30": "eight to ten thirty"), and a year to a decade ("1880-1890s").
    _hour_to_clock = re.compile(r"(?<![\w.,:/-])([01]?\d|2[0-4])\s?[-–]\s?(?=(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:]))")
    _year_to_decade = re.compile(r"(?<![\w.,:/-])(1[5-9]\d\d|20\d\d)\s?[-–]\s?(?=(?:1[5-9]|20)?\d0s\b)")
    # A decade to a year ("1990s-2005"), and two years written short ("'90-'95": "ninety to ninety-five"), as NeMo's
    # range grammar reads a span of years.
    _decade_to_year = re.compile(r"(?<![\w.,'’])((?:1[5-9]|20)\d0s)\s?[-–]\s?(?=(?:1[5-9]|20)\d\d\b(?![.,]\d))")
    _short_years = re.compile(r"(?<![\w'’])['’](\d\d)\s?[-–]\s?['’](\d\d)(?![\w'’])")
    # A year and the last two digits of one in its next decade: "1999-00", "2000-05" ("two thousand to oh five").
    _year_oh = re.compile(r"(?<![\w.,:/-])((?:1[5-9]|20)\d\d)\s?[-–]\s?(0\d)(?![\w-]|[.,]\d)")
    # A range with its unit after both numbers ("10 km-20 km") or a scale after both prices ("$10k-$20k").
    _scaled_price_range = re.compile(r"(?<=\d[kKmMbB])\s?[-–]\s?(?=[$€£¥₹]\d)")
    _worded_price_range = re.compile(r"(?<=\d\s)(thousand|million|billion|trillion)\s?[-–]\s?(?=[$€£¥₹]\d)")  # "$5 million-$8 million"
    _ordinal_range = re.compile(r"(?<![\w.,])(\d+(?:st|nd|rd|th))\s?[-–]\s?(?=\d+(?:st|nd|rd|th)\b)")  # "1st-3rd"
    _percent_range = re.compile(r"(?<=\d%)\s?[-–]\s?(?=\d+(?:\.\d+)?\s?%)")  # "10%-20%"
    # "between 3-5 days": after "between" a dash between two numbers is said "and" ("between three and five days").
    _between = re.compile(r"\b([Bb]etween\s(?:about\s|roughly\s)?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(\s?%|[a-zA-Z]{1,3})?"
                          r"\s?[-–]\s?(?=\d)")
    # "5x faster", "3x as much": a number with "x" before a comparison is a multiple ("five times"); alone ("4.4x")
    # NeMo says the letter.
    _times_alone = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)[xX×](?=\s(?:[a-z]{2,}er|more|less|as|the|over)\b)")
    # Pence written with "p" after the number: "50p", "a 2p coin" (a video's "720p" has three digits and more).
    _pence = re.compile(r"(?<![\w.,£$€-])(\d{1,2})p\b(?!\.\s?m\b|\.\w|['’-])")
    # A span of months: "Jan-Mar", "June–August" ("January to March").
    _month_range = re.compile(r"\b(" + "|".join(MONTHS) + r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?\s?[-–]\s?("
                              + "|".join(MONTHS) + r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b\.?")
    _at_least = re.compile(r"(?<=\d)\+(?=\s[a-z]|$)")  # "5+ years": "five plus years"
    # A multiplier span, as NeMo's range grammar reads one: "5x-7x" ("five to seven x"; a lone "4.4x", "2x8" keep
    # their "x", as its deterministic grammar says them); "3*4": "three times four".
    _times_span = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)[xX]?\s?[-–]\s?(\d+(?:\.\d+)?)([xX])(?!\w)")
    # A Greek letter alone, read before the numbers ("π is 3.14"); one touching a letter or after a number ("ΔT",
    # "2θ") after the units ("5 μm", "10 Ω", "kΩ"), with the symbols.
    _greek_alone = re.compile(r"(?<![\w\u0370-\u03ff])(?<!\d\s)[" + "".join(GREEK) + r"](?![\w\u0370-\u03ff])")
    _greek = re.compile(r"(?<![\u0370-\u03ff])[" + "".join(GREEK) + r"](?![\u0370-\u03ff])")
    # Abbreviations whose dot never ends a sentence, also before a capital: "a.k.a. Bob", "e.g. Paris", "vs. Smith".
    _runs_on = re.compile(r"(?<![\w.])(a\.k\.a\.|e\.g\.|i\.e\.|vs\.|cf\.)(?=\s+[A-Z])")
    # A verse of the Bible: "John 3:16" John three sixteen, "Romans 13:8", "2 Corinthians 3:1-2" (not a score or a time).
    _verse = re.compile(r"\b(" + "|".join(BIBLE_BOOKS) + "|" + "|".join(re.escape(a) for a in BIBLE_ABBREVIATIONS)
                        + r")\s(\d{1,3}):(\d{1,3})(?:[-–](\d{1,3}))?(?![\d:])")
    # An amount that describes the noun after it is said in the singular: after "a" or another determiner "a $10
    # bill" a ten dollar bill, "a $500 fine", "the $5 fee", "his $300 suit", "a $20 million deal" (not "a $100 or
    # so", "a $5 a month", "the $5 you owe"); joined to it by a hyphen after any word ("the $90-per-share bid").
    _attributive_money = re.compile(r"\b(\w+)\s([$£€])(\d{1,3}(?:,\d{3})*|\d+)(?:\s(thousand|million|billion))?"
                                    r"(?=([\s-])([a-z]+))")
    _not_described = frozenset({"or", "and", "to", "a", "an", "per", "each", "in", "of", "for", "more", "less", "plus",
                                "worth", "apiece", "than", "on", "at", "by", "from", "with", "up", "off", "back",
                                # after "the", "his": the amount is what a clause speaks of ("the $5 you owe me")
                                "i", "you", "he", "she", "it", "we", "they", "that", "which", "who", "was", "is",
                                "are", "were", "will", "would", "could", "should", "can", "must", "may", "might",
                                "had", "has", "have", "did", "does", "do", "just", "now", "today", "here", "there",
                                "already", "still", "went", "goes", "paid", "left", "spent", "saved"})
    # The words before an amount that make it describe the noun after it: articles and other determiners.
    _describing = frozenset({"a", "an", "the", "this", "that", "his", "her", "their", "our", "your", "my", "its",
                             "every", "each", "another", "any", "no"})
    # A recipe's temperature written without "°" ("a hot oven (425 F)", "bake at 375 F. for"; the abbreviation's dot
    # before the sentence goes on dropped): degrees where the text speaks of an oven or of baking, roasting, frying.
    _oven = re.compile(r"\b(?:[Oo]vens?|[Bb]ak(?:e|es|ed|ing)|[Rr]oast(?:s|ed|ing)?|[Pp]reheat(?:s|ed|ing)?|[Ff]ry|[Ff]rying"
                       r"|[Bb]roil(?:s|ed|ing)?)\b")
    _bare_degrees = re.compile(r"(?<![\w.,°])(\d{2,3})\s?([FC])(?:\.(?=\s+[a-z\d]))?(?![\w'’&+-])")
    _number_compound = re.compile(r"\d+(?:-(?=[a-z]*[aeiouy])[a-z]{2,})+")
    _cent_sign = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?¢")  # "25¢": "twenty-five cents"
    # A pound written with a capital L, as typewriters without "£" wrote it: an amount with a thousands comma or with
    # pence ("L45,000", "L2.50"), or any amount after a verb of paying ("fined L140"); "L1 cache", "L298" stay codes.
    _pound_l = re.compile(r"(?<![\w$£.,])L(?=\d{1,3}(?:,\d{3})+(?:\.\d\d)?(?![\w,.]\d|\w)|\d+\.\d\d(?![\w.]\d|\w))")
    _paid_l = re.compile(r"\b((?i:fined|cost|costs|paid|pay|pays|charged|worth|owed|owes|earned|earns|won)"
                         r"(?:\s(?:him|her|them|us|me|you))?)\sL(?=\d+(?![\w.,]\d|\w))")
    # A sum or an equation with a letter ("x + 1 = 2"): the operators said as in "2 + 3 = 5".
    _letter_plus = re.compile(r"(?<![\w.])([a-zA-Z])\s?\+\s?(?=\d|[a-zA-Z](?!\w))|(?<=\d)\s?\+\s?(?=[a-zA-Z](?!\w))")
    # A number grouped the Indian way, by two digits above the thousands ("5,00,000", "1,25,50,000"): its value.
    _indian_grouping = re.compile(r"(?<![\w.,])\d{1,2},(?:\d\d,){1,6}\d{3}(?![\w,]|\.\d)")
    # A score with a decimal over a whole number ("9.5/10", "4.5/5 stars"): "out of".
    _rating = re.compile(r"(?<![\w.,/])(\d{1,2}\.\d)\s?/\s?(5|10|20|100)(?![\w/]|[.,]\d)")
    # A number in E notation with a negative exponent ("1.23e-4"): the minus said.
    _e_minus = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE][-−](\d{1,3})(?!\w|[.,]\d)")
    # A model's name with a slash before its number ("System/360", "OS/2", "AS/400"): no slash said, a three-digit
    # number in pairs as a year's ("three sixty").
    _model_slash = re.compile(r"\b([A-Z][A-Za-z]{1,9})/(\d{1,3})(?![\w/]|[.,]\d)")
    # A model's plural after a hyphen ("BlueField-3s", "Earth-2s"): the number's plural, not seconds.
    _model_plural = re.compile(r"(?<=[A-Za-z])(?<!\ds)-(\d{1,2})s\b")  # not "1960s-80s"
    _letter_equals = re.compile(r"(?<![\w.])([a-zA-Z])\s=\s(?=\d|[a-zA-Z](?!\w))|(?<=\d)\s=\s(?=[a-zA-Z](?!\w))")
    # A count with a scale's letter ("1.2M users", "3B people", "40bn tokens"): millions and billions. "2B" alone may
    # be a pencil's or a flat's, so only before a plural noun ("users", "people") or, for M, bn and mn, a stop; a
    # model's size is said by its letter ("7B models" seven B models, as "Mistral-7B").
    _scaled_count = re.compile(r"(?<![\w.,$€£¥₹])(\d+(?:\.\d+)?)(M|B|bn|mn)(?=\s(?:(?!models\b)[a-z]{2,}s|people|men|women|"
                               r"children)\b|(?<!B)[.,;:!?](?:\s|$))")
    _star = re.compile(r"(?<=\d)\s?\*\s?(?=\d)")
    _clock_range = re.compile(r"(?<=\d:\d\d)\s?[-–]\s?(?=\d{1,2}:\d\d)")  # "10:00-11:30": "ten o'clock to eleven thirty"
    _decade_range = re.compile(r"(?<![\w.,'’])(['’]?\d{1,3}0['’]?s)\s?[-–]\s?(?=['’]?\d{1,3}0['’]?s\b)")
    # A fraction with its denominator's ordinal ending ("1/4th").
    _ordinal_fraction = re.compile(r"(?<![\w.,/])(\d{1,2})/(\d{1,2})(?:st|nd|rd|th)\b", re.I)
    # "Mr." and "Mrs." are titles before any name, also written in lower case ("mr. dao").
    # So are "dr.", "prof." and the like, and "st." (Saint) where no capitalized word (a street's name) comes before
    # it: NeMo's inverse normalization whitelist reads "dr. dao", "st. louis" so.
    _title = re.compile(r"(?<![\w.])([Mm]rs?|dr|drs|prof|st|capt|rev|sgt)\.(?=\s\w)")
    _not_after_saint = frozenset({"and", "or", "in", "at", "on", "near", "by", "is", "was", "to", "from", "with"})
    _lower_titles = {"dr": "doctor", "drs": "doctors", "prof": "professor", "st": "saint", "capt": "captain",
                     "rev": "reverend", "sgt": "sergeant"}
    # "1428 Elm St.": a street after a house number and a name (elsewhere "St. Louis" stays Saint).
    _street = re.compile(r"(?<=\d\s)((?:[A-Z][a-z]+\s){1,3})St\.")
    # "Main St. in town", "on Elm St., then": a street after its name where no name follows (a saint's does).
    _named_street = re.compile(r"(?<=[a-z]\s)((?:[A-Z][a-z]+\s){1,3})St\.(?=\s+[a-z]|\s*[,;:)])")
    # A street address, as NeMo's measure grammar reads one: a house number, maybe a direction, the street's name and
    # its kind ("2788 San Tomas Expy", "12 N. Oak Ave."); the number is said in pairs ("twenty-seven eighty-eight").
    _address = re.compile(r"(?<![\w.,/-])(\d{1,5})(\s[NSEW]\.?)?((?:\s(?:[A-Z][\w'-]*|\d{1,3}(?:st|nd|rd|th)))"
                          r"{1,3})\s(" +
                          "|".join(w[0].upper() + w[1:] for w in ADDRESS_WORDS) + "|" + "|".join(w for w in ADDRESS_WORDS
                                                                                   if w != ADDRESS_WORDS[w].lower()) +
                          r")\b(\.?)")
    # A slash between words is said ("TCP/IP", "upgrade/update"); "and/or" is "and or".
    _word_slash = re.compile(r"(?<![\w/.:])[A-Za-z]{2,}(?:\s?/\s?[A-Za-z]{2,})+(?![\w/]|\.\w)")
    _duration = re.compile(r"(?<![\w.,])(\d{1,3})\s?h\s?([0-5]?\d)\s?m(?:in)?(?:\s?([0-5]?\d)\s?s)?\b")
    _minutes_seconds = re.compile(r"(?<![\w.,])(\d{1,3})\s?m(?:in)?\s?([0-5]?\d)\s?s\b")  # "2m 30s"
    # A score of three digits after a word that tells a match ("The Lakers won 102-99").
    _long_score = re.compile(r"(?<![\w.,:/-])(\d{1,3})\s?[-–]\s?(\d{1,3})(?![\w:/%]|[.,:-]\d)")
    # Numbers called by their digits: emergency and service lines ("call 911", "dial 999").
    _service_line = re.compile(r"\b((?:[Cc]all|[Dd]ial|[Pp]hon|[Rr]ing|[Tt]ext)(?:e|s|es|ed|ing)?\s)"
                               r"(911|999|112|000|111|"
                               r"988|311|411|211|511|811)\b(?![.,]\d)")
    _versus = re.compile(r"(?<=\w\s)(?<!\bthe\s)(?<!\b[Aa]\s)vs(?=\s\w)")  # not "the vs code"
    _circa = re.compile(r"(?<![\w.])ca?\.\s?(?=\d{3,4}(?:s|\s?(?:BC|AD|BCE|CE|B\.C\.|A\.D\.))?(?![\w.,]\w))")
    _quarter = re.compile(r"(?<![\w.,])([1-4])Q(\d{2}|\d{4})\b")  # "2Q22": the second quarter of twenty-two
    _negative_price = re.compile(r"(?<![\w.,)-])[-−](?=[$€£¥₹₽₩]\d)")
    _half = re.compile(r"(?<![\w.,])([12])H(\d{2}|\d{4})\b")  # "1H23": the first half of twenty-three
    # A year and its era: "1200 BC", "123 A.D." ("one twenty-three"), "44 B.C.E."; two, a range ("427-347 BC").
    _era = re.compile(r"(?<![\w.,])(?:(\d{1,4})\s?[-–]\s?)?(\d{1,4})\s?(A\.\s?D\.|B\.\s?C\.(?:\s?E\.)?|C\.\s?E\.|AD|BCE"
                      r"|BC|CE)(?!\w)")
    # A decade written apart from its "s" ("the 1980 s"), as NeMo's date grammar takes it.
    _spaced_decade = re.compile(r"(?<![\w.,'’])(1[89]\d0|20\d0) s\b(?!['’])")
    # "2012.01.05" (two digits each, so that a version "2012.1.5" stays one).
    _dotted_iso = re.compile(r"(?<![\w./-])(\d{4})\.(\d\d)\.(\d\d)(?![\w.]|,\d)")
    _resolution = re.compile(r"(?<![\w.,])(480|576|720|1080|1440|2160|4320)([pi])\b")  # "1080p": "ten eighty p"
    _unit_dot = re.compile(r"(?<=\d)(\s?(?:oz|lbs?|ft|mi|yd|gal|qt|pt|tsp|tbsp|sq\. ft|sq\. mi|mins?|hrs?|secs?|yds|wks?"
                           r"|yrs?))\.(?=\s+[a-z\d])")
    # "3 in. of rain", "4 in. tall": inches where a word follows the dot ("in" alone before a word is the preposition).
    # A recipe's short measures with a dot before an ingredient ("1 t. salt", "2 T. butter", "1/2 c. milk", "2 Tbs.
    # sugar"): teaspoon, tablespoon, cup; pint before "of" ("2 pt. of cream"; "12 pt. type" is the typographer's
    # point). "t" alone is a ton only in metric writing, without a dot.
    _cooking_dot = re.compile(r"(?<![\w.,/])((?:\d{1,2}\s)?\d{1,2}/\d{1,2}|\d+(?:\.\d+)?)\s?(t|T|c|C|Tbs|tbs|Tbsp|pts?(?=\.\sof\s))\.(?=\s[a-z])")
    # "60 sq. yards": "sq." before a unit written out.
    _square_word = re.compile(r"\b[Ss]q\.\s?(?=(?:feet|foot|yards?|miles?|meters?|metres?|inch(?:es)?|kilometers?)\b)")
    _inch_dot = re.compile(r"(?<![\w.,/])(\d+(?:\.\d+)?)\s?in\.(?=\s+[a-z])")
    # A size written with the inch or foot mark after a number ("a 27\" monitor", "2\" of rain"): a straight
    # double quote only where no quotation is open before it; a foot or inch prime always.
    _inch_mark = re.compile(r"(?<![\w.,/'’\"])(\d+(?:\.\d+)?)(\"|″|′)(?![\w\"'’])")
    # A measure that qualifies a noun, written with a hyphen: "a 5-lb bag" ("a five pound bag", one unit).
    # Words after a measure that are no noun it qualifies: "5 ft tall", "2 kg of", "3 km away".
    _not_nouns = frozenset({"of", "in", "and", "or", "to", "by", "tall", "wide", "long", "high", "deep", "thick",
                            "across", "away", "ago", "old", "per", "from", "off", "down", "above", "below", "over",
                            "under", "into", "onto", "for", "with", "than", "more", "less", "each", "apart", "later",
                            "earlier", "behind", "ahead", "too", "at", "on", "was", "were", "are", "is", "has", "had",
                            "total", "only", "then", "now", "before", "after", "around", "about", "between", "here",
                            "there", "instead", "overall", "altogether", "last", "next", "since", "until", "while",
                            "when", "where", "which", "that", "the", "each", "every", "but", "not", "lower", "higher"})
    _adjective_before = frozenset({"a", "an", "the", "this", "that", "each", "every", "one", "his", "her", "my",
                                   "our", "your", "their", "its"})
    # The same with a degree mark joined to the number: "a 360° view" ("a three hundred sixty degree view").
    _degree_mark = re.compile(r"(?<![\w.,/])(\d+(?:\.\d+)?)([°º][CF]?)(?=\s+[a-z])")
    _degrees_letter = re.compile(r"\b(degrees?)\s([CF])\b(?!\.\w|['’])")
    _feet_inches = re.compile(r"(?<![\w.'’])(\d{1,2})\s?['’′]\s?(\d{1,2}(?:\.\d)?)\s?(?:\"|”|″|'')(?!\w)")
    _point_number = re.compile(r"(?<![\w.,])\.(\d+)(?![\w.]|,\d)")  # ".02": "point zero two"
    # A gun's caliber in hundredths of an inch: ".45 caliber", "a .22 rifle" twenty-two, ".357 Magnum" three fifty-seven
    _caliber = re.compile(r"(?<![\w.,])\.(\d{2,3})(?=[\s-](?:caliber|calibre|[Mm]agnum|[Ss]pecial|rifle|pistol|revolver"
                          r"|automatic|Colt|ACP|Winchester|Remington|bullet|slug|round|cartridge|shell|handgun)s?\b)")
    # Months in any case but the verb "may"; "Jan. 15", "JAN 15 2020", "Jan-15-2020", "25th July 2012".
    _MONTH = (r"(?!may\b(?!,?\s\d{4}\b)(?!\s\d{1,2}(?:st|nd|rd|th\b|,?\s\d{4}\b)))(?i:" + "|".join(MONTHS) + r"|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?)")
    _written_date = re.compile(r"\b(" + _MONTH + r")[\s-](\d{1,2})(?:st|nd|rd|th)?(?:(?:,?\s|-)(\d{4}))?\b(?![.,]\d)")
    _short_month_year = re.compile(r"\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)(?=\s\d{4}\b)")  # "Sept 2019"
    # A year and the next one's last two digits: "2020/21" ("twenty twenty to twenty-one"), a fiscal or school year.
    _year_slash = re.compile(r"(?<![\w./-])((?:1[89]|20)\d\d)/(\d\d)(?![\w/]|[.,]\d)")
    _volume_roman = re.compile(r"\b([Vv])ol\.\s(?=[IVXLC]+\b)")
    # A regnal number before a possessive: "Elizabeth II's reign" ("Elizabeth the second's").
    # A Roman numeral with an ordinal's ending ("the XIVth century", "the IIIrd edition"): the ordinal.
    _roman_ordinal = re.compile(r"\b([IVXLC]{2,}|[VX])(st|nd|rd|th)\b")
    # "King George I", "Queen Elizabeth I": after a title and a name, "I" is the first of the name.
    _first_regnal = re.compile(r"\b((?:King|Queen|Pope|Tsar|Czar|Emperor|Empress|Kaiser|Sultan|Pharaoh|Prince|"
                               r"Princess|Duke|Tsarina)\s[A-Z][a-z]{2,})\sI(?![\w-]|\.\w|['’](?!s\b))")
    _regnal_possessive = re.compile(r"\b([A-Z][a-z]{2,})\s(X{0,3}(?:IX|IV|V?I{0,3}))(?=['’]s\b)")
    _day_month = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?(?:\s(?:of\s)?|-(?=\w+-\d{4}))(" + _MONTH +
                            r")(?:(?:,?\s|-)(\d{4}))?\b")  # "12 Aug 1890", "12-Aug-1890"
    # Spans of days in one month: "May 1-3", "1–3 May 2020", "12th-15th June", "from 1 to 3 March", "between 5 and
    # 10 June" ("the first to the third of May"); the month's name said once, as it is written.
    _month_span = re.compile(r"\b(" + _MONTH + r")\s(\d{1,2})(?:st|nd|rd|th)?\s?[-–]\s?(\d{1,2})(?:st|nd|rd|th)?"
                             r"(?:,?\s(\d{4}))?\b(?![.,:]\d)")
    _day_span = re.compile(r"(?<![\w.,:/-])(\d{1,2})(?:st|nd|rd|th)?(\s?[-–]\s?|\sto\s|\sand\s)(\d{1,2})"
                           r"(?:st|nd|rd|th)?\s(?:of\s)?(" + _MONTH + r")(?:,?\s(\d{4}))?\b")

    proper_fractions_to = 99
    # Written like fractions, said as their numbers: "open 24/7", "a 50/50 chance".
    numbers_with_slash = frozenset({"24/7", "9/11", "50/50", "20/20", "60/40", "70/30", "80/20", "90/10", "365/24/7"})
    # A fraction as NeMo reads one: any whole numbers either side of the slash, a whole number before it ("2 142/1"),
    # the denominator maybe with its ordinal ending ("1/4th").
    _any_fraction = re.compile(r"(?<![\w.,/:-])(?:(\d{1,3}(?:,\d{3})+|\d{1,6})\s)?(\d{1,5})/(\d{1,5})"
                               r"(?:(?:st|nd|rd|th)s?)?"
                               r"(?![\w/:]|[.,]\d)", re.I)
    _spaced_slash = re.compile(r"(?<!/\s)(?<![\w.,/:-])(\d{1,5}) / (\d{1,5})(?:st|nd|rd|th)?(?![\w/:]|[.,]\d|\s/)")
    # "2-1/2 inches": a whole and a proper fraction joined by a hyphen, as US measures write them.
    _hyphen_mixed = re.compile(r"(?<![\w.,/:-])(\d{1,3})-([1-9]\d?)/([1-9]\d?)(?![\w/:-]|[.,]\d)")
    # An inch mark after a fraction: '7/8"', '1-1/2"' ("seven eighths inch").
    _fraction_inch = re.compile(r"(?<![\w.,/:\"“-])((?:\d{1,3}[\s-])?[1-9]\d?/[1-9]\d?)[\"″”](?!\w)")
    _negative_fraction = re.compile(r"(?<![\w.,/:-])[-−](?=(?:\d{1,6}\s)?\d{1,5}/\d{1,5}(?![\w/:]|[.,]\d))")  # "-1/2"
    # "11/17/05": a month, day and two-digit year (day first where the first number cannot be a month).
    _short_date = re.compile(r"(?<![\w.,/-])(\d{1,2})([/-])(\d{1,2})\2(\d{2})(?![\w/-]|[.,]\d)")
    # Four digits whose hundreds digit is not zero, written without a separator: "twenty-one hundred".
    _hundreds = re.compile(r"[1-9][1-9]\d\d")
    # "1-800-555-0199", "1-800-GO-U-HAUL": a toll-free number, its "800" said "eight hundred".
    # A toll-free or a lettered ("vanity") number: "1-800-FLOWERS", "800-555-HELP", "1-888-GO-FEDEX" ("one, eight
    # eight eight, GO FEDEX"), as NeMo's telephone grammar reads them (seven digits or letters after the area code).
    _toll_free = re.compile(r"(?<![\w+-])(?:(\+?1)[-.\s])?(\(\d{3}\)\s?|\d{3}[-.\s])"
                            r"(\d{3}[-.\s]?\d{4}|[A-Z\d][A-Z\d-]{4,}[A-Z\d])(?![\w-]|[.,]\d)")
    # A telephone number's extension: up to four digits after it and a space, before no word ("123-123-5678 12").
    _extension = re.compile(r"(?<![\w-])(\d{3}([-.])\d{3}\2\d{4})\s(\d{1,4})(?=\s*(?:$|[.,;)]))")
    # A country code written without its plus before a number of three, three and four digits ("91 123-123-5678":
    # "nine one, one two three, ..."), and a number of an area code and seven digits ("123-1234567").
    _bare_country = re.compile(r"(?<![\w.,+-])(\d{1,3})\s(?=\d{3}-\d{3}-\d{4}(?![\w-]|[.,]\d))")
    _seven_digits = re.compile(r"(?<![\w.,+-])(\d{3})-(\d{7})(?![\w-]|[.,]\d)")
    # Thousands apart by plain spaces where a group begins with a zero ("1 000 000", "3 050"): one number, since no
    # number is written with a leading zero after another (a plain space elsewhere groups nothing: "3 100-page").
    _spaced_thousands = re.compile(r"(?<![\w.,])(?<!\d\s)[1-9]\d{0,2}(?:\s\d{3})+(?![\w]|[.,]\d|\s\d)")
    # A telephone number in groups apart by spaces: three, three and four digits ("415 555 0123"), or a trunk zero
    # first ("020 7946 0958").
    _spaced_phone = re.compile(r"(?<![\w.,+-])(?<!\d\s)(?:\d{3}\s\d{3}\s\d{4}|0\d{2,4}\s\d{3,4}\s\d{3,4})"
                               r"(?![\w]|[.,]\d|\s\d)")
    # A number led by a trunk zero, in groups joined by hyphens or a mobile's five and six ("020-7946-0958",
    # "07700 900123"): a telephone number, digit by digit.
    _zero_led_phone = re.compile(r"(?<![\w.,+-])(?:0\d{2,4}-\d{3,4}-\d{3,4}|0\d{4}\s\d{6})(?![\w-]|[.,]\d|\s\d)")
    # Seven digits in two groups after a word that asks for a number ("call 555 0199", "fax: 555 0123").
    _cued_local = re.compile(r"\b((?:[Cc]all|[Dd]ial|[Pp]hone|[Rr]ing|[Ff]ax|[Tt]el\.?)(?:\s(?:us|me|them|him|her))?"
                             r"(?:\s(?:on|at))?:?\s)(\d{3})\s(\d{4})(?![\w]|[.,]\d|\s\d)")
    # "Ext. 204" without a number before it: the extension, digit by digit.
    _extension_alone = re.compile(r"\b[Ee]xt\.?\s(\d{1,5})\b(?![.,]\d)")
    # A payment card's number without a cue, as NeMo's telephone grammar reads one: four groups of four digits, or
    # four, six and four or five (American Express), digit by digit ("4111 1111 1111 1111").
    _card_number = re.compile(r"(?<![\w.,-])([1-9]\d{3})([ -])(\d{4}\2\d{4}\2\d{4}|\d{6}\2\d{4,5})(?![\w-]|[.,]\d)")
    # A telephone number's extension written with its word: "555-0123 ext. 42", "x204" ("extension four two").
    _extension_word = re.compile(r"(?<=\d{3}[-.\s]\d{4})(?:,?\s?)(?:ext\.?|x|extension)\s?(\d{1,5})\b", re.I)
    _plus_digits = re.compile(r"(?<![\w+])\+\d{8,15}(?![\w]|[.,]\d)")  # a number with its country code, unspaced
    _serial_digits = re.compile(r"(?<![\d.])\d{3,}(?![\d.])")
    _year_like = re.compile(r"(?:19|20)\d\d")
    # A state's code after a place and a comma, and its ZIP code: "Austin, TX 78701" (NeMo reads the state so).
    _state = re.compile(r"(?<=[a-z],\s)([A-Z]{2})(?:\s(\d{5})(?:-(\d{4}))?)?(?![\w'’-]|\.\w)")
    # A ZIP code after a state's name written out, the place before it ("North Little Rock, Arkansas 72115").
    _state_name_zip = re.compile(r"(?<=[a-z],\s)(" + "|".join(sorted(STATES.values(), key=len, reverse=True))
                                 + r")\s(\d{5})(?:-(\d{4}))?(?![\w-]|[.,]\d|\s[a-z])")  # not "Texas 20000 people"
    per_word, unit_scales = "per", "thousand|million|billion|trillion"
    _per = {"s": "second", "sec": "second", "h": "hour", "hr": "hour", "min": "minute", "d": "day", "yr": "year",
            "wk": "week", "mo": "month", "day": "day", "week": "week", "month": "month", "year": "year", "hour": "hour",
            # NeMo's per units of a price (en/data/money/per_unit.tsv): "$5/ea" is "five dollars each"
            "ea": "each", "pg": "page", "svc": "service", "usr": "user", "wd": "word"}

    def __init__(self):
        super().__init__()
        self.read_money_patterns()
        simple = [u for u in self.units if "/" not in u and " " not in u]
        unit = "(?:" + "|".join(re.escape(u) for u in sorted(simple, key=len, reverse=True)) + ")"
        self._per_period = re.compile(r"\b(dollars?|cents?|pounds?|pence|penny|euros?|yen|rupees?|francs?)\s?/\s?("
                                      + "|".join(self._per) + r")\b")
        # "$3.50/lb": a price per a unit ("three dollars fifty cents per pound").
        money_word = r"\b(dollars?|cents?|pounds?|pence|penny|euros?|yen|rupees?|francs?)\s?/\s?("
        spaced = "|".join(re.escape(u) for u in sorted(self.units, key=len, reverse=True) if " " in u)
        self._per_unit = re.compile(money_word + "(?:" + spaced + ")|" + unit + r")(?![\w/²³])")
        self._per_noun = re.compile(money_word + r"[a-z]{2,}[a-rt-z])\b(?!/)")  # "$100/night": per night
        # NeMo's per units written apart or as a mark ("$9/sq foot", "$4/'"), and "class" (a noun in "s").
        self._per_written = re.compile(money_word + r"sq meter|sq foot|cu foot|cu meter|class|'|\")(?!\w)")
        # "30 miles/second": a unit written as a word per a time word.
        self._word_per = re.compile(r"\b([a-z]{3,}s)\s?/\s?(second|minute|hour|day|week|month|year|sec|min|hr|h|s|d|wk|"
                                    r"mo|yr)\b")
        hyphen_units = "|".join(re.escape(u) for u in sorted(simple, key=len, reverse=True)
                                if u == "in" or u not in self.word_units and u.lower() not in ("v", "d"))
        self._hyphen_unit = re.compile(r"(?<![\w.,/-])(\d+(?:\.\d+)?)-(" + hyphen_units + r")\.?(?=\s+[a-z])")
        # "a 10 ft pole", "an 8 hr day": after "a" inside a sentence the measure qualifies the noun that follows, its unit singular.
        self._attributive = re.compile(r"((?<![\w.])an?\s)(\d+(?:\.\d+)?)\s?(" + unit
                                       + r")(?=\s([a-z]{3,})\b)")
        # "the price per kg": a unit after "per" without a number, said singular ("per kilogram").
        self._per_bare = re.compile(r"\b([Pp]er\s)(" + unit + r")(?![\w/²³]|\.\w)")
        self._point_unit = re.compile(r"(?<![\w.,])\.(\d+)\s?(" + unit + r")(?![\w/²³])")
        # A range of a measure whose unit is written once, joined to the second number: "2-5lb".
        # Sizes: "2x3 m", "4 × 8 ft" ("two by three meters"), as NeMo's measure grammar reads them.
        self._by = re.compile(r"(?<![\w.,:/-])(\d+(?:\.\d+)?)\s?[xX×]\s?(?=\d+(?:\.\d+)?\s?(?:" + unit
                              + r")(?![\w/²³]))")
        self._unit_both = re.compile(r"(?<![\w.,:/-])((\d+(?:\.\d+)?)\s?(" + unit + r"))\s?[-–]\s?(?=(\d+(?:\.\d+)?)"
                                     r"\s?\3(?![\w/²³]))")
        self._unit_range = re.compile(r"(?<![\w.,:/-])(\d+(?:\.\d+)?)\s?[-–]\s?(?=(\d+(?:\.\d+)?)\s?(?:" + unit
                                      + r")(?![\w/²³]))")

    def read_money_patterns(self):
        """"$30-40", "$1-2 million": one currency for both ends ("thirty to forty dollars")."""
        currency = "|".join(re.escape(c) for c in sorted(self.currencies, key=len, reverse=True) if not c.isalpha())
        scale = "|".join(re.escape(w) for w in sorted(self.scales, key=len, reverse=True))
        self._price_span = re.compile(r"(?<![\w$])(" + currency + r")\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?[-–]\s?"
                                      r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                                      r"(?:\s?(" + scale + r")(?!\w))?(?![\w,]|\.\d)")
        self._cents_only = re.compile(r"(?<![\w$])(" + currency + r")\.(\d{1,2})(?![\d.,])")
        self._tilde_price = re.compile(r"(?<![\w~])~\s?(?=(?:" + currency + r")\s?\d)")  # "~$5": approximately

    def read_measures(self, text):
        if self._oven.search(text):  # "Bake in a hot oven (425 F)", "at 375 F.": degrees without their sign
            text = self._bare_degrees.sub("\\1°\\2", text)
        text = self._cooking_dot.sub(self.cooking_dot, self._square_word.sub("square ", text))
        text = self._unit_dot.sub(r"\1", text)  # "12 oz. of milk": the sentence goes on
        text = self._inch_dot.sub(lambda m: self.measure(m.group(1), "in"), text)
        text = self._hyphen_unit.sub(self.hyphen_unit, text)
        text = self._attributive.sub(self.attributive, text)
        text = self._per_bare.sub(lambda m: m.group(0) if m.group(2) in self.word_units or len(m.group(2)) < 2 else
                                  f"{m.group(1)}{self.units[m.group(2)][0]}", text)
        text = self._inch_mark.sub(self.inch_mark, text)
        text = self._degree_mark.sub(lambda m: f"{self.number(m.group(1))} {self.units[m.group(2)][0]}"
                                     if self._qualifies(m) else m.group(0), text)
        text = self._degrees_letter.sub(lambda m: f"{m.group(1)} {'Celsius' if m.group(2) == 'C' else 'Fahrenheit'}",
                                        text)  # "180 degrees C"

        text = self._feet_inches.sub(lambda m: f"{self.measure(m.group(1), 'ft')} {self.measure(m.group(2), 'in')}",
                                     text)  # "5'11\"": "five feet eleven inches"
        text = self._point_unit.sub(lambda m: f"{self.point} {self.digits(m.group(1))} {self.units[m.group(2)][1]}",
                                    text)  # ".2 m": "point two meters"
        text = self._caliber.sub(lambda m: self.era_year(m.group(1)), text)
        text = self._point_number.sub(lambda m: f"{self.point} {self.digits(m.group(1))}", text)
        return self._word_per.sub(lambda m: f"{m.group(1)} per {self._per.get(m.group(2), m.group(2))}",
                                  super().read_measures(text))

    def hyphen_unit(self, m):
        """"a 5-lb bag": the measure qualifies the noun, its unit said once ("five pound")."""
        return f"{self.number(m.group(1))} {self.units[m.group(2)][0]}"

    @staticmethod
    def cooking_dot(m):
        """"1/2 c. milk" cup, "2 pt. of cream" pints (not the typographer's points), "1 t. salt" tsp."""
        amount, unit = m.group(1), m.group(2)
        one = amount == "1" or "/" in amount and " " not in amount
        if unit in ("c", "C", "pt", "pts"):
            word = "cup" if unit in "cC" else "pint"
            return f"{amount} {word if one else word + 's'}"
        return f"{amount} {'tsp' if unit == 't' else 'tbsp'}"

    def attributive(self, m):
        """"a 10 ft pole": "a ten foot pole"; not where the word after says the measure's own use ("a 5 km walk
        away" is a noun; "a 2 kg of", "a 6 ft tall man" keep the plural) or the unit is a rate ("60 mph")."""
        singular = self.units[m.group(3)][0]
        if m.group(4) in self._not_nouns or " per " in singular or m.group(3) in self.word_units:
            return m.group(0)
        return f"{m.group(1)}{self.number(m.group(2))} {singular}"

    def inch_mark(self, m):
        """"13.3\"", "6′": inches or feet; "a 27\" monitor" qualifies its noun ("twenty-seven inch")."""
        if m.group(2) == '"' and len(re.findall(r'(?<!\d)"', m.string[:m.start()])) % 2:
            return m.group(0)  # the closing quote of a quotation
        unit = "ft" if m.group(2) == "′" else "in"
        if self._qualifies(m):
            return f"{self.number(m.group(1))} {self.units[unit][0]}"
        return self.measure(m.group(1), unit)

    def _qualifies(self, m) -> bool:
        """Whether the measure m qualifies the noun after it: an article or possessive before, a noun after."""
        before = m.string[:m.start()].split()[-1:]
        after = re.match(r"\s+([a-z]+)", m.string[m.end():])
        return bool(before and before[0].lower() in self._adjective_before and after and after.group(1) not in (
            "of", "in", "and", "or", "to", "by", "x", "tall", "wide", "long", "high", "deep", "thick", "across"))

    def read_scores(self, text):
        def said(m):
            first, second = int(m.group(1)), int(m.group(2))
            ctx = context(m.string, m.start(), m.end())
            if first <= second or not any(w.strip(".,;:").casefold() in self.score_words for w in ctx.before):
                return m.group(0)
            return f"{self.cardinal(first)} {self.score_word} {self.cardinal(second)}"
        return self._long_score.sub(said, super().read_scores(text))

    def duration(self, m):
        """"3h 15m", "1h30m20s": hours, minutes and seconds (an "m" after hours is minutes, not meters)."""
        said = [self.measure(m.group(1), "h"), self.measure(m.group(2), "min")]
        return " ".join(said + ([self.measure(m.group(3), "s")] if m.group(3) else []))

    def read_ranges(self, text):
        text = self._between.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3) or ''} and ", text)
        text = self._ordinal_range.sub(rf"\1 {self.range_word} ", text)
        text = self._tilde_price.sub(self.symbols["~"] + " ", text)
        text = self._at_least.sub(f" {self.plus}", self._percent_range.sub(" to ", self._by.sub(r"\1 by ", text)))
        text = self.read_multipliers(text)
        text = self._price_span.sub(self.price_span, text)

        def said(m):
            return f"{m.group(1)} {self.range_word} " if float(m.group(1)) < float(m.group(2)) else m.group(0)
        text = self._scaled_price_range.sub(f" {self.range_word} ", self._year_oh.sub(self.year_oh, text))
        text = self._worded_price_range.sub(rf"\1 {self.range_word} ", text)
        text = self._unit_both.sub(lambda m: f"{m.group(1)} {self.range_word} " if float(m.group(2)) < float(
            m.group(4)) else m.group(0), text)
        return super().read_ranges(self._unit_range.sub(said, text))

    def price_span(self, m):
        """"$30-40", "$1.5-2 million": one currency for both ends; a first price with cents ("$5.50-6") is no
        span of one scale and is left to the money pass."""
        if "." in m.group(2) and not m.group(4):
            return m.group(0)
        return f"{self.number(m.group(2))} {self.range_word} {self.money(m.group(3), m.group(1), m.group(4))}"

    def year_oh(self, m):
        first, last = int(m.group(1)), int(m.group(2))
        if last <= first % 100 and not (last == 0 and first % 100 == 99 or first % 100 == 0):
            return m.group(0)  # "2015-05" is no span of years
        second = self.year(first // 100 * 100 + 100) if last == 0 else f"oh {self.cardinal(last)}"
        return f"{self.year(first)} {self.range_word} {second}"

    def read_multipliers(self, text):
        """"5x-7x": "five to seven x", "3*4": "three times four"."""
        text = self._times_span.sub(rf"\1 {self.range_word} \2 \3", text)
        text = self._times_alone.sub(r"\1 times", text)
        return self._star.sub(" times ", text) if "*" in text else text

    def read_abbreviations(self, text):
        """US states, "#7", titles, addresses; "a.k.a." and the like before a name; a Greek letter standing alone
        (not inside a Greek word) by its name: "π" "pi"."""
        text = self._verse.sub(self.verse, text)
        text = self._volume_roman.sub(lambda m: "Volume " if m.group(1) == "V" else "volume ", text)  # "Vol. II"
        text = self._state.sub(self.state, text)
        text = self._state_name_zip.sub(lambda m: self.with_zip(m.group(1), m), text)
        text = self.read_number_sign(text)  # "#7": "number seven", before the titles and addresses below
        text = self._circa.sub("circa ", text)  # "born c. 1450"
        text = self._versus.sub("versus", text)  # "Lakers vs Celtics", as NeMo's whitelist has "vs" too
        text = self._service_line.sub(lambda m: m.group(1) + self.digits(m.group(2)), text)
        text = self._runs_on.sub(lambda m: ABBREVIATIONS["en"][m.group(1)], self._greek_alone.sub(self.greek, text))
        text = self._title.sub(self.title, text)
        # "No. 10 Downing Street": the number's word before the address takes the number
        text = self._num_abbr.sub(lambda m: self.number_abbreviations.get(m.group(1), m.group(0)), text)
        text = self._address.sub(self.address, text)
        text = self._street.sub(lambda m: m.group(1) + "Street" + ("." if re.match(r"\s*(?:$|[A-Z])", text[m.end():])
                                                                  else ""), text)  # its dot may end the sentence
        text = self._named_street.sub(r"\1Street", text)
        return super().read_abbreviations(text)

    def title(self, m):
        written = m.group(1)
        if written.lower() in ("mr", "mrs"):
            return "Mister" if written.lower() == "mr" else "Missus"
        before = m.string[:m.start()].split()[-1:]
        after = m.string[m.end():].split()[:1]
        if written == "st" and (before and (before[0][:1].isupper() or before[0][:1].isdigit())
                                or after and after[0] in self._not_after_saint):
            return m.group(0)  # "Elm st. and", "main st. in town": a street
        noun = before and before[0].lower() in ("the", "a", "my", "your", "his", "her", "our", "their", "this")
        ends = noun and m.string[m.end() + 1:m.end() + 2].isupper()  # "I saw the dr. Then": a noun ends a sentence
        return self._lower_titles[written] + ("." if ends else "")

    def address(self, m):
        number, direction, name, kind, dot = m.groups()
        said = [self.house_number(number)]
        if direction:
            said.append(DIRECTIONS[direction.strip(" .")])
        said += [name.strip(), ADDRESS_WORDS[kind.lower()]]
        ends = dot and re.match(r"\s*(?:$|[A-Z])", m.string[m.end():])  # its dot may end the sentence
        return " ".join(said) + ("." if ends else "")

    def house_number(self, digits: str) -> str:
        """A house number of three or four digits in two parts ("1428": "fourteen twenty-eight", "105": "one oh
        five"); a round hundred, or a shorter or longer number, as a number."""
        if len(digits) in (3, 4) and digits[0] != "0" and digits[-2:] != "00":
            head, tail = int(digits[:-2]), int(digits[-2:])
            return f"{self.cardinal(head)} {'oh ' if tail < 10 else ''}{self.cardinal(tail)}"
        return self.cardinal(int(digits))

    def state(self, m):
        place = m.string[:m.start()].split()[-1:]
        if m.group(1) not in STATES or not place or not place[0][:1].isupper():
            return m.group(0)
        if m.group(1) in ("MD", "PA") and not m.group(2):  # "Jane Doe, MD" is a doctor: a state only before a ZIP
            return m.group(0)
        return self.with_zip(STATES[m.group(1)], m)

    def with_zip(self, state, m):
        """A state's name and its ZIP code (groups 2 and 3 of `m`) digit by digit."""
        return " ".join([state] + [self.digits(z) for z in m.groups()[1:] if z])

    def read_ordinals(self, text):
        def said(m):  # an ordinal ending must fit its number: "3th" is no ordinal
            n = int(re.sub(r"\D", "", m.group(1)))
            fits = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            if m.group(2).lower() != fits:
                return f"{self.cardinal(n)} {m.group(2)}"
            if self._hundreds.fullmatch(m.group(1)):  # "1121st": "eleven hundred twenty-first"
                return f"{self.cardinal(n // 100)} hundred" + (f" {self.ordinal(n % 100)}" if n % 100 else "th")
            return self.ordinal(n)
        text = self._quarter.sub(lambda m: f"the {self.ordinal(int(m.group(1)))} quarter of "
                                           f"{self.year(int(m.group(2)))}", text)
        text = self._half.sub(lambda m: f"the {self.ordinal(int(m.group(1)))} half of {self.year(int(m.group(2)))}",
                              text)
        text = self._resolution.sub(lambda m: f"{self.year(int(m.group(1)))} {m.group(2)}", text)
        return self.ordinal_pattern.sub(said, text)

    def fraction_measure(self, numerator, denominator, unit):
        singular = self.units[unit][0]
        return f"{self.fraction(numerator, denominator)} of {'an' if singular[0] in 'aeiou' else 'a'} {singular}"

    def read_arithmetic(self, text):
        if "," in text:
            text = self._indian_grouping.sub(lambda m: m.group(0).replace(",", ""), text)
        if "/" in text:
            text = self._rating.sub(r"\1 out of \2", text)
            text = self._model_slash.sub(lambda m: f"{m.group(1)} {self.year(int(m.group(2)))}", text)
        text = self._model_plural.sub(lambda m: " " + re.sub(r"y$", "ie", re.sub(r"x$", "xe", self.cardinal(int(
            m.group(1))))) + "s", text)
        text = self._e_minus.sub(rf"\1 e {self.minus} \2", text)
        if "=" in text:  # "x + 1 = 2": an equation with a letter
            text = self._letter_plus.sub(lambda m: f"{m.group(1) or ''} {self.plus} ", text) if "+" in text else text
            text = self._letter_equals.sub(lambda m: f"{m.group(1) or ''} {self.equals} ", text)
        return super().read_arithmetic(text)

    def read_symbols(self, text):
        text = self._greek.sub(self.greek, text)

        def said(m):
            words = re.split(r"\s?/\s?", m.group(0))
            return "and or" if [w.lower() for w in words] == ["and", "or"] else " slash ".join(words)
        return super().read_symbols(self._word_slash.sub(said, text))

    @staticmethod
    def greek(m):
        """A Greek letter's name, set apart from a letter or digit it touches ("ΔT": "delta T")."""
        before, after = m.string[m.start() - 1:m.start()], m.string[m.end():m.end() + 1]
        return (" " if before.isalnum() else "") + GREEK[m.group(0)] + (" " if after.isalnum() else "")

    def hundreds(self, n: int) -> str:
        """1100 to 9999 in hundreds, as a number written in four digits is said: "twenty-one hundred eleven"."""
        return f"{self.cardinal(n // 100)} hundred" + (f" {self.cardinal(n % 100)}" if n % 100 else "")

    def say_number(self, m):
        if not m.group(1) and re.fullmatch(r"[1-9]\d{3}", m.group(2)) and int(m.group(2)) >= 2100 and re.search(
                r"\b[Yy]ear\s$", m.string[max(0, m.start() - 6):m.start()]):
            return self.year(int(m.group(2)))  # "in the year 2525": "twenty-five twenty-five"
        if not m.group(1) and self._hundreds.fullmatch(m.group(2)) and int(m.group(2)) >= 2100:
            return self.hundreds(int(m.group(2)))  # "2100", "6600": a year's way of saying a bare number
        if not m.group(1) and re.fullmatch(r"10[1-9]\d", m.group(2)) and self.early_year(m):
            return self.year(int(m.group(2)))  # "in 1066": "ten sixty-six"
        if not m.group(1) and re.fullmatch(r"1[1-9]\d\d|20\d\d", m.group(2)) and self.counts_plural(m):
            n = int(m.group(2))  # "1648 files": a count, "sixteen hundred forty-eight", not "sixteen forty-eight"
            return self.hundreds(n) if n < 2000 else self.cardinal(n)
        return super().say_number(m)

    # A noun in the plural after four digits makes them a count ("1648 files", "1999 copies"), unless a word before
    # tells a year ("in 1999 stamps were cheap", "the 1999 models") or the word is a verb ("1999 marks the end").
    _plural_noun = re.compile(r"[a-z]{2,}(?<!ss)(?<!us)(?<!is)s")
    _not_counted = frozenset({"was", "has", "does", "goes", "marks", "brings", "begins", "ends", "sees", "seems",
                              "looks", "comes", "becomes", "means", "makes", "takes", "gives", "shows", "remains",
                              "starts", "proves", "holds", "lets", "sets", "gets", "saw", "as", "promises", "needs"})
    _year_before = frozenset({"the", "this", "that", "his", "her", "their", "our", "its", "my", "your"})

    # Words before a version's or a section's number, whose second part is a number of its own ("Python 3.10",
    # "Section 6.10": six point ten)
    _version_words = frozenset({"version", "versions", "release", "python", "linux", "kernel", "debian", "ubuntu",
                                "macos", "ios", "android", "windows", "php", "perl", "ruby", "java", "firefox", "gcc",
                                "v", "section", "sections", "chapter", "chapters", "sec.", "§", "clause", "paragraph"})

    def counts_plural(self, m):
        ctx = context(m.string, m.start(), m.end(), span=1)
        noun = ctx.after[0].rstrip(".,;:!?)") if ctx.after else ""
        if ctx.touching != " " or not self._plural_noun.fullmatch(noun) or noun in self._not_counted:
            return False
        before = ctx.before[-1] if ctx.before else "."
        if before[:1].isupper() and not before.endswith((".", "!", "?", ":")):
            return False  # "Esquire 1977 issues", "May 1977 issues": a name or a month before, a year
        return before.casefold() not in self._year_cues | self._year_before

    # A year of the eleventh century is said as one after a word that tells a time ("in 1066", "by 1099", "A.D.
    # 1066") where no noun it counts follows ("in 1050 cases" counts): later years are said so everywhere.
    _year_cues = frozenset({"in", "by", "since", "until", "till", "before", "after", "around", "year", "circa",
                            "ad", "a.d.", "from", "of"})
    _after_year = frozenset({"the", "a", "an", "he", "she", "it", "they", "we", "i", "his", "her", "their", "its",
                             "and", "or", "but", "when", "while", "as", "to", "until", "ad", "bc", "ce", "bce"})

    def early_year(self, m):
        ctx = context(m.string, m.start(), m.end())
        cue = ctx.before[-1].casefold() if ctx.before else ""
        if cue not in self._year_cues:
            return False
        after = re.match(r"\s*(\S*)", m.string[m.end():]).group(1)
        word = after.rstrip(".,;:!?)").casefold()
        return (cue == "year" or not after[:1].isalpha() or after[:1].isupper() or word in self._after_year
                or word.endswith("ed"))  # "of 1066 changed": a verb, no noun counted

    def money(self, amount, currency, scale):
        whole, _, cents = amount.partition(".")
        if len(cents) > 2 and cents.endswith("0"):  # "$12.0500", "$1.2320": a price's trailing zeros are not said
            cents = cents.rstrip("0").ljust(2, "0")
            amount = f"{whole}.{cents}"
        if scale or not self._hundreds.fullmatch(whole) or len(cents) > 2:
            return super().money(amount, currency, scale)
        said = f"{self.hundreds(int(whole))} {self.currencies[currency][1]}"  # "$1500": "fifteen hundred dollars"
        return said + (f" {super().money('0.' + cents, currency, None)}" if cents.strip("0") else "")

    def tech(self, m):
        """A serial or model code of letters and digits: a run of three digits or more said digit by digit
        ("abc123": "abc one two three", as NeMo's serial grammar reads one), but a round hundred ("A100", "GH200")
        or a year ("FY2024") as a number; one or two digits as a number ("x86"). A number before hyphened words is
        a compound adjective, not a code ("a 130-page report", "125-year-old", "130-plus"): the number said whole."""
        if self._number_compound.fullmatch(m.group(0)):
            return m.group(0).replace("-", " ")
        return super().tech(m)

    def name_numbers(self, parts):
        """English numbers agree with nothing: a code's digits are left as written (or one by one), for the passes
        after."""
        return self._serial_digits.sub(lambda d: d.group(0) if d.group(0).endswith("00") or self._year_like.fullmatch(
            d.group(0)) else " ".join(d.group(0)), parts)

    def dotted(self, m):
        """Four groups an IP address ("987.987.0.40"); "version 3.11", "Python 3.10", "Section 6.10": a version's
        or a section's second part after a word that names one is a number of its own ("three point eleven"), not a
        decimal's digits."""
        parts = m.group(1).split(".")
        if len(parts) == 4 and all(len(p) <= 3 for p in parts):
            return f" {self.ip_dot} ".join(self.digits(p) for p in parts)
        if len(parts) == 2 and len(parts[0]) <= 2 and re.fullmatch(r"[1-9]\d", parts[1]):
            ctx = context(m.string, m.start(), m.end(), span=1)
            before = ctx.before[-1].casefold() if ctx.before else ""
            if before in self._version_words or m.string[max(0, m.start() - 1):m.start()] in ("v", "V"):
                return f"{self.cardinal(int(parts[0]))} point {self.cardinal(int(parts[1]))}"
        return super().dotted(m)

    def read_telephones(self, text):
        def toll_free(m):  # "1-800-FLOWERS": "one, eight hundred, F L O W E R S" as NeMo reads it
            rest, area = m.group(3), m.group(2).strip("() .-")
            plain = bool(re.fullmatch(r"\d{3}[-.\s]?\d{4}", rest))
            if area != "800" and not (m.group(1) and plain) and (rest.isdigit() or not re.search(r"[A-Z]", rest)
                                  or len(re.sub(r"[-.\s]", "", rest)) != 7
                                  or not all(p.isdigit() or p.isalpha() for p in re.split(r"[-.\s]", rest))):
                return m.group(0)  # a plain number is the general grammar's; a lettered one has seven places
            said = self.telephone(rest) if re.fullmatch(r"[\d\s.-]+", rest) else " ".join(
                self.digits(p) if p.isdigit() else p for p in re.split(r"[-.\s]", rest) if p)
            country = {"1": "one, ", "+1": f"{self.plus} one, "}.get(m.group(1), "")
            return f"{country}{'eight hundred' if area == '800' else self.digits(area)}, {said}"
        text = self._spaced_thousands.sub(self.spaced_thousands, text)
        text = self._card_number.sub(self.card_number, text)
        text = self._plus_digits.sub(lambda m: f"{self.plus} {self.digits(m.group(0))}", text)  # "+442079460958"
        text = self._extension_word.sub(lambda m: f" extension {self.digits(m.group(1))}", text)
        text = self._spaced_phone.sub(lambda m: self.telephone(m.group(0)), text)
        text = self._zero_led_phone.sub(lambda m: self.telephone(m.group(0)), text)
        text = self._cued_local.sub(lambda m: f"{m.group(1)}{self.digits(m.group(2))}, {self.digits(m.group(3))}", text)
        text = self._extension_alone.sub(lambda m: f"{m.group(0)[0]}xtension {self.digits(m.group(1))}", text)
        text = self._bare_country.sub(lambda m: f"{self.digits(m.group(1))}, ", text)
        text = self._seven_digits.sub(lambda m: m.group(0) if m.group(0).endswith("00") or m.group(1).endswith("00")
                                      else f"{self.digits(m.group(1))}, {self.digits(m.group(2))}", text)
        text = self._extension.sub(lambda m: f"{m.group(1).replace('.', '-')}-{m.group(3)}", text)
        return super().read_telephones(self._toll_free.sub(toll_free, text))

    @staticmethod
    def spaced_thousands(m):
        """"1 000 000", "12 345 678": one number where a group starts with a zero or a short first group has two to
        four groups of three after it (up to trillions); "100 200 300" (each of three) and "1 234" stay apart."""
        groups = m.group(0).split()
        if any(g[0] == "0" for g in groups[1:]) or len(groups[0]) < 3 and 2 < len(groups) <= 5:
            return "".join(groups)
        return m.group(0)

    def card_number(self, m):
        groups = m.group(0).split(m.group(2))
        if all(1000 <= int(g) <= 2099 for g in groups) or all(g.endswith("00") for g in groups):
            return m.group(0)  # "1990 2000 2010 2020", "1000 2000 3000 4000": years or a list, not a card
        return ", ".join(self.digits(g) for g in groups)

    def read_money(self, text):
        text = self._attributive_money.sub(self.attributive_money, text)
        text = self._paid_l.sub(r"\1 £", self._pound_l.sub("£", text))  # "fined L140": "fined one hundred forty pounds"
        text = self._negative_price.sub(f"{self.minus} ", text)  # "-$5": "minus five dollars"
        text = self._cents_only.sub(r"\g<1>0.\2", text)  # "$.50": "fifty cents"
        text = self._cent_sign.sub(lambda m: f"{m.group(1)} {'cent' if m.group(1) == '1' else 'cents'}", text)
        text = self._pence.sub(lambda m: f"{m.group(1)} {'penny' if m.group(1) == '1' else 'pence'}", text)

        text = super().read_money(text)  # "$350/yr": "three hundred fifty dollars per year"
        text = self._per_period.sub(lambda m: f"{m.group(1)} " + ("each" if m.group(2) == "ea" else
                                                                 f"per {self._per[m.group(2)]}"), text)
        text = self._per_unit.sub(lambda m: f"{m.group(1)} per {self.units[m.group(2)][0]}", text)
        text = self._per_written.sub(lambda m: f"{m.group(1)} per {PER_WRITTEN[m.group(2)]}", text)
        text = self._scaled_count.sub(lambda m: f"{m.group(1)} {'million' if m.group(2) in ('M', 'mn') else 'billion'}",
                                      text)
        return self._per_noun.sub(r"\1 per \2", text)

    def cardinal(self, n: int, gender: str = "m") -> str:
        return self.n2w(n).replace(" and ", " ").replace(",", "")

    def ordinal(self, n: int, gender: str = "m", mark: str = "") -> str:
        return self.n2w(n, "ordinal").replace(" and ", " ").replace(",", "")

    def year(self, n: int) -> str:
        if n % 1000 < 10 or n % 100 == 0 and n % 1000 == 0:
            return self.cardinal(n)
        return self.n2w(n, "year")

    def date(self, day, month, year):
        said = f"{self.months[month - 1]} {self.ordinal(day)}"
        return said + (f" {self.year(year)}" if year else "")

    def time(self, hours, minutes, seconds):
        if minutes == 0 and seconds is None:
            return f"{self.cardinal(hours)} o'clock"
        if seconds is not None:  # "1:01:01": a duration, each unit named
            return (f"{self.cardinal(hours)} hour{'s' * (hours != 1)} {self.cardinal(minutes)} "
                    f"minute{'s' * (minutes != 1)} and {self.cardinal(seconds)} second{'s' * (seconds != 1)}")
        return f"{self.cardinal(hours)} {'o ' if minutes < 10 else ''}{self.cardinal(minutes)}"

    def fraction(self, numerator, denominator):
        """As NeMo says a fraction: "over one", halves and quarters, else the denominator's ordinal."""
        if (numerator, denominator) in self.fractions:
            return self.fractions[(numerator, denominator)]
        if denominator == 1:
            return f"{self.cardinal(numerator)} over one"
        name = {2: "half", 4: "quarter"}.get(denominator) or self.ordinal(denominator)
        if numerator != 1:
            name = "halves" if name == "half" else name + "s"
        return f"{self.cardinal(numerator)} {name}"

    def read_fractions(self, text):
        def said(m):
            whole, numerator, denominator = m.group(1), m.group(2), m.group(3)
            if m.group(0).count("/") != 1 or "0" in (numerator[0], denominator[0]):
                return m.group(0)  # "01/05", "3/0": no fraction
            if 1500 <= int(denominator) <= 2099 and int(numerator) <= 12:
                return m.group(0)  # "5/2021": a month and a year
            if f"{numerator}/{denominator}" in self.numbers_with_slash:  # "24/7": "twenty-four seven"
                return (f"{whole} " if whole else "") + f"{self.cardinal(int(numerator))} {self.cardinal(int(denominator))}"
            if whole and not self._year_like.fullmatch(whole):  # "In 1999 1/3 left": a year, then a fraction
                return self.mixed(int(whole.replace(",", "")), int(numerator), int(denominator))
            return (f"{whole} " if whole else "") + self.fraction(int(numerator), int(denominator))
        def mixed(m):
            whole, numerator, denominator = (int(g) for g in m.groups())
            return self.mixed(whole, numerator, denominator) if numerator < denominator else m.group(0)
        text = self._spaced_slash.sub(r"\1/\2", text)  # "1 / 3", as NeMo's fraction grammar takes it
        text = self._fraction_inch.sub(r"\1 inch", self._negative_fraction.sub(f"{self.minus} ", text))
        text = self._hyphen_mixed.sub(mixed, text)
        return self._any_fraction.sub(said, text)

    def read_romans(self, text):
        def said(m):
            value = roman_value(m.group(2))
            if not value or m.group(2) == "I" or m.group(1) in self.not_names:
                return m.group(0)
            return f"{m.group(1)} {self.roman(value, 'regnal', m.group(1))}"
        text = self._roman_ordinal.sub(self.roman_ordinal, text)
        text = self._first_regnal.sub(lambda m: f"{m.group(1)} {self.roman(1, 'regnal')}", text)
        return super().read_romans(self._regnal_possessive.sub(said, text))

    def roman_ordinal(self, m):
        value = roman_value(m.group(1))
        if not value or not self.ordinal(value).endswith(m.group(2)):  # "XXIst", not "XXIth"
            return m.group(0)
        return self.ordinal(value)

    def roman(self, value, kind, word=""):
        if kind == "regnal":
            return "the " + self.ordinal(value)
        return super().roman(value, kind, word)

    def mixed(self, whole, numerator, denominator):
        if (numerator, denominator) == (1, 2):
            return f"{self.cardinal(whole)} and a half"
        return super().mixed(whole, numerator, denominator)

    # A weekday's abbreviation before a date or in a span of days ("Fri., Dec. 25", "Mon-Fri", "Sun. and Mon."): the
    # day's name; alone it may be a word ("Sun", "Sat") and is left.
    WEEKDAYS = {"Mon": "Monday", "Tue": "Tuesday", "Tues": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday",
                "Thur": "Thursday", "Thurs": "Thursday", "Fri": "Friday", "Sat": "Saturday", "Sun": "Sunday"}
    _WD = r"(Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)"
    _weekday_span = re.compile(r"\b" + _WD + r"\.?\s?([-–]|\s(?:through|thru|to|and|or|&)\s)\s?" + _WD +
                               r"(\.?)(?![\w-])")
    _weekday_date = re.compile(r"\b" + _WD + r"\.?(?=,?\s(?:\d|(?:" + "|".join(MONTHS) +
                               r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b))")
    # A month and a day without a year after a word that tells a date ("dated 2/14", "due 3/15", "on 7/4"), as
    # the United States write them; "on 1/2 of the land" is a fraction.
    _cued_month_day = re.compile(r"\b((?:[Dd]ated|[Dd]ue|[Ee]ffective|[Ss]ince|[Uu]ntil|[Tt]ill|[Tt]hrough|[Tt]hru|"
                                 r"[Oo]n|[Bb]efore|[Aa]fter|[Ee]xpires|[Ee]xpired|[Ee]xpiring|[Ss]tarting|[Ee]nding|"
                                 r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?)\s)"
                                 r"(1[0-2]|0?[1-9])/(3[01]|[12]\d|0?[1-9])(?![\w/]|[.,]\d|\s+of\b)")

    # A month and a year ("revised 10/2019", "exp. 03/2027"): the month's name and the year.
    _month_year_slash = re.compile(r"(?<![\w.,/-])(1[0-2]|0?[1-9])/((?:19|20)\d\d)(?![\w/]|[.,]\d)")
    # A year cut to two digits after an apostrophe, alone ("in '68", "the summer of '69"): the two digits.
    _apostrophe_year = re.compile(r"(?<![\w'’])['’](\d\d)(?![\w'’-]|[.,]\d)")

    def weekday_span(self, m):
        joint = m.group(2).strip()
        joint = self.range_word if joint in "-–" else joint
        end = "." if m.group(4) and re.match(r"\s*(?:$|[A-Z])", m.string[m.end():]) else ""
        return f"{self.WEEKDAYS[m.group(1)]} {joint} {self.WEEKDAYS[m.group(3)]}{end}"

    def read_dates(self, text):
        text = self._weekday_span.sub(self.weekday_span, text)
        text = self._weekday_date.sub(lambda m: self.WEEKDAYS[m.group(1)], text)
        text = self._cued_month_day.sub(lambda m: m.group(1) + self.date(int(m.group(3)), int(m.group(2)), None),
                                        text)
        # Durations first, so that "30s" in "2m 30s" is seconds, not a decade
        text = self._duration.sub(self.duration, text)
        text = self._minutes_seconds.sub(lambda m: f"{self.measure(m.group(1), 'min')} {self.measure(m.group(2), 's')}",
                                         text)
        text = self._decade_range.sub(lambda m: m.group(1) + " to ", text)  # "1960s-80s"
        text = self._decade_to_year.sub(lambda m: m.group(1) + " to ", text)
        text = self._short_years.sub(lambda m: f"{self.short_year(m.group(1))} {self.range_word} "
                                               f"{self.short_year(m.group(2))}", text)
        text = self._year_to_decade.sub(lambda m: m.group(1) + " to ", self._hour_to_clock.sub(r"\1 to ", text))
        text = self._short_date.sub(self.short_date, text)
        text = self._month_year_slash.sub(lambda m: f"{self.months[int(m.group(1)) - 1]} {self.year(int(m.group(2)))}",
                                          text)
        text = self._apostrophe_year.sub(lambda m: self.short_year(m.group(1)), text)
        def day_first(m):  # "15-01-2020" is written day first: read so, "the fifteenth of January twenty twenty"
            day, month, year = int(m.group(1)), int(m.group(3)), int(m.group(4))
            if not (12 < day <= 31 and 1 <= month <= 12):
                return m.group(0)
            return f"the {self.ordinal(day)} of {self.months[month - 1]} {self.year(year)}"
        text = self._numeric_date.sub(day_first, text)
        text = self._era.sub(self.era, self._spaced_decade.sub(lambda m: self.decade(m), text))
        text = self._dotted_iso.sub(lambda m: self.date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
                                    if 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31 else m.group(0), text)
        return super().read_dates(self._decade.sub(self.decade, text))  # before "s" is read as seconds

    def short_year(self, digits: str) -> str:
        """A year written in its last two digits ("'95", "'02"): "ninety-five", "oh two"."""
        n = int(digits)
        return self.cardinal(n) if n >= 10 else f"oh {self.cardinal(n)}"

    def verse(self, m):
        book = BIBLE_ABBREVIATIONS.get(m.group(1), m.group(1))
        said = f"{book} {self.cardinal(int(m.group(2)))} {self.cardinal(int(m.group(3)))}"
        return said + (f" {self.range_word} {self.cardinal(int(m.group(4)))}" if m.group(4) else "")

    def attributive_money(self, m):
        """"a $10 bill": the amount said with its currency in the singular, as a noun's modifier."""
        if m.group(5) != "-" and (m.group(1).lower() not in self._describing or m.group(6) in self._not_described):
            return m.group(0)
        if m.group(5) != "-" and m.group(1).lower() not in ("a", "an") and m.group(6).endswith(("ing", "ed")):
            return m.group(0)  # "off your $40,000 leaving you": a verb follows the amount
        said = self.money(m.group(3), m.group(2), m.group(4))
        singular, plural = self.currencies[m.group(2)][:2]
        if not said.endswith(plural):  # with cents, or already singular ("one dollar")
            return m.group(0)
        return f"{m.group(1)} {said.removesuffix(plural)}{singular}"  # "a ten dollar bill"

    def era(self, m):
        """A year before its era (a range of two: "427-347 BC" "four twenty-seven to three forty-seven BC")."""
        era = re.sub(r"[.\s]", "", m.group(3))
        said = self.era_year(m.group(2))
        return f"{self.era_year(m.group(1))} {self.range_word} {said} {era}" if m.group(1) else f"{said} {era}"

    def era_year(self, written):
        """Four digits as a year, three as a digit and two ("one twenty-three"), fewer as a number."""
        if len(written) == 4:
            return self.year(int(written))
        if len(written) == 3 and written[1:] != "00" and written[0] != "0":
            rest = int(written[1:])
            return f"{self.cardinal(int(written[0]))} {'oh ' if rest < 10 else ''}{self.cardinal(rest)}"
        return self.cardinal(int(written))

    def short_date(self, m):
        """"11/17/05", "12-25-99": "November seventeenth zero five" (month first, as NeMo reads it; day first where
        the first number is past twelve); with hyphens only in groups of two digits ("3-1-99" may be a score) not all
        round."""
        a, b, year = int(m.group(1)), int(m.group(3)), m.group(4)
        month, day = (a, b) if a <= 12 else (b, a)
        hyphens = m.group(2) == "-"  # "10-20-30": round numbers, a rule or a ratio
        if not (1 <= month <= 12 and 1 <= day <= 31) or hyphens and (len(m.group(1) + m.group(3)) < 4 or all(
                int(g) % 10 == 0 for g in (m.group(1), m.group(3), year))):
            return m.group(0)
        return f"{self.date(day, month, None)} {self.digits(year) if year[0] == '0' else self.cardinal(int(year))}"

    def decade(self, m):
        said = self.year(int(m.group(1))) if len(m.group(1)) == 4 else self.cardinal(int(m.group(1)))
        return re.sub(r"y$", "ies", said) if said.endswith("y") else said + "s"

    def read_times(self, text):
        text = self._military.sub(self.military, text)
        text = self._race_time.sub(lambda m: f"{self.measure(m.group(1), 'min')} "
                                             f"{self.measure(m.group(2) + '.' + m.group(3), 's')}", text)
        def ampm(m):
            hours, minutes = int(m.group(1)), int(m.group(2) or 0)
            said = self.cardinal(hours)
            if minutes:
                said += f" {'o ' if minutes < 10 else ''}{self.cardinal(minutes)}"
            return f"{said} {m.group(3).upper()}M"
        text = self._time_range.sub(" to ", self._time_ampm.sub(ampm, self._hour_range.sub(r"\1 to ", text)))
        return super().read_times(self._clock_range.sub(" to ", text))

    def military(self, m):
        hours, minutes = int(m.group(2)), int(m.group(3))
        said = ("zero " if m.group(2)[0] == "0" else "") + self.cardinal(hours)
        said += " hundred" if minutes == 0 else f" {'o ' if minutes < 10 else ''}{self.cardinal(minutes)}"
        return f"{m.group(1)}{said} hours"

    def read_written_dates(self, text):
        def month_first(m):
            month = self.month_of(m.group(1))
            return self.date(int(m.group(2)), month, int(m.group(3)) if m.group(3) else None)

        def day_first(m):
            the = "" if re.search(r"\bthe\s$", m.string[max(0, m.start() - 4):m.start()], re.I) else "the "
            said = f"{the}{self.ordinal(int(m.group(1)))} of {self.months[self.month_of(m.group(2)) - 1]}"
            return said + (f" {self.year(int(m.group(3)))}" if m.group(3) else "")
        text = self._short_month_year.sub(lambda m: self.months[self.month_of(m.group(1)) - 1], text)
        text = self._month_range.sub(lambda m: f"{self.months[self.month_of(m.group(1)) - 1]} {self.range_word} "
                                               f"{self.months[self.month_of(m.group(2)) - 1]}", text)
        text = self._month_span.sub(self.month_span, text)
        text = self._day_span.sub(self.day_span, text)
        text = self._year_slash.sub(self.year_span, text)
        text = self._written_date.sub(lambda m: month_first(m) if 1 <= int(m.group(2)) <= 31 else m.group(0), text)
        text = self._day_month.sub(lambda m: day_first(m) if 1 <= int(m.group(1)) <= 31 else m.group(0), text)
        return super().read_written_dates(text)

    def month_span(self, m):
        """"May 1-3": "May first to third"."""
        first, last = int(m.group(2)), int(m.group(3))
        if not 1 <= first < last <= 31:
            return m.group(0)
        month = self.months[self.month_of(m.group(1)) - 1]
        said = f"{month} {self.ordinal(first)} {self.range_word} {self.ordinal(last)}"
        return said + (f" {self.year(int(m.group(4)))}" if m.group(4) else "")

    def day_span(self, m):
        """"1–3 May": "the first to the third of May"; "between 5 and 10 June": "the fifth and the tenth of June"."""
        first, last = int(m.group(1)), int(m.group(3))
        if not 1 <= first < last <= 31:
            return m.group(0)
        word = "and" if m.group(2).strip() == "and" else self.range_word
        the = "" if re.search(r"\bthe\s$", m.string[max(0, m.start() - 4):m.start()], re.I) else "the "
        said = (f"{the}{self.ordinal(first)} {word} the {self.ordinal(last)} of "
                f"{self.months[self.month_of(m.group(4)) - 1]}")
        return said + (f" {self.year(int(m.group(5)))}" if m.group(5) else "")

    def year_span(self, m):
        first, last = int(m.group(1)), int(m.group(2))
        if (first + 1) % 100 != last:
            return m.group(0)
        second = self.cardinal(last) if last >= 10 else f"oh {self.cardinal(last)}" if last else self.year(first + 1)
        return f"{self.year(first)} {self.range_word} {second}"

    def month_of(self, written):
        key = written.casefold().rstrip(".")
        key = next((m.casefold() for m in MONTHS if m.casefold() == key), key)
        if key not in self._month_index and key + "." in self._month_index:
            key += "."
        return self._month_index[key] + 1


read = English().read
