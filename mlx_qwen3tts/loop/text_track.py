"""Text tracks: the text-track vector the decode loop adds to each frame's input.

`ArrayTextTrack` serves a text known whole (the prompt's trailing vectors); `LiveTextTrack` one
that arrives as deltas (`TextFeed`), tokenized incrementally: the streaming text layout consumes one
text token per generated frame, so the loop waits when the next token has not arrived yet.
"""

import queue
import threading
from typing import Iterable, Iterator, List, Optional, Protocol, Tuple

import mlx.core as mx

from ..errors import InputError
from ..tokenizer import ASSISTANT, TARGET_SUFFIX


class TextTrack(Protocol):
    """The text-track vector added to each generated frame's talker input, by frame index."""

    def ready(self, step: int) -> bool:
        """Whether frame `step`'s vector is known without waiting for text still being written."""

    def wait(self, step: int) -> None:
        """Block until frame `step`'s vector is known."""

    def __call__(self, step: int) -> mx.array:
        """Frame `step`'s vector (H,)."""


class ArrayTextTrack:
    """A text known whole: `trailing[t]` (the prompt's text vectors past its prefill) while it lasts, then
    the pad vector."""

    def __init__(self, prompt):
        self.trailing, self.pad = prompt.trailing, prompt.pad

    def ready(self, step: int) -> bool:
        return True

    def wait(self, step: int) -> None:
        pass

    def __call__(self, step: int) -> mx.array:
        return self.trailing[step] if step < self.trailing.shape[0] else self.pad


_END = object()


class TextFeed:
    """Text deltas pushed by one thread (`append`, then `end` or `fail`), read by another.

    Iterating blocks until the next delta; `poll()` takes what has arrived without waiting.
    """

    def __init__(self):
        self._queue, self._done, self._listeners = queue.SimpleQueue(), False, []

    def append(self, text: str):
        if not isinstance(text, str):
            raise InputError(f"text deltas must be str, got {type(text).__name__}")
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
        """Call `listener()` (no arguments, any thread) whenever something is pushed."""
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
        while not self._done and not self._queue.empty():  # one reader: what it saw stays there
            text = self._take(self._queue.get_nowait())
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
        except BaseException as exc:  # noqa: BLE001  (handed to the reader: the request that owns the text)
            feed.fail(exc)
        else:
            feed.end()

    threading.Thread(target=pump, name="mlx_qwen3tts-text-feed", daemon=True).start()
    return feed


class LiveText:
    """Text that arrives as deltas, tokenized incrementally: the role header, the body as it comes, then
    the suffix once it has ended. The tokenizer never emits a token that later text could change, so the
    ids equal those of the whole text tokenized at once, whatever the delta boundaries."""

    def __init__(self, tokenizer, deltas: Iterable[str]):
        self.incremental = tokenizer.incremental()
        self.source = deltas  # a TextFeed can be read without waiting (`has`)
        self.deltas = iter(deltas)
        self.ids = list(self.incremental.feed(ASSISTANT))  # role header, body, then suffix once finished
        self.finished = False
        self.role_len, self.suffix_len = len(tokenizer.encode(ASSISTANT)), len(tokenizer.encode(TARGET_SUFFIX))

    def _add(self, delta: Optional[str]):
        """Tokenize one more delta; None: the text has ended (the suffix follows)."""
        if delta is None:
            self.ids += self.incremental.feed(TARGET_SUFFIX) + self.incremental.finish()
            self.finished = True
        else:
            self.ids += self.incremental.feed(delta)

    def _poll(self):
        """Take what a TextFeed has received, without waiting."""
        if not self.finished and isinstance(self.source, TextFeed):
            deltas, ended = self.source.poll()
            for delta in deltas:
                self._add(delta)
            if ended:
                self._add(None)

    def has(self, count: int) -> bool:
        """Whether `count` body ids (or the whole text) are known without waiting for the writer."""
        if len(self.body()) < count:
            self._poll()
        return self.finished or len(self.body()) >= count

    def role(self) -> tuple:
        return tuple(self.ids[: self.role_len])

    def body(self) -> list:
        return self.ids[self.role_len : len(self.ids) - self.suffix_len if self.finished else len(self.ids)]

    def wait_for(self, count: int) -> list:
        """Body ids once `count` of them exist or the input has ended (reading deltas, blocking)."""
        while len(self.body()) < count and not self.finished:
            self._add(next(self.deltas, None))
        return self.body()

    def close(self):
        getattr(self.deltas, "close", lambda: None)()


def live_share(voice) -> Tuple[int, List[int]]:
    """(body ids the prefill takes, ids read before the body) of a streamed-in text with `voice`. Without
    in-context cloning the prefill takes the body's first id; with it the prefill overlays text on every
    reference frame: the reference transcript's ids first, then as many body ids as frames are left (maybe
    none), and the transcript's ids it had no room for go before the body on the generated frames."""
    if voice.ref_codes is None:
        return 1, []
    ref_text, n_audio = list(voice.ref_text_ids), voice.ref_codes.shape[0] + 1
    return max(n_audio - len(ref_text), 0), ref_text[n_audio:]


class LiveTextTrack:
    """Text-track vectors of the streaming layout from a `LiveText`: the ids after what the prefill took
    (`live_share`), one a frame, then tts_eos, then tts_pad; a frame whose id has not arrived waits.

    voice: the request's voice (its in-context share); embed: ids -> (n, H) text vectors; eos, pad: the
    tts_eos and tts_pad vectors.
    """

    def __init__(self, text: LiveText, voice, embed, eos: mx.array, pad: mx.array):
        self.text, self.embed, self.eos, self.pad = text, embed, eos, pad
        self.offset, self.lead = live_share(voice)

    def _needed(self, step: int) -> int:
        return self.offset + step + 1 - len(self.lead)

    def ready(self, step: int) -> bool:
        return self.text.has(self._needed(step))

    def wait(self, step: int) -> None:
        self.text.wait_for(self._needed(step))

    def __call__(self, step: int) -> mx.array:
        i = self.offset + step
        seq = self.lead + self.text.wait_for(self._needed(step))
        if i < len(seq):
            return self.embed([seq[i]])[0]
        return self.eos if i == len(seq) else self.pad
