"""Issue 63, French round two: money and the number before a noun as a native reader says them (own sentences),
in Python (`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path
given does not exist, none is loaded). What is said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_together

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("money", "fr", "Le timbre coûte 75 ¢ au Canada.", ["soixante-quinze cents au Canada"], ["¢"]),
    ("money", "fr", "Ajoutez 20 cts pour le sac.", ["vingt centimes pour le sac"], ["cts"]),
    ("money", "fr", "Le repas coûte 2 500 FCFA à Dakar.", ["deux mille cinq cents francs CFA à Dakar"], ["FCFA"]),
    ("money", "fr", "Le loyer atteint 60 000 XOF par an.", ["soixante mille francs CFA par an"], ["XOF"]),
    ("money", "fr", "La subvention atteint 1,5 M€ cette année.", ["un virgule cinq million d'euros cette"],
     ["millions"]),
    ("money", "fr", "Le déficit frôle 1,2 Md€ selon la presse.", ["un virgule deux milliard d'euros selon"],
     ["milliards"]),
    ("money", "fr", "Un budget de 50 k€ puis de 1,5 k€ par mois.",
     ["un budget de cinquante mille euros puis de mille cinq cents euros par mois"], ["k€"]),
    ("money", "fr", "La dette atteint 3 Mds€ cette année.", ["trois milliards d'euros cette"], ["Mds"]),
    ("money", "fr", "L'abonnement coûte 15 €/mois et 20 €/pers le soir.",
     ["coûte quinze euros par mois et vingt euros par personne le soir"], ["/"]),
    ("time", "fr", "Comptez 1 h 30 min de cuisson au four.", ["comptez une heure trente minutes de cuisson"],
     ["demie", "min "]),
    ("range", "fr", "Le musée ouvre 9h-18h puis 10-12h le dimanche.",
     ["ouvre neuf heures à dix-huit heures puis dix à douze heures le dimanche"], ["heures-"]),
    ("symbol", "fr", "Le service répond 24h/24 et 7j/7 sans pause.",
     ["répond vingt-quatre heures sur vingt-quatre et sept jours sur sept sans"], ["/"]),
    ("abbreviation", "fr", "Rendez-vous à St-Malo pour la Ste-Anne.", ["à Saint-Malo pour la Sainte-Anne"], ["St"]),
    ("cardinal", "fr", "Un billet de 1 € pour compter de 1 à 10.", ["un billet d'un euro pour compter de un à dix"],
     ["de un euro"]),
    ("cardinal", "fr", "Il ne reste que 1 place libre.", ["il ne reste qu'une place libre"], ["que une"]),
    ("time", "fr", "Fermé de 1 h à 5 h du matin.", ["fermé d'une heure à cinq heures"], ["de une"]),
    ("cardinal", "fr", "Le guide donne 1 étoile au bistrot.", ["le guide donne une étoile au"], ["un étoile"]),
    ("cardinal", "fr", "Elle a eu 21 idées ce matin.", ["elle a eu vingt et une idées"], ["et un idées"]),
    ("cardinal", "fr", "Prendre 1 comprimé 1 fois par jour, soit 3 fois 7 en tout.",
     ["prendre un comprimé une fois par jour soit trois fois sept en tout"], ["un fois"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
