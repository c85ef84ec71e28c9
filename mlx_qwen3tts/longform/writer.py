"""Writing long-form audio: any format `audio.formats` writes, and MPEG-4 audio (.m4b/.m4a: AAC in
an MP4 container, through PyAV) with chapter markers that audiobook players and ffprobe read.
Samples go to the file as they are given, so memory does not grow with the length of the audio."""

from fractions import Fraction
from pathlib import Path
from typing import List, Tuple

import numpy as np

from ..audio import aac
from ..audio.formats import format_for_path, open_file
from ..errors import InputError

MP4_EXTENSIONS = (".m4b", ".m4a")


def output_format(path, fmt=None) -> str:
    """The format name for a long-form output: 'mp4' for .m4b/.m4a, else as `format_for_path` says."""
    if Path(str(path)).suffix.lower() in MP4_EXTENSIONS and fmt in (None, "aac"):
        if not aac.available():
            raise InputError(aac.INSTALL_HINT.replace("AAC output", ".m4b/.m4a output"))
        return "mp4"
    return format_for_path(path, fmt).name


class Mp4Writer:
    """AAC in MP4, written as samples come; `close(chapters)` writes the chapter list, then the index."""

    def __init__(self, path, sample_rate: int):
        import av

        self._av, self._rate, self._pts = av, sample_rate, 0
        self._container = av.open(str(path), "w", format="mp4")
        self._stream = self._container.add_stream("aac", rate=sample_rate, layout="mono", bit_rate=aac.BIT_RATE)

    def _mux(self, frame):
        for packet in self._stream.encode(frame):
            self._container.mux(packet)

    def write(self, samples: np.ndarray):
        if samples.shape[0]:
            frame = self._av.AudioFrame.from_ndarray(np.ascontiguousarray(samples, np.float32)[None, :],
                                                     format="flt", layout="mono")
            frame.sample_rate, frame.pts = self._rate, self._pts
            self._pts += samples.shape[0]
            self._mux(frame)

    def close(self, chapters: List[Tuple[str, int, int]] = ()):
        try:
            self._mux(None)
            if chapters:
                self._container.set_chapters([
                    {"id": i + 1, "start": start, "end": end, "time_base": Fraction(1, self._rate),
                     "metadata": {"title": title}} for i, (title, start, end) in enumerate(chapters)])
        finally:
            self._container.close()


class FileWriter:
    """A writer of any other format, with the same `close(chapters)` (chapters have nowhere to go)."""

    def __init__(self, path, fmt: str, sample_rate: int):
        self._file = open_file(path, fmt, sample_rate)
        self.write = self._file.write

    def close(self, chapters=()):
        self._file.close()


def open_writer(path, fmt: str, sample_rate: int):
    return Mp4Writer(path, sample_rate) if fmt == "mp4" else FileWriter(path, fmt, sample_rate)
