"""Teacher forcing: the talker's and code predictor's raw logits when fed known codes.

A tool for the parity tests and the quantization report (convert/quantization_report.py), not for
generation, so it lives beside the tests.
"""

import mlx.core as mx

from mlx_qwen3tts.loop.text_track import ArrayTextTrack
from mlx_qwen3tts.loop.prompt import Prompt


def teacher_forced_logits(talker, prompt: Prompt, codes: mx.array):
    """Raw logits of the talker and code predictor when fed the given codes (T, 16).

    Returns talker logits (T + 1, V0) (the last one predicts the frame after the codes) and code
    predictor logits (T, 15, V). Used by the parity tests and the quantization report.
    """
    text_track, cp = ArrayTextTrack(prompt), talker.code_predictor
    cache = talker.make_cache()
    tables = [talker.model.codec_embedding, *cp.model.codec_embedding]  # codebook 0's is the talker's
    x, talker_logits, cp_logits = prompt.embeds, [], []
    for t in range(codes.shape[0] + 1):
        logits, hidden = talker(x, cache)
        talker_logits.append(logits[0])
        if t == codes.shape[0]:
            break
        embeds = [table(codes[t, q : q + 1]) for q, table in enumerate(tables)]
        seq = mx.concatenate([hidden[0]] + embeds[:-1])[None]  # (1, 16, H)
        h = cp.model(cp.project(seq), [None] * len(cp.model.layers))
        cp_logits.append(mx.stack([head(h[0, q + 1]) for q, head in enumerate(cp.lm_head)]))
        x = mx.concatenate(embeds).sum(axis=0)[None, None] + text_track(t).astype(hidden.dtype)
        mx.eval(x, talker_logits[-1], cp_logits[-1])
    return mx.stack(talker_logits), mx.stack(cp_logits) if cp_logits else None
