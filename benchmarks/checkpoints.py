"""Random-weight checkpoints in the released layout, for benchmarking without the released weights.

Presets (all CustomVoice, so neither the speaker encoder nor the codec encoder is needed):
- tiny     the test shapes of tests/reference/tiny_configs.py (tiny codec too): seconds per run
- narrow   "overhead-bound": released depth (28 talker layers, 5 code-predictor layers, 16 codebooks,
           released codec) with 64-wide talker and code predictor, so arithmetic is negligible and
           the per-step overhead that Apple GPUs see dominates
- 0.6B     released shapes: talker 1024 / 3072 FFN / 28 layers, 16 / 8 heads of 128, text embedding
           151936 x 2048, text_projection 2048 -> 2048 -> 1024, code predictor 1024 / 3072 / 5 layers
- 1.7B     talker 2048 / 6144 / 28 layers; code predictor 1024 with small_to_mtp_projection 2048 -> 1024
The released codec (speech_tokenizer/config.json of Qwen3-TTS-Tokenizer-12Hz): decoder hidden 512,
FFN 1024, 8 layers, 16 heads of 64, latent 1024, codebook_dim 512 (256 per codebook), decoder_dim
1536; speech_tokenizer/model.safetensors holds the decoder only (CustomVoice never encodes).

Files are written as released: model.safetensors in bf16 under the checkpoint's key names (the
talker has no convolutions, so its layout is MLX's too), speech_tokenizer/model.safetensors in
float32 torch layout (Conv1d (out, in, k), ConvTranspose1d (in, out, k), codebooks as
`_codebook.embedding_sum` + `cluster_usage`), the real Qwen text tokenizer from the test fixtures.
Shapes come from the package's own modules, so a checkpoint always loads with `mlx_qwen3tts.load`.
Weights are Gaussian with 1/sqrt(fan_in) scale (embeddings unit, heads giving logits of std ~4);
the codec head's EOS row is zero, so sampled runs never stop early and every run has the frames
asked for. Quantized variants go through `mlx_qwen3tts.convert` (recipe linear-only by default:
the coverage of the mlx-community repos, which mlx-audio also loads).
"""

import hashlib
import json
import os
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reference")]

import mlx_qwen3tts  # noqa: E402,F401  (before mlx.core: the package loads OpenBLAS first)
import mlx.core as mx  # noqa: E402
import mlx.nn as nn  # noqa: E402
from mlx.utils import tree_flatten  # noqa: E402

import tiny_configs  # noqa: E402
from mlx_qwen3tts.codec.decoder import CodecDecoder, DecoderArgs  # noqa: E402
from mlx_qwen3tts.model.config import ModelConfig  # noqa: E402
from mlx_qwen3tts.model.talker import Qwen3TTSModel  # noqa: E402

PRESETS = ("tiny", "narrow", "0.6B", "1.7B")
QUANTS = ("bf16", "8bit", "4bit")
# Where the benchmark scripts keep the checkpoints they write (their --cache).
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mlx-qwen3tts-benchmarks"
TOKENIZER_ARCHIVES = (ROOT / "tests/fixtures/tokenizer/tokenizer.tar.xz",
                      ROOT / "tests/fixtures/checkpoints/text_tokenizer.tar.xz")
RELEASED_DECODER = {
    "codebook_size": 2048, "codebook_dim": 512, "hidden_size": 512, "head_dim": 64, "latent_dim": 1024,
    "max_position_embeddings": 8000, "rope_theta": 10000, "num_attention_heads": 16,
    "num_key_value_heads": 16, "attention_bias": False, "sliding_window": 72, "intermediate_size": 1024,
    "hidden_act": "silu", "layer_scale_initial_scale": 0.01, "rms_norm_eps": 1e-5, "num_hidden_layers": 8,
    "num_quantizers": 16, "num_semantic_quantizers": 1, "semantic_codebook_size": 4096,
    "upsample_rates": [8, 5, 4, 3], "upsampling_ratios": [2, 2], "decoder_dim": 1536, "attention_dropout": 0.0,
}
RELEASED_ENCODER = dict(tiny_configs.ENCODER_CONFIG, hidden_size=512, num_filters=64, num_residual_layers=1,
                        codebook_dim=256, vector_quantization_hidden_dimension=256, num_hidden_layers=8,
                        intermediate_size=2048, num_attention_heads=8, num_key_value_heads=8, head_dim=64)
HEAD_LOGIT_STD = 4.0
# Bump when the generated weights change, so cached checkpoints are rebuilt.
FORMAT_VERSION = 1


def model_config(preset: str) -> dict:
    """config.json of a preset: the released token ids, languages and speakers, the preset's widths."""
    size = "1b7" if preset == "1.7B" else "0b6"
    cfg = tiny_configs.model_config(size, "custom_voice")
    cfg.pop("speaker_encoder_config")
    talker, cp = cfg["talker_config"], cfg["talker_config"]["code_predictor_config"]
    if preset == "tiny":
        return cfg
    if preset == "narrow":
        talker.update(hidden_size=64, intermediate_size=128, num_hidden_layers=28, num_attention_heads=4,
                      num_key_value_heads=2, head_dim=16, text_hidden_size=64)
        cp.update(hidden_size=64, intermediate_size=128, num_hidden_layers=5, num_attention_heads=4,
                  num_key_value_heads=2, head_dim=16)
        return cfg
    hidden = 2048 if preset == "1.7B" else 1024
    talker.update(hidden_size=hidden, intermediate_size=3 * hidden, num_hidden_layers=28, num_attention_heads=16,
                  num_key_value_heads=8, head_dim=128, text_hidden_size=2048)
    cp.update(hidden_size=1024, intermediate_size=3072, num_hidden_layers=5, num_attention_heads=16,
              num_key_value_heads=8, head_dim=128)
    return cfg


def codec_config(preset: str) -> dict:
    if preset == "tiny":
        return json.loads(json.dumps(tiny_configs.SPEECH_TOKENIZER_CONFIG))
    return dict(tiny_configs.SPEECH_TOKENIZER_CONFIG, encoder_config=RELEASED_ENCODER, decoder_config=RELEASED_DECODER)


def _random(shape, std: float, key) -> mx.array:
    return mx.random.normal(shape, key=key) * std


def _model_weights(config: dict, seed: int) -> dict:
    """bf16 tensors under the released key names, one random key per tensor (reproducible)."""
    model = Qwen3TTSModel(ModelConfig.from_json_dict(config))
    embeddings = {f"{p}.weight" for p, m in model.named_modules() if isinstance(m, nn.Embedding)}
    eos = config["talker_config"]["codec_eos_token_id"]
    weights = {}
    for i, (key, value) in enumerate(sorted(tree_flatten(model.parameters()))):
        rng = mx.random.key(seed * 100_003 + i)
        if value.ndim < 2:  # norms, biases: the module's own values
            w = value
        elif key in embeddings:
            w = _random(value.shape, 1.0, rng)
        elif key.endswith(("codec_head.weight",)) or ".lm_head." in key:
            w = _random(value.shape, HEAD_LOGIT_STD / value.shape[-1] ** 0.5, rng)
            if key == "talker.codec_head.weight":
                w[eos] = 0.0
        else:
            w = _random(value.shape, value.shape[-1] ** -0.5, rng)
        weights[key] = w.astype(mx.bfloat16)
        mx.eval(weights[key])
    return weights


def _codec_weights(config: dict, seed: int) -> dict:
    """float32 decoder tensors in the released torch layout (the inverse of CodecDecoder.sanitize)."""
    decoder = CodecDecoder(DecoderArgs.from_dict(config["decoder_config"]))
    conv = {f"{p}.weight" for p, m in decoder.named_modules() if isinstance(m, nn.Conv1d)}
    conv_t = {f"{p}.weight" for p, m in decoder.named_modules() if isinstance(m, nn.ConvTranspose1d)}
    weights = {}
    for i, (key, value) in enumerate(sorted(tree_flatten(decoder.parameters()))):
        rng = mx.random.key(seed * 100_003 + 50_000 + i)
        if value.ndim < 2:
            w = value
        elif key.endswith(".codebook"):
            w = _random(value.shape, 1.0, rng)
        else:
            fan_in = value.shape[-1] * (value.shape[1] if value.ndim == 3 else 1)  # (out, [k,] in)
            w = _random(value.shape, fan_in ** -0.5, rng)
        w = w.astype(mx.float32)
        if key in conv:
            w = w.transpose(0, 2, 1)  # MLX (out, k, in) -> torch (out, in, k)
        elif key in conv_t:
            w = w.transpose(2, 0, 1)  # MLX (out, k, in) -> torch (in, out, k)
        if key.endswith(".codebook"):
            base = key[: -len(".codebook")]
            weights[f"decoder.{base}._codebook.embedding_sum"] = w
            weights[f"decoder.{base}._codebook.cluster_usage"] = mx.ones((w.shape[0],))
        else:
            weights[f"decoder.{key}"] = w
    dec = config["decoder_config"]
    for rvq in ("rvq_first", "rvq_rest"):  # encoder-side projections, present in the released file
        shape = (dec["codebook_dim"] // 2, dec["codebook_dim"], 1)
        weights[f"decoder.quantizer.{rvq}.input_proj.weight"] = _random(shape, dec["codebook_dim"] ** -0.5,
                                                                          mx.random.key(seed + len(weights)))
    mx.eval(weights)
    return weights


def extract_tokenizer(dest: Path):
    for archive in TOKENIZER_ARCHIVES:
        if archive.exists():
            with tarfile.open(archive, "r:xz") as tar:
                for name in tiny_configs.TEXT_TOKENIZER_FILES:
                    (dest / name).write_bytes(tar.extractfile(name).read())
            return
    raise FileNotFoundError("no text tokenizer archive among " + ", ".join(map(str, TOKENIZER_ARCHIVES)))


def spec_hash(preset: str) -> str:
    spec = json.dumps([FORMAT_VERSION, model_config(preset), codec_config(preset)], sort_keys=True)
    return hashlib.sha256(spec.encode()).hexdigest()[:12]


def write_checkpoint(folder: Path, preset: str, seed: int = 0) -> Path:
    """Write the preset's bf16 checkpoint into `folder` (built beside it, renamed into place)."""
    config = model_config(preset)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        (tmp / "config.json").write_text(json.dumps(config, indent=2))
        (tmp / "generation_config.json").write_text(json.dumps(tiny_configs.GENERATION_CONFIG, indent=2))
        extract_tokenizer(tmp)
        weights = _model_weights(config, seed)
        mx.save_safetensors(str(tmp / "model.safetensors"), weights, metadata={"format": "pt"})
        del weights
        codec = tmp / "speech_tokenizer"
        codec.mkdir()
        codec_cfg = codec_config(preset)
        (codec / "config.json").write_text(json.dumps(codec_cfg, indent=2))
        (codec / "preprocessor_config.json").write_text(json.dumps({
            "feature_extractor_type": "EncodecFeatureExtractor", "feature_size": 1, "padding_side": "right",
            "padding_value": 0.0, "return_attention_mask": True, "sampling_rate": 24000}, indent=2))
        codec_weights = _codec_weights(codec_cfg, seed)
        mx.save_safetensors(str(codec / "model.safetensors"), codec_weights, metadata={"format": "pt"})
        (tmp / ".complete").write_text(spec_hash(preset))
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def _quantize(source: Path, output: Path, bits: int, recipe: str):
    try:
        from mlx_qwen3tts.convert import convert
    except ImportError:
        convert = None
    if convert is not None:
        convert(str(source), str(output), bits=bits, recipe=recipe, force=True)
        return
    raise RuntimeError("mlx_qwen3tts.convert is missing: quantized checkpoints need it (or use --quant bf16)")


def checkpoint(preset: str, quant: str, cache: Path, recipe: str = "linear-only", log=print) -> Path:
    """The cached folder for (preset, quant), built on first use."""
    if preset not in PRESETS:
        raise ValueError(f"unknown size {preset!r}; choose from {', '.join(PRESETS)}")
    if quant not in QUANTS:
        raise ValueError(f"unknown quantization {quant!r}; choose from {', '.join(QUANTS)}")
    tag = spec_hash(preset)
    base = cache / f"{preset}-bf16"
    marker = base / ".complete"
    if not (marker.exists() and marker.read_text() == tag):
        log(f"writing random {preset} checkpoint to {base} ...")
        write_checkpoint(base, preset)
    if quant == "bf16":
        return base
    folder = cache / f"{preset}-{quant}-{recipe}"
    marker = folder / ".complete"
    if not (marker.exists() and marker.read_text() == tag):
        log(f"converting {preset} to {quant} ({recipe}) in {folder} ...")
        _quantize(base, folder, int(quant.rstrip("bit")), recipe)
        marker.write_text(tag)
    return folder
