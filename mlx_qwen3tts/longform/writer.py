"""Writing long-form audio: any format `audio.formats` writes, and MPEG-4 audio (.m4b/.m4a: AAC in
an MP4 container, through PyAV) with chapter markers that audiobook players and ffprobe read, and a
book's title, author, language and cover (an attached picture). Samples go to the file as they are
given, so memory does not grow with the length of the audio."""

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import List, Optional, Tuple

from ..audio import aac
from ..audio.formats import format_for_path, open_file
from ..audio.mp4 import Mp4File
from ..errors import InputError
from ..text.epub import BookInfo

MP4_EXTENSIONS = (".m4b", ".m4a")
# An MP4 track's language is an ISO 639-2 code; books give ISO 639-1 ("en-GB").
ISO639_2 = {"ar": "ara", "ca": "cat", "cs": "ces", "da": "dan", "de": "deu", "el": "ell", "en": "eng", "es": "spa",
            "fi": "fin", "fr": "fra", "he": "heb", "hi": "hin", "hu": "hun", "id": "ind", "it": "ita", "ja": "jpn",
            "ko": "kor", "nb": "nob", "nl": "nld", "no": "nor", "pl": "pol", "pt": "por", "ro": "ron", "ru": "rus",
            "sv": "swe", "th": "tha", "tr": "tur", "uk": "ukr", "vi": "vie", "zh": "zho"}


@dataclass(frozen=True)
class Part:
    """One file of a book written a file per chapter: its title, and its track number of how many."""

    title: str
    number: int
    total: int


def output_format(path, fmt=None) -> str:
    """The format name for a long-form output: 'mp4' for .m4b/.m4a, else as `format_for_path` says."""
    if Path(str(path)).suffix.lower() in MP4_EXTENSIONS and fmt in (None, "aac"):
        if not aac.available():
            raise InputError(aac.INSTALL_HINT.replace("AAC output", ".m4b/.m4a output"))
        return "mp4"
    return format_for_path(path, fmt).name


def _language(code: str) -> Optional[str]:
    key = code.strip().lower().replace("_", "-").split("-")[0]
    return key if len(key) == 3 and key.isalpha() else ISO639_2.get(key)


class Mp4Writer(Mp4File):
    """AAC in MP4, written as samples come; `close(chapters)` writes the chapter list, then the index.
    A book's `info` goes in as audiobook players read it: title (also the album), author (artist and
    album artist), the audio's language, and the cover as an attached picture. A `part` of a book (a
    chapter's file) is titled by its chapter and numbered as a track of the book's album."""

    def __init__(self, path, sample_rate: int, info: Optional[BookInfo] = None, part: Optional[Part] = None):
        super().__init__(path, sample_rate)
        if info is not None:
            self._describe(info, part)

    def _describe(self, info: BookInfo, part: Optional[Part]):
        tags = {"title": part.title if part else info.title, "album": info.title, "artist": info.author,
                "album_artist": info.author, "genre": "Audiobook" if info.title else "",
                "track": f"{part.number}/{part.total}" if part else ""}
        self.container.metadata.update({k: v for k, v in tags.items() if v})
        if _language(info.language):
            self.stream.metadata["language"] = _language(info.language)
        if info.cover:
            # The picture is copied as it is (one packet); the encoder is only opened, never used.
            png = info.cover_type == "image/png"
            picture = self.container.add_stream("png" if png else "mjpeg")
            picture.width, picture.height, picture.pix_fmt = 1, 1, "rgb24" if png else "yuvj420p"
            picture.disposition = self.av.stream.Disposition.attached_pic
            packet = self.av.Packet(info.cover)
            packet.stream, packet.pts, packet.dts = picture, 0, 0
            self.container.mux(packet)

    def close(self, chapters: List[Tuple[str, int, int]] = ()):
        try:
            self.finish()
            if chapters:
                self.container.set_chapters([
                    {"id": i + 1, "start": start, "end": end, "time_base": Fraction(1, self._rate),
                     "metadata": {"title": title}} for i, (title, start, end) in enumerate(chapters)])
        finally:
            self.container.close()


class FileWriter:
    """A writer of any other format, with the same `close(chapters)` (chapters have nowhere to go)."""

    def __init__(self, path, fmt: str, sample_rate: int):
        self._file = open_file(path, fmt, sample_rate)
        self.write = self._file.write

    def close(self, chapters=()):
        self._file.close()


def open_writer(path, fmt: str, sample_rate: int, info: Optional[BookInfo] = None, part: Optional[Part] = None):
    return Mp4Writer(path, sample_rate, info, part) if fmt == "mp4" else FileWriter(path, fmt, sample_rate)
