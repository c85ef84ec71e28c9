"""Sampling settings: generation_config.json's defaults, and each request's overrides of them, checked.

The settings only; how they are applied (upstream's semantics, per row) is the decode loop's
(`loop/sampling.py`).
"""

import math
import numbers
from dataclasses import dataclass, fields, replace

from ..errors import InputError


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
