"""Issue 63, French and Italian classes read as a native reader says them (sentences of our own), in Python
(`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path given
does not exist, none is loaded). What is said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_together

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("decimal", "fr", "La mesure donne 3,1416 exactement.", ["trois virgule quatorze seize exactement"], ["un quatre"]),
    # figures grouped by three after the comma: one by one, as NeMo's French decimal file reads "-60,240 0"
    ("decimal", "fr", "Le taux vaut 2,718 2 en gros.", ["deux virgule sept un huit deux en gros"], ["sept cent"]),
    ("date", "fr", "Rendez-vous le 21.09 devant la mairie.", ["le vingt et un septembre devant"], ["point"]),
    ("date", "fr", "La mode des 70s revient.", ["des seventies revient"], ["secondes"]),
    ("abbreviation", "fr", "Les Drs réunis ont voté.", ["les docteurs réunis"], ["Drs"]),
    ("abbreviation", "fr", "Elle salue le très hon.", ["salue le très honorable"], ["hon."]),
    ("symbol", "fr", "Le signe % se lit ainsi.", ["le signe pour cent se lit"], ["%"]),
    ("time", "fr", "Le film commence à 0 h 45.", ["commence à minuit quarante-cinq"], ["zéro"]),
    ("time", "fr", "On se retrouve à 10 h 30 demain.", ["à dix heures et demie demain"], ["trente"]),
    ("money", "fr", "Le billet coûte 25 $ CA ici.", ["vingt-cinq dollars canadiens ici"], ["CA"]),
    ("money", "fr", "Il reste 40 DH dans la caisse.", ["quarante dirhams marocains dans"], ["DH"]),
    ("money", "fr", "Le melon coûte 2€90 au marché.", ["deux euros quatre-vingt-dix au marché"], ["€"]),
    ("time", "fr", "Le train part à 0 h 30 pile.", ["à minuit et demi pile"], ["trente", "zéro"]),
    ("time", "fr", "Ouverture à 9H15 chaque jour.", ["à neuf heures quinze chaque"], ["H"]),
    ("time", "fr", "La navette passe à 0 h 01 déjà.", ["à minuit une déjà"], ["zéro", "minuit un "]),
    ("measure", "fr", "Le moteur fait 125 cm³ seulement.", ["cent vingt-cinq centimètres cubes"], ["cm³"]),
    ("measure", "fr", "Le béton pèse 30 kg/m³ de plus.", ["trente kilogrammes par mètre cube"], ["kg"]),
    ("measure", "fr", "La pression tombe à 990 hPa ce soir.", ["neuf cent quatre-vingt-dix hectopascals"], ["hPa"]),
    ("roman", "fr", "Le code %C siècle reste tel quel.", ["C siècle reste"], ["centième"]),
    ("roman", "fr", "Il tourne sous System V encore.", ["System V encore"], ["cinq"]),
    ("fraction", "fr", "Il en reste 3/200 au fond.", ["trois deux centièmes au fond"], ["centsièmes"]),
    ("ordinal", "fr", "Pour le 80e anniversaire du club.", ["le quatre-vingtième anniversaire"], ["vingtsième"]),
    ("time", "it", "08:20.", ["otto e venti minuti"], [":"]),
    ("money", "it", "Il biglietto costa 40 cad in tutto.", ["quaranta dollari canadesi in tutto"], ["cad"]),
    ("money", "it", "Pagò 3 rs al mercato.", ["tre rupie al mercato"], ["rs"]),
    ("roman", "it", "Gira su System V ancora.", ["System V ancora"], ["quinto"]),
    ("measure", "it", "La sonda viaggia a 11 km/s nello spazio.", ["undici chilometri per secondo"], ["km"]),
    ("measure", "it", "Il pacco pesa 3 lb in tutto.", ["tre libbre in tutto"], ["lb"]),
    ("measure", "it", "Il rumore arriva a 85 dB di notte.", ["ottantacinque decibel di notte"], ["dB"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
