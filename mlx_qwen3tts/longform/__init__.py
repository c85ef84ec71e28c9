"""Long-form speech: books, articles and dialogue scripts of any length.

`document(text, ...)` cuts a text (plain, Markdown or a script) into segments and chapters, with
the lexicon and normalization applied; `narrate(tts, document, ...)` yields each finished segment
(`Spoken`: audio, segment with its text, chapter and line, start sample) in order, for applications
that build their own output. The command line (`--text-file`) writes files, captions and resumes
through `job.run`.
"""

from typing import Optional

from ..text.lexicon import Lexicon, read_lexicon
from .narrate import Spoken, narrate, segment_seed
from ..text.normalize import normalize as normalize_text
from .segments import Document, Segment, read_document

__all__ = ["Document", "Lexicon", "Segment", "Spoken", "document", "narrate", "normalize_text", "read_lexicon",
           "segment_seed"]


def document(text: str, *, markdown: bool = False, script: bool = False, heading_pattern: Optional[str] = None,
             lexicon: Optional[Lexicon] = None, normalize: bool = True, language: str = "auto") -> Document:
    """The segments and chapters of `text`; what each segment says has the `lexicon`'s respellings and,
    with `normalize`, numbers and symbols as words in `language` (captions keep the text as written)."""

    def spoken(shown: str) -> str:
        said = lexicon.apply(shown) if lexicon is not None else shown
        return normalize_text(said, language) if normalize else said

    return read_document(text, markdown=markdown, script=script, heading_pattern=heading_pattern, spoken=spoken)
