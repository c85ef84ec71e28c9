"""Many concurrent syntheses on one loaded model: submit requests, iterate their audio chunks.

`Engine(tts)` owns a scheduler thread. `submit(request)` returns a `Handle` at once (or raises
`EngineFull` when the active rows and the queue are full); iterating the handle yields
`AudioChunk`s (with the chunk's `codes`) as they are made. `cancel()` ends a request, and so
does dropping its handle; a request that fails (its text iterator raises, a bad voice) re-raises
its error from its own iteration and leaves the others running.

Text that arrives as deltas is read from a `TextFeed` (push-based, thread-safe); any other
iterable of deltas is pumped into one by a small thread, so a slow writer never blocks the
scheduler.
"""

import itertools
import queue
import threading
import weakref
from dataclasses import replace
from typing import Iterator, Optional

from .errors import Qwen3TTSError
from .streaming import AudioChunk

_END = object()


class _Stop(Exception):
    """Unwinds a request that was cancelled while it waited for text."""


class EngineFull(Qwen3TTSError):
    """The engine's active rows and queue are full; retry later (a server answers 429)."""


class EngineClosed(Qwen3TTSError):
    """The engine was closed before the request finished."""


class TextFeed:
    """Text deltas pushed by one thread (`append`, then `end` or `fail`), read by another.

    Iterating blocks until the next delta; `poll()` takes what has arrived without waiting.
    """

    def __init__(self):
        self._queue = queue.SimpleQueue()
        self._done = False
        self._listeners = []

    def append(self, text: str):
        if not isinstance(text, str):
            raise TypeError(f"text deltas must be str, got {type(text).__name__}")
        self._put(text)

    def end(self):
        self._put(_END)

    def fail(self, exc: BaseException):
        self._put(exc)

    def _put(self, item):
        self._queue.put(item)
        for listener in list(self._listeners):
            listener()

    def on_arrival(self, listener):
        """Call `listener()` (no arguments) whenever something is pushed."""
        self._listeners.append(listener)

    def _take(self, item):
        if item is _END:
            self._done = True
            return None
        if isinstance(item, BaseException):
            self._done = True
            raise item
        return item

    def poll(self):
        """(deltas that have arrived, whether the text has ended); raises the writer's error."""
        deltas = []
        while not self._done:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            text = self._take(item)
            if text is not None:
                deltas.append(text)
        return deltas, self._done

    def __iter__(self) -> Iterator[str]:
        while not self._done:
            text = self._take(self._queue.get())
            if text is not None:
                yield text


def feed_from(deltas) -> TextFeed:
    """A TextFeed for any iterable of deltas, filled by a daemon thread (itself if already one)."""
    if isinstance(deltas, TextFeed):
        return deltas
    feed = TextFeed()

    def pump():
        try:
            for delta in deltas:
                feed.append(delta)
        except BaseException as exc:  # noqa: BLE001  (handed to the request that owns the text)
            feed.fail(exc)
        else:
            feed.end()

    threading.Thread(target=pump, name="mlx_qwen3tts-text-feed", daemon=True).start()
    return feed


class Job:
    """The scheduler's side of one request: its output queue and cancellation flag.

    The scheduler holds jobs, never handles, so a dropped handle is garbage-collected and its
    finalizer cancels the job.
    """

    _ids = itertools.count()

    def __init__(self, request, wake):
        self.id = next(self._ids)
        self.request = request
        self.out = queue.SimpleQueue()
        self.cancelled = threading.Event()
        self.finished = False
        self._wake = wake

    def cancel(self):
        if not self.cancelled.is_set():
            self.cancelled.set()
            self._wake()

    def emit(self, chunk: AudioChunk):
        self.out.put(chunk)

    def finish(self, error: Optional[BaseException] = None):
        if not self.finished:
            self.finished = True
            self.out.put(_END if error is None else error)


class Handle:
    """One submitted request: iterate it for its audio chunks; `cancel()` to stop it early."""

    def __init__(self, job: Job):
        self._job = job
        self._finalizer = weakref.finalize(self, job.cancel)

    @property
    def id(self) -> int:
        return self._job.id

    def cancel(self):
        """End the request: its row is freed within one frame and iteration stops."""
        self._job.cancel()

    def __iter__(self) -> Iterator[AudioChunk]:
        job = self._job
        while True:
            if job.cancelled.is_set() and job.out.empty():
                return
            item = job.out.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item


class Engine:
    """Continuous batching of requests over one loaded `TTS` (see the module docstring)."""

    def __init__(self, tts, max_active: int = 8, max_queue: int = 32):
        if max_active < 1 or max_queue < 0:
            raise ValueError("max_active must be >= 1 and max_queue >= 0")
        self.tts = tts
        self.max_active, self.max_queue = max_active, max_queue
        self._lock = threading.Condition()
        self._queue = []  # Jobs waiting for a row
        self._active = []  # Jobs holding a row
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="mlx_qwen3tts-engine", daemon=True)
        self._thread.start()

    def submit(self, request) -> Handle:
        """Queue `request` (a `Request` from `TTS.request`); raises EngineFull when full."""
        with self._lock:
            if self._closed:
                raise EngineClosed("the engine is closed")
            if len(self._active) + len(self._queue) >= self.max_active + self.max_queue:
                raise EngineFull(f"the engine is full ({self.max_active} active, {self.max_queue} queued); retry later")
            job = Job(request, self._wake)
            self._queue.append(job)
            self._lock.notify_all()
        return Handle(job)

    def stats(self) -> dict:
        with self._lock:
            return {"active": len(self._active), "queued": len(self._queue)}

    def close(self):
        """Stop the scheduler; unfinished requests end with EngineClosed."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        self._thread.join()
        for job in self._active + self._queue:
            job.finish(EngineClosed("the engine was closed"))
        self._active, self._queue = [], []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _wake(self):
        with self._lock:
            self._lock.notify_all()

    def _run(self):
        while True:
            with self._lock:
                while not self._closed and not self._queue:
                    self._lock.wait()
                if self._closed:
                    return
                job = self._queue.pop(0)
                self._active.append(job)
            try:
                self._serve(job)
            except _Stop:
                pass
            except Exception as exc:  # noqa: BLE001  (the request fails alone)
                job.finish(exc)
            else:
                job.finish()
            with self._lock:
                self._active.remove(job)

    def _deltas(self, job: Job, feed: TextFeed):
        """The feed's deltas, given up when the job is cancelled or the engine closes."""
        arrived = threading.Event()
        feed.on_arrival(arrived.set)
        while True:
            deltas, ended = feed.poll()
            yield from deltas
            if ended:
                return
            if job.cancelled.is_set() or self._closed:
                raise _Stop
            arrived.wait(0.05)
            arrived.clear()

    def _serve(self, job: Job):
        """Run one request to its end through the TTS streaming API (one request at a time)."""
        r = job.request
        if job.cancelled.is_set():
            return
        if r.deltas is not None:
            r = replace(r, deltas=self._deltas(job, feed_from(r.deltas)))
        chunks = self.tts.request_chunks(r)
        try:
            for chunk in chunks:
                if job.cancelled.is_set() or self._closed:
                    return
                job.emit(chunk)
        finally:
            chunks.close()
