"""Sampling keeps upstream's (Hugging Face's) distribution: checked statistically against the
distribution computed directly from HF's definitions (temperature, then top-k, then top-p on the
tempered probabilities; repetition penalty divides positive and multiplies negative logits)."""

import mlx.core as mx
import numpy as np
import pytest

from mlx_qwen3tts.loop.sampling import CodebookZeroProcessor, SamplingConfig, row_settings, sample_rows

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


SETTINGS = [(0.9, 50, 1.0), (0.7, 5, 1.0), (1.3, 0, 0.8), (0.9, 20, 0.6)]


def draw(logits, settings, seed=1):
    """N draws for each (temperature, top_k, top_p) in `settings`, all rows in one batch, own keys."""
    rows = len(settings) * N
    t, k, p = (mx.array(np.repeat([s[i] for s in settings], N)) for i in range(3))
    keys = mx.random.split(mx.random.key(seed), rows)
    ids = sample_rows(mx.broadcast_to(mx.array(logits), (rows, logits.size)), t, k.astype(mx.int32), p, keys)
    return np.array(ids).reshape(len(settings), N)


def test_sample_rows_match_hf_each_with_its_own_settings():
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 2.0, size=64).astype(np.float32)
    for ids, (temperature, top_k, top_p) in zip(draw(logits, SETTINGS), SETTINGS):
        assert_same_distribution(ids, hf_distribution(logits, temperature, top_k, top_p))


def test_sample_rows_draw_from_their_own_keys():
    rng = np.random.default_rng(1)
    logits = mx.array(rng.normal(0, 1.0, size=(3, 64)).astype(np.float32))
    keys = mx.random.split(mx.random.key(5), 3)
    t, k, p = mx.array([0.9, 0.9, 0.9]), mx.array([0, 0, 0]), mx.array([1.0, 1.0, 1.0])
    batch = sample_rows(logits, t, k, p, keys).tolist()
    alone = [sample_rows(logits[i : i + 1], t[:1], k[:1], p[:1], keys[i : i + 1]).item() for i in range(3)]
    assert batch == alone


def test_temperature_zero_is_argmax():
    logits = mx.array([[0.1, 3.0, -1.0], [5.0, 4.9, 0.0]])
    keys = mx.random.split(mx.random.key(0), 2)
    zero, k, p = mx.array([0.0, 0.0]), mx.array([50, 50]), mx.array([1.0, 1.0])
    assert sample_rows(logits, zero, k, p, keys).tolist() == [1, 0]
    mixed = sample_rows(mx.concatenate([logits[:1], mx.array([[0.0, 0.0, 40.0]])]), mx.array([0.0, 1.0]), k, p, keys)
    assert mixed.tolist() == [1, 2]


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


def test_compiled_frame_graph_samples_upstreams_distribution():
    """The compiled frame graph draws codebook 0 with each row's own key and settings (HF's law),
    and hands back advanced keys."""
    from mlx_qwen3tts.loop.graphs import LoopGraphs
    from mlx_qwen3tts.loop.state import BatchState

    class Stub:
        """Only what LoopGraphs touches: codec head size, embeddings and the code predictor."""

        def __init__(self):
            self.codec_head = type("H", (), {"weight": mx.zeros((3072, 8))})()
            self.code_predictor = type("CP", (), {"predict": lambda s, h, e, f: (mx.zeros((h.shape[0], 15), mx.int32), e)})()
            self.model = type("M", (), {"layers": []})()  # no talker layers: the frame graph alone

        def codec_embed(self, ids):
            return mx.zeros(ids.shape + (8,))

    rng = np.random.default_rng(3)
    logits = np.full(3072, -1e9, dtype=np.float32)
    logits[:40] = rng.normal(0, 1.5, 40)
    cfg = SamplingConfig(temperature=0.9, top_k=20, top_p=0.9, repetition_penalty=1.0)
    graphs = LoopGraphs(Stub(), eos_id=2150)
    batch = 20000
    keys = mx.random.split(mx.random.key(7), batch)

    def frame(keys):
        state = BatchState(x=mx.zeros((batch, 1, 8)), lengths=mx.zeros((batch,), mx.int32), keys=[], values=[],
                           seen=mx.zeros((batch, 3072), dtype=mx.bool_), rng=keys, steps=mx.full((batch,), 5, mx.int32))
        codes, _, drawn = graphs.frame[True](mx.broadcast_to(mx.array(logits), (batch, 3072)), mx.zeros((batch, 1, 8)),
                                             state, row_settings([cfg] * batch))
        return codes, drawn.rng

    codes, next_keys = frame(keys)
    assert_same_distribution(np.array(codes[:, 0]), hf_distribution(logits, 0.9, 20, 0.9))
    again = frame(next_keys)[0]
    assert (np.array(again[:, 0]) != np.array(codes[:, 0])).mean() > 0.3  # the keys advanced
    np.testing.assert_array_equal(np.array(frame(keys)[0]), np.array(codes))  # same keys, same draws
