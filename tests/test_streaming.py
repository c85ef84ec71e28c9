"""Streaming: audio chunks equal to the one-shot decode, text deltas equal to the whole text."""

import io
import os
import random
import subprocess
import sys
import time

import numpy as np
import pytest

from mlx_qwen3tts.errors import InputError
from mlx_qwen3tts.request import sampling_settings
from mlx_qwen3tts.cli.text_input import stdin_deltas

TEXT = "Well, here's a test: streaming 24 words, mid-word splits & émojis 🙂 — 你好，世界！"


CHECKPOINT = "custom_voice-1b7"  # the conftest `tts` fixture loads it


@pytest.fixture(scope="module")
def greedy(tts):
    return sampling_settings(tts.sampling, temperature=0)


@pytest.fixture(scope="module")
def whole(tts, greedy):
    return tts.generate(TEXT, speaker="vivian", normalize=False, text_mode="streaming", sampling=greedy, max_tokens=26)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 25])
def test_stream_equals_one_shot(tts, greedy, whole, chunk):
    chunks = list(tts.stream(TEXT, chunk_frames=chunk, speaker="vivian", normalize=False, text_mode="streaming", sampling=greedy,
                             max_tokens=26))
    assert chunks[0].frames == 1 and chunks[0].index == 0
    assert [c.is_final for c in chunks] == [False] * (len(chunks) - 1) + [True]
    assert all(c.frames <= chunk for c in chunks[1:]) and sum(c.frames for c in chunks) == whole.codes.shape[0]
    audio = np.concatenate([c.samples for c in chunks])
    assert audio.shape == whole.audio.shape
    assert np.abs(audio - whole.audio).max() <= 1e-4


def test_later_chunks_grow_unless_a_size_is_given(tts, greedy):
    """First audio after one frame, then chunks of 2, 4, 8 and 16 frames (the codec's cost a frame falls with a
    chunk's length); `chunk_frames` fixes them, `first_chunk_frames` moves the start; the audio is the same."""
    kw = dict(speaker="vivian", normalize=False, sampling=greedy, max_tokens=60)
    whole = tts.generate(TEXT, **kw)
    n = whole.codes.shape[0]
    assert n > 1 + 2 + 4 + 8 + 16  # a chunk at the longest length
    for first, later, sizes in [(1, None, [1, 2, 4, 8] + [16] * 4), (3, None, [3, 6, 12] + [16] * 4),
                                (1, 4, [1] + [4] * 15)]:
        chunks = list(tts.stream(TEXT, first_chunk_frames=first, chunk_frames=later, **kw))
        want, left = [], n
        for size in sizes:
            want.append(min(size, left))
            left -= want[-1]
        assert [c.frames for c in chunks] == [w for w in want if w], (first, later)
        assert np.abs(np.concatenate([c.samples for c in chunks]) - whole.audio).max() <= 1e-4


def test_first_chunk_size_is_configurable(tts, greedy):
    chunks = list(tts.stream("Short one.", first_chunk_frames=3, chunk_frames=2, speaker="ryan", sampling=greedy,
                             max_tokens=7))
    assert [c.frames for c in chunks] == [3, 2, 2]
    assert chunks[0].timings["ready"] >= chunks[0].timings["first_frame"] > 0


def test_a_chunk_goes_out_before_the_next_frame_is_made(tts, greedy):
    """Each chunk is handed over once its own frames are in, not when the frame after it comes
    (that would add a frame-time to every chunk); the end is marked on the last chunk."""
    from mlx_qwen3tts.audio.chunks import ChunkDecoder, stream_audio

    pulled = []

    def counted(frames):
        for frame in frames:
            pulled.append(frame)
            yield frame

    request = tts.request("Short one.", speaker="ryan", sampling=greedy, max_tokens=7)
    chunks = []
    for chunk in stream_audio(tts.codec, counted(tts.request_frames(request)), tts.sample_rate,
                              first_chunk_frames=1, chunk_frames=2):
        assert len(pulled) == sum(c.frames for c in chunks) + chunk.frames  # no frame read ahead
        chunks.append(chunk)
    assert [c.frames for c in chunks] == [1, 2, 2, 2] and [c.is_final for c in chunks] == [False] * 3 + [True]
    # At EOS the end is known only after the last frame: an empty chunk then marks it.
    decoder = ChunkDecoder(tts.codec, tts.sample_rate, 1, 2)
    assert [decoder.push(c) is not None for c in chunks[0].codes.tolist() + chunks[1].codes.tolist()] == [True, False, True]
    end = decoder.finish()
    assert end.is_final and end.frames == 0 and end.samples.shape == (0,) and end.codes.shape == (0, 16)
    assert decoder.finish() is None


def splits(text, rng):
    """Single characters, random cut points, and word-ish chunks."""
    yield list(text)
    for _ in range(3):
        cuts = sorted(rng.sample(range(1, len(text)), rng.randint(2, 12)))
        yield [text[i:j] for i, j in zip([0] + cuts, cuts + [len(text)])]
    yield [text[i : i + 9] for i in range(0, len(text), 9)]


def codes_of(frames):
    return np.concatenate([np.array(f.codes) for f in frames]) if frames else np.zeros((0, 16), np.int32)


def test_text_deltas_equal_whole_text(tts, greedy, whole):
    rng = random.Random(1234)
    for parts in splits(TEXT, rng):
        assert "".join(parts) == TEXT
        frames = list(tts.text_frames(iter(parts), speaker="vivian", normalize=False, sampling=greedy, max_tokens=26))
        np.testing.assert_array_equal(codes_of(frames), whole.codes)


def test_stalled_producer_neither_repeats_nor_invents(tts, greedy, whole):
    def slow():
        for piece in ("Well, here's a te", "st: streaming 24 words, mid-word splits & ", "émojis 🙂 — 你好，世界！"):
            time.sleep(0.2)
            yield piece

    frames = list(tts.text_frames(slow(), speaker="vivian", normalize=False, sampling=greedy, max_tokens=26))
    np.testing.assert_array_equal(codes_of(frames), whole.codes)


def test_text_stream_audio_equals_whole(tts, greedy, whole):
    chunks = list(tts.stream_text(iter(TEXT.split(" ")[:1] + [" " + w for w in TEXT.split(" ")[1:]]),
                                  speaker="vivian", normalize=False, sampling=greedy, max_tokens=26, chunk_frames=5))
    audio = np.concatenate([c.samples for c in chunks])
    assert np.abs(audio - whole.audio).max() <= 1e-4


def test_text_that_ends_without_anything_to_say_is_an_error(tts, greedy):
    """Raised by the first pull that finds the text over (nothing was generated); the model stays usable."""
    for deltas in ([], ["", ""], ["  ", "\x07\n"]):
        for call in (tts.text_frames, tts.stream_text):
            with pytest.raises(InputError, match="deltas is empty") as error:
                next(iter(call(iter(deltas), speaker="vivian", normalize=False, sampling=greedy)))
            assert error.value.field == "deltas" and error.value.code == "empty_input"
    assert len(list(tts.text_frames(iter(["Hi."]), speaker="vivian", normalize=False, sampling=greedy, max_tokens=2))) == 2


def test_producer_exception_surfaces(tts, greedy):
    def broken():
        yield "Hello there, "
        yield "this is "
        raise RuntimeError("the LLM fell over")

    with pytest.raises(RuntimeError, match="the LLM fell over"):
        list(tts.text_frames(broken(), speaker="vivian", normalize=False, sampling=greedy, max_tokens=40))


def test_consumer_stopping_early_closes_the_producer(tts, greedy):
    closed = []

    def producer():
        try:
            for word in ("One ", "two ", "three ", "four ", "five ", "six ", "seven ", "eight."):
                yield word
        finally:
            closed.append(True)

    chunks = tts.stream_text(producer(), speaker="vivian", normalize=False, sampling=greedy, max_tokens=30)
    first = next(chunks)
    assert first.index == 0
    chunks.close()
    assert closed == [True]


def test_stdin_deltas_decode_split_utf8():
    data = TEXT.encode("utf-8")

    class Trickle(io.RawIOBase):
        def __init__(self):
            self.pos = 0

        def readable(self):
            return True

        def read(self, n=-1):
            chunk = data[self.pos : self.pos + 3]  # cuts through multi-byte characters
            self.pos += len(chunk)
            return chunk

    pieces = list(stdin_deltas(Trickle(), size=3))
    assert "".join(pieces) == TEXT and len(pieces) > 10


def test_cli_text_stream_from_stdin(tts, greedy, whole, tmp_path):
    out = tmp_path / "s.wav"
    proc = subprocess.run(
        [sys.executable, "-m", "mlx_qwen3tts.generate", "--model", str(tts.path), "--text-stream", "--speaker",
         "vivian", "--temperature", "0", "--max-tokens", "26", "--output", str(out), "--dtype", "float32",
         "--no-normalize"],
        input=TEXT.encode(), capture_output=True,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"first audio after" in proc.stderr
    import soundfile as sf

    audio, rate = sf.read(out, dtype="float32")
    assert rate == 24000 and np.abs(audio - whole.audio).max() <= 1e-4


def _portaudio():
    try:
        import sounddevice  # noqa: F401
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _portaudio(), reason="PortAudio is not installed (.ci/run installs libportaudio2)")
def test_play_through_a_real_portaudio_stream(tts, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text("pcm.!default {\n    type null\n}\n")  # ALSA's null device
    proc = subprocess.run(
        [sys.executable, "-m", "mlx_qwen3tts.generate", "--model", str(tts.path), "--text", "Play this.",
         "--speaker", "ryan", "--temperature", "0", "--max-tokens", "5", "--play", "--output",
         str(tmp_path / "p.wav")],
        capture_output=True, env={**os.environ, "HOME": str(home)}, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert (tmp_path / "p.wav").exists()


def test_playback_buffer_rule():
    """Generated audio B + r t must stay ahead of played audio t until generation ends: B >= D (1 - r)."""
    from mlx_qwen3tts.audio.playback import Player

    class Bare(Player):
        def __init__(self, expected_s):  # no device: only the buffering rule
            self.expected_s, self.prebuffer_s = expected_s, 3.0

    for speed in (0.25, 0.5, 0.9):
        need = Bare(10.0).needed(speed)
        buffered, generated_at_end = need, 10.0
        t_end = (generated_at_end - buffered) / speed  # when generation finishes after playback starts
        assert buffered + speed * t_end >= t_end  # never overtaken
        assert need <= 1.2 * 10.0 * (1 - speed)  # and not much more than needed
    assert Bare(10.0).needed(1.5) == 0.0
    assert Bare(None).needed(0.5) == 3.0
