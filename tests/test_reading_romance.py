"""Issue 63, French, Spanish, Italian and Portuguese: each class of misreading on sentences of our own (recipes,
news, timetables), read as a native reader reads them, seen where a user sees it: Python (`normalize`), the
command line's dry run (`--dry-run` prints each piece as it will be spoken; no model is loaded) and HTTP (a real
server process: the audio of a text equals, code for code, that of the words it is read as, given with
normalization off). Readings are compared after casefolding and keeping only letters and digits."""

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
    # A word after a number is a unit only where it stands as one: an elided article is no litre.
    ("context", "fr", "En 2021 l'État a dépensé 3 m de plus.",
     "En deux mille vingt et un l'État a dépensé trois mètres de plus."),
    ("context", "it", "Nel 2019 l’inflazione era all'1 %, nel 2022 l'8 %.",
     "Nel duemiladiciannove l’inflazione era all'uno per cento, nel duemilaventidue l'otto per cento."),
    ("context", "it", "La mostra è aperta dal 8 marzo al 11 aprile.",
     "La mostra è aperta dall'otto marzo all'undici aprile."),
    ("context", "it", "Nel 2021 l'azienda ha venduto 3 l di olio.",
     "Nel duemilaventuno l'azienda ha venduto tre litri di olio."),
    # Degrees after "a", before "per"/"durante", before C; an ordinal after an article or before a month.
    ("degrees", "es", "Hornear a 190º C durante 25 minutos en el 2º estante.",
     "Hornear a ciento noventa grados Celsius durante veinticinco minutos en el segundo estante."),
    ("degrees", "it", "Cuocere a 180° per 35 minuti, il 1° maggio.",
     "Cuocere a centottanta gradi per trentacinque minuti, il primo maggio."),
    ("degrees", "pt", "Asse a 220º por 15 minutos e sirva no 3º andar.",
     "Asse a duzentos e vinte graus por quinze minutos e sirva no terceiro andar."),
    ("degrees", "fr", "Préchauffer le four à 210° pendant 10 minutes.",
     "Préchauffer le four à deux cent dix degrés pendant dix minutes."),
    ("degrees", "es", "Mañana la máxima será de 36 ºC y la mínima de 21º.",
     "Mañana la máxima será de treinta y seis grados Celsius y la mínima de veintiún grados."),
    # A time written with a dot after "alle", "a las", "às".
    ("time", "it", "Il treno parte alle 7.30 e arriva alle 10.05.",
     "Il treno parte alle sette e trenta e arriva alle dieci e cinque."),
    ("time", "pt", "A loja abre às 9.30 e fecha às 18.45.",
     "A loja abre às nove horas e trinta e fecha às dezoito horas e quarenta e cinco."),
    # The cardinal agrees with the noun it counts, and apocopates before it.
    ("agreement", "es", "Mi abuela tiene 91 años, 1 perra y 1 gato; en el pueblo viven 300 personas.",
     "Mi abuela tiene noventa y un años, una perra y un gato; en el pueblo viven trescientas personas."),
    ("agreement", "es", "Se vendieron 200.400 entradas en 21 ciudades.",
     "Se vendieron doscientas mil cuatrocientas entradas en veintiuna ciudades."),
    ("agreement", "pt", "A viagem leva 2 horas e custou 400 libras a 1 família.",
     "A viagem leva duas horas e custou quatrocentas libras a uma família."),
    ("agreement", "pt", "O evento reuniu 2.300 pessoas e 32 bandas.",
     "O evento reuniu duas mil e trezentas pessoas e trinta e duas bandas."),
    ("agreement", "it", "Ho letto 1 rivista e 1 giornale in 1 ora.", "Ho letto una rivista e un giornale in un'ora."),
    ("agreement", "fr", "Le trajet dure 1 heure pour 41 places.",
     "Le trajet dure une heure pour quarante et une places."),
    # Money with the currency's name after the amount, as with its symbol.
    ("money", "it", "Il biglietto costa 3,00 euro, il panino 4,50 euro.",
     "Il biglietto costa tre euro, il panino quattro euro e cinquanta centesimi."),
    ("money", "es", "El menú del día cuesta 12,90 euros y el café 1,20 euros.",
     "El menú del día cuesta doce euros con noventa céntimos y el café un euro con veinte céntimos."),
    ("money", "pt", "O quilo do tomate sai por 7,90 reais na feira.",
     "O quilo do tomate sai por sete reais e noventa centavos na feira."),
    ("money", "fr", "Le billet coûte 2,50 dollars.", "Le billet coûte deux dollars cinquante."),
    # Recipe abbreviations read, with their gender and number.
    ("unread", "fr", "Ajouter 2 c. à soupe de sucre, 1 c. à café de sel et 25 cL de lait, puis cuire 10 mn.",
     "Ajouter deux cuillères à soupe de sucre, une cuillère à café de sel et vingt-cinq centilitres de lait, "
     "puis cuire dix minutes."),
    ("unread", "es", "Mezclar 250 gr. de harina con 1 cdta. de sal y 2 cdas. de aceite.",
     "Mezclar doscientos cincuenta gramos de harina con una cucharadita de sal y dos cucharadas de aceite."),
    ("unread", "pt", "Junte 2 xíc. (chá) de farinha e 1 colher (sopa) de manteiga.",
     "Junte duas xícaras de chá de farinha e uma colher de sopa de manteiga."),
    # Fractions: vulgar ones, the fraction slash, halves that agree, Spanish parts from eleven on.
    ("fraction", "es", "Añadir ½ taza de leche, 3⁄4 kg de patatas y dejar 1 1/2 h; es 1/13 del total.",
     "Añadir media taza de leche, tres cuartos de kilogramo de patatas y dejar una hora y media; es un treceavo "
     "del total."),
    ("fraction", "it", "Versare ½ bicchiere di vino e cuocere 1½ h.",
     "Versare un mezzo bicchiere di vino e cuocere un'ora e mezza."),
    ("fraction", "es", "Agregar 1 1/2 tazas de leche y 2 1/2 cucharaditas de canela.",
     "Agregar una taza y media de leche y dos cucharaditas y media de canela."),
    ("fraction", "pt", "Use ½ xícara de açúcar e 1/2 l de leite.",
     "Use meia xícara de açúcar e meio litro de leite."),
    ("fraction", "fr", "Laisser reposer ½ heure et ajouter 1/2 l de lait.",
     "Laisser reposer une demi-heure et ajouter un demi-litre de lait."),
    ("ordinal", "es", "Vive en la 13.ª planta y quedó 11.º en la carrera.",
     "Vive en la decimotercera planta y quedó undécimo en la carrera."),
    ("ordinal", "es", "Subimos al 1.er piso y luego al 3º piso; quedó en 3.er lugar.",
     "Subimos al primer piso y luego al tercer piso; quedó en tercer lugar."),
    ("agreement", "it", "A 40 anni ha corso per 20 ore.", "A quarant'anni ha corso per vent'ore."),
    ("measure", "fr", "Le cache occupe 64 Kio, la mémoire 2 Gio.",
     "Le cache occupe soixante-quatre kibioctets, la mémoire deux gibioctets."),
    ("money", "es", "Aquel disco costaba 1000 ptas en 1995.",
     "Aquel disco costaba mil pesetas en mil novecientos noventa y cinco."),
    ("ordinal", "fr", "Les 1ᵉʳˢ arrivés au XIXᵉ siècle et les 2ᵈᵉˢ places.",
     "Les premiers arrivés au dix-neuvième siècle et les secondes places."),
    ("date", "es", "El concierto es el 5 febrero 2025 y el ensayo abril 30.",
     "El concierto es el cinco de febrero de dos mil veinticinco y el ensayo treinta de abril."),
    ("cardinal", "pt", "A cidade tem 1.010.101 habitantes e recebeu 1.200.000 visitantes.",
     "A cidade tem um milhão e dez mil cento e um habitantes e recebeu um milhão e duzentos mil visitantes."),
    ("measure", "es", "El tren va a 245 mph entre 2 ciudades.",
     "El tren va a doscientas cuarenta y cinco millas por hora entre dos ciudades."),
    ("fraction", "fr", "Seul 1/20 des votants et 3/100 des inscrits.",
     "Seul un vingtième des votants et trois centièmes des inscrits."),
    ("fraction", "pt", "Só 3/20 dos alunos faltaram.", "Só três vinte avos dos alunos faltaram."),
    # A law's number and year, as lawyers and newsreaders say them.
    ("law", "es", "Lo regula la Ley 39/2015 del procedimiento administrativo.",
     "Lo regula la Ley treinta y nueve de dos mil quince del procedimiento administrativo."),
    ("law", "it", "Lo prevede la legge 241/1990 sul procedimento.",
     "Lo prevede la legge duecentoquarantuno del millenovecentonovanta sul procedimento."),
    ("law", "pt", "A Lei 8.666/93 trata de licitações.",
     "A Lei oito mil seiscentos e sessenta e seis de noventa e três trata de licitações."),
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
    printed = folded(done.stdout)  # a piece a line (a long paragraph may be two pieces)
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
    """The server speaks the text as the words a reader says (the reading shown by the Python API, which must be
    those words); the HTTP answer shows no text, so its audio is compared with that of the words."""
    from mlx_qwen3tts.text import spoken

    words = spoken(written, language)
    assert folded(words) == folded(said), words
    assert _speech(http, written, language) == _speech(http, words, language, normalize=False)
