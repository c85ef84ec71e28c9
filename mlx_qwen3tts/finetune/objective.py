"""The training forward and loss, aligned to generation exactly.

Reference: qwen-tts's `finetuning/dataset.py` (`TTSDataset.collate_fn`) and `sft_12hz.py`, with the
alignment corrected (QwenLM/Qwen3-TTS #179, #371, PR #278, PR #222). An item's sequence is the prompt our
non-streaming generation builds (loop/prompt.py: role, think/language prefix, speaker vector, pad + bos on the
text track, the text with codec pad, tts_pad + codec bos), then one position a frame: the sum of the frame's 16
codebook embeddings and tts_pad. What is scored is what generation computes:
- the talker's codebook-0 logits at the codec-bos position and at each frame's position predict the next
  frame's codebook 0 once, the last frame's position predicts EOS (upstream's labels were shifted twice);
- the code predictor sees, per frame, the talker hidden of the position before the frame (the one whose
  logits chose its codebook 0) and the frame's codes 0..14; head i is scored on codebook i + 1 (upstream
  fed the hidden that had consumed the frame, and shifted the sub-labels once more);
- text goes through the text projection (upstream added 2048-wide text embeddings to 1024-wide codec ones).
loss = talker CE + predictor_weight x predictor CE, each the mean over every labelled position of the batch
(the predictor's over frames x 15), as upstream.

`Alignment` names the three offsets; its defaults are generation's. Other values describe the official script's
mistakes, for tests that show they are caught.
"""

from dataclasses import dataclass
from typing import NamedTuple

import mlx.core as mx
import mlx.nn as nn
import numpy as np

from ..loop.prompt import language_id

PREDICTOR_WEIGHT = 0.3


@dataclass(frozen=True)
class Alignment:
    label_shift: int = 1  # the talker's logits at a position are scored on the codebook 0 this many inputs on
    hidden_lag: int = 1  # the predictor reads the talker hidden this many positions before the frame's input
    sub_label_shift: int = 0  # predictor head i is scored on codebook i + 1 + this


GENERATION = Alignment()


@dataclass
class Example:
    """One item's sequence as numpy arrays (length L): what `collate` pads into a batch."""

    text_ids: np.ndarray  # (L,) text track ids (every position has one)
    codec_ids: np.ndarray  # (L,) codec track ids, 0 where the track is absent
    codec_mask: np.ndarray  # (L,) bool: the codec track is present (not the role, not the speaker position)
    speaker_at: int  # the position of the speaker vector
    speaker: np.ndarray  # (D,) float32
    codes: np.ndarray  # (T, 16) int32
    first_frame: int  # the position of frame 0's input

    @property
    def length(self) -> int:
        return len(self.text_ids)


def example(item, tokenizer, config) -> Example:
    """The sequence of a dataset `Item` as generation's non-streaming prompt lays it out, then its frames."""
    tc = config.talker_config
    target = tokenizer.assistant(item.text)
    role, body = list(target.role), list(target.body)
    lang = language_id(config, item.language, None)
    prefix = ([tc.codec_nothink_id, tc.codec_think_bos_id, tc.codec_think_eos_id] if lang is None
              else [tc.codec_think_id, tc.codec_think_bos_id, lang, tc.codec_think_eos_id])
    codes = np.asarray(item.codes, dtype=np.int32)
    T = codes.shape[0]
    pad, bos, eos = config.tts_pad_token_id, config.tts_bos_token_id, config.tts_eos_token_id
    text = role + [pad] * (len(prefix) + 1) + [bos] + body + [eos] + [pad] + [pad] * T
    codec = ([0] * len(role) + prefix + [0] + [tc.codec_pad_id] * (len(body) + 2) + [tc.codec_bos_id]
             + codes[:, 0].tolist())
    mask = np.ones(len(codec), bool)
    speaker_at = len(role) + len(prefix)
    mask[:len(role)] = False
    mask[speaker_at] = False
    return Example(np.array(text, np.int32), np.array(codec, np.int32), mask, speaker_at,
                   np.asarray(item.speaker_vector, np.float32), codes, len(text) - T)


class Batch(NamedTuple):
    """Padded arrays of a batch (B rows of length L); M talker labels, N frames."""

    text_ids: mx.array  # (B, L) int32
    text_mask: mx.array  # (B, L, 1) float32
    codec_ids: mx.array  # (B, L) int32
    codec_mask: mx.array  # (B, L, 1) float32
    speakers: mx.array  # (B, L, D) float32: the speaker vector at its position, zeros elsewhere
    frame_codes: mx.array  # (B, L, 15) int32: codebooks 1..15 of the frame input at a position
    frame_mask: mx.array  # (B, L, 1) float32
    talker_at: mx.array  # (M,) int32: flat positions b * L + p whose logits are scored
    talker_targets: mx.array  # (M,) int32
    talker_mask: mx.array  # (M,) float32: 1 for a label, 0 for padding (`pad_to`)
    predictor_at: mx.array  # (N,) int32: flat positions of the hidden each frame's predictor reads
    predictor_codes: mx.array  # (N, 16) int32: the frame's codes
    predictor_targets: mx.array  # (N, 15) int32
    predictor_mask: mx.array  # (N, 15) float32: 1 where a head has a label (0: padding, `pad_to`)


def collate(examples, eos_id: int, alignment: Alignment = GENERATION, pad_to: int = 1) -> Batch:
    """Right-padded batch of `examples` (any lengths: attention is causal, so padding after a row's end
    changes nothing before it) with the labels of `alignment`. `pad_to`: the length and the numbers of labels
    rounded up to a multiple of it with unscored padding, so a compiled step sees few distinct shapes."""
    B, L = len(examples), _round_up(max(e.length for e in examples), pad_to)
    D = examples[0].speaker.shape[0]
    text_ids, codec_ids = np.zeros((B, L), np.int32), np.zeros((B, L), np.int32)
    text_mask, codec_mask = np.zeros((B, L, 1), np.float32), np.zeros((B, L, 1), np.float32)
    speakers = np.zeros((B, L, D), np.float32)
    frame_codes, frame_mask = np.zeros((B, L, 15), np.int32), np.zeros((B, L, 1), np.float32)
    talker_at, talker_targets, predictor_at, codes, targets, heads = [], [], [], [], [], []
    for b, e in enumerate(examples):
        n, T, f0 = e.length, e.codes.shape[0], e.first_frame
        text_ids[b, :n], text_mask[b, :n] = e.text_ids, 1.0
        codec_ids[b, :n], codec_mask[b, :n, 0] = e.codec_ids, e.codec_mask
        speakers[b, e.speaker_at] = e.speaker
        frame_codes[b, f0:n], frame_mask[b, f0:n] = e.codes[:, 1:], 1.0
        # target j (frame j's codebook 0, then EOS) is predicted by the logits at the input before it
        next_c0 = e.codes[:, 0].tolist() + [eos_id]
        for j, t in enumerate(next_c0):
            p = f0 + j - alignment.label_shift
            if 0 <= p < n:
                talker_at.append(b * L + p)
                talker_targets.append(t)
        for j in range(T):
            p = f0 + j - alignment.hidden_lag
            predictor_at.append(b * L + p)
            codes.append(e.codes[j])
            q = np.arange(15) + 1 + alignment.sub_label_shift
            targets.append(np.where(q <= 15, e.codes[j, np.minimum(q, 15)], 0))
            heads.append((q <= 15).astype(np.float32))
    M, N = len(talker_at), len(predictor_at)
    talker_mask = [1.0] * M + [0.0] * (_round_up(M, pad_to) - M)
    talker_at += [0] * (len(talker_mask) - M)
    talker_targets += [0] * (len(talker_mask) - M)
    extra = _round_up(N, pad_to) - N
    predictor_at += [0] * extra
    codes, targets = codes + [np.zeros(16, np.int32)] * extra, targets + [np.zeros(15, np.int32)] * extra
    heads += [np.zeros(15, np.float32)] * extra
    arr = mx.array
    return Batch(arr(text_ids), arr(text_mask), arr(codec_ids), arr(codec_mask), arr(speakers), arr(frame_codes),
                 arr(frame_mask), arr(np.array(talker_at, np.int32)), arr(np.array(talker_targets, np.int32)),
                 arr(np.array(talker_mask, np.float32)), arr(np.array(predictor_at, np.int32)),
                 arr(np.stack(codes).astype(np.int32)), arr(np.stack(targets).astype(np.int32)), arr(np.stack(heads)))


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


def embed(talker, batch: Batch):
    """The talker's input embeddings (B, L, H) of a batch."""
    model, cp = talker.model, talker.code_predictor
    x = talker.text_projection(model.text_embedding(batch.text_ids)) * batch.text_mask.astype(mx.float32)
    dtype = model.codec_embedding.weight.dtype if "weight" in model.codec_embedding else x.dtype
    x = x.astype(dtype) + model.codec_embedding(batch.codec_ids) * batch.codec_mask.astype(dtype)
    x = x + batch.speakers.astype(dtype)
    frames = sum(table(batch.frame_codes[..., q]) for q, table in enumerate(cp.model.codec_embedding))
    return x + frames * batch.frame_mask.astype(dtype)


def logits(talker, batch: Batch):
    """(talker logits (M, V0), predictor logits (N, 15, V)) of the batch's scored positions."""
    B, L = batch.text_ids.shape
    cp = talker.code_predictor
    h = talker.model(embed(talker, batch), [None] * len(talker.model.layers))
    h = h.reshape(B * L, -1)
    talker_logits = talker.codec_head(h[batch.talker_at])
    hidden = h[batch.predictor_at][:, None]  # (N, 1, H)
    tables = [talker.model.codec_embedding, *cp.model.codec_embedding[:-1]]
    inputs = [table(batch.predictor_codes[:, q])[:, None] for q, table in enumerate(tables)]
    seq = mx.concatenate([hidden, *inputs], axis=1)  # (N, 16, H)
    hc = cp.model(cp.project(seq), [None] * len(cp.model.layers))
    predictor_logits = mx.stack([head(hc[:, i + 1]) for i, head in enumerate(cp.lm_head)], axis=1)
    return talker_logits, predictor_logits


def losses(talker, batch: Batch):
    """(talker CE, predictor CE): each the mean over the batch's labelled positions."""
    talker_logits, predictor_logits = logits(talker, batch)
    ce = nn.losses.cross_entropy(talker_logits.astype(mx.float32), batch.talker_targets)
    talker_ce = (ce * batch.talker_mask).sum() / batch.talker_mask.sum()
    ce = nn.losses.cross_entropy(predictor_logits.astype(mx.float32), batch.predictor_targets)
    predictor_ce = (ce * batch.predictor_mask).sum() / batch.predictor_mask.sum()
    return talker_ce, predictor_ce


def loss(talker, batch: Batch, predictor_weight: float = PREDICTOR_WEIGHT):
    """(loss, talker CE, predictor CE): loss = talker CE + predictor_weight x predictor CE."""
    talker_ce, predictor_ce = losses(talker, batch)
    return talker_ce + predictor_weight * predictor_ce, talker_ce, predictor_ce
