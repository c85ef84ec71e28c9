"""Sampling with upstream's semantics, built lazily (Gumbel-max) so a frame stays one graph.

Codebook 0 (talker): repetition penalty over the codebook-0 ids generated so far (HF: divide
positive logits, multiply negative ones), ids 2048.. suppressed except EOS, EOS forbidden for
the first `min_frames` steps; then temperature, top-k, top-p (HF order: the top-p mass is taken
on the tempered distribution). Codebooks 1..15 use their own temperature / top-k / top-p and no
penalty. Temperature 0 is greedy. Every setting is per row (a batch mixes requests), and each
row draws with its own random key.
"""

import math
import numbers
from dataclasses import dataclass, fields, replace

import mlx.core as mx
import numpy as np
from mlx_lm.sample_utils import apply_top_p

from ..errors import InputError

_F32_TINY, _F32_MAX = float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max)


@dataclass(frozen=True)
class SamplingConfig:
    temperature: float = 0.9
    top_k: int = 50
    top_p: float = 1.0
    repetition_penalty: float = 1.05
    cp_temperature: float = 0.9
    cp_top_k: int = 50
    cp_top_p: float = 1.0

    @classmethod
    def from_generation_config(cls, gen: dict) -> "SamplingConfig":
        """generation_config.json names the code predictor's settings `subtalker_*`; do_sample=False is greedy."""
        cfg = cls(**{f.name: gen.get(f.name.replace("cp_", "subtalker_"), f.default) for f in fields(cls)})
        return replace(cfg, temperature=cfg.temperature if gen.get("do_sample", True) else 0.0,
                       cp_temperature=cfg.cp_temperature if gen.get("subtalker_dosample", True) else 0.0)

    @property
    def sampled(self) -> bool:
        """Whether any codebook is drawn at random (temperature 0 everywhere is greedy)."""
        return self.temperature > 0 or self.cp_temperature > 0

    def override(self, temperature=None, top_k=None, top_p=None, repetition_penalty=None):
        """User overrides; a temperature of 0 makes both the talker and the code predictor greedy."""
        changes = {}
        for name, value in (("temperature", temperature), ("top_k", top_k), ("top_p", top_p)):
            if value is not None:
                changes[name] = changes["cp_" + name] = value
        if repetition_penalty is not None:
            changes["repetition_penalty"] = repetition_penalty
        cfg = replace(self, **changes)
        cfg.validate()
        return cfg

    def validate(self):
        for name in ("temperature", "cp_temperature"):
            _check(name, getattr(self, name), "a number >= 0 (0 = greedy)", lambda v: v >= 0)
        for name in ("top_k", "cp_top_k"):
            _check(name, getattr(self, name), "a whole number >= 0 (0 = no top-k filter)", lambda v: v >= 0, True)
        for name in ("top_p", "cp_top_p"):
            _check(name, getattr(self, name), "a number in (0, 1]", lambda v: 0 < v <= 1)
        _check("repetition_penalty", self.repetition_penalty, "a number > 0 (1 = none)", lambda v: v > 0)


def _check(name, value, wanted, ok, integer=False):
    """Refuse bools, strings, NaN/inf and (for counts) fractions with one message naming the setting."""
    kinds = (numbers.Integral,) if integer else (numbers.Real,)
    try:
        good = isinstance(value, kinds) and not isinstance(value, bool) and math.isfinite(value) and ok(value)
    except OverflowError:  # an integer beyond float range (JSON allows any)
        good = False
    if not good:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise InputError(f"{{{name}}} must be {wanted}, got {shown}", field=name)


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
    kth = mx.take_along_axis(mx.sort(logits, axis=-1), (vocab - k)[:, None], axis=-1)
    logits = mx.where(logits < kth, -mx.inf, logits)
    logprobs = logits - mx.logsumexp(logits, axis=-1, keepdims=True)
    logprobs = mx.where((top_p < 1.0)[:, None], apply_top_p(logprobs, top_p[:, None]), logprobs)
    noise = mx.vmap(lambda key: mx.random.gumbel((vocab,), key=key))(keys)
    drawn = mx.argmax(logprobs + noise, axis=-1)
    return mx.where(sampled, drawn, greedy)


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
