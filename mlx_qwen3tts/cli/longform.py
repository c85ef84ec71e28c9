"""`--text-file`: the command line's long-form mode, mapped onto `mlx_qwen3tts.longform`.

Everything is checked before the model loads (the text read and cut, the lexicon, the cast's
names, every output); then the voices, then the work (see `longform.job`).
"""

import re
import sys
from pathlib import Path

from .. import outputs
from ..audio.formats import STREAMABLE, get_format, not_streamable
from ..errors import InputError
from ..longform import book, document, read_lexicon
from ..longform.captions import caption_format
from ..longform.job import Targets, run as run_job
from ..longform.progress import Progress
from ..longform.resume import fingerprint
from ..longform.segments import UNTITLED
from ..longform.writer import output_format
from ..text.epub import EXTENSIONS as EPUB

# Options that only mean something with --text-file, as (Options field, flag).
ONLY_WITH_TEXT_FILE = (("captions", "--captions"), ("caption_words", "--caption-words"),
                       ("aligner_bits", "--aligner-bits"), ("resume", "--resume"),
                       ("split_chapters", "--split-chapters"), ("script", "--script"), ("cast", "--cast"),
                       ("heading_pattern", "--heading-pattern"), ("skip_chapters", "--skip-chapters"))
NAMES = {"text": "--text-file", "lexicon": "--lexicon", "heading_pattern": "--heading-pattern", "script": "--script",
         "captions": "--captions", "resume": "--resume", "skip_chapters": "--skip-chapters"}
MARKDOWN = (".md", ".markdown")
HTML = (".html", ".htm", ".xhtml")


def check_long_form_options(opts):
    """Long-form options without --text-file, and --text-file with what it cannot do, are refused."""
    if opts.text_file is None:
        for field, flag in ONLY_WITH_TEXT_FILE:
            if getattr(opts, field):
                raise InputError(f"{flag} applies to --text-file; give --text-file PATH")
        return
    others = [flag for flag, given in (("--text", opts.text is not None), ("--text-stream", opts.text_stream),
                                       ("--batch-file", opts.batch_file is not None), ("--stream", opts.stream),
                                       ("--play", opts.play), ("--codes-output", opts.codes_output is not None),
                                       ("--save-voice", opts.save_voice is not None),
                                       ("--speed", opts.speed != 1.0)) if given]
    if others:
        raise InputError(f"--text-file cannot be combined with {others[0]}")
    if opts.output is None:
        raise InputError("--text-file needs --output (a file, e.g. book.m4b, or '-' for stdout)")
    if opts.cast and not opts.script:
        raise InputError("--cast applies to --script (lines 'Name: text'); add --script")
    if opts.caption_words and opts.captions is None:
        raise InputError("--caption-words times the words of --captions; give --captions FILE (.vtt, .srt or .json)")
    if opts.aligner_bits is not None and not opts.caption_words:
        raise InputError("--aligner-bits applies to --caption-words; add --caption-words")


def _read_text(path: str) -> str:
    from .text_input import decode_utf8

    if path == "-":
        return decode_utf8(sys.stdin.buffer.read(), "--text-file - (stdin)")
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise InputError(f"cannot read --text-file {path}: {e.strerror}") from None
    return decode_utf8(data, f"--text-file {path}")


def _cast(entries) -> dict:
    """--cast NAME=VOICE entries as {lower-cased name: VOICE}."""
    cast = {}
    for entry in entries:
        name, sep, voice = entry.partition("=")
        if not sep or not name.strip() or not voice.strip():
            raise InputError(f"--cast {entry!r}: write NAME=VOICE (a preset speaker or a saved voice file)")
        cast[name.strip().lower()] = voice.strip()
    return cast


def _check_cast(doc, cast: dict):
    if not cast or "default" in cast:
        return
    for segment in doc.segments:
        if segment.speaker.lower() not in cast:
            raise InputError(f"--script line {segment.line}: {segment.speaker!r} is not in --cast; add "
                             f"--cast '{segment.speaker}=VOICE' or --cast default=VOICE")


def _title(title: str) -> str:
    words = re.sub(r"[^\w]+", "_", title, flags=re.UNICODE).strip("_")
    return words[:40].rstrip("_") or UNTITLED


def _split_names(given: str, chapters) -> list:
    """book.mp3 -> book_01_The_Start.mp3, ... (numbered in order, sorting right)."""
    path, width = Path(given), max(len(str(len(chapters))), 2)
    return [str(path.with_name(f"{path.stem}_{i:0{width}d}_{_title(t)}{path.suffix}"))
            for i, t in enumerate(chapters, start=1)]


def _targets(opts, doc) -> Targets:
    fmt = output_format(opts.output, opts.audio_format)
    if opts.captions is not None:
        caption_format(opts.captions)
    to_file = opts.output not in outputs.STDOUT_NAMES
    if opts.split_chapters and not to_file:
        raise InputError("--split-chapters writes one file per chapter; give --output a file name")
    names = _split_names(opts.output, doc.chapters) if opts.split_chapters else [opts.output]
    audio = [outputs.resolve(n, "--output") for n in names]
    captions = []
    if opts.captions is not None:
        captions = [outputs.resolve(n, "--captions") for n in
                    (_split_names(opts.captions, doc.chapters) if opts.split_chapters else [opts.captions])]
    if not audio[0].seekable and fmt not in STREAMABLE:
        raise InputError(not_streamable(get_format(fmt)), field="format")
    if not audio[0].seekable and opts.resume:
        raise InputError("--resume needs --output to be a file (the finished segments are kept beside it)")
    outputs.check_distinct(audio + captions, outputs.input_files("--text-file", opts.text_file)
                           + outputs.input_files("--lexicon", opts.lexicon)
                           + outputs.input_files("--voice", opts.voice)
                           + outputs.input_files("model", Path(opts.model).expanduser()))
    return Targets(audio, fmt, captions, opts.split_chapters)


def _file_bytes(path) -> bytes:
    try:
        return Path(path).read_bytes() if path and Path(path).is_file() else b""
    except OSError:
        return b""


def _voices(tts, cast: dict, narrator) -> dict:
    """Script names (lower-cased) -> Voice; None -> the narrator's."""
    voices = {None: narrator}
    for name, given in cast.items():
        try:
            if given.endswith(".safetensors") or "/" in given or Path(given).is_file():
                voice = tts.load_voice(Path(given).expanduser())
            else:
                voice = tts.request("x", speaker=given).voice
        except InputError as e:
            raise InputError(f"--cast {name}={given}: {e.worded({'speaker': 'the voice', 'voice': 'the voice'})}")\
                from None
        voices[name] = voice
    return voices


class _CastVoices(dict):
    """Script speakers as written map to their cast voice by lower-cased name ('default' for the rest)."""

    def get(self, key, default=None):
        if key is None:
            return super().get(None, default)
        return super().get(key.lower(), super().get("default", default))


def _prepare(opts):
    """The document, the cast and the outputs: all that needs no model."""
    from ..model.sampling_config import SamplingConfig
    from ..request import sampling_settings

    lexicon = read_lexicon(opts.lexicon) if opts.lexicon else None
    suffix = "" if opts.text_file == "-" else Path(opts.text_file).suffix.lower()
    if suffix in EPUB:
        if opts.script:
            raise InputError("--script reads 'Name: text' lines from a text file, not from an EPUB book")
        doc = book(opts.text_file, skip_chapters=opts.skip_chapters, lexicon=lexicon,
                   normalize=opts.normalize is not False, language=opts.language)
    else:
        doc = document(_read_text(opts.text_file), markdown=suffix in MARKDOWN, html=suffix in HTML, script=opts.script,
                       heading_pattern=opts.heading_pattern, skip_chapters=opts.skip_chapters, lexicon=lexicon,
                       normalize=opts.normalize is not False, language=opts.language)
    cast = _cast(opts.cast)
    _check_cast(doc, cast)
    if opts.caption_words:
        from ..aligner.words import split_words

        split_words("", opts.language or "auto")  # Korean, or Japanese without nagisa: refused before any work
    sampling_settings(SamplingConfig(), **opts.sampling)
    if opts.batch_size < 1:
        raise InputError("--batch-size must be at least 1")
    return doc, cast, _targets(opts, doc)


def _run_key(opts, tts, doc, cast, settings: dict) -> str:
    """What a resumed run must share with the stopped one: what is said, by which model, voices and settings."""
    return fingerprint([(s.text, s.pause_s, s.speaker) for s in doc.segments], doc.chapters, str(tts.path),
                       _file_bytes(tts.path / "config.json"), tts.generation_config, settings, opts.seed, opts.speaker,
                       _file_bytes(opts.voice), _file_bytes(opts.ref_audio), opts.ref_text, opts.x_vector_only,
                       sorted((n, v, _file_bytes(v)) for n, v in cast.items()), opts.dtype)


def run_text_file(opts, load_model, narrator_voice):
    """The long-form run of `opts` (checked by `check_long_form_options`); `load_model()` -> TTS and
    `narrator_voice(tts)` -> Voice are the command's own (so the voice options mean what they always do)."""
    from ..cli.console import cli_errors
    from .flags import FLAGS

    names = {**FLAGS, **NAMES}
    with cli_errors(names):
        doc, cast, targets = _prepare(opts)
    tts = load_model()
    voices = _CastVoices(_voices(tts, cast, narrator_voice(tts)))
    settings = dict(language=opts.language, instruct=opts.instruct, text_mode=opts.text_mode,
                    max_tokens=opts.max_tokens, **opts.sampling)
    for notice in tts.request(doc.segments[0].text, voice=voices.get(None), seed=opts.seed, **settings).notices:
        print(f"warning: {notice}", file=sys.stderr)
    words = None
    if opts.caption_words:
        from ..aligner import load as load_aligner
        from ..longform.word_timing import WordTimer

        with cli_errors({**names, "language": "--language"}):
            bits = int(opts.aligner_bits) if opts.aligner_bits else None
            words = WordTimer(load_aligner(opts.aligner, bits=bits), f"{opts.aligner}:{bits or 'stored'}",
                              opts.language or "auto")
    progress = Progress(doc, tts.sample_rate, opts.batch_size, opts.quiet, names=names)
    with cli_errors(names):
        run_job(tts, doc, targets, key=_run_key(opts, tts, doc, cast, settings), resume=opts.resume, seed=opts.seed,
                progress=progress, voices=voices, batch_size=opts.batch_size, words=words, **settings)
