"""AAC in an MPEG-4 container (.m4a, .m4b), through PyAV, written as the samples come.

The MP4 muxer writes its index (the moov box) at the end, so it needs a target it can seek in: a
file, or an in-memory buffer for a whole file at once; it cannot be streamed to a pipe.
"""

import io

import numpy as np

from . import aac
from ..errors import InputError

INSTALL_HINT = aac.INSTALL_HINT.replace("AAC output", ".m4a/.m4b output")


class Mp4File:
    """`write(samples)` as they come, `close()` to finish the file (a path, or a seekable file object)."""

    def __init__(self, target, sample_rate: int):
        try:
            import av
        except ImportError:
            raise InputError(INSTALL_HINT) from None
        self._av, self._rate, self._pts = av, sample_rate, 0
        self._container = av.open(target if hasattr(target, "write") else str(target), "w", format="mp4")
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

    def close(self):
        try:
            self._mux(None)
        finally:
            self._container.close()


def encode_mp4(samples: np.ndarray, sample_rate: int) -> bytes:
    """A whole .m4a file of mono float samples."""
    buffer = io.BytesIO()
    writer = Mp4File(buffer, sample_rate)
    writer.write(samples)
    writer.close()
    return buffer.getvalue()
