"""Audio from an engine handle to encoded bytes, on a worker thread, handed to the event loop.

`encoded_chunks` is the blocking pipeline (engine chunks -> time stretch -> streaming encoder);
`in_thread` runs such an iterator on its own thread and yields its items asynchronously, and
cancels the engine request when the consumer stops early (client gone, error).
"""

import asyncio
import threading
from typing import AsyncIterator, Callable, Iterator

from ..audio import formats as audio_formats
from .limits import ApiError
from .time_stretch import TimeStretch

CONTENT_TYPES = {"mp3": "audio/mpeg", "opus": "audio/ogg", "aac": "audio/aac", "flac": "audio/flac",
                 "wav": "audio/wav", "pcm": "audio/pcm"}
OPENAI_FORMATS = ("mp3", "opus", "aac", "flac", "wav", "pcm")


def offered_formats() -> list:
    """OpenAI's formats this installation encodes (aac needs PyAV, which the server extra brings)."""
    return [f for f in OPENAI_FORMATS if f in audio_formats.FORMATS and audio_formats.available(f)]


def check_format(fmt, allowed=None) -> str:
    allowed = allowed or offered_formats()
    if fmt is None:
        return allowed[0] if "mp3" not in allowed else "mp3"
    if not isinstance(fmt, str) or fmt.lower() not in allowed:
        reason = "is not offered by this server" if fmt in OPENAI_FORMATS else "is not a known format"
        raise ApiError(400, f"response_format '{str(fmt)[:32]}' {reason}; choose one of {', '.join(allowed)}",
                       param="response_format", code="unsupported_format")
    return fmt.lower()


def encoded_file(samples, sample_rate: int, fmt: str) -> bytes:
    """A whole response file. mp3 comes without LAME's tag frame, like the streamed one: clients
    join the responses of a long text into one stream (LibreChat's TTSService), which a tag
    describing the first file alone makes invalid."""
    data = audio_formats.encode(samples, sample_rate, fmt)
    return audio_formats.without_mp3_tag_frame(data) if fmt == "mp3" else data


class Usage:
    def __init__(self, text_tokens: int = 0):
        self.text_tokens, self.frames, self.samples = text_tokens, 0, 0

    def as_dict(self, sample_rate: int) -> dict:
        return {"input_tokens": self.text_tokens, "output_tokens": self.frames,
                "total_tokens": self.text_tokens + self.frames,
                "audio_seconds": round(self.samples / sample_rate, 3)}


def encoded_chunks(handle, fmt: str, speed: float, sample_rate: int, usage: Usage) -> Iterator[bytes]:
    """Encoded bytes as the engine's chunks come (blocking). Empty writes are skipped."""
    encoder = audio_formats.StreamEncoder(fmt, sample_rate)
    stretch = TimeStretch(speed, sample_rate) if speed != 1.0 else None
    for chunk in handle:
        usage.frames += chunk.frames
        samples = stretch.process(chunk.samples) if stretch else chunk.samples
        usage.samples += samples.shape[0]
        data = encoder.write(samples)
        if data:
            yield data
    if stretch:
        tail = stretch.flush()
        usage.samples += tail.shape[0]
        data = encoder.write(tail)
        if data:
            yield data
    data = encoder.close()
    if data:
        yield data


_DONE = object()


async def in_thread(iterator: Iterator, cancel: Callable[[], None]) -> AsyncIterator:
    """Items of a blocking iterator, produced on a worker thread. `cancel` runs if the consumer
    stops before the end (or the iterator fails) so the engine row is freed at once."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def put(item, error=None):
        try:
            loop.call_soon_threadsafe(queue.put_nowait, (item, error))
        except RuntimeError:  # the loop has closed (server shutting down)
            pass

    def work():
        try:
            for item in iterator:
                put(item)
        except BaseException as error:  # handed to the consumer, which re-raises it
            put(_DONE, error)
        else:
            put(_DONE)

    finished = False
    threading.Thread(target=work, name="mlx_qwen3tts-audio", daemon=True).start()
    try:
        while True:
            item, error = await queue.get()
            if item is _DONE:
                finished = True
                if error is not None:
                    raise error
                return
            yield item
    finally:
        if not finished:
            cancel()
