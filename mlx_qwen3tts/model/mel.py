"""Log-mel spectrogram fed to the speaker encoder.

Reference: `mel_spectrogram` in qwen_tts/core/models/modeling_qwen3_tts.py (qwen-tts 0.1.1), as
`extract_speaker_embedding` calls it: 24 kHz, n_fft = win = 1024, hop 256, 128 slaney mels over
0-12 kHz, periodic Hann window, the signal reflect-padded by (n_fft - hop) / 2 on each side and
framed without centering, magnitude sqrt(re² + im² + 1e-9), then log(max(x, 1e-5)).

The slaney filterbank is built here in numpy (equal to `librosa.filters.mel`, no librosa at run
time). The STFT runs in numpy float64 and the result is cast to float32 once: the reference works
in float32, so this sits within its rounding noise on every device.
"""

from functools import cache

import numpy as np

SAMPLE_RATE = 24000
N_FFT = 1024
HOP_LENGTH = 256
N_MELS = 128
FMIN = 0.0
FMAX = 12000.0

# Slaney mel scale: linear up to 1 kHz, logarithmic above.
_F_SP = 200.0 / 3
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = np.log(6.4) / 27.0


def _hz_to_mel(hz: float) -> np.ndarray:
    log_region = _MIN_LOG_MEL + np.log(np.maximum(hz, _MIN_LOG_HZ) / _MIN_LOG_HZ) / _LOGSTEP
    return np.where(hz >= _MIN_LOG_HZ, log_region, hz / _F_SP)


def _mel_to_hz(mel: np.ndarray) -> np.ndarray:
    log_region = _MIN_LOG_HZ * np.exp(_LOGSTEP * (np.maximum(mel, _MIN_LOG_MEL) - _MIN_LOG_MEL))
    return np.where(mel >= _MIN_LOG_MEL, log_region, mel * _F_SP)


def mel_filterbank() -> np.ndarray:
    """Slaney-scale, slaney-normalised triangular filters, (N_MELS, N_FFT // 2 + 1) float32 (read-only)."""
    return slaney_filterbank(SAMPLE_RATE, N_FFT, N_MELS, FMIN, FMAX)


@cache
def slaney_filterbank(sample_rate: int, n_fft: int, n_mels: int, fmin: float, fmax: float) -> np.ndarray:
    """Slaney-scale, slaney-normalised triangular filters, (n_mels, n_fft // 2 + 1) float32 (read-only),
    as `librosa.filters.mel` and transformers' `mel_filter_bank(norm="slaney", mel_scale="slaney")`."""
    fft_freqs = np.fft.rfftfreq(n_fft, d=1.0 / sample_rate)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(fmin), _hz_to_mel(fmax), n_mels + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - fft_freqs[None, :]
    rising = -ramps[:-2] / widths[:-1, None]
    falling = ramps[2:] / widths[1:, None]
    weights = np.maximum(0.0, np.minimum(rising, falling))
    # Slaney normalisation: every triangle carries the same energy.
    weights *= (2.0 / (edges[2:] - edges[:-2]))[:, None]
    weights = weights.astype(np.float32)
    weights.flags.writeable = False
    return weights


def log_mel_spectrogram(audio: np.ndarray) -> np.ndarray:
    """Log-mel frames of mono 24 kHz audio, (frames, 128) float32, exactly as the reference frames it.

    `frames = (len(audio) - 256) // 256 + 1`; the audio must be longer than 384 samples.
    """
    audio = np.asarray(audio, dtype=np.float64)
    if audio.ndim != 1:
        raise ValueError(f"log_mel_spectrogram expects mono audio of shape (samples,), got {audio.shape}")
    padding = (N_FFT - HOP_LENGTH) // 2
    if audio.size <= padding:
        raise ValueError(f"audio too short for a mel frame: {audio.size} samples, need more than {padding}")
    padded = np.pad(audio, padding, mode="reflect")
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP_LENGTH]  # (F, N_FFT)
    window = 0.5 - 0.5 * np.cos(2.0 * np.pi * np.arange(N_FFT) / N_FFT)
    spectrum = np.fft.rfft(frames * window, axis=-1)
    magnitude = np.sqrt(spectrum.real**2 + spectrum.imag**2 + 1e-9)
    mel = magnitude @ mel_filterbank().astype(np.float64).T
    return np.log(np.maximum(mel, 1e-5)).astype(np.float32)
