"""Progress of long work on stderr: segments, characters, minutes of audio and the time left. On a
terminal one line is redrawn; elsewhere (a log, a pipe) each finished segment gets its own line.

Every mode of the command line follows that rule through `StatusLine`.

The time left is the work still to do at the speed measured in this run. Segments are spoken a batch
at a time and a batch's segments all finish together, so the speed is measured when a batch's first
segment arrives, counting the whole batch: counting that one segment alone made the first estimate
several times too long. A batch runs until its longest segment has ended, so a batch's work is the
length of its longest segment, not the sum of its segments: a first batch of even sentences, before
batches of one long sentence among short ones (headings, dialogue), made the first estimate about
half the time the run took."""

import sys
import time

from ..errors import worded

BAR = 24  # characters of the terminal's progress bar


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class StatusLine:
    """Progress records on a stream: on a terminal each record replaces the last on one redrawn line;
    elsewhere (a log file, a pipe) each is a line of its own, with no carriage returns."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.open = False  # a redrawn record is on the terminal's line, not ended yet

    def update(self, text: str):
        """A record that the next one replaces."""
        self._write(text, end="" if self.tty else "\n")
        self.open = self.tty

    def line(self, text: str):
        """A line that stays (after a redrawn record: in its place)."""
        self._write(text, end="\n")
        self.open = False

    def end(self):
        """The redrawn record stays as the last line."""
        if self.open:
            self._write("", end="\n", clear=False)
            self.open = False

    def _write(self, text: str, end: str, clear: bool = True):
        self.stream.write(("\r\x1b[2K" if self.tty and clear else "") + text + end)
        self.stream.flush()


class Progress:
    """`names`: the front end's name for each field a warning names as `{field}` (`resume` -> `--resume`)."""

    def __init__(self, document, sample_rate: int, batch_size: int = 1, quiet: bool = False, stream=None,
                 clock=time.perf_counter, names=None):
        self.status, self.names = StatusLine(stream), names or {}
        self.tty = self.status.tty
        self.sizes = [len(s.text) for s in document.segments]
        self.total, self.total_chars, self.rate, self.quiet = len(self.sizes), sum(self.sizes), sample_rate, quiet
        self.batch, self.clock = max(batch_size, 1), clock
        self.resumed(0)

    def resumed(self, segments: int):
        """Segments finished by an earlier run: counted as done, not in the speed; this run starts now."""
        self.first, self.done, self.chars = segments, segments, sum(self.sizes[:segments])
        todo = self.sizes[segments:]
        self.work = [max(todo[i:i + self.batch]) for i in range(0, len(todo), self.batch)]  # per batch of this run
        self.measured_work, self.measured_s, self.measured_at = 0, 0.0, None  # finished batches of this run
        self.started = self.clock()
        if segments and not self.quiet:
            self._line(f"resuming after segment {segments} of {self.total}", end="\n")

    def _measure(self, index: int, now: float):
        """Segment `index` arrived: when it is a batch's first, that whole batch is done."""
        batch, place = divmod(index - self.first, self.batch)
        if place == 0 and batch < len(self.work):
            self.measured_work += self.work[batch]
            self.measured_s, self.measured_at = now - self.started, now

    def left(self, now: float) -> float:
        """Seconds until the end, at the speed of this run's finished batches."""
        if self.measured_at is None:
            return 0.0
        todo = sum(self.work) - self.measured_work
        return max(todo * self.measured_s / max(self.measured_work, 1) - (now - self.measured_at), 0.0)

    def segment(self, spoken, end_sample: int):
        now = self.clock()
        self._measure(spoken.segment.index, now)
        self.done += 1
        self.chars += len(spoken.segment.text)
        if self.quiet:
            return
        line = (f"segment {self.done}/{self.total}  chars {self.chars}/{self.total_chars}  "
                f"audio {end_sample / self.rate / 60:.2f} min  ETA {_clock(self.left(now))}")
        if self.tty:  # a bar, redrawn in place
            filled = BAR * self.chars // max(self.total_chars, 1)
            self._line(f"[{'#' * filled}{'.' * (BAR - filled)}] {line}", end="")
        else:
            self._line(f"{line}  (line {spoken.segment.line})", end="\n")

    def warn(self, message: str, *fields: str):
        self._line(f"warning: {worded(message, fields, self.names)}", end="\n")

    def note(self, message: str):
        """A line that is said even when quiet (what --check found)."""
        self._line(message, end="\n")

    def finish(self, message: str):
        if not self.quiet:
            self._line(message, end="\n")

    def _line(self, text: str, end: str):
        if end:
            self.status.line(text)
        else:
            self.status.update(text)
