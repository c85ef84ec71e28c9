"""Issue 63, the shared classes and English/German: each class on sentences of our own, seen where a user sees it:
Python (`text.spoken`), the command line's dry run (`--dry-run` prints each piece as it will be spoken; the model
path given does not exist, none is loaded) and HTTP (a real server process: the audio of a text equals, code for
code, that of the words it should be read as, given with normalization off). The readings are those a native
reader gives; what is said is compared after casefolding and keeping letters and digits only."""

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import httpx
import pytest

from server_harness import API_KEY, env, shared_server

REPO = Path(__file__).resolve().parent.parent
CHECKPOINT = "custom_voice-0b6"  # the conftest `tts` fixture loads it


def folded(text: str) -> str:
    return "".join(ch for ch in text.casefold() if unicodedata.category(ch)[0] in "LN")


def spoken(text: str, language: str) -> str:
    from mlx_qwen3tts.text import spoken as text_spoken

    return text_spoken(text, language)


def dry_run(*args):
    """(exit status, printed lines, stderr) of `mlx_qwen3tts.generate --dry-run` with a model that does not exist."""
    done = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--dry-run", "--model", "/no/such/model",
                           *map(str, args)], capture_output=True, text=True, env=env(), cwd=REPO, timeout=120)
    return done.returncode, done.stdout.splitlines(), done.stderr


# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("context", "en", "Only 1 in 8 adults voted.", ["one in eight adults"], ["inch"]),
    ("context", "en", "Prices climbed to 450 in April.", ["four hundred fifty in April"], ["inch"]),
    ("context", "en", "The board is 2 ft 6 in wide.", ["two feet six inches wide"], []),
    ("context", "en", "The shelf is 14 in.", ["fourteen inches"], []),
    ("leading zeros", "en", "Call agent 009 now.", ["agent zero zero nine"], []),
    ("leading zeros", "en", "Enter PIN 0371 to open.", ["zero three seven one"], []),
    ("leading zeros", "de", "Die Postleitzahl 04109 gilt für Leipzig.", ["null vier eins null neun"], []),
    ("leading zeros", "de", "Bitte Mehl Type 0550 verwenden.", ["Type null fünf fünf null"], []),
    ("leading zeros", "fr", "Le code postal 07100 est en Ardèche.", ["zéro sept un zéro zéro"], []),
    ("leading zeros", "it", "Il CAP 00184 è Roma.", ["zero zero uno otto quattro"], []),
    ("leading zeros", "es", "El código 0042 abre la puerta.", ["cero cero cuatro dos"], []),
    ("leading zeros", "pt", "O código 0042 abre a porta.", ["zero zero quatro dois"], []),
    ("leading zeros", "ru", "Код 0071 на двери.", ["ноль ноль семь один"], []),
    ("abbreviation", "de", "Wir brauchen z. B. Eier und Mehl.", ["zum Beispiel Eier"], ["Beispiel."]),
    ("abbreviation", "de", "Der Kanal hat 2 Mio. Abonnenten.", ["zwei Millionen Abonnenten"], ["Millionen."]),
    ("abbreviation", "de", "Der Preis gilt inkl. Mehrwertsteuer.", ["inklusive Mehrwertsteuer"], ["inklusive."]),
    ("abbreviation", "de", "Er kommt ca. Ende Juni.", ["circa Ende Juni"], ["circa."]),
    ("abbreviation", "de", "Eine Portion hat 320 kcal p. P. im Schnitt.",
     ["dreihundertzwanzig Kilokalorien pro Person"], ["kcal", "p. P."]),
    ("agreement", "de", "Ich lese 1 Buch am Abend.", ["ich lese ein Buch"], ["eins"]),
    ("agreement", "de", "Dazu kommt 1 Tasse Zucker.", ["kommt eine Tasse"], ["eins"]),
    ("agreement", "de", "Noch 1 Tag bis zum Urlaub.", ["noch ein Tag"], ["eins"]),
    ("agreement", "de", "Mit 1 Löffel Honig süßen.", ["mit einem Löffel"], ["eins"]),
    ("agreement", "de", "Das reicht für 1 Monat.", ["für einen Monat"], ["eins"]),
    ("fraction", "en", "Stir in ½ cup of milk.", ["one half cup"], ["½"]),
    ("fraction", "en", "Use 3⁄4 cup of flour.", ["three quarters cup"], ["⁄"]),
    ("fraction", "en", "It weighs 2½ pounds.", ["two and a half pounds"], ["½"]),
    ("fraction", "de", "Man nehme ¼ Liter Sahne.", ["ein Viertel Liter"], ["¼"]),
    ("fraction", "de", "Dazu 1⁄2 Liter Milch.", ["halb"], ["⁄"]),
    ("score", "de", "Leipzig gewann 3:1 gegen Köln.", ["drei zu eins"], [":"]),
    ("score", "de", "Das Spiel endete 2:0 für Bremen.", ["zwei zu null"], [":"]),
    ("score", "en", "Arsenal won 4-2 at home.", ["won four to two"], []),
    ("spaced groups", "de", "Die Werte 100 200 300 wurden gemessen.", ["einhundert zweihundert dreihundert"],
     ["Millionen"]),
    ("spaced groups", "de", "Telefon 040 321 654 ab neun Uhr.", ["drei zwei eins", "sechs fünf vier"],
     ["tausend"]),
    ("spaced groups", "de", "Die Stadt hat 1\u00a0250\u00a0000 Einwohner.", ["eine Million zweihundertfünfzigtausend"],
     []),
    ("money", "en", "The lamp cost $4.500 in Santiago.", ["four dollars fifty cents"], ["point"]),
    ("money", "en", "The fund raised ¥40b last year.", ["forty billion yen"], ["yenb"]),
    ("money", "en", "Revenue hit $7B in May.", ["seven billion dollars"], ["dollarsB"]),
    ("money", "en", "Seats cost $120-$180 each.", ["one hundred twenty dollars to one hundred eighty dollars"], []),
    ("telephone", "en", "Call 415.555.0199 today.", ["four one five", "five five five", "zero one nine nine"], []),
    ("telephone", "en", "The server at 10.0.12.7 is down.", ["one zero dot zero dot one two dot seven"], []),
    ("time", "en", "The lap took 1:02:05 in total.", ["one hour two minutes and five seconds"], []),
    ("ordinal", "en", "She was the 2,000th guest.", ["two thousandth guest"], []),
    ("date", "de", "Er kam am 14. juli 2016 an.", ["vierzehnten juli"], ["vierzehn."]),
    ("range", "en", "Prices rose from 1970-85 steadily.", ["nineteen seventy to eighty-five"], []),
    ("arithmetic", "en", "We know 4+5 is nine.", ["four plus five is nine"], ["+"]),
    ("arithmetic", "en", "Check that 2+2=4 holds.", ["two plus two equals four"], ["+", "="]),
    ("arithmetic", "de", "Es gilt 3+4=7 immer.", ["drei plus vier gleich sieben"], ["+", "="]),
]
IDS = [f"{c[0]}:{c[2][:30]}" for c in CASES]


def _holds(said: str, must: list, must_not: list) -> bool:
    return folded(" ".join(must)) in folded(said) and not any(word in said for word in must_not)


@pytest.mark.parametrize("kind, language, written, must, must_not", CASES, ids=IDS)
def test_each_class_is_read_right_in_python(kind, language, written, must, must_not):
    said = spoken(written, language)
    assert _holds(said, must, must_not), said


@pytest.mark.parametrize("language", sorted({c[1] for c in CASES}))
def test_each_class_is_read_right_on_the_command_line(tmp_path, language):
    cases = [c for c in CASES if c[1] == language]
    source = tmp_path / "cases.txt"  # one paragraph a case: a piece each
    source.write_text("\n\n".join(c[2] for c in cases) + "\n", encoding="utf-8")
    rc, lines, err = dry_run("--text-file", source, "--language", language)
    assert rc == 0 and len(lines) == len(cases), (lines, err)
    for said, (_, _, written, must, must_not) in zip(lines, cases):
        assert _holds(said, must, must_not), (written, said)


def test_the_word_after_a_number_decides_it_in_context():
    """The classifier sees a token's neighbours: `Context` gives the words around a match, which is how the
    readers tell a unit from a word."""
    from mlx_qwen3tts.text.verbalize.common import context

    text = "Sales rose to 300 in March, and 6 ft 2 in. later"
    start = text.index("300")
    ctx = context(text, start, start + 3)
    assert ctx.before == ("Sales", "rose", "to") and ctx.after[:2] == ("in", "March,")
    assert ctx.word_after(2) == "March" and ctx.next_is_word()
    end = text.index("2 in.") + 1
    assert context(text, end - 1, end).word_before() == "ft"


# A law's sentence over 300 characters, its last clause short: cut at the last space before the limit it left
# "unterschreitet." alone.
LAW = ("Wer vorsätzlich oder fahrlässig als Arbeitgeber einem Beschäftigten das Arbeitsentgelt, das nach diesem "
       "Gesetz und den aufgrund dieses Gesetzes erlassenen Rechtsverordnungen in der jeweils geltenden Fassung "
       "geschuldet wird, ganz oder teilweise vorenthält, handelt ordnungswidrig, sofern der Betrag die in der "
       "Verordnung bestimmte Grenze nicht unterschreitet.")


def test_a_long_sentence_is_cut_at_a_clause_into_balanced_parts(tmp_path):
    assert 300 < len(LAW) < 600
    page = tmp_path / "gesetz.md"
    page.write_text("# Paragraf 21\n\n" + LAW + "\n", encoding="utf-8")
    rc, lines, err = dry_run("--text-file", page, "--language", "de")
    assert rc == 0, err
    parts = lines[1:]
    assert len(parts) == 2 and " ".join(parts).split() == LAW.split(), lines
    assert all(len(part) <= 300 and len(part) >= len(LAW) // 4 for part in parts), [len(p) for p in parts]
    assert parts[0].endswith(",") or re.match(r"(und|oder|sofern|wenn|dass)\b", parts[1]), parts


def test_a_long_sentence_is_cut_in_the_same_places_given_in_deltas():
    from mlx_qwen3tts.text import CUT, PieceCutter, split_sentences

    text = LAW + " " + " ".join(["Dann folgt ein weiterer Satz ohne jedes Komma darin"] * 14) + "."
    whole = split_sentences(text)
    for size in (1, 7, 40):
        cutter, parts = PieceCutter(300), []
        for i in range(0, len(text), size):
            parts += cutter.add(text[i:i + size])
        parts += cutter.end()
        pieces, current = [], ""
        for part in parts:
            if part is CUT:
                pieces.append(current)
                current = ""
            else:
                current += part
        assert pieces + ([current] if current else []) == whole
    assert all(len(piece.split()) > 3 for piece in whole), whole


@pytest.mark.parametrize("text", ["Es gibt z. B. Äpfel. Dann gehen wir.", "Er hat 3 Mio. Follower. Dann gehen wir.",
                                  "Preis inkl. Versand. Dann gehen wir.", "Wir kommen ca. Mitte Mai. Dann gehen wir."])
def test_the_cutter_goes_on_after_a_german_abbreviation_before_a_noun(text):
    from mlx_qwen3tts.text import sentences

    assert sentences(text) == [text[:-len(" Dann gehen wir.")], "Dann gehen wir."]
    assert "Beispiel." not in spoken(text, "de") and "Millionen." not in spoken(text, "de")


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    server = shared_server(CHECKPOINT, tmp_path_factory.getbasetemp(), "--api-key", API_KEY)
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=120) as client:
        yield client


def _speech(http, text: str, **extra) -> httpx.Response:
    return http.post("/v1/audio/speech", json={"model": "tts-1", "input": text, "voice": "serena", "temperature": 0,
                                               "max_new_tokens": 6, "response_format": "pcm", **extra})


ONE_A_CLASS = [next(c for c in CASES if c[0] == kind) for kind in dict.fromkeys(c[0] for c in CASES)]


@pytest.mark.parametrize("kind, language, written, must, must_not", ONE_A_CLASS, ids=[c[0] for c in ONE_A_CLASS])
def test_each_class_is_read_right_over_http(http, kind, language, written, must, must_not):
    """The server speaks a text as `text.spoken` says it (its audio equals that of those words, given with
    normalization off), and those are the words a reader says."""
    said = spoken(written, language)
    assert _holds(said, must, must_not), said
    answer = _speech(http, written, language=language)
    assert answer.status_code == 200, answer.text
    assert answer.content == _speech(http, said, language=language, normalize=False).content
