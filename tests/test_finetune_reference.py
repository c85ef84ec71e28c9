"""The fine-tuning objective against qwen-tts 0.1.1 (tests/reference/record_finetune.py, fixtures/finetune/).

The recorder collated two clips of different lengths with the official script's `TTSDataset.collate_fn` and
scored them with qwen-tts's own modules under the corrected alignment (one shift for the talker, the previous
position's hidden and head i on codebook i + 1 for the code predictor), then took one torch AdamW step, on base-0b6
and base-1b7 (whose code predictor reads the talker's hidden through `small_to_mtp_projection`; its gradient and
step are recorded too). Here, for each: our collate lays out the same ids, our loss and gradients equal theirs, and our AdamW step equals torch's.
"""

import json
import sys
from pathlib import Path

import mlx.core as mx
import mlx.nn as nn
import numpy as np
import pytest
from mlx.utils import tree_flatten

from mlx_qwen3tts.finetune import objective
from mlx_qwen3tts.finetune.dataset import Item
from fixture_checkpoints import checkpoint_dir

training = sys.modules["mlx_qwen3tts.finetune.train"]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "finetune"


CASES = json.loads((FIXTURES / "cases.json").read_text())


@pytest.fixture(scope="module", params=CASES["checkpoints"])
def ref(request):
    """(recorded arrays, the recorded settings with `recorded` this checkpoint's names, the checkpoint's name)."""
    name = request.param
    return dict(np.load(FIXTURES / f"{name}.npz")), {**CASES, "recorded": CASES["recorded"][name]}, name


@pytest.fixture(scope="module")
def setup(ref, tmp_path_factory):
    arrays, cases, name = ref
    base = training.load_base(checkpoint_dir(name, Path(tmp_path_factory.getbasetemp())), "full")
    items = [Item(id=str(i), text=text, language=cases["language"], codes=arrays[f"codes/{i}"],
                  speaker_vector=arrays["speakers"][i]) for i, text in enumerate(cases["texts"])]
    examples = [objective.example(item, base.tokenizer, base.config) for item in items]
    batch = objective.collate(examples, base.config.talker_config.codec_eos_token_id)
    return base, examples, batch


def test_collated_ids_equal_the_official_collate(ref, setup):
    arrays, _, _ = ref
    _, examples, batch = setup
    ids, codes = arrays["batch/input_ids"], arrays["batch/codec_ids"]
    text_mask, codec_mask = arrays["batch/text_embedding_mask"][..., 0], arrays["batch/codec_embedding_mask"][..., 0]
    labels, L = arrays["batch/codec_0_labels"], batch.text_ids.shape[1]
    for b, e in enumerate(examples):
        n = e.length  # the official row has one more input (codec EOS) that scores nothing
        assert text_mask[b, :n].all() and np.array_equal(ids[b, :n, 0], e.text_ids)
        assert np.array_equal(codec_mask[b, :n], e.codec_mask)
        assert np.array_equal(ids[b, :n, 1][e.codec_mask], e.codec_ids[e.codec_mask])
        frames = arrays["batch/codec_mask"][b, :n]
        assert np.array_equal(np.array(batch.frame_mask)[b, :n, 0] == 1, frames)
        assert np.array_equal(codes[b, :n][frames], e.codes)
        # the official label at position p is scored by the logits at p - 1: ours lists p - 1
        at = np.array(batch.talker_at)
        mine = at[(at >= b * L) & (at < (b + 1) * L)] - b * L
        theirs = np.nonzero(labels[b] != -100)[0]
        assert np.array_equal(mine, theirs - 1)
        targets = np.array(batch.talker_targets)[(at >= b * L) & (at < (b + 1) * L)]
        assert np.array_equal(targets, labels[b][theirs])


def test_loss_equals_qwen_tts_modules_under_the_corrected_alignment(ref, setup):
    arrays, cases, _ = ref
    base, _, batch = setup
    ours = [float(v) for v in objective.loss(base.model.talker, batch, cases["predictor_weight"])]
    assert np.abs(np.array(ours) - arrays["losses"]).max() <= 1e-4, (ours, arrays["losses"])


def test_gradients_equal_torch(ref, setup):
    arrays, cases, _ = ref
    base, _, batch = setup
    talker = base.model.talker
    grad = nn.value_and_grad(talker, lambda: objective.loss(talker, batch, cases["predictor_weight"]))()[1]
    grads = {f"talker.{k}": v for k, v in tree_flatten(grad)}
    for name in cases["recorded"]:
        theirs = arrays[f"grad/{name}"]
        ours = np.array(grads[name])[arrays[f"rows/{name}"]]
        assert np.abs(ours - theirs).max() <= 1e-4 * max(1.0, np.abs(theirs).max()), name


def test_one_adamw_step_equals_torch(ref):
    """Given torch's gradients, our optimizer (as training makes it) updates every recorded weight as torch's
    AdamW did, to 1e-5."""
    arrays, cases, _ = ref
    adam = cases["adamw"]
    names = cases["recorded"]
    params = {n.replace(".", "/"): mx.array(arrays[f"before/{n}"]) for n in names}
    grads = {n.replace(".", "/"): mx.array(arrays[f"grad/{n}"]) for n in names}
    optimizer = training.adamw(adam["lr"], adam["weight_decay"])
    updated = optimizer.apply_gradients(grads, params)
    for n in names:
        assert np.abs(np.array(updated[n.replace(".", "/")]) - arrays[f"after/{n}"]).max() <= 1e-5, n


@pytest.mark.parametrize("alignment", [objective.Alignment(label_shift=2), objective.Alignment(hidden_lag=0),
                                       objective.Alignment(sub_label_shift=1)], ids=["double shift", "leaked hidden",
                                                                                     "shifted sub-labels"])
def test_the_official_scripts_alignments_do_not_match(ref, setup, alignment):
    arrays, cases, _ = ref
    base, examples, _ = setup
    batch = objective.collate(examples, base.config.talker_config.codec_eos_token_id, alignment)
    ours = np.array([float(v) for v in objective.loss(base.model.talker, batch, cases["predictor_weight"])])
    assert np.abs(ours - arrays["losses"]).max() > 1e-2
