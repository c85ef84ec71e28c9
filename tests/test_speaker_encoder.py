"""Speaker encoder path against qwen_tts 0.1.1: filterbank, log-mel, x-vector.

Fixtures: tests/reference/record_speaker.py (torch environment) -> tests/fixtures/speaker/.
"""

from pathlib import Path

import mlx.core as mx
import numpy as np
import pytest

from mlx_qwen3tts.model.mel import log_mel_spectrogram, mel_filterbank
from mlx_qwen3tts.audio.reference import load_reference_audio
from mlx_qwen3tts.model.speaker_encoder import SpeakerEncoder, extract_xvector, sanitize

from tiny_configs import speaker_encoder_config  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures" / "speaker"
SIGNALS = ("chirp_16k", "vowel_44k_stereo", "speech_24k")
SIZES = ("0b6", "1b7")


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURES / "signals.npz") as data:
        return dict(data)


@pytest.fixture(scope="module", params=SIZES)
def encoder(request):
    model = SpeakerEncoder(speaker_encoder_config(request.param))
    checkpoint = mx.load(str(FIXTURES / f"speaker_encoder-{request.param}.safetensors"))
    model.load_weights(list(sanitize(checkpoint).items()), strict=True)
    return request.param, model


def reference_input(recorded, name):
    if name == "vowel_44k_stereo":
        return str(FIXTURES / "vowel_44k_stereo.flac")
    return recorded[f"{name}/input"], int(recorded[f"{name}/input_rate"])


def test_filterbank_equals_librosa():
    expected = np.load(FIXTURES / "mel_filterbank.npz")["mel"]
    ours = mel_filterbank()
    assert ours.shape == expected.shape == (128, 513)
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-6)


@pytest.mark.parametrize("name", SIGNALS)
def test_log_mel_matches_reference(recorded, name):
    expected = recorded[f"{name}/mel"]
    ours = log_mel_spectrogram(recorded[f"{name}/audio_24k"])
    assert ours.shape == expected.shape and ours.dtype == np.float32
    # The reference's float32 STFT is off by up to 1e-3 in bins near the 1e-5 floor; we compute
    # in float64, so the bound is the reference's noise, and the mean stays far below it.
    np.testing.assert_allclose(ours, expected, rtol=0, atol=3e-3)
    assert np.mean(np.abs(ours - expected)) < 2e-5


def test_log_mel_rejects_bad_shapes():
    with pytest.raises(ValueError, match="mono"):
        log_mel_spectrogram(np.zeros((2, 24000), np.float32))
    with pytest.raises(ValueError, match="too short"):
        log_mel_spectrogram(np.zeros(300, np.float32))


def assert_xvector_close(ours: mx.array, expected: np.ndarray):
    ours = np.array(ours)
    assert ours.shape == expected.shape and ours.dtype == np.float32
    cosine = ours @ expected / (np.linalg.norm(ours) * np.linalg.norm(expected))
    assert cosine >= 0.99999
    np.testing.assert_allclose(ours, expected, rtol=0, atol=5e-5 * np.abs(expected).max())


@pytest.mark.parametrize("name", SIGNALS)
def test_xvector_from_reference_audio(recorded, encoder, name):
    size, model = encoder
    xvector = extract_xvector(model, recorded[f"{name}/audio_24k"])
    assert_xvector_close(xvector, recorded[f"{name}/xvector_{size}"])


@pytest.mark.parametrize("name", SIGNALS)
def test_xvector_end_to_end(recorded, encoder, name):
    size, model = encoder
    audio = load_reference_audio(reference_input(recorded, name))
    assert_xvector_close(extract_xvector(model, audio), recorded[f"{name}/xvector_{size}"])


def test_batch_matches_single(recorded, encoder):
    _, model = encoder
    mels = [log_mel_spectrogram(recorded[f"{name}/audio_24k"])[:90] for name in SIGNALS]
    batch = model(mx.array(np.stack(mels)))
    for i, mel in enumerate(mels):
        np.testing.assert_allclose(np.array(batch[i]), np.array(model(mx.array(mel)[None])[0]), atol=1e-4)


def test_sanitize_layout_by_key_name():
    checkpoint = mx.load(str(FIXTURES / "speaker_encoder-0b6.safetensors"))
    checkpoint["talker.model.norm.weight"] = mx.ones((4,))
    params = sanitize(checkpoint)
    assert "talker.model.norm.weight" not in params and all(not k.startswith("speaker_encoder.") for k in params)
    assert all(v.dtype == mx.float32 for v in params.values())
    # The first TDNN: torch (out 32, in 128, kernel 5) -> MLX (out, kernel, in).
    assert checkpoint["speaker_encoder.blocks.0.conv.weight"].shape == (32, 128, 5)
    assert params["blocks.0.conv.weight"].shape == (32, 5, 128)
