"""Parity with the official qwen-tts 0.1.1 on tiny random checkpoints in the released layout.

Fixtures come from tests/reference/record_reference.py (torch, run once); see its README. Set
MLX_QWEN3TTS_FIXTURES to a folder made by the same scripts with another seed to check
checkpoints and texts these tests have never seen.
"""

import json
import warnings

import mlx.core as mx
import numpy as np
import pytest

from fixture_checkpoints import REFERENCE
from teacher_forcing import teacher_forced_logits
from mlx_qwen3tts.loop.prompt import build_prompt
from mlx_qwen3tts.voices import Voice

CASES = json.loads((REFERENCE / "cases.json").read_text())["cases"]


def settings(case):
    return dict(
        language=case["language"],
        speaker=case["speaker"],
        instruct=case["instruct"],
        text_mode="non-streaming" if case["non_streaming_mode"] else "streaming",
        normalize=False,  # the reference reads the text as given
    )


def reference(case):
    return np.load(REFERENCE / case["npz"])


def prompt_for(tts, case):
    voice = Voice(speaker=case["speaker"]) if case["speaker"] else Voice()
    instruct = case["instruct"] if case.get("instruct_used") else None
    return build_prompt(
        tts.model.talker, tts.config, tts.tokenizer.assistant(case["text"]), voice=voice,
        language=case["language"], instruct_ids=tts.tokenizer.instruction(instruct).ids if instruct else None,
        streaming=not case["non_streaming_mode"],
    )


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_prompt_embeddings(case, load_tiny):
    tts, ref = load_tiny(case["checkpoint"]), reference(case)
    assert tts.tokenizer.assistant(case["text"]).ids == ref["input_ids"].tolist()
    prompt = prompt_for(tts, case)
    np.testing.assert_allclose(np.array(prompt.embeds[0]), ref["prefill_embeds"], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.array(prompt.trailing), ref["trailing_text"], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_teacher_forced_logits(case, load_tiny):
    tts, ref = load_tiny(case["checkpoint"]), reference(case)
    talker, cp = teacher_forced_logits(tts.model.talker, prompt_for(tts, case), mx.array(ref["codes"]))
    ref_talker = ref["talker_logits"]
    n = min(len(ref_talker), talker.shape[0])
    scale = np.abs(ref_talker[:n]).max()
    assert np.abs(np.array(talker[:n]) - ref_talker[:n]).max() < 1e-4 * scale
    ref_cp = ref["cp_logits"]
    assert np.abs(np.array(cp[: len(ref_cp)]) - ref_cp).max() < 1e-4 * np.abs(ref_cp).max()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_greedy_codes_and_waveform(case, load_tiny):
    tts, ref = load_tiny(case["checkpoint"]), reference(case)
    frames = ref["codes"].shape[0]
    # The reference returns N-1 frames when it hits max_new_tokens=N; ask for one more frame when
    # it stopped on EOS so that we see the EOS too.
    limit = frames + 1 if bool(ref["stopped_on_eos"]) else frames
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tts.generate(case["text"], temperature=0, max_tokens=limit, **settings(case))
    np.testing.assert_array_equal(result.codes, ref["codes"])
    assert result.stopped_on_eos == bool(ref["stopped_on_eos"])
    if "waveform" not in ref.files:
        return
    assert result.audio.shape == ref["waveform"].shape
    assert np.abs(result.audio - ref["waveform"]).max() < 1e-3


def test_long_decode_beyond_attention_window(load_tiny):
    tts = load_tiny(CASES[0]["checkpoint"])
    ref = np.load(REFERENCE / "decode_long.npz")
    assert ref["codes"].shape[0] > 72
    audio = np.array(tts.codec.decoder.decode(mx.array(ref["codes"])[None])[0])
    assert audio.shape == ref["waveform"].shape
    assert np.abs(audio - ref["waveform"]).max() < 1e-3
