"""Live playback of streamed audio through sounddevice (PortAudio).

Chunks are queued as they arrive. Playback starts at once when generation runs faster than real
time; when it is slower (speed r < 1, audio seconds per second), a buffer of D * (1 - r) seconds
for an expected duration D is exactly what keeps the played audio from overtaking the generated
audio, so that is what is waited for (with a margin); without an estimate of D, `prebuffer_s`.
"""

import threading
import time
from collections import deque
from typing import Optional

import numpy as np

from ..errors import Qwen3TTSError


class PlaybackError(Qwen3TTSError):
    """Nothing to play through; the message says what to install or connect (a front end adds its own
    alternatives, such as writing a file)."""


def _sounddevice():
    try:
        import sounddevice
    except OSError as e:  # PortAudio library missing
        raise PlaybackError(f"playback needs the PortAudio library ({e}); install it "
                            "(e.g. apt install libportaudio2)") from None
    return sounddevice


def output_device_problem(device=None) -> Optional[str]:
    """Why nothing can be played (no PortAudio, no output device), or None when something can."""
    try:
        sd = _sounddevice()
    except PlaybackError as e:
        return str(e)
    try:
        sd.query_devices(device, kind="output")
    except Exception as e:  # PortAudioError, ValueError: no (default) output device
        return f"no audio output device ({e}); connect or enable one (check `python -m sounddevice`)"
    return None


def check_output_device(device=None):
    """Raise PlaybackError, saying what to do, when there is nothing to play through."""
    problem = output_device_problem(device)
    if problem is not None:
        raise PlaybackError(problem)


class Player:
    """Feeds a PortAudio output stream from a queue of float32 chunks."""

    def __init__(self, sample_rate: int, prebuffer_s: float = 3.0, fast_enough: float = 1.1, device=None,
                 expected_s: float = None):
        sd = _sounddevice()
        self.sample_rate, self.prebuffer_s, self.fast_enough = sample_rate, prebuffer_s, fast_enough
        self.expected_s, self.queue, self.lock = expected_s, deque(), threading.Lock()
        self.finished, self.drained = threading.Event(), threading.Event()
        self.started_at, self.generated_s, self.buffered, self.playing = time.perf_counter(), 0.0, 0, False
        try:
            self.stream = sd.OutputStream(samplerate=sample_rate, channels=1, dtype="float32",
                                          callback=self._callback, device=device)
        except Exception as e:  # PortAudioError and friends
            raise PlaybackError(f"cannot open an audio output device ({e}); check "
                                "`python -m sounddevice`") from None

    def _callback(self, out, frames, time_info, status):
        filled = 0
        with self.lock:
            while filled < frames and self.queue:
                chunk = self.queue[0]
                n = min(frames - filled, chunk.shape[0])
                out[filled : filled + n, 0] = chunk[:n]
                filled += n
                if n == chunk.shape[0]:
                    self.queue.popleft()
                else:
                    self.queue[0] = chunk[n:]
            self.buffered -= filled
        if filled < frames:
            out[filled:, 0] = 0.0
            if self.finished.is_set():
                self.drained.set()

    def add(self, samples: np.ndarray):
        samples = np.asarray(samples, dtype=np.float32)
        with self.lock:
            self.queue.append(samples)
            self.buffered += samples.shape[0]
        self.generated_s += samples.shape[0] / self.sample_rate
        if not self.playing:
            elapsed = time.perf_counter() - self.started_at
            speed = self.generated_s / max(elapsed, 1e-9)
            if speed >= self.fast_enough or self.buffered / self.sample_rate >= self.needed(speed):
                self._start()

    def needed(self, speed: float) -> float:
        """Seconds to buffer before playing so that a generator at `speed` never runs dry."""
        if self.expected_s is None:
            return self.prebuffer_s
        return 1.15 * self.expected_s * max(0.0, 1.0 - speed)

    def _start(self):
        self.stream.start()
        self.playing = True

    def close(self, wait: bool = True):
        """Play what is queued (unless wait=False), then release the device."""
        self.finished.set()
        try:
            if wait and (self.buffered > 0 or self.playing):
                if not self.playing:
                    self._start()
                self.drained.wait(timeout=self.buffered / self.sample_rate + 2.0)
        finally:
            if self.playing:
                self.stream.stop()
            self.stream.close()
