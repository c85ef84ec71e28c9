"""The exact GELU of the thinker's audio encoder, with `erf` written as arithmetic for the CPU backend.

Why: MLX's CPU backend computes `erf` one value at a time, several times slower than its vectorized
multiply-adds, and the encoder evaluates tens of millions of GELUs per clip (the one after the first
convolution alone: 23 million values for 15 s of audio). Here erf is a compiled rational function: x P(u) / Q(u)
with u = x^2 / 16 over |x| < 3.9, P of degree 6 and Q of degree 5 (a weighted least-squares rational fit to erf,
math.erf in float64, made for this package), and +-1 beyond (erf(3.9) is 1 to within 3.5e-8). It is within
1.4e-8 of erf in float64 arithmetic and 3.5e-7 evaluated in float32: float noise, of the order of MLX's own
`erf` (5e-7 from erf here) and of torch's, which the official implementation runs on the CPU (Abramowitz and
Stegun's 7.1.26, within 1.5e-7 in exact arithmetic). The GELU x (1 + erf(x / sqrt 2)) / 2 built on it is within
1e-6 of the exact one everywhere (2 float32 ulp of x where that error is largest, at |x| near 5.5).

On other devices (Metal, CUDA) MLX's kernels are fast: callers use `gelu` where `backend.cpu_paths()`.
"""

from functools import partial

import mlx.core as mx

ERF_P = (1.1283791697224523, 2.9617851204428396, 13.913350376077629, 15.77675629238123, 25.00026104400513,
         4.9659543897926435, -0.22576595740983324)  # u^0 ... u^6
ERF_Q = (1.0, 7.958148510889086, 29.173694974941906, 63.376078725096654, 85.88733546327629,
         66.68762759917819)  # u^0 ... u^5
ERF_ONE = 3.9  # from here on erf(x) is 1 in float32


def _polynomial(coefficients, u):
    """sum c_i u^i of coefficients c_0, c_1, ... (Horner)."""
    out = coefficients[-1] * u + coefficients[-2]
    for c in reversed(coefficients[:-2]):
        out = out * u + c
    return out


@partial(mx.compile, shapeless=True)
def erf(x):
    """erf of a float32 array (see the module's note)."""
    inside = mx.clip(x, -ERF_ONE, ERF_ONE)
    u = inside * inside * (1.0 / 16.0)
    return mx.where(mx.abs(x) < ERF_ONE, inside * _polynomial(ERF_P, u) / _polynomial(ERF_Q, u), mx.sign(x))


@partial(mx.compile, shapeless=True)
def gelu(x):
    """The exact GELU, x Phi(x), as torch's and MLX's `gelu`: x (1 + erf(x / sqrt 2)) / 2."""
    return x * (1.0 + erf(x * 0.7071067811865476)) * 0.5
