"""A read-along book: an EPUB 3 of a long-form document with its narration inside and Media Overlays
(SMIL), which Apple Books, Thorium and other readers play with the spoken sentence (or word) highlighted.

One XHTML page per chapter holds the segments as written, each sentence in a `<span id>` (and, with
word timings, each word in one inside it), grouped in paragraphs and headings as the document's pauses
tell; one MP3 per chapter holds that chapter's narration; one SMIL file per chapter points each span at
its clip. Clip times are the captions' times (a sentence from its first sample to where the next one
starts; a word from its start to its end), measured from the chapter's first sample. A word clip of no
length (the aligner put the word at one instant) is merged into its neighbour, and a sentence whose
words all fall at one instant is timed as a whole: EPUB readers and epubcheck refuse empty clips.

The book is written whole into one file; its identifier and modification time come from the caller
(a resumed run gives the same book as an uninterrupted one)."""

import shutil
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Tuple
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from .. import outputs
from ..errors import InputError
from ..audio.formats import open_file
from .captions import Cue, word_spans
from .segments import PAUSES, UNTITLED, Document, Segment

ACTIVE_CLASS = "-epub-media-overlay-active"  # the name readers know; declared in the package too
STYLE = f"""body {{ font-family: serif; line-height: 1.5; margin: 1em; }}
.{ACTIVE_CLASS} {{ background-color: #ffe08a; color: #000000; border-radius: 0.15em; }}
.speaker {{ font-weight: bold; }}
"""
_CONTAINER = ('<?xml version="1.0" encoding="UTF-8"?>\n<container version="1.0" '
              'xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n<rootfiles><rootfile '
              'full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles>\n</container>\n')
_XHTML = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" '
          'xmlns:epub="http://www.idpf.org/2007/ops" lang="{lang}" xml:lang="{lang}">\n<head><meta charset="UTF-8"/>'
          '<title>{title}</title><link rel="stylesheet" type="text/css" href="style.css"/></head>\n'
          '<body>\n{body}\n</body>\n</html>\n')


@dataclass(frozen=True)
class Clip:
    target: str  # the id of the span it voices
    begin: float  # seconds from the chapter's first sample, to the millisecond
    end: float


@dataclass(frozen=True)
class Chapter:
    title: str
    page: str  # the XHTML page
    clips: List[Tuple[str, List[Clip]]]  # per sentence: its span's id and its clips (one, or one per word group)
    samples: int  # the narration's length
    lang: str  # its language (BCP 47)


@dataclass(frozen=True)
class Edition:
    """Which book this is and when it was made: its identifier (a URN) and modification time (seconds since the
    epoch), from the caller (a resumed run gives the same book as an uninterrupted one)."""

    identifier: str
    modified: float


@dataclass(frozen=True)
class Facts:
    """What the package says of the book: its edition, title and languages (BCP 47: the book's first, then any
    other of its chapters')."""

    edition: Edition
    title: str
    languages: Tuple[str, ...]


def _seconds(samples: int, rate: int) -> float:
    return round(samples / rate, 3)


def _clock(seconds: float) -> str:
    """A SMIL full clock value (media:duration)."""
    ms = int(round(seconds * 1000))
    return f"{ms // 3_600_000}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def _word_groups(cue: Cue, base: int, rate: int) -> List[Tuple[int, int, float, float]]:
    """(first word, past-last word, begin, end) of each clip of `cue`'s words; words whose clip would have no
    length join the next (the last such group joins the one before). [] where no group has a length."""
    groups = []
    for n, (_, start, end) in enumerate(cue.words):
        begin, finish = _seconds(start - base, rate), _seconds(end - base, rate)
        if groups and groups[-1][3] <= groups[-1][2]:  # the group so far is empty: this word extends it
            groups[-1] = (groups[-1][0], n + 1, groups[-1][2], max(groups[-1][3], finish))
        else:
            groups.append((n, n + 1, begin, finish))
    if len(groups) > 1 and groups[-1][3] <= groups[-1][2]:
        last = groups.pop()
        groups[-1] = (groups[-1][0], last[1], groups[-1][2], max(groups[-1][3], last[3]))
    return groups if groups and all(g[3] > g[2] for g in groups) else []


def _sentence(segment: Segment, cue: Cue, base: int, rate: int) -> Tuple[str, List[Clip]]:
    """The sentence's markup (a span, with word spans inside where its words are timed) and its clips."""
    sid = f"s{segment.index + 1:06d}"
    text = cue.text
    spans = word_spans(text, [w[0] for w in cue.words]) if cue.words else []
    groups = _word_groups(cue, base, rate) if spans else []
    if not groups:
        begin, end = _seconds(cue.start - base, rate), _seconds(cue.end - base, rate)
        return f'<span id="{sid}">{escape(text)}</span>', [Clip(sid, begin, end)] if end > begin else []
    parts, at, clips = [], 0, []
    for number, (first, last, begin, end) in enumerate(groups, start=1):
        wid = f"{sid}w{number:03d}"
        a, b = spans[first][0], spans[last - 1][1]
        parts += [escape(text[at:a]), f'<span id="{wid}">{escape(text[a:b])}</span>']
        at = b
        clips.append(Clip(wid, begin, end))
    return f'<span id="{sid}">{"".join(parts)}{escape(text[at:])}</span>', clips


def _blocks(segments: List[Segment]) -> List[List[int]]:
    """Indexes into `segments` grouped as the text's paragraphs: a block ends with a pause longer than a
    sentence's (a paragraph, heading, turn or chapter ends there) or where the speaker changes."""
    blocks = []
    for n, segment in enumerate(segments):
        if not blocks or segments[n - 1].pause_s != PAUSES["sentence"] or segments[n - 1].speaker != segment.speaker:
            blocks.append([])
        blocks[-1].append(n)
    return blocks


def _chapter(number: int, title: str, segments: List[Segment], cues: List[Cue], rate: int, lang: str) -> Chapter:
    base = cues[0].start
    body, clips = [], []
    for block in _blocks(segments):
        marked = []
        for n in block:
            markup, timed = _sentence(segments[n], cues[n], base, rate)
            marked.append(markup)
            if timed:
                clips.append((f"s{segments[n].index + 1:06d}", timed))
        heading = segments[block[-1]].pause_s == PAUSES["heading"]
        speaker = segments[block[0]].speaker
        lead = f'<span class="speaker">{escape(speaker)}:</span> ' if speaker else ""
        tag = "h2" if heading else "p"
        body.append(f"<{tag}>{lead}{' '.join(marked)}</{tag}>")
    section = f'<section id="chapter{number:03d}">\n' + "\n".join(body) + "\n</section>"
    page = _XHTML.format(lang=escape(lang), title=escape(title), body=section)
    return Chapter(title, page, clips, cues[-1].end - base, lang)


def _smil(number: int, chapter: Chapter) -> str:
    page, audio = f"c{number:03d}.xhtml", f"c{number:03d}.mp3"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">',
             f'<body>\n<seq id="seq{number:03d}" epub:textref="{page}#chapter{number:03d}">']
    for sid, clips in chapter.clips:
        pars = [f'<par id="p-{c.target}"><text src="{page}#{c.target}"/><audio src="{audio}" '
                f'clipBegin="{c.begin:.3f}s" clipEnd="{c.end:.3f}s"/></par>' for c in clips]
        lines += pars if len(clips) == 1 and clips[0].target == sid else \
            [f'<seq id="q-{sid}" epub:textref="{page}#{sid}">', *pars, "</seq>"]
    return "\n".join(lines + ["</seq>\n</body>\n</smil>\n"])


def _nav(chapters: List[Chapter], lang: str, title: str) -> str:
    items = "\n".join(f'<li><a href="c{n:03d}.xhtml">{escape(c.title)}</a></li>'
                      for n, c in enumerate(chapters, start=1))
    body = f'<nav epub:type="toc" id="toc">\n<h1>{escape(title)}</h1>\n<ol>\n{items}\n</ol>\n</nav>'
    return _XHTML.format(lang=escape(lang), title=escape(title), body=body)


def _package(document: Document, chapters: List[Chapter], facts: Facts, rate: int) -> str:
    info, lang, stamp = document.info, facts.languages[0], time.gmtime(facts.edition.modified)
    meta = [f'<dc:identifier id="book-id">{escape(facts.edition.identifier)}</dc:identifier>',
            f"<dc:title>{escape(facts.title)}</dc:title>",
            *(f"<dc:language>{escape(code)}</dc:language>" for code in facts.languages),
            f'<meta property="dcterms:modified">{time.strftime("%Y-%m-%dT%H:%M:%SZ", stamp)}</meta>',
            f'<meta property="media:active-class">{ACTIVE_CLASS}</meta>']
    if info.author:
        meta.append(f"<dc:creator>{escape(info.author)}</dc:creator>")
    items = ['<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
             '<item id="style" href="style.css" media-type="text/css"/>']
    spine = []
    if info.cover:
        items += [f'<item id="cover-image" href="cover{_cover_suffix(info.cover_type)}" '
                  f'media-type="{info.cover_type}" properties="cover-image"/>',
                  '<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>']
        spine.append('<itemref idref="cover"/>')
    total = 0.0
    for n, chapter in enumerate(chapters, start=1):
        timed = bool(chapter.clips)
        items.append(f'<item id="c{n:03d}" href="c{n:03d}.xhtml" media-type="application/xhtml+xml"'
                     + (f' media-overlay="o{n:03d}"/>' if timed else "/>"))
        spine.append(f'<itemref idref="c{n:03d}"/>')
        if timed:
            items += [f'<item id="o{n:03d}" href="c{n:03d}.smil" media-type="application/smil+xml"/>',
                      f'<item id="a{n:03d}" href="c{n:03d}.mp3" media-type="audio/mpeg"/>']
            seconds = _seconds(chapter.samples, rate)
            meta.append(f'<meta property="media:duration" refines="#o{n:03d}">{_clock(seconds)}</meta>')
            total += seconds
    meta.append(f'<meta property="media:duration">{_clock(total)}</meta>')
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
            f'unique-identifier="book-id" xml:lang={quoteattr(lang)}>\n'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n' + "\n".join(meta) + "\n</metadata>\n"
            "<manifest>\n" + "\n".join(items) + "\n</manifest>\n<spine>\n" + "\n".join(spine)
            + "\n</spine>\n</package>\n")


def _at(languages: Tuple[str, ...], chapter: int) -> str:
    return languages[chapter] if chapter < len(languages) else ""


def _cover_suffix(media_type: str) -> str:
    return ".png" if media_type == "image/png" else ".jpg"


def _cover_page(info, lang: str, title: str) -> str:
    image = f'<img src="cover{_cover_suffix(info.cover_type)}" alt="{escape(title)}" style="max-width: 100%;"/>'
    return _XHTML.format(lang=escape(lang), title=escape(title), body=f'<section epub:type="cover">{image}</section>')


def write_book(path, document: Document, cues: List[Cue], audio: Callable[[int], np.ndarray], rate: int,
               edition: Edition, language: str = "", title: str = ""):
    """The read-along EPUB of `document` at `path`: `cues` (one per segment, in order, times in samples of
    one file per chapter or of one whole file) and `audio(i)` (segment i's samples) give its narration;
    `edition` (its identifier and modification time), and `language`/`title` where the document's book info has
    none. Its language: the document's own, else `language`, else each chapter's as detected in its
    text (`Document.languages`; the book's the most of them), else "und"."""
    info = document.info
    told = info.language or language
    detected = [code for code in document.languages if code]
    lang = told or max(detected, key=detected.count, default="und")
    title = info.title or title or document.chapters[0] or UNTITLED
    members = [[i for i, s in enumerate(document.segments) if s.chapter == n] for n in range(len(document.chapters))]
    members = [(name or UNTITLED, indexes, told or _at(document.languages, n) or lang)
               for n, (name, indexes) in enumerate(zip(document.chapters, members)) if indexes]
    chapters = [_chapter(n, name, [document.segments[i] for i in indexes], [cues[i] for i in indexes], rate, code)
                for n, (name, indexes, code) in enumerate(members, start=1)]
    facts = Facts(edition, title, tuple(dict.fromkeys([lang] + [c.lang for c in chapters])))
    with _Zip(path, edition.modified) as book, tempfile.TemporaryDirectory(dir=Path(path).parent, prefix=".read-along") as tmp:
        book.add("mimetype", "application/epub+zip", zipfile.ZIP_STORED)  # first and stored, as EPUB asks
        book.add("META-INF/container.xml", _CONTAINER)
        for n, (chapter, (_, indexes, _)) in enumerate(zip(chapters, members), start=1):
            book.add(f"EPUB/c{n:03d}.xhtml", chapter.page)
            if chapter.clips:
                book.add(f"EPUB/c{n:03d}.smil", _smil(n, chapter))
                mp3 = Path(tmp) / "chapter.mp3"
                _encode(mp3, [(audio(i), cues[i].end - cues[i].start) for i in indexes], rate)
                book.add_file(f"EPUB/c{n:03d}.mp3", mp3)
        book.add("EPUB/style.css", STYLE)
        book.add("EPUB/nav.xhtml", _nav(chapters, lang, title))
        if info.cover:
            book.add(f"EPUB/cover{_cover_suffix(info.cover_type)}", info.cover, zipfile.ZIP_STORED)
            book.add("EPUB/cover.xhtml", _cover_page(info, lang, title))
        book.add("EPUB/package.opf", _package(document, chapters, facts, rate))


class _Zip(zipfile.ZipFile):
    """A zip whose entries all carry one time (a book written twice from the same run is the same file)."""

    def __init__(self, path, modified: float):
        super().__init__(path, "w")
        self.stamp = max(time.gmtime(modified)[:6], (1980, 1, 1, 0, 0, 0))  # the earliest a zip can say

    def add(self, name: str, data, compress=zipfile.ZIP_DEFLATED):
        entry = zipfile.ZipInfo(name, self.stamp)
        entry.compress_type = compress
        self.writestr(entry, data)

    def add_file(self, name: str, path: Path):
        """A file copied in as it is (stored: audio is compressed already), a chunk at a time."""
        with open(path, "rb") as source, self.open(zipfile.ZipInfo(name, self.stamp), "w", force_zip64=True) as out:
            shutil.copyfileobj(source, out, 1 << 20)


def _encode(path: Path, pieces, rate: int):
    """One chapter's narration as MP3: each segment's audio, then silence to where the next one starts."""
    out = open_file(path, "mp3", rate)
    for samples, length in pieces:
        out.write(samples[:length])
        if length > samples.shape[0]:
            out.write(np.zeros(length - samples.shape[0], np.float32))
    out.close()


def checked_target(out: outputs.Output) -> outputs.Output:
    """A read-along output: a regular file named .epub (the book is a zip, written whole)."""
    if Path(str(out.given)).suffix.lower() != ".epub":
        raise InputError(f"{{read_along}} {out.given}: give an .epub name", field="read_along")
    if out.kind != "file":
        raise InputError(f"{{read_along}} {out.given} is not a regular file; give a file name", field="read_along")
    return out


def read_along_target(given, overwrite: bool) -> outputs.Output:
    """The Python API's read-along output: a new .epub file unless `overwrite`."""
    return checked_target(outputs.new_file(given, "read_along", overwrite))


def read_along_language(language: Optional[str]) -> str:
    """A BCP 47 tag for a request's language name ("English" -> "en"); "" for auto or unknown."""
    from ..text import LANGUAGE_CODES

    return LANGUAGE_CODES.get((language or "").strip().lower(), "")
