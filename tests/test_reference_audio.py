"""Reference-audio loading: the reference's resampled samples, and clear errors for bad input.

Fixtures: tests/reference/record_speaker.py (torch environment) -> tests/fixtures/speaker/.
"""

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from mlx_qwen3tts.audio.reference import ReferenceAudioError, load_reference_audio

FIXTURES = Path(__file__).parent / "fixtures" / "speaker"


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURES / "signals.npz") as data:
        return dict(data)


def tone(seconds, rate=24000, channels=None):
    t = np.arange(int(seconds * rate)) / rate
    y = (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32)
    return y if channels is None else np.stack([y] * channels, axis=1)


@pytest.mark.parametrize("name", ["chirp_16k", "speech_24k"])
def test_array_input_resampled_as_reference(recorded, name):
    audio = load_reference_audio((recorded[f"{name}/input"], int(recorded[f"{name}/input_rate"])))
    expected = recorded[f"{name}/audio_24k"]
    assert audio.dtype == np.float32 and audio.shape == expected.shape
    np.testing.assert_allclose(audio, expected, rtol=0, atol=1e-6)


def test_stereo_flac_file_resampled_as_reference(recorded):
    audio = load_reference_audio(FIXTURES / "vowel_44k_stereo.flac")
    expected = recorded["vowel_44k_stereo/audio_24k"]
    # 52920 samples at 44.1 kHz: librosa's length rounding gives 28801, one more than exact.
    assert audio.shape == expected.shape == (28801,)
    np.testing.assert_allclose(audio, expected, rtol=0, atol=1e-6)


def test_array_forms_agree(recorded):
    stereo, rate = sf.read(FIXTURES / "vowel_44k_stereo.flac", dtype="float32")
    from_file = load_reference_audio(str(FIXTURES / "vowel_44k_stereo.flac"))
    np.testing.assert_array_equal(load_reference_audio(stereo, sample_rate=rate), from_file)
    np.testing.assert_array_equal(load_reference_audio((stereo, rate)), from_file)
    pcm, _ = sf.read(FIXTURES / "vowel_44k_stereo.flac", dtype="int16")
    np.testing.assert_array_equal(load_reference_audio((pcm, rate)), from_file)


def test_24k_mono_passes_through_unchanged():
    y = tone(1.0)
    np.testing.assert_array_equal(load_reference_audio((y, 24000)), y)


@pytest.mark.parametrize("audio, rate, message", [
    (np.zeros(0, np.float32), 24000, "is empty"),
    (np.zeros(24000, np.float32), 24000, "is silent"),
    (tone(0.4, 16000), 16000, r"0\.40 s long; at least 0\.5 s"),
    (np.full(24000, np.nan, np.float32), 24000, "NaN"),
    (tone(1.0, channels=2).T, 24000, "pass \\(samples, channels\\)"),
    (tone(1.0), 0, "positive whole number"),
    (tone(1.0), 22050.5, "positive whole number"),
])
def test_bad_arrays_are_refused(audio, rate, message):
    with pytest.raises(ReferenceAudioError, match=message):
        load_reference_audio((audio, rate))


def test_array_without_rate_is_refused():
    with pytest.raises(ReferenceAudioError, match="needs its sample rate"):
        load_reference_audio(tone(1.0))


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(ReferenceAudioError, match="not found"):
        load_reference_audio(tmp_path / "nope.wav")
    garbage = tmp_path / "garbage.wav"
    garbage.write_bytes(b"this is not audio" * 100)
    with pytest.raises(ReferenceAudioError, match="cannot read reference audio .*WAV, FLAC, OGG/Opus, MP3"):
        load_reference_audio(garbage)


def test_short_file_is_refused(tmp_path):
    path = tmp_path / "short.wav"
    sf.write(path, tone(0.3), 24000)
    with pytest.raises(ReferenceAudioError, match="short.wav is 0.30 s long"):
        load_reference_audio(path)


def test_error_is_a_value_error():
    assert issubclass(ReferenceAudioError, ValueError)


def test_long_audio_is_cut_to_30_s_with_a_notice():
    with pytest.warns(UserWarning, match="31.0 s long; cloning uses its first 30 s"):
        audio = load_reference_audio((tone(31.0), 24000))
    assert audio.shape == (30 * 24000,)
