"""The decode loop's graphs: a frame from talker outputs, and a whole one-position step.

Both take and return the loop's `BatchState` (state.py) and take the rows' sampling settings
{field: (B,)} beside it. Settings, lengths and keys are inputs, so any mix of rows shares one graph.
Everything is compiled but the part whose shapes follow the KV capacity: the frame (sampling and the code
predictor's 15 passes) and, per talker layer, the stages before and after its attention
(`TransformerBlock.attention_in` / `attention_out`: norms, projections, RoPE, MLP) have shapes per batch
size only; the KV write, the mask and the attention kernel between them run as they are. So a capacity
that grows as a long prompt joins traces nothing new (a trace at the released shapes costs about two
frame-times: a stall every stream would hear), and `DecodeLoop.warm` traces every graph a batch size needs.
"""

from functools import partial

import mlx.core as mx

from ..model.cache import RowKVCache
from .sampling import CodebookZeroProcessor, sample_rows
from .state import BatchState


class LoopGraphs:
    """The loop's graphs for one talker. `frame[sampled]` and `step[sampled]`:
    `sampled=False` (every row greedy) skips the random draws. Made once per loop and shared by
    every batch it runs (the talker itself holds no generation state)."""

    def __init__(self, talker, eos_id: int):
        self.talker, self.eos_id = talker, eos_id
        self.vocab = talker.codec_head.weight.shape[0]
        self.process = CodebookZeroProcessor(self.vocab, eos_id, 1.0)
        mx.eval(self.process.suppress, self.process.eos_only)  # shared across threads: no lazy constants
        self.frame = {s: mx.compile(partial(self._frame, s)) for s in (False, True)}
        self.advance = {s: mx.compile(partial(self._advance, s)) for s in (False, True)}
        self.step = {s: partial(self._step, s) for s in (False, True)}
        self.stages = [(mx.compile(layer.attention_in), mx.compile(layer.attention_out))
                       for layer in talker.model.layers]

    def _frame(self, sampled, logits, hidden, state: BatchState, s: dict):
        """Codes (B, 16) and the next input embedding of talker outputs, from the state's seen, rng and
        steps and the settings `s`. Returns (codes, embed, the state with seen and rng drawn)."""
        talker, keys = self.talker, state.rng
        logits = self.process(logits, state.seen, state.steps, s["repetition_penalty"][:, None])
        if sampled:
            draws = mx.vmap(lambda key: mx.random.split(key, 17))(keys)  # (B, 17, 2): next key, 16 codebooks
            keys = draws[:, 0]

        def pick(logits, prefix, q):
            if not sampled:
                return mx.argmax(logits, axis=-1)
            return sample_rows(logits, s[prefix + "temperature"], s[prefix + "top_k"], s[prefix + "top_p"],
                               draws[:, 1 + q])

        c0 = pick(logits, "", 0)
        c0_embed = talker.codec_embed(c0)[:, None]
        rest, rest_embed = talker.code_predictor.predict(hidden, c0_embed, lambda lg, q: pick(lg, "cp_", q + 1))
        codes = mx.concatenate([c0[:, None], rest], axis=1).astype(mx.int32)
        seen = state.seen | (mx.arange(self.vocab)[None] == c0[:, None])
        return codes, c0_embed + rest_embed, state._replace(seen=seen, rng=keys)

    def _step(self, sampled, state: BatchState, settings: dict, text, moving):
        """One frame for the rows where `moving` (B,) is set; text (B, 1, H) their text-track vectors.
        Returns (codes (B, 16), the state after it)."""
        logits, hidden, keys, values = self.forward(state, text)
        rows = state._replace(keys=[], values=[])  # the compiled part takes no capacity-shaped input
        codes, stepped = self.advance[sampled](logits, hidden, rows, settings, moving)
        return codes, stepped._replace(keys=keys, values=values)

    def forward(self, state: BatchState, text):
        """The talker's one-position forward of every row: (logits, hidden, keys, values) with this position
        written at each row's length."""
        B, heads, _, dim = state.keys[0].shape
        slot = RowKVCache.slots(state.lengths, (B, heads, 1, dim))
        cache = [RowKVCache(k, v, state.lengths, slot) for k, v in zip(state.keys, state.values)]
        logits, hidden = self.talker(state.x + text.astype(state.x.dtype), cache, self.stages)
        return logits, hidden, [c.keys for c in cache], [c.values for c in cache]

    def _advance(self, sampled, logits, hidden, state: BatchState, settings: dict, moving):
        """The frame of every row; the rows that move get their next x, seen, rng, steps and length (rows that
        wait keep theirs: their KV write is overwritten later)."""
        codes, embed, drawn = self._frame(sampled, logits, hidden, state, settings)
        m = moving[:, None]
        return codes, state._replace(x=mx.where(m[..., None], embed, state.x), seen=mx.where(m, drawn.seen, state.seen),
                                     rng=mx.where(m, drawn.rng, state.rng), steps=state.steps + moving,
                                     lengths=state.lengths + moving)
