"""Fused projections (transformer.FusedLinear) and the frame's primitives.

q/k/v and gate/up run as one matmul each once a model is loaded; the layers keep the checkpoint's names
as views of the stacked weights, so what is saved or converted is unchanged. Stacking output rows is
exact (dense, and quantized: groups run along the input dimension), so fused outputs equal the separate
layers' to float32 rounding of the same products.
"""

import mlx.core as mx
import mlx.nn as nn
import numpy as np
import pytest
from mlx.utils import tree_flatten

from benchmarks.graph_nodes import GraphCounter, kinds, metal_kernels
from mlx_qwen3tts import convert as cv
from mlx_qwen3tts.model.transformer import Attention, BlockArgs, TransformerBlock, one_query_attention, rotate
from fixture_checkpoints import checkpoint_dir

ARGS = BlockArgs(hidden_size=128, intermediate_size=256, num_attention_heads=4, num_key_value_heads=2, head_dim=32,
                 rope_theta=10000.0, rms_norm_eps=1e-6)


def block(quantized: bool) -> TransformerBlock:
    mx.random.seed(3)
    b = TransformerBlock(ARGS)
    b.update(nn.utils.tree_map(lambda p: mx.random.normal(p.shape) * 0.05, b.parameters()))
    if quantized:
        nn.quantize(b, group_size=32, bits=4)
    mx.eval(b.parameters())
    return b


@pytest.mark.parametrize("quantized", [False, True], ids=["dense", "4-bit"])
def test_fused_block_equals_separate_layers(quantized):
    b, x = block(quantized), mx.random.normal((2, 5, ARGS.hidden_size))
    names = {k: v.shape for k, v in tree_flatten(b.parameters())}
    want = b(x, mask="causal")
    b.fuse()
    assert b.self_attn.qkv is not None and b.mlp.gate_up is not None
    assert {k: v.shape for k, v in tree_flatten(b.parameters())} == names  # checkpoint names, same shapes
    with metal_kernels():  # attention as one kernel: its own products are not counted
        assert kinds(b(x, mask="causal"))["QuantizedMatmul" if quantized else "Matmul"] == 4  # qkv, o, gate_up, down
    got = b(x, mask="causal")
    np.testing.assert_allclose(np.array(got), np.array(want), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", [mx.float32, mx.bfloat16], ids=["float32", "bfloat16"])
@pytest.mark.parametrize("rows, length, offset", [(1, 1, 7), (3, 1, [0, 9, 1234]), (1, 2, 0), (2, 5, 300)])
def test_rope_with_shared_angles_equals_nn_rope(dtype, rows, length, offset):
    """The CPU branch's RoPE (angles once per stack, `rotate` per layer) gives nn.RoPE's values to the bit."""
    attn = Attention(ARGS)
    offset = mx.array(offset, mx.int32) if isinstance(offset, list) else offset
    q = (mx.random.normal((rows, ARGS.num_attention_heads, length, ARGS.head_dim)) * 3).astype(dtype)
    want = attn.rope(q, offset=offset)
    angles = attn.angles(rows, length, offset)
    for got in (rotate(q, *angles), mx.compile(rotate)(q, *angles)):
        assert got.dtype == dtype
        np.testing.assert_array_equal(np.array(got.astype(mx.float32)), np.array(want.astype(mx.float32)))


@pytest.mark.parametrize("fused", [False, True], ids=["apart", "fused"])
@pytest.mark.parametrize("dtype", [mx.float32, mx.bfloat16], ids=["float32", "bfloat16"])
@pytest.mark.parametrize("rows, length, offset", [(1, 1, 7), (3, 1, [0, 9, 1234]), (2, 5, 300)])
def test_q_and_k_projected_together_equal_apart(fused, dtype, rows, length, offset):
    """The CPU branch's projection (q and k normed and rotated as one array) gives the separate norms' and
    nn.RoPE's values to the bit, fused or not, compiled or not."""
    attn = Attention(ARGS)
    attn.update(nn.utils.tree_map(lambda p: (mx.random.normal(p.shape) * 0.3 + (p.ndim == 1)).astype(dtype),
                                  attn.parameters()))
    if fused:
        attn.fuse()
    offset = mx.array(offset, mx.int32) if isinstance(offset, list) else offset
    x = mx.random.normal((rows * length, ARGS.hidden_size)).astype(dtype)
    want = attn.project(x, rows, offset)
    angles = attn.angles(rows, length, offset)
    assert attn.together(dtype)
    together = mx.compile(lambda x, cos, sin: attn.project(x, rows, (cos, sin)))
    for got in (attn.project(x, rows, angles), together(x, *angles)):
        for w, g in zip(want, got):
            assert g.shape == w.shape and g.dtype == w.dtype
            np.testing.assert_array_equal(np.array(g.astype(mx.float32)), np.array(w.astype(mx.float32)))


@pytest.mark.parametrize("dtype", [mx.float32, mx.bfloat16], ids=["float32", "bfloat16"])
@pytest.mark.parametrize("mask", [None, "causal", "rows", "heads", "additive"])
def test_one_query_attention_equals_mlx_attention(dtype, mask):
    """The CPU branch's attention of one query position gives MLX's (its CPU formula) to the bit."""
    B, heads, kv, D, S = 2, 8, 2, 16, 37
    q, k, v = (mx.random.normal(shape).astype(dtype) for shape in [(B, heads, 1, D), (B, kv, S, D), (B, kv, S, D)])
    mask = {"rows": (mx.arange(S)[None] <= mx.array([5, 30])[:, None])[:, None, None],
            "heads": mx.random.uniform(shape=(B, heads, 1, S)) > 0.3,
            "additive": mx.random.normal((B, 1, 1, S)).astype(dtype)}.get(mask, mask)
    want = mx.fast.scaled_dot_product_attention(q, k, v, scale=D**-0.5, mask=mask)
    for got in (one_query_attention(q, k, v, D**-0.5, mask),
                mx.compile(lambda q, k, v: one_query_attention(q, k, v, D**-0.5, mask))(q, k, v)):
        assert got.shape == want.shape and got.dtype == dtype
        np.testing.assert_array_equal(np.array(got.astype(mx.float32)), np.array(want.astype(mx.float32)))


def test_a_layer_replaced_after_fusing_runs_apart():
    """Quantizing (or reloading) after `fuse()` replaces the layers: the stale fused copy is not used."""
    b, x = block(False), mx.random.normal((1, 3, ARGS.hidden_size))
    b.fuse()
    nn.quantize(b, group_size=32, bits=4)
    assert not b.self_attn.qkv.serves([b.self_attn.q_proj, b.self_attn.k_proj, b.self_attn.v_proj])
    fresh = block(False)
    nn.quantize(fresh, group_size=32, bits=4)
    np.testing.assert_array_equal(np.array(b(x)), np.array(fresh(x)))


def test_loaded_talker_is_fused(load_tiny):
    talker = load_tiny("custom_voice-0b6").model.talker
    for layer in list(talker.model.layers) + list(talker.code_predictor.model.layers):
        attn, mlp = layer.self_attn, layer.mlp
        assert attn.qkv.serves([attn.q_proj, attn.k_proj, attn.v_proj])
        assert mlp.gate_up.serves([mlp.gate_proj, mlp.up_proj])


@pytest.mark.parametrize("bits", [None, 4])
def test_converter_writes_the_released_names(tmp_path, bits):
    source = checkpoint_dir("custom_voice-0b6", tmp_path / "src")
    out = cv.convert(str(source), str(tmp_path / "out"), bits=bits, group_size=32)
    names = set(mx.load(str(out / "model.safetensors")))
    released = {k for k in mx.load(str(source / "model.safetensors")) if k.startswith("talker.")}
    assert {k.rsplit(".", 1)[0] for k in released} <= {k.rsplit(".", 1)[0] for k in names}
    assert not any("qkv" in k or "gate_up" in k for k in names)


def test_frame_matmuls_on_the_metal_branches(load_tiny, gpu_paths):
    """The talker's one-position forward, as Metal evaluates it: four matmuls a layer and the codec head."""
    from mlx_qwen3tts.loop.graphs import LoopGraphs
    from mlx_qwen3tts.loop.row_store import RowStore

    tts = load_tiny("custom_voice-0b6")
    talker = tts.model.talker
    with metal_kernels():
        graphs = LoopGraphs(talker, tts.loop.graphs.eos_id)
        store = RowStore(talker, graphs.vocab)
        store.slots = [None]
        store.make_room(1)
        text = mx.zeros((1, 1, store.row_shape.hidden), store.row_shape.dtype)
        mx.eval(store.state, text)
        graph = kinds(*graphs.forward(store.state, text))
    assert graph["Matmul"] == 4 * len(talker.model.layers) + 1
    assert graph["ScatterAxis"] == 2 * len(talker.model.layers)  # the KV writes


def test_kv_capacity_growth_traces_nothing_new(load_tiny):
    """The step's compiled talker stages have shapes per batch size only: a KV capacity grown by a long
    prompt traces no stage again, and the step at the larger capacity gives the same frame."""
    from mlx_qwen3tts.loop.graphs import LoopGraphs
    from mlx_qwen3tts.loop.row_store import RowStore

    tts = load_tiny("custom_voice-0b6")
    talker, traces = tts.model.talker, []
    layers = talker.model.layers
    for layer in layers:  # counts the calls of the Python functions mx.compile traces
        enter, leave = layer.attention_in, layer.attention_out
        layer.attention_in = lambda *a, f=enter: traces.append("in") or f(*a)
        layer.attention_out = lambda *a, f=leave: traces.append("out") or f(*a)
    try:
        graphs = LoopGraphs(talker, tts.loop.graphs.eos_id)
    finally:
        for layer in layers:
            del layer.attention_in, layer.attention_out
    store = RowStore(talker, graphs.vocab)
    store.slots = [None]
    store.make_room(1)
    mx.random.seed(5)
    state = store.state._replace(x=mx.random.normal(store.state.x.shape), lengths=mx.array([3], mx.int32))
    text, moving = mx.zeros((1, 1, store.row_shape.hidden), store.row_shape.dtype), mx.ones((1,), mx.bool_)
    settings = store.settings()[0]
    codes, _ = graphs.step[False](state, settings, text, moving)
    mx.eval(codes)
    assert len(traces) == 2 * len(layers)
    store.state = state
    assert store.make_room(RowStore.GROW + 10)  # a larger capacity: the KV arrays grew
    grown, _ = graphs.step[False](store.state, settings, text, moving)
    assert len(traces) == 2 * len(layers)
    np.testing.assert_array_equal(np.array(grown), np.array(codes))


def test_graph_counter_counts_each_primitive_once():
    """The counter reads MLX's own export: a graph's nodes at the call that evaluates them, none after."""
    a = mx.random.normal((4, 8))
    mx.eval(a)
    y = mx.exp(a @ a.T).sum(axis=0)
    assert kinds(y) == {"Transpose": 1, "Matmul": 1, "Exp": 1, "Sum": 1, "Squeeze": 1}  # Sum keeps the axis
    with GraphCounter() as counter:
        mx.async_eval(y)
        np.array(y)  # already scheduled: detached, nothing more
        z = mx.exp(y)
        z.tolist()
    assert counter.nodes == 6 and counter.by_kind["Exp"] == 2


def test_primitives_harness_split_agrees_with_the_loop(tmp_path):
    """benchmarks/primitives.py on a tiny checkpoint: the frame built piece by piece and the loop counted end to
    end give the same primitives per frame (the loop adds only its text-track stack), with one host sync."""
    from benchmarks import primitives

    figures = primitives.ours(str(checkpoint_dir("custom_voice-0b6", tmp_path)), frames=2, dtype=mx.float32)
    split, loop = figures["sampled"], figures["loop"]
    assert split["frame_total"] == split["talker"] + split["code_predictor"] + split["sampling_and_rest"]
    assert 0 <= loop["nodes_per_frame"] - split["frame_total"] <= 4
    assert loop["syncs_per_frame"] == 1 and figures["greedy"]["frame_total"] < split["frame_total"]
