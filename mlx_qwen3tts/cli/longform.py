"""`--text-file`: the command line's long-form mode, mapped onto `mlx_qwen3tts.longform`.

Everything is checked before the model loads (the text read and cut, the lexicon, the cast's
names, every output); then the voices, then the work (see `longform.job`).
"""

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import outputs
from ..audio.formats import STREAMABLE, get_format, not_streamable
from ..errors import InputError
from ..longform import book, document, read_lexicon
from ..longform.captions import caption_format
from ..longform.job import Targets, run as run_job
from ..longform.progress import Progress
from ..longform.read_along import checked_target, read_along_language
from ..longform.resume import fingerprint
from ..longform.segments import UNTITLED
from ..longform.writer import output_format
from ..text.epub import EXTENSIONS as EPUB
from .options import Hearing, LongForm, Model, Outputs, Speech, Voice



# Options that only mean something with --text-file, as (LongForm field, flag).
ONLY_WITH_TEXT_FILE = (("captions", "--captions"), ("read_along", "--read-along"), ("caption_words", "--caption-words"),
                       ("aligner_bits", "--aligner-bits"), ("resume", "--resume"),
                       ("split_chapters", "--split-chapters"), ("script", "--script"), ("cast", "--cast"),
                       ("heading_pattern", "--heading-pattern"), ("skip_chapters", "--skip-chapters"),
                       ("title", "--title"), ("author", "--author"), ("read_parts", "--read"))
NAMES = {"text": "--text-file", "path": "--text-file", "lexicon": "--lexicon", "heading_pattern": "--heading-pattern",
         "script": "--script", "captions": "--captions", "resume": "--resume", "skip_chapters": "--skip-chapters",
         "read_along": "--read-along"}
MARKDOWN = (".md", ".markdown")
HTML = (".html", ".htm", ".xhtml")


def check_long_form_options(configs):
    """Long-form options without --text-file, and --text-file with what it cannot do, are refused
    (`configs`: a `cli.options.Configs`)."""
    long, speech, outs, streaming = configs.longform, configs.speech, configs.outputs, configs.streaming
    if long.text_file is None:
        for field, flag in ONLY_WITH_TEXT_FILE:
            if getattr(long, field):
                raise InputError(f"{flag} applies to --text-file; give --text-file PATH")
        return
    others = [flag for flag, given in (("--text", speech.text is not None), ("--text-stream", speech.text_stream),
                                       ("--batch-file", speech.batch_file is not None),
                                       ("--stream", streaming.stream), ("--play", streaming.play),
                                       ("--codes-output", outs.codes_output is not None),
                                       ("--save-voice", outs.save_voice is not None),
                                       ("--speed", outs.speed != 1.0)) if given]
    if others:
        raise InputError(f"--text-file cannot be combined with {others[0]}")
    if outs.output is None:
        raise InputError("--text-file needs --output (a file, e.g. book.m4b, or '-' for stdout)")
    if long.cast and not long.script:
        raise InputError("--cast applies to --script (lines 'Name: text'); add --script")
    if long.caption_words and not long.captions and long.read_along is None:
        raise InputError("--caption-words times the words of --captions or --read-along; give --captions FILE "
                         "(.vtt, .srt or .json) or --read-along BOOK.epub")
    if long.aligner_bits is not None and not long.caption_words:
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


def _targets(job, doc) -> Targets:
    long, outs = job.longform, job.outputs
    fmt = output_format(outs.output, outs.audio_format)
    for given in long.captions:
        caption_format(given)
    to_file = outs.output not in outputs.STDOUT_NAMES
    if long.split_chapters and not to_file:
        raise InputError("--split-chapters writes one file per chapter; give --output a file name")
    names = _split_names(outs.output, doc.chapters) if long.split_chapters else [outs.output]
    audio = [outputs.resolve(n, "--output") for n in names]
    captions = [outputs.resolve(n, "--captions") for given in long.captions
                for n in (_split_names(given, doc.chapters) if long.split_chapters else [given])]
    if not audio[0].seekable and fmt not in STREAMABLE:
        raise InputError(not_streamable(get_format(fmt)), field="format")
    if not audio[0].seekable and long.resume:
        raise InputError("--resume needs --output to be a file (the finished segments are kept beside it)")
    read_along = None
    if long.read_along is not None:
        read_along = checked_target(outputs.resolve(long.read_along, "--read-along"))
        if not audio[0].seekable:
            raise InputError("--read-along needs --output to be a file (the book is made from the finished "
                             "segments kept beside it)")
    check = outputs.resolve(job.hearing.check, "--check") if job.hearing.check is not None else None
    outputs.check_distinct(audio + captions + ([read_along] if read_along else []) + ([check] if check else []),
                           outputs.input_files("--text-file", long.text_file)
                           + outputs.input_files("--lexicon", job.speech.lexicon)
                           + outputs.input_files("--voice", job.voice.voice)
                           + outputs.input_files("model", Path(job.model.model).expanduser()))
    return Targets(audio, fmt, captions, long.split_chapters, read_along, read_along_language(job.speech.language),
                   check)


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


def read_text_file(long: LongForm, speech: Speech):
    """The document of --text-file, cut into segments with what each says (the lexicon, normalization)."""
    lexicon = read_lexicon(speech.lexicon) if speech.lexicon else None
    suffix = "" if long.text_file == "-" else Path(long.text_file).suffix.lower()
    if suffix in EPUB:
        if long.script:
            raise InputError("--script reads 'Name: text' lines from a text file, not from an EPUB book")
        return book(long.text_file, skip_chapters=long.skip_chapters, lexicon=lexicon,
                    normalize=speech.normalize is not False, language=speech.language, title=long.title,
                    author=long.author, read=long.read)
    return document(_read_text(long.text_file), markdown=suffix in MARKDOWN, html=suffix in HTML, script=long.script,
                    heading_pattern=long.heading_pattern, skip_chapters=long.skip_chapters, lexicon=lexicon,
                    normalize=speech.normalize is not False, language=speech.language, title=long.title,
                    author=long.author, read=long.read)


def _prepare(job):
    """The document, the cast and the outputs: all that needs no model."""
    from ..model.sampling_config import SamplingConfig
    from ..request import sampling_settings

    long, speech = job.longform, job.speech
    doc = read_text_file(long, speech)
    cast = _cast(long.cast)
    _check_cast(doc, cast)
    if long.caption_words:
        from ..aligner.words import split_words

        split_words("", speech.language or "auto")  # Korean, or Japanese without nagisa: refused before any work
    sampling_settings(SamplingConfig(), **speech.sampling)
    if long.batch_size < 1:
        raise InputError("--batch-size must be at least 1")
    return doc, cast, _targets(job, doc)


def _run_key(job, tts, doc, cast) -> str:
    """What a resumed run must share with the stopped one: what is said, by which model, voices and settings (the
    seed is the work folder's: `longform.resume.WorkFolder.open` checks a given one, as for the Python API)."""
    voice = job.voice
    return fingerprint([(s.text, s.pause_s, s.speaker) for s in doc.segments], doc.chapters, str(tts.path),
                       _file_bytes(tts.path / "config.json"), tts.generation_config, job.speech.settings,
                       voice.speaker, _file_bytes(voice.voice), _file_bytes(voice.ref_audio),
                       voice.ref_text, voice.x_vector_only, sorted((n, v, _file_bytes(v)) for n, v in cast.items()),
                       job.model.dtype)


@dataclass(frozen=True)
class LongFormRun:
    """The job of `--text-file` (checked by `check_long_form_options`); the narrator is the command's voice
    (`cli.voice`), so the voice options mean what they always do."""

    model: Model
    voice: Voice
    speech: Speech
    outputs: Outputs
    longform: LongForm
    hearing: Hearing

    def run(self):
        from .console import cli_errors
        from .flags import FLAGS
        from .voice import speaking_voice

        names = {**FLAGS, **NAMES, "text": f"--text-file {self.longform.text_file}"}  # an error names the file
        with cli_errors(names):
            doc, cast, targets = _prepare(self)
        tts = self.model.load()
        with cli_errors(names):
            self.hearing.attach(tts)
        voices = _CastVoices(_voices(tts, cast, speaking_voice(tts, self.voice, quiet=self.outputs.quiet)))
        speech, long = self.speech, self.longform
        settings = speech.settings
        for notice in tts.request(doc.segments[0].text, voice=voices.get(None), seed=speech.seed, **settings).notices:
            print(f"warning: {notice}", file=sys.stderr)
        words = None
        if long.caption_words:
            from ..aligner import load as load_aligner
            from ..longform.word_timing import WordTimer

            with cli_errors({**names, "language": "--language"}):
                bits = int(long.aligner_bits) if long.aligner_bits else None
                words = WordTimer(load_aligner(long.aligner, bits=bits), f"{long.aligner}:{bits or 'stored'}",
                                  speech.language or "auto")
        progress = Progress(doc, tts.sample_rate, long.batch_size, self.outputs.quiet, names=names)
        with cli_errors(names):
            run_job(tts, doc, targets, key=_run_key(self, tts, doc, cast), resume=long.resume, seed=speech.seed,
                    progress=progress, voices=voices, batch_size=long.batch_size, words=words,
                    check=self._check(tts), **settings)

    def _check(self, tts):
        """--check's `hearing.Check` with --asr's recognizer, or None."""
        if self.hearing.check is None:
            return None
        from dataclasses import replace

        return replace(self.hearing.settings(), recognizer=tts.asr)
