"""The decode loop: one generator of codec frames that serves every voice mode.

Voice modes differ only in the prompt (see prompt.py). Per frame the talker gives codebook 0,
the code predictor codebooks 1..15, and the next talker input is the sum of all 16 codebook
embeddings plus that step's text-track vector. The frame is built lazily and evaluated once.
"""

from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

import mlx.core as mx

from .prompt import Prompt
from .sampling import CodebookZeroProcessor, SamplingConfig, sample


@dataclass
class Frame:
    index: int
    codes: mx.array  # (B, 16) int32


@dataclass
class LoopState:
    """What the loop reports besides frames (filled in as it runs)."""

    frames: int = 0
    stopped_on_eos: bool = False
    prefill_s: float = 0.0
    talker_logits: list = field(default_factory=list)
    cp_logits: list = field(default_factory=list)


class ArrayTextTrack:
    """Text vectors for generated frames: `trailing[t]` while it lasts, then the pad vector."""

    def __init__(self, prompt: Prompt):
        self.trailing, self.pad = prompt.trailing, prompt.pad

    def __call__(self, step: int):
        return self.trailing[step] if step < self.trailing.shape[0] else self.pad


def generate_frames(
    talker,
    prompt: Prompt,
    sampling: SamplingConfig,
    max_frames: int,
    eos_id: int,
    text_track: Optional[Callable[[int], mx.array]] = None,
    state: Optional[LoopState] = None,
    record_logits: bool = False,
) -> Iterator[Frame]:
    """Yield frames until codebook 0 is EOS or `max_frames` frames were produced."""
    import time

    state = state if state is not None else LoopState()
    text_track = text_track or ArrayTextTrack(prompt)
    vocab = talker.codec_head.weight.shape[0]
    process = CodebookZeroProcessor(vocab, eos_id, sampling.repetition_penalty)
    cp_logits = state.cp_logits if record_logits else None

    def cp_sample(logits, step):
        return sample(logits, sampling.cp_temperature, sampling.cp_top_k, sampling.cp_top_p)

    cache = talker.make_cache()
    batch = prompt.embeds.shape[0]
    seen = mx.zeros((batch, vocab), dtype=mx.bool_)
    x = prompt.embeds
    tic = time.perf_counter()
    for step in range(max_frames):
        logits, hidden = talker(x, cache)
        if record_logits:
            state.talker_logits.append(logits)
        c0 = sample(process(logits, seen, step), sampling.temperature, sampling.top_k, sampling.top_p)
        c0_embed = talker.codec_embed(c0)[:, None]
        rest, rest_embed = talker.code_predictor.predict(hidden, c0_embed, cp_sample, cp_logits)
        codes = mx.concatenate([c0[:, None], rest], axis=1).astype(mx.int32)
        x = c0_embed + rest_embed + text_track(step).astype(c0_embed.dtype)
        mx.eval(codes, x)
        if step == 0:
            state.prefill_s = time.perf_counter() - tic
        if c0[0].item() == eos_id:
            state.stopped_on_eos = True
            return
        seen = seen | (mx.arange(vocab)[None] == c0[:, None])
        state.frames = step + 1
        yield Frame(step, codes)
