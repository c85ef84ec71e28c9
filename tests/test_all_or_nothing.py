"""Outputs that land whole or not at all, and files whose bytes depend only on their audio (issue 57).

WAV: libsndfile's PEAK chunk holds the time it was written, so two files of the same samples differed.
"""

import time

import numpy as np

import mlx_qwen3tts  # noqa: F401  (before soundfile and mlx: the package loads OpenBLAS first)
from mlx_qwen3tts.audio import formats

SR = 24000


def test_wav_files_of_the_same_samples_are_the_same_bytes(tmp_path):
    samples = np.sin(np.arange(SR // 10) / 7.0).astype(np.float32) * 0.5
    first = formats.encode(samples, SR, "wav")
    for name in ("a.wav", "b.wav"):
        writer = formats.open_file(tmp_path / name, "wav", SR)
        writer.write(samples)
        writer.close()
        time.sleep(1.1)  # the PEAK chunk's time stamp counts seconds
    assert formats.encode(samples, SR, "wav") == first
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "b.wav").read_bytes() == first
    assert b"PEAK" not in first
    import soundfile as sf

    np.testing.assert_array_equal(sf.read(tmp_path / "a.wav", dtype="float32")[0], samples)


def test_a_refused_longform_write_leaves_nothing_behind(load_tiny, tmp_path):
    import pytest

    from mlx_qwen3tts import longform
    from mlx_qwen3tts.errors import InputError

    tts = load_tiny("custom_voice-0b6")
    doc = longform.document("Alpha bravo. Charlie delta.")
    for bad in ({"speaker": "nobody"}, {"language": "klingon"}, {"temperature": -1}):
        with pytest.raises(InputError):
            longform.write(tts, doc, tmp_path / "w.wav", captions=tmp_path / "w.srt", **bad)
        assert list(tmp_path.iterdir()) == [], (bad, list(tmp_path.iterdir()))
