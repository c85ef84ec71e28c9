"""Long text cut into segments a listener hears in order: sentences, grouped in paragraphs and
chapters, each with the pause that follows it; a dialogue script's turns carry their speaker.

A segment is the unit of work (one request), of resuming and of captions. Its `text` is what
the model is given (after the lexicon and normalization), `shown` what captions show (as written).
"""

import re
from dataclasses import dataclass, field, replace
from typing import Callable, List, Optional, Tuple

from ..errors import InputError
from ..text import CONTROL, has_words, sentences
from ..text.epub import BookInfo
from ..text.html import page_info, page_language, read_html
from ..text.markdown import Block, front_matter, read_markdown

PARTS = ("numbers", "notes", "navigation")  # what of a document may be read beside its text (`read`)
READ = ("numbers",)  # read unless asked not to: a numbered list's item numbers
MAX_SEGMENT_CHARS = 300  # a longer sentence is cut at a comma or space (as `text.split_sentences` cuts)
# Silence after a segment, by what ends with it (seconds).
UNTITLED = "Opening"  # the title of what comes before a text's first chapter (in files, captions and skipping)
PAUSES = {"sentence": 0.3, "paragraph": 0.7, "turn": 0.5, "heading": 0.9, "chapter": 1.5}
_TURN = re.compile(r"^\s*(?:\[([^\]\n]{1,60})\]|([^:\n]{1,60}?)\s*:)\s*(.*)$")


@dataclass(frozen=True)
class Segment:
    index: int
    text: str  # what the model speaks
    shown: str  # the sentence as written (captions)
    line: int  # where it starts in the input (1-based)
    chapter: int  # index into Document.chapters
    pause_s: float  # silence after it (none after the last)
    speaker: Optional[str] = None  # a script turn's name (as written in the script)


@dataclass(frozen=True)
class Document:
    segments: List[Segment]
    chapters: List[str] = field(default_factory=lambda: [""])  # titles, in order ("" for untitled)
    info: BookInfo = BookInfo()  # an EPUB's title, author, language and cover (empty for other texts)
    languages: Tuple[str, ...] = ()  # each chapter's, as detected in its text ("": not told; () not looked for)

    @property
    def chars(self) -> int:
        return sum(len(s.text) for s in self.segments)


def plain_blocks(text: str, heading_pattern: Optional[str] = None) -> List[Block]:
    """Paragraphs of plain text (split at blank lines); a line matching `heading_pattern` is a heading."""
    try:
        heading = re.compile(heading_pattern) if heading_pattern else None
    except re.error as e:
        raise InputError(f"{{heading_pattern}} is not a regular expression: {e}", field="heading_pattern") from None
    blocks, lines, start = [], [], 0

    def flush():
        if lines:
            blocks.append(Block("paragraph", " ".join(lines), start))
            lines.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        if heading is not None and line.strip() and heading.fullmatch(line.strip()):
            flush()
            blocks.append(Block("heading", line.strip(), number, 1))
        elif not line.strip():
            flush()
        else:
            start = start if lines else number
            lines.append(line.strip())
    flush()
    return blocks


def script_turns(text: str) -> List[Tuple[int, str, str]]:
    """(line, name, text) of each turn of a script: `Name: text` or `[Name] text` lines; a line
    without a name continues the turn before it."""
    turns = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        m = _TURN.match(line)
        if m:
            turns.append((number, (m.group(1) or m.group(2)).strip(), m.group(3).strip()))
        elif turns:
            n, name, said = turns[-1]
            turns[-1] = (n, name, f"{said} {line.strip()}")
        else:
            raise InputError(f"{{script}} line {number} names no speaker; write 'Name: text' or '[Name] text'",
                             field="script")
    return [t for t in turns if t[2]]


def _pieces(block_text: str) -> List[str]:
    return sentences(block_text, MAX_SEGMENT_CHARS)


def _skipped(pattern: Optional[str]):
    """Whether a chapter title is one `pattern` (a regular expression matching the whole title, any case) skips."""
    try:
        skip = re.compile(pattern, re.IGNORECASE) if pattern else None
    except re.error as e:
        raise InputError(f"{{skip_chapters}} is not a regular expression: {e}", field="skip_chapters") from None
    return lambda title: skip is not None and skip.fullmatch(title or UNTITLED) is not None


def build(blocks: List[Block], spoken: Callable[[str, str], str], turns=None, heading_chapters: bool = True,
          skip_chapters: Optional[str] = None) -> Document:
    """Segments of blocks (or of script `turns`), `spoken(sentence, paragraph)` turning a written sentence of a
    paragraph into the model's text. A sentence with no words (emoji, dashes) is not spoken: it joins the caption of
    the sentence before it (of the one after it, at the start), so nothing written is lost from the captions.
    A "chapter" block (an EPUB's table of contents entry) starts a chapter titled by its text, and so does
    a level 1 or 2 heading with `heading_chapters`; a chapter whose title `skip_chapters` matches is left out."""
    items, chapters, paragraphs = [], [""], []  # items: (shown, line, chapter, ends, speaker); each one's paragraph
    if turns is not None:
        for line, name, said in turns:
            items += [(s, line, 0, "sentence", name) for s in _pieces(said)]
            paragraphs += [said] * (len(items) - len(paragraphs))
            items[-1] = items[-1][:3] + ("turn", name)
    for block in blocks:
        if block.kind == "chapter" or (heading_chapters and block.kind == "heading" and block.level <= 2):
            if items and items[-1][2] == len(chapters) - 1:  # the chapter so far has words: a new one starts
                chapters.append(block.text)
                items[-1] = items[-1][:3] + ("chapter", None)
            else:
                chapters[-1] = block.text  # its title (an entry where the next one starts gives way to it)
        if block.kind == "chapter":
            continue
        parts = _pieces(block.text)
        items += [(s, block.line, len(chapters) - 1, "sentence", None) for s in parts]
        paragraphs += [block.text] * len(parts)
        if parts:
            items[-1] = items[-1][:3] + ("heading" if block.kind == "heading" else "paragraph", None)
    skipped = _skipped(skip_chapters)
    said = [(spoken(shown, paragraph), shown, line, chapter, ends, speaker)
            for (shown, line, chapter, ends, speaker), paragraph in zip(items, paragraphs)
            if not skipped(chapters[chapter])]
    said = _wordless_joined(said)
    if not said:
        if items and skip_chapters:
            raise InputError("{skip_chapters} skips every chapter; nothing is left to speak", field="skip_chapters")
        raise InputError("{text} has no words to speak (only punctuation, symbols or emoji)", field="text",
                         code="empty_input")
    used = {c: i for i, c in enumerate(sorted({item[3] for item in said}))}  # chapters left with something to say
    segments = [Segment(i, text, shown, line, used[chapter], PAUSES[ends] if i < len(said) - 1 else 0.0, speaker)
                for i, (text, shown, line, chapter, ends, speaker) in enumerate(said)]
    return Document(segments, [chapters[c] for c in used])


def _wordless_joined(said: list) -> list:
    """`said` items ((text, shown, line, chapter, ends, speaker)) whose text or shown sentence has no words (emoji
    alone, or nothing once normalized) joined to the caption of the item before them in the same chapter (else
    the one after): they are not spoken, and not lost from what is shown."""
    out, waiting = [], []  # waiting: wordless sentences before the first spoken one of a chapter
    for item in said:
        if has_words(item[0]) and has_words(item[1]):
            if waiting and waiting[0][3] == item[3]:
                item = (item[0], " ".join([w[1] for w in waiting] + [item[1]])) + item[2:]
            out.append(item)
            waiting = []
        elif out and out[-1][3] == item[3]:
            last = out[-1]
            out[-1] = (last[0], f"{last[1]} {item[1]}", last[2], last[3], item[4], last[5])
        else:
            waiting.append(item)
    return out


def checked_read(read) -> Tuple[str, ...]:
    """`read` (what is read beside a document's text: some of `PARTS`) as a tuple, or InputError."""
    parts = (read,) if isinstance(read, str) else tuple(read)
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise InputError(f"{{read}} {unknown[0]!r} is not a part of a document; choose among {', '.join(PARTS)}",
                         field="read")
    return parts


def read_document(text: str, *, markdown: bool = False, html: bool = False, script: bool = False,
                  heading_pattern: Optional[str] = None, skip_chapters: Optional[str] = None,
                  spoken: Callable[[str, str], str] = lambda sentence, paragraph: sentence, read=READ) -> Document:
    """The segments and chapters of a whole text: plain, Markdown, HTML or a dialogue script; `read`: what is read
    beside its text (`PARTS`: a numbered list's item numbers, notes, navigation)."""
    text = CONTROL.sub("", text)  # as a request drops them: a file of NUL bytes is empty
    if not text.strip():
        raise InputError("{text} is empty; give some text to speak", field="text", code="empty_input")
    if script:
        return build([], spoken, script_turns(text))
    blocks = read_markdown(text, "numbers" in read, "notes" in read) if markdown else read_html(text, read) if html \
        else plain_blocks(text, heading_pattern)
    doc = build(blocks, spoken, skip_chapters=skip_chapters)
    return replace(doc, info=_told_info(text, blocks, markdown, html))


def told_language(text: str, markdown: bool = False, html: bool = False) -> str:
    """The language a document says it is in: an HTML page's `lang` (or `xml:lang`), a Markdown file's front
    matter `lang` or `language`; "" where it does not say."""
    if html:
        return page_language(text)
    if markdown:
        fields = front_matter(text)[0]
        return fields.get("lang") or fields.get("language") or ""
    return ""


def _told_info(text: str, blocks: List[Block], markdown: bool, html: bool) -> BookInfo:
    """What a Markdown or HTML text says of itself: a page's <title> and author; a Markdown file's front matter
    (title, author), else its first heading as the title."""
    if html:
        return BookInfo(*page_info(text))
    if markdown:
        fields = front_matter(text)[0]
        first = next((b.text for b in blocks if b.kind == "heading"), "")
        return BookInfo(" ".join((fields.get("title") or first).split()), " ".join(fields.get("author", "").split()))
    return BookInfo()
