"""Issue 63, second pass on French, Spanish, Italian and Portuguese: each class a rule a native reader states,
on sentences of our own, seen in Python (`normalize`), on the command line's dry run (`--dry-run` prints each
piece as it will be spoken; no model is loaded) and over HTTP (a real server process: the audio of a text equals,
code for code, that of the words it is read as, given with normalization off). Readings are compared after
casefolding and keeping only letters and digits."""

import subprocess
import sys
import unicodedata
from pathlib import Path

import httpx
import pytest

from server_harness import API_KEY, env, shared_server

from mlx_qwen3tts.text.normalize import normalize

REPO = Path(__file__).resolve().parent.parent

# (class, language, written, as a native reader reads it)
CASES = [
    # A currency's sign or code, before or after the amount, in any case, read as its name, agreeing with it.
    ("money", "es", "El billete cuesta 1 kr en Oslo, 3 ₩ en Seúl y 40 chf en Zúrich.",
     "El billete cuesta una corona en Oslo, tres wones en Seúl y cuarenta francos suizos en Zúrich."),
    ("money", "es", "Pagó HNL 1 y 13 hkd por el café.",
     "Pagó un lempira y trece dólares de Hong Kong por el café."),
    # Titles are said wherever they stand; "24/7" round the clock; a product and an equality between numbers.
    ("abbreviation", "fr", "Bonjour Mᵐᵉ, votre train part à 7 h 40 ; merci, Mlle.",
     "Bonjour madame, votre train part à sept heures quarante ; merci, mademoiselle."),
    ("symbol", "fr", "Le service répond 24/7 : 3 * 5 = 15.",
     "Le service répond vingt-quatre heures sur vingt-quatre, sept jours sur sept : trois fois cinq égale quinze."),
    ("symbol", "pt", "A farmácia abre 24/7 e 2 * 3 = 6.",
     "A farmácia abre vinte e quatro horas por dia, sete dias por semana e dois vezes três igual a seis."),
    # "+" between two terms is "plus"; a noun counted per unit of time; a caret typed for the ordinal mark; a
    # feminine ending typed without its accents.
    ("symbol", "es", "El gasto en I+D subió y el módem va a 9600 bits/seg.",
     "El gasto en I más D subió y el módem va a nueve mil seiscientos bits por segundo."),
    ("symbol", "it", "Costa 300 euro + IVA e il modem trasmette 2400 bit/sec.",
     "Costa trecento euro più IVA e il modem trasmette duemilaquattrocento bit al secondo."),
    ("ordinal", "it", "Il 1^ maggio la 2^ squadra gioca.", "Il primo maggio la seconda squadra gioca."),
    ("agreement", "pt", "Foram 200 informacoes e 21 licoes.", "Foram duzentas informacoes e vinte e uma licoes."),
    # A number standing for a noun counted shortly before takes its gender (and elides before no preposition).
    ("agreement", "pt", "Comprei 3 revistas e li 1 no ônibus.", "Comprei três revistas e li uma no ônibus."),
    ("agreement", "es", "Había 12 galletas y me comí 1 con café.", "Había doce galletas y me comí una con café."),
    ("agreement", "it", "Ho 2 sorelle: 1 a Roma e 1 a Milano.", "Ho due sorelle: una a Roma e una a Milano."),
    # An ordinal mark after a grouped number; a roman numeral between an article and its noun is an ordinal.
    ("ordinal", "es", "Celebró el 1.000.º partido y la 1.000ª función.",
     "Celebró el milésimo partido y la milésima función."),
    ("ordinal", "es", "Matías fue el XI apóstol y esta es la III edición del IV Congreso.",
     "Matías fue el undécimo apóstol y esta es la tercera edición del cuarto Congreso."),
    # A year before or after Christ; a century in small letters. (A weekday abbreviated before a date, "sáb. 4
    # de mayo" "sábado cuatro de mayo", is read in Python; the command line cuts a piece at its dot today.)
    ("date", "es", "La ciudad data del 300 a. C. y floreció en el siglo xii.",
     "La ciudad data del trescientos antes de Cristo y floreció en el siglo doce."),
    # A 24-hour time before the part of the day is said on the twelve-hour clock.
    ("time", "pt", "O show começa às 21:00 da noite e acaba às 23:30 da noite.",
     "O show começa às nove horas da noite e acaba às onze horas e trinta da noite."),
    ("time", "fr", "Le bar ouvre à 18:30 du soir.", "Le bar ouvre à six heures trente du soir."),
    # A time before a zone, zero seconds unsaid, hours and minutes by their letters.
    ("time", "es", "La señal se emite a las 9.30 EST, a las 12:00:00 GMT y a las 10h15m.",
     "La señal se emite a las nueve y media EST, a las doce GMT y a las diez y quince."),
    # Nine figures in three hyphenated threes are a telephone number, said figure by figure.
    ("telephone", "es", "Pida cita en el 912-345-678.",
     "Pida cita en el nueve uno dos tres cuatro cinco seis siete ocho."),
    # A day past the twelfth over a month is a date, no fraction.
    ("date", "pt", "A loja fecha de 24/12 a 31/12.",
     "A loja fecha de vinte e quatro de dezembro a trinta e um de dezembro."),
    ("date", "it", "Chiuso dal 15/8 al 20/8.", "Chiuso dal quindici agosto al venti agosto."),
    # A unit per another takes the half on its first noun; a whole and a part as one amount of the noun.
    ("measure", "es", "El glaciar avanza a 1 1/2 mph; añada 2 3/4 cdas. de aceite.",
     "El glaciar avanza a una milla y media por hora; añada dos y tres cuartos de cucharada de aceite."),
    # A price per unit after a slash.
    ("measure", "fr", "Le terrain coûte 120 €/m² et le loyer 15 € /m².",
     "Le terrain coûte cent vingt euros par mètre carré et le loyer quinze euros par mètre carré."),
    ("measure", "pt", "O tomate custa R$ 8/kg.", "O tomate custa oito reais por quilograma."),
    # A dot before one or two figures and a scale word is a decimal point written the English way.
    ("money", "pt", "A empresa captou $ 4.8 milhões em 2023.",
     "A empresa captou quatro ponto oito milhões de dólares em dois mil e vinte e três."),
    ("money", "es", "La obra costó €2.5 millones.", "La obra costó dos punto cinco millones de euros."),
    ("measure", "pt", "O pacote pesa 1.05 kg e mede 2.5 m.",
     "O pacote pesa um ponto zero cinco quilogramas e mede dois ponto cinco metros."),
    # A time on the twelve-hour clock: the part of the day said, a quarter and a half as words.
    ("time", "es", "El tren sale a las 7:30 a.m. y vuelve a las 6:15 p.m. cada día.",
     "El tren sale a las siete y media de la mañana y vuelve a las seis y cuarto de la tarde cada día."),
    ("time", "es", "La reunión es a las 12.00 p.m. y la cena a las 10:45 PM.",
     "La reunión es a las doce del mediodía y la cena a las once menos cuarto de la noche."),
    ("time", "es", "El vuelo dura 2.40 h y aterriza a las 20:00 GMT-3.",
     "El vuelo dura dos y cuarenta y aterriza a las veinte G M T menos tres."),
    # A part of a round thousand or million is one word; past that, "sobre"; a whole number before it joins with
    # "y"; the RAE's ordinals as parts (cuadringentésimo).
    ("fraction", "es", "El error es de 1/5000 o 3/100.000, no de 1/1300 ni de 2 3/400.",
     "El error es de un cincomilésimo o tres cienmilésimos, no de uno sobre mil trescientos ni de dos y tres "
     "cuadringentésimos."),
    # A long decimal two figures at a time; one led by zeros figure by figure.
    ("decimal", "es", "Pi vale 3,1415 y el margen 0,0125.",
     "Pi vale tres coma catorce quince y el margen cero coma cero uno dos cinco."),
    # A temperature's scale letter in either case; a number per unit after a slash.
    ("measure", "es", "De noche baja a -8° c y el viento sopla a 12/s.",
     "De noche baja a menos ocho grados Celsius y el viento sopla a doce por segundo."),
]
IDS = [f"{c[0]}-{c[1]}-{c[2][:24]}" for c in CASES]


def folded(text: str) -> str:
    return "".join(ch for ch in text.casefold() if unicodedata.category(ch)[0] in "LN")


@pytest.mark.parametrize("cls, language, written, said", CASES, ids=IDS)
def test_each_class_is_read_right_in_python(cls, language, written, said):
    assert folded(normalize(written, language)) == folded(said), normalize(written, language)


@pytest.mark.parametrize("language", sorted({c[1] for c in CASES}))
def test_each_class_is_read_right_on_the_command_line(tmp_path, language):
    cases = [c for c in CASES if c[1] == language]
    source = tmp_path / "cases.txt"  # one paragraph a case: a piece each
    source.write_text("\n\n".join(written for _, _, written, _ in cases) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--dry-run", "--model", "/no/such/model",
                           "--text-file", str(source), "--language", language], capture_output=True, text=True,
                          env=env(), cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    printed = folded(done.stdout)
    for _, _, written, said in cases:
        assert folded(said) in printed, (written, done.stdout)
        printed = printed.split(folded(said), 1)[1]  # in order


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    server = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY)
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=120) as client:
        yield client


def _speech(http, text: str, language: str, **extra) -> bytes:
    answer = http.post("/v1/audio/speech", json={"model": "tts-1", "input": text, "voice": "serena", "temperature": 0,
                                                 "max_new_tokens": 6, "response_format": "pcm", "language": language,
                                                 **extra})
    assert answer.status_code == 200, answer.text
    return answer.content


@pytest.mark.parametrize("cls, language, written, said", CASES, ids=IDS)
def test_each_class_is_read_right_over_http(http, cls, language, written, said):
    from mlx_qwen3tts.text import spoken

    words = spoken(written, language)
    assert folded(words) == folded(said), words
    assert _speech(http, written, language) == _speech(http, words, language, normalize=False)


def test_a_weekday_abbreviated_before_a_date_is_said_in_full():
    """Python only: the command line's cutter ends a piece at "sáb." before a number today (cutting.py)."""
    said = normalize("Abre el sáb. 4 de mayo y cierra el Dom. 12 de mayo.", "es")
    assert folded(said) == folded("Abre el sábado cuatro de mayo y cierra el Domingo doce de mayo."), said
