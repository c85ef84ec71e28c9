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
from dataclasses import dataclass, replace

import mlx.core as mx
import numpy as np
from mlx_lm.sample_utils import apply_top_p

from .errors import InputError

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
        sampled, cp_sampled = gen.get("do_sample", True), gen.get("subtalker_dosample", True)
        return cls(
            temperature=gen.get("temperature", 0.9) if sampled else 0.0,
            top_k=gen.get("top_k", 50),
            top_p=gen.get("top_p", 1.0),
            repetition_penalty=gen.get("repetition_penalty", 1.05),
            cp_temperature=gen.get("subtalker_temperature", 0.9) if cp_sampled else 0.0,
            cp_top_k=gen.get("subtalker_top_k", 50),
            cp_top_p=gen.get("subtalker_top_p", 1.0),
        )

    @property
    def sampled(self) -> bool:
        """Whether any codebook is drawn at random (temperature 0 everywhere is greedy)."""
        return self.temperature > 0 or self.cp_temperature > 0

    def override(self, temperature=None, top_k=None, top_p=None, repetition_penalty=None):
        """User overrides; a temperature of 0 makes both the talker and the code predictor greedy."""
        changes = {}
        if temperature is not None:
            changes["temperature"] = changes["cp_temperature"] = temperature
        if top_k is not None:
            changes["top_k"] = changes["cp_top_k"] = top_k
        if top_p is not None:
            changes["top_p"] = changes["cp_top_p"] = top_p
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
    good = isinstance(value, kinds) and not isinstance(value, bool) and math.isfinite(value) and ok(value)
    if not good:
        label = name.replace("cp_", "code predictor ").replace("_", "-")
        raise InputError(f"{label} must be {wanted}, got {value!r}")


ROW_SETTINGS = ("temperature", "top_k", "top_p", "repetition_penalty", "cp_temperature", "cp_top_k", "cp_top_p")


def row_settings(configs) -> dict:
    """Per-row sampling settings of a batch: {field: (B,) array} from one SamplingConfig per row."""
    return {name: mx.array([getattr(c, name) for c in configs], dtype=mx.int32 if "top_k" in name else mx.float32)
            for name in ROW_SETTINGS}


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
        suppressed = mx.arange(vocab_size) >= vocab_size - 1024
        suppressed = suppressed & (mx.arange(vocab_size) != eos_id)
        self.suppress = mx.where(suppressed, -mx.inf, 0.0)
        self.eos_only = mx.where(mx.arange(vocab_size) == eos_id, -mx.inf, 0.0)
        self.penalty = min(max(penalty, _F32_TINY), _F32_MAX)  # representable in float32, so never 0 or inf
        self.min_frames = min_frames

    def __call__(self, logits, seen, step, penalty=None):
        """step: frames generated so far (int, or (B,) per row); penalty: (B, 1) per row (default: the config's)."""
        penalty = self.penalty if penalty is None else penalty
        logits = logits.astype(mx.float32)
        if seen is not None and not (isinstance(penalty, float) and penalty == 1.0):
            penalised = mx.where(logits < 0, logits * penalty, logits / penalty)
            logits = mx.where(seen, penalised, logits)
        logits = logits + self.suppress
        if isinstance(step, int):
            return logits + self.eos_only if step < self.min_frames else logits
        return mx.where((step < self.min_frames)[:, None], logits + self.eos_only, logits)
