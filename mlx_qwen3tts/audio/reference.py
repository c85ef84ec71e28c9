"""Reference audio for voice cloning: read, mix to mono, check, cut, resample to 24 kHz.

Reference: `_load_audio_to_np`, `_normalize_audio_inputs` and `create_voice_clone_prompt` in
qwen_tts/inference/qwen3_tts_model.py (qwen-tts 0.1.1): `librosa.load(path, sr=None, mono=True)`
(soundfile, float32, channel mean), then `librosa.resample` to 24 kHz with its default `soxr_hq`
resampler, length fixed to ceil(n · (24000 / rate)). The same calls to soundfile and soxr give the
same samples. Unlike the reference, unusable audio is refused here with a message saying why, and
only the first REFERENCE_SECONDS are used: upstream encodes all of it, so a 10-minute file took
half a minute and gigabytes for the speaker encoder (whose x-vector is a mean over time: 30 s of
speech gives it as well as more) and the codec encoder (whose codes all go into an in-context
prompt, where 3-15 s is what the model was given in training).

Files soundfile reads (WAV, FLAC, OGG/Opus, MP3) are read by it; anything else (M4A/AAC/ALAC as
phones and Macs record, WebM, ...) by PyAV when it is installed (it comes with the server extra;
the core leaves it out for its ~100 MB of FFmpeg libraries).
"""

import math
import os
import warnings

import numpy as np
import soundfile as sf
import soxr

from ..errors import InputError

TARGET_SAMPLE_RATE = 24000
MIN_SECONDS = 0.5
REFERENCE_SECONDS = 30.0  # the most of a reference that cloning uses
# Rates of real recordings; outside them the resampling ratio (and its memory) is absurd.
MIN_SAMPLE_RATE, MAX_SAMPLE_RATE = 8000, 192000
# Below one 16-bit step everywhere: nothing a microphone recorded.
SILENCE_PEAK = 1.0 / 32768
SHORT_TEXT_CHARS_PER_SECOND = 2.0  # a transcript with fewer characters a second of audio is likely not all of it
SOUNDFILE_FORMATS = "WAV, FLAC, OGG/Opus and MP3"
FORMATS = "WAV, FLAC, OGG/Opus, MP3, and with PyAV also M4A/AAC/ALAC, WebM and other FFmpeg formats"
PYAV_HINT = "for M4A/AAC/ALAC and other compressed formats install PyAV: pip install av (the server extra brings it)"


class ReferenceAudioError(InputError):
    """The reference audio cannot be used for voice cloning; the message says what to change."""

    def __init__(self, message: str):
        super().__init__(message, field="ref_audio")


def read_audio(source, max_seconds=None, name=None) -> tuple:
    """(samples as float32 (n, channels), sample rate, whole length in seconds or None) of an audio file
    (path or binary file object), reading at most `max_seconds` of it."""
    name = name or os.fspath(source)
    try:
        return _read_soundfile(source, max_seconds)
    except (sf.LibsndfileError, RuntimeError, TypeError) as error:
        why = str(error).rstrip(".")
    if hasattr(source, "seek"):
        source.seek(0)
    try:
        import av
    except ImportError:
        raise ReferenceAudioError(f"cannot read reference audio {name}: {why}; this reads {SOUNDFILE_FORMATS} "
                                  f"as installed; {PYAV_HINT}") from None
    try:
        return _read_pyav(av, source, max_seconds)
    except (av.error.FFmpegError, ValueError, IndexError, OSError):
        raise ReferenceAudioError(f"cannot read reference audio {name}: not audio in a format this reads "
                                  f"({FORMATS})") from None


def _read_soundfile(source, max_seconds) -> tuple:
    with sf.SoundFile(source) as f:
        rate, total = f.samplerate, f.frames
        frames = total if max_seconds is None or total < 0 else min(total, math.ceil(max_seconds * rate))
        audio = f.read(frames, dtype="float32", always_2d=True)
    return audio, int(rate), total / rate if total >= 0 and rate else None


def _read_pyav(av, source, max_seconds) -> tuple:
    with av.open(source) as container:
        stream = container.streams.audio[0]  # IndexError: no audio in it
        rate = stream.codec_context.sample_rate
        limit = None if max_seconds is None else math.ceil(max_seconds * rate)
        resampler = av.AudioResampler(format="fltp", rate=rate)  # planar float32, channels as they are
        planes, count = [], 0
        for frame in container.decode(stream):
            for out in resampler.resample(frame):
                planes.append(out.to_ndarray())  # (channels, samples)
                count += planes[-1].shape[1]
            if limit is not None and count >= limit:
                break
        else:
            planes += [out.to_ndarray() for out in resampler.resample(None)]
            limit = None
        duration = container.duration / av.time_base if container.duration else None
    audio = np.concatenate(planes, axis=1).T if planes else np.zeros((0, 1), np.float32)
    total = audio.shape[0] / rate if limit is None else duration or count / rate
    return np.ascontiguousarray(audio[:limit], dtype=np.float32), int(rate), total


def _read_file(path) -> tuple:
    path = os.fspath(path)
    if os.path.isdir(path):
        raise ReferenceAudioError(f"reference audio {path!s} is a folder; give an audio file ({FORMATS})")
    if not os.path.isfile(path):
        raise ReferenceAudioError(f"reference audio file not found: {path!s}")
    return read_audio(path, REFERENCE_SECONDS)


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
    return resample(audio, sample_rate, TARGET_SAMPLE_RATE)


def resample(audio: np.ndarray, sample_rate: int, target_rate: int) -> np.ndarray:
    """Mono float32 audio at `sample_rate` -> `target_rate`, as `librosa.resample(..., res_type='soxr_hq')`."""
    audio = np.ascontiguousarray(audio, dtype=np.float32)
    if sample_rate == target_rate:
        return audio
    # librosa's rounding, ratio first: 52920 samples at 44.1 kHz give 28801, not 28800.
    length = math.ceil(audio.shape[0] * (target_rate / sample_rate))
    resampled = soxr.resample(audio, sample_rate, target_rate, quality="soxr_hq")[:length]
    return np.pad(resampled, (0, length - resampled.shape[0])).astype(np.float32)


def load_reference_audio(path_or_array, sample_rate: int | None = None) -> np.ndarray:
    """Reference audio as float32 mono samples at 24 kHz, ready for the speaker encoder and codec.

    `path_or_array` is a path to an audio file (WAV, FLAC, OGG/Opus, MP3; with PyAV also M4A/AAC/ALAC
    and others), a tuple `(samples, sample_rate)`, or a numpy array with `sample_rate` given. Arrays
    are (samples,) or (samples, channels); channels are averaged; integer PCM is scaled to [-1, 1).
    Only the first 30 s are used (a longer file is not even read further), with a warning.
    Raises ReferenceAudioError for unreadable files, rates outside 8-192 kHz, empty, silent,
    non-finite or shorter than 0.5 s audio.
    """
    audio, sample_rate, seconds, where = _samples(path_or_array, sample_rate)
    if seconds > REFERENCE_SECONDS:
        audio = audio[: math.ceil(REFERENCE_SECONDS * sample_rate)]
        warnings.warn(f"reference audio {where} is {seconds:.1f} s long; cloning uses its first "
                      f"{REFERENCE_SECONDS:g} s (3-15 s of clear speech is enough; a reference transcript "
                      "should be of those seconds only)", stacklevel=2)
    _check_speech(audio, sample_rate, where)
    return resample_to_24k(audio, sample_rate)


def _samples(path_or_array, sample_rate):
    """Mono float32 samples, their rate, the source's length in seconds, and how to name the source."""
    if isinstance(path_or_array, tuple):
        if len(path_or_array) != 2 or sample_rate is not None:
            raise ReferenceAudioError("pass reference audio as (samples, sample_rate), or samples with sample_rate=")
        path_or_array, sample_rate = path_or_array
    if isinstance(path_or_array, (str, os.PathLike)):
        if sample_rate is not None:
            raise ReferenceAudioError("sample_rate is only for array input; an audio file carries its own rate")
        where = f"file {os.fspath(path_or_array)!s}"
        audio, sample_rate, seconds = _read_file(path_or_array)
    else:
        where = "array"
        if sample_rate is None:
            raise ReferenceAudioError("reference audio given as an array needs its sample rate: pass (samples, sample_rate)")
        audio, seconds = _as_float_samples(path_or_array, where), None
    sample_rate = _checked_rate(sample_rate)
    audio = _to_mono(audio, where)
    return audio, sample_rate, audio.shape[0] / sample_rate if seconds is None else seconds, where


def _checked_rate(sample_rate) -> int:
    if isinstance(sample_rate, bool) or not float(sample_rate).is_integer() or sample_rate <= 0:
        raise ReferenceAudioError(f"reference audio sample rate must be a positive whole number of Hz, got {sample_rate!r}")
    sample_rate = int(sample_rate)
    if not MIN_SAMPLE_RATE <= sample_rate <= MAX_SAMPLE_RATE:
        raise ReferenceAudioError(
            f"reference audio sample rate {sample_rate} Hz is outside {MIN_SAMPLE_RATE // 1000}-"
            f"{MAX_SAMPLE_RATE // 1000} kHz; give the rate the samples were recorded at (e.g. 16000, 24000, 44100)"
        )
    return sample_rate


def _check_speech(audio: np.ndarray, sample_rate: int, where: str):
    """Refuse what cannot be a voice to clone: empty, non-finite, too short or silent audio."""
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


def transcript_notice(audio: np.ndarray, ref_text: str) -> tuple:
    """A notice where the transcript looks too short for the reference audio (24 kHz), else none."""
    seconds, chars = audio.shape[0] / TARGET_SAMPLE_RATE, len(ref_text.strip())
    if chars >= SHORT_TEXT_CHARS_PER_SECOND * seconds:
        return ()
    return (f"the reference text ({chars} characters) looks too short for {seconds:.1f} s of reference audio; "
            "a transcript that does not match the audio can make generation run on",)
