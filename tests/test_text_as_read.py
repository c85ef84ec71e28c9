"""Text as a listener hears it (issue 51): numbers with dots keep every digit in each language, through the
command line, the Python API and the server; web pages read as a reader reads them (a real Sphinx page from
Debian's python3-doc, a real man page rendered by groff); sentences not cut at abbreviations, initials or
ellipses; Markdown's strikethrough, line breaks and autolinks."""

import gzip
import json
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import numpy as np
import pytest

from test_batch import pieces_of
from test_longform import audio, ckpt, error_line, run, speak  # noqa: F401  (ckpt: the fixture)

PYTHON_DOCS = sorted(Path("/usr/share/doc").glob("python3*/html/howto/ipaddress.html"))
MAN_PAGE = Path("/usr/share/man/man1/gzip.1.gz")


# Written as a release note would write them; said by the rules of docs/longform.md ("Numbers with dots").
VERSIONS_EN = [
    ("Requires Node 18.20.4 or later.", "Requires Node eighteen point twenty point four or later."),
    ("Built with CMake 3.28.0.", "Built with CMake three point twenty-eight point zero."),
    # round nine: a version's two-digit minor part after a word that names one ("Ruby", "Python", "version") is a
    # number of its own ("three point thirty", every digit still said); after "Go", a common word, a decimal's digits
    ("Go 1.21 and Ruby 3.30 ship.", "Go one point two one and Ruby three point thirty ship."),
    ("Bump to 0.10.2.", "Bump to zero point ten point two."),
    ("It is 1.05 now.", "It is one point zero five now."),
    ("Release 4.0 is out.", "Release four point zero is out."),
    ("Target linux_aarch64 with 2^16 rows.", "Target linux aarch sixty-four with two to the power of sixteen rows."),
    ("Set max_batch_size here.", "Set max batch size here."),
]


@pytest.mark.parametrize("written, said", VERSIONS_EN)
def test_numbers_with_dots_keep_every_digit_in_english(written, said):
    from mlx_qwen3tts.longform import document, normalize_text

    assert normalize_text(written, "english") == said
    assert [s.text for s in document(written).segments] == [said]


@pytest.mark.parametrize("language, written, said", [
    ("german", "Es kostet 2.500 Euro ab Version 3.12.1.", "Es kostet zweitausendfünfhundert Euro ab Version drei "
                                                          "Punkt zwölf Punkt eins."),
    ("german", "Kapitel 4.10 und 2^8.", "Kapitel vier Punkt zehn und zwei hoch acht."),
    ("french", "Version 5.2 et 7.0.1.", "Version cinq point deux et sept point zéro point un."),
    ("spanish", "Son 1.000 filas en la 2.3.", "Son mil filas en la dos punto tres."),
    # Chinese has its reader now (verbalize/zh): a dotted number as 点 and digits, numbers in a word as cardinals
    # (as WeTextProcessing's and NeMo's zh grammars read them)
    ("chinese", "需要 Python 3.12 与 x86_64。", "需要 Python 三点一二 与 x八十六 六十四。"),
])
def test_numbers_with_dots_by_language(language, written, said):
    from mlx_qwen3tts.longform import normalize_text

    assert normalize_text(written, language) == said


def test_a_version_is_said_alike_by_the_command_line_and_python(ckpt, tmp_path, load_tiny):  # noqa: F811
    written, said = VERSIONS_EN[1]  # a version that ends its sentence
    (tmp_path / "notes.txt").write_text(written)
    speak(ckpt, "--text-file", tmp_path / "notes.txt", "-o", tmp_path / "a.wav")
    speak(ckpt, "--text", said, "-o", tmp_path / "b.wav")
    speak(ckpt, "--text", written, "--normalize", "-o", tmp_path / "c.wav")
    np.testing.assert_array_equal(audio(tmp_path / "a.wav"), audio(tmp_path / "b.wav"))
    np.testing.assert_array_equal(audio(tmp_path / "c.wav"), audio(tmp_path / "b.wav"))
    tts = load_tiny("custom_voice-0b6")
    asked = tts.generate(written, normalize=True, temperature=0, max_tokens=10).audio
    np.testing.assert_array_equal(asked, audio(tmp_path / "b.wav"))


def test_a_version_is_said_by_the_server_when_asked_to_normalize(tmp_path_factory):
    pytest.importorskip("uvicorn")
    from server_harness import shared_server

    server = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp())

    def pcm(text, **body):
        response = httpx.post(server.url + "/v1/audio/speech", timeout=300, json={
            "model": "tts-1", "input": text, "voice": "ryan", "response_format": "pcm", "temperature": 0,
            "max_new_tokens": 10, **body})
        assert response.status_code == 200, response.text
        return response.content

    written, said = VERSIONS_EN[2]
    assert pcm(written, normalize=True) == pcm(said)


def _sphinx_page() -> str:
    if not PYTHON_DOCS:
        pytest.skip("Debian's python3-doc is not installed (apt-get install python3-doc)")
    return PYTHON_DOCS[0].read_text(encoding="utf-8")


NOT_READ = ("Navigation", "Table of Contents", "Previous topic", "Next topic", "This Page", "Report a Bug",
            "Show Source", "Quick search", "next |", "modules |", "Python »", "©", "¶", "Theme")


def test_a_sphinx_page_is_read_without_its_navigation_sidebar_footer_and_permalinks():
    from mlx_qwen3tts.longform import document

    page = _sphinx_page()
    doc = document(page, html=True, normalize=False)
    shown = [s.shown for s in doc.segments]
    assert shown[0] == "An introduction to the ipaddress module"
    assert doc.chapters[0] == "An introduction to the ipaddress module" and "Comparisons" in doc.chapters
    assert not [s for s in shown if any(word in s for word in NOT_READ)], shown
    assert not [c for c in doc.chapters if "¶" in c]
    assert doc.info.title.startswith("An introduction to the ipaddress module")  # the page's <title>
    # Without role="main" the landmarks go: the related bars, the sidebar and the search are not read.
    bare = document(page.replace('role="main"', ""), html=True, normalize=False)
    assert [s.shown for s in bare.segments][:len(shown)] == shown
    assert not [s.shown for s in bare.segments if any(w in s.shown for w in ("Previous topic", "Quick search",
                                                                             "Report a Bug", "¶", "Python »"))]


def test_a_sphinx_chapter_through_the_command_line(ckpt, tmp_path):  # noqa: F811
    (tmp_path / "page.html").write_text(_sphinx_page(), encoding="utf-8")
    speak(ckpt, "--text-file", tmp_path / "page.html", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.json",
          "--skip-chapters", "(?!Comparisons$).*", "--max-tokens", "2")
    cues = [c["text"] for c in json.loads((tmp_path / "a.json").read_text())["cues"]]
    assert cues[0] == "Comparisons" and len(cues) > 2
    assert not [c for c in cues if any(word in c for word in NOT_READ)], cues


def test_a_page_without_a_main_leaves_out_its_landmarks():
    from mlx_qwen3tts.longform import document

    page = ("<html><head><title>Ferries</title><meta name='author' content='Ann Lee'></head><body>"
            "<header><a href='/'>Home</a> Log in</header><div role='banner'>Site banner</div>"
            "<div role='navigation'>Prev | Next</div><form role='search'>Search</form>"
            "<article><header><h1>Timetables<a class='headerlink' href='#t'>¶</a></h1></header>"
            "<p>The first boat leaves at dawn.</p><aside>In the article: a note.</aside>"
            "<h2 id='w'>Winter<a href='#w'>#</a></h2><p>Fewer boats run.</p><footer>Filed under boats.</footer>"
            "</article><aside>Related posts</aside><div role='complementary'>Ads</div>"
            "<footer>© 2024 Harbour</footer><div role='contentinfo'>Contact us</div></body></html>")
    doc = document(page, html=True, normalize=False)
    assert [s.shown for s in doc.segments] == ["Timetables", "The first boat leaves at dawn.",
                                               "In the article: a note.", "Winter", "Fewer boats run.",
                                               "Filed under boats."]
    assert doc.chapters == ["Timetables", "Winter"]
    assert (doc.info.title, doc.info.author) == ("Ferries", "Ann Lee")
    main = page.replace("<article>", "<main><article>").replace("</article>", "</article></main>")
    assert [s.shown for s in document(main, html=True, normalize=False).segments] == [s.shown for s in doc.segments]


def _man_page_html() -> str:
    if not MAN_PAGE.exists() or not shutil.which("groff"):
        pytest.skip("gzip's man page or groff is missing")
    html = subprocess.run(["groff", "-man", "-Thtml"], input=gzip.decompress(MAN_PAGE.read_bytes()),
                          capture_output=True, check=False)
    if html.returncode != 0 or b"<html" not in html.stdout.lower():
        pytest.skip("groff cannot write HTML here (apt-get install groff)")
    return html.stdout.decode("ascii", errors="replace")


def test_a_man_page_breaks_at_br_and_drops_the_brackets_of_addresses():
    from mlx_qwen3tts.longform import document

    doc = document(_man_page_html(), html=True, normalize=False)
    shown = [s.shown for s in doc.segments]
    assert "GNU gzip home page: https://www.gnu.org/software/gzip/" in shown
    assert "General help using GNU software: https://www.gnu.org/gethelp/" in shown
    assert "NAME" in shown and "SYNOPSIS" in shown  # the page's list of links: a sentence each, not one run
    assert not [s for s in shown if "&lt;" in s or "<https" in s or "SYNOPSIS DESCRIPTION" in s]
    assert not [s for s in shown if s.strip() in ("]", "...")]  # "[ name ... ]" is not cut at its ellipsis


@pytest.mark.parametrize("text, expected", [
    ("Ask Prof. Knuth, e.g. about TeX. He knows.", ["Ask Prof. Knuth, e.g. about TeX.", "He knows."]),
    ("Written by Brian W. Kernighan and Dennis M. Ritchie. Classic.",
     ["Written by Brian W. Kernighan and Dennis M. Ritchie.", "Classic."]),
    ("Run cp [OPTION]... SOURCE DEST to copy. Done.", ["Run cp [OPTION]... SOURCE DEST to copy.", "Done."]),
    ("Use flags (cf. the man page, i.e. -r, -v, etc.). Then build.",
     ["Use flags (cf. the man page, i.e. -r, -v, etc.).", "Then build."]),
    ("St. Ives met Mrs. Hudson vs. Dr. Who. Later... they left. Hmm... Who knows?",
     ["St. Ives met Mrs. Hudson vs. Dr. Who.", "Later... they left.", "Hmm...", "Who knows?"]),
    ("Fruit, nuts, etc. Then tea.", ["Fruit, nuts, etc.", "Then tea."]),
    ("Es gibt z.B. Tee usw. Dann Kuchen.", ["Es gibt z.B. Tee usw.", "Dann Kuchen."]),
])
def test_sentences_are_not_cut_at_abbreviations_initials_or_ellipses(text, expected):
    from mlx_qwen3tts.longform import document
    from mlx_qwen3tts.text import PieceCutter, sentences, split_sentences

    assert sentences(text) == expected
    assert [s.shown for s in document(text, normalize=False).segments] == expected
    cutter, parts = PieceCutter(40), []  # text arriving word by word is cut where it is whole
    for word in re.findall(r"\S+\s*", text):
        parts += cutter.add(word)
    assert pieces_of(parts + cutter.end()) == split_sentences(text, 40)


def test_markdown_strikethrough_line_breaks_autolinks_and_a_leading_dot(ckpt, tmp_path):  # noqa: F811
    from mlx_qwen3tts.longform import document, normalize_text

    source = ("Use ~~pip~~ uv to install.\n\nSee the options<br>-R is recursive.\n\nFirst line  \nsecond line.\n\n"
              "Docs at <https://docs.example.org/book/>.\n\n# Part<br>One\n\nSave as rustfmt.toml or .rustfmt.toml now.\n")
    doc = document(source, markdown=True, normalize=False)
    assert [s.shown for s in doc.segments] == ["Use pip uv to install.", "See the options", "-R is recursive.",
                                               "First line", "second line.", "Docs at https://docs.example.org/book/.",
                                               "Part One", "Save as rustfmt.toml or .rustfmt.toml now."]
    assert doc.chapters == ["Part One"] or doc.chapters[-1] == "Part One"
    assert normalize_text("Save as rustfmt.toml or .rustfmt.toml now.", "english") == \
        "Save as rustfmt.toml or .rustfmt.toml now."
    (tmp_path / "a.md").write_text("Use ~~pip~~ uv now.\n")
    speak(ckpt, "--text-file", tmp_path / "a.md", "-o", tmp_path / "a.wav")
    speak(ckpt, "--text", "Use pip uv now.", "-o", tmp_path / "b.wav")
    np.testing.assert_array_equal(audio(tmp_path / "a.wav"), audio(tmp_path / "b.wav"))
