"""Sampling keeps upstream's (Hugging Face's) distribution: checked statistically against the
distribution computed directly from HF's definitions (temperature, then top-k, then top-p on the
tempered probabilities; repetition penalty divides positive and multiplies negative logits)."""

import mlx.core as mx
import numpy as np
import pytest

from mlx_qwen3tts.sampling import CodebookZeroProcessor, SamplingConfig, sample

N = 40000


def hf_distribution(logits, temperature, top_k, top_p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    if 0 < top_k < z.size:
        kth = np.sort(z)[-top_k]
        z = np.where(z < kth, -np.inf, z)
    p = np.exp(z - z.max())
    p /= p.sum()
    if top_p < 1.0:
        order = np.argsort(p)  # ascending, as HF's TopPLogitsWarper
        cumulative = np.cumsum(p[order])
        remove = cumulative <= 1 - top_p
        remove[-1] = False
        p[order[remove]] = 0.0
        p /= p.sum()
    return p


def empirical(ids, vocab):
    return np.bincount(np.asarray(ids).ravel(), minlength=vocab) / np.asarray(ids).size


def assert_same_distribution(ids, expected):
    got = empirical(ids, expected.size)
    assert got[expected == 0].sum() == 0, "sampled a token the filters remove"
    # Total variation distance; with N draws its sampling noise is ~ sqrt(V / N) / 2.
    assert 0.5 * np.abs(got - expected).sum() < 0.02


@pytest.mark.parametrize("temperature, top_k, top_p", [(0.9, 50, 1.0), (0.7, 5, 1.0), (1.3, 0, 0.8), (0.9, 20, 0.6)])
def test_sample_matches_hf(temperature, top_k, top_p):
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 2.0, size=64).astype(np.float32)
    mx.random.seed(1)
    ids = sample(mx.broadcast_to(mx.array(logits), (N, 64)), temperature, top_k, top_p)
    assert_same_distribution(np.array(ids), hf_distribution(logits, temperature, top_k, top_p))


def test_temperature_zero_is_argmax():
    logits = mx.array([[0.1, 3.0, -1.0], [5.0, 4.9, 0.0]])
    assert sample(logits, 0.0, 50, 1.0).tolist() == [1, 0]


def test_codebook_zero_processing():
    vocab, eos = 3072, 2150
    proc = CodebookZeroProcessor(vocab, eos, penalty=1.05)
    logits = mx.array(np.linspace(-3, 3, vocab, dtype=np.float32))[None]
    seen = mx.zeros((1, vocab), dtype=mx.bool_)
    seen = seen | (mx.arange(vocab)[None] == 5) | (mx.arange(vocab)[None] == 3000)
    out = np.array(proc(logits, seen, step=5))[0]
    raw = np.array(logits)[0]
    assert out[5] == pytest.approx(raw[5] * 1.05)  # negative logit: multiplied
    assert np.isinf(out[2048:]).sum() == 1024 - 1 and np.isfinite(out[eos])  # only EOS survives above 2047
    assert out[100] == raw[100]
    positive = proc(mx.array([[2.0] * vocab]), mx.arange(vocab)[None] == 7, step=5)
    assert float(positive[0, 7]) == pytest.approx(2.0 / 1.05)  # positive logit: divided
    early = np.array(proc(logits, seen, step=1))[0]
    assert np.isneginf(early[eos])  # no EOS in the first two frames
    assert np.isfinite(np.array(proc(logits, seen, step=2))[0][eos])


def test_compiled_frame_step_samples_upstreams_distribution():
    """The compiled frame graph threads the random state: its codebook-0 draws follow HF's law."""
    from mlx_qwen3tts.synthesis import FrameStep

    class Stub:
        """Only what FrameStep touches: codec head size, embeddings and the code predictor."""

        def __init__(self):
            self.codec_head = type("H", (), {"weight": mx.zeros((3072, 8))})()
            self.code_predictor = type("CP", (), {"predict": lambda s, h, e, f: (mx.zeros((h.shape[0], 15), mx.int32), e)})()

        def codec_embed(self, ids):
            return mx.zeros(ids.shape + (8,))

    rng = np.random.default_rng(3)
    logits = np.full(3072, -1e9, dtype=np.float32)
    logits[:40] = rng.normal(0, 1.5, 40)
    cfg = SamplingConfig(temperature=0.9, top_k=20, top_p=0.9, repetition_penalty=1.0)
    step = FrameStep(Stub(), cfg, eos_id=2150)
    mx.random.seed(7)
    batch = 20000
    codes, _, _ = step(mx.broadcast_to(mx.array(logits), (batch, 3072)), mx.zeros((batch, 1, 8)),
                       mx.zeros((batch, 3072), dtype=mx.bool_), step=5)
    assert_same_distribution(np.array(codes[:, 0]), hf_distribution(logits, 0.9, 20, 0.9))
    again, _, _ = step(mx.broadcast_to(mx.array(logits), (batch, 3072)), mx.zeros((batch, 1, 8)),
                       mx.zeros((batch, 3072), dtype=mx.bool_), step=5)
    assert (np.array(again[:, 0]) != np.array(codes[:, 0])).mean() > 0.3  # the random state advanced


def test_invalid_settings_rejected():
    from mlx_qwen3tts.errors import InputError

    for bad in (dict(temperature=-1), dict(top_k=-1), dict(top_p=0.0), dict(top_p=1.5), dict(repetition_penalty=0)):
        with pytest.raises(InputError):
            SamplingConfig().override(**bad)
