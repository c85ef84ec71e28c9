"""The fine-tuning objective keeps generation's contract (issue 64).

On the tiny checkpoints, codes are generated greedily by our decode loop (non-streaming text, a speaker vector, as
a fine-tuned CustomVoice speaks) while every raw logit it computes is recorded: the talker's codebook-0 logits
before sampling and each code predictor head's. The training forward over the same codes must give those logits
(<= 1e-4) at the positions it scores, with the generated codes as its labels, on the CPU branches and on the forced
Metal/CUDA ones. Each of the official script's misalignments (a double shift, the hidden that already consumed the
frame, sub-labels shifted once more) fails the same check.
"""

from dataclasses import dataclass
from pathlib import Path

import mlx.core as mx
import numpy as np
import pytest

import mlx_qwen3tts
from mlx_qwen3tts import backend
from mlx_qwen3tts.finetune import objective
from mlx_qwen3tts.finetune.dataset import Item
from mlx_qwen3tts.model.sampling_config import SamplingConfig
from mlx_qwen3tts.request import Request
from mlx_qwen3tts.voices import Voice
from fixture_checkpoints import checkpoint_dir

TOLERANCE = 1e-4
GREEDY = SamplingConfig(temperature=0.0, cp_temperature=0.0, repetition_penalty=1.0)
SENTENCES = [("Hello there, world.", "english", 12), ("Fine-tuning keeps the contract.", "auto", 9)]
MUTATIONS = {"double shift": objective.Alignment(label_shift=2),
             "leaked hidden": objective.Alignment(hidden_lag=0),
             "shifted sub-labels": objective.Alignment(sub_label_shift=1)}


@dataclass
class Generated:
    item: Item
    talker: np.ndarray  # (frames or frames + 1, V0): the raw codebook-0 logits of each step
    predictor: np.ndarray  # (frames, 15, V)


@pytest.fixture(scope="module", params=["base-0b6", "base-1b7"])
def model(request, tmp_path_factory):
    return mlx_qwen3tts.load(str(checkpoint_dir(request.param, Path(tmp_path_factory.getbasetemp()))),
                             dtype=mx.float32)


@pytest.fixture(params=["cpu", "gpu"])
def paths(request):
    """The CPU branches, or those Metal and CUDA take (forced on the CPU, as conftest's gpu_paths)."""
    backend.CPU_PATHS = request.param == "cpu"
    yield request.param
    backend.CPU_PATHS = None


def generate(tts, text: str, language: str, frames: int, seed: int) -> Generated:
    """Greedy generation with a random speaker vector, recording the loop's raw logits (compilation off, so
    the loop's own functions run and the recorders see every call)."""
    talker, graphs = tts.model.talker, tts.loop.graphs
    cp = talker.code_predictor
    talker_logits, head_logits = [], []
    process, head = graphs.process, cp.head

    class Recorder:
        def __getattr__(self, name):
            return getattr(process, name)

        def __call__(self, logits, *args, **kwargs):
            talker_logits.append(logits)
            return process(logits, *args, **kwargs)

    def recording_head(step, h):
        out = head(step, h)
        head_logits.append(out)
        return out

    vector = np.random.default_rng(seed).standard_normal(talker.model.codec_embedding.weight.shape[1])
    vector = vector.astype(np.float32)
    request = Request(text=text, deltas=None, voice=Voice(xvector=mx.array(vector)), language=language,
                      text_mode="non-streaming", sampling=GREEDY, max_frames=frames, guard=False)
    graphs.process, cp.head = Recorder(), recording_head
    mx.disable_compile()
    try:
        codes = np.concatenate([f.codes for f in tts.loop.frames(request)])
    finally:
        mx.enable_compile()
        graphs.process = process
        del cp.__dict__["head"]  # the class's method again
    item = Item(id=f"clip{seed}", text=text, language=language, codes=codes, speaker_vector=vector)
    predictor = np.array(mx.stack(head_logits)).reshape(-1, 15, head_logits[0].shape[-1])
    return Generated(item, np.array(mx.concatenate(talker_logits)), predictor)


@pytest.fixture(scope="module")
def generated(model):
    backend.CPU_PATHS = None
    return [generate(model, text, language, frames, seed)
            for seed, (text, language, frames) in enumerate(SENTENCES)]


def contract_errors(tts, generated, alignment=objective.GENERATION) -> list:
    """What breaks the contract when the training forward scores `generated` (one batch) under `alignment`:
    logits off generation's, or labels other than the generated codes. Empty when it holds."""
    eos = tts.config.talker_config.codec_eos_token_id
    examples = [objective.example(g.item, tts.tokenizer, tts.config) for g in generated]
    batch = objective.collate(examples, eos, alignment)
    talker_logits, predictor_logits = (np.array(a) for a in objective.logits(tts.model.talker, batch))
    talker_targets, predictor_targets = np.array(batch.talker_targets), np.array(batch.predictor_targets)
    errors, m, n = [], 0, 0
    for g in generated:
        codes, T = g.item.codes, g.item.codes.shape[0]
        labels = T + 1  # each frame's codebook 0, then EOS
        steps = min(labels, g.talker.shape[0])  # the loop computed no logits after its frame limit
        ours = talker_logits[m:m + labels]
        if ours.shape[0] < steps or np.abs(ours[:steps] - g.talker[:steps]).max() > TOLERANCE:
            errors.append(f"{g.item.id}: talker logits off generation's")
        if not np.array_equal(talker_targets[m:m + labels], np.append(codes[:, 0], eos)):
            errors.append(f"{g.item.id}: talker labels are not the generated codebook 0 then EOS")
        if np.abs(predictor_logits[n:n + T] - g.predictor).max() > TOLERANCE:
            errors.append(f"{g.item.id}: code predictor logits off generation's")
        if not np.array_equal(predictor_targets[n:n + T], codes[:, 1:]):
            errors.append(f"{g.item.id}: code predictor labels are not the generated codebooks 1..15")
        m, n = m + labels, n + T
    if m != len(talker_targets) or n != len(predictor_targets) or not np.all(np.array(batch.predictor_mask) == 1):
        errors.append("the batch scores other positions than each frame, its EOS and every head")
    return errors


def test_training_logits_equal_generation(model, generated, paths):
    assert contract_errors(model, generated) == []


def test_each_clip_alone_as_in_the_batch(model, generated, paths):
    """Clips of different lengths batch (right padding under a causal mask): each alone gives the same."""
    assert generated[0].item.codes.shape[0] != generated[1].item.codes.shape[0]
    for g in generated:
        assert contract_errors(model, [g]) == []


@pytest.mark.parametrize("mutation", list(MUTATIONS))
def test_each_misalignment_is_caught(model, generated, mutation):
    assert contract_errors(model, generated, MUTATIONS[mutation]) != []


def test_loss_is_the_mean_cross_entropy_of_every_labelled_position(model, generated):
    """talker CE over frames + EOS of every clip, predictor CE over frames x 15, loss = talker + 0.3 x predictor."""
    examples = [objective.example(g.item, model.tokenizer, model.config) for g in generated]
    batch = objective.collate(examples, model.config.talker_config.codec_eos_token_id)
    total, talker_ce, predictor_ce = objective.loss(model.model.talker, batch)

    def ce(logits, targets):
        logits = logits.astype(np.float64)
        top = logits.max(axis=-1, keepdims=True)
        logz = np.log(np.exp(logits - top).sum(axis=-1)) + top[..., 0]
        return np.mean(logz - np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0])

    eos = model.config.talker_config.codec_eos_token_id
    want_talker = ce(np.concatenate([g.talker[:g.item.codes.shape[0]] for g in generated]),
                     np.concatenate([g.item.codes[:, 0] for g in generated]))
    frames = sum(g.item.codes.shape[0] for g in generated)
    assert batch.talker_targets.shape[0] == frames + len(generated)
    want_predictor = ce(np.concatenate([g.predictor for g in generated]),
                        np.concatenate([g.item.codes[:, 1:] for g in generated]))
    assert abs(float(predictor_ce) - want_predictor) < TOLERANCE
    # the EOS labels are scored too: without them the mean is the generated frames' alone
    eos_logits = objective.logits(model.model.talker, batch)[0]
    at = np.array(batch.talker_targets) == eos
    assert at.sum() == len(generated)
    n = frames + len(generated)
    eos_part = ce(np.array(eos_logits)[at], np.array(batch.talker_targets)[at]) * len(generated)
    assert abs(float(talker_ce) - (want_talker * frames + eos_part) / n) < TOLERANCE
    assert abs(float(total) - (float(talker_ce) + 0.3 * float(predictor_ce))) < 1e-6
