"""Audio from an engine handle to the client: encoded on a worker thread, handed to the event loop.

`speech_response` answers POST /v1/audio/speech: one whole file, chunked audio or SSE events.
`encoded_chunks` is the blocking pipeline (engine chunks -> time stretch -> streaming encoder);
`in_thread` runs such an iterator on its own thread and yields its items asynchronously, and
cancels the engine request when the consumer stops early (client gone, error).
"""

import asyncio
import base64
import json
import threading
from typing import AsyncIterator, Callable, Iterator

import numpy as np
from starlette.responses import JSONResponse, Response

from ..aligner.piece_words import Words
from ..audio import formats as audio_formats
from .engine_client import engine_error, runaway_notice, runaway_words
from .params import Speech
from ..audio.time_stretch import stretched, time_stretch

NOTICE_HEADER = "X-Notice"  # the notices of a request (notice_headers)
RUNAWAY_EVENT = "speech.runaway"  # a streamed piece the runaway guard ended (`encoded_chunks` with notices)
CONTENT_TYPES = {"mp3": "audio/mpeg", "opus": "audio/ogg", "aac": "audio/aac", "flac": "audio/flac",
                 "wav": "audio/wav", "pcm": "audio/pcm"}

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


def encoded_chunks(handle, fmt: str, speed: float, sample_rate: int, usage: Usage, words=None,
                   notices: bool = False) -> Iterator:
    """Encoded bytes as the engine's chunks come (blocking). Empty writes are skipped. With `words` (a
    `PieceWords`), each piece's `Words` too, once its audio has gone to the encoder and it is aligned (those
    still being aligned when the audio ends, at the end). With `notices`, a `speech.runaway` event (a dict:
    {"type", "message"}) after the audio of each piece the runaway guard ended, before the next piece's."""
    encoder = audio_formats.StreamEncoder(fmt, sample_rate)
    ran_away = [] if notices else None
    try:
        for piece in stretched(_counted(handle, usage, words, ran_away), speed, sample_rate):
            usage.samples += piece.shape[0]
            data = encoder.write(piece)
            if data:
                yield data
            while ran_away:
                yield {"type": RUNAWAY_EVENT, "message": runaway_words(ran_away.pop(0))}
            if words is not None:
                yield from words.ready(until=usage.samples / sample_rate)
        data = encoder.close()
        if data:
            yield data
        if words is not None:
            yield from words.rest()
    finally:
        if words is not None:
            words.close()


def _counted(handle, usage: Usage, words=None, ran_away=None) -> Iterator:
    """The samples of the handle's chunks, their frames counted in `usage`, each chunk handed to `words`, the
    rule of each piece the runaway guard ended put in `ran_away` (a list) with its last chunk."""
    for chunk in handle:
        usage.frames += chunk.frames
        if words is not None:
            words.add(chunk)
        if ran_away is not None and chunk.runaway:
            ran_away.append(chunk.runaway)
        yield chunk.samples


_DONE = object()
IN_THREAD_HELD = 8  # items made ahead of a consumer that is slower than the engine


async def in_thread(iterator: Iterator, cancel: Callable[[], None], held: int = IN_THREAD_HELD) -> AsyncIterator:
    """Items of a blocking iterator, produced on a worker thread. `cancel` runs if the consumer
    stops before the end (or the iterator fails) so the engine row is freed at once. At most `held` items
    wait for the consumer: past them the worker waits too, and so (it reads no more) does the engine."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    room, stopped = threading.Semaphore(held), threading.Event()

    def put(item, error=None):
        try:
            loop.call_soon_threadsafe(queue.put_nowait, (item, error))
        except RuntimeError:  # the loop has closed (server shutting down)
            pass

    def work():
        try:
            for item in iterator:
                while not room.acquire(timeout=0.5):  # the consumer is behind: wait for it, or its end
                    if stopped.is_set():
                        return
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
            room.release()
            yield item
    finally:
        stopped.set()
        if not finished:
            cancel()


async def speech_response(handle, speech: Speech, sample_rate: int, watcher, text_tokens: int = 0, timing=None,
                          heard=None):
    """The response to a submitted speech request: the whole file once it is made, or (`stream_format`)
    chunked audio or SSE events as it is made; the request's notices in a header. `watcher` (the client's
    disconnect, which cancels the request) runs until the response is sent. `timing()`: a `PieceWords` for the
    request's chunks, for `timestamps` (a JSON body with the audio in base64 and all the words; over SSE, each
    piece's words in an event after its audio). `heard(words)`: those pieces' feed with each piece's
    check beside (`checks.streamed`, for an SSE stream's `check`)."""
    headers = notice_headers(handle.notices)
    if speech.stream_format is None:
        try:
            return await whole_file(handle, speech, sample_rate, timing)
        except Exception as e:
            handle.cancel()
            raise engine_error(e) from None
        finally:
            watcher.cancel()
    usage = Usage(text_tokens)
    events = usage if speech.stream_format == "sse" else None
    words = timing() if timing is not None and events is not None else None
    if heard is not None and events is not None:
        words = heard(words)
    chunks = in_thread(encoded_chunks(handle, speech.fmt, speech.speed, sample_rate, usage, words,
                                      notices=events is not None), handle.cancel)
    return AudioStream(chunks, CONTENT_TYPES[speech.fmt], handle.cancel, watcher, headers, events, sample_rate,
                       lambda: runaway_notice(handle))


def told(handle) -> list:
    """The notices of a finished request: the request layer's, then the runaway guard's."""
    runaway = runaway_notice(handle)
    return list(handle.notices) + ([runaway] if runaway else [])


def notice_headers(notices) -> dict:
    """One header holding every notice of a request (an ignored instruction, an x-vector-only clone), which the
    page shows; headers are Latin-1, so other characters become '?'."""
    if not notices:
        return {}
    text = " | ".join(notices)
    text = "".join(c if c.isprintable() else " " for c in text)
    return {NOTICE_HEADER: text.encode("latin-1", "replace").decode("latin-1")}


async def whole_file(handle, speech: Speech, sample_rate: int, timing=None) -> Response:
    """The handle's audio as one file; with `timing`, JSON holding it (base64) and the words' times; the
    notices (the runaway guard's too) in a header."""
    data, words = await whole_audio(handle, speech, sample_rate, timing)
    headers = notice_headers(told(handle))
    if words is None:
        return Response(data, media_type=CONTENT_TYPES[speech.fmt], headers=headers)
    return JSONResponse({"audio": base64.b64encode(data).decode(), "response_format": speech.fmt,
                         "sample_rate": sample_rate, "timestamps": words}, headers=headers)


async def whole_audio(handle, speech: Speech, sample_rate: int, timing=None, usage: Usage = None) -> tuple:
    """(the handle's audio once it is all made, stretched to the speed asked and encoded as one file; the
    words' times when `timing` is given, else None); its frames counted in `usage` where given."""
    timed = timing() if timing is not None else None
    pieces = [samples async for samples in in_thread(_counted(handle, usage or Usage(), timed), handle.cancel)]
    audio = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
    words = await all_words(timed) if timed is not None else None
    audio = await asyncio.to_thread(time_stretch, audio, speech.speed, sample_rate)
    return await asyncio.to_thread(encoded_file, audio, sample_rate, speech.fmt), words


async def all_words(timed) -> list:
    """Every word of a finished answer's pieces (`PieceWords` fed all its chunks), as its JSON lists them."""
    def gathered():
        try:
            return [{"word": w.text, "start_time": w.start, "end_time": w.end}
                    for piece in timed.rest() for w in piece.words]
        finally:
            timed.close()

    return await asyncio.to_thread(gathered)


async def watch_disconnect(receive, cancel):
    """Cancel the engine request as soon as the client goes away."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            cancel()
            return


async def whole_files(handles: list, speeches: list, sample_rate: int, receive, usages=None, timings=None,
                      settle: bool = False):
    """Each handle's (file, words) from `whole_audio` (`timings`: each one's, or None), all made together; the
    client going away (`receive`: the ASGI request's) cancels them all. A failure cancels the others and is
    raised, or (`settle`) stands in its item's place."""
    usages, timings = usages or [None] * len(handles), timings or [None] * len(handles)

    def cancel():
        for handle in handles:
            handle.cancel()

    watcher = asyncio.create_task(watch_disconnect(receive, cancel))
    try:
        return await asyncio.gather(*(whole_audio(h, s, sample_rate, t, usage=u)
                                      for h, s, u, t in zip(handles, speeches, usages, timings)),
                                    return_exceptions=settle)
    except Exception as e:
        cancel()
        raise engine_error(e) from None
    finally:
        watcher.cancel()


def sse(event: dict) -> bytes:
    return f"data: {json.dumps(event)}\n\n".encode()


async def sse_events(chunks, usage: Usage, sample_rate: int, runaway=lambda: None):
    """The chunks as SSE events; a failure before the first one is raised (it gets its own status), one
    after it (the status is sent) ends the stream with an error event. A piece's `Words` among the chunks
    (`timestamps`) is a `speech.timestamps` event after that piece's audio (an event given whole, a dict, goes as
    it is: a piece's `speech.check`, or `speech.runaway` after the audio of a piece the runaway guard ended);
    `runaway()` (the runaway guard's notice, if it ended the speech) comes as a `speech.runaway` event where
    none came with the pieces; then `speech.audio.done`."""
    sent = told = False
    try:
        async for data in chunks:
            yield sse(words_event(data) if isinstance(data, Words) else data if isinstance(data, dict) else
                      {"type": "speech.audio.delta", "audio": base64.b64encode(data).decode()})
            sent = True
            told = told or (isinstance(data, dict) and data.get("type") == RUNAWAY_EVENT)
        if runaway() and not told:
            yield sse({"type": "speech.runaway", "message": runaway()})
    except Exception as e:
        if not sent:
            raise
        yield sse({"type": "error", "error": engine_error(e).body()["error"]})
        return
    yield sse({"type": "speech.audio.done", "usage": usage.as_dict(sample_rate)})


def words_event(words: Words) -> dict:
    """One piece's words: their times and the piece's (`start_time`, `end_time`) in seconds of the answer."""
    return {"type": "speech.timestamps", "piece": words.piece, "start_time": words.start, "end_time": words.end,
            "timestamps": [{"word": w.text, "start_time": w.start, "end_time": w.end} for w in words.words]}


class AudioStream:
    """A streamed speech response: chunked audio, or SSE events where `events` (the request's Usage, for
    the last event) is given. The status waits for the first chunk, so an error before any audio gets its
    own (a full engine 429, ...). `watcher` (the server's watch of the client's disconnect) has been running
    since the request was submitted, so the engine request is cancelled the moment the client goes away,
    queued or generating, not only at the next write. `runaway()`: the runaway guard's notice, in the notice
    header where it is known when the status goes (a stream ended in its first chunk), and as an SSE event."""

    def __init__(self, chunks, media_type: str, cancel, watcher, headers: dict, events=None, sample_rate: int = 0,
                 runaway=lambda: None):
        self.chunks, self.media_type, self.cancel, self.watcher = chunks, media_type, cancel, watcher
        self.headers, self.events, self.sample_rate, self.runaway = headers, events, sample_rate, runaway

    async def __call__(self, scope, receive, send):
        try:
            await self._send(send, self._body())
        except OSError:  # the client went away mid-write
            self.cancel()
        finally:
            self.watcher.cancel()
            await self.chunks.aclose()

    def _body(self):
        return self.chunks if self.events is None else sse_events(self.chunks, self.events, self.sample_rate,
                                                                   self.runaway)

    async def _send(self, send, body):
        try:
            first = await anext(body, b"")
        except Exception as e:  # nothing sent yet: the error answers with its own status
            self.cancel()
            error = engine_error(e)
            await send({"type": "http.response.start", "status": error.status,
                        "headers": self._headers("application/json", error.headers)})
            await send({"type": "http.response.body", "body": json.dumps(error.body()).encode()})
            return
        media = "text/event-stream" if self.events is not None else self.media_type
        headers = self.headers
        if self.runaway():
            said = [headers[NOTICE_HEADER]] if NOTICE_HEADER in headers else []
            headers = notice_headers(said + [self.runaway()])
        await send({"type": "http.response.start", "status": 200, "headers": self._headers(media, headers)})
        await send({"type": "http.response.body", "body": first, "more_body": True})
        async for data in body:
            if self.watcher.done():
                return
            await send({"type": "http.response.body", "body": data, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    @staticmethod
    def _headers(media_type: str, extra: dict) -> list:
        headers = [(b"content-type", media_type.encode()), (b"cache-control", b"no-store")]
        return headers + [(k.lower().encode(), v.encode("latin-1")) for k, v in extra.items()]
