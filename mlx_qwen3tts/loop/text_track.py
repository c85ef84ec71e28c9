"""Text tracks: the text-track vector the decode loop adds to each frame's input.

`ArrayTextTrack` serves a text known whole (the prompt's trailing vectors); `LiveTextTrack` one
that arrives as deltas (`TextFeed`), tokenized incrementally: the streaming text layout consumes one
text token per generated frame, so the loop waits when the next token has not arrived yet.
"""

import queue
import threading
from typing import Iterable, Iterator, Optional

from ..errors import InputError
from ..tokenizer import ASSISTANT, TARGET_SUFFIX


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


class LiveTextTrack:
    """Text vectors for the streaming layout, tokenized incrementally from text deltas.

    Body token i+1 goes with generated frame i; after the body comes tts_eos, then tts_pad. The
    tokenizer never emits a token that later text could change, so the ids equal those of the
    whole text tokenized at once, whatever the delta boundaries.
    """

    def __init__(self, tokenizer, deltas: Iterable[str], embed):
        self.incremental = tokenizer.incremental()
        self.source = deltas  # a TextFeed can be read without waiting (`ready`)
        self.deltas = iter(deltas)
        self.embed = embed  # ids -> (n, H) text-track vectors
        self.ids = list(self.incremental.feed(ASSISTANT))  # role header, body, then suffix once finished
        self.finished = False
        self.role_len, self.suffix_len = len(tokenizer.encode(ASSISTANT)), len(tokenizer.encode(TARGET_SUFFIX))
        # Set by `DecodeLoop.row` with the prompt: the tokens of lead + body the prefill consumed, the ids read before
        # the body (ICL reference text the prefill had no room for), the tts_eos and tts_pad vectors.
        self.offset, self.lead, self.eos, self.pad = 1, [], None, None

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

    def ready(self, step: int) -> bool:
        """Whether frame `step`'s text vector is known without waiting for the writer."""
        return self.has(self.offset + step + 1 - len(self.lead))

    def wait(self, step: int):
        """Block until frame `step`'s text vector is known."""
        self.wait_for(self.offset + step + 1 - len(self.lead))

    def role(self) -> tuple:
        return tuple(self.ids[: self.role_len])

    def body(self):
        return self.ids[self.role_len : len(self.ids) - self.suffix_len if self.finished else len(self.ids)]

    def wait_for(self, count: int) -> list:
        """Body ids once `count` of them exist or the input has ended (reading deltas, blocking)."""
        while len(self.body()) < count and not self.finished:
            self._add(next(self.deltas, None))
        return self.body()

    def close(self):
        getattr(self.deltas, "close", lambda: None)()

    def __call__(self, step: int):
        i = self.offset + step
        seq = self.lead + self.wait_for(i + 1 - len(self.lead))
        if i < len(seq):
            return self.embed([seq[i]])[0]
        return self.eos if i == len(seq) else self.pad
