"""Issue 63, French, German and Italian round five: classes read as NeMo's grammars of the language list their
forms, on sentences of our own, in Python (`text.spoken`, `text.normalize.normalize`) and through the command
line's dry run (`mlx_qwen3tts.generate --dry-run`, no model loaded).

French times written "9 h 15" (spaced, as typeset French and NeMo's French time grammar write them) in the
twelve-hour range say a quarter past as "et quart" and a quarter to the next hour as "moins le quart" (NeMo:
"douze heures et quart", "quatre heures moins le quart"), as they already said half past as "et demie"; a clock's
"9:15" keeps its minutes. French money: zero takes the singular ("0 €": zéro euro), the cents after the
currency's name ("2 euros 50": deux euros cinquante) and a price with the English decimal point before its sign
("12.50 $": douze dollars cinquante), a sign after a scale's "de" its name ("3,5 millions de €": trois
virgule cinq millions d'euros). Italian money names every sign of NeMo's Italian currency table
(data/it_currencies.tsv: "250 ₺": duecentocinquanta lire turche). German thousands ending in one say
"ein" before "tausend" ("101000": einhunderteintausend, not num2words' "einhunderteinstausend"), and a share of a
round hundred or more is a fraction as NeMo's German fraction grammar reads any denominator ("1/250": ein
Zweihundertfünfzigstel); a telephone number after a two-digit country code written without "+" (or "0"),
its number joined by a hyphen, as NeMo's German telephone grammar takes it ("49 4567-1234": neunundvierzig, vier
fünf sechs sieben, eins zwei drei vier)."""

from reading_cases import class_tests, said_in_order

# (class, language, written, what must be said in this order, written forms that must not be said)
CASES = [
    ("time", "fr", "Le train part à 9 h 15 et arrive à 10 h 45, l'horloge affiche 9:15.",
     ["part à neuf heures et quart", "arrive à onze heures moins le quart", "affiche neuf heures quinze"],
     ["quarante"]),
    ("time", "fr", "Le bus passe à 11 h 45 et le dernier à 12 h 15.",
     ["passe à midi moins le quart", "le dernier à douze heures et quart"], ["quinze", "quarante"]),
    ("money", "fr", "Le compte affiche 0 € et le sac coûte 2 euros 50 le kilo.",
     ["affiche zéro euro et", "coûte deux euros cinquante le kilo"], ["euros et", "deux cinquante"]),
    ("money", "fr", "Le ticket vaut 12.50 $ et le pain 1.5 € ce matin.",
     ["vaut douze dollars cinquante et le pain un euro cinquante ce matin"], ["point", "$", "€"]),
    ("money", "fr", "Un budget de 3,5 millions de € et de 2 milliards de $ cette année.",
     ["trois virgule cinq millions d'euros et de deux milliards de dollars cette"], ["€", "$"]),
    ("money", "it", "Il tappeto costa 250 ₺ e il biglietto 1 ₴, la mancia 3 ₪.",
     ["costa duecentocinquanta lire turche", "il biglietto una grivnia ucraina",
      "la mancia tre nuovi sicli israeliani"],
     ["₺", "₴", "₪"]),
    ("telephone", "de", "Sie erreichen uns unter 49 4567-1234 oder 0 7654-3210.",
     ["unter neunundvierzig vier fünf sechs sieben eins zwei drei vier", "oder null sieben sechs fünf vier drei"],
     ["tausend", "hundert"]),
    ("cardinal", "de", "Die Stadt hat 101000 Einwohner und 201000 Gäste.",
     ["einhunderteintausend Einwohner", "zweihunderteintausend Gäste"], ["einstausend"]),
    ("fraction", "de", "Nur 1/250 der Fläche und 3/500 des Budgets, 1/1000000 der Masse.",
     ["ein Zweihundertfünfzigstel der Fläche", "drei Fünfhundertstel des Budgets", "ein Millionstel der Masse"],
     ["/"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)
