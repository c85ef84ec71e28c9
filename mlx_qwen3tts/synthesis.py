"""The decode loop: one generator of codec frames that serves every voice mode.

Voice modes differ only in the prompt (see prompt.py). Per frame the talker gives codebook 0,
the code predictor codebooks 1..15, and the next talker input is the sum of all 16 codebook
embeddings plus that step's text-track vector. The frame is built lazily and evaluated once.
"""

from dataclasses import dataclass
from typing import Callable, Iterator, Optional

import mlx.core as mx
import numpy as np

from .prompt import Prompt
from .sampling import CodebookZeroProcessor, SamplingConfig, sample
from .talker import TalkerRunner


@dataclass
class Frame:
    index: int
    codes: mx.array  # (B, 16) int32
    active: Optional[np.ndarray] = None  # (B,) rows still speaking (None: all); ended rows' codes are junk


@dataclass
class LoopState:
    """What the loop reports besides frames (filled in as it runs)."""

    frames: int = 0
    max_frames: int = 0
    stopped_on_eos: bool = False
    prefill_s: float = 0.0


class ArrayTextTrack:
    """Text vectors for generated frames: `trailing[t]` while it lasts, then the pad vector."""

    def __init__(self, prompt: Prompt):
        self.trailing, self.pad = prompt.trailing, prompt.pad

    def __call__(self, step: int):
        if self.trailing.ndim == 3:  # batch (B, N, H) -> (B, 1, H)
            return self.trailing[:, step : step + 1] if step < self.trailing.shape[1] else self.pad
        return self.trailing[step] if step < self.trailing.shape[0] else self.pad


class FrameStep:
    """One frame's graph: codebook 0 from talker logits, then the code predictor's 15 codebooks.

    Everything after the talker forward is fixed-shape, so it is compiled once per sampling
    configuration (the random state is threaded through, so sampling stays sampling).
    """

    def __init__(self, talker, sampling: SamplingConfig, eos_id: int):
        self.eos_id = eos_id
        vocab = talker.codec_head.weight.shape[0]
        self.process = CodebookZeroProcessor(vocab, eos_id, sampling.repetition_penalty)
        self.vocab = vocab
        self.no_eos = mx.zeros((vocab,))
        # Evaluated now: a lazy array can only be evaluated on the thread that made it (steps are shared).
        mx.eval(self.no_eos, self.process.suppress, self.process.eos_only)

        def cp_sample(logits, step):
            return sample(logits, sampling.cp_temperature, sampling.cp_top_k, sampling.cp_top_p)

        def frame(logits, hidden, seen, eos_mask):
            logits = self.process(logits, seen, self.process.min_frames) + eos_mask
            c0 = sample(logits, sampling.temperature, sampling.top_k, sampling.top_p)
            c0_embed = talker.codec_embed(c0)[:, None]
            rest, rest_embed = talker.code_predictor.predict(hidden, c0_embed, cp_sample)
            codes = mx.concatenate([c0[:, None], rest], axis=1).astype(mx.int32)
            seen = seen | (mx.arange(vocab)[None] == c0[:, None])
            return codes, c0_embed + rest_embed, seen

        self.graph = frame
        self.frame = mx.compile(frame, inputs=mx.random.state, outputs=mx.random.state)

    def __call__(self, logits, hidden, seen, step: int):
        eos_mask = self.process.eos_only if step < self.process.min_frames else self.no_eos
        key = mx.random.state[0]
        try:
            return self.frame(logits, hidden, seen, eos_mask)
        except BaseException:
            # An error mid-trace leaves a placeholder as the global random key and a half-traced
            # graph: put the last real key back and trace afresh next time.
            hi, lo = key.tolist()
            mx.random.seed((hi << 32) | lo)
            self.frame = mx.compile(self.graph, inputs=mx.random.state, outputs=mx.random.state)
            raise


def generate_frames(
    talker,
    prompt: Prompt,
    step_fn: FrameStep,
    max_frames: int,
    text_track: Optional[Callable[[int], mx.array]] = None,
    state: Optional[LoopState] = None,
    seed: Optional[int] = None,
    budget: Optional[Callable[[], int]] = None,
) -> Iterator[Frame]:
    """Yield frames until codebook 0 is EOS or `max_frames` frames were produced.

    A frame is one lazy graph evaluated once. With a text track that is already known (not
    streamed in), frame t+1 is built and sent off (`mx.async_eval`) before frame t's EOS check,
    so the device never waits for the host. `budget()`, checked after each streamed-in frame,
    lowers the limit as far as the text received so far allows.
    """
    import time

    state = state if state is not None else LoopState()
    state.max_frames = max_frames
    if seed is not None:
        mx.random.seed(seed)
    pipelined = text_track is None
    text_track = text_track or ArrayTextTrack(prompt)
    eos_id = step_fn.eos_id
    batch = prompt.embeds.shape[0]
    runner = TalkerRunner(talker, batch, prompt.left_padding)
    seen = mx.zeros((batch, step_fn.vocab), dtype=mx.bool_)
    ended = np.zeros(batch, dtype=bool)
    tic = time.perf_counter()

    def build(x, seen, step):
        logits, hidden = runner(x)
        return step_fn(logits, hidden, seen, step)

    pending = build(prompt.embeds, seen, 0)
    mx.async_eval(pending)
    for step in range(max_frames):
        codes, frame_embed, seen = pending
        if pipelined and step + 1 < max_frames:
            pending = build(frame_embed + text_track(step).astype(frame_embed.dtype), seen, step + 1)
            mx.async_eval(pending)
        if step == 0:
            mx.eval(codes)
            state.prefill_s = time.perf_counter() - tic
        if batch == 1:
            ended[0] = codes[0, 0].item() == eos_id
        else:
            ended |= np.array(codes[:, 0]) == eos_id
        if ended.all():
            state.stopped_on_eos = True
            return
        state.frames = step + 1
        yield Frame(step, codes, None if batch == 1 else ~ended)
        if not pipelined:
            if budget is not None:
                state.max_frames = min(max_frames, budget())
            if step + 1 >= state.max_frames:
                return
            # A streamed-in text vector may have to wait for the writer: only after the frame is out.
            pending = build(frame_embed + text_track(step).astype(frame_embed.dtype), seen, step + 1)
            mx.async_eval(pending)


def teacher_forced_logits(talker, prompt: Prompt, codes: mx.array, text_track=None):
    """Raw logits of the talker and code predictor when fed the given codes (T, 16).

    Returns talker logits (T + 1, V0) (the last one predicts the frame after the codes) and code
    predictor logits (T, 15, V). Used by the parity tests and the quantization report.
    """
    text_track = text_track or ArrayTextTrack(prompt)
    cp = talker.code_predictor
    cache = talker.make_cache()
    x, talker_logits, cp_logits = prompt.embeds, [], []
    for t in range(codes.shape[0] + 1):
        logits, hidden = talker(x, cache)
        talker_logits.append(logits[0])
        if t == codes.shape[0]:
            break
        frame = codes[t]
        embeds = [talker.codec_embed(frame[:1])] + [
            table(frame[q + 1 : q + 2]) for q, table in enumerate(cp.model.codec_embedding)
        ]
        seq = mx.concatenate([hidden[0]] + embeds[:-1])[None]  # (1, 16, H)
        h = cp.model(cp.project(seq), [None] * cp.num_layers)
        cp_logits.append(mx.stack([head(h[0, q + 1]) for q, head in enumerate(cp.lm_head)]))
        x = mx.concatenate(embeds).sum(axis=0)[None, None] + text_track(t).astype(hidden.dtype)
        mx.eval(x, talker_logits[-1], cp_logits[-1])
    return mx.stack(talker_logits), mx.stack(cp_logits) if cp_logits else None
