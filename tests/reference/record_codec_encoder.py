"""Record reference codes of the codec encoder (reference audio -> 16 codebooks at 12.5 Hz).

Run in the torch environment from the repository root:
    /work/venvs/ref/bin/python tests/reference/record_codec_encoder.py
        builds a random tiny `Qwen3TTSTokenizerV2Model` from `SPEECH_TOKENIZER_CONFIG` and writes
        tests/fixtures/codec_encoder/{config.json, weights_manifest.json, reference.npz}
    /work/venvs/ref/bin/python tests/reference/record_codec_encoder.py --speech-tokenizer DIR
        records codes for an existing speech_tokenizer folder (e.g. another tiny checkpoint);
        writes tests/fixtures/codec_encoder/reference-<name>.npz pointing at DIR

The random weights are not stored: 32 Mimi codebooks of 2048 x 16 floats alone exceed the fixture
budget. `spread_state_dict` regenerates them bit for bit from a seed with plain numpy (uniform draws
and arithmetic only); the test rebuilds the released layout (model.safetensors in torch layout,
decoder keys included) from `weights_manifest.json` and checks the sha256 recorded here.
Test signals come from `make_signal`, also exact arithmetic, also hashed.

Reference path: `Qwen3TTSTokenizer.from_pretrained(folder).encode(wav, sr=24000)` (qwen_tts 0.1.1),
single clips and one batch of two. For one signal the pre-quantization latents (downsample output)
are recorded too, and for every code the distance of the residual to the nearest decision boundary
of its codebook relative to the residual's norm (`margins`), so near ties can be told from bugs.
"""

import argparse
import hashlib
import json
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tiny_configs import SPEECH_TOKENIZER_CONFIG  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "codec_encoder"
SAMPLE_RATE = 24000
SEED = 20260
SIGNALS = {  # name: (samples, seed); 48000 is a whole number of 1920-sample frames, the rest not
    "two_seconds": (48000, 1),
    "one_second": (24000, 2),
    "one_point_37": (32880, 3),
    "two_and_a_half_plus_7": (60007, 4),
    "ten_point_6": (254400, 5),  # 265 encoder-transformer positions: past Mimi's 250 window
    "short_700": (700, 6),
}
BATCH = ("one_second", "one_point_37")
LATENTS_OF = "two_and_a_half_plus_7"
PREPROCESSOR_CONFIG = {
    "chunk_length_s": None, "feature_extractor_type": "EncodecFeatureExtractor", "feature_size": 1,
    "overlap": None, "padding_side": "right", "padding_value": 0.0, "return_attention_mask": True,
    "sampling_rate": SAMPLE_RATE,
}

# Codebook spreads, tuned so codewords cover the latents they quantize: the semantic codebook and
# the first acoustic one match the projected latents; acoustic level j shrinks like the residual.
LATENT_STD = 2.4
ACOUSTIC_DECAY = 0.9


def _uniform(rng, shape, std):
    return (rng.random(shape) * 2.0 - 1.0) * (std * math.sqrt(3.0))


def spread_state_dict(shapes: dict, seed: int = SEED) -> dict:
    """Random Qwen3TTSTokenizerV2Model weights (torch layout, float32) from key names and shapes.

    Unlike the upstream init, layer scales are large (the transformer matters), codebooks are
    spread to the latents' scale with positive, uneven `cluster_usage`, so nearest-codeword
    choices are decided by clear margins. Numpy only, deterministic to the bit.
    """
    rng = np.random.default_rng(seed)
    out = {}
    for name, shape in shapes.items():
        shape = tuple(shape)
        if name.endswith(".initialized"):
            value = np.ones(shape)
        elif name.endswith(".cluster_usage"):
            value = 0.5 + 1.5 * rng.random(shape)
        elif name.endswith(".embed_sum") or name.endswith(".embedding_sum"):
            usage = out[name.rsplit(".", 1)[0] + ".cluster_usage"]
            level = int(name.split(".layers.")[1].split(".")[0])
            std = LATENT_STD * (ACOUSTIC_DECAY ** level if "acoustic" in name else 1.0)
            value = _uniform(rng, shape, std) * usage[:, None]
        elif "layernorm" in name or name.endswith("norm.weight"):
            value = (1.0 if name.endswith("weight") else 0.0) + _uniform(rng, shape, 0.1)
        elif name.endswith(".scale") or name.endswith(".gamma"):
            value = 0.3 + 0.5 * rng.random(shape)
        elif len(shape) == 1:
            value = _uniform(rng, shape, 0.1)
        else:
            fan_in = int(np.prod(shape[1:]))
            gain = 2.0 if name.endswith(".conv.weight") else 1.0
            value = _uniform(rng, shape, math.sqrt(gain / fan_in))
        out[name] = value.astype(np.float32)
    return out


def make_signal(n_samples: int, seed: int) -> np.ndarray:
    """Three triangle tones under a slow triangle envelope plus uniform noise, peak about 0.6."""
    rng = np.random.default_rng(seed)
    t = np.arange(n_samples, dtype=np.float64) / SAMPLE_RATE
    tri = lambda x: 4.0 * np.abs(x - np.floor(x) - 0.5) - 1.0  # noqa: E731
    y = np.zeros(n_samples)
    for freq, gain in zip(80.0 + 600.0 * rng.random(3), 0.1 + 0.2 * rng.random(3)):
        y += gain * tri(freq * t + rng.random())
    envelope = 0.55 + 0.45 * tri(0.7 * t)
    return (0.6 * envelope * y / 0.9 + 0.05 * (2.0 * rng.random(n_samples) - 1.0)).astype(np.float32)


def sha256(arrays) -> str:
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(np.ascontiguousarray(array, dtype=np.float32).tobytes())
    return digest.hexdigest()


def _margins(rvq, latents, n_levels):
    """(T, n_levels) relative margins of the codes `rvq` picks, and those codes, in float64."""
    import torch

    with torch.no_grad():
        residual = rvq.input_proj(latents) if rvq.input_proj is not None else latents
    residual = residual[0].T.double().numpy()  # (T, D)
    margins, codes = [], []
    for layer in rvq.layers[:n_levels]:
        embed = layer.codebook.embed.double().numpy()
        dist2 = ((residual[:, None, :] - embed[None]) ** 2).sum(-1)  # (T, K)
        best = dist2.argmin(-1)
        gap = dist2 - dist2[np.arange(len(best)), best][:, None]
        sep = np.linalg.norm(embed[None] - embed[best][:, None], axis=-1)
        boundary = gap / (2.0 * np.maximum(sep, 1e-30))  # distance to each Voronoi face
        boundary[np.arange(len(best)), best] = np.inf
        boundary = boundary.min(-1)
        margins.append(boundary / np.linalg.norm(residual, axis=-1))
        codes.append(best)
        residual = (residual.astype(np.float32) - embed.astype(np.float32)[best]).astype(np.float64)
    return np.stack(margins, -1), np.stack(codes, -1)


def record(folder: Path, out_path: Path, extra: dict) -> None:
    import _torchaudio_stub  # noqa: F401  (before qwen_tts)
    import torch

    from qwen_tts.inference.qwen3_tts_tokenizer import Qwen3TTSTokenizer

    tokenizer = Qwen3TTSTokenizer.from_pretrained(str(folder))
    model = tokenizer.model.eval()
    n_valid = model.encoder_valid_num_quantizers
    n_semantic = model.encoder.config.num_semantic_quantizers
    arrays = dict(extra)
    signals = {name: make_signal(n, seed) for name, (n, seed) in SIGNALS.items()}
    arrays["signals_sha256"] = np.array(sha256(signals[name] for name in SIGNALS))
    for name, wav in signals.items():
        codes = tokenizer.encode(wav, sr=SAMPLE_RATE).audio_codes[0].numpy()
        assert codes.shape == (math.ceil(wav.size / 1920), n_valid), codes.shape
        with torch.no_grad():
            encoder = model.encoder
            hidden = encoder.encoder(torch.from_numpy(wav)[None, None])
            hidden = encoder.encoder_transformer(hidden.transpose(1, 2))[0].transpose(1, 2)
            latents = encoder.downsample(hidden)[..., : codes.shape[0]]
        quantizer = encoder.quantizer
        sem_margin, sem_codes = _margins(quantizer.semantic_residual_vector_quantizer, latents, n_semantic)
        ac_margin, ac_codes = _margins(quantizer.acoustic_residual_vector_quantizer, latents, n_valid - n_semantic)
        margins = np.concatenate([sem_margin, ac_margin], -1)
        replayed = np.concatenate([sem_codes, ac_codes], -1)
        ties = replayed != codes
        assert np.all(margins[ties] < 1e-5), "float64 replay disagrees with the reference away from a tie"
        arrays[f"{name}/codes"] = codes.astype(np.int16)
        arrays[f"{name}/margins"] = margins.astype(np.float32)
        if name == LATENTS_OF:
            arrays[f"{name}/latents"] = latents[0].T.numpy().astype(np.float32)  # (T, hidden)
        print(f"{name:>24}: {wav.size:6d} samples -> {codes.shape}, min margin {margins.min():.2e}, "
              f"{len(np.unique(codes[:, 0]))} distinct semantic codes")
    batch = tokenizer.encode([signals[name] for name in BATCH], sr=SAMPLE_RATE).audio_codes
    for name, codes in zip(BATCH, batch):
        arrays[f"batch/{name}/codes"] = codes.numpy().astype(np.int16)
        changed = (codes.numpy() != arrays[f"{name}/codes"]).any(-1).sum()
        print(f"  batched {name}: {changed} frame(s) differ from the single-clip encoding")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out_path, **arrays)
    print(f"wrote {out_path.relative_to(ROOT)} ({out_path.stat().st_size} bytes)")


def build_random(folder: Path) -> dict:
    """Save a random tiny speech tokenizer in the released layout; write its config and manifest."""
    import _torchaudio_stub  # noqa: F401  (before qwen_tts)
    import torch

    from qwen_tts.core.tokenizer_12hz.configuration_qwen3_tts_tokenizer_v2 import Qwen3TTSTokenizerV2Config
    from qwen_tts.core.tokenizer_12hz.modeling_qwen3_tts_tokenizer_v2 import Qwen3TTSTokenizerV2Model

    model = Qwen3TTSTokenizerV2Model(Qwen3TTSTokenizerV2Config(**SPEECH_TOKENIZER_CONFIG))
    shapes = {name: list(value.shape) for name, value in model.state_dict().items()}
    weights = spread_state_dict(shapes)
    model.load_state_dict({name: torch.from_numpy(value) for name, value in weights.items()}, strict=True)
    model.save_pretrained(folder)
    (folder / "preprocessor_config.json").write_text(json.dumps(PREPROCESSOR_CONFIG, indent=2))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "config.json").write_text((folder / "config.json").read_text())
    manifest = {"seed": SEED, "shapes": shapes,
                "sha256_encoder": sha256(weights[k] for k in shapes if k.startswith("encoder."))}
    (OUT / "weights_manifest.json").write_text(json.dumps(manifest, indent=0))
    return {"source": np.array(f"seed:{SEED}")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speech-tokenizer", type=Path, help="record an existing speech_tokenizer folder")
    args = parser.parse_args()
    if args.speech_tokenizer is not None:
        folder = args.speech_tokenizer.resolve()
        source = folder.relative_to(ROOT).as_posix() if folder.is_relative_to(ROOT) else str(folder)
        name = "-".join(folder.parts[-3:-1] if folder.name == "speech_tokenizer" else folder.parts[-2:])
        record(folder, OUT / f"reference-{name}.npz", {"source": np.array(source)})
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "speech_tokenizer"
        extra = build_random(folder)
        record(folder, OUT / "reference.npz", extra)


if __name__ == "__main__":
    main()
