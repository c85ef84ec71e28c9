"""Progress of long work on stderr: segments, characters, minutes of audio and the time left. On a
terminal one line is redrawn; elsewhere (a log, a pipe) each finished segment gets its own line."""

import sys
import time

BAR = 24  # characters of the terminal's progress bar


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    def __init__(self, total_segments: int, total_chars: int, sample_rate: int, quiet: bool = False, stream=None):
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
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
        prefix = "\r\x1b[2K" if self.tty else ""
        self.stream.write(prefix + text + end)
        self.stream.flush()
