"""Codec decoder against qwen-tts 0.1.1 (fixtures by tests/reference/record_codec_decoder.py), and
streamed decoding against the one-shot decode."""

import shutil
from pathlib import Path

import mlx.core as mx
import numpy as np
import pytest

from mlx_qwen3tts.codec.speech_tokenizer import load_codec
from mlx_qwen3tts.codec.conv import CausalConv1d, CausalConvTranspose1d, ConvNeXtBlock
from mlx_qwen3tts.codec.decoder import DecoderArgs, DecoderBlock, PreTransformer, ResidualUnit
from mlx_qwen3tts.errors import InputError, ModelLoadError

FIXTURES = Path(__file__).parent / "fixtures" / "codec_decoder"
ATOL = 1e-4


@pytest.fixture(scope="module")
def decoder():
    return load_codec(FIXTURES, encoder=False).decoder


@pytest.fixture(scope="module")
def ref():
    return dict(np.load(FIXTURES / "reference.npz"))


@pytest.fixture(scope="module")
def one_shot_100(decoder, ref):
    return np.array(decoder(mx.array(ref["codes_100"])[None]))[0]


def assert_close(ours, theirs, atol=ATOL):
    assert ours.shape == theirs.shape
    diff = float(np.abs(ours - theirs).max())
    assert diff <= atol, f"max |diff| {diff:.3g} > {atol}"


@pytest.mark.parametrize("frames", [5, 40, 100])
def test_one_shot_matches_reference(decoder, ref, frames):
    audio = np.array(decoder(mx.array(ref[f"codes_{frames}"])[None]))
    assert audio.shape == (1, frames * 1920) and audio.dtype == np.float32
    assert_close(audio[0, :: int(ref["stride"])], ref[f"audio_{frames}"])


def test_decode_trims_padding_like_reference(decoder, ref):
    stride = int(ref["stride"])
    audio = decoder.decode(mx.array(ref["codes_pad"]))
    assert [a.shape[0] for a in audio] == [27 * 1920, 36 * 1920]
    for i, a in enumerate(audio):
        assert_close(np.array(a)[::stride], ref[f"audio_pad_{i}"])


def test_decode_all_padding_is_empty(decoder):
    (audio,) = decoder.decode(mx.full((1, 3, 16), -1, dtype=mx.int32))
    assert audio.shape == (0,)
    (audio,) = decoder.decode(mx.zeros((1, 0, 16), dtype=mx.int32))
    assert audio.shape == (0,)


def test_decode_with_left_context_reproduces_upstream_chunking(decoder, ref):
    codes = mx.array(ref["codes_100"])[None]
    (audio,) = decoder.decode(codes, chunk_size=int(ref["chunked_size"]), left_context=int(ref["chunked_context"]))
    assert_close(np.array(audio)[:: int(ref["stride"])], ref["audio_100_chunked"])


def test_decode_in_chunks_equals_one_shot(decoder, ref, one_shot_100):
    (audio,) = decoder.decode(mx.array(ref["codes_100"])[None], chunk_size=30)
    assert_close(np.array(audio), one_shot_100)


@pytest.mark.parametrize("split", [1, 2, 3, 7, 25, (1, 5, 2, 64, 1, 27)])
def test_step_equals_one_shot(decoder, ref, one_shot_100, split):
    codes = mx.array(ref["codes_100"])[None]
    sizes = [split] * (100 // split) + ([100 % split] if 100 % split else []) if isinstance(split, int) else split
    state, start, pieces = decoder.make_state(), 0, []
    for n in sizes:
        audio = decoder.step(codes[:, start : start + n], state)
        assert audio.shape == (1, n * 1920)
        pieces.append(np.array(audio)[0])
        start += n
    assert start == 100 and state.frames == 100
    assert_close(np.concatenate(pieces), one_shot_100)


def test_step_batch(decoder, ref):
    codes = mx.maximum(mx.array(ref["codes_pad"]), 0)
    whole = np.array(decoder(codes))
    state = decoder.make_state()
    streamed = np.concatenate([np.array(decoder.step(codes[:, i : i + 5], state)) for i in range(0, 36, 5)], axis=1)
    assert_close(streamed, whole)


def test_stream_keeps_its_batch_and_states_are_independent(decoder, ref):
    codes = mx.array(ref["codes_100"])[None]
    state = decoder.make_state(1)
    first = np.array(decoder.step(codes[:, :3], state))
    with pytest.raises(InputError, match="batches of 1"):
        decoder.step(mx.concatenate([codes[:, 3:5]] * 2), state)
    other = decoder.make_state()  # a second stream on the same (compiled) step starts from silence
    assert_close(np.array(decoder.step(codes[:, :3], other)), first)


def test_streams_at_different_positions_step_together(decoder, ref, one_shot_100):
    """Two streams, one 5 frames in and one 80 (past the 72-frame window), decoded in one batched
    step, give what each gives alone: the one-shot decode of the same frames; each goes on alone after."""
    codes = mx.array(ref["codes_100"])[None]
    early, late = decoder.make_state(1), decoder.make_state(1)
    heads = [np.array(decoder.step(codes[:, :5], early))[0], np.array(decoder.step(codes[:, :80], late))[0]]
    joint = np.array(decoder.step_streams(mx.concatenate([codes[:, 5:8], codes[:, 80:83]]), [early, late]))
    tails = [np.array(decoder.step(codes[:, 8:10], early))[0], np.array(decoder.step(codes[:, 83:85], late))[0]]
    assert early.frames == 10 and late.frames == 85
    hop = 1920
    assert_close(np.concatenate([heads[0], joint[0], tails[0]]), one_shot_100[: 10 * hop])
    assert_close(np.concatenate([heads[1], joint[1], tails[1]]), one_shot_100[: 85 * hop])


def chunked(module, x, sizes, cache):
    out, start = [], 0
    for n in sizes:
        out.append(module(x[:, start : start + n], cache))
        start += n
    return mx.concatenate(out, axis=1)


@pytest.mark.parametrize("name", ["conv", "conv_transpose", "convnext", "residual_unit", "block", "transformer"])
def test_module_step_equals_whole_sequence(name):
    mx.random.seed(0)
    args = DecoderArgs(hidden_size=16, latent_dim=8, intermediate_size=32, num_hidden_layers=2,
                       num_attention_heads=2, num_key_value_heads=1, head_dim=8, sliding_window=5)
    module = {
        "conv": CausalConv1d(8, 8, 7, dilation=3),
        "conv_transpose": CausalConvTranspose1d(8, 4, 15, 5),
        "convnext": ConvNeXtBlock(8),
        "residual_unit": ResidualUnit(8, 9),
        "block": DecoderBlock(8, 4, 3),
        "transformer": PreTransformer(args),
    }[name]
    cache = module.make_cache(2)
    x = mx.random.normal((2, 23, 8))
    assert_close(np.array(chunked(module, x, [1, 4, 1, 9, 8], cache)), np.array(module(x)), atol=1e-5)


def test_wrong_number_of_codebooks(decoder):
    with pytest.raises(InputError, match="16"):
        decoder(mx.zeros((1, 4, 15), dtype=mx.int32))


def test_sanitize_is_idempotent(decoder):
    raw = mx.load(str(FIXTURES / "model.safetensors"))
    once = decoder.sanitize(raw)
    twice = decoder.sanitize({f"decoder.{k}": v for k, v in once.items()})
    assert once.keys() == twice.keys()
    assert all(mx.array_equal(once[k], twice[k]) for k in once)
    assert "quantizer.rvq_rest.vq.layers.14.codebook" in once and "quantizer.rvq_first.input_proj.weight" not in once


def write_variant(tmp_path, edit):
    shutil.copy(FIXTURES / "config.json", tmp_path / "config.json")
    weights = mx.load(str(FIXTURES / "model.safetensors"))
    edit(weights)
    mx.save_safetensors(str(tmp_path / "model.safetensors"), weights)
    return tmp_path


def test_loads_full_speech_tokenizer_layout(tmp_path):
    folder = write_variant(tmp_path, lambda w: w.update({"encoder.quantizer.anything": mx.zeros((2,))}))
    load_codec(folder, encoder=False)


@pytest.mark.parametrize("edit, named", [
    (lambda w: w.pop("decoder.pre_conv.conv.bias"), "missing pre_conv.conv.bias"),
    (lambda w: w.update({"decoder.upsample.0.1.extra": mx.zeros((2,))}), "unexpected upsample.0.1.extra"),
    (lambda w: w.pop("decoder.quantizer.rvq_rest.vq.layers.3._codebook.cluster_usage"),
     "decoder.quantizer.rvq_rest.vq.layers.3._codebook.cluster_usage"),
])
def test_strict_loading_names_the_key(tmp_path, edit, named):
    folder = write_variant(tmp_path, edit)
    with pytest.raises(ModelLoadError, match=named.replace(".", r"\.")):
        load_codec(folder, encoder=False)
