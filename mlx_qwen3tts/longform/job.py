"""A long-form run to files: segments spoken in batches, each kept in the work folder as it finishes
(so a stopped run resumes), then the output (or one file per chapter) and the captions written whole
from those files. Output to stdout or a pipe is streamed segment by segment instead (no resuming)."""

import uuid
from contextlib import ExitStack
from dataclasses import dataclass
from typing import List, Optional

import numpy as np

from ..audio.formats import StreamEncoder
from ..errors import InputError
from .. import outputs
from .captions import Cue, caption_format, render
from .narrate import narrate
from .progress import Progress
from .read_along import Edition, write_book
from .resume import WorkFolder
from .segments import UNTITLED, Document
from .word_timing import WordTimer, in_samples
from .writer import Part, open_writer


@dataclass
class Targets:
    audio: List[outputs.Output]  # the output, or one per chapter (--split-chapters)
    fmt: str  # a format name of audio.formats, or "mp4"
    captions: List[outputs.Output]  # each format's file, or (split) each format's files, one per chapter
    split: bool = False
    read_along: Optional[outputs.Output] = None  # an EPUB 3 with the narration and Media Overlays (read_along.py)
    language: str = ""  # the read-along book's language where the document does not say (BCP 47)
    check: Optional[outputs.Output] = None  # the report of the segments heard back (`hearing`; with `check`)

    @property
    def timed(self) -> bool:
        """Whether anything written shows words (captions, the read-along book)."""
        return bool(self.captions) or self.read_along is not None


def run(tts, document: Document, targets: Targets, *, key: str, progress: Progress, resume: bool = False,
        seed: Optional[int] = None, voices=None, batch_size: int = 8, words: Optional[WordTimer] = None, check=None,
        **request_kwargs):
    """Speak `document` into `targets`; `key`: the fingerprint of text, model and settings a resume must match;
    `words`: time every word of the captions (each segment aligned as it finishes); `check`: a `hearing.Check`
    with its recognizer, each segment heard as it finishes (`narrate`), the report written to `targets.check`."""
    if not targets.audio[0].seekable:
        if targets.read_along is not None:
            raise InputError("{read_along} needs an output file (the book is made from the finished segments "
                             "kept beside it)", field="read_along")
        if resume:
            raise InputError("{resume} needs an output file (the finished segments are kept beside it)",
                             field="resume")
        return _stream(tts, document, targets, progress, words, voices=voices, batch_size=batch_size, seed=seed,
                       check=check, **request_kwargs)
    first = targets.audio[0]
    work = WorkFolder.open(first.path, first.what, key, seed, resume)
    if work.dropped:
        progress.warn(f"started over: the {work.dropped} finished segments of an earlier unfinished run of {first} "
                      "were dropped ({resume} continues such a run)", "resume")
    done = work.done()
    segments = document.segments
    start = sum(work.lengths(done)) + sum(int(round(s.pause_s * tts.sample_rate)) for s in segments[:done])
    progress.resumed(done)
    try:
        for spoken in narrate(tts, document, voices=voices, batch_size=batch_size, seed=work.seed, first=done,
                              start=start, check=check, **request_kwargs):
            if spoken.check is not None:  # before the audio: a segment whose audio is kept has its check kept
                work.save_check(spoken.segment.index, spoken.check)
            work.save(spoken.segment.index, spoken.audio)
            if words is not None and targets.timed:
                work.save_words(spoken.segment.index, words.name,
                                words.times(spoken.audio, tts.sample_rate, spoken.segment))
            _report(progress, spoken)
    except KeyboardInterrupt:
        progress.warn(f"{work.done()} of {len(segments)} segments are kept; run again with {{resume}} to continue",
                      "resume")
        raise
    samples = _assemble(document, work, targets, tts.sample_rate, words, key)
    if check is not None:
        _report_checks(progress, targets, check, [_kept_check(tts, check, work, s, request_kwargs) for s in segments])
    work.remove()
    seconds = samples / tts.sample_rate
    progress.finish(f"{len(segments)} segments, {seconds / 60:.2f} min of audio -> "
                    f"{', '.join(str(o) for o in targets.audio[:3])}{' ...' if len(targets.audio) > 3 else ''}")


def _report(progress: Progress, spoken):
    where = f"segment {spoken.segment.index + 1} (line {spoken.segment.line})"
    if spoken.retried:
        progress.warn(f"{where} ran away; spoken again with another seed" +
                      (f", which ran away too ({spoken.runaway}): its speech may be cut off" if spoken.runaway else ""))
    elif spoken.runaway:
        progress.warn(f"{where} ran away ({spoken.runaway}; runaway guard) and was ended there: its speech may be "
                      "cut off")
    elif not spoken.stopped_on_eos:
        progress.warn(f"{where} ran to its frame limit without an end-of-speech token; its speech may run on or be "
                      "cut off")
    progress.segment(spoken, spoken.start + spoken.audio.shape[0] + spoken.pause)


def _kept_check(tts, check, work: WorkFolder, segment, request_kwargs: dict):
    """A finished segment's check: the one kept with it, else (finished by a run without `check`) heard now."""
    kept = work.check(segment.index)
    if kept is not None:
        return kept
    _, heard = check.best(segment.text, work.audio(segment.index), lambda audio: audio, tts.sample_rate,
                          request_kwargs.get("language"))
    return heard


def _report_checks(progress: Progress, targets: Targets, check, checks: list):
    from ..hearing import report_bytes, summary

    targets.check.write(report_bytes(checks, check.threshold))
    progress.note(f"{summary(checks)} -> {targets.check}")


def _chapter_spans(document: Document, lengths: List[int], rate: int) -> List[tuple]:
    """(title, start, end) per chapter, in output samples."""
    spans, position = [], 0
    for segment, n in zip(document.segments, lengths):
        title = document.chapters[segment.chapter] or UNTITLED
        if not spans or spans[-1][0] != segment.chapter:
            spans.append([segment.chapter, title, position, position])
        position += n + int(round(segment.pause_s * rate))
        spans[-1][3] = position
    return [(title, start, end) for _, title, start, end in spans]


def _assemble(document: Document, work: WorkFolder, targets: Targets, rate: int,
              words: Optional[WordTimer] = None, key: str = "") -> int:
    """The output file(s), captions and read-along book from the finished segments, each renamed into place
    only when all are written; the samples written, all files together."""
    cues, writer, file, position, base = [], None, None, 0, 0
    lengths = list(work.lengths(len(document.segments)))
    with ExitStack() as stack:
        for segment, n in zip(document.segments, lengths):
            if (segment.chapter if targets.split else 0) != file:  # the next file (chapters are in order)
                if writer is not None:
                    writer.close()
                file, base = segment.chapter if targets.split else 0, position
                writer = open_writer(stack.enter_context(targets.audio[file].staged()), targets.fmt, rate,
                                     document.info, _part(document, file, len(targets.audio)) if targets.split else None)
            pause = int(round(segment.pause_s * rate))
            audio = work.audio(segment.index)
            writer.write(audio)
            writer.write(np.zeros(pause, np.float32))
            timed = ()
            if words is not None and targets.timed:
                found = work.words(segment.index, words.name)  # a segment finished by a run without word timing
                timed = in_samples(words.times(audio, rate, segment) if found is None else found,
                                   position - base, position - base + n, rate)
            cues.append(Cue(segment.shown, position - base, position - base + n, position - base + n + pause,
                            segment.chapter, segment.line, segment.speaker, timed))
            position += n + pause
        writer.close([] if targets.split else _chapter_spans(document, lengths, rate))
        _write_captions(cues, targets, rate, stack)  # renamed into place with the rest, when all are written
        if targets.read_along is not None:
            write_book(stack.enter_context(targets.read_along.staged()), document, cues, work.audio, rate,
                       Edition(f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, 'mlx-qwen3tts:' + key)}", work.started),
                       language=targets.language)
    return position


def _part(document: Document, chapter: int, files: int) -> Part:
    """A chapter's file (--split-chapters): titled by its chapter ("Opening" before the first), a numbered track
    of the book's album."""
    return Part(document.chapters[chapter] or UNTITLED, chapter + 1, files)


def _write_captions(cues: List[Cue], targets: Targets, rate: int, stack: Optional[ExitStack] = None):
    """Every captions file, all or none: on their own, or staged on `stack` with the run's other files."""
    groups = [[c for c in cues if c.chapter == i] for i in range(len(targets.audio))] if targets.split else [cues]
    items = [(out, render(group, rate, caption_format(out.given)).encode())
             for out, group in zip(targets.captions, groups * len(targets.captions))]
    if stack is None:
        outputs.write_all(items)
    else:
        outputs.stage_all(stack, items)


def _stream(tts, document: Document, targets: Targets, progress: Progress, words: Optional[WordTimer], **kwargs):
    out, cues, checks = targets.audio[0], [], []
    encoder = StreamEncoder(targets.fmt, tts.sample_rate)
    with out.open() as f:
        for spoken in narrate(tts, document, **kwargs):
            checks.append(spoken.check)
            f.write(encoder.write(np.concatenate([spoken.audio, np.zeros(spoken.pause, np.float32)])))
            f.flush()
            end = spoken.start + spoken.audio.shape[0]
            timed = ()
            if words is not None and targets.captions:
                timed = in_samples(words.times(spoken.audio, tts.sample_rate, spoken.segment), spoken.start,
                                   end, tts.sample_rate)
            cues.append(Cue(spoken.segment.shown, spoken.start, end, end + spoken.pause, spoken.segment.chapter,
                            spoken.segment.line, spoken.segment.speaker, timed))
            _report(progress, spoken)
        f.write(encoder.close())
    _write_captions(cues, targets, tts.sample_rate)
    if kwargs.get("check") is not None:
        _report_checks(progress, targets, kwargs["check"], checks)
