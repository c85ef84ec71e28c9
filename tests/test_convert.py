"""mlx_qwen3tts.convert: recipes, round trips, byte stability, refusals and failure cleanup.

Sources are the tiny released-layout checkpoints of tests/fixture_checkpoints.py. The size target
(4-bit talker and code predictor at most 0.35 of bf16) is checked on the released 0.6B shapes,
from shapes alone.
"""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import mlx.core as mx
import mlx.nn as nn
import numpy as np
import pytest
from click.testing import CliRunner

from mlx_qwen3tts import convert as cv
from mlx_qwen3tts.model.config import ModelConfig
from mlx_qwen3tts.errors import InputError, ModelLoadError, Qwen3TTSError
from mlx_qwen3tts.model.talker import Qwen3TTSModel
from mlx_qwen3tts.tts import load

from fixture_checkpoints import checkpoint_dir  # noqa: E402
from tiny_configs import model_config  # noqa: E402

TEXT = "Hello there."


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    root = tmp_path_factory.mktemp("checkpoints")
    return {name: Path(checkpoint_dir(name, root)) for name in ("custom_voice-0b6", "base-0b6", "custom_voice-1b7")}


@pytest.fixture(scope="module")
def cv0b6(sources):
    return sources["custom_voice-0b6"]


def greedy_codes(tts, frames=6, **kwargs):
    return tts.generate(TEXT, language="english", temperature=0.0, max_tokens=frames, decode=False, **kwargs).codes


def quantized_bits(model) -> dict:
    return {p: m.bits for p, m in model.named_modules() if isinstance(m, (nn.QuantizedLinear, nn.QuantizedEmbedding))}


# --- options and refusals -------------------------------------------------------------------------

@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"recipe": "fancy"}, "unknown recipe 'fancy'"),
        ({"bits": 3}, "bits must be one of 4, 6, 8, got 3"),
        ({"bits": 4, "group_size": 48}, "group_size must be one of 32, 64, 128, got 48"),
        ({"dtype": "int8"}, "dtype must be one of"),
        ({"recipe": "all8", "bits": 4}, "recipe all8 quantizes the talker at 8 bits, not 4"),
        ({"recipe": "talker4-cp8", "bits": 8}, "leave out bits or give bits 4"),
        ({"max_shard_size_gb": 0}, "max_shard_size_gb must be positive, got 0"),
    ],
)
def test_bad_options_are_refused_before_any_work(tmp_path, kwargs, message):
    """From Python the messages name convert()'s arguments (the command line names its options: below)."""
    with pytest.raises(InputError, match=message.replace("(", r"\(")) as refused:
        cv.convert(str(tmp_path / "no-such-source"), str(tmp_path / "out"), **kwargs)
    assert "--" not in str(refused.value)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--recipe", "fancy"], "unknown recipe"),
        (["--bits", "3"], "--bits must be one of 4, 6, 8"),
        (["--bits", "4", "--group-size", "48"], "--group-size must be one of 32, 64, 128"),
        (["--dtype", "int8"], "--dtype must be one of"),
        (["--recipe", "talker4-cp8", "--bits", "8"], "leave out --bits or give --bits 4"),
        (["--max-shard-size", "0"], "--max-shard-size must be positive, got 0"),
        (["--max-shard-size", "abc"], "'abc' is not a valid float"),  # click's own checks: one line too
        (["--bogus"], "No such option '--bogus'"),
    ],
)
def test_cli_bad_options_one_line_error(tmp_path, cv0b6, args, message):
    result = CliRunner().invoke(cv.main, ["--model", str(cv0b6), "--output", str(tmp_path / "out"), *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_source_that_is_not_qwen3_tts(tmp_path):
    src = tmp_path / "llama"
    src.mkdir()
    (src / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_size": 64}))
    with pytest.raises(ModelLoadError, match="not Qwen3-TTS"):
        cv.convert(str(src), str(tmp_path / "out"), bits=4)
    result = CliRunner().invoke(cv.main, ["--model", str(src), "--output", str(tmp_path / "out")])
    assert result.exit_code == 2 and "not Qwen3-TTS" in result.stderr and result.stderr.count("\n") == 1
    with pytest.raises(ModelLoadError, match="does not exist"):
        cv.convert(str(tmp_path / "missing"), str(tmp_path / "out"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["llama"]


def test_existing_output_is_refused_unless_force(tmp_path, cv0b6):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(cv.ConversionError, match="exists; .*pass force to replace it"):
        cv.convert(str(cv0b6), str(out))
    assert (out / "keep.txt").read_text() == "mine"
    result = CliRunner().invoke(cv.main, ["--model", str(cv0b6), "--output", str(out)])
    assert result.exit_code == 2 and "pass --force to replace it" in result.stderr
    cv.convert(str(cv0b6), str(out), force=True)
    assert not (out / "keep.txt").exists() and (out / "config.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_force_replaces_only_a_folder(tmp_path, cv0b6):
    out = tmp_path / "out"
    out.write_text("mine")
    with pytest.raises(cv.ConversionError, match="is not a folder; force only replaces folders"):
        cv.convert(str(cv0b6), str(out), force=True)
    result = CliRunner().invoke(cv.main, ["--model", str(cv0b6), "--output", str(out), "--force"])
    assert result.exit_code == 2 and "is not a folder; --force only replaces folders" in result.stderr
    assert out.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_output_parent_must_exist(tmp_path, cv0b6):
    with pytest.raises(cv.ConversionError, match="does not exist"):
        cv.convert(str(cv0b6), str(tmp_path / "missing" / "out"))
    assert list(tmp_path.iterdir()) == []


def test_force_never_deletes_the_source(tmp_path, cv0b6):
    with pytest.raises(cv.ConversionError, match="overwrite the source"):
        cv.convert(str(cv0b6), str(cv0b6), force=True)
    assert (cv0b6 / "model.safetensors").exists()


def test_already_quantized_source_is_refused(tmp_path, cv0b6):
    out = cv.convert(str(cv0b6), str(tmp_path / "q"), bits=8, group_size=32)
    with pytest.raises(ModelLoadError, match="already quantized"):
        cv.convert(str(out), str(tmp_path / "again"), bits=4)


# --- failures leave nothing behind ----------------------------------------------------------------

def test_disk_full_half_way_leaves_nothing(tmp_path, cv0b6, monkeypatch):
    calls = []
    real = cv.write_safetensors

    def failing(path, tensors, metadata=None):
        calls.append(path.name)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(path, tensors, metadata)

    monkeypatch.setattr(cv, "write_safetensors", failing)
    with pytest.raises(cv.ConversionError, match="No space left on device"):
        cv.convert(str(cv0b6), str(tmp_path / "out"), bits=4, group_size=32, max_shard_size_gb=1e-3)
    assert len(calls) == 2
    assert list(tmp_path.iterdir()) == []

    calls.clear()
    result = CliRunner().invoke(cv.main, ["--model", str(cv0b6), "--output", str(tmp_path / "out"),
                                          "--max-shard-size", "0.001"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "No space left" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_short_write_is_detected(tmp_path, cv0b6, monkeypatch):
    """mx.save_safetensors may not report a full disk: the length check must."""
    real = mx.save_safetensors

    def short(path, tensors, metadata=None):
        real(path, tensors, metadata=metadata)
        with open(path, "r+b") as f:
            f.truncate(Path(path).stat().st_size // 2)

    monkeypatch.setattr(mx, "save_safetensors", short)
    with pytest.raises(cv.ConversionError, match="written short"):
        cv.convert(str(cv0b6), str(tmp_path / "out"))
    assert list(tmp_path.iterdir()) == []


def test_failed_replace_keeps_the_old_output(tmp_path, cv0b6, monkeypatch):
    out = cv.convert(str(cv0b6), str(tmp_path / "out"))
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    monkeypatch.setattr(cv, "write_safetensors", lambda *a, **k: (_ for _ in ()).throw(OSError(28, "disk full")))
    with pytest.raises(cv.ConversionError):
        cv.convert(str(cv0b6), str(out), bits=4, force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_bits_that_agree_with_a_fixed_recipe_are_accepted():
    # README: `--bits 4 --recipe talker4-cp8`; --bits names the talker's bits, the recipe the rest.
    assert cv.recipe_bits("talker4-cp8", 4) == cv.recipe_bits("talker4-cp8", None) == cv.FIXED_RECIPES["talker4-cp8"]
    assert cv.recipe_bits("all8", 8) == cv.FIXED_RECIPES["all8"]


def test_converted_folder_has_the_users_normal_permissions(tmp_path, cv0b6):
    previous = os.umask(0o022)
    try:
        out = cv.convert(str(cv0b6), str(tmp_path / "out"))
    finally:
        os.umask(previous)
    assert stat.S_IMODE(out.stat().st_mode) == 0o755  # as mkdir makes it; mkdtemp alone gives 0o700
    for path in out.rglob("*"):
        assert stat.S_IMODE(path.stat().st_mode) == (0o755 if path.is_dir() else 0o644), path


# --- what a converted folder holds ----------------------------------------------------------------

def test_byte_stable(tmp_path, cv0b6):
    a = cv.convert(str(cv0b6), str(tmp_path / "a"), recipe="talker4-cp8", group_size=32)
    b = cv.convert(str(cv0b6), str(tmp_path / "b"), recipe="talker4-cp8", group_size=32)
    files = lambda d: {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}  # noqa: E731
    fa, fb = files(a), files(b)
    assert sorted(fa) == sorted(fb)
    assert [name for name in fa if fa[name] != fb[name]] == []


def test_folder_layout_config_and_card(tmp_path, cv0b6):
    out = cv.convert(str(cv0b6), str(tmp_path / "out"), recipe="talker4-cp8", group_size=32, max_shard_size_gb=1e-3)
    config = json.loads((out / "config.json").read_text())
    source_config = json.loads((cv0b6 / "config.json").read_text())
    assert config["model_type"] == "qwen3_tts" and config["talker_config"] == source_config["talker_config"]
    q = config["quantization"]
    assert q == config["quantization_config"]
    assert (q["group_size"], q["bits"], q["mode"]) == (32, 4, "affine")
    assert q["talker.code_predictor.lm_head.0"] == {"group_size": 32, "bits": 8, "mode": "affine"}
    assert q["talker.codec_head"]["bits"] == 8
    assert "talker.model.layers.0.self_attn.q_proj" not in q
    assert config["mlx_qwen3tts"]["recipe"] == "talker4-cp8"

    index = json.loads((out / "model.safetensors.index.json").read_text())
    shards = sorted(set(index["weight_map"].values()))
    assert len(shards) > 1 and shards[0] == f"model-00001-of-{len(shards):05d}.safetensors"
    stored = {}
    for shard in shards:
        tensors, metadata = mx.load(str(out / shard), return_metadata=True)
        assert metadata == {"format": "mlx"}
        stored.update(tensors)
    assert set(stored) == set(index["weight_map"])
    assert "talker.model.text_embedding.scales" in stored and "talker.model.codec_embedding.scales" not in stored

    for name in ("config.json", "model.safetensors", "preprocessor_config.json"):
        if (cv0b6 / "speech_tokenizer" / name).exists():
            assert (out / "speech_tokenizer" / name).read_bytes() == (cv0b6 / "speech_tokenizer" / name).read_bytes()
    for name in ("generation_config.json", "vocab.json", "merges.txt", "tokenizer_config.json"):
        if (cv0b6 / name).exists():
            assert (out / name).read_bytes() == (cv0b6 / name).read_bytes()
    card = (out / "README.md").read_text()
    assert card.startswith("---\nlibrary_name: mlx\n") and "8-bit affine, group size 32" in card
    assert "float32, as released" in card


# --- round trips ----------------------------------------------------------------------------------

# The recipes as the module docstring states them, by checkpoint name (first match wins).
PARTS = [
    (r"talker\.code_predictor\.lm_head\.\d+$|talker\.codec_head$", "heads"),
    (r"talker\.model\.codec_embedding$|talker\.code_predictor\.model\.codec_embedding\.\d+$", "codec_embedding"),
    (r"talker\.model\.text_embedding$", "text_embedding"),
    (r"talker\.code_predictor\.", "code_predictor"),
    (r"talker\.(model\.layers|text_projection)\.", "talker"),
]
ROUND_TRIPS = [
    ("uniform-4", {"bits": 4}, {"talker": 4, "text_embedding": 4, "code_predictor": 4, "heads": 4}),
    ("uniform-6", {"bits": 6, "recipe": "uniform"},
     {"talker": 6, "text_embedding": 6, "code_predictor": 6, "heads": 6}),
    ("linear-only-8", {"bits": 8, "recipe": "linear-only"}, {"talker": 8, "code_predictor": 8, "heads": 8}),
    ("talker4-cp8", {"recipe": "talker4-cp8"}, {"talker": 4, "text_embedding": 4, "code_predictor": 8, "heads": 8}),
    ("all8", {"recipe": "all8"},
     dict.fromkeys(["talker", "text_embedding", "codec_embedding", "code_predictor", "heads"], 8)),
]


def expected_bits(model, recipe: dict, group_size: int) -> dict:
    """Every Linear/Embedding of the recipe's parts whose input width divides by the group size."""
    import re

    out = {}
    for path, module in model.named_modules():
        if not isinstance(module, (nn.Linear, nn.Embedding, nn.QuantizedLinear, nn.QuantizedEmbedding)):
            continue
        part = next((name for pattern, name in PARTS if re.match(pattern, path)), None)
        width = module.weight.shape[-1] * 32 // module.bits if hasattr(module, "bits") else module.weight.shape[-1]
        if part in recipe and width % group_size == 0:
            out[path] = recipe[part]
    return out


@pytest.mark.parametrize("name, options, recipe", ROUND_TRIPS, ids=[r[0] for r in ROUND_TRIPS])
def test_round_trip_speaks(tmp_path, cv0b6, name, options, recipe):
    out = cv.convert(str(cv0b6), str(tmp_path / name), group_size=32, **options)
    tts = load(str(out))
    bits = quantized_bits(tts.model)
    assert bits and bits == expected_bits(tts.model, recipe, 32)
    result = tts.generate(TEXT, language="english", temperature=0.0, max_tokens=4)
    assert result.codes.shape[1] == 16 and result.codes.shape[0] >= 1
    assert result.audio.size > 0 and np.isfinite(result.audio).all()


@pytest.mark.parametrize("name", ["base-0b6", "custom_voice-1b7"])
def test_quantized_round_trip_other_variants(tmp_path, sources, name):
    out = cv.convert(str(sources[name]), str(tmp_path / "q"), bits=4, group_size=32)
    tts = load(str(out))
    assert quantized_bits(tts.model)
    assert greedy_codes(tts, 3).shape == (3, 16)


def test_float32_conversion_is_greedy_identical(tmp_path, sources):
    """Base covers the talker, the code predictor and the speaker encoder's kernels."""
    src = sources["base-0b6"]
    out = cv.convert(str(src), str(tmp_path / "f32"), dtype="float32")
    original, converted = load(str(src), dtype=mx.float32), load(str(out))
    assert converted.model.talker.codec_head.weight.dtype == mx.float32
    np.testing.assert_array_equal(greedy_codes(original, 8), greedy_codes(converted, 8))
    from mlx_qwen3tts.model.speaker_encoder import extract_xvector

    audio = np.sin(np.linspace(0, 400, 24000)).astype(np.float32) * 0.3
    a = extract_xvector(original.model.speaker_encoder, audio)
    b = extract_xvector(converted.model.speaker_encoder, audio)
    np.testing.assert_array_equal(np.array(a), np.array(b))


def test_upload_goes_through_huggingface_hub(tmp_path, cv0b6, monkeypatch):
    import huggingface_hub

    calls = []

    class FakeApi:
        def create_repo(self, **kw):
            calls.append(("create", kw["repo_id"]))

        def upload_folder(self, **kw):
            calls.append(("upload", kw["repo_id"], Path(kw["folder_path"]).name))

    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    out = cv.convert(str(cv0b6), str(tmp_path / "up"), bits=8, group_size=32, upload_repo="someone/tts-8bit")
    assert calls == [("create", "someone/tts-8bit"), ("upload", "someone/tts-8bit", "up")]
    assert "# tts-8bit" in (out / "README.md").read_text()

    def broken(**kw):
        raise RuntimeError("401 Unauthorized")

    monkeypatch.setattr(FakeApi, "upload_folder", lambda self, **kw: broken(**kw))
    with pytest.raises(Qwen3TTSError, match="upload to someone/x failed: 401"):
        cv.convert(str(cv0b6), str(tmp_path / "up2"), upload_repo="someone/x")
    assert (tmp_path / "up2" / "config.json").exists()


def test_module_runs_as_script():
    result = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.convert", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "--recipe" in result.stdout


# --- the size target on the released 0.6B shapes --------------------------------------------------

def released_0b6():
    cfg = model_config("0b6", "custom_voice")
    cfg["talker_config"].update(hidden_size=1024, intermediate_size=3072, num_hidden_layers=28, num_attention_heads=16,
                                num_key_value_heads=8, head_dim=128, text_hidden_size=2048)
    cfg["talker_config"]["code_predictor_config"].update(
        hidden_size=1024, intermediate_size=3072, num_hidden_layers=5, num_attention_heads=16, num_key_value_heads=8,
        head_dim=128)
    return Qwen3TTSModel(ModelConfig.from_json_dict(cfg))  # lazy: nothing is allocated


@pytest.mark.parametrize(
    "recipe, bits, limit",
    [("uniform", 4, 0.35), ("talker4-cp8", None, 0.35), ("uniform", 8, 0.6), ("linear-only", 4, 0.6)],
)
def test_size_on_released_0b6_shapes(recipe, bits, limit):
    model = released_0b6()
    bf16 = cv.stored_bytes(model, {}, 64)
    assert 1.80e9 < bf16 < 1.84e9  # the released model.safetensors is 1.83 GB
    plan = cv.quantization_plan(model, cv.recipe_bits(recipe, bits), 64)
    assert cv.stored_bytes(model, plan, 64) / bf16 <= limit
