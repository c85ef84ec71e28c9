"""Long-form speech: books, articles and dialogue scripts of any length.

`document(text, ...)` cuts a text (plain, Markdown, HTML or a script) into segments and chapters, with
the lexicon and normalization applied, and `book(path, ...)` an EPUB, with its title, author, language
and cover; `narrate(tts, document, ...)` yields each finished segment
(`Spoken`: audio, segment with its text, chapter and line, start sample) in order, for applications
that build their own output. The command line (`--text-file`) writes files, captions and resumes
through `job.run`.
"""

from dataclasses import replace
from typing import Optional

from ..text.epub import BookInfo, read_epub
from ..text.lexicon import Lexicon, read_lexicon
from .narrate import Spoken, narrate, segment_seed
from ..text.normalize import normalize as normalize_text
from .segments import Document, Segment, build, read_document

__all__ = ["BookInfo", "Document", "Lexicon", "Segment", "Spoken", "book", "document", "narrate", "normalize_text",
           "read_lexicon", "segment_seed"]


def _spoken(lexicon: Optional[Lexicon], normalize: bool, language: str):
    def spoken(shown: str) -> str:
        said = lexicon.apply(shown) if lexicon is not None else shown
        return normalize_text(said, language) if normalize else said

    return spoken


def document(text: str, *, markdown: bool = False, html: bool = False, script: bool = False,
             heading_pattern: Optional[str] = None, skip_chapters: Optional[str] = None,
             lexicon: Optional[Lexicon] = None, normalize: bool = True, language: str = "auto") -> Document:
    """The segments and chapters of `text`; what each segment says has the `lexicon`'s respellings and,
    with `normalize`, numbers and symbols as words in `language` (captions keep the text as written).
    `skip_chapters`: a regular expression; chapters whose whole title it matches (any case) are left out."""
    return read_document(text, markdown=markdown, html=html, script=script, heading_pattern=heading_pattern,
                         skip_chapters=skip_chapters, spoken=_spoken(lexicon, normalize, language))


def book(path, *, skip_chapters: Optional[str] = None, lexicon: Optional[Lexicon] = None, normalize: bool = True,
         language: str = "auto") -> Document:
    """The segments and chapters of the EPUB at `path` (in its spine's order, chapters from its table of
    contents), with its title, author, language and cover in `Document.info`; as `document` otherwise
    (with `language` auto, numbers are read in the book's language). Needs the `epub` extra."""
    read = read_epub(path)
    if language in (None, "", "auto") and read.info.language:
        language = read.info.language
    doc = build(read.blocks, _spoken(lexicon, normalize, language), heading_chapters=not read.navigated,
                skip_chapters=skip_chapters)
    return replace(doc, info=read.info)
