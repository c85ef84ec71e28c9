"""Fine-tuned here, spoken by the official package (issue 64, "It learns": train -> export -> load in our package
AND in qwen-tts -> same codes).

tests/finetuned.py trains the base-0b6 fixture on one utterance and exports speaker "alice" (full fine-tuning, and
LoRA merged). tests/reference/record_finetune_export.py loaded those exports with qwen-tts 0.1.1's
`Qwen3TTSModel.from_pretrained` as CustomVoice models and recorded the codes its greedy generation gives with
"alice" (fixtures/finetune/export.json), with the sha256 of each export (config.json and model.safetensors).
Here the export is rebuilt the same way and must be the recorded one bit for bit (so the recorded codes are of
these weights; bits of Linux's CPU backend, see tests/finetuned.py), and our greedy generation with it must give
the codes qwen-tts gave: which are the trained utterance's. (Trained on one utterance, the model says it
whatever the text or speaker row; that qwen-tts finds the trained vector under the new name is checked apart.)
"""

import json
from pathlib import Path

import mlx_qwen3tts
import mlx.core as mx
import numpy as np
import pytest

import finetuned
from mlx_qwen3tts.finetune import dataset
from fixture_checkpoints import FIXTURES

RECORDED = json.loads((FIXTURES / "finetune" / "export.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("recipe", sorted(RECORDED["cases"]))
def test_our_export_speaks_in_qwen_tts_as_in_ours(recipe, tmp_path):
    case = RECORDED["cases"][recipe]
    ckpt = finetuned.build(tmp_path, recipe)
    assert finetuned.weights_sha256(ckpt) == case["sha256"], (
        "the rebuilt export differs from the one qwen-tts spoke: rerecord (tests/reference/record_finetune_export.py)")
    tts = mlx_qwen3tts.load(str(ckpt), dtype=mx.float32)
    ours = tts.generate(case["text"], speaker=case["speaker"], language=case["language"], temperature=0.0,
                        max_tokens=30, decode=False).codes
    assert np.array(ours).tolist() == case["codes"]  # what qwen-tts generated with the same file
    assert case["codes"] == case["trained_codes"]  # and it is the trained utterance (qwen-tts learned it too)
    trained = dataset.load(tmp_path / "one").items[0].speaker_vector  # float32; stored in the checkpoint's bf16
    assert np.array_equal(np.array(mx.array(trained).astype(mx.bfloat16).astype(mx.float32)),
                          np.array(case["speaker_vector"], np.float32))  # qwen-tts reads alice as the trained vector
