"""AAC (ADTS) output through PyAV: whole and streamed, judged by decoding it again (FFmpeg's AAC
decoder through PyAV; libsndfile cannot read AAC) and by physics — a sine's pitch and level
survive. Also the CLI's .aac output and the message when PyAV is missing.

An ADTS file cannot tell the decoder to drop the encoder's priming, so a decoded file of n
samples holds 1024 samples of priming silence, then the n samples, then padding to a whole
1024-sample frame: n + 1024 <= decoded < n + 2048 (one AAC frame of tolerance, 43 ms).
"""

import io
import os
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from fixture_checkpoints import checkpoint_dir
from mlx_qwen3tts.audio import formats as audio_formats
from mlx_qwen3tts.errors import InputError

av = pytest.importorskip("av")

SR = 24000
AAC_FRAME = 1024
PRIMING = 1024


def decode(data: bytes):
    with av.open(io.BytesIO(data), format="aac") as container:
        rate = container.streams.audio[0].rate
        frames = [frame.to_ndarray() for frame in container.decode(audio=0)]
    return np.concatenate(frames, axis=1)[0], rate


def sine(freq: float, n: int, amplitude: float = 0.5) -> np.ndarray:
    return (amplitude * np.sin(2 * np.pi * freq * np.arange(n) / SR)).astype(np.float32)


def adts_frame_lengths(data: bytes) -> list:
    """The frame lengths of an ADTS stream; fails unless it is whole frames end to end."""
    lengths, pos = [], 0
    while pos < len(data):
        header = data[pos:pos + 7]
        assert len(header) == 7 and header[0] == 0xFF and header[1] & 0xF0 == 0xF0, f"no ADTS sync at {pos}"
        length = ((header[3] & 0x03) << 11) | (header[4] << 3) | (header[5] >> 5)
        assert length >= 7 and pos + length <= len(data), f"frame at {pos} runs past the data"
        lengths.append(length)
        pos += length
    return lengths


def peak_hz(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.argmax(spectrum)) * SR / len(samples)


@pytest.mark.parametrize("n", [SR, 19200, 1000, 5])
def test_whole_aac_decodes_to_its_duration(n):
    data = audio_formats.encode(sine(440, n), SR, "aac")
    adts_frame_lengths(data)
    audio, rate = decode(data)
    assert rate == SR
    assert n + PRIMING <= len(audio) < n + PRIMING + AAC_FRAME


@pytest.mark.parametrize("freq", [300.0, 1000.0, 3000.0])
def test_a_sine_keeps_its_pitch_and_level(freq):
    n = SR
    audio, _ = decode(audio_formats.encode(sine(freq, n, 0.5), SR, "aac"))
    body = audio[PRIMING + 2000:PRIMING + n - 2000]  # away from the edges' transients
    assert abs(peak_hz(body) - freq) <= 2 * SR / len(body)
    rms = float(np.sqrt(np.mean(body ** 2)))
    assert abs(rms - 0.5 / np.sqrt(2)) <= 0.05 * 0.5 / np.sqrt(2)


def test_silence_stays_silent_and_a_loud_sine_is_not_silent():
    quiet, _ = decode(audio_formats.encode(np.zeros(SR // 2, np.float32), SR, "aac"))
    loud, _ = decode(audio_formats.encode(sine(440, SR // 2, 0.9), SR, "aac"))
    assert np.abs(quiet).max() < 1e-3 and np.abs(loud).max() > 0.8


@pytest.mark.parametrize("chunk", [1920, 1777, 333])
def test_streamed_aac_comes_as_whole_frames_and_decodes_like_the_whole_file(chunk):
    samples = sine(440, 2 * SR) * np.linspace(0.2, 1.0, 2 * SR, dtype=np.float32)
    encoder = audio_formats.StreamEncoder("aac", SR)
    pieces = [encoder.write(samples[i:i + chunk]) for i in range(0, len(samples), chunk)]
    before_close = sum(len(p) for p in pieces)
    pieces.append(encoder.close())
    # Frames go out as they are ready (the encoder looks ahead about two frames), each write
    # a run of whole ADTS frames, so any prefix of the stream decodes.
    assert before_close > 0.8 * sum(len(p) for p in pieces)
    for piece in pieces:
        adts_frame_lengths(piece)
    streamed, _ = decode(b"".join(pieces))
    whole, _ = decode(audio_formats.encode(samples, SR, "aac"))
    assert streamed.shape == whole.shape
    assert np.abs(streamed - whole).max() <= 1e-4
    assert encoder.close() == b""


def test_a_prefix_of_the_stream_decodes():
    encoder = audio_formats.StreamEncoder("aac", SR)
    first = b"".join(encoder.write(sine(440, 1920)) for _ in range(5))
    audio, rate = decode(first)
    assert rate == SR and len(audio) >= 3 * AAC_FRAME and len(audio) % AAC_FRAME == 0


def test_without_pyav_aac_says_how_to_get_it(monkeypatch, tmp_path):
    from mlx_qwen3tts.server.params import check_format, offered_formats
    from mlx_qwen3tts.server.limits import ApiError

    assert "aac" in offered_formats()
    monkeypatch.setitem(sys.modules, "av", None)  # `import av` now raises ImportError
    with pytest.raises(InputError, match=r"pip install av \(the server extra brings it\)"):
        audio_formats.encode(sine(440, 100), SR, "aac")
    with pytest.raises(InputError, match="PyAV"):
        audio_formats.format_for_path(tmp_path / "x.aac")
    assert offered_formats() == ["mp3", "opus", "flac", "wav", "pcm"]
    with pytest.raises(ApiError, match="not offered by this server; choose one of mp3, opus, flac, wav, pcm"):
        check_format("aac")
    assert audio_formats.encode(sine(440, 100), SR, "flac")  # the others still work
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def cv_model(tmp_path_factory):
    return checkpoint_dir("custom_voice-0b6", tmp_path_factory.getbasetemp())


@pytest.mark.parametrize("extra", [[], ["--stream"]], ids=["whole", "stream"])
def test_cli_writes_aac_for_an_aac_name(cv_model, tmp_path, extra):
    from mlx_qwen3tts.cli.generate import main

    out = tmp_path / "o.aac"
    result = CliRunner().invoke(main, ["--model", str(cv_model), "--text", "Hello", "--output", str(out),
                                       "--max-tokens", "3", "--temperature", "0", "--quiet", *extra])
    assert result.exit_code == 0, result.output
    adts_frame_lengths(out.read_bytes())
    audio, rate = decode(out.read_bytes())
    n = 3 * 1920
    assert rate == SR and n + PRIMING <= len(audio) < n + PRIMING + AAC_FRAME
    assert os.listdir(tmp_path) == ["o.aac"]


def test_cli_streams_aac_to_stdout(cv_model):
    from mlx_qwen3tts.cli.generate import main

    result = CliRunner().invoke(main, ["--model", str(cv_model), "--text", "Hello", "--output", "-", "--format",
                                       "aac", "--stream", "--max-tokens", "3", "--temperature", "0", "--quiet"])
    assert result.exit_code == 0, result.stderr
    audio, rate = decode(result.stdout_bytes)
    assert rate == SR and 3 * 1920 + PRIMING <= len(audio) < 3 * 1920 + PRIMING + AAC_FRAME
