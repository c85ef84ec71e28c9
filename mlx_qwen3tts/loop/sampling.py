"""Sampling with upstream's semantics, built lazily (Gumbel-max) so a frame stays one graph.

Codebook 0 (talker): repetition penalty over the codebook-0 ids generated so far (HF: divide
positive logits, multiply negative ones), ids 2048.. suppressed except EOS, EOS forbidden for
the first `min_frames` steps; then temperature, top-k, top-p (HF order: the top-p mass is taken
on the tempered distribution). Codebooks 1..15 use their own temperature / top-k / top-p and no
penalty. Temperature 0 is greedy. Every setting is per row (a batch mixes requests), and each
row draws with its own random key.
"""

from dataclasses import fields

import mlx.core as mx
import numpy as np

from ..model.sampling_config import SamplingConfig

_F32_TINY, _F32_MAX = float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max)


def row_settings(configs) -> dict:
    """Per-row sampling settings of a batch: {field: (B,) array} from one SamplingConfig per row."""
    return {f.name: mx.array([getattr(c, f.name) for c in configs], dtype=mx.int32 if "top_k" in f.name else mx.float32)
            for f in fields(SamplingConfig)}


def sample_rows(logits, temperature, top_k, top_p, keys):
    """(B, V) logits with per-row settings ((B,) arrays; temperature 0 = greedy) -> (B,) ids.

    Row b draws with its own random key keys[b] (Gumbel-max over the filtered log-probabilities),
    so its draw does not depend on the other rows: the same as upstream's multinomial in law.
    """
    greedy = mx.argmax(logits, axis=-1)
    vocab = logits.shape[-1]
    # Below float32's smallest normal the draw is the greedy limit; above its max, inf would make NaN.
    sampled = temperature >= _F32_TINY
    logits = logits.astype(mx.float32) / mx.where(sampled, mx.minimum(temperature, _F32_MAX), 1.0)[:, None]
    k = mx.where((top_k > 0) & (top_k < vocab), top_k, vocab)
    ordered = mx.sort(logits, axis=-1)
    kth = mx.take_along_axis(ordered, (vocab - k)[:, None], axis=-1)
    logits = mx.where(logits < kth, -mx.inf, logits)
    norm = mx.logsumexp(logits, axis=-1, keepdims=True)
    logprobs = logits - norm
    # The same filter and shift of the sorted logits keep their order (both are monotone): the sorted
    # log-probabilities to the bit, so top-p needs no second sort.
    top = top_p_filter(logprobs, mx.where(ordered < kth, -mx.inf, ordered) - norm, top_p[:, None])
    logprobs = mx.where((top_p < 1.0)[:, None], top, logprobs)
    noise = mx.vmap(lambda key: mx.random.gumbel((vocab,), key=key))(keys)
    drawn = mx.argmax(logprobs + noise, axis=-1)
    return mx.where(sampled, drawn, greedy)


def top_p_filter(logprobs, ordered, top_p):
    """mlx_lm's `apply_top_p` (B, V) with the row's log-probabilities already sorted (`ordered`, ascending):
    the smallest ones whose mass stays within 1 - top_p are removed."""
    probs = mx.exp(ordered.astype(mx.float32))
    mass_above = mx.cumsum(probs, axis=-1, reverse=True, inclusive=False)
    total_mass = mass_above[..., :1] + probs[..., :1]
    dropped = (mass_above >= top_p * total_mass).sum(axis=-1, keepdims=True)
    threshold = mx.take_along_axis(ordered, dropped, axis=-1)
    return mx.where(logprobs < threshold, -float("inf"), logprobs)


class CodebookZeroProcessor:
    """Upstream's logits processing for codebook 0, applied to (B, V) logits."""

    def __init__(self, vocab_size: int, eos_id: int, penalty: float, min_frames: int = 2):
        ids = mx.arange(vocab_size)
        self.suppress = mx.where((ids >= vocab_size - 1024) & (ids != eos_id), -mx.inf, 0.0)
        self.eos_only = mx.where(ids == eos_id, -mx.inf, 0.0)
        self.penalty = min(max(penalty, _F32_TINY), _F32_MAX)  # representable in float32, so never 0 or inf
        self.min_frames = min_frames

    def __call__(self, logits, seen, step, penalty=None):
        """step: frames generated so far (int, or (B,) per row); penalty: (B, 1) per row (default: the config's)."""
        penalty = self.penalty if penalty is None else penalty
        logits = logits.astype(mx.float32)
        logits = mx.where(seen, mx.where(logits < 0, logits * penalty, logits / penalty), logits) + self.suppress
        if isinstance(step, int):
            return logits + self.eos_only if step < self.min_frames else logits
        return mx.where((step < self.min_frames)[:, None], logits + self.eos_only, logits)
