"""Codec encoder (reference audio -> 16 codebooks at 12.5 Hz) against qwen_tts 0.1.1.

Fixtures come from tests/reference/record_codec_encoder.py. Its random tiny speech tokenizer is
rebuilt here in the released layout (config.json + model.safetensors in torch layout, decoder keys
included) from the recorded key list and seed, and checked against the recorded hash; any other
speech_tokenizer folder recorded with `--speech-tokenizer` is tested the same way when present.
"""

import json
from pathlib import Path

import mlx.core as mx
import numpy as np
import pytest
from safetensors.numpy import save_file

from mlx_qwen3tts.codec.encoder import CodecEncoder
from mlx_qwen3tts.codec.speech_tokenizer import load_codec
from mlx_qwen3tts.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "codec_encoder"
from record_codec_encoder import BATCH, LATENTS_OF, SIGNALS, make_signal, sha256, spread_state_dict  # noqa: E402

# A code whose residual lies closer than this (relative to its norm) to another codeword's cell
# may flip under float32 noise (the latents agree to ~1e-6); later levels of its RVQ then follow.
NEAR_TIE = 1e-4
REFERENCES = sorted(FIXTURES.glob("reference*.npz"))


def _random_checkpoint(folder: Path) -> Path:
    manifest = json.loads((FIXTURES / "weights_manifest.json").read_text())
    weights = spread_state_dict(manifest["shapes"], manifest["seed"])
    digest = sha256(value for key, value in weights.items() if key.startswith("encoder."))
    assert digest == manifest["sha256_encoder"], "spread_state_dict no longer reproduces the recorded weights"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text((FIXTURES / "config.json").read_text())
    save_file(weights, str(folder / "model.safetensors"))
    return folder


@pytest.fixture(scope="module", params=REFERENCES, ids=lambda p: p.stem)
def case(request, tmp_path_factory):
    reference = dict(np.load(request.param))
    source = str(reference["source"])
    if source.startswith("seed:"):
        folder = _random_checkpoint(tmp_path_factory.mktemp("codec") / "speech_tokenizer")
    else:
        folder = ROOT / source
        if not folder.exists():
            pytest.skip(f"{source} not built")
    signals = {name: make_signal(n, seed) for name, (n, seed) in SIGNALS.items()}
    assert sha256(signals[name] for name in SIGNALS) == str(reference["signals_sha256"]), "make_signal changed"
    return load_codec(folder, decoder=False).encoder, reference, signals


def _assert_codes_equal(ours, codes, margins, n_semantic):
    """Codes equal, except at a near tie and the later levels of the same RVQ in that frame."""
    near = margins < NEAR_TIE
    allowed = np.concatenate([
        np.maximum.accumulate(near[:, :n_semantic], axis=1), np.maximum.accumulate(near[:, n_semantic:], axis=1),
    ], axis=1)
    assert ours.shape == codes.shape
    differ = ours != codes
    bad = np.argwhere(differ & ~allowed)
    assert bad.size == 0, f"{len(bad)} codes differ away from near ties, first (frame, level): {bad[:5].tolist()}"


@pytest.mark.parametrize("name", list(SIGNALS))
def test_codes_match_reference(case, name):
    encoder, reference, signals = case
    ours = np.array(encoder.encode(signals[name]))
    assert ours.dtype == np.int32
    assert ours.shape == (-(-len(signals[name]) // 1920), 16)
    _assert_codes_equal(ours, reference[f"{name}/codes"], reference[f"{name}/margins"],
                        encoder.config.num_semantic_quantizers)


def test_latents_close(case):
    encoder, reference, signals = case
    expected = reference[f"{LATENTS_OF}/latents"]
    ours = np.array(encoder.latents(mx.array(signals[LATENTS_OF])[None])[0])
    assert ours.shape == expected.shape
    scale = np.abs(expected).max()
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-5 * scale)


def test_batch_matches_reference(case):
    encoder, reference, signals = case
    ours = encoder.encode_batch([signals[name] for name in BATCH])
    for name, codes in zip(BATCH, ours):
        expected = reference[f"batch/{name}/codes"]
        _assert_codes_equal(np.array(codes), expected, reference[f"{name}/margins"],
                            encoder.config.num_semantic_quantizers)


def test_input_forms_agree(case):
    encoder, _, signals = case
    clip = signals["one_second"]
    expected = np.array(encoder.encode(clip))
    for form in (clip.astype(np.float64), clip[None], mx.array(clip), mx.array(clip)[None], clip.tolist()):
        np.testing.assert_array_equal(np.array(encoder.encode(form)), expected)


@pytest.mark.parametrize("n", [1, 1919, 1920, 1921, 3840])
def test_frames_per_clip(case, n):
    encoder, _, _ = case
    codes = encoder.encode(make_signal(n, 7))
    assert codes.shape == (-(-n // 1920), 16)
    assert int(codes.min()) >= 0 and int(codes.max()) < encoder.config.codebook_size


@pytest.mark.parametrize("bad", [np.zeros(0), np.zeros((2, 4000)), np.zeros((4000, 2)), np.zeros((1, 1, 4000))])
def test_rejects_what_is_not_one_clip(case, bad):
    encoder, _, _ = case
    with pytest.raises(InputError):
        encoder.encode(bad)


def test_sanitize_drops_exactly_the_unused_keys():
    config = json.loads((FIXTURES / "config.json").read_text())
    shapes = json.loads((FIXTURES / "weights_manifest.json").read_text())["shapes"]
    weights = {key: mx.zeros(shape) for key, shape in shapes.items()}
    encoder = CodecEncoder(config)
    kept = {"encoder." + key for key in encoder.sanitize(weights)}
    dropped = {key for key in shapes if key.startswith("encoder.")} - kept
    n_kept = config["encoder_valid_num_quantizers"] - config["encoder_config"]["num_semantic_quantizers"]
    for key in dropped:
        level = key.split("acoustic_residual_vector_quantizer.layers.")[-1].split(".")[0]
        assert (key.endswith((".output_proj.weight", ".codebook.initialized"))
                or (level.isdigit() and int(level) >= n_kept)), key
    acoustic = "encoder.quantizer.acoustic_residual_vector_quantizer.layers."
    assert f"{acoustic}{n_kept - 1}.codebook.embed_sum" in kept and f"{acoustic}{n_kept}.codebook.embed_sum" in dropped
    # What sanitize keeps is exactly the module's parameters.
    encoder.load_weights(list(encoder.sanitize(weights).items()), strict=True)
