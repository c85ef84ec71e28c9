"""Fine-tuning a CustomVoice or a VoiceDesign checkpoint with a dataset a Base model's encoders made (issue 64: "as
users ask"), end to end as a user runs it: `prepare` with the tiny Base-1.7B, `train` (full, LoRA) on the tiny
CustomVoice-1.7B and VoiceDesign-1.7B, `export --speaker narrator`, then `mlx_qwen3tts.generate --speaker narrator`.

The export is a CustomVoice checkpoint whose new row holds the dataset's mean speaker vector; a CustomVoice base
keeps its presets (the new speaker at a free row); a VoiceDesign base's export is read by qwen-tts 0.1.1's
`Qwen3TTSModel.from_pretrained` as a CustomVoice model with the same speaker vector, and its greedy generation with
the new speaker gives our codes (tests/reference/record_finetune_export.py's `spoken`; live, where the reference venv
is here: MLX_QWEN3TTS_ORACLE_PYTHON, default /work/oracle-venv/bin/python; CI has none). A dataset of the other
size's encoder is refused before training, in one line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

import mlx_qwen3tts  # before mlx
import mlx.core as mx
from fixture_checkpoints import checkpoint_dir
from safetensors.numpy import load_file
from test_finetune_prepare import speech

ROOT = Path(__file__).resolve().parent.parent
ORACLE = os.environ.get("MLX_QWEN3TTS_ORACLE_PYTHON", "/work/oracle-venv/bin/python")
TABLE = "talker.model.codec_embedding.weight"
CLIPS = {"one": ("Hello there, this is my own voice.", 140.0), "two": ("I read this book aloud for you.", 180.0)}


def cli(*args, module="mlx_qwen3tts.finetune", python=sys.executable):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([python, "-m", module, *map(str, args)], capture_output=True, text=True, timeout=600,
                          env=env, cwd=ROOT)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.getbasetemp()


def recordings(folder: Path) -> Path:
    folder.mkdir()
    for seed, (name, (text, f0)) in enumerate(CLIPS.items()):
        sf.write(folder / f"{name}.wav", speech(2.0, f0=f0, seed=seed), 24000)
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def prepared(root, tmp_path_factory):
    """{size: dataset} prepared from the same recordings with the tiny Base of each size, by the command line."""
    work = tmp_path_factory.mktemp("bases")
    data = recordings(work / "recordings")
    out = {}
    for size in ("1b7", "0b6"):
        done = cli("prepare", data, "--model", checkpoint_dir(f"base-{size}", root), "--out", work / f"data-{size}",
                   "--language", "english")
        assert done.returncode == 0, done.stderr
        out[size] = work / f"data-{size}"
    return out


def train_and_export(base: Path, data: Path, work: Path, method: str) -> Path:
    run, ckpt = work / "run", work / "ckpt"
    done = cli("train", "--model", base, "--data", data, "--out", run, "--method", method, "--steps", 2,
               "--batch-size", 2, "--lr", 1e-3, "--no-progress")
    assert done.returncode == 0, done.stderr
    done = cli("export", run, "--speaker", "Narrator", "--out", ckpt, *(["--merge"] if method == "lora" else []))
    assert done.returncode == 0, done.stderr
    return ckpt


def speaks(ckpt: Path, work: Path) -> np.ndarray:
    """The codes `mlx_qwen3tts.generate --speaker narrator` writes with the export (greedy, a few frames)."""
    codes = work / "codes.npy"
    done = cli("--model", ckpt, "--text", "Read by my own voice.", "--speaker", "narrator", "--language", "english",
               "--temperature", "0", "--max-tokens", 6, "--codes-output", codes, "-o", work / "mine.wav",
               module="mlx_qwen3tts.cli.generate")
    assert done.returncode == 0, done.stderr
    assert (work / "mine.wav").stat().st_size > 44
    return np.load(codes)


@pytest.mark.parametrize("method", ["full", "lora"])
@pytest.mark.parametrize("variant", ["custom_voice", "voice_design"])
def test_a_base_dataset_fine_tunes_custom_voice_and_voice_design(root, prepared, tmp_path, variant, method):
    base = checkpoint_dir(f"{variant}-1b7", root)
    released = json.loads((base / "config.json").read_text())
    presets = released["talker_config"]["spk_id"]
    assert (variant == "custom_voice") == bool(presets)
    ckpt = train_and_export(base, prepared["1b7"], tmp_path, method)

    config = json.loads((ckpt / "config.json").read_text())
    assert config["tts_model_type"] == "custom_voice"
    spk_id = config["talker_config"]["spk_id"]
    assert {k: spk_id.get(k) for k in presets} == presets and set(spk_id) == {*presets, "narrator"}
    row = spk_id["narrator"]
    taken = set(presets.values()) | set(released["talker_config"]["codec_language_id"].values())
    assert row >= 3000 and row not in taken and row == min(set(range(3000, 3072)) - taken)
    assert config["talker_config"]["spk_is_dialect"]["narrator"] is False
    weights, before = mx.load(str(ckpt / "model.safetensors")), mx.load(str(base / "model.safetensors"))
    assert set(weights) == set(before)  # the base's tensors, no more (VoiceDesign and CustomVoice have no encoder)
    mean = load_file(str(prepared["1b7"] / "speakers.safetensors"))["mean/speaker"]
    table = weights[TABLE]
    assert mx.array_equal(table[row], mx.array(mean).astype(table.dtype)).item()
    if method == "lora":  # presets' rows are not trained by LoRA: kept as released
        for name, preset in presets.items():
            assert mx.array_equal(table[preset], before[TABLE][preset]).item(), name

    codes = speaks(ckpt, tmp_path)
    assert codes.ndim == 2 and codes.shape[1] == 16 and len(codes) >= 1
    if variant == "custom_voice":  # the presets still speak
        tts = mlx_qwen3tts.load(str(ckpt), dtype=mx.float32)
        assert "narrator" in tts.facts.speakers and set(presets) <= set(tts.facts.speakers)
        tts.generate("Hi.", speaker=sorted(presets)[0], temperature=0, max_tokens=3, decode=False)


QWEN_TTS_SPEAKS = """
import json, sys
sys.path.insert(0, "tests/reference")
import record_finetune_export as record
from qwen_tts import Qwen3TTSModel
tts = Qwen3TTSModel.from_pretrained(sys.argv[1], device_map="cpu", dtype=record.torch.float32)
codes, vector = record.spoken(sys.argv[1], "narrator", sys.argv[2], "english")
print(json.dumps({"type": tts.model.tts_model_type, "speakers": sorted(tts.get_supported_speakers()),
                  "codes": codes, "vector": vector}))
"""
TEXT = "Read by my own voice."


@pytest.mark.skipif(not Path(ORACLE).exists(), reason=f"no reference venv at {ORACLE} (qwen-tts 0.1.1 and torch)")
@pytest.mark.parametrize("method", ["full", "lora"])
def test_qwen_tts_reads_a_voice_design_export_as_custom_voice(root, prepared, tmp_path, method):
    base = checkpoint_dir("voice_design-1b7", root)
    ckpt = train_and_export(base, prepared["1b7"], tmp_path, method)
    done = subprocess.run([ORACLE, "-c", QWEN_TTS_SPEAKS, str(ckpt), TEXT], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    read = json.loads(done.stdout.strip().splitlines()[-1])
    assert read["type"] == "custom_voice" and read["speakers"] == ["narrator"]
    mean = load_file(str(prepared["1b7"] / "speakers.safetensors"))["mean/speaker"]
    stored = np.array(mx.array(mean).astype(mx.load(str(ckpt / "model.safetensors"))[TABLE].dtype).astype(mx.float32))
    assert np.array_equal(np.array(read["vector"], np.float32), stored)
    frames = len(read["codes"])  # qwen-tts stopped at its max_new_tokens (it keeps one frame fewer), or at EOS
    ours = mlx_qwen3tts.load(str(ckpt), dtype=mx.float32).generate(
        TEXT, speaker="narrator", language="english", temperature=0.0, max_tokens=frames, decode=False)
    assert frames >= 8 and np.array(ours.codes).tolist() == read["codes"]  # qwen-tts speaks it as we do, greedy


@pytest.mark.parametrize("variant", ["custom_voice-1b7", "voice_design-1b7", "custom_voice-0b6"])
def test_a_dataset_of_another_size_is_refused_before_training(root, prepared, tmp_path, variant):
    data = prepared["0b6" if variant.endswith("1b7") else "1b7"]
    run = tmp_path / "run"
    done = cli("train", "--model", checkpoint_dir(variant, root), "--data", data, "--out", run, "--steps", 1,
               "--no-progress")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    assert "speaker vectors" in lines[0] and "--data" in lines[0], lines[0]
    assert not run.exists() and not list(tmp_path.iterdir())
