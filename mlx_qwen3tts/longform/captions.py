"""Captions of a long-form output: one cue per segment, from the sample where its speech starts to
the sample where the next one's starts (its pause included), so the cues cover the whole output.
SRT and WebVTT by extension; JSON keeps the exact sample offsets. A script's cues say who speaks: WebVTT
by its voice tag (`<v Alice>`), SRT by the name before the text (`Alice: ...`), JSON in `speaker`.

With word timings (`Cue.words`, from the forced aligner): WebVTT cues carry a timestamp tag before
each later word (`<00:00:01.240>`, the karaoke form players show), JSON cues a `words` list, and SRT
(which has no such tags) gives one cue per word, from its start to the next word's, showing the text as
written (words whose starts show as one millisecond share a cue: no cue starts where it ends)."""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

from ..errors import InputError

FORMATS = (".srt", ".vtt", ".json")


@dataclass(frozen=True)
class Cue:
    text: str
    start: int  # first sample of its speech
    speech_end: int  # one past its last speech sample
    end: int  # one past its pause: where the next cue starts
    chapter: int
    line: int
    speaker: Optional[str] = None  # a script turn's name as written
    words: tuple = ()  # (text, start, end) samples of each word as the aligner splits `text`; () without timing


def caption_format(path) -> str:
    suffix = Path(str(path)).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"{{captions}} {path}: give a .srt, .vtt or .json name", field="captions")
    return suffix[1:]


def _clock(sample: int, rate: int, comma: bool) -> str:
    ms = sample * 1000 // rate  # floor: a cue never starts before its samples
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{',' if comma else '.'}{ms:03d}"


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render(cues: List[Cue], rate: int, fmt: str) -> str:
    if fmt == "json":
        return json.dumps({"sample_rate": rate, "cues": [_json_cue(c) for c in cues]}, ensure_ascii=False, indent=1)
    if fmt == "srt" and any(c.words for c in cues):
        cues = [w for c in cues for w in _word_cues(c, rate)]
    lines = ["WEBVTT", ""] if fmt == "vtt" else []
    for number, cue in enumerate(cues, start=1):
        if fmt == "srt":
            lines.append(str(number))
        text = cue.text.replace("-->", "->")  # the one sequence either format cannot carry in a cue
        if fmt == "vtt":  # cue text is markup there: its own <, > and & are escaped
            text = _karaoke(cue, rate) if cue.words else _escaped(text)
            text = text if cue.speaker is None else f"<v {_escaped(cue.speaker)}>{text}"
        elif cue.speaker is not None:
            text = f"{cue.speaker}: {text}"
        lines += [f"{_clock(cue.start, rate, fmt == 'srt')} --> {_clock(cue.end, rate, fmt == 'srt')}", text, ""]
    return "\n".join(lines)


def _json_cue(cue: Cue) -> dict:
    fields = {k: v for k, v in cue.__dict__.items() if k != "words"}
    if cue.words:
        fields["words"] = [{"text": t, "start": s, "end": e} for t, s, e in cue.words]
    return fields


def _word_cues(cue: Cue, rate: int) -> List[Cue]:
    """An SRT cue per word, from its start to the next word's start (the last to the cue's end), showing the
    cue's text as written from that word to the next. Words whose starts show as the same millisecond share a
    cue, and so does a word that starts at the cue's end with the word before it: a cue never starts where it
    ends (an empty cue is no cue to a player)."""
    places = _word_places(cue.text, [t for t, _, _ in cue.words])
    end_ms = cue.end * 1000 // rate
    groups = []  # [first word's index, start sample, start ms]
    for i, (_, start, _) in enumerate(cue.words):
        ms = start * 1000 // rate
        if groups and (ms <= groups[-1][2] or ms >= end_ms):
            continue
        groups.append([i, start, ms] if ms < end_ms else [i, cue.start, cue.start * 1000 // rate])
    if not groups:
        return [cue]
    firsts = [i for i, _, _ in groups] + [len(cue.words)]
    if places:  # the text as written: from a group's first word to the next group's (the first from the start)
        cuts = [0] + [places[i] for i in firsts[1:-1]] + [len(cue.text)]
        texts = [cue.text[a:b].strip() for a, b in zip(cuts, cuts[1:])]
    else:
        texts = [" ".join(t for t, _, _ in cue.words[a:b]) for a, b in zip(firsts, firsts[1:])]
    ends = [start for _, start, _ in groups[1:]] + [cue.end]
    return [Cue(text, start, end, end, cue.chapter, cue.line, cue.speaker)
            for text, (_, start, _), end in zip(texts, groups, ends)]


def word_spans(text: str, words) -> list:
    """(first, past-last) character of each word in `text` (the aligner's words are `text`'s letters, digits
    and apostrophes, in order), or [] where they cannot be found."""
    from ..aligner.words import kept

    spans, i, k = [], 0, 0
    for pos, ch in enumerate(text):
        if i == len(words) or not kept(ch):
            continue
        if ch != words[i][k]:
            return []
        if k == 0:
            spans.append([pos, pos])
        k += 1
        if k == len(words[i]):
            spans[-1][1], i, k = pos + 1, i + 1, 0
    return [tuple(s) for s in spans] if i == len(words) and words else []


def _word_places(text: str, words) -> list:
    """Where each word begins in `text`, or [] where they cannot be found (`word_spans`)."""
    return [first for first, _ in word_spans(text, words)]


def _karaoke(cue: Cue, rate: int) -> str:
    """The cue's text with a WebVTT timestamp before each word that starts strictly after the cue's start
    and the previous tag, and before its end (the spec's rule for cue-internal timestamps)."""
    text = cue.text
    places = _word_places(text, [t for t, _, _ in cue.words])
    if not places:
        return _escaped(text.replace("-->", "->"))
    out, last, previous, end = [], 0, cue.start * 1000 // rate, cue.end * 1000 // rate
    for place, (_, start, _) in zip(places, cue.words):
        ms = start * 1000 // rate  # as the tag shows it
        if previous < ms < end:
            out += [_escaped(text[last:place].replace("-->", "->")), f"<{_clock(start, rate, False)}>"]
            last, previous = place, ms
    return "".join(out) + _escaped(text[last:].replace("-->", "->"))
