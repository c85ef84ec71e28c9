"""Sampling settings: generation_config.json's defaults.

The settings only: a request's own (checked) are the request layer's (`request.sampling_settings`); how
they are applied (upstream's semantics, per row) is the decode loop's (`loop/sampling.py`).
"""

from dataclasses import dataclass, fields, replace


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
