"""The server's `speed`: a pitch-preserving time stretch (WSOLA). Checked against physics: a tone
keeps its frequencies and loudness, the duration scales by 1/speed, streaming equals one shot."""

import numpy as np
import pytest

from mlx_qwen3tts.audio.time_stretch import TimeStretch, time_stretch

SR = 24000


def tone(seconds=1.5, freqs=(220.0, 660.0), amps=(0.5, 0.3)):
    t = np.arange(int(seconds * SR)) / SR
    return sum(a * np.sin(2 * np.pi * f * t) for f, a in zip(freqs, amps)).astype(np.float32)


def spectrum_peaks(x, count=2):
    w = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    f = np.fft.rfftfreq(len(x), 1 / SR)
    peaks = [i for i in range(1, len(w) - 1) if w[i] >= w[i - 1] and w[i] >= w[i + 1]]
    return sorted(f[i] for i in sorted(peaks, key=lambda i: -w[i])[:count])


@pytest.mark.parametrize("speed", [0.25, 0.5, 0.8, 1.25, 2.0, 4.0])
def test_duration_scales_and_pitch_stays(speed):
    x = tone()
    y = time_stretch(x, speed)
    assert len(y) == round(len(x) / speed)
    middle = y[len(y) // 4 : 3 * len(y) // 4]
    bin_hz = SR / len(middle)
    assert np.allclose(spectrum_peaks(middle), [220.0, 660.0], atol=2 * bin_hz)
    rms = lambda a: float(np.sqrt(np.mean(a**2)))  # noqa: E731
    assert rms(middle) == pytest.approx(rms(x), rel=0.05)


def test_a_resampling_shortcut_would_fail_this_test():
    """Guard the guard: playing faster by resampling moves the pitch, which the checks above catch."""
    x = tone()
    resampled = x[::2]
    middle = resampled[len(resampled) // 4 : 3 * len(resampled) // 4]
    assert not np.allclose(spectrum_peaks(middle), [220.0, 660.0], atol=20)


@pytest.mark.parametrize("speed,chunk", [(0.5, 1920), (1.5, 977), (3.0, 7680), (0.3, 333)])
def test_streaming_in_chunks_equals_one_shot(speed, chunk):
    x = tone(1.0) * np.linspace(0.2, 1.0, SR, dtype=np.float32)
    stretch = TimeStretch(speed, SR)
    pieces = [stretch.process(x[i : i + chunk]) for i in range(0, len(x), chunk)] + [stretch.flush()]
    assert np.array_equal(np.concatenate(pieces), time_stretch(x, speed))
    # output is handed out as soon as it is final, not held back to the end
    assert sum(len(p) for p in pieces[:-1]) > 0.8 * len(x) / speed


def test_speed_one_is_identity_and_bad_speeds_refused():
    x = tone(0.3)
    assert np.array_equal(time_stretch(x, 1.0), x)
    for bad in (0.0, 0.2, 4.5, -1.0):
        with pytest.raises(ValueError):
            TimeStretch(bad)


def test_no_click_at_the_start_of_the_output():
    """The first output samples carry the input's start at full level (no fade-in from silence)."""
    x = np.full(SR, 0.5, np.float32)
    y = time_stretch(x, 2.0)
    assert np.abs(y[:960] - 0.5).max() < 0.05
