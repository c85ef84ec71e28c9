"""Reference audio for voice cloning: read, mix to mono, check, resample to 24 kHz.

Reference: `_load_audio_to_np`, `_normalize_audio_inputs` and `create_voice_clone_prompt` in
qwen_tts/inference/qwen3_tts_model.py (qwen-tts 0.1.1): `librosa.load(path, sr=None, mono=True)`
(soundfile, float32, channel mean), then `librosa.resample` to 24 kHz with its default `soxr_hq`
resampler, length fixed to ceil(n · (24000 / rate)). The same calls to soundfile and soxr give the
same samples. Unlike the reference, unusable audio is refused here with a message saying why.
"""

import math
import os
import warnings

import numpy as np
import soundfile as sf
import soxr

from .errors import InputError

TARGET_SAMPLE_RATE = 24000
MIN_SECONDS = 0.5
# Rates of real recordings; outside them the resampling ratio (and its memory) is absurd.
MIN_SAMPLE_RATE, MAX_SAMPLE_RATE = 8000, 192000
LONG_SECONDS = 30.0
# Below one 16-bit step everywhere: nothing a microphone recorded.
SILENCE_PEAK = 1.0 / 32768


class ReferenceAudioError(InputError):
    """The reference audio cannot be used for voice cloning; the message says what to change."""

    def __init__(self, message: str):
        super().__init__(message, field="ref_audio")


def _read_file(path) -> tuple[np.ndarray, int]:
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ReferenceAudioError(f"reference audio {path!s} is a folder; give an audio file")
    if not os.path.isfile(path):
        raise ReferenceAudioError(f"reference audio file not found: {path!s}")
    try:
        audio, rate = sf.read(path, dtype="float32", always_2d=True)
    except (sf.LibsndfileError, RuntimeError, TypeError) as error:
        raise ReferenceAudioError(
            f"cannot read reference audio {path!s}: {str(error).rstrip('.')}. Use a WAV, FLAC or OGG file, "
            "or pass (samples, sample_rate) with the samples as a numpy array."
        ) from None
    return audio, int(rate)


def _as_float_samples(audio, where: str) -> np.ndarray:
    audio = np.asarray(audio)
    if audio.dtype.kind in "iu":
        # Integer PCM, as soundfile scales it: full scale is 2**(bits - 1).
        info = np.iinfo(audio.dtype)
        audio = (audio.astype(np.float64) - (info.min + info.max + 1) / 2) / (2.0 ** (info.bits - 1))
    elif audio.dtype.kind != "f":
        raise ReferenceAudioError(f"reference audio {where} has dtype {audio.dtype}; pass float or integer PCM samples")
    return audio.astype(np.float32)


def _to_mono(audio: np.ndarray, where: str) -> np.ndarray:
    if audio.ndim == 1:
        return audio
    if audio.ndim != 2:
        raise ReferenceAudioError(f"reference audio {where} has shape {audio.shape}; expected (samples,) or (samples, channels)")
    if 0 < audio.shape[0] < audio.shape[1]:
        raise ReferenceAudioError(
            f"reference audio {where} has shape {audio.shape}, more channels than samples; "
            "pass (samples, channels), e.g. the transpose of this array"
        )
    return np.mean(audio, axis=1, dtype=np.float32)  # one channel: its samples exactly


def resample_to_24k(audio: np.ndarray, sample_rate: int) -> np.ndarray:
    """Mono float32 audio at `sample_rate` -> 24 kHz, as `librosa.resample(..., res_type='soxr_hq')`."""
    audio = np.ascontiguousarray(audio, dtype=np.float32)
    if sample_rate == TARGET_SAMPLE_RATE:
        return audio
    # librosa's rounding, ratio first: 52920 samples at 44.1 kHz give 28801, not 28800.
    length = math.ceil(audio.shape[0] * (TARGET_SAMPLE_RATE / sample_rate))
    resampled = soxr.resample(audio, sample_rate, TARGET_SAMPLE_RATE, quality="soxr_hq")[:length]
    return np.pad(resampled, (0, length - resampled.shape[0])).astype(np.float32)


def load_reference_audio(path_or_array, sample_rate: int | None = None) -> np.ndarray:
    """Reference audio as float32 mono samples at 24 kHz, ready for the speaker encoder and codec.

    `path_or_array` is a path to a file soundfile reads (WAV, FLAC, OGG, ...), a tuple
    `(samples, sample_rate)`, or a numpy array with `sample_rate` given. Arrays are (samples,) or
    (samples, channels); channels are averaged; integer PCM is scaled to [-1, 1).
    Raises ReferenceAudioError for unreadable files, rates outside 8-192 kHz, empty, silent,
    non-finite or shorter than 0.5 s audio; warns above 30 s.
    """
    if isinstance(path_or_array, tuple):
        if len(path_or_array) != 2 or sample_rate is not None:
            raise ReferenceAudioError("pass reference audio as (samples, sample_rate), or samples with sample_rate=")
        path_or_array, sample_rate = path_or_array
    if isinstance(path_or_array, (str, os.PathLike)):
        if sample_rate is not None:
            raise ReferenceAudioError("sample_rate is only for array input; an audio file carries its own rate")
        where = f"file {os.fspath(path_or_array)!s}"
        audio, sample_rate = _read_file(path_or_array)
    else:
        where = "array"
        if sample_rate is None:
            raise ReferenceAudioError("reference audio given as an array needs its sample rate: pass (samples, sample_rate)")
        audio = _as_float_samples(path_or_array, where)
    if isinstance(sample_rate, bool) or not float(sample_rate).is_integer() or sample_rate <= 0:
        raise ReferenceAudioError(f"reference audio sample rate must be a positive whole number of Hz, got {sample_rate!r}")
    sample_rate = int(sample_rate)
    if not MIN_SAMPLE_RATE <= sample_rate <= MAX_SAMPLE_RATE:
        raise ReferenceAudioError(
            f"reference audio sample rate {sample_rate} Hz is outside {MIN_SAMPLE_RATE // 1000}-"
            f"{MAX_SAMPLE_RATE // 1000} kHz; give the rate the samples were recorded at (e.g. 16000, 24000, 44100)"
        )
    audio = _to_mono(audio, where)

    if audio.size == 0:
        raise ReferenceAudioError(f"reference audio {where} is empty; give 3-15 s of clear speech")
    if not np.all(np.isfinite(audio)):
        raise ReferenceAudioError(f"reference audio {where} contains NaN or infinite samples")
    seconds = audio.shape[0] / sample_rate
    if seconds < MIN_SECONDS:
        raise ReferenceAudioError(
            f"reference audio {where} is {seconds:.2f} s long; at least {MIN_SECONDS} s is needed "
            "(3-15 s of clear speech works best)"
        )
    if np.max(np.abs(audio)) < SILENCE_PEAK:
        raise ReferenceAudioError(f"reference audio {where} is silent; give a recording of the voice to clone")
    if seconds > LONG_SECONDS:
        warnings.warn(
            f"reference audio {where} is {seconds:.1f} s long; 3-15 s of clear speech is enough, and "
            "longer audio makes cloning (and in-context generation) slower",
            stacklevel=2,
        )
    return resample_to_24k(audio, sample_rate)
