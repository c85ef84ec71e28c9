"""AAC-LC in ADTS frames through PyAV (FFmpeg's native AAC encoder), chunk by chunk.

ADTS gives every 1024-sample frame its own 7-byte header and needs no seeking, so the bytes can
go out as each frame is encoded and any prefix of whole frames plays; it is what OpenAI returns
for `response_format: aac` (audio/aac). PyAV is optional (it comes with the server extra), so it
is imported only when AAC is asked for.
"""

import numpy as np

from ..errors import InputError

INSTALL_HINT = "AAC output needs PyAV: pip install av (the server extra brings it)"
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


class AacMuxer:
    """Mono float samples encoded as AAC through PyAV and muxed into `container` ("adts", "mp4") on `target` (a
    path or a file object) as they are written; `finish()` flushes the encoder's look-ahead, `close()` also ends
    the container. `hint`: the line that says how to get PyAV."""

    def __init__(self, target, container: str, sample_rate: int, bit_rate: int = BIT_RATE, hint: str = INSTALL_HINT):
        try:
            import av
        except ImportError:
            raise InputError(hint) from None
        self.av, self._rate, self._pts = av, sample_rate, 0
        self.container = av.open(target if hasattr(target, "write") else str(target), "w", format=container)
        self.stream = self.container.add_stream("aac", rate=sample_rate, layout="mono", bit_rate=bit_rate)

    def _mux(self, frame):
        # The codec context re-blocks any frame size into 1024-sample frames of its own format.
        for packet in self.stream.encode(frame):
            self.container.mux(packet)

    def write(self, samples: np.ndarray):
        if samples.shape[0]:
            frame = self.av.AudioFrame.from_ndarray(np.ascontiguousarray(samples, np.float32)[None, :],
                                                    format="flt", layout="mono")
            frame.sample_rate, frame.pts = self._rate, self._pts
            self._pts += samples.shape[0]
            self._mux(frame)

    def finish(self):
        self._mux(None)

    def close(self):
        try:
            self.finish()
        finally:
            self.container.close()


class AacEncoder(AacMuxer):
    """ADTS: `write(samples) -> bytes` of the frames completed so far; `close() -> bytes` the rest.

    The encoder holds back about two frames (its look-ahead), so early writes may return b"".
    Decoders put FFmpeg's 1024 samples of priming silence in front (ADTS cannot say to drop them).
    """

    def __init__(self, sample_rate: int, bit_rate: int = BIT_RATE):
        self._sink = _Collect()
        super().__init__(self._sink, "adts", sample_rate, bit_rate)

    def write(self, samples: np.ndarray) -> bytes:
        super().write(samples)
        return self._sink.take()

    def close(self) -> bytes:
        super().close()
        return self._sink.take()
