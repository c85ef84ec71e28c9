"""The thinker's CPU path (issue 58, speed): the rational-erf GELU of the audio encoder computes what MLX's own
`gelu` computes, to float noise (the parity tests against qwen-asr run it end to end: tests/test_aligner.py,
tests/test_asr.py)."""

import math

import mlx_qwen3tts  # noqa: F401  (before mlx)
import mlx.core as mx
import mlx.nn as nn
import numpy as np

from mlx_qwen3tts.thinker import fastmath


def test_gelu_is_the_exact_gelu_to_float_noise():
    x = np.concatenate([np.linspace(-60, 60, 120001), np.linspace(-6, 6, 120001), [0.0, -0.0, 1e-30, -1e-30]])
    x = x.astype(np.float32)
    exact = np.array([v * 0.5 * math.erfc(-v / math.sqrt(2)) for v in x.astype(np.float64)])
    ours = np.array(fastmath.gelu(mx.array(x))).astype(np.float64)
    assert np.abs(ours - exact).max() < 1.1e-6  # MLX's own: 4.6e-7; float32's ulp at 5.5: 4.8e-7
    np.testing.assert_allclose(ours, np.array(nn.gelu(mx.array(x))), rtol=0, atol=1.5e-6)


def test_erf_is_odd_and_saturates():
    x = mx.array(np.linspace(-10, 10, 2001).astype(np.float32))
    e = np.array(fastmath.erf(x))
    np.testing.assert_array_equal(e, -e[::-1])
    assert e[0] == -1.0 and e[-1] == 1.0 and np.all(np.abs(e) <= 1.0)
