"""Audio output formats: which ones exist, and encoding to bytes in one go or chunk by chunk.

Every format goes through soundfile's libsndfile (WAV, FLAC, Ogg/Opus, MP3) except raw PCM,
which is 16-bit little-endian samples with no header, and AAC, as ADTS (.aac) or in MP4 (.m4a,
.m4b), which PyAV encodes when it is installed (the server extra; see aac.py, mp4.py). MP4 keeps
its index at the end, so it is written whole or to a file, never streamed. Used by the command line and by servers:
`encode(samples, rate, fmt)` gives a whole file; `StreamEncoder(fmt, rate)` gives the bytes of
one as the audio is produced, for outputs that cannot seek back (stdout, pipes, HTTP bodies).
"""

import errno
import io
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from . import aac, mp4
from ..errors import InputError


@dataclass(frozen=True)
class AudioFormat:
    name: str
    extensions: tuple
    mime: str
    sf_format: Optional[str]  # None: written here (pcm) or by PyAV (aac, mp4)
    sf_subtype: Optional[str]
    sf_options: tuple = ()  # extra soundfile keywords, as (name, value) pairs

    def sound_file(self, target, sample_rate: int):
        """A mono libsndfile writer of this format to a path or a file object."""
        import soundfile as sf

        sound_file = sf.SoundFile(target, "w", samplerate=sample_rate, channels=1, format=self.sf_format,
                                  subtype=self.sf_subtype, **dict(self.sf_options))
        if self.sf_subtype == "FLOAT":
            _without_peak_chunk(sf, sound_file)
        return sound_file


SFC_SET_ADD_PEAK_CHUNK = 0x1050  # libsndfile's sndfile.h; soundfile has no name for it


def _without_peak_chunk(sf, sound_file):
    """libsndfile gives a float WAV a PEAK chunk holding the time it was written, so two files of the same samples
    would differ: it is left out (an optional chunk; readers need it not), before any sample is written."""
    snd, ffi, handle = getattr(sf, "_snd", None), getattr(sf, "_ffi", None), getattr(sound_file, "_file", None)
    if None not in (snd, ffi, handle):  # soundfile's internals, stable for years; without them the chunk stays
        snd.sf_command(handle, SFC_SET_ADD_PEAK_CHUNK, ffi.NULL, 0)


FORMATS = {
    f.name: f
    for f in (
        AudioFormat("wav", (".wav",), "audio/wav", "WAV", "FLOAT"),
        AudioFormat("flac", (".flac",), "audio/flac", "FLAC", "PCM_16"),
        AudioFormat("opus", (".ogg", ".opus"), "audio/ogg", "OGG", "OPUS"),
        # Constant bitrate (~80 kbit/s at 24 kHz): a stream sent without its final Xing frame still reads fully.
        AudioFormat("mp3", (".mp3",), "audio/mpeg", "MP3", "MPEG_LAYER_III",
                    (("bitrate_mode", "CONSTANT"), ("compression_level", 0.5))),
        AudioFormat("aac", (".aac",), "audio/aac", None, None),
        AudioFormat("mp4", (".m4a", ".m4b"), "audio/mp4", None, None),  # AAC in MPEG-4: audiobook players' .m4b
        AudioFormat("pcm", (".pcm", ".raw"), "audio/pcm", None, None),
    )
}
FORMAT_NAMES = tuple(FORMATS)
STREAMABLE = tuple(name for name in FORMATS if name != "mp4")  # mp4 needs to seek back (see mp4.py)
EXTENSIONS = {ext: f for f in FORMATS.values() for ext in f.extensions}


def supported() -> str:
    """'wav (.wav), flac (.flac), ...' for messages."""
    return ", ".join(f"{f.name} ({'/'.join(f.extensions)})" for f in FORMATS.values())


def available(name: str) -> bool:
    """Whether this installation can encode the format (AAC and MP4 need PyAV)."""
    return name not in ("aac", "mp4") or aac.available()


def get_format(name: str) -> AudioFormat:
    fmt = FORMATS.get(str(name).lower())
    if fmt is None:
        raise InputError(f"unknown audio format '{name}'; choose one of: {supported()}", field="format")
    if not available(fmt.name):
        raise InputError(mp4.INSTALL_HINT if fmt.name == "mp4" else aac.INSTALL_HINT, field="format")
    return fmt


def format_for_path(path, fmt: Optional[str] = None, default: str = "wav") -> AudioFormat:
    """The format for an output path: `fmt` if given (it must agree with a known extension), else
    the extension's; a name without an extension (or stdout, '-') gets `default`. Messages name the
    option as `{format}`, for each front end to word (the CLI's `--format`)."""
    suffix = Path(str(path)).suffix.lower() if path is not None and str(path) != "-" else ""
    by_extension = EXTENSIONS.get(suffix)
    if fmt is not None:
        chosen = get_format(fmt)
        if chosen.name == "aac" and by_extension is not None and by_extension.name == "mp4":
            return get_format("mp4")  # AAC, in the container the name asks for
        if by_extension is not None and by_extension is not chosen:
            raise InputError(f"{{format}} {chosen.name} does not match the extension of {path}; "
                             f"use a {'/'.join(chosen.extensions)} name or leave {{format}} out", field="format")
        return chosen
    if by_extension is not None:
        return get_format(by_extension.name)
    if suffix:
        raise InputError(f"unknown audio extension '{suffix}' in {path}; supported: {supported()} "
                         "(or choose one with {format})", field="format")
    return get_format(default)


def _pcm16(samples: np.ndarray) -> bytes:
    samples = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0)
    return (np.round(samples * 32767.0)).astype("<i2").tobytes()


def _float_samples(samples) -> np.ndarray:
    samples = np.asarray(samples, dtype=np.float32)
    if samples.ndim != 1:
        raise InputError(f"expected mono samples (n,), got shape {samples.shape}")
    return samples


def encode(samples, sample_rate: int, fmt: str = "wav") -> bytes:
    """A whole audio file (headers complete) of mono float samples in [-1, 1]."""
    fmt = get_format(fmt)
    samples = _float_samples(samples)
    if fmt.name == "mp4":
        return mp4.encode_mp4(samples, sample_rate)
    if fmt.sf_format is None:  # pcm, aac: no headers to complete, the stream is the file
        encoder = StreamEncoder(fmt.name, sample_rate)
        return encoder.write(samples) + encoder.close()
    buffer = io.BytesIO()
    with fmt.sound_file(buffer, sample_rate) as f:
        f.write(samples)
    return buffer.getvalue()


# MPEG audio Layer III frame headers: bitrates (kbit/s) by version, sample rates by version.
_MP3_BITRATES = {1: (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320),
                 2: (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160)}
_MP3_RATES = {0b11: (44100, 48000, 32000), 0b10: (22050, 24000, 16000), 0b00: (11025, 12000, 8000)}


def mp3_frame_length(header: bytes) -> int:
    """Bytes in the Layer III frame that starts with `header` (4 bytes); 0 if it is no such header."""
    if len(header) < 4 or header[0] != 0xFF or (header[1] & 0xE6) != 0xE2:  # sync, Layer III
        return 0
    version, bitrate, rate = (header[1] >> 3) & 3, header[2] >> 4, (header[2] >> 2) & 3
    if version == 0b01 or bitrate in (0, 15) or rate == 3:
        return 0
    kbps = _MP3_BITRATES[1 if version == 0b11 else 2][bitrate]
    per_frame = 144 if version == 0b11 else 72  # bytes per (bit/s / sample rate): 1152 or 576 samples
    return per_frame * kbps * 1000 // _MP3_RATES[version][rate] + ((header[2] >> 1) & 1)


def is_mp3_tag_frame(frame: bytes) -> bool:
    """LAME's first frame: the Xing/Info tag (frame count, byte count, encoder delay) or, in a stream
    whose start could not be rewritten at the end, its zero-filled placeholder. It holds no audio."""
    body = bytes(frame[4:])
    return b"Xing" in body[:48] or b"Info" in body[:48] or not body.strip(b"\0")


def without_mp3_tag_frame(data: bytes) -> bytes:
    """An MP3 stream without LAME's tag frame, so that such streams concatenate into one valid
    stream: a tag counts the frames and bytes of its own file only (ffmpeg reports 'invalid
    concatenated file'). Without it, decoders no longer trim the encoder delay (1105 samples)."""
    length = mp3_frame_length(data[:4])
    if length and len(data) >= length and is_mp3_tag_frame(data[:length]):
        return data[length:]
    return data


def open_ended_wav_header(sample_rate: int) -> bytes:
    """A float32 mono WAV header whose sizes say 'unknown' (0xFFFFFFFF): readers play to the end."""
    fmt_chunk = struct.pack("<HHIIHH", 3, 1, sample_rate, sample_rate * 4, 4, 32)
    return (b"RIFF" + struct.pack("<I", 0xFFFFFFFF) + b"WAVE" + b"fmt " + struct.pack("<I", len(fmt_chunk))
            + fmt_chunk + b"data" + struct.pack("<I", 0xFFFFFFFF))


class _AppendOnlySink:
    """A seekable in-memory file for libsndfile that hands out its bytes as they are written.

    Encoders go back at the end to fill in totals (FLAC STREAMINFO, the MP3 Xing frame); bytes
    already handed out cannot change, so such late rewrites are dropped: the stream stays valid
    with 'unknown length' headers.
    """

    def __init__(self):
        self.data = bytearray()  # bytes not yet handed out, starting at offset `base`
        self.base = self.pos = self.size = 0

    def write(self, data) -> int:
        data = bytes(data)
        start, end = self.pos, self.pos + len(data)
        self.pos = end
        if end <= self.base:
            return len(data)
        if start < self.base:
            data, start = data[self.base - start :], self.base
        rel = start - self.base
        if rel > len(self.data):
            self.data.extend(b"\0" * (rel - len(self.data)))
        self.data[rel : rel + len(data)] = data
        self.size = max(self.size, end)
        return end - start if end > start else 0

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = offset if whence == 0 else self.pos + offset if whence == 1 else self.size + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def read(self, n: int = -1) -> bytes:
        return b""  # encoders here never read back

    def flush(self):
        pass

    def take(self) -> bytes:
        out = bytes(self.data)
        self.base += len(out)
        self.data = bytearray()
        return out


class StreamEncoder:
    """Encode audio chunk by chunk: `write(samples) -> bytes` as they become final, `close() -> bytes`.

    wav: float32 with an open-ended header; pcm: raw 16-bit little-endian; flac, opus (Ogg), mp3:
    libsndfile on an in-memory sink; aac: ADTS frames from PyAV. The concatenated bytes form one
    playable stream. An mp3 stream starts without LAME's tag frame, which could not be completed
    at the end anyway (see `without_mp3_tag_frame`).
    """

    def __init__(self, fmt: str, sample_rate: int):
        self.format, self.sample_rate, self.closed = get_format(fmt), sample_rate, False
        if self.format.name not in STREAMABLE:
            raise InputError(not_streamable(self.format), field="format")
        self._header, self._file, self._sink = b"", None, None
        self._mp3_start = bytearray() if self.format.name == "mp3" else None  # held until its first frame is whole
        if self.format.name == "wav":
            self._header = open_ended_wav_header(sample_rate)
        elif self.format.name == "aac":
            self._file = aac.AacEncoder(sample_rate)
        elif self.format.sf_format is not None:
            self._sink = _AppendOnlySink()
            self._file = self.format.sound_file(self._sink, sample_rate)

    def write(self, samples) -> bytes:
        if self.closed:
            raise ValueError("write to a closed StreamEncoder")
        samples = _float_samples(samples)
        header, self._header = self._header, b""
        if self.format.name == "wav":
            return header + samples.astype("<f4").tobytes()
        if self._file is None:
            return _pcm16(samples)
        if self._sink is None:
            return self._file.write(samples)
        self._file.write(samples)
        return self._without_tag(self._sink.take())

    def _without_tag(self, data: bytes, final: bool = False) -> bytes:
        if self._mp3_start is None:
            return data
        self._mp3_start += data
        length = mp3_frame_length(self._mp3_start[:4])
        if len(self._mp3_start) < max(length, 4) and not final:
            return b""
        start, self._mp3_start = bytes(self._mp3_start), None
        return without_mp3_tag_frame(start)

    def close(self) -> bytes:
        """The final bytes (a WAV header too when nothing was written)."""
        if self.closed:
            return b""
        self.closed = True
        if self._file is None:
            return self._header  # emptied by the first write
        if self._sink is None:
            return self._file.close()
        self._file.close()
        return self._without_tag(self._sink.take(), final=True)


class _StreamToFile:
    """A format with no headers to complete (raw PCM, AAC's ADTS frames): the stream's bytes, written as they come."""

    def __init__(self, path, fmt: str, sample_rate: int):
        self.encoder = StreamEncoder(fmt, sample_rate)
        self.file = open(path, "wb")

    def write(self, samples):
        self.file.write(self.encoder.write(samples))

    def close(self):
        try:
            self.file.write(self.encoder.close())
        finally:
            self.file.close()


class _CheckedSoundFile:
    """soundfile reports a short write (disk full) as an AssertionError: make it an OSError."""

    def __init__(self, sound_file):
        self.sound_file = sound_file

    def write(self, samples):
        try:
            self.sound_file.write(samples)
        except (AssertionError, RuntimeError) as e:
            reason = str(e) or "short write; disk full?"
            raise OSError(errno.EIO, f"the audio encoder could not write ({reason})") from None

    def close(self):
        try:
            self.sound_file.close()
        except (AssertionError, RuntimeError) as e:
            raise OSError(errno.EIO, f"the audio encoder could not finish the file ({e})") from None


def not_streamable(fmt: AudioFormat) -> str:
    """Why `fmt` cannot go to a pipe or stdout as it is made, and what to do instead (names `{format}`)."""
    return (f"{fmt.name} ({'/'.join(fmt.extensions)}) keeps its index at the end of the file, so it cannot be "
            f"streamed to a pipe or stdout; write it to a file, or choose one of {', '.join(STREAMABLE)} "
            "with {format}")


def open_file(path, fmt: str, sample_rate: int):
    """A writer with `.write(samples)` / `.close()` for a file path: headers are completed at close;
    a failed write raises OSError."""
    fmt = get_format(fmt)
    if fmt.name == "mp4":
        return mp4.Mp4File(path, sample_rate)
    if fmt.sf_format is None:
        return _StreamToFile(path, fmt.name, sample_rate)
    return _CheckedSoundFile(fmt.sound_file(str(path), sample_rate))
