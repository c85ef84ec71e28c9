"""Markdown read as a listener should hear it: the words of headings, paragraphs, list items and
table rows, without the marks (emphasis, ~~strikethrough~~, bullets, link targets, autolinks' angle
brackets, images, HTML); code blocks skipped. A line break (`<br>`, two spaces or a backslash at a
line's end) ends a sentence; in a heading it is a space.
GitHub's footnotes (markers `[^x]` and definitions `[^x]: ...`) and alert markers (`> [!NOTE]`)
are left out too (with `notes`, the definitions are read). A numbered list's items keep their numbers ("2.")
unless `numbers` is False.

Parsed by markdown-it-py (CommonMark, with GitHub tables), so what counts as emphasis or a link is
what a Markdown renderer would show.
"""

import re
from dataclasses import dataclass
from typing import List, Tuple

from markdown_it import MarkdownIt


@dataclass(frozen=True)
class Block:
    kind: str  # "heading" or "paragraph"
    text: str  # the words to hear, on one line
    line: int  # where it starts in the file (1-based)
    level: int = 0  # heading level (1 for #); 0 for a paragraph


LINE_BREAK = "\x00"  # where a line break (<br>) ends a sentence, in a block's words being gathered
_BRACKETED = re.compile(r"<((?:https?|ftp)://[^\s<>]+|mailto:[^\s<>]+)>", re.I)
_BR = re.compile(r"<br\s*/?>", re.I)
_FOOTNOTE = re.compile(r"\s*\[\^[^\]\s]+\]")
_FOOTNOTE_DEFINITION = re.compile(r"\[\^[^\]\s]+\]:")
_ALERT = re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*", re.I)


def unbracketed(text: str) -> str:
    """`text` without the angle brackets written around web addresses ("<https://...>")."""
    return _BRACKETED.sub(r"\1", text)


def _words(inline, notes: bool = False) -> str:
    """An inline token's words: text, inline code and link text kept; marks, images, HTML, footnotes (but
    their definitions with `notes`) and an alert's marker dropped."""
    parts, children, line_start = [], list(inline.children or ()), True
    for i, child in enumerate(children):
        if child.type == "text" and line_start and _FOOTNOTE_DEFINITION.match(child.content):
            if not notes:
                break  # footnote definitions: the rest of the paragraph
            parts += [LINE_BREAK, _FOOTNOTE_DEFINITION.sub("", child.content, count=1)]  # each its own sentence
            line_start = False
            continue
        if child.type == "text" and i > 0 and children[i - 1].type == "link_open" and child.content.startswith("^"):
            continue  # a footnote marker that a definition made a link
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append(" ")
        elif child.type == "hardbreak" or (child.type == "html_inline" and _BR.fullmatch(child.content)):
            parts.append(LINE_BREAK)
        line_start = child.type in ("softbreak", "hardbreak")
    lines = [_FOOTNOTE.sub("", " ".join(line.split())) for line in "".join(parts).split(LINE_BREAK)]
    words = "\n\n".join(line for line in lines if line)  # a line break ends a sentence
    return _ALERT.sub("", words, count=1) if _ALERT.match(words) else words


_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)


def front_matter(source: str) -> Tuple[dict, str]:
    """A Markdown file's YAML front matter (`---` lines around `key: value` lines, as Jekyll, Hugo and pandoc
    write it) as {key: value} of its plain values, and the source with it blanked (its lines kept, so line
    numbers still count from the file's start)."""
    m = _FRONT_MATTER.match(source)
    if m is None:
        return {}, source
    fields = {}
    for line in m.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith((" ", "\t", "-")):
            fields[key.strip().lower()] = value.strip().strip("\"'").strip()
    return fields, "\n" * m.group(0).count("\n") + source[m.end():]


def read_markdown(source: str, numbers: bool = True, notes: bool = False) -> List[Block]:
    """The blocks of a Markdown document in reading order (its front matter is not read); a table gives one
    paragraph per row; a numbered list's item starts with its number unless `numbers` is False; footnote
    definitions are read with `notes`."""
    tokens = MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(front_matter(source)[1])
    blocks, heading, cells, row_line, number = [], 0, None, 0, ""
    for i, token in enumerate(tokens):
        if token.type == "list_item_open" and token.info and numbers:
            number = token.info + token.markup  # "2." or "2)", said before the item's first words
        elif token.type == "heading_open":
            heading = int(token.tag[1:])
        elif token.type == "heading_close":
            heading = 0
        elif token.type == "tr_open":
            cells, row_line = [], token.map[0] + 1
        elif token.type == "tr_close":
            row = ", ".join(c for c in cells if c)
            if row:
                blocks.append(Block("paragraph", row + ".", row_line))
            cells = None
        elif token.type == "inline":
            words = " ".join(_words(token, notes).split()) if heading else _words(token, notes)
            if cells is not None:
                cells.append(words)
            elif words:
                line = (token.map or tokens[i - 1].map or [0])[0] + 1
                blocks.append(Block("heading" if heading else "paragraph", f"{number} {words}".lstrip(), line, heading))
                number = ""
    return blocks


def as_heard(source: str) -> str:
    """A Markdown text as one plain text to speak: its blocks' words in order, each ending a sentence (a
    heading or a list item without final punctuation gets a full stop, so the voice pauses there)."""
    texts = [b.text for b in read_markdown(source) if b.text.strip()]
    return " ".join(t if t[-1] in ".!?;:。！？…" else t + "." for t in texts)
