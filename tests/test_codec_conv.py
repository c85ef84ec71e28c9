"""The CPU formulations of the codec's convolutions and SnakeBeta against MLX's own kernels and `mx.sin`
(the paths Metal and CUDA run), on the shapes and strides the codec uses, whole and chunked."""

import math

import mlx.core as mx
import mlx.nn as nn
import numpy as np
import pytest

from mlx_qwen3tts import backend
from mlx_qwen3tts.codec import conv


@pytest.fixture
def paths():
    """Run a callable with the CPU formulations forced on, then off; returns both results as numpy."""
    def both(fn):
        results = []
        for cpu in (True, False):
            backend.CPU_PATHS = cpu
            try:
                results.append(np.array(fn()))
            finally:
                backend.CPU_PATHS = None
        return results

    return both


@pytest.mark.parametrize("stride,dilation,kernel,bias", [(1, 3, 7, True), (1, 9, 7, True), (2, 1, 4, False),
                                                         (4, 1, 8, True), (3, 2, 5, True), (1, 1, 7, True)])
@pytest.mark.parametrize("length", [61, 64])
def test_conv1d_gemm_equals_mlx_conv(paths, stride, dilation, kernel, bias, length):
    mx.random.seed(length + kernel)
    layer = nn.Conv1d(6, 5, kernel, stride=stride, dilation=dilation, bias=bias)
    if bias:
        layer.bias = mx.random.normal((5,))
    x = mx.random.normal((2, length, 6))
    gemm, native = paths(lambda: conv.conv1d(x, layer))
    assert gemm.shape == native.shape
    np.testing.assert_allclose(gemm, native, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kernel,stride", [(16, 8), (10, 5), (6, 3), (2, 2), (4, 2)])
def test_transposed_conv_overlap_add_equals_mlx_conv_transpose(paths, kernel, stride):
    mx.random.seed(kernel)
    layer = conv.CausalConvTranspose1d(7, 4, kernel, stride)
    layer.conv.bias = mx.random.normal((4,))
    x = mx.random.normal((2, 9, 7))
    gemm, native = paths(lambda: layer(x))
    assert gemm.shape == native.shape == (2, 9 * stride, 4)
    np.testing.assert_allclose(gemm, native, rtol=1e-5, atol=1e-5)

    def chunked():  # a stream: the cache carries the context between chunks
        cache = layer.make_cache(2)
        return mx.concatenate([layer(x[:, i : i + 2], cache) for i in range(0, 9, 2)], axis=1)

    streamed, _ = paths(chunked)
    np.testing.assert_allclose(streamed, native, rtol=1e-5, atol=1e-5)


def test_dilated_causal_conv_streams_on_cpu_paths(paths):
    mx.random.seed(3)
    layer = conv.CausalConv1d(5, 5, 7, dilation=9)
    x = mx.random.normal((1, 40, 5))

    def chunked():
        cache = layer.make_cache(1)
        return mx.concatenate([layer(x[:, i : i + 3], cache) for i in range(0, 40, 3)], axis=1)

    streamed, whole = paths(chunked)[0], paths(lambda: layer(x))[1]
    np.testing.assert_allclose(streamed, whole, rtol=1e-5, atol=1e-5)


def test_snake_polynomial_matches_sin():
    mx.random.seed(0)
    # Inputs as large as activations get (|u| up to ~300), per-channel log-scale parameters.
    x = mx.concatenate([mx.random.normal((1, 500, 16)), 60 * mx.random.normal((1, 500, 16))], axis=1)
    alpha, beta = 0.5 * mx.random.normal((16,)), 0.5 * mx.random.normal((16,))
    ours = np.array(conv.snake_beta_polynomial(x, alpha, beta), dtype=np.float64)
    xd, ad, bd = (np.array(a, dtype=np.float64) for a in (x, alpha, beta))
    exact = xd + np.sin(xd * np.exp(ad)) ** 2 / (np.exp(bd) + 1e-9)
    # float32 rounding of u = x * exp(alpha) alone moves sin^2 by up to |u| * 2**-24 * 2 / exp(beta).
    bound = 4 * np.abs(xd * np.exp(ad)) * 2.0**-24 / np.exp(bd) + 4 * np.abs(xd) * 2.0**-24 + 1e-6
    assert np.all(np.abs(ours - exact) <= bound)
    assert math.isclose(float(conv.SIN_TERMS[1]), -1 / 6)
