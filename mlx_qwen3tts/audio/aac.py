"""AAC-LC in ADTS frames through PyAV (FFmpeg's native AAC encoder), chunk by chunk.

ADTS gives every 1024-sample frame its own 7-byte header and needs no seeking, so the bytes can
go out as each frame is encoded and any prefix of whole frames plays; it is what OpenAI returns
for `response_format: aac` (audio/aac). PyAV is optional (it comes with the server extra), so it
is imported only when AAC is asked for.
"""

import numpy as np

from ..errors import InputError

INSTALL_HINT = 'AAC output needs PyAV: pip install "mlx-qwen3tts[server]" (or pip install av)'
BIT_RATE = 64_000  # mono speech at 24 kHz: transparent enough, ~8 kB/s


def available() -> bool:
    try:
        import av  # noqa: F401
    except ImportError:
        return False
    return True


class _Collect:
    """The file object the ADTS muxer writes to: keeps the bytes until they are taken."""

    def __init__(self):
        self.data = bytearray()

    def write(self, data) -> int:
        self.data += data
        return len(data)

    def take(self) -> bytes:
        out = bytes(self.data)
        self.data.clear()
        return out


class AacEncoder:
    """`write(samples) -> bytes` of the ADTS frames completed so far; `close() -> bytes` the rest.

    The encoder holds back about two frames (its look-ahead), so early writes may return b"".
    Decoders put FFmpeg's 1024 samples of priming silence in front (ADTS cannot say to drop them).
    """

    def __init__(self, sample_rate: int, bit_rate: int = BIT_RATE):
        try:
            import av
        except ImportError:
            raise InputError(INSTALL_HINT) from None
        self._av, self._sink, self._rate, self._pts = av, _Collect(), sample_rate, 0
        self._container = av.open(self._sink, "w", format="adts")
        self._stream = self._container.add_stream("aac", rate=sample_rate, layout="mono", bit_rate=bit_rate)

    def _mux(self, frame) -> bytes:
        # The codec context re-blocks any frame size into 1024-sample frames of its own format.
        for packet in self._stream.encode(frame):
            self._container.mux(packet)
        return self._sink.take()

    def write(self, samples: np.ndarray) -> bytes:
        if samples.shape[0] == 0:
            return b""
        frame = self._av.AudioFrame.from_ndarray(np.ascontiguousarray(samples, np.float32)[None, :],
                                                 format="flt", layout="mono")
        frame.sample_rate, frame.pts = self._rate, self._pts
        self._pts += samples.shape[0]
        return self._mux(frame)

    def close(self) -> bytes:
        data = self._mux(None)
        self._container.close()
        return data + self._sink.take()
