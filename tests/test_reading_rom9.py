"""Issue 63, Spanish, German and Portuguese classes read as a native reader says them (sentences of our own), in
Python (`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path
given does not exist, none is loaded). What is said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests


# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("time", "es", "El eclipse empezó a las 3:02:32 p.m. y duró poco.",
     ["tres horas dos minutos y treinta y dos segundos de la tarde y duró"], ["p.m", "p. m"]),
    ("time", "es", "La alarma sonó a las 6:15:40 a.m. en el cuartel.",
     ["seis horas quince minutos y cuarenta segundos de la mañana en el cuartel"], ["a.m", "punto"]),
    ("time", "es", "Se cortó la luz a las 11:05:20 p.m. GMT en toda la isla.",
     ["de la noche G M T en toda la isla"], ["noche."]),
    ("time", "es", "La emisión es a las 5:00 p.m. cst-2 en México.", ["de la tarde C S T menos dos"], ["-"]),
    ("fraction", "es", "Las 2/3 partes del Congreso votaron a favor.", ["las dos terceras partes del Congreso"],
     ["tercios"]),
    ("fraction", "es", "Solo 1/4 parte de la cosecha se salvó.", ["solo una cuarta parte de la cosecha"],
     ["cuarto"]),
    ("telephone", "es", "Reservas en el Tel. 91 234 56 78 de lunes a viernes.",
     ["en el teléfono nueve uno dos tres cuatro cinco seis siete ocho de lunes"], ["Tel."]),
    ("telephone", "es", "Pedidos al tfno.: 600 123 456 hasta las ocho.",
     ["al teléfono seis cero cero uno dos tres cuatro cinco seis"], ["tfno"]),
    ("telephone", "fr", "Gîte à louer, Tél.06 12 34 56 78 le soir.", ["téléphone zéro six douze"], ["Tél."]),
    ("telephone", "pt", "Tel.: (21) 2345-6789 para pedidos.", ["telefone dois um dois três"], ["Tel."]),
    ("telephone", "de", "Die Zentrale ist unter (0) 1234-5678 erreichbar.",
     ["unter null eins zwei drei vier fünf sechs sieben acht erreichbar"], ["tausend", "(0)"]),
    ("telephone", "de", "Rufen Sie 01 234-5678 am Vormittag an.",
     ["rufen sie null eins zwei drei vier fünf sechs sieben acht am Vormittag"], ["bis", "hundert"]),
    ("telephone", "de", "Aus dem Ausland wählen Sie 49 1234 5678 ohne Plus.",
     ["wählen sie neunundvierzig eins zwei drei vier fünf sechs sieben acht ohne"], ["tausend"]),
    ("telephone", "de", "Die Hotline 0 12345678 ist kostenlos.",
     ["die hotline null eins zwei drei vier fünf sechs sieben acht ist"], ["Million"]),
    ("time", "de", "Der Film beginnt um 20.15 im großen Saal.", ["um zwanzig Uhr fünfzehn im großen Saal"],
     ["Punkt"]),
    ("time", "de", "Wir essen gegen 7.30 zu Abend.", ["gegen sieben Uhr dreißig zu Abend"], ["Punkt"]),
    ("time", "de", "Die Siegerin lief die Strecke in 3:45:12 h.",
     ["in drei Stunden fünfundvierzig Minuten zwölf Sekunden"], [" h", "Uhr"]),
    ("time", "de", "Die Fahrzeit beträgt 2:15 h ab Berlin.",
     ["beträgt zwei Stunden fünfzehn Minuten ab Berlin"], [" h ", "Uhr"]),
    ("score", "es", "El Betis ganó 3-1 al Sevilla en casa.", ["ganó tres a uno al Sevilla"], ["-"]),
    ("score", "fr", "Lens a gagné 2-0 contre Lille hier.", ["gagné deux à zéro contre Lille"], ["-"]),
    ("score", "pt", "O Santos venceu 4-2 o Palmeiras ontem.", ["venceu quatro a dois o Palmeiras"], ["-"]),
    ("symbol", "es", "El envío cuesta 4,95 € + IVA.", ["noventa y cinco céntimos más IVA"], ["+"]),
    ("symbol", "fr", "Le forfait coûte 29 € + TVA par mois.", ["vingt-neuf euros plus TVA par mois"], ["+"]),
    ("measure", "es", "Las naranjas salen a 2 € el kg en el mercado.", ["dos euros el kilogramo en el mercado"],
     ["kg"]),
    ("measure", "es", "Hubo un accidente en el km 42 de la autovía.", ["en el kilómetro cuarenta y dos de la"],
     ["km"]),
    ("measure", "fr", "Le prix par m² a encore monté.", ["le prix par mètre carré a encore"], ["m²"]),
    ("measure", "pt", "O tomate está R$ 6 o kg na feira.", ["seis reais o quilograma na feira"], ["kg"]),
    ("measure", "de", "Äpfel kosten 2 € pro kg im Laden.", ["zwei Euro pro Kilogramm im Laden"], ["kg"]),
    ("abbreviation", "de", "Das Set kostet 9,99 € inkl. MwSt. und Versand.", ["inklusive Mehrwertsteuer und"],
     ["MwSt"]),
    ("abbreviation", "de", "Treffpunkt ist der Bhf. Altona um 9 Uhr.", ["der Bahnhof Altona um neun Uhr"], ["Bhf"]),
    ("abbreviation", "de", "Im Aufzug max. 4 Personen.", ["maximal vier Personen"], ["max."]),
    ("measure", "es", "Se vende piso de 90 m2 en el centro.", ["noventa metros cuadrados en el centro"], ["m2"]),
    ("measure", "fr", "Appartement de 45 m2 au calme.", ["quarante-cinq mètres carrés au calme"], ["m2"]),
    ("measure", "pt", "Depósito de 12 m3 de água.", ["doze metros cúbicos de água"], ["m3"]),
    ("measure", "es", "El móvil trae una batería de 4.000 mAh.", ["cuatro mil miliamperios hora"], ["mAh"]),
    ("measure", "es", "El cuadro mide 30 x 40 cm de lado.", ["treinta por cuarenta centímetros"], [" x "]),
    ("decimal", "pt", "A taxa subiu 0.25 ponto no mês.", ["subiu zero ponto vinte e cinco ponto"], ["vírgula"]),
    ("decimal", "pt", "O juro é de ,75 ao mês.", ["é de vírgula sete cinco ao mês"], [","]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES)
