"""The thinker's audio front end (aligner and recognizer): mono audio to 16 kHz, then Whisper's 128-bin log-mel.

Reference: qwen-asr 0.0.6 `normalize_audio_input` (librosa `soxr_hq` resampling to 16 kHz, then
divided by its peak where that exceeds 1, clipped to ±1) and transformers 4.57.6
`WhisperFeatureExtractor` as the released preprocessor_config.json sets it (n_fft 400, hop 160,
periodic Hann window, centred frames with reflect padding, power spectrum, the last frame dropped,
slaney mels over 0-8 kHz, log10 of at least 1e-10, floored 8 below the clip's maximum, (x + 4) / 4).
`len(audio) // 160` frames. The STFT runs in numpy float64 and the result is cast to float32 once.
"""

from numbers import Integral

import numpy as np

from ..audio.reference import resample
from ..errors import InputError
from ..model.mel import slaney_filterbank

SAMPLE_RATE = 16000
N_FFT = 400
HOP_LENGTH = 160
N_MELS = 128


def to_16k(audio, sample_rate: int) -> np.ndarray:
    """Mono float32 audio at 16 kHz in [-1, 1], as qwen-asr prepares what it aligns and transcribes."""
    audio = np.asarray(audio, dtype=np.float32)
    if audio.ndim == 2:  # (samples, channels), or (channels, samples) for a few channels as upstream guesses
        if audio.shape[0] <= 8 and audio.shape[1] > audio.shape[0]:
            audio = audio.T
        audio = np.mean(audio, axis=-1).astype(np.float32)
    if audio.ndim != 1:
        raise ValueError(f"audio must be (samples,) or (samples, channels), got shape {audio.shape}")
    audio = resample(audio, int(sample_rate), SAMPLE_RATE)
    peak = float(np.max(np.abs(audio))) if audio.size else 0.0
    if peak > 1.0:
        audio = audio / peak
    return np.clip(audio, -1.0, 1.0).astype(np.float32)


def log_mel(audio: np.ndarray) -> np.ndarray:
    """(128, frames) float32 log-mel of 16 kHz audio; frames = len(audio) // 160."""
    audio = np.asarray(audio, dtype=np.float64)
    padded = np.pad(audio, N_FFT // 2, mode="reflect")
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP_LENGTH][:-1]  # (F, N_FFT)
    window = 0.5 - 0.5 * np.cos(2.0 * np.pi * np.arange(N_FFT) / N_FFT)
    spectrum = np.fft.rfft(frames * window, axis=-1)
    power = spectrum.real**2 + spectrum.imag**2
    mel = slaney_filterbank(SAMPLE_RATE, N_FFT, N_MELS, 0.0, SAMPLE_RATE / 2).astype(np.float64) @ power.T
    log = np.log10(np.maximum(mel, 1e-10))
    log = np.maximum(log, log.max() - 8.0)
    return ((log + 4.0) / 4.0).astype(np.float32)


def checked_rate(sample_rate) -> int:
    """`sample_rate` as an int; InputError unless a positive whole number."""
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, Integral) or sample_rate <= 0:
        raise InputError(f"{{sample_rate}} must be a positive whole number of samples a second, got {sample_rate!r}",
                         field="sample_rate")
    return int(sample_rate)


def checked_samples(audio) -> np.ndarray:
    """`audio` as float32 (samples,) or (samples, channels), every sample a number."""
    try:
        samples = np.asarray(audio, dtype=np.float32)
    except (TypeError, ValueError):
        raise InputError("{audio} must be an array of float samples", field="audio") from None
    if samples.ndim not in (1, 2):
        raise InputError(f"{{audio}} must be mono (samples,) or (samples, channels), got shape {samples.shape}",
                         field="audio")
    if samples.size == 0:
        raise InputError("{audio} is empty: give at least one sample", field="audio")
    if not np.isfinite(samples).all():
        raise InputError("{audio} holds samples that are not numbers (NaN or infinite)", field="audio")
    return samples
