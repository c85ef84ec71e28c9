"""HTML (and the XHTML of an EPUB) read as a listener should hear it: the words of headings, paragraphs,
list items and table rows, as `markdown` gives them for Markdown; scripts, styles, the head, preformatted
text (code) and footnotes skipped; so is what documentation generators (DocBook XSL, Publican, pandoc) write around
the content: navigation headers and footers, a chapter's table of contents, footnote markers and footnotes
(`NOT_READ_CLASSES`). `<details>` are read whole (their summary, then their content). Parsed by the standard library's `html.parser`, so entities are decoded
and unclosed tags are fine.

What a reader reads of a web page: its `<main>` (or `role="main"`) where it has one; else all but what is
not content: navigation, search, the landmarks around the content (ARIA roles banner, complementary,
contentinfo, navigation, search; `<header>`, `<footer>` and `<aside>` of the page itself, not of an
article or section). Permalink anchors (a `headerlink`, or a link within the page whose text is only a
mark such as Sphinx's "¶") are not read. `<br>` ends a sentence (a heading's line: a space). A web
address written in angle brackets ("<https://...>", a man page's way) loses them. The page's `<title>`
and `<meta name="author">` are its title and author (`page_info`), not read."""

import re
from html.parser import HTMLParser
from typing import Dict, List, Tuple

from . import CONTROL
from .markdown import LINE_BREAK, Block, unbracketed

# Tags whose start or end ends the words before them (a paragraph, a list item, a cell's row, ...).
BREAKS = {"address", "article", "aside", "blockquote", "body", "caption", "dd", "div", "dl", "dt", "figcaption",
          "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "html", "li", "main", "ol",
          "p", "section", "table", "tbody", "thead", "tfoot", "tr", "ul"}
# Tags whose content is not read: not text (script, style, the head), navigation, code, footnotes.
SKIPPED = {"head", "script", "style", "template", "noscript", "nav", "pre", "svg", "math", "title"}
# epub:type and role values of what is not read: note references, the notes, page numbers.
NOTES = {"noteref", "footnote", "footnotes", "endnote", "endnotes", "rearnote", "rearnotes", "pagebreak",
         "doc-noteref", "doc-footnote", "doc-endnote", "doc-endnotes", "doc-pagebreak"}
# Landmarks that are not the content (ARIA roles), and the elements that are such landmarks at the page's level.
NOT_CONTENT = {"navigation", "search", "banner", "complementary", "contentinfo"}
PAGE_LEVEL = {"header", "footer", "aside"}
SECTIONING = {"article", "aside", "main", "nav", "section"}  # inside one, a header or footer is its own
PERMALINK_CLASSES = {"headerlink", "anchor-link", "anchorjs-link", "permalink", "header-anchor"}
# What documentation generators write around the content, by class or id: DocBook XSL's navigation header and
# footer (which repeat the chapter's title and name the pages before and after: "Prev", "Next", "Home"), a
# chapter's own table of contents and lists of tables or figures, its footnote markers ("[1]") and footnotes;
# Publican's (the Debian Administrator's Handbook) navigation lists, banner and title bar; pandoc's footnotes.
NOT_READ_CLASSES = {"navheader", "navfooter", "docnav", "toc", "list-of-tables", "list-of-figures",
                    "list-of-examples", "footnote", "footnotes", "footnote-ref", "footnote-back"}
NOT_READ_IDS = {"banner", "title", "footnotes"}
# What is read when asked for (`read`): "notes" (footnotes and endnotes with their markers), "navigation" (a page's
# navigation and tables of contents, the whole page, not only its main).
ASKED = {"notes": ({"noteref", "footnote", "footnotes", "endnote", "endnotes", "rearnote", "rearnotes", "doc-noteref",
                    "doc-footnote", "doc-endnote", "doc-endnotes", "footnote-ref", "footnote-back"}, set()),
         "navigation": ({"navigation", "search", "navheader", "navfooter", "docnav", "toc", "list-of-tables",
                         "list-of-figures", "list-of-examples"}, {"nav"})}
MARKS = {"", "¶", "#", "§", "🔗", "\u2693"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Reader(HTMLParser):
    def __init__(self, main_only: bool = False, read=()):
        super().__init__(convert_charrefs=True)
        self.read = [ASKED[part] for part in read if part in ASKED]  # (kinds or classes, tags) read when asked
        self.blocks: List[Block] = []
        self.anchors: Dict[str, int] = {}  # an element's id -> the index of the block it starts (or is in)
        self.words, self.line, self.heading = [], 0, 0
        self.skipping = []  # the open skipped element and its nesting depth, as [tag, depth]
        self.outside = [None, 0] if main_only else None  # reading only the main: its tag and depth once in it
        self.sections = []  # the open sectioning elements (a header or footer in one is not the page's)
        self.link = None  # an open link within the page: where its words start in self.words

    def _skipped(self, tag: str, attrs: dict) -> bool:
        kinds = set(f"{attrs.get('epub:type') or ''} {attrs.get('role') or ''}".split())
        marks = kinds | set((attrs.get("class") or "").split()) | {attrs.get("id") or ""}
        if any(tag in tags or marks & names for names, tags in self.read):
            return False
        if tag in SKIPPED or NOTES & kinds or NOT_CONTENT & kinds:
            return True
        if NOT_READ_CLASSES & set((attrs.get("class") or "").split()) or (attrs.get("id") or "") in NOT_READ_IDS:
            return True
        if tag in PAGE_LEVEL and not self.sections and not kinds & {"main", "article", "region"}:
            return True
        return tag == "a" and bool(PERMALINK_CLASSES & set((attrs.get("class") or "").split()))

    def _in_main(self, tag: str, attrs: dict) -> bool:
        """Whether `tag` is read when only the main is (the main element itself opens it)."""
        if self.outside is None:
            return True
        if self.outside[1] < 0:
            return False  # after the main
        if self.outside[0] is None and (tag == "main" or attrs.get("role") == "main"):
            self.outside = [tag, 0]
        if self.outside[0] == tag and tag not in VOID:
            self.outside[1] += 1
        return self.outside[1] > 0

    def _flush(self):
        lines = (unbracketed(" ".join(line.split())) for line in "".join(self.words).split(LINE_BREAK))
        text = (" " if self.heading else "\n\n").join(line for line in lines if line)
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
        if not self._in_main(tag, attrs):
            return
        if self._skipped(tag, attrs):
            if tag not in VOID:
                self.skipping = [tag, 1]
            return
        if tag in SECTIONING:
            self.sections.append(tag)
        if tag == "a" and (attrs.get("href") or "").startswith("#"):
            self.link = len(self.words)
        if tag in BREAKS:
            self._flush()
            if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                self.heading = int(tag[1])
        elif tag == "br":
            self.words.append(LINE_BREAK)
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
        if self.outside is not None:
            if self.outside[1] == 0:
                return
            if tag == self.outside[0]:
                self.outside[1] -= 1
                if not self.outside[1]:
                    self._flush()
                    self.outside = [tag, -1]  # the main has ended: nothing after it is read
                    return
        if tag in SECTIONING and self.sections:
            self.sections.pop()
        if tag == "a" and self.link is not None:
            if "".join(self.words[self.link:]).strip() in MARKS:  # a permalink's mark
                del self.words[self.link:]
            self.link = None
        if tag in BREAKS:
            self._flush()
            self.heading = 0

    def handle_data(self, data):
        if self.skipping or (self.outside is not None and self.outside[1] <= 0):
            return
        data = CONTROL.sub("", data)
        if data.strip() and not "".join(self.words).strip():
            self.line = self.getpos()[0]
        self.words.append(data)


def read_html_anchors(source: str, read=()) -> Tuple[List[Block], Dict[str, int]]:
    """The blocks of an HTML document in reading order, and where each element id is: the index of the
    block that starts there (an EPUB's table of contents points at ids). `read`: "notes", "navigation" (`ASKED`)
    are read too."""
    reader = _Reader(main_only=_has_main(source) and "navigation" not in read, read=read)
    reader.feed(source)
    reader.close()
    reader._flush()
    return reader.blocks, reader.anchors


def read_html(source: str, read=()) -> List[Block]:
    """The blocks of an HTML document in reading order; h1 to h6 are headings of their level; `read` as
    `read_html_anchors`."""
    return read_html_anchors(source, read)[0]


class _Landmarks(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.main, self.title, self.in_title, self.author, self.language = False, "", False, "", ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.language = self.language or attrs.get("lang") or attrs.get("xml:lang") or ""
        self.main = self.main or tag == "main" or attrs.get("role") == "main"
        self.in_title = tag == "title" and not self.title
        if tag == "meta" and (attrs.get("name") or "").lower() == "author" and not self.author:
            self.author = attrs.get("content") or ""

    def handle_endtag(self, tag):
        self.in_title = self.in_title and tag != "title"

    def handle_data(self, data):
        if self.in_title:
            self.title += data


def _landmarks(source: str) -> _Landmarks:
    found = _Landmarks()
    found.feed(source)
    found.close()
    return found


def _has_main(source: str) -> bool:
    return bool(re.search(r"<main\b|role\s*=\s*[\"']?main\b", source, re.I)) and _landmarks(source).main


def page_language(source: str) -> str:
    """The language the page says it is in (its `<html lang>` or `xml:lang`, BCP 47); "" where it does not say."""
    return _landmarks(source).language.strip()


def page_info(source: str) -> Tuple[str, str]:
    """The page's title (its `<title>`) and author (`<meta name="author">`); "" where it has none."""
    found = _landmarks(source)
    return tuple(" ".join(CONTROL.sub("", text).split()) for text in (found.title, found.author))
