"""The read-along book (`--read-along book.epub`, `longform.write(read_along=...)`, issue 50): an EPUB 3 with
the narration of each chapter and Media Overlays, checked as readers and stores check one: epubcheck (Debian's
package, the W3C's validator) finds no error, ebooklib reads back what was written, each SMIL clip is timed
as the captions are, Chromium shows the active-class highlight, and a resumed run gives the same book."""

import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest

from fixture_checkpoints import aligner_dir, checkpoint_dir
from test_longform import error_line, png, run, sentences, stop_narration_after

RATE = 24000
EPUBCHECK = Path("/usr/share/java/epubcheck.jar")
SMIL = "{http://www.w3.org/ns/SMIL}"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {"custom_voice-0b6": checkpoint_dir("custom_voice-0b6", root), "aligner": aligner_dir(root)}


def speak(ckpt, *args):
    code, out = run("--model", ckpt["custom_voice-0b6"], "--temperature", "0", "--max-tokens", "20", "-q", *args)
    assert code == 0, out
    return out


def epubcheck(path) -> dict:
    """epubcheck's report of the book (its JSON output); the jar runs where Debian's wrapper does not."""
    assert EPUBCHECK.is_file(), "epubcheck is not installed (apt-get install epubcheck; .ci/run installs it)"
    report = path.with_suffix(".check.json")
    done = subprocess.run(["java", "-jar", str(EPUBCHECK), str(path), "--json", str(report)], capture_output=True,
                          text=True, timeout=300)
    found = json.loads(report.read_text())
    errors = [m for m in found["messages"] if m["severity"] in ("ERROR", "FATAL")]
    assert not errors and done.returncode == 0, (errors, done.stdout[-2000:], done.stderr[-2000:])
    return found


def pandoc_epub(tmp_path) -> Path:
    """A book made by pandoc (as many EPUBs are): title, author, language, a cover, two chapters."""
    assert shutil.which("pandoc"), "pandoc is not installed (apt-get install pandoc; .ci/run installs it)"
    (tmp_path / "cover.png").write_bytes(png(8, 6))
    (tmp_path / "book.md").write_text("# The Start\n\nHello world, it's me. Alpha bravo.\n\nCharlie delta.\n\n"
                                      "# The End\n\nThe e-mail came at 10 o'clock.\n")
    subprocess.run(["pandoc", "book.md", "-o", "book.epub", "--metadata", "title=The Harbour", "--metadata",
                    "author=Ann Lee", "--metadata", "lang=en-GB", "--epub-cover-image", "cover.png"],
                   cwd=tmp_path, check=True, timeout=120)
    return tmp_path / "book.epub"


def clips(book_path) -> dict:
    """{chapter page: [(text id, audio, clipBegin s, clipEnd s), ...]} from the book's SMIL files."""
    import xml.etree.ElementTree as ET

    out = {}
    with zipfile.ZipFile(book_path) as z:
        for name in sorted(n for n in z.namelist() if n.endswith(".smil")):
            root = ET.fromstring(z.read(name))
            pars = []
            for par in root.iter(SMIL + "par"):
                text, audio = par.find(SMIL + "text"), par.find(SMIL + "audio")
                page, _, target = text.get("src").partition("#")
                pars.append((target, audio.get("src"), float(audio.get("clipBegin").rstrip("s")),
                             float(audio.get("clipEnd").rstrip("s"))))
            out[page] = pars
    return out


def chapter_starts(cues) -> dict:
    """The first sample of each chapter, from the captions."""
    starts = {}
    for cue in cues:
        starts.setdefault(cue["chapter"], cue["start"])
    return starts


def sentence_clips_equal_captions(book_path, cues):
    """Every sentence's clip runs from its caption's start to its end (in its chapter's audio)."""
    pars = clips(book_path)
    starts = chapter_starts(cues)
    pages = sorted(pars)
    assert len(pages) == len(starts)
    for cue in cues:
        page = pages[cue["chapter"]]
        own = [p for p in pars[page] if p[0] == f"s{cue_index(cues, cue) + 1:06d}"]
        assert len(own) == 1, (cue, pars[page])
        _, audio, begin, end = own[0]
        assert audio == page.replace(".xhtml", ".mp3")
        base = starts[cue["chapter"]]
        assert abs(begin - (cue["start"] - base) / RATE) <= 0.0005 and abs(end - (cue["end"] - base) / RATE) <= 0.0005


def cue_index(cues, cue):
    return next(i for i, c in enumerate(cues) if c is cue)


def test_a_pandoc_epub_becomes_a_read_along_book_with_word_clips(ckpt, tmp_path):
    from ebooklib import epub

    source = pandoc_epub(tmp_path)
    speak(ckpt, "--text-file", source, "-o", tmp_path / "book.mp3", "--captions", tmp_path / "book.json",
          "--caption-words", "--aligner", ckpt["aligner"], "--read-along", tmp_path / "read.epub")
    epubcheck(tmp_path / "read.epub")
    cues = json.loads((tmp_path / "book.json").read_text())["cues"]
    # Read back: the book's metadata, cover and chapters, each with its page, overlay and audio.
    book = epub.read_epub(str(tmp_path / "read.epub"))
    assert book.get_metadata("DC", "title")[0][0] == "The Harbour"
    assert book.get_metadata("DC", "creator")[0][0] == "Ann Lee"
    assert book.get_metadata("DC", "language")[0][0] == "en-GB"
    cover = next(i for i in book.get_items() if i.media_type == "image/png")
    assert cover.get_content() == png(8, 6)
    # pandoc's title page comes before the first chapter: the document's "Opening", as in the captions.
    assert [link.title for link in book.toc] == ["Opening", "The Start", "The End"]
    pages = [book.get_item_with_id(idref) for idref, _ in book.spine]
    chapters = [p for p in pages if re.fullmatch(r"c\d+\.xhtml", p.file_name)]
    assert len(chapters) == 3
    text = [re.sub(r"<[^>]+>", "", p.get_content().decode()) for p in chapters]
    for cue in cues:
        assert cue["text"] in text[cue["chapter"]]
    with zipfile.ZipFile(tmp_path / "read.epub") as z:
        package = z.read("EPUB/package.opf").decode()
        names = z.namelist()
    assert names[0] == "mimetype"
    assert '<meta property="media:active-class">-epub-media-overlay-active</meta>' in package
    durations = re.findall(r'<meta property="media:duration"(?: refines="#(o\d+)")?>([\d:.]+)</meta>', package)
    per_chapter = {ref: clock(v) for ref, v in durations if ref}
    whole = [clock(v) for ref, v in durations if not ref]
    starts = sorted(chapter_starts(cues).values()) + [cues[-1]["end"]]
    assert [round(per_chapter[f"o{n:03d}"], 3) for n in (1, 2, 3)] == [round((b - a) / RATE, 3)
                                                                  for a, b in zip(starts, starts[1:])]
    assert whole == [pytest.approx(sum(per_chapter.values()), abs=0.0015)]
    # Each word group's clip is its words' caption times; words the aligner put at one instant share one.
    pars, base = clips(tmp_path / "read.epub"), chapter_starts(cues)
    pages = sorted(pars)
    for index, cue in enumerate(cues):
        own = [p for p in pars[pages[cue["chapter"]]] if p[0].startswith(f"s{index + 1:06d}")]
        assert all(end > begin for _, _, begin, end in own)  # epubcheck's MED-009 too
        if len(own) == 1 and own[0][0] == f"s{index + 1:06d}":  # the sentence as a whole
            assert abs(own[0][2] - (cue["start"] - base[cue["chapter"]]) / RATE) <= 0.0005
            continue
        # In order, each clip from one word's start to the end of the same or a later word; the next clip
        # starts at a word after those.
        starts = [round((w["start"] - base[cue["chapter"]]) / RATE, 3) for w in cue["words"]]
        ends = [round((w["end"] - base[cue["chapter"]]) / RATE, 3) for w in cue["words"]]
        at = 0
        for _, _, begin, end in own:
            first = starts.index(begin, at)
            last = next(k for k in range(first, len(ends)) if ends[k] == end or k == len(ends) - 1 and end == max(
                ends[first:]))
            at = last + 1
        assert len(own) >= 1


def clock(value: str) -> float:
    h, m, s = value.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def test_a_plain_text_becomes_a_read_along_book_timed_as_its_captions(ckpt, tmp_path):
    (tmp_path / "a.txt").write_text("CHAPTER ONE\n\n" + " ".join(sentences(3, seed=1)) + "\n\nCHAPTER TWO\n\n"
                                    + " ".join(sentences(2, seed=2)) + " <&> fine.\n")
    speak(ckpt, "--text-file", tmp_path / "a.txt", "--heading-pattern", "CHAPTER .*", "--language", "English",
          "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.json", "--read-along", tmp_path / "a.epub")
    found = epubcheck(tmp_path / "a.epub")
    assert found["publication"]["language"] == "en"
    cues = json.loads((tmp_path / "a.json").read_text())["cues"]
    sentence_clips_equal_captions(tmp_path / "a.epub", cues)


def test_zero_length_word_clips_are_merged_or_fall_back_to_the_sentence(tmp_path):
    """Words the aligner put at one instant (start == end, or several on one sample) make no empty clip."""
    from mlx_qwen3tts.longform.captions import Cue
    from mlx_qwen3tts.longform.read_along import Edition, write_book
    from mlx_qwen3tts.longform.segments import Document, Segment

    texts = ["One two three four.", "Five six.", "Seven eight."]
    segments = [Segment(i, t, t, 1, 0, 0.3 if i < 2 else 0.0) for i, t in enumerate(texts)]
    at = lambda s: int(s * RATE)  # noqa: E731
    cues = [Cue(texts[0], 0, at(2), at(2.3), 0, 1, None,
                (("One", at(0.1), at(0.1)), ("two", at(0.1), at(0.5)), ("three", at(0.9), at(0.9)),
                 ("four", at(0.9), at(0.9)))),  # one word at an instant before another, two at the end
            Cue(texts[1], at(2.3), at(3), at(3.3), 0, 1, None, (("Five", at(2.5), at(2.5)), ("six", at(2.5), at(2.5)))),
            Cue(texts[2], at(3.3), at(4), at(4), 0, 1, None,
                (("Seven", at(3.4), at(3.6)), ("eight", at(3.6), at(3.9))))]
    audio = np.zeros(at(1), np.float32)
    write_book(tmp_path / "b.epub", Document(segments), cues, lambda i: audio, RATE,
               Edition("urn:uuid:8d6e6a5e-7d5b-5c2f-9a53-3b0e8f0e2f11", 1.8e9))
    epubcheck(tmp_path / "b.epub")
    pars = clips(tmp_path / "b.epub")["c001.xhtml"]
    got = [(t, b, e) for t, _, b, e in pars]
    # "One" (empty) joins "two"; "three" and "four" (empty, last) join the group before; "Five six" (all empty)
    # is timed as its sentence; "Seven" and "eight" keep their own clips.
    assert got == [("s000001w001", 0.1, 0.9), ("s000002", 2.3, 3.3), ("s000003w001", 3.4, 3.6),
                   ("s000003w002", 3.6, 3.9)]
    with zipfile.ZipFile(tmp_path / "b.epub") as z:
        page = z.read("EPUB/c001.xhtml").decode()
    assert '<span id="s000001"><span id="s000001w001">One two three four</span>.</span>' in page


def test_resume_gives_the_same_book(ckpt, load_tiny, tmp_path, monkeypatch):
    """`longform.write(read_along=...)` stopped after two segments (as by Ctrl-C) and resumed gives the book an
    uninterrupted run gives (but its modification time: when each run began)."""
    from mlx_qwen3tts import longform
    from mlx_qwen3tts.errors import InputError
    from mlx_qwen3tts.longform import job

    tts = load_tiny("custom_voice-0b6")
    doc = longform.document("# One\n\n" + " ".join(sentences(3, seed=3)) + "\n\n# Two\n\n" + sentences(1, seed=4)[0],
                            markdown=True)
    kw = dict(speaker="ryan", seed=11, max_tokens=8, batch_size=2)
    whole = longform.write(tts, doc, tmp_path / "whole.wav", read_along=tmp_path / "whole.epub", **kw)
    assert [p.name for p in whole] == ["whole.wav", "whole.epub"]
    real = stop_narration_after(monkeypatch, 2)
    with pytest.raises(KeyboardInterrupt):
        longform.write(tts, doc, tmp_path / "part.wav", read_along=tmp_path / "part.epub", **kw)
    assert not (tmp_path / "part.epub").exists()
    monkeypatch.setattr(job, "narrate", real)
    longform.write(tts, doc, tmp_path / "part.wav", read_along=tmp_path / "part.epub", resume=True, **kw)
    epubcheck(tmp_path / "part.epub")
    with zipfile.ZipFile(tmp_path / "whole.epub") as a, zipfile.ZipFile(tmp_path / "part.epub") as b:
        assert a.namelist() == b.namelist()
        for name in a.namelist():
            x, y = a.read(name), b.read(name)
            if name.endswith(".opf"):
                x, y = (re.sub(rb"dcterms:modified\">[^<]+<", b"", v) for v in (x, y))
            assert x == y, name
    with pytest.raises(InputError, match="read_along .*give an .epub name"):
        longform.write(tts, doc, tmp_path / "c.wav", read_along=tmp_path / "c.zip", **kw)


@pytest.mark.parametrize("args, message", [
    (["--read-along", "{tmp}/b.zip"], "--read-along {tmp}/b.zip: give an .epub name"),
    (["--read-along", "{tmp}/b.epub", "-o", "-"], "--read-along needs --output to be a file"),
])
def test_bad_read_along_is_one_line_and_exit_2(ckpt, tmp_path, args, message):
    (tmp_path / "a.txt").write_text("Hello.")
    given = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "-o" not in given:
        given += ["-o", str(tmp_path / "a.wav")]
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "a.txt", *given)
    assert code == 2 and message.replace("{tmp}", str(tmp_path)) in error_line(out), out
    assert not (tmp_path / "a.wav").exists() and not (tmp_path / "b.epub").exists()
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text", "Hi", "--read-along", tmp_path / "b.epub",
                    "-o", tmp_path / "a.wav")
    assert code == 2 and "--read-along applies to --text-file" in error_line(out)


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
def test_the_active_class_highlights_a_sentence_in_chromium(ckpt, tmp_path):
    """A chapter page as a reader renders it, with the book's active class on one sentence (as a reader sets
    it while that sentence plays): the sentence gets the highlight, the next one does not."""
    from playwright import sync_api

    (tmp_path / "a.txt").write_text(" ".join(sentences(4, seed=5)))
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav", "--read-along", tmp_path / "a.epub")
    with zipfile.ZipFile(tmp_path / "a.epub") as z:
        z.extractall(tmp_path / "book")
        package = z.read("EPUB/package.opf").decode()
    active = re.search(r'<meta property="media:active-class">([^<]+)</meta>', package).group(1)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 600, "height": 300})
        page.goto((tmp_path / "book" / "EPUB" / "c001.xhtml").as_uri())
        page.evaluate("c => document.getElementById('s000002').classList.add(c)", active)
        style = page.evaluate("""() => ['s000002', 's000003'].map(id => getComputedStyle(
            document.getElementById(id)).backgroundColor)""")
        page.screenshot(path=str(tmp_path / "highlight.png"))
        browser.close()
    assert style == ["rgb(255, 224, 138)", "rgba(0, 0, 0, 0)"]


class EvenAligner:
    """An aligner that spreads a text's words evenly over its audio, the last two at one instant (as the real
    one does at times): known times to follow into the captions and the book."""

    def align(self, audio, rate, text, language):
        from mlx_qwen3tts.aligner import Word
        from mlx_qwen3tts.aligner.words import split_words

        words = split_words(text, "auto")
        step = audio.shape[0] / rate / (len(words) + 1)
        times = [(round(i * step, 3), round((i + 1) * step, 3)) for i in range(len(words))]
        if len(words) > 2:
            times[-1] = times[-2] = (times[-2][0], times[-2][0])
        return [Word(w, s, e) for w, (s, e) in zip(words, times)]


def test_word_clips_equal_the_word_captions(ckpt, load_tiny, tmp_path):
    """`longform.write(aligner=...)`: every word gets a span and a clip timed as its caption word, but words with
    no length, which join the word before; epubcheck finds no error."""
    from mlx_qwen3tts import longform

    tts = load_tiny("custom_voice-0b6")
    doc = longform.document("# One\n\n" + " ".join(sentences(2, seed=6)) + "\n\n# Two\n\n" + sentences(1, seed=7)[0],
                            markdown=True)
    longform.write(tts, doc, tmp_path / "a.wav", captions=tmp_path / "a.json", read_along=tmp_path / "a.epub",
                   aligner=EvenAligner(), speaker="ryan", seed=1, max_tokens=12, language="English")
    epubcheck(tmp_path / "a.epub")
    cues = json.loads((tmp_path / "a.json").read_text())["cues"]
    pars, base = clips(tmp_path / "a.epub"), chapter_starts(cues)
    pages = sorted(pars)
    with zipfile.ZipFile(tmp_path / "a.epub") as z:
        text = {page: z.read("EPUB/" + page).decode() for page in pages}
    for index, cue in enumerate(cues):
        sid, page = f"s{index + 1:06d}", pages[cue["chapter"]]
        own = [(t, b, e) for t, _, b, e in pars[page] if t.startswith(sid)]
        words = cue["words"]
        seconds = [(round((w["start"] - base[cue["chapter"]]) / RATE, 3),
                    round((w["end"] - base[cue["chapter"]]) / RATE, 3)) for w in words]
        if len(words) <= 2:  # one or two words, each with a length: a clip each
            expected = [(f"{sid}w{n + 1:03d}", *seconds[n]) for n in range(len(words))]
        else:  # the last two (at one instant) join the word before them
            expected = [(f"{sid}w{n + 1:03d}", *seconds[n]) for n in range(len(words) - 3)]
            expected.append((f"{sid}w{len(words) - 2:03d}", seconds[-3][0], seconds[-3][1]))
        assert own == expected, (cue, own)
        spans = re.findall(rf'<span id="{sid}w\d+">([^<]*)</span>', text[page])
        assert [re.sub(r"[^\w']", "", s) for s in spans[:-1]] == [w["text"] for w in words][:len(spans) - 1]
        assert re.sub(r"\W", "", spans[-1]) == "".join(w["text"] for w in words[len(spans) - 1:])


def page_languages(book_path) -> dict:
    """{page: its html lang} and the package's dc:language values, in order."""
    with zipfile.ZipFile(book_path) as z:
        pages = {n: re.search(r'<html[^>]* lang="([^"]*)"', z.read(n).decode()).group(1)
                 for n in sorted(z.namelist()) if re.fullmatch(r"EPUB/c\d+\.xhtml", n)}
        package = re.findall(r"<dc:language>([^<]*)</dc:language>", z.read("EPUB/package.opf").decode())
    return pages, package


@pytest.mark.parametrize("name, text", [
    ("front.md", "---\ntitle: Der Hafen\nlang: de-AT\n---\n# Eins\n\nAlpha bravo.\n"),
    ("page.html", '<html lang="de-AT"><head><title>Der Hafen</title></head><body><h1>Eins</h1>'
                  "<p>Alpha bravo.</p></body></html>"),
], ids=["markdown", "html"])
def test_the_book_is_in_the_language_the_document_says(ckpt, tmp_path, name, text):
    """Issue 65: a Markdown file's front matter or a page's lang (no --language) is the book's language, not und."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    speak(ckpt, "--text-file", tmp_path / name, "--output", tmp_path / "a.wav", "--read-along", tmp_path / "a.epub")
    assert epubcheck(tmp_path / "a.epub")["publication"]["language"] == "de-AT"
    assert page_languages(tmp_path / "a.epub") == ({"EPUB/c001.xhtml": "de-AT"}, ["de-AT"])


def test_chapters_in_different_languages_are_marked_each_in_its_own(ckpt, tmp_path):
    """A document that does not say its language, its chapters written in two: each page in its chapter's language,
    the book's the first, both in the package (epubcheck accepts it)."""
    (tmp_path / "two.md").write_text(
        "# One\n\nThe boats came in at dawn and the gulls followed them home.\n\n"
        "# Zwei\n\nDie Boote kamen am Morgen und die Möwen folgten ihnen nach Hause.\n", encoding="utf-8")
    speak(ckpt, "--text-file", tmp_path / "two.md", "--output", tmp_path / "b.wav", "--read-along", tmp_path / "b.epub")
    epubcheck(tmp_path / "b.epub")
    assert page_languages(tmp_path / "b.epub") == ({"EPUB/c001.xhtml": "en", "EPUB/c002.xhtml": "de"}, ["en", "de"])
