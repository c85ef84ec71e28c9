"""Many concurrent syntheses on one loaded model: submit requests, iterate their audio chunks.

`Engine(loop, codec)` (made by `TTS.engine()`) owns a scheduler thread that drives the decode loop's
rows (`Rows.drain()`, loop/rows.py) over every active request at once: a new request's prompt is
prefilled in pieces between frame steps (about a frame step's work a step, measured as it runs, or
`prefill_budget` cost units), and its first frame comes from the step of its last piece with the
running rows' frames, so a long prompt never stalls the streams already speaking; `warm()` compiles
every batch size beforehand. A row leaves at its EOS, its frame limit or when cancelled; a row whose
streamed-in text has not arrived waits without holding the others back. Each row keeps its own
sampling settings, random key (from its seed) and codec decoder state (each row's due chunk is
decoded alone, `CodecDecoder.step_streams`), so a request's audio does not depend on what else runs: greedy
requests equal their solo runs, seeded ones repeat to the bit.

The route of a request:
1. `submit(request)` (any thread) evaluates the request's arrays there, queues a `Job` and returns a
   `Handle` at once, or raises `EngineFull` when `max_active` rows and `max_queue` waiting requests
   are taken.
2. The scheduler admits queued jobs into free rows (`max_active`), makes each job's row once the text
   its prefill needs is there (streamed text is pumped into a `TextFeed` by a small thread, or pushed
   by the caller into one, so a slow writer never blocks the scheduler), and adds it to the rows.
3. Each step's frames go to their jobs' chunk decoders; the due chunks of all jobs are sent off together
   (each decoded on its own state) and put on each job's queue; iterating the handle yields them (`AudioChunk`s
   with their `codes`).
4. A job ends at its row's end, its error (re-raised from its own iteration: the others go on), or
   `cancel()` (or its handle dropped), which frees its row within one frame.

The thread rules:
1. MLX arrays are tied to the stream of the thread that made them: arrays made on a caller's thread
   (a voice's x-vector, reference codes) are evaluated in `submit`, on that thread; the scheduler
   thread alone runs the loop, the prefill and the codec.
2. Every thread that ran MLX work calls `backend.release_thread_streams()` last (the scheduler at its
   end; the server's cloning thread at shutdown), or the process aborts at exit.
3. The scheduler holds jobs, never handles, so a dropped handle is collected and its finalizer
   cancels the job. `cancel()` sets the flag and wakes the reader before the scheduler sees it; the
   scheduler frees the row at its next pass, and nothing is given out after `cancel()`.
4. Other threads reach the scheduler through its lock and condition: `_wake()` after a submit, a
   cancel, a text arrival or a call (`warm`); with nothing to do it sleeps at most `IDLE_WAIT_S`.
5. `close()` (also at interpreter exit, for engines never closed) stops the scheduler and joins it;
   unfinished requests end with `EngineClosed`.
"""

import atexit
import itertools
import queue
import threading
import time
import weakref
from contextlib import contextmanager
from dataclasses import replace
from typing import Iterator, List, Optional

import mlx.core as mx

from ..backend import release_thread_streams
from ..codec import SAMPLE_RATE
from ..errors import Qwen3TTSError
from ..audio.chunks import AudioChunk, ChunkDecoder, start_chunks
from ..iterators import Iterated
from ..plan import Plan
from ..seeds import retry_seed
from .text_track import TextFeed, feed_from
from .decode_loop import Rows

__all__ = ["Engine", "EngineClosed", "EngineFull", "Handle", "PiecedHandle", "TextFeed"]

_END = object()
UNREAD_CHUNKS = 8  # a job's chunks its reader has not taken, past which its row pauses (`Job.behind`)
IDLE_WAIT_S = 0.1  # longest sleep with nothing to do (every wake-up source also notifies)
_open_engines = weakref.WeakSet()


@atexit.register
def _close_open_engines():
    """A script that never closes its engine still exits cleanly: the scheduler thread must finish
    (and release its MLX streams) before the interpreter tears down, or the process aborts."""
    for engine in list(_open_engines):
        engine.close()


class EngineFull(Qwen3TTSError):
    """The engine's active rows and queue are full; retry later (a server answers 429)."""


class EngineClosed(Qwen3TTSError):
    """The engine was closed before the request finished."""


class Job:
    """The scheduler's side of one request: output queue, cancel flag, row, streamed text, decoder.

    The scheduler holds jobs, never handles, so a dropped handle is garbage-collected and its
    finalizer cancels the job.
    """

    _ids = itertools.count()

    def __init__(self, request, wake):
        self.id = next(self._ids)
        self.request = request
        self.submitted = time.perf_counter()
        self.out = queue.SimpleQueue()
        self.cancelled = threading.Event()
        self.finished = False
        self.row = self.text = self.chunks = None
        self.runaway: Optional[str] = None  # its row's runaway rule, set before its last chunk is handed out
        self.held = False  # its row paused for its reader (`behind`)
        self._wake = wake

    def behind(self) -> bool:
        """Whether its reader has left `UNREAD_CHUNKS` chunks unread: its row pauses until one is read, so a
        client that stops reading holds a few chunks, not all the audio its request could make."""
        self.held = self.out.qsize() >= UNREAD_CHUNKS
        return self.held

    def taken(self):
        """A chunk was read: a row paused for it goes on."""
        if self.held:
            self.held = False
            self._wake()

    def cancel(self):
        if not self.cancelled.is_set():
            self.cancelled.set()
            self.out.put(_END)  # a reader blocked on the queue returns now, not when the scheduler gets here
            self._wake()

    def finish(self, error: Optional[BaseException] = None):
        if not self.finished:
            self.finished = True
            if self.text is not None:
                self.text.close()
            self.out.put(_END if error is None else error)


class Handle:
    """One submitted request: iterate it for its audio chunks; `cancel()` to stop it early."""

    def __init__(self, job: Job):
        self._job = job
        weakref.finalize(self, job.cancel)

    @property
    def id(self) -> int:
        return self._job.id

    @property
    def runaway(self) -> Optional[str]:
        """The runaway guard's rule that ended it (None: it did not run away), known with its last chunk."""
        return self._job.runaway

    @property
    def seed(self) -> Optional[int]:
        """Its row's random seed (drawn where the request gave none); None before its row is made."""
        return None if self._job.row is None else self._job.row.seed

    @property
    def cancelled(self) -> bool:
        return self._job.cancelled.is_set()

    def cancel(self):
        """End the request: its row is freed within one frame and iteration stops."""
        self._job.cancel()

    def __iter__(self) -> Iterator[AudioChunk]:
        job = self._job
        while not job.cancelled.is_set():  # after cancel() nothing more is given out
            item = job.out.get()
            job.taken()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            if not job.cancelled.is_set():
                yield item


class PiecedHandle:
    """A submitted request as the pieces it is spoken in (`plan.Plan`): each piece queued once the one before
    has ended, their audio joined as `TTS.generate` joins them; a text of one piece is just its own stream.
    Iterate it for the audio chunks; `cancel()` to stop early. The first piece is queued at once, so a full
    engine refuses the request before any audio.

    The runaway guard: streamed (`whole` False), a piece whose speech ran away ends there and the pieces after it
    are still spoken; `whole` (the audio is handed out only once it is all made), each piece's chunks are held
    until it ends, and a sampled piece that ran away is spoken again once (`seeds.retry_seed`) in its place.
    `runaway` names the rule that fired (on the piece spoken again, where it ran away again), `retried` says a
    piece was."""

    def __init__(self, submit, request, split: str, sample_rate: int, whole: bool = False):
        self._submit, self._cancelled, self._current, self._whole = submit, False, None, whole
        self.notices = request.notices  # what the request layer said of it (an ignored instruction, ...)
        # After cancel() no more pieces are asked for (a streamed text's next one waits for its text).
        self._chunks = Plan(request, split).chunks(self._start, sample_rate, stop=lambda: self._cancelled)

    def _start(self, request) -> "_HandleStream":
        """Queue a piece: the first may be refused (the engine full), a later one is admitted."""
        return (_HeldStream if self._whole else _HandleStream)(self._queue(request), request, self._queue)

    def _queue(self, request) -> Handle:
        handle = self._submit(request, admitted=self._current is not None)
        if self._current is None:
            self.id = handle.id
        self._current = handle
        return handle

    @property
    def runaway(self) -> Optional[str]:
        return getattr(self._chunks, "runaway", None)

    @property
    def retried(self) -> bool:
        return getattr(self._chunks, "retried", False)

    def cancel(self):
        self._cancelled = True
        self._current.cancel()

    def __iter__(self):
        return self._chunks


class _HandleStream(Iterated):
    """A piece's Handle as its chunk stream: closing it cancels the piece."""

    retried = False

    def __init__(self, handle: Handle, request=None, queue=None):
        self.handle, self._run = handle, iter(handle)

    @property
    def runaway(self) -> Optional[str]:
        return self.handle.runaway

    def close(self):
        self.handle.cancel()


class _HeldStream(_HandleStream):
    """A piece of whole audio: its chunks held until it ends, then handed out; spoken again once in its place
    (`queue(request)`, a seed derived from its own) where it was sampled and its speech ran away."""

    def __init__(self, handle: Handle, request, queue):
        super().__init__(handle)
        self._run = self._held(request, queue)

    def _held(self, request, queue):
        chunks = list(self.handle)
        if self.handle.runaway and request.sampling.sampled and not self.handle.cancelled:
            self.handle, self.retried = queue(replace(request, seed=retry_seed(self.handle.seed))), True
            chunks = list(self.handle)
        yield from chunks


class Engine:
    """Continuous batching of requests over one model's decode loop and codec (see the module docstring)."""

    def __init__(self, loop, codec, *, max_active: int = 8, max_queue: int = 32, prefill_budget: Optional[int] = None):
        if max_active < 1 or max_queue < 0:
            raise ValueError("max_active must be >= 1 and max_queue >= 0")
        self.loop, self.codec = loop, codec
        self.max_active, self.max_queue = max_active, max_queue
        self.prefill_budget = prefill_budget  # None: measured as the rows run (rows.Cadence)
        self._calls = []  # (function, done event, [error]) to run on the scheduler thread
        self._lock = threading.Condition()
        self._queue: List[Job] = []  # waiting for a row
        self._active: List[Job] = []  # holding a row (or waiting for the text its prefill needs)
        self._closed = self._woken = False
        self._owner = {}  # row -> job, for the rows in the scheduler's loop (its thread only)
        self._decoding = None  # (jobs, Decoding, Carried): chunks whose audio comes with the next frame read
        self.frames_made = 0  # frames generated so far, all rows (added to once a step; read by metrics)
        self._rows = loop.rows(prefill_budget)  # the scheduler's batch (its thread only; stats reads its budget)
        self._thread = threading.Thread(target=self._run, name="mlx_qwen3tts-engine", daemon=True)
        self._thread.start()
        _open_engines.add(self)

    def submit(self, request, split: str = "auto", whole: bool = False) -> "PiecedHandle":
        """Queue `request` (a `Request` from `TTS.request`), spoken in the pieces `TTS.generate` speaks it in
        (`split` as there but "batch"; streamed text cut the same way as it comes); raises EngineFull when
        full. `whole`: the caller hands the audio out only once it is all made (a runaway is then spoken
        again, see `PiecedHandle`)."""
        return PiecedHandle(self._submit, request, split, SAMPLE_RATE, whole)

    def submit_all(self, requests, split: str = "auto", whole: bool = False) -> List["PiecedHandle"]:
        """Queue every request, or none (EngineFull) when they do not all fit beside those running and waiting."""
        with self._lock:  # reentrant: `_submit` takes it again
            free = self.max_active + self.max_queue - len(self._active) - len(self._queue)
            if len(requests) > free:
                raise EngineFull(f"the engine has room for {max(free, 0)} more requests now, not {len(requests)} "
                                 f"({self.max_active} active, {self.max_queue} queued at most); retry later")
            return [self.submit(request, split, whole) for request in requests]

    def _submit(self, request, admitted: bool = False) -> Handle:
        """Queue one piece; `admitted`: a later piece of a request the engine took (never refused as full)."""
        voice = request.voice
        # Arrays made on this thread must be evaluated here: the scheduler thread cannot.
        mx.eval([a for a in (voice.xvector, voice.ref_codes) if a is not None])
        with self._handing():
            if not admitted and len(self._active) + len(self._queue) >= self.max_active + self.max_queue:
                raise EngineFull(f"the engine is full ({self.max_active} active, {self.max_queue} queued); retry later")
            job = Job(request, self._wake)
            self._queue.append(job)
        return Handle(job)

    def warm(self):
        """Compile the loop's graphs for every batch size this engine uses (up to `max_active` rows) and
        the codec's step for every piece a stream's chunks and ICL references are cut into (each row decodes
        alone, so batch size 1 only), where every request's work runs: the first
        requests run as fast as the next (a server calls it before it says it is ready).
        Runs on the scheduler thread; blocks until done and raises what it raised."""
        done, errors = threading.Event(), []
        with self._handing():
            self._calls.append((self._warm, done, errors))
        while not done.wait(0.1):
            if not self._thread.is_alive():
                raise EngineClosed("the engine was closed")
        if errors:
            raise errors[0]

    def _warm(self):
        self.loop.warm(self.max_active)
        self.codec.decoder.warm()

    def stats(self) -> dict:
        with self._lock:
            return {"active": len(self._active), "queued": len(self._queue)}

    @property
    def prefill_budget_now(self) -> int:
        """The prompt cost units prefilled a step while rows run: `prefill_budget`, else as measured so far."""
        return round(self._rows.budget)

    def close(self):
        """Stop the scheduler; unfinished requests end with EngineClosed."""
        self._wake(close=True)
        if threading.current_thread() is not self._thread:
            self._thread.join()
        _open_engines.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextmanager
    def _handing(self):
        """The lock, held while work is handed to the scheduler (EngineClosed once the engine is closed), which is
        woken once it has been handed."""
        with self._lock:
            if self._closed:
                raise EngineClosed("the engine is closed")
            yield
        self._wake()

    def _wake(self, close: bool = False):
        """Wake the scheduler (`close`: to stop)."""
        with self._lock:
            self._closed = self._closed or close
            self._woken = True
            self._lock.notify_all()

    def _run(self):
        try:
            while not self._closed:
                self._between_steps()
                if len(self._rows):
                    self._drain()
                else:
                    self._idle()
        finally:
            with self._lock:
                jobs, self._active, self._queue = self._active + self._queue, [], []
            for job in jobs:
                job.finish(EngineClosed("the engine was closed"))
            release_thread_streams()

    def _drain(self):
        """Drive the rows until none is left, taking jobs in between steps."""
        rows = self._rows
        try:
            for frames in rows.drain(self._idle):
                self._deliver(frames, rows)
                if self._closed:
                    return
                self._between_steps()
            self._taken(rows)
        except Exception as exc:  # noqa: BLE001  (the shared step failed: every row ends with it)
            self._decoding = None
            for job in list(self._active):
                self._end(job, rows, exc)
            self._rows = self.loop.rows(self.prefill_budget)

    def _between_steps(self):
        self._run_calls()
        self._start_jobs(self._admit(), self._rows)

    def _idle(self):
        """Sleep until woken (a submit, cancel, text arrival or call) or `IDLE_WAIT_S` has passed."""
        with self._lock:
            if not self._woken and not self._closed:
                self._lock.wait(IDLE_WAIT_S)
            self._woken = False

    def _run_calls(self):
        with self._lock:
            calls, self._calls = self._calls, []
        for call, done, errors in calls:
            try:
                call()
            except Exception as exc:  # noqa: BLE001  (handed to the caller waiting on it)
                errors.append(exc)
            done.set()

    def _admit(self) -> List[Job]:
        """Move waiting jobs into free rows (dropping the cancelled ones); the active jobs."""
        with self._lock:
            dropped = [job for job in self._queue if job.cancelled.is_set()]
            self._queue = [job for job in self._queue if not job.cancelled.is_set()]
            while self._queue and len(self._active) < self.max_active:
                self._active.append(self._queue.pop(0))
            active = list(self._active)
        for job in dropped:  # cancelled while waiting for a row: its place is free now
            job.finish()
        return active

    def _start_jobs(self, active: List[Job], rows: Rows):
        """End the cancelled jobs; add the rows of jobs whose prefill text is there."""
        starting = []  # jobs whose rows join in this pass
        for job in active:
            if job.cancelled.is_set():
                self._end(job, rows)
            elif job.row is None:
                try:
                    self._start(job, rows, starting)
                except Exception as exc:  # noqa: BLE001  (this request alone ends with it)
                    self._end(job, rows, exc)
        if starting:
            try:
                rows.add(*[job.row for job in starting])
                self._owner.update((job.row, job) for job in starting)
            except Exception as exc:  # noqa: BLE001  (the shared prefill failed: those requests end with it)
                for job in starting:
                    self._end(job, rows, exc)

    def _deliver(self, frames: list, rows: Rows):
        """Hand the frames of a step to their jobs' decoders, decode the due chunks, end the ended jobs."""
        self.frames_made += len(frames)
        self._taken(rows)
        for job in [j for j in self._active if j.cancelled.is_set()]:
            self._end(job, rows)  # cancelled during the step: freed now, not after the decoding
        due = []  # jobs with a chunk to decode: all decoded together
        for row, codes in frames:  # row.done here: this was its last frame (its limit)
            job = self._owner.get(row)
            if job is None or job.cancelled.is_set():
                continue  # cancelled: nothing more is read
            job.runaway = row.runaway  # before its last chunk goes out
            if job.chunks.add(codes, last=row.done):
                due.append(job)
        ended = [job for job in self._active if job.row is not None and job.row.done and not job.cancelled.is_set()]
        due += [job for job in ended if job not in due and job.chunks.end()]
        first = [job for job in due if job.chunks.index == 0]
        if first and len(first) < len(due):  # a first audio waits for no other stream's codec step
            self._emit(first, rows, carry=False)
            due = [job for job in due if job not in first]
        self._emit(due, rows, carry=not any(job in ended for job in due))
        for job in ended:
            self._end(job, rows, job.row.error)

    def _start(self, job: Job, rows: Rows, starting: list):
        """Make the job's row once the text its prefill needs is there (it joins `starting`)."""
        request = job.request
        if job.chunks is None:
            job.chunks = ChunkDecoder(self.codec, SAMPLE_RATE, request.first_chunk_frames,
                                      request.chunk_frames, request.voice.ref_codes, job.submitted)
            if request.deltas is not None:
                feed = feed_from(request.deltas)
                feed.on_arrival(self._wake)
                job.text = self.loop.text(replace(request, deltas=feed))
        row = self.loop.row(request, job.text, wait=False)
        if row is None:
            if job.text is not None and job.text.finished:  # the text ended empty: nothing to say
                self._end(job, rows)
            return
        row.hold = job.behind
        job.row = row
        starting.append(job)

    def _emit(self, jobs: List[Job], rows: Rows, carry: bool):
        """Decode the due chunks of `jobs` (batched across them) and hand each its chunk: at the next frame read,
        with which their audio then comes (`carry`; Metal/CUDA, the device decoding beside that frame), or now."""
        if not jobs:
            return

        def started():
            decoding = start_chunks([job.chunks for job in jobs])
            carried = rows.carry(decoding.arrays) if carry else None
            if carried is None:
                return decoding.take()
            self._decoding = jobs, decoding, carried
            return None

        self._hand_decoded(jobs, rows, started)

    def _taken(self, rows: Rows):
        """Hand out the chunks whose audio came with this step's frame read (`_emit`)."""
        if self._decoding is None:
            return
        (jobs, decoding, carried), self._decoding = self._decoding, None
        self._hand_decoded(jobs, rows, lambda: decoding.take(carried.get()))

    def _hand_decoded(self, jobs: List[Job], rows: Rows, decode):
        """Hand `jobs` the chunks `decode()` gives (None: none yet); where the shared codec step fails, those requests
        end with its error."""
        try:
            chunks = decode()
        except Exception as exc:  # noqa: BLE001  (the shared codec step failed: those requests end with it)
            for job in jobs:
                self._end(job, rows, exc)
            return
        if chunks is not None:
            self._hand(jobs, chunks)

    @staticmethod
    def _hand(jobs: List[Job], chunks: List[AudioChunk]):
        for job, chunk in zip(jobs, chunks):
            if not job.cancelled.is_set():
                job.out.put(chunk)

    def _end(self, job: Job, rows: Optional[Rows], error: Optional[BaseException] = None):
        if job.row is not None and rows is not None:
            rows.remove(job.row)
        self._owner.pop(job.row, None)
        job.finish(error)
        with self._lock:
            if job in self._active:
                self._active.remove(job)
