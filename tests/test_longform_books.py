"""Long-form outputs as a listener's player and a user's second run see them (issue 51): a book split in
chapters is one album of numbered tracks; .md and .html books are titled; --title/--author; SRT word cues
show the text as written and never end where they start; several caption files from one run; resuming with
another seed is refused alike on the command line and in Python; progress through an EPUB and its first
estimate."""

import io
import json
import re
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from fixture_checkpoints import aligner_dir, checkpoint_dir
from server_harness import ROOT, env
from test_longform import audio, error_line, run, sentences
from mlx_qwen3tts.errors import InputError

RATE = 24000


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {"custom_voice-0b6": checkpoint_dir("custom_voice-0b6", root), "aligner": aligner_dir(root)}


def speak(ckpt, *args, quiet=True):
    code, out = run("--model", ckpt["custom_voice-0b6"], "--temperature", "0", "--max-tokens", "4",
                    *(["-q"] if quiet else []), *args)
    assert code == 0, out
    return out


def tags(path) -> dict:
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_format", "-of", "json", str(path)],
                           capture_output=True, text=True, check=True)
    return json.loads(probe.stdout)["format"].get("tags", {})


def make_book(path):
    """An EPUB as pandoc makes one: a title page before the first entry of its table of contents, then three
    chapters, each its own file."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("ferry-book")
    book.set_title("Ferry Tales")
    book.set_language("en")
    book.add_author("Bo Nilsson")
    pages = []
    for name, body in [("title", "<p>A short foreword, before any chapter.</p>"),
                       ("one", "<h1>Crossing</h1><p>Alpha bravo.</p><p>Charlie delta.</p>"),
                       ("two", "<h1>Harbour</h1><p>Echo golf.</p><p>Hotel india.</p>"),
                       ("three", "<h1>Home</h1><p>Juliet kilo.</p>")]:
        pages.append(epub.EpubHtml(title=name, file_name=f"text/{name}.xhtml", lang="en",
                                   content="\n\n" + body.replace("</p>", "</p>\n")))
        book.add_item(pages[-1])
    book.toc = [epub.Link(f"text/{name}.xhtml", title, name)
                for name, title in (("one", "Crossing"), ("two", "Harbour"), ("three", "Home"))]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = pages
    epub.write_epub(str(path), book)


def test_split_chapters_of_an_epub_are_numbered_tracks_of_one_album(ckpt, tmp_path):
    make_book(tmp_path / "ferry.epub")
    speak(ckpt, "--text-file", tmp_path / "ferry.epub", "-o", tmp_path / "ferry.m4b", "--split-chapters")
    files = sorted(tmp_path.glob("ferry_*.m4b"))
    assert [p.name for p in files] == ["ferry_01_Opening.m4b", "ferry_02_Crossing.m4b", "ferry_03_Harbour.m4b",
                                       "ferry_04_Home.m4b"]
    found = [tags(p) for p in files]
    assert [t["title"] for t in found] == ["Opening", "Crossing", "Harbour", "Home"]
    assert {t["album"] for t in found} == {"Ferry Tales"} and {t["artist"] for t in found} == {"Bo Nilsson"}
    assert [t["track"] for t in found] == ["1/4", "2/4", "3/4", "4/4"]


def test_markdown_and_html_books_are_titled_and_the_options_set_title_and_author(ckpt, load_tiny, tmp_path):
    from mlx_qwen3tts import longform

    (tmp_path / "notes.md").write_text("---\ntitle: \"Field Notes\"\nauthor: Ida Berg\ndate: 2024-05-01\n---\n\n"
                                       "# Day One\n\nAlpha bravo.\n")
    (tmp_path / "plain.md").write_text("Some words first.\n\n## The Lighthouse\n\nCharlie delta.\n")
    (tmp_path / "page.html").write_text("<html><head><title>Tide Tables</title><meta name='author' content='Ola Dahl'>"
                                        "</head><body><p>Echo golf.</p></body></html>")
    speak(ckpt, "--text-file", tmp_path / "notes.md", "-o", tmp_path / "notes.m4b")
    speak(ckpt, "--text-file", tmp_path / "plain.md", "-o", tmp_path / "plain.m4a")
    speak(ckpt, "--text-file", tmp_path / "page.html", "-o", tmp_path / "page.m4b")
    assert (tags(tmp_path / "notes.m4b")["title"], tags(tmp_path / "notes.m4b")["artist"]) == ("Field Notes", "Ida Berg")
    assert tags(tmp_path / "plain.m4a")["title"] == "The Lighthouse"  # the first heading
    assert (tags(tmp_path / "page.m4b")["title"], tags(tmp_path / "page.m4b")["album_artist"]) == (
        "Tide Tables", "Ola Dahl")
    speak(ckpt, "--text-file", tmp_path / "page.html", "-o", tmp_path / "given.m4b", "--title", "My Tides",
          "--author", "Per Holm")
    assert (tags(tmp_path / "given.m4b")["title"], tags(tmp_path / "given.m4b")["artist"]) == ("My Tides", "Per Holm")
    doc = longform.document((tmp_path / "notes.md").read_text(), markdown=True, title="Kept Notes", author="Kim Ek")
    assert [s.shown for s in doc.segments] == ["Day One", "Alpha bravo."]  # the front matter is not read
    longform.write(load_tiny("custom_voice-0b6"), doc, tmp_path / "api.m4b", temperature=0, max_tokens=4)
    assert (tags(tmp_path / "api.m4b")["title"], tags(tmp_path / "api.m4b")["artist"]) == ("Kept Notes", "Kim Ek")
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text", "Hi.", "--title", "X", "-o", tmp_path / "x.wav")
    assert code == 2 and "--title applies to --text-file" in error_line(out)


WRITTEN = "Fish cost $4 at 7:30, said the e-mail. Clippy::all warns!"


def _srt(path):
    return [b.strip().splitlines() for b in path.read_text().split("\n\n") if "-->" in b]


def test_srt_word_cues_show_the_text_as_written(ckpt, tmp_path):
    (tmp_path / "a.txt").write_text(WRITTEN)
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.srt",
          "--caption-words", "--aligner", ckpt["aligner"], "--max-tokens", "20")
    blocks = _srt(tmp_path / "a.srt")
    shown = " ".join(block[2] for block in blocks)
    assert shown.replace(" ", "") == WRITTEN.replace(" ", "")  # every character as written, in order
    assert all(start < end for start, end in (block[1].split(" --> ") for block in blocks)), blocks


def test_a_word_cue_never_starts_where_it_ends():
    """Word times as an aligner may give them: two starts within one millisecond, and words that land on
    the end of their sentence's cue (its last sample, no pause after the last cue)."""
    from mlx_qwen3tts.longform.captions import Cue, render

    ms = RATE // 1000
    words = (("Ship", 1200, 4800), ("ahoy", 1200 + ms // 3, 6000), ("now", 9600, 9600), ("then", 9600, 9600))
    first = Cue("Ship ahoy now then.", 1200, 9600, 9600, 0, 1, words=words)
    second = Cue("Land!", 9600, 14400, 14400, 0, 2, words=(("Land", 14400, 14400),))
    blocks = [b.splitlines() for b in render([first, second], RATE, "srt").split("\n\n") if b.strip()]
    times = [b[1].split(" --> ") for b in blocks]
    assert all(start < end for start, end in times), times
    assert "".join(b[2] for b in blocks).replace(" ", "") == "Shipahoynowthen.Land!"
    assert times[0][0] == "00:00:00,050" and times[-1][1] == "00:00:00,600"


def test_two_caption_files_are_both_written(ckpt, load_tiny, tmp_path):
    from mlx_qwen3tts import longform

    (tmp_path / "a.md").write_text("# One\n\nAlpha bravo. Charlie delta.\n\n# Two\n\nEcho golf.\n")
    speak(ckpt, "--text-file", tmp_path / "a.md", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.srt",
          "--captions", tmp_path / "a.vtt")
    srt, vtt = _srt(tmp_path / "a.srt"), _srt(tmp_path / "a.vtt")
    assert [b[2] for b in srt] == [b[1] for b in vtt] == ["One", "Alpha bravo.", "Charlie delta.", "Two", "Echo golf."]
    speak(ckpt, "--text-file", tmp_path / "a.md", "-o", tmp_path / "s.wav", "--split-chapters", "--captions",
          tmp_path / "s.srt", "--captions", tmp_path / "s.json")
    assert sorted(p.name for p in tmp_path.glob("s_*")) == ["s_01_One.json", "s_01_One.srt", "s_01_One.wav",
                                                           "s_02_Two.json", "s_02_Two.srt", "s_02_Two.wav"]
    assert [c["text"] for c in json.loads((tmp_path / "s_02_Two.json").read_text())["cues"]] == ["Two", "Echo golf."]
    written = longform.write(load_tiny("custom_voice-0b6"), longform.document("Alpha bravo."), tmp_path / "p.wav",
                             captions=[tmp_path / "p.srt", tmp_path / "p.json"], temperature=0, max_tokens=4)
    assert [p.name for p in written] == ["p.wav", "p.srt", "p.json"] and all(p.exists() for p in written)


def _stopped_after(monkeypatch, count):
    from mlx_qwen3tts.longform import job

    real = job.narrate

    def stopped(*args, **kwargs):
        for n, spoken in enumerate(real(*args, **kwargs)):
            if n == count:
                raise KeyboardInterrupt
            yield spoken

    monkeypatch.setattr(job, "narrate", stopped)
    return lambda: monkeypatch.setattr(job, "narrate", real)


def test_resume_with_another_seed_is_refused_alike_and_without_one_keeps_the_first(ckpt, load_tiny, tmp_path,
                                                                                   monkeypatch):
    from mlx_qwen3tts import longform

    text = " ".join(sentences(4, seed=9))
    (tmp_path / "a.txt").write_text(text)
    args = ["--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "a.txt", "--max-tokens", "6",
            "--batch-size", "1", "-q"]
    assert run(*args, "-o", tmp_path / "whole.wav", "--seed", "5")[0] == 0
    restore = _stopped_after(monkeypatch, 2)
    code, _ = run(*args, "-o", tmp_path / "cli.wav", "--seed", "5")
    restore()
    assert code != 0 and not (tmp_path / "cli.wav").exists()
    code, out = run(*args, "-o", tmp_path / "cli.wav", "--seed", "6", "--resume")
    line = error_line(out)
    assert code == 2 and "--seed 5, not 6" in line and "--resume" in line
    code, out = run(*args, "-o", tmp_path / "cli.wav", "--resume")  # no seed: the first run's
    assert code == 0, out
    np.testing.assert_array_equal(audio(tmp_path / "cli.wav"), audio(tmp_path / "whole.wav"))

    tts, doc = load_tiny("custom_voice-0b6"), longform.document(text)
    kw = dict(max_tokens=6, batch_size=1)
    restore = _stopped_after(monkeypatch, 2)
    with pytest.raises(KeyboardInterrupt):
        longform.write(tts, doc, tmp_path / "api.wav", seed=5, **kw)
    restore()
    with pytest.raises(InputError, match="seed 5, not 12") as refused:
        longform.write(tts, doc, tmp_path / "api.wav", seed=12, resume=True, **kw)
    assert refused.value.field == "seed" and not (tmp_path / "api.wav").exists()
    longform.write(tts, doc, tmp_path / "api.wav", seed=5, resume=True, **kw)  # the same seed: continued
    assert (tmp_path / "api.wav").exists()


def test_progress_through_an_epub_counts_lines_through_the_book(ckpt, tmp_path):
    make_book(tmp_path / "ferry.epub")
    out = speak(ckpt, "--text-file", tmp_path / "ferry.epub", "-o", tmp_path / "ferry.wav", "--batch-size", "2",
                quiet=False)
    lines = [int(m.group(1)) for m in re.finditer(r"^segment \d+/\d+ .*\(line (\d+)\)$", out, re.M)]
    assert len(lines) == 9 and lines == sorted(lines) and len(set(lines)) == 6, out  # a line per paragraph of the book


def test_the_first_eta_counts_each_batch_as_long_as_its_longest_segment():
    """A batch runs until its longest segment ends. A first batch of even sentences, then batches of one
    long sentence among short lines (headings, dialogue) that take as long: the first estimate is the time
    those batches take, not a third of it."""
    from mlx_qwen3tts.longform import document
    from mlx_qwen3tts.longform.progress import Progress

    long_sentence = "Alpha bravo charlie delta echo foxtrot golf."
    first = [long_sentence] * 4
    later = [long_sentence, "Yes.", "No.", "Hi."] * 3
    doc = document("\n\n".join(first + later), normalize=False)
    now, log = [0.0], io.StringIO()
    progress = Progress(doc, RATE, batch_size=4, stream=log, clock=lambda: now[0])
    for index, segment in enumerate(doc.segments):  # 10 s a batch, its segments arriving together
        now[0] = 10.0 * (index // 4 + 1)
        progress.segment(SimpleNamespace(segment=segment), RATE)
    etas = [line.split("ETA ")[1].split()[0] for line in log.getvalue().splitlines()]
    assert etas[0] == "0:00:30" and etas[4] == "0:00:20" and etas[-1] == "0:00:00", etas


NUMBERED = "# Steps\n\n1. Open the lid.\n2. Press the button.\n\nAs step 2 says, wait.[^1]\n\n[^1]: A note.\n"


def test_numbered_list_items_keep_their_numbers_unless_asked_not_to():
    """Issue 65: the text refers back to its items ("as step 2 says"): each item is read with its number."""
    from mlx_qwen3tts import longform

    shown = [s.shown for s in longform.document(NUMBERED, markdown=True, normalize=False).segments]
    assert shown == ["Steps", "1.", "Open the lid.", "2.", "Press the button.", "As step 2 says, wait."]
    dropped = longform.document(NUMBERED, markdown=True, normalize=False, read=())
    assert [s.shown for s in dropped.segments] == ["Steps", "Open the lid.", "Press the button.",
                                                   "As step 2 says, wait."]


def test_notes_and_navigation_are_read_when_asked(tmp_path):
    """Footnotes (Markdown, HTML) and a page's navigation are left out, and read with read=("notes", "navigation");
    the command line's --read notes, --read navigation and --read no-list-numbers ask the same."""
    from mlx_qwen3tts import longform

    page = ('<html><body><nav><p>Home. Next chapter.</p></nav><main><p>The story starts.'
            '<a epub:type="noteref" href="#n1">1</a></p><aside epub:type="footnote" id="n1"><p>A note here.</p>'
            "</aside></main></body></html>")
    said = [s.shown for s in longform.document(page, html=True, normalize=False).segments]
    assert said == ["The story starts."]
    said = [s.shown for s in longform.document(page, html=True, normalize=False, read=("notes",)).segments]
    assert said == ["The story starts.1", "A note here."]
    said = [s.shown for s in longform.document(page, html=True, normalize=False, read=("navigation",)).segments]
    assert said == ["Home.", "Next chapter.", "The story starts."]
    noted = longform.document(NUMBERED, markdown=True, normalize=False, read=("numbers", "notes"))
    assert [s.shown for s in noted.segments][-1] == "A note."
    (tmp_path / "n.md").write_text(NUMBERED, encoding="utf-8")
    dry = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--dry-run", "--no-normalize", "--text-file",
                          str(tmp_path / "n.md"), "--read", "no-list-numbers", "--read", "notes"], capture_output=True,
                         text=True, timeout=120, env=env(), cwd=ROOT)
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.splitlines() == ["Steps", "Open the lid.", "Press the button.", "As step 2 says, wait.",
                                       "A note."]
