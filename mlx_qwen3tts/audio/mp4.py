"""AAC in an MPEG-4 container (.m4a, .m4b), through PyAV, written as the samples come.

The MP4 muxer writes its index (the moov box) at the end, so it needs a target it can seek in: a
file, or an in-memory buffer for a whole file at once; it cannot be streamed to a pipe.
"""

import io

import numpy as np

from . import aac

INSTALL_HINT = aac.INSTALL_HINT.replace("AAC output", ".m4a/.m4b output")


class Mp4File(aac.AacMuxer):
    """`write(samples)` as they come, `close()` to finish the file (a path, or a seekable file object)."""

    def __init__(self, target, sample_rate: int):
        super().__init__(target, "mp4", sample_rate, hint=INSTALL_HINT)


def encode_mp4(samples: np.ndarray, sample_rate: int) -> bytes:
    """A whole .m4a file of mono float samples."""
    buffer = io.BytesIO()
    writer = Mp4File(buffer, sample_rate)
    writer.write(samples)
    writer.close()
    return buffer.getvalue()
