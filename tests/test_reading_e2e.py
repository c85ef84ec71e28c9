"""Issue 56 end to end: each defect of the list, on material of our own, seen where a user sees it: the command
line's dry run (`--dry-run` prints each piece as it will be spoken; no model is loaded: the model path given does
not exist), Python (`text.spoken`, and the text a request gives the model), and HTTP (a real server process: the
audio of a text equals, code for code, the audio of the words it should be read as, given with normalization
off). What is "said" is compared after casefolding and removing spaces, hyphens and punctuation, as the issue's
corpus is."""

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


def dry_run(*args, stdin: str = None):
    """(exit status, printed lines, stderr) of `mlx_qwen3tts.generate --dry-run` with a model that does not exist."""
    done = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--dry-run", "--model", "/no/such/model",
                           *map(str, args)], capture_output=True, text=True, input=stdin, env=env(), cwd=REPO,
                          timeout=120)
    return done.returncode, done.stdout.splitlines(), done.stderr


def said_by_cli(text: str, language: str = "auto") -> str:
    rc, lines, err = dry_run("--text", text, "--language", language)
    assert rc == 0, err
    return " ".join(lines)


def spoken(text: str, language: str = "auto") -> str:
    from mlx_qwen3tts.text import spoken as text_spoken

    return text_spoken(text, language)


# (language, written, words that must be said, words that must not) - one case per defect of the list and
# of the review, each with other numbers than the issue's.
CASES = [
    ("de", "Die Karte kostet 8,40 € im Vorverkauf.", ["acht Euro vierzig"], ["acht,vierzig", "€"]),
    ("fr", "Le menu coûte 7,25 € ce soir.", ["sept euros vingt-cinq"], ["€"]),
    ("pt", "O bilhete custa R$ 3,75 hoje.", ["três reais"], ["dólar", "R três"]),
    ("fr", "La ville compte 2 345 678 habitants.", ["deux millions trois cent quarante-cinq mille six cent "
                                                     "soixante-dix-huit"], []),
    ("fr", "Il y a 4\u00a0512 livres et 9\u202f300 disques.",
     ["quatre mille cinq cent douze", "neuf mille trois cents"], []),
    ("de", "Der Anteil liegt bei 0.375 im Mittel.", ["null"], []),
    ("fr", "Le taux vaut 0.642 environ.", ["zéro"], []),
    ("fr", "C'est le 2e étage à droite.", ["deuxième"], ["deux e"]),
    ("es", "Vive en el 3.º piso.", ["tercer"], ["º"]),
    ("it", "Arrivò il 2° posto in classifica.", ["secondo"], ["°"]),
    ("pt", "Ficou em 4º lugar na prova.", ["quarto"], ["º"]),
    ("ru", "Это 5-й дом на улице.", ["пятый"], []),
    ("de", "Wir treffen uns am 9. Mai wieder.", ["neunten Mai"], ["neun. Mai"]),
    ("de", "Er kaufte u. a. Brot und Milch.", ["unter anderem"], []),
    ("es", "Ver la pág. 48 del libro.", ["página cuarenta y ocho"], []),
    ("de", "Draußen sind es −12 °C heute.", ["minus zwölf Grad Celsius"], []),
    ("de", "Er wurde am 24.12.1999 geboren.", ["Dezember", "neunzehnhundertneunundneunzig"], ["Punkt"]),
    ("de", "Der Termin ist am 2019-06-15 gewesen.", ["Juni"], []),
    ("de", "Man nehme 3/4 Liter Milch.", ["drei Viertel Liter"], []),
    ("fr", "Voir le n° 12 de la revue.", ["numéro douze"], []),
    ("de", "Schreiben Sie an max007@beispiel.de bitte.", ["null null sieben"], []),
    ("de", "Man braucht 3,5 Liter Wasser.", ["drei Komma fünf Liter"], []),
    ("de", "Der Vertrag gilt seit 7.3.2021 für alle.", ["März", "zweitausendeinundzwanzig"], ["Punkt"]),
    ("en", "It costs $7 at the door.", ["seven dollars"], ["cents"]),
    ("ja", "会議は9:45に始まります。", ["九時四十五分"], [":"]),
    ("ja", "割引は25%です。", ["二十五パーセント"], ["%"]),
    ("ja", "価格は2.5円です。", ["二点五円"], [" "]),
]


@pytest.mark.parametrize("language, written, must, must_not", CASES, ids=[c[1][:28] for c in CASES])
def test_each_defect_is_read_as_its_readers_say_it_in_python(language, written, must, must_not):
    said = spoken(written, language)
    assert all(folded(word) in folded(said) for word in must), said
    assert not any(word in said for word in must_not), said


@pytest.mark.parametrize("language", sorted({c[0] for c in CASES}))
def test_each_defect_is_read_as_its_readers_say_it_on_the_command_line(tmp_path, language):
    cases = [c for c in CASES if c[0] == language]
    source = tmp_path / "cases.txt"  # one paragraph a case: a segment each
    source.write_text("\n\n".join(written for _, written, _, _ in cases) + "\n")
    rc, lines, err = dry_run("--text-file", source, "--language", language)
    assert rc == 0 and len(lines) == len(cases), (lines, err)
    for said, (_, written, must, must_not) in zip(lines, cases):
        assert all(folded(word) in folded(said) for word in must), said
        assert not any(word in said for word in must_not), said


def test_auto_reads_numbers_in_the_language_of_the_text():
    for text, word, wrong in (("Das Kapitel 14 beginnt mit einer langen Reise durch die Berge.", "vierzehn",
                                "fourteen"),
                              ("Le chapitre 14 commence par un long voyage dans les montagnes.", "quatorze",
                               "fourteen")):
        for said in (spoken(text), said_by_cli(text)):
            assert word in said and wrong not in said, said


def test_a_page_marked_in_its_language_is_read_in_it(tmp_path):
    page = tmp_path / "page.html"
    page.write_text('<html lang="fr"><head><title>Guide</title></head><body><h1>Partie 12</h1>'
                    "<p>Il faut 3 jours.</p></body></html>")
    rc, lines, err = dry_run("--text-file", page)
    assert rc == 0, err
    said = " ".join(lines)
    assert "douze" in said and "trois" in said and "twelve" not in said and "three" not in said, said
    md = tmp_path / "notes.md"
    md.write_text("---\ntitle: Notizen\nlang: de\n---\n\n# Teil 12\n\nEs dauert 3 Tage.\n")
    rc, lines, err = dry_run("--text-file", md)
    assert rc == 0 and "zwölf" in " ".join(lines) and "drei" in " ".join(lines), lines


@pytest.mark.parametrize("text, first", [
    ("Wir treffen uns am 9. Mai wieder. Dann reden wir.", "Wir treffen uns am 9. Mai wieder."),
    ("Es gibt z. B. Tee bzw. Kaffee. Dann reden wir.", "Es gibt z. B. Tee bzw. Kaffee."),
    ("Siehe Nr. 8 und u. a. den Anhang. Dann reden wir.", "Siehe Nr. 8 und u. a. den Anhang."),
    ("On cite p. ex. ce livre. Dann reden wir.", "On cite p. ex. ce livre."),
    ("Se lee p. ej. en la pág. 30. Dann reden wir.", "Se lee p. ej. en la pág. 30."),
    ("Leggi a pag. 7 del sig. Bianchi. Dann reden wir.", "Leggi a pag. 7 del sig. Bianchi."),
    ("See Fig. 4 and Eq. 9 of Jan. 2023. Dann reden wir.", "See Fig. 4 and Eq. 9 of Jan. 2023."),
    ("They sell apples, pears (etc.) at the market. Dann reden wir.", "They sell apples, pears (etc.) at the market."),
])
def test_sentences_are_not_cut_at_abbreviations_or_ordinal_dots(tmp_path, text, first):
    from mlx_qwen3tts.longform import document
    from mlx_qwen3tts.text import PieceCutter, sentences

    assert sentences(text) == [first, "Dann reden wir."]
    assert [s.shown for s in document(text, normalize=False).segments] == [first, "Dann reden wir."]
    cutter, parts = PieceCutter(len(first) + 1), []  # as deltas, a character at a time: the same pieces
    for ch in text:
        parts += cutter.add(ch)
    assert "".join(p if p is not None else "|" for p in parts + cutter.end()) == first + "|Dann reden wir."
    source = tmp_path / "t.txt"
    source.write_text(text)
    rc, lines, err = dry_run("--text-file", source, "--no-normalize")
    assert rc == 0 and lines == [first, "Dann reden wir."], (lines, err)


DOCBOOK = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" lang="de"><head><title>Kapitel 6. Netzwerk</title></head><body>
<div class="navheader"><table width="100%" summary="Navigation header"><tr><th colspan="3">Kapitel 6. Netzwerk</th></tr>
<tr><td><a accesskey="p" href="ch05.html"><img src="prev.png" alt="Zurück"/></a></td><th> </th>
<td><a accesskey="n" href="ch07.html"><img src="next.png" alt="Weiter"/></a></td></tr></table><hr/></div>
<div class="chapter"><div class="titlepage"><div><div><h1 class="title"><a id="_n"/>Kapitel 6. Netzwerk</h1>
</div></div></div>
<div class="toc"><p><strong>Inhaltsverzeichnis</strong></p><dl class="toc"><dt><span class="section">
<a href="#_a">6.1. Grundlagen</a></span></dt></dl></div>
<p>Der Dienst startet beim Booten.<a href="#ftn.idm7" class="footnote" id="idm7"><sup class="footnote">[2]</sup></a>
Danach läuft er still.</p>
<details><summary>Mehr dazu</summary><p>Die Einstellungen liegen unter etc.</p></details>
<div class="footnotes"><br/><hr/><div id="ftn.idm7" class="footnote"><p><a href="#idm7" class="para">
<sup class="para">[2] </sup></a>Frühere Fassungen brauchten einen Neustart.</p></div></div></div>
<div class="navfooter"><hr/><table width="100%" summary="Navigation footer"><tr>
<td><a accesskey="p" href="ch05.html"><img src="prev.png" alt="Zurück"/></a></td><td> </td>
<td><a accesskey="n" href="ch07.html"><img src="next.png" alt="Weiter"/></a></td></tr><tr><td>Kapitel 5. Speicher </td>
<td><a accesskey="h" href="index.html"><img src="home.png" alt="Anfang"/></a></td><td> Kapitel 7. Sicherheit</td>
</tr></table></div></body></html>"""
PUBLICAN = """<html xmlns="http://www.w3.org/1999/xhtml"><head><title>3. Installation</title></head><body>
<div id="banner"><a href="http://example.org/get/"><span class="text">Download the ebook</span></a></div>
<p id="title"><a class="left" href="http://example.org"><img alt="Product Site" src="l.png"/></a></p>
<ul class="docnav top"><li class="previous"><a accesskey="p" href="a.html"><strong>Prev</strong></a></li>
<li class="home">The Handbook</li><li class="next"><a accesskey="n" href="b.html"><strong>Next</strong></a></li></ul>
<div class="section"><h2 class="title">3. Installation</h2><div class="para">The installer asks three questions.</div>
</div><ul class="docnav"><li class="previous"><a accesskey="p" href="a.html"><strong>Prev</strong>2. Intro</a></li>
<li class="home"><a accesskey="h" href="index.html"><strong>Home</strong></a></li>
<li class="next"><a accesskey="n" href="b.html"><strong>Next</strong>4. Setup</a></li></ul></body></html>"""
NAVIGATION = ("Zurück", "Weiter", "Anfang", "Inhaltsverzeichnis", "Grundlagen", "Frühere", "[2]", "Speicher",
              "Sicherheit", "Prev", "Next", "Home", "Download", "Handbook", "Intro", "Setup")


def _docbook_epub(path: Path):
    """An EPUB holding the DocBook page as pandoc writes one (the divs and their classes kept)."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("docbook-test")
    book.set_title("Netzwerk")
    book.set_language("de")
    body = DOCBOOK.split("<body>")[1].split("</body>")[0]
    chapter = epub.EpubHtml(title="Kapitel 6. Netzwerk", file_name="ch001.xhtml", lang="de", content=body)
    book.add_item(chapter)
    book.toc = [chapter]
    book.spine = [chapter]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    epub.write_epub(str(path), book)


def test_docbook_and_publican_pages_are_read_as_a_reader_reads_them(tmp_path):
    for name, source in (("docbook.html", DOCBOOK), ("publican.html", PUBLICAN)):
        page = tmp_path / name
        page.write_text(source)
        rc, lines, err = dry_run("--text-file", page, "--no-normalize")
        assert rc == 0, err
        assert not [line for line in lines if any(word in line for word in NAVIGATION)], lines
    _docbook_epub(tmp_path / "book.epub")
    for path in (tmp_path / "docbook.html", tmp_path / "book.epub"):
        rc, lines, err = dry_run("--text-file", path, "--no-normalize")
        assert rc == 0 and not [line for line in lines if any(word in line for word in NAVIGATION)], (lines, err)
        assert sum("Netzwerk" in line for line in lines) == 1, lines  # the chapter's title once
        assert "Die Einstellungen liegen unter etc." in lines and "Mehr dazu" in " ".join(lines)  # <details> read
        assert "Danach läuft er still." in lines


def test_an_address_in_guillemets_is_said():
    said = spoken("Le préfixe «https://» précède l'adresse «www.exemple.org».", "fr")
    assert not re.search(r"«\s*»", said) and "exemple" in said, said


@pytest.mark.parametrize("text", ["... --- !!! ???", "🙂🎉", "—"])
def test_text_with_no_words_is_refused_with_one_line(tmp_path, text):
    rc, lines, err = dry_run("--text", text)
    assert rc == 2 and not lines and len(err.strip().splitlines()) == 1 and "no words" in err, err
    book = tmp_path / "nothing.md"
    book.write_text(f"# {text}\n\n{text}\n")
    rc, lines, err = dry_run("--text-file", book)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "no words" in err, err


def test_text_with_no_words_is_refused_in_python(tts):
    from mlx_qwen3tts.errors import InputError

    for text in ("... --- !!! ???", "🙂🎉"):
        with pytest.raises(InputError, match="no words") as caught:
            tts.generate(text, max_tokens=2)
        assert caught.value.field == "text"
        with pytest.raises(InputError, match="no words"):
            list(tts.text_frames(iter(["…", " 🙂 ", "—"]), max_tokens=2))


def test_an_emoji_paragraph_after_words_keeps_its_caption():
    from mlx_qwen3tts.longform import document

    doc = document("We won the match.\n\n🎉🎉\n\nThen we went home.")
    assert [s.text for s in doc.segments] == ["We won the match.", "Then we went home."]
    assert doc.segments[0].shown == "We won the match. 🎉🎉"  # shown in the captions, not spoken


def test_python_requests_are_normalized_by_default_and_can_opt_out(tts):
    text = "Das Kapitel 14 beginnt mit einer langen Reise durch die Berge."
    assert "vierzehn" in tts.plan(text, max_tokens=2).pieces[0].text
    assert tts.plan(text, max_tokens=2, normalize=False).pieces[0].text == text
    request = tts.request(deltas=iter(re.findall(r"\S+\s*", text)), max_tokens=2)
    assert "".join(request.deltas) == spoken(text)
    raw = tts.request(deltas=iter(re.findall(r"\S+\s*", text)), max_tokens=2, normalize=False)
    assert "".join(raw.deltas) == text


def test_deltas_are_read_as_the_whole_text_however_they_are_cut():
    from mlx_qwen3tts.text import spoken_deltas

    for text, language in (("Am 9. Mai kam er mit 12 Äpfeln und ging am 24.12.1999 wieder.", "de"),
                           ("Le menu coûte 7,25 € et la ville compte 2 345 678 habitants, p. ex. ici.", "fr"),
                           ("Das Kapitel 14 beginnt mit einer langen Reise durch die Berge.", "auto")):
        for size in (1, 2, 3, 5, 8):
            parts = [text[i:i + size] for i in range(0, len(text), size)]
            assert "".join(spoken_deltas(iter(parts), language)) == spoken(text, language), (text, size)


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    server = shared_server(CHECKPOINT, tmp_path_factory.getbasetemp(), "--api-key", API_KEY)
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {API_KEY}"}, timeout=120) as client:
        yield client


def _speech(http, text: str, **extra) -> httpx.Response:
    return http.post("/v1/audio/speech", json={"model": "tts-1", "input": text, "voice": "serena", "temperature": 0,
                                               "max_new_tokens": 6, "response_format": "pcm", **extra})


@pytest.mark.parametrize("language, written, must, must_not", CASES, ids=[c[1][:28] for c in CASES])
def test_each_defect_is_read_as_its_readers_say_it_over_http(http, language, written, must, must_not):
    """The server speaks a text as `text.spoken` says it (its audio equals that of those words, given with
    normalization off), and those are the words the issue asks for."""
    said = spoken(written, language)
    answer = _speech(http, written, language=language)
    assert answer.status_code == 200, answer.text
    assert answer.content == _speech(http, said, language=language, normalize=False).content
    assert all(folded(word) in folded(said) for word in must), said


@pytest.mark.parametrize("text, language, words", [
    ("Chapter 7 begins here.", "English", "Chapter seven begins here."),
    ("Das Kapitel 14 beginnt mit einer langen Reise durch die Berge.", "auto",
     "Das Kapitel vierzehn beginnt mit einer langen Reise durch die Berge."),
])
def test_http_normalizes_by_default_and_reads_the_language_of_the_text(http, text, language, words):
    said = _speech(http, text, language=language)
    assert said.status_code == 200, said.text
    assert said.content == _speech(http, words, language=language, normalize=False).content
    raw = _speech(http, text, language=language, normalize=False)
    assert raw.status_code == 200 and raw.content != said.content  # "normalize": false: the text as written


def test_http_refuses_text_with_no_words(http):
    for text in ("... --- !!! ???", "🙂🎉"):
        answer = _speech(http, text)
        assert answer.status_code == 400 and "no words" in answer.json()["error"]["message"], answer.text


def test_websocket_text_streamed_word_by_word_is_read_as_the_whole(http):
    """Our WebSocket dialect: text appended word by word (a number, an ordinal and an amount among the words) is
    read, code for code, as the words it should be read as; a text with no words is an error event and the
    session goes on."""
    import base64
    import json

    from websockets.sync import client as ws_client

    text = "Das Kapitel 14 beginnt am 9. Mai mit einer langen Reise durch die Berge."
    settings = dict(voice="ryan", temperature=0, max_new_tokens=8, language="German")
    url = str(http.base_url).rstrip("/").replace("http://", "ws://") + "/v1/audio/speech/stream"
    with ws_client.connect(url, additional_headers={"Authorization": f"Bearer {API_KEY}"}, open_timeout=60) as ws:
        def recv():
            return json.loads(ws.recv(timeout=60))

        assert recv()["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": settings}))
        assert recv()["type"] == "session.updated"
        for word in re.findall(r"\S+\s*", text):
            ws.send(json.dumps({"type": "input_text.append", "text": word}))
        ws.send(json.dumps({"type": "input_text.flush"}))
        audio = []
        while (event := recv())["type"] != "speech.audio.done":
            audio.append(base64.b64decode(event["audio"]) if event["type"] == "speech.audio.delta" else b"")
        ws.send(json.dumps({"type": "input_text.append", "text": "🙂 … —"}))
        ws.send(json.dumps({"type": "input_text.flush"}))
        events = [recv()]
        while events[-1]["type"] not in ("error", "speech.audio.done"):
            events.append(recv())
        assert events[-1]["type"] == "error" and "no words" in events[-1]["error"]["message"], events
    want = http.post("/v1/audio/speech", json={"model": "tts-1", "input": spoken(text, "German"), "normalize": False,
                                                "response_format": "pcm", "text_mode": "streaming", **settings})
    assert b"".join(audio) == want.content


def test_warm_loads_every_languages_reader_and_the_detector():
    """`text.reading.warm` (TTS.warm and the server's start-up run it) leaves the first request's text nothing to
    import or compile: every language's reader module is loaded and the detector built."""
    import subprocess
    import sys

    code = ("import sys, mlx_qwen3tts\nfrom mlx_qwen3tts.text import reading\nreading.warm()\n"
            "from mlx_qwen3tts.languages import LANGUAGE_CODES\n"
            "missing = [c for c in LANGUAGE_CODES.values() if f'mlx_qwen3tts.text.verbalize.{c}' not in sys.modules]\n"
            "assert not missing, missing\nassert reading._identifier.cache_info().currsize == 1\nprint('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_after_warm_up_a_request_imports_nothing(tmp_path):
    """After `TTS.warm`, the first requests (plain text, Markdown, a lexicon) import no module: a request that
    imported markdown-it paid about 90 ms more than the next ones. (A text codec looked up on first use, such as
    the lexicon file's utf-8-sig, is a dictionary entry, not an import that costs.)"""
    import subprocess
    import sys

    from fixture_checkpoints import checkpoint_dir

    lexicon = tmp_path / "lexicon.tsv"
    lexicon.write_text("MLX\tem el ex\n", encoding="utf-8")
    code = ("import sys, mlx_qwen3tts\n"
            f"tts = mlx_qwen3tts.load({str(checkpoint_dir('custom_voice-0b6', tmp_path))!r})\n"
            "tts.warm()\nbefore = set(sys.modules)\n"
            "for extra in ({}, {'markdown': True}, {'lexicon': " + repr(str(lexicon)) + "}):\n"
            "    tts.generate('The *first* request, on MLX.', speaker='ryan', max_tokens=2, decode=False, **extra)\n"
            "    new = sorted(m for m in set(sys.modules) - before if not m.startswith('encodings.'))\n"
            "    assert not new, (extra, new)\n"
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]
