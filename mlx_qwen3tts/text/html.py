"""HTML (and the XHTML of an EPUB) read as a listener should hear it: the words of headings, paragraphs,
list items and table rows, as `markdown` gives them for Markdown; scripts, styles, the head, navigation,
preformatted text (code) and footnotes skipped. Parsed by the standard library's `html.parser`, so
entities are decoded and unclosed tags are fine."""

from html.parser import HTMLParser
from typing import Dict, List, Tuple

from . import CONTROL
from .markdown import Block

# Tags whose start or end ends the words before them (a paragraph, a list item, a cell's row, ...).
BREAKS = {"address", "article", "aside", "blockquote", "body", "caption", "dd", "div", "dl", "dt", "figcaption",
          "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "html", "li", "main", "ol",
          "p", "section", "table", "tbody", "thead", "tfoot", "tr", "ul"}
# Tags whose content is not read: not text (script, style, the head), navigation, code, footnotes.
SKIPPED = {"head", "script", "style", "template", "noscript", "nav", "pre", "svg", "math", "title"}
# epub:type and role values of what is not read: note references, the notes, page numbers.
NOTES = {"noteref", "footnote", "footnotes", "endnote", "endnotes", "rearnote", "rearnotes", "pagebreak",
         "doc-noteref", "doc-footnote", "doc-endnote", "doc-endnotes", "doc-pagebreak"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: List[Block] = []
        self.anchors: Dict[str, int] = {}  # an element's id -> the index of the block it starts (or is in)
        self.words, self.line, self.heading = [], 0, 0
        self.skipping = []  # the open skipped element and its nesting depth, as [tag, depth]

    def _flush(self):
        text = " ".join("".join(self.words).split())
        if text:
            self.blocks.append(Block("heading" if self.heading else "paragraph", text, self.line, self.heading))
        self.words = []

    def handle_starttag(self, tag, attrs):
        if self.skipping and not (self.skipping[0] == "head" and tag == "body"):  # HTML may leave </head> out
            if tag == self.skipping[0] and tag not in VOID:
                self.skipping[1] += 1
            return
        self.skipping = []
        attrs = dict(attrs)
        if tag in SKIPPED or NOTES & set(f"{attrs.get('epub:type') or ''} {attrs.get('role') or ''}".split()):
            if tag not in VOID:
                self.skipping = [tag, 1]
            return
        if tag in BREAKS:
            self._flush()
            if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                self.heading = int(tag[1])
        elif tag == "br":
            self.words.append(" ")
        elif tag in ("td", "th") and "".join(self.words).strip():
            self.words.append(", ")
        if attrs.get("id"):
            self.anchors.setdefault(attrs["id"], len(self.blocks))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.skipping and self.skipping[0] == tag:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if self.skipping:
            if tag == self.skipping[0]:
                self.skipping[1] -= 1
                if not self.skipping[1]:
                    self.skipping = []
            return
        if tag in BREAKS:
            self._flush()
            self.heading = 0

    def handle_data(self, data):
        if self.skipping:
            return
        data = CONTROL.sub("", data)
        if data.strip() and not "".join(self.words).strip():
            self.line = self.getpos()[0]
        self.words.append(data)


def read_html_anchors(source: str) -> Tuple[List[Block], Dict[str, int]]:
    """The blocks of an HTML document in reading order, and where each element id is: the index of the
    block that starts there (an EPUB's table of contents points at ids)."""
    reader = _Reader()
    reader.feed(source)
    reader.close()
    reader._flush()
    return reader.blocks, reader.anchors


def read_html(source: str) -> List[Block]:
    """The blocks of an HTML document in reading order; h1 to h6 are headings of their level."""
    return read_html_anchors(source)[0]
