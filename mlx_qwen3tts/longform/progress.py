"""Progress of long work on stderr: segments, characters, minutes of audio and the time left. On a
terminal one line is redrawn; elsewhere (a log, a pipe) each finished segment gets its own line:
`StatusLine`, the rule every mode of the command line follows."""

import sys
import time

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
    def __init__(self, total_segments: int, total_chars: int, sample_rate: int, quiet: bool = False, stream=None):
        self.status = StatusLine(stream)
        self.tty = self.status.tty
        self.total, self.total_chars, self.rate, self.quiet = total_segments, total_chars, sample_rate, quiet
        self.done = self.chars = self.chars_now = 0
        self.started = time.perf_counter()

    def resumed(self, segments: int, chars: int):
        """Segments finished by an earlier run: counted as done, not in the speed."""
        self.done, self.chars = segments, chars
        if segments and not self.quiet:
            self._line(f"resuming after segment {segments} of {self.total}", end="\n")

    def segment(self, spoken, end_sample: int):
        self.done += 1
        self.chars += len(spoken.segment.text)
        self.chars_now += len(spoken.segment.text)
        if self.quiet:
            return
        spent = time.perf_counter() - self.started
        left = (self.total_chars - self.chars) * spent / max(self.chars_now, 1)
        line = (f"segment {self.done}/{self.total}  chars {self.chars}/{self.total_chars}  "
                f"audio {end_sample / self.rate / 60:.2f} min  ETA {_clock(left)}")
        if self.tty:  # a bar, redrawn in place
            filled = BAR * self.chars // max(self.total_chars, 1)
            self._line(f"[{'#' * filled}{'.' * (BAR - filled)}] {line}", end="")
        else:
            self._line(f"{line}  (line {spoken.segment.line})", end="\n")

    def warn(self, message: str):
        self._line(f"warning: {message}", end="\n")

    def finish(self, message: str):
        if not self.quiet:
            self._line(message, end="\n")

    def _line(self, text: str, end: str):
        if end:
            self.status.line(text)
        else:
            self.status.update(text)
