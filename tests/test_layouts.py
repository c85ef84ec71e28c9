"""Folders in the published mlx-community layout (mlx-audio's converter) load and speak.

The folders are built here from the tiny released checkpoints the way mlx-audio 0.3.0 + mlx-lm
build them (see layouts.py): released key names, speaker-encoder kernels transposed to MLX,
everything bf16, Linear layers with an input width divisible by 64 quantized (embeddings not),
safetensors metadata {"format": "mlx"}, config written by mlx-lm's `save_config`, and
speech_tokenizer/ copied unchanged.
"""

import json
import shutil
from pathlib import Path

import mlx.core as mx
import mlx.nn as nn
import numpy as np
import pytest
from mlx_lm.utils import save_config

from mlx_qwen3tts import convert as cv
from mlx_qwen3tts.model import layouts
from mlx_qwen3tts.model.config import ModelConfig
from mlx_qwen3tts.tts import load

from fixture_checkpoints import checkpoint_dir  # noqa: E402

TEXT = "Hello there."
COPIED = ("generation_config.json", "vocab.json", "merges.txt", "tokenizer_config.json")


def is_linear_weight(key: str) -> bool:
    return key.startswith("talker.") and key.endswith(".weight") and "embedding" not in key and "norm" not in key


def mlx_community_folder(src: Path, dest: Path, bits=None, overrides=None, metadata=True) -> Path:
    """What `python -m mlx_audio.convert --hf-path SRC [-q --q-bits N]` writes (mlx-audio 0.3.0)."""
    weights = {}
    for key, value in mx.load(str(src / "model.safetensors")).items():
        if "position_ids" in key:
            continue
        if key.startswith("speaker_encoder.") and key.endswith(".weight"):  # Conv1d, torch (out, in, k)
            value = value.transpose(0, 2, 1)
        weights[key] = value.astype(mx.bfloat16)
    config = json.loads((src / "config.json").read_text())
    config["_name_or_path"] = str(src)
    if bits:
        quantization = {"group_size": 64, "bits": bits}
        for key in sorted(k for k in weights if is_linear_weight(k) and weights[k].shape[-1] % 64 == 0):
            layer = key[: -len(".weight")]
            layer_bits = (overrides or {}).get(layer, bits)
            if layer_bits != bits:
                quantization[layer] = {"group_size": 64, "bits": layer_bits}
            weights[key], weights[f"{layer}.scales"], weights[f"{layer}.biases"] = mx.quantize(
                weights[key], group_size=64, bits=layer_bits)
        config["quantization"] = quantization
    dest.mkdir()
    mx.save_safetensors(str(dest / "model.safetensors"), weights, metadata={"format": "mlx"} if metadata else None)
    index = {"metadata": {"total_size": sum(v.nbytes for v in weights.values()), "total_parameters": 0},
             "weight_map": dict.fromkeys(sorted(weights), "model.safetensors")}
    (dest / "model.safetensors.index.json").write_text(json.dumps(index, indent=4))
    save_config(config, config_path=dest / "config.json")
    for name in COPIED:
        shutil.copyfile(src / name, dest / name)
    shutil.copytree(src / "speech_tokenizer", dest / "speech_tokenizer")
    (dest / "README.md").write_text("This model was converted to MLX format using mlx-audio version 0.3.0.\n")
    return dest


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    root = tmp_path_factory.mktemp("checkpoints")
    return {name: Path(checkpoint_dir(name, root)) for name in ("custom_voice-0b6", "base-0b6", "custom_voice-1b7")}


def greedy(tts, frames=6):
    return tts.generate(TEXT, language="english", temperature=0.0, max_tokens=frames, decode=False).codes


def layout(folder: Path) -> bool:
    config = ModelConfig.from_json_dict(json.loads((folder / "config.json").read_text()))
    return layouts.is_mlx_layout(sorted(folder.glob("model*.safetensors")), config)


def test_layout_is_told_by_markers(tmp_path, sources):
    src = sources["base-0b6"]
    assert layout(src) is False
    assert layout(mlx_community_folder(src, tmp_path / "bf16")) is True
    assert layout(mlx_community_folder(src, tmp_path / "q4", bits=4, metadata=False)) is True
    assert layout(cv.convert(str(src), str(tmp_path / "ours"))) is True


@pytest.mark.parametrize("name", ["custom_voice-0b6", "base-0b6"])
def test_bf16_folder_speaks_like_the_released_one(tmp_path, sources, name):
    src = sources[name]
    released, community = load(str(src)), load(str(mlx_community_folder(src, tmp_path / "bf16")))
    np.testing.assert_array_equal(greedy(released), greedy(community))
    if name.startswith("base"):
        from mlx_qwen3tts.model.speaker_encoder import extract_xvector

        audio = (np.sin(np.linspace(0, 300, 24000)) * 0.3).astype(np.float32)
        np.testing.assert_array_equal(
            np.array(extract_xvector(released.model.speaker_encoder, audio)),
            np.array(extract_xvector(community.model.speaker_encoder, audio)),
        )


@pytest.mark.parametrize("name, bits", [("custom_voice-0b6", 4), ("base-0b6", 8), ("custom_voice-1b7", 6)])
def test_quantized_folder_loads_and_speaks(tmp_path, sources, name, bits):
    folder = mlx_community_folder(sources[name], tmp_path / f"{bits}bit", bits=bits)
    stored = mx.load(str(folder / "model.safetensors"))
    tts = load(str(folder))
    modules = dict(tts.model.named_modules())
    quantized = {p for p, m in modules.items() if isinstance(m, nn.QuantizedLinear)}
    assert quantized == {k[: -len(".scales")] for k in stored if k.endswith(".scales")}
    assert quantized and all(modules[p].bits == bits for p in quantized)
    assert isinstance(modules["talker.model.text_embedding"], nn.Embedding)
    assert not isinstance(modules["talker.model.text_embedding"], nn.QuantizedEmbedding)
    result = tts.generate(TEXT, language="english", temperature=0.0, max_tokens=4)
    assert result.codes.shape[1] == 16 and result.audio.size > 0 and np.isfinite(result.audio).all()


def test_per_layer_overrides_are_honoured(tmp_path, sources):
    heads = {f"talker.code_predictor.lm_head.{i}": 8 for i in range(15)}
    folder = mlx_community_folder(sources["custom_voice-0b6"], tmp_path / "mixed", bits=4, overrides=heads)
    modules = dict(load(str(folder)).model.named_modules())
    assert modules["talker.code_predictor.lm_head.7"].bits == 8
    assert modules["talker.model.layers.0.mlp.gate_proj"].bits == 4


def test_our_linear_only_conversion_equals_the_community_layout(tmp_path, sources):
    """Same source, same settings: our converter stores the same tensors under the same names."""
    src = sources["base-0b6"]
    community = mx.load(str(mlx_community_folder(src, tmp_path / "community", bits=4) / "model.safetensors"))
    ours_folder = cv.convert(str(src), str(tmp_path / "ours"), bits=4, recipe="linear-only")
    ours = mx.load(str(ours_folder / "model.safetensors"))
    assert sorted(ours) == sorted(community)
    for key in sorted(ours):
        assert ours[key].dtype == community[key].dtype and mx.array_equal(ours[key], community[key]).item(), key

def test_converting_a_community_bf16_folder(tmp_path, sources):
    """An unquantized MLX-layout source converts without transposing anything twice."""
    src = sources["base-0b6"]
    community = mlx_community_folder(src, tmp_path / "bf16")
    a = mx.load(str(cv.convert(str(src), str(tmp_path / "from-released")) / "model.safetensors"))
    b = mx.load(str(cv.convert(str(community), str(tmp_path / "from-community")) / "model.safetensors"))
    assert sorted(a) == sorted(b)
    for key in a:
        assert mx.array_equal(a[key], b[key]).item(), key
