"""EPUB books read as a listener should hear them: the documents of the book's spine in reading order
(those marked non-linear, such as notes, left out), each read as HTML (`html`); chapters where the
book's own table of contents says (EPUB 3 navigation, else the EPUB 2 NCX; nested entries each start
a chapter, an entry that begins where the next one does gives way to it); and the title, authors,
language and cover image. Lines count through the spine's documents as if they were one file, so a
block's line says where it is in the whole book. Read through ebooklib (the `epub` extra)."""

import posixpath
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator, List, Optional, Tuple
from urllib.parse import unquote

from ..errors import InputError
from .html import read_html_anchors
from .markdown import Block

EXTENSIONS = (".epub",)
COVER_TYPES = ("image/jpeg", "image/png")  # what an MP4 file's cover can be


@dataclass(frozen=True)
class BookInfo:
    """What an audiobook's file says about its book (empty when the book does not say)."""

    title: str = ""
    author: str = ""  # the creators, joined by ", "
    language: str = ""  # as the book gives it (BCP 47, e.g. "en" or "en-GB")
    cover: Optional[bytes] = None  # a JPEG or PNG image
    cover_type: str = ""  # its media type


@dataclass(frozen=True)
class Book:
    blocks: List[Block]  # in reading order, a "chapter" block (its text the title) where each chapter starts
    info: BookInfo
    navigated: bool  # the chapters come from the book's table of contents (else its headings make them)


def _ebooklib(path):
    try:
        import ebooklib
        from ebooklib import epub
    except ImportError:
        raise InputError(f"{{text}} {path} is an EPUB; reading one needs the epub extra: "
                         "pip install ebooklib", field="text") from None
    return ebooklib, epub


def _words(text) -> str:
    return " ".join(str(text or "").split())


def _toc(entries) -> Iterator[Tuple[str, str]]:
    """(title, href) of each table of contents entry, depth first, in order."""
    for entry in entries:
        if isinstance(entry, (tuple, list)):
            section, children = entry
            if getattr(section, "href", None):
                yield _words(section.title), section.href
            yield from _toc(children)
        elif getattr(entry, "href", None):
            yield _words(entry.title), entry.href


def _info(book, epub) -> BookInfo:
    def first(name):
        found = book.get_metadata("DC", name)
        return _words(found[0][0]) if found else ""

    cover = next((i for i in book.get_items() if isinstance(i, epub.EpubCover)), None)
    if cover is None:  # EPUB 2: <meta name="cover" content="ID"/>
        meta = [attrs.get("content") for _, attrs in book.get_metadata("OPF", "cover") if attrs]
        cover = book.get_item_with_id(meta[0]) if meta else None
    if cover is not None and cover.media_type not in COVER_TYPES:
        cover = None
    return BookInfo(first("title"), ", ".join(_words(v) for v, _ in book.get_metadata("DC", "creator") if _words(v)),
                    first("language"), cover.get_content() if cover is not None else None,
                    cover.media_type if cover is not None else "")


def read_epub(path, read=()) -> Book:
    """The book at `path`; InputError when it is no EPUB, or the epub extra is missing. `read`: what of its pages
    is read beside their text ("notes", "navigation": `html.read_html_anchors`)."""
    ebooklib, epub = _ebooklib(path)
    try:
        book = epub.read_epub(str(path), {"ignore_ncx": True})  # the EPUB 3 navigation when there is one
    except OSError as e:
        raise InputError(f"cannot read {{path}} {path}: {e.strerror}", field="path") from None
    except Exception as e:  # noqa: BLE001  (a zip, XML or EPUB error: the file is not a readable book)
        raise InputError(f"{{path}} {path} is not a readable EPUB ({e}); check the file", field="path") from None
    nav = any(isinstance(i, epub.EpubNav) for i in book.get_items())
    ncx = next((i for i in book.get_items() if isinstance(i, epub.EpubNcx)), None)
    base = "" if nav or ncx is None else posixpath.dirname(ncx.file_name)  # NCX links are relative to the NCX
    starts = {}  # file name -> [(fragment, order, title)]
    for order, (title, href) in enumerate(_toc(book.toc)):
        name, _, fragment = unquote(href).partition("#")
        starts.setdefault(posixpath.normpath(posixpath.join(base, name)), []).append((fragment, order, title))
    blocks, navigated, lines = [], False, 0  # lines: of the spine's documents before this one
    for idref, linear in book.spine:
        item = book.get_item_with_id(idref)
        if item is None or linear == "no" or item.get_type() != ebooklib.ITEM_DOCUMENT:
            continue
        source = item.get_content().decode("utf-8-sig", errors="replace")
        found, anchors = read_html_anchors(source, read)
        found = [replace(block, line=block.line + lines) for block in found]
        lines += source.count("\n") + 1
        marks = sorted((anchors.get(fragment, 0) if fragment else 0, order, title)
                       for fragment, order, title in starts.get(posixpath.normpath(item.file_name), ()))
        navigated = navigated or bool(marks)
        at = 0
        for index, _, title in marks:
            blocks += found[at:index] + [Block("chapter", title, found[index].line if index < len(found) else lines)]
            at = index
        blocks += found[at:]
    return Book(blocks, _info(book, epub), navigated)


def is_epub(path) -> bool:
    return Path(str(path)).suffix.lower() in EXTENSIONS
