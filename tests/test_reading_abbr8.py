"""Issue 63, round eight: abbreviations said, not read as written, and their dots inside a sentence. fr, es, it, pt say
a unit written with its dot and keep the dot only where it ends the sentence ("10 min. à feu doux": "dix minutes à
feu doux"; "sec.", "seg.", "hab.", "ab." too); it and ru say a month's abbreviation after a day's number ("5 gen.
2024", "5 янв. 2024": the month, in Russian in the genitive); en "eqs.", de "Stk.", "Pkt."; ru a street's word before
its name in its preposition's case ("на ул. Ленина": "на улице Ленина"). The cutter ends no sentence after ru "руб."
before a number or a small letter (so "до 10 руб. 50 коп." keeps its case), after a street's word before its name,
nor after ko "Ver.", "max." before a number, nor after de "Tsd." (as "Mio."). Sentences of our own, in Python (`text.spoken`, `text.sentences`, a
`PieceCutter` fed in deltas) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the model
path given does not exist, none is loaded)."""


from reading_cases import class_tests, cutter_tests, read_each_on_the_command_line, said_together

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("measure", "fr", "Laisser cuire 10 min. à feu doux.", ["dix minutes à feu doux"], ["min.", "minutes."]),
    ("measure", "fr", "Compter 30 sec. de plus.", ["trente secondes de plus"], ["sec.", "secondes."]),
    ("measure", "fr", "Le village compte 800 hab. en hiver.", ["huit cents habitants en hiver"], ["hab."]),
    ("measure", "es", "Hervir 10 min. a fuego lento.", ["diez minutos a fuego lento"], ["min.", "minutos."]),
    ("measure", "es", "Esperar 30 seg. y remover.", ["treinta segundos y remover"], ["seg.", "segundos."]),
    ("measure", "es", "El pueblo tiene 800 hab. en invierno.", ["ochocientos habitantes en invierno"], ["hab."]),
    ("measure", "it", "Cuocere 10 min. a fuoco lento.", ["dieci minuti a fuoco lento"], ["min.", "minuti."]),
    ("measure", "it", "Attendere 30 sec. e servire.", ["trenta secondi e servire"], ["sec.", "secondi."]),
    ("measure", "it", "Il paese ha 900 ab. in inverno.", ["novecento abitanti in inverno"], ["ab."]),
    ("measure", "pt", "Cozinhe 10 min. em fogo baixo.", ["dez minutos em fogo baixo"], ["min.", "minutos."]),
    ("measure", "pt", "Espere 30 seg. e mexa.", ["trinta segundos e mexa"], ["seg.", "segundos."]),
    ("measure", "pt", "A vila tem 900 hab. no inverno.", ["novecentos habitantes no inverno"], ["hab."]),
    ("date", "it", "Il 5 gen. 2024 piovve.", ["cinque gennaio duemilaventiquattro"], ["gen."]),
    ("date", "it", "Dal 3 feb. al 5 mar. si chiude.", ["tre febbraio al cinque marzo si chiude"], ["feb.", "mar."]),
    ("date", "it", "Nato il 12 ott. del 1990 a Roma.", ["dodici ottobre del millenovecentonovanta"], ["ott."]),
    ("date", "es", "Llovió el 9 de may. de 2023 en Quito.", ["nueve de mayo de dos mil veintitrés"], ["may."]),
    ("date", "ru", "Он родился 5 янв. 2024 года.", ["января две тысячи двадцать четвёртого года"], ["янв."]),
    ("date", "ru", "Срок до 3 сент. включительно.", ["до третьего сентября включительно"], ["сент."]),
    ("date", "ru", "Собрание 12 февр. в зале.", ["февраля в зале"], ["февр."]),
    ("abbreviation", "en", "See eqs. 3 and 4 for the proof.", ["equations three and four"], ["eqs"]),
    ("abbreviation", "en", "The course runs 6 wks. in all.", ["six weeks in all"], ["wks", "weeks."]),
    ("abbreviation", "de", "Bitte 3 Stk. kaufen.", ["drei Stück kaufen"], ["Stk"]),
    ("abbreviation", "de", "Er hat 20 Pkt. erreicht.", ["zwanzig Punkte erreicht"], ["Pkt"]),
    ("abbreviation", "de", "Es kamen 5 Tsd. Menschen zum Fest.", ["fünf Tausend Menschen zum Fest"], ["Tsd"]),
    ("abbreviation", "ru", "Живёт на ул. Ленина с детства.", ["на улице Ленина"], ["ул."]),
    ("abbreviation", "ru", "Адрес: ул. Гагарина, дом 3.", ["улица Гагарина"], ["ул."]),
    ("abbreviation", "ru", "Ул. Ленина закрыта на ремонт.", ["Улица Ленина закрыта"], ["Ул."]),
]

test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)


def test_roubles_and_kopecks_are_one_piece_in_their_case_on_the_command_line(tmp_path):
    """Cut after "руб." (as before), "50 коп. за штуку" began a piece of its own, read in the nominative."""
    read_each_on_the_command_line(tmp_path, "ru", [("Цена до 10 руб. 50 коп. за штуку.",
                                                    ["до десяти рублей пятидесяти копеек за штуку"], ["руб.", "коп."])])


# Each one sentence: the abbreviation's dot inside it.
GOES_ON = ["Цена до 10 руб. 50 коп. за штуку.", "Стоит 100 руб. за штуку.", "Живёт на ул. Ленина в доме 5.",
           "Встреча на пл. Победы в полдень.", "Ver. 2에서 바뀌었다.", "max. 30도까지 올라간다.",
           "Es kamen 5 Tsd. Menschen.", "Ул. Ленина закрыта на ремонт.", "Le 3 janv. 2024 il neigeait."]
# The same abbreviations before a capital that starts the next sentence: two sentences, as before.
ENDS = ["Это стоит 100 руб. Потом подорожает.", "Цена 100 руб. Скидок нет."]


(test_the_cutter_goes_on_after_an_amount_a_street_or_a_label,
 test_the_cutter_still_ends_a_sentence_after_an_amount_before_a_capital,
 test_the_cutter_cuts_the_same_given_in_deltas) = cutter_tests(GOES_ON, ENDS, "Дальше идём.")
