"""Writes a small EPUB book to try `--text-file book.epub` with: `python examples/make_epub.py book.epub`.

Made by ebooklib's writer (the `epub` extra), as a book from a shop or an editor would be: a title, an
author, a language, a cover picture, front matter, and a table of contents whose part holds chapters.
"""

import struct
import sys
import zlib

from ebooklib import epub


def cover(width=120, height=180):
    """A plain PNG picture (written by hand, so nothing else needs installing)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x1e\x50\x8c" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


book = epub.EpubBook()
book.set_identifier("example-the-harbour")
book.set_title("The Harbour")
book.set_language("en")
book.add_author("A. Writer")
book.set_cover("cover.png", cover())
pages = []
for name, body in [("copyright", "<p>Copyright 2026 A. Writer. All rights reserved.</p>"),
                   ("part1", "<h1>Part One</h1><p>The town by the sea.</p>"),
                   ("morning", "<h2>Morning</h2><p>Boats rocked <i>gently</i> in the harbour.</p>"),
                   ("evening", "<h2>Evening</h2><p>At 7:30 the lights went out, one by one.</p>")]:
    pages.append(epub.EpubHtml(title=name, file_name=f"text/{name}.xhtml", lang="en", content=body))
    book.add_item(pages[-1])
book.toc = [epub.Link("text/copyright.xhtml", "Copyright", "copyright"),
            (epub.Section("Part One", href="text/part1.xhtml"),
             [epub.Link("text/morning.xhtml", "Morning", "morning"),
              epub.Link("text/evening.xhtml", "Evening", "evening")])]
book.add_item(epub.EpubNcx())
book.add_item(epub.EpubNav())
book.spine = ["cover", "nav"] + pages
epub.write_epub(sys.argv[1] if len(sys.argv) > 1 else "book.epub", book)
