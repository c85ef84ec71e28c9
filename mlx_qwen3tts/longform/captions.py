"""Captions of a long-form output: one cue per segment, from the sample where its speech starts to
the sample where the next one's starts (its pause included), so the cues cover the whole output.
SRT and WebVTT by extension; JSON keeps the exact sample offsets. A script's cues say who speaks: WebVTT
by its voice tag (`<v Alice>`), SRT by the name before the text (`Alice: ...`), JSON in `speaker`."""

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
        return json.dumps({"sample_rate": rate, "cues": [c.__dict__ for c in cues]}, ensure_ascii=False, indent=1)
    lines = ["WEBVTT", ""] if fmt == "vtt" else []
    for number, cue in enumerate(cues, start=1):
        if fmt == "srt":
            lines.append(str(number))
        text = cue.text.replace("-->", "->")  # the one sequence either format cannot carry in a cue
        if fmt == "vtt":  # cue text is markup there: its own <, > and & are escaped
            text = _escaped(text) if cue.speaker is None else f"<v {_escaped(cue.speaker)}>{_escaped(text)}"
        elif cue.speaker is not None:
            text = f"{cue.speaker}: {text}"
        lines += [f"{_clock(cue.start, rate, fmt == 'srt')} --> {_clock(cue.end, rate, fmt == 'srt')}", text, ""]
    return "\n".join(lines)
