"""Long-form speech: books, articles and dialogue scripts of any length.

`document(text, ...)` cuts a text (plain, Markdown, HTML or a script) into segments and chapters, with
the lexicon and normalization applied, and `book(path, ...)` an EPUB, with its title, author, language
and cover; `narrate(tts, document, ...)` yields each finished segment
(`Spoken`: audio, segment with its text, chapter and line, start sample) in order, for applications
that build their own output; `write(tts, document, output, ...)` speaks it into a file with captions, and
a run stopped in any way continues with `resume=True` (the command line's `--text-file` runs the same job).
"""

import re
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional

import numpy as np

from .. import outputs
from ..errors import InputError
from ..text.epub import BookInfo, read_epub
from ..text.lexicon import Lexicon, read_lexicon
from .narrate import Spoken, narrate, segment_seed
from ..text.normalize import normalize as normalize_text
from ..text.reading import SURE, named_language, written_in
from ..text.reading import spoken as reading_spoken
from .segments import READ, Document, Segment, build, checked_read, read_document, told_language
from .captions import caption_format
from .job import Targets, run as run_job
from .progress import Progress
from .read_along import read_along_language, read_along_target
from .resume import fingerprint
from .word_timing import WordTimer
from .writer import output_format

SAMPLE_CHARS = 20_000  # of a text, to tell the language of the whole (where its paragraphs' cannot be told)

if TYPE_CHECKING:
    from ..tts import TTS

__all__ = ["BookInfo", "Document", "Lexicon", "Segment", "Spoken", "WriteOptions", "book", "document", "narrate",
           "normalize_text", "read_lexicon", "segment_seed", "write"]


def _spoken(lexicon: Optional[Lexicon], normalize: bool, language: str, document: str = "", sample: str = ""):
    """What a sentence of a paragraph says: the lexicon's respellings, then with `normalize` its numbers and
    symbols as words (`text.reading.spoken`) in the language that reads it (`language`; with auto the sentence's
    own where it is sure, else the `document`'s own, else the paragraph's as detected, else the language of the
    whole text, detected on `sample`, else English)."""
    asked = named_language(language) or named_language(document)
    whole = []

    @lru_cache(maxsize=256)
    def told(paragraph: str) -> str:
        if not whole:
            whole.append(written_in(sample) or "en")
        return written_in(paragraph) or whole[0]

    def spoken(shown: str, paragraph: str) -> str:
        said = lexicon.apply(shown) if lexicon is not None else shown
        if not normalize:
            return said
        # a sentence in another language than its paragraph's is read in its own where that is sure
        return reading_spoken(said, asked or written_in(shown, SURE) or told(paragraph))

    return spoken


def _languages(doc: Document) -> Document:
    """`doc` with each chapter's language as detected in its text where the document does not say its own (its
    read-along book's pages are marked so)."""
    if doc.info.language:
        return doc
    texts = [[] for _ in doc.chapters]
    for segment in doc.segments:
        texts[segment.chapter].append(segment.shown)
    return replace(doc, languages=tuple(written_in(" ".join(t)[:SAMPLE_CHARS]) or "" for t in texts))


def _titled(doc: Document, title: Optional[str], author: Optional[str]) -> Document:
    """`doc` with the title and author given (None: as the text says)."""
    given = {k: " ".join(v.split()) for k, v in (("title", title), ("author", author)) if v is not None}
    return replace(doc, info=replace(doc.info, **given)) if given else doc


def document(text: str, *, markdown: bool = False, html: bool = False, script: bool = False,
             heading_pattern: Optional[str] = None, skip_chapters: Optional[str] = None,
             lexicon: Optional[Lexicon] = None, normalize: bool = True, language: str = "auto",
             title: Optional[str] = None, author: Optional[str] = None, read=READ) -> Document:
    """The segments and chapters of `text`; what each segment says has the `lexicon`'s respellings and,
    with `normalize`, numbers and symbols as words in `language` (captions keep the text as written); with
    `language` auto, in the document's own (an HTML page's `lang`, a Markdown file's front matter `lang` or
    `language`), else each paragraph's as detected (docs/longform.md#languages).
    `skip_chapters`: a regular expression; chapters whose whole title it matches (any case) are left out.
    `Document.info` has the title and author an .m4b/.m4a is tagged with: `title`, `author` where given, else
    what the text says (an HTML page's <title> and <meta name="author">; Markdown's front matter, else its
    first heading). `read`: what is read beside the text (any of "numbers", a numbered list's item numbers, read
    unless left out; "notes", footnotes and endnotes; "navigation", a page's navigation and tables of contents)."""
    read = checked_read(read)
    own = "" if script else told_language(text, markdown=markdown, html=html)
    sample = re.sub(r"<[^>]*>", " ", text[:SAMPLE_CHARS]) if html else text[:SAMPLE_CHARS]
    doc = read_document(text, markdown=markdown, html=html, script=script, heading_pattern=heading_pattern,
                        skip_chapters=skip_chapters, spoken=_spoken(lexicon, normalize, language, own, sample),
                        read=read)
    return _titled(_languages(replace(doc, info=replace(doc.info, language=own))), title, author)


def book(path, *, skip_chapters: Optional[str] = None, lexicon: Optional[Lexicon] = None, normalize: bool = True,
         language: str = "auto", title: Optional[str] = None, author: Optional[str] = None, read=READ) -> Document:
    """The segments and chapters of the EPUB at `path` (in its spine's order, chapters from its table of
    contents), with its title, author, language and cover in `Document.info` (`title`, `author`: given in
    place of the book's); as `document` otherwise (with `language` auto, numbers are read in the book's language,
    its `dc:language`, else each paragraph's as detected; `read`: "notes", "navigation" as there). Needs the `epub`
    extra."""
    opened = read_epub(path, checked_read(read))
    sample = " ".join(block.text for block in opened.blocks[:200])[:SAMPLE_CHARS]
    doc = build(opened.blocks, _spoken(lexicon, normalize, language, opened.info.language, sample),
                heading_chapters=not opened.navigated,
                skip_chapters=skip_chapters)
    return _titled(_languages(replace(doc, info=opened.info)), title, author)


@dataclass(frozen=True)
class WriteOptions:
    """What `write` makes beside the audio, and how (each also a keyword of `write`)."""

    captions: object = None  # a .srt, .vtt or .json path, or a list of them: each written
    read_along: object = None  # an .epub path: the read-along book (EPUB 3 with the narration and Media Overlays)
    aligner: object = None  # `mlx_qwen3tts.aligner.load()`: every word of the captions and the book timed
    resume: bool = False  # continue a run stopped in any way (its work folder beside `output`)
    overwrite: bool = False  # replace existing files (else InputError)
    seed: Optional[int] = None
    voices: Optional[Dict[Optional[str], object]] = None  # a script's cast (`narrate`)
    batch_size: int = 8
    quiet: bool = True  # False: progress on stderr
    check: object = None  # True or a `hearing.Check`: each segment heard back as it is made
    check_report: object = None  # the check's report (.json path)


def write(tts: "TTS", document: Document, output, options: Optional[WriteOptions] = None,
          **kwargs) -> List[Path]:
    """Speak `document` into the file `output` (its extension names the format: .m4b/.m4a with chapter markers
    and a book's tags and cover, or any format `Result.save` writes) and, if given, its `captions` (a .srt, .vtt
    or .json path, or a list of them: each written) and its `read_along` book (an EPUB 3 with the narration and
    Media Overlays: readers that play them highlight the sentence spoken); returns the files written. `options`:
    a `WriteOptions`, or its fields as keywords; the other keywords are the request's (as `narrate` takes them).
    `aligner` (`mlx_qwen3tts.aligner.load()`) times every word of both (the captions' word timings; the book
    highlights each word). Each finished segment is kept in a hidden work folder beside `output` until the end,
    so a run stopped in any way continues with `resume=True` (refused unless the document, model, voices and
    settings are the same; the first run's seed is kept). An existing file is kept (InputError) unless
    `overwrite`. `voices`, `batch_size`, `seed` as `narrate`; `quiet=False`: progress on stderr. `check` (True
    or a `hearing.Check`; the model needs a recognizer, `TTS.asr`): each segment is heard back as it is made,
    made again where heard wrong (`narrate`), and the report written to `check_report` (a .json path; checks
    kept across a resume)."""
    named = {f.name for f in fields(WriteOptions)}
    o = replace(options or WriteOptions(), **{k: kwargs.pop(k) for k in list(kwargs) if k in named})
    request_kwargs = kwargs
    if o.batch_size < 1:
        raise InputError(f"{{batch_size}} must be at least 1, got {o.batch_size}", field="batch_size")
    check = _check(tts, o.check, o.check_report)
    targets = _targets(output, o, check is not None, read_along_language(request_kwargs.get("language")))
    voices = o.voices or {}
    for voice in list(voices.values()) or [None]:  # a bad argument is refused before the work folder is made
        tts.request(document.segments[0].text if document.segments else "-", voice=voice, seed=o.seed,
                    **request_kwargs)
    key = fingerprint([(s.text, s.pause_s, s.speaker) for s in document.segments], document.chapters, str(tts.path),
                      tts.generation_config, sorted(request_kwargs.items(), key=lambda kv: kv[0]),
                      sorted((str(name), _identity(voice)) for name, voice in voices.items()))
    words = WordTimer(o.aligner, f"python:{type(o.aligner).__name__}", request_kwargs.get("language") or "auto") \
        if o.aligner is not None else None
    run_job(tts, document, targets, key=key, resume=o.resume, seed=o.seed, voices=voices, batch_size=o.batch_size,
            progress=Progress(document, tts.sample_rate, o.batch_size, o.quiet), words=words, check=check,
            **request_kwargs)
    return [target.path for target in _written(targets)]


def _targets(output, o: WriteOptions, checked: bool, language: str) -> Targets:
    """Every file `write` makes, each refused now where it cannot be made (or is there, without `overwrite`)."""
    captions = [] if o.captions is None else [o.captions] if isinstance(o.captions, (str, Path)) else list(o.captions)
    for given in captions:
        caption_format(given)
    targets = Targets([outputs.new_file(output, "output", o.overwrite)], output_format(output),
                      [outputs.new_file(given, "captions", o.overwrite) for given in captions],
                      read_along=read_along_target(o.read_along, o.overwrite) if o.read_along is not None else None,
                      language=language,
                      check=outputs.new_file(o.check_report, "check report", o.overwrite) if checked else None)
    outputs.check_distinct(_written(targets), [])
    return targets


def _written(targets: Targets) -> list:
    return targets.audio + targets.captions + [t for t in (targets.read_along, targets.check) if t is not None]


def _check(tts: "TTS", check, report):
    """`write`'s `check` as a `hearing.Check` with its recognizer (None: no check)."""
    if check is None or check is False:
        if report is not None:
            raise InputError("{check_report} is the report of {check}; give check=True", field="check_report",
                             others=("check",))
        return None
    checking = tts.checking(check)
    if report is None:
        raise InputError("{check} writes its report to {check_report}: give a .json path", field="check_report",
                         others=("check",))
    return checking


def _identity(voice) -> object:
    """What tells a voice apart in a resume key: a preset's name, a clone's arrays."""
    arrays = [getattr(voice, name, None) for name in ("xvector", "ref_codes")]
    return (getattr(voice, "speaker", voice), [np.asarray(a).tobytes() for a in arrays if a is not None])
