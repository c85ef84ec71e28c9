"""What the command shows while it speaks (unless --quiet): frames made against the budget as they come
(`FrameProgress`), and a batch's lines as each finishes (`line_done`). Both follow `StatusLine`'s rule:
a terminal's line is redrawn, a log gets lines of its own."""

import time

import click

from ..codec import FRAMES_PER_SECOND
from ..longform.progress import StatusLine


class FrameProgress:
    """`frames budget audio RTF` on stderr as `StatusLine` shows records; with split text, per piece."""

    def __init__(self, quiet: bool, stream=None):
        self.quiet, self.start, self.last = quiet, time.perf_counter(), 0.0
        self.done_frames, self.piece, self.piece_frames = 0, 1, 0
        self.status = StatusLine(stream)
        self.every_s = 0.25 if self.status.tty else 2.0  # a log gets a line every 2 s, not four a second

    def __call__(self, frames: int, budget: int, piece: int = 1, pieces: int = 1):
        if piece != self.piece:  # a new piece: what the last one made counts towards the audio so far
            self.done_frames, self.piece = self.done_frames + self.piece_frames, piece
        self.piece_frames = frames
        now = time.perf_counter()
        if self.quiet or now - self.last < self.every_s:
            return
        self.last = now
        audio_s = (self.done_frames + frames) / FRAMES_PER_SECOND
        where = f"piece {piece}/{pieces}  " if pieces > 1 else ""
        self.status.update(f"{where}frames {frames}/{budget}  audio {audio_s:5.2f} s  "
                           f"RTF {(now - self.start) / max(audio_s, 1e-9):5.2f}")

    def done(self):
        self.status.end()


def line_done(texts):
    """A batch's progress: one line per text line as it finishes (the files are written at the end, together)."""
    start, finished = time.perf_counter(), []

    def done(index: int, result):
        finished.append(index)
        frames = result.codes.shape[0]
        click.echo(f"line {texts[index][0]} done ({len(finished)}/{len(texts)}): {frames} frames, "
                   f"{frames / FRAMES_PER_SECOND:.2f} s of audio after {time.perf_counter() - start:.1f} s", err=True)

    return done
