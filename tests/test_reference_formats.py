"""Reference audio as phones and Macs record it (M4A with AAC or ALAC, ADTS AAC), read through
PyAV; long references cut to what cloning uses. Test files are made here, with PyAV, from a sine."""

import re
import sys
import warnings

import numpy as np
import pytest
import soundfile as sf

from fixture_checkpoints import checkpoint_dir
from mlx_qwen3tts.audio.reference import ReferenceAudioError, load_reference_audio

av = pytest.importorskip("av")

RATE = 44100  # what a phone or a Mac records at
SECONDS = 2.0
FREQUENCY = 440.0
REFERENCE_SECONDS = 30  # what cloning uses of a longer reference, as the README states


def sine(seconds=SECONDS, rate=RATE, channels=2):
    t = np.arange(int(seconds * rate)) / rate
    y = (0.4 * np.sin(2 * np.pi * FREQUENCY * t)).astype(np.float32)
    return np.stack([y] * channels, axis=1)  # (samples, channels)


def encode(path, codec, container=None, seconds=SECONDS, rate=RATE):
    """The sine, stereo, encoded by FFmpeg (through PyAV) as `codec` in `container` (default: by name)."""
    samples = sine(seconds, rate)
    layout = "stereo"
    with av.open(str(path), "w", format=container) as out:
        stream = out.add_stream(codec, rate=rate, layout=layout)
        fmt = stream.codec_context.codec.audio_formats[0].name  # the encoder's own sample format
        resampler = av.AudioResampler(format=fmt, layout=layout, rate=rate)
        for start in range(0, samples.shape[0], 4096):
            block = np.ascontiguousarray(samples[start:start + 4096].T)  # (channels, n) planar float
            frame = av.AudioFrame.from_ndarray(block, format="fltp", layout=layout)
            frame.sample_rate = rate
            for resampled in resampler.resample(frame):
                out.mux(stream.encode(resampled))
        for resampled in resampler.resample(None):
            out.mux(stream.encode(resampled))
        out.mux(stream.encode(None))
    return samples


def peak_hz(audio, rate=24000):
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(audio.shape[0])))
    return np.fft.rfftfreq(audio.shape[0], 1 / rate)[np.argmax(spectrum)]


def test_alac_in_m4a_is_read_losslessly(tmp_path):
    path = tmp_path / "memo.m4a"
    samples = encode(path, "alac")
    audio = load_reference_audio(path)
    # ALAC is lossless over 16-bit PCM: the same samples as the array, to 16-bit rounding.
    expected = load_reference_audio((samples, RATE))
    assert audio.shape == expected.shape
    np.testing.assert_allclose(audio, expected, rtol=0, atol=1e-4)


@pytest.mark.parametrize("name, container", [("memo.m4a", None), ("memo.aac", "adts"), ("memo.mp4", None)])
def test_aac_is_read(tmp_path, name, container):
    path = tmp_path / name
    encode(path, "aac", container)
    audio = load_reference_audio(path)
    # Lossy, with encoder priming: the length within a few AAC frames, the tone where it was.
    assert abs(audio.shape[0] / 24000 - SECONDS) < 0.1
    assert peak_hz(audio) == pytest.approx(FREQUENCY, abs=2)


def test_without_pyav_a_compressed_file_says_how_to_read_it(tmp_path, monkeypatch):
    path = tmp_path / "memo.m4a"
    encode(path, "aac")
    monkeypatch.setitem(sys.modules, "av", None)  # import av now raises ImportError
    with pytest.raises(ReferenceAudioError) as caught:
        load_reference_audio(path)
    message = str(caught.value)
    assert "pip install av" in message and "WAV, FLAC, OGG/Opus and MP3" in message
    assert "numpy" not in message and "\n" not in message


def test_an_unreadable_file_lists_what_is_accepted(tmp_path):
    path = tmp_path / "notes.m4a"
    path.write_bytes(b"not audio at all " * 100)
    with pytest.raises(ReferenceAudioError, match="M4A/AAC/ALAC") as caught:
        load_reference_audio(path)
    assert "MP3" in str(caught.value) and "numpy" not in str(caught.value)


def test_mp3_is_read(tmp_path):
    path = tmp_path / "memo.mp3"
    sf.write(path, sine(channels=1)[:, 0], RATE, format="MP3")
    assert peak_hz(load_reference_audio(path)) == pytest.approx(FREQUENCY, abs=2)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    from mlx_qwen3tts import load

    return load(checkpoint_dir("base-0b6", tmp_path_factory.getbasetemp()))


@pytest.mark.parametrize("suffix", [".wav", ".m4a"])
def test_a_ten_minute_reference_clones_from_its_first_30_s(base, tmp_path, suffix):
    path = tmp_path / f"long{suffix}"
    if suffix == ".wav":
        sf.write(path, sine(600.0, 16000, 1), 16000, subtype="PCM_16")
    else:
        encode(path, "aac", seconds=600.0, rate=16000)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        audio = load_reference_audio(path)
        voice = base.clone(path, ref_text="A tone, not words.")
    assert audio.shape == (int(REFERENCE_SECONDS * 24000),)
    notices = [str(w.message) for w in caught if "cloning uses its first 30 s" in str(w.message)]
    assert notices and re.search(r"is 600\.[01] s long", notices[0])  # AAC: + its priming frames
    # The codec's codes of 30 s (12.5 frames a second), not of 10 minutes.
    assert voice.ref_codes.shape == (int(REFERENCE_SECONDS * 12.5), 16)
