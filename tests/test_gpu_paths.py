"""The code a Mac runs, run on MLX's CPU backend: every test here takes the branches Metal and CUDA
take (the `gpu_paths` fixture of conftest.py): MLX's own conv kernels, `mx.sin` SnakeBeta, the
compiled codec step in `STEP_SIZES` pieces and the stored compute dtype.

Bounds on the half-precision runs, with u = 2**-8 the unit roundoff of bfloat16:
- bfloat16 against float32 on the same stored weights: teacher-forced logits within 4u (1.6e-2) of
  the float32 ones, relative to their largest magnitude: the logits' own rounding (u) plus the
  rounding the three bfloat16 layers pass on (measured on the nine parity cases: 5.4e-3 to 1.15e-2).
- 4-bit with bfloat16 scales against the same weights dequantized to float32: 4u as above, plus
  sqrt(K) u for MLX's CPU quantized matmul, which sums its K products in bfloat16 (a random walk of
  K roundings; K = the widest quantized input, 128 / 192 here; measured 2.1e-2 to 2.8e-2). Metal
  sums in float32, so there the first term alone applies.
"""

import json
import math
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import mlx.core as mx
import mlx.nn as nn
import numpy as np
import pytest
from mlx.utils import tree_map

import mlx_qwen3tts
import mlx_qwen3tts.loop.rows as rows_module
import test_batch
import test_codec_decoder
import test_engine
import test_parity
from mlx_qwen3tts import convert as cv
from mlx_qwen3tts.codec.decoder import STEP_SIZES, CodecDecoder, DecoderArgs
from mlx_qwen3tts.codec.speech_tokenizer import load_codec
from benchmarks.syncs import SyncCounter
from teacher_forcing import teacher_forced_logits

pytestmark = pytest.mark.usefixtures("gpu_paths")

U_BF16 = 2.0**-8
BF16_RTOL = 4 * U_BF16
CASES = test_parity.CASES
WAVEFORM_CASES = [c for c in CASES if "waveform" in test_parity.reference(c).files]
QUANTIZED = ["custom_voice-0b6", "voice_design-1b7"]


def ids(cases):
    return [c["name"] for c in cases]


def relative_error(ours: mx.array, theirs: mx.array) -> float:
    ours, theirs = np.array(ours.astype(mx.float32)), np.array(theirs.astype(mx.float32))
    return float(np.abs(ours - theirs).max() / np.abs(theirs).max())


# --- the codec: reference audio, compiled streaming, bounded tracing --------------------------------

@pytest.fixture(scope="module")
def decoder():
    return load_codec(test_codec_decoder.FIXTURES, encoder=False).decoder


@pytest.fixture(scope="module")
def ref():
    return dict(np.load(test_codec_decoder.FIXTURES / "reference.npz"))


@pytest.fixture(scope="module")
def one_shot_100(decoder, ref):
    """The whole-sequence decode on MLX's kernels (not compiled)."""
    return np.array(decoder(mx.array(ref["codes_100"])[None]))[0]


@pytest.mark.parametrize("frames", [5, 40, 100])
def test_codec_one_shot_matches_reference(decoder, ref, frames):
    test_codec_decoder.test_one_shot_matches_reference(decoder, ref, frames)


def test_codec_decode_trims_padding_like_reference(decoder, ref):
    test_codec_decoder.test_decode_trims_padding_like_reference(decoder, ref)


@pytest.mark.parametrize("split", [1, 3, 25, (1, 5, 2, 64, 1, 27)])
def test_compiled_step_equals_one_shot(decoder, ref, one_shot_100, split):
    test_codec_decoder.test_step_equals_one_shot(decoder, ref, one_shot_100, split)


def test_compiled_streams_at_different_positions_step_together(decoder, ref, one_shot_100):
    test_codec_decoder.test_streams_at_different_positions_step_together(decoder, ref, one_shot_100)


def test_traces_do_not_grow_with_length(ref):
    """The compiled step is traced once per piece size, whatever the utterance or reference lengths:
    a count of the calls of the Python function that `mx.compile` traces. (A decoder with constant weights
    with a hop of 64 samples: tracing does not depend on the weights.)"""
    config = json.loads((test_codec_decoder.FIXTURES / "config.json").read_text())["decoder_config"]
    decoder = CodecDecoder(DecoderArgs.from_dict({**config, "upsample_rates": [2, 2, 2, 2]}))
    # Constant weights: the random initializers would each compile their own CPU kernel (~1 s apiece).
    decoder.update(tree_map(lambda p: mx.full(p.shape, 0.01, p.dtype), decoder.parameters()))
    traces, forward = [], decoder._forward
    decoder._forward = lambda *args: traces.append(args[0].shape) or forward(*args)
    codes = mx.array(np.resize(ref["codes_100"], (400, 16)))[None]

    def run(lengths, primes=()):
        for n in lengths:
            mx.eval(decoder.decode(codes[:, :n]))
        for n in primes:  # an ICL reference priming a stream's state
            mx.eval(decoder.step(codes[:, :n], decoder.make_state(1)))
        return len(traces)

    assert run([85]) == 4  # 64 + 16 + 4 + 1
    assert run([2, 7, 30, 77, 150, 299], primes=[3, 41, 130]) == 4
    assert run([301, 333]) == 5 == len(STEP_SIZES)
    assert run([47, 390], primes=[310]) == 5
    assert sorted({shape[1] for shape in traces}) == sorted(STEP_SIZES)


# --- float32: the parity fixtures and the engine -----------------------------------------

@pytest.mark.parametrize("case", WAVEFORM_CASES, ids=ids(WAVEFORM_CASES))
def test_greedy_codes_and_waveform(case, load_tiny):
    test_parity.test_greedy_codes_and_waveform(case, load_tiny)


def test_long_decode_beyond_attention_window(load_tiny):
    test_parity.test_long_decode_beyond_attention_window(load_tiny)


def test_engine_rows_equal_solo(load_tiny):
    test_engine.test_preset_speakers_instruct_and_text_modes_in_one_batch_equal_solo(load_tiny("custom_voice-1b7"))


# --- the stored dtype: bfloat16 and 4-bit ----------------------------------------------------------

@pytest.fixture(scope="module")
def stored(load_tiny, tmp_path_factory):
    """stored(name) -> the checkpoint loaded as Metal loads it (no dtype given: as stored, bfloat16)."""
    models = {}

    def load(name):
        if name not in models:
            models[name] = mlx_qwen3tts.load(str(load_tiny(name).path))
        return models[name]

    return load


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_bfloat16_teacher_forced_logits_near_float32(case, stored, load_tiny):
    ours, f32, ref = stored(case["checkpoint"]), load_tiny(case["checkpoint"]), test_parity.reference(case)
    assert ours.model.talker.codec_head.weight.dtype == mx.bfloat16  # the stored dtype, not float32
    codes = mx.array(ref["codes"])
    talker, cp = teacher_forced_logits(ours.model.talker, test_parity.prompt_for(ours, case), codes)
    want_talker, want_cp = teacher_forced_logits(f32.model.talker, test_parity.prompt_for(f32, case), codes)
    assert talker.dtype == cp.dtype == mx.bfloat16  # no silent float32 promotion on the way
    assert relative_error(talker, want_talker) < BF16_RTOL
    assert relative_error(cp, want_cp) < BF16_RTOL


def test_bfloat16_batch_rows_and_stream_equal_solo(stored):
    """bfloat16 batches and streams, no warning: on the CPU a bfloat16 matmul row does not depend on the
    rows around it, so each batch row equals its solo run (codes; audio to the codec's float32 rounding)."""
    tts, speakers = stored(test_batch.CHECKPOINT), ["ryan", "vivian"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        batch = tts.generate_batch(test_batch.TEXTS[:2], speaker=speakers, temperature=0, max_tokens=8)
        solo = [tts.generate(text, speaker=speaker, temperature=0, max_tokens=8)
                for text, speaker in zip(test_batch.TEXTS, speakers)]
        chunks = list(tts.stream(test_batch.TEXTS[0], speaker="ryan", temperature=0, max_tokens=8))
    for row, alone in zip(batch, solo):
        np.testing.assert_array_equal(row.codes, alone.codes)
        assert np.abs(row.audio - alone.audio).max() <= 1e-4
    np.testing.assert_array_equal(np.concatenate([c.codes for c in chunks]), solo[0].codes)
    assert np.abs(np.concatenate([c.samples for c in chunks]) - solo[0].audio).max() <= 1e-4


def dequantized_float32(model: nn.Module) -> nn.Module:
    """`model` with every quantized layer replaced by a float32 one holding its dequantized weights."""
    def dense(m):
        if not isinstance(m, (nn.QuantizedLinear, nn.QuantizedEmbedding)):
            return m
        w = mx.dequantize(m.weight, m.scales, m.biases, m.group_size, m.bits).astype(mx.float32)
        layer = nn.Embedding(*w.shape) if isinstance(m, nn.QuantizedEmbedding) else nn.Linear(
            w.shape[1], w.shape[0], bias="bias" in m)
        layer.update({"weight": w, **({"bias": m.bias} if "bias" in m else {})})
        return layer

    model.update_modules(tree_map(dense, model.leaf_modules(), is_leaf=nn.Module.is_module))
    model.update(tree_map(lambda p: p.astype(mx.float32) if mx.issubdtype(p.dtype, mx.floating) else p,
                          model.parameters()))
    return model


@pytest.mark.parametrize("name", QUANTIZED)
def test_4bit_bfloat16_scales_near_dequantized_float32(name, tmp_path, load_tiny):
    folder = str(cv.convert(str(load_tiny(name).path), str(tmp_path / "q4"), bits=4, group_size=32))
    with pytest.warns(RuntimeWarning, match="quantized weights with stored-dtype activations on MLX's CPU"):
        ours = mlx_qwen3tts.load(folder)
    quantized = [m for _, m in ours.model.talker.named_modules() if isinstance(m, nn.QuantizedLinear)]
    assert quantized and all(m.scales.dtype == mx.bfloat16 for m in quantized)
    width = max(m.weight.shape[1] * 32 // m.bits for m in quantized)
    dense = mlx_qwen3tts.load(folder, dtype=mx.float32)
    dequantized_float32(dense.model)
    case = next(c for c in CASES if c["checkpoint"] == name)
    codes = mx.array(test_parity.reference(case)["codes"])
    talker, cp = teacher_forced_logits(ours.model.talker, test_parity.prompt_for(ours, case), codes)
    want_talker, want_cp = teacher_forced_logits(dense.model.talker, test_parity.prompt_for(dense, case), codes)
    bound = BF16_RTOL + math.sqrt(width) * U_BF16
    assert relative_error(talker, want_talker) < bound
    assert relative_error(cp, want_cp) < bound


class InFlight:
    """Records, at every decode sent off (`mx.async_eval` of audio), how many frames were sent off and not read
    yet, on that decode's MLX stream and in all (a stream runs its work in order: a decode on the stream of a
    frame in flight runs after that frame), and which reads bring audio to the host: with a frame's codes
    (`rows.host_copy`) or alone (`np.array`)."""

    def __init__(self, monkeypatch):
        self.sent, self.decodes, self.reads = {}, [], []  # id of a frame's codes -> its stream; ...
        send, to_numpy, copy = mx.async_eval, np.array, getattr(rows_module, "host_copy", None)
        audio = {}  # id -> the array (held, so that no other array takes its id)

        def async_eval(*arrays):
            here = mx.default_stream(mx.default_device())
            first = arrays[0]
            if isinstance(first, mx.array) and first.dtype == mx.int32:  # a frame's codes
                self.sent[id(first)] = (first, here)
            elif isinstance(first, mx.array):  # a chunk's audio
                audio[id(first)] = first
                self.decodes.append((sum(s == here for _, s in self.sent.values()), len(self.sent)))
            return send(*arrays)

        def array(value, *args, **kwargs):
            self.sent.pop(id(value), None)
            if id(value) in audio:
                self.reads.append("alone")
            return to_numpy(value, *args, **kwargs)

        def host_copy(arrays):
            self.sent.pop(id(arrays[0]), None)
            self.reads += ["with a frame"] * sum(id(a) in audio for a in arrays)
            return copy(arrays)

        monkeypatch.setattr(mx, "async_eval", async_eval)
        monkeypatch.setattr(np, "array", array)
        monkeypatch.setattr(rows_module, "host_copy", host_copy, raising=False)


def test_a_chunks_decode_runs_beside_the_frame_in_flight(load_tiny, monkeypatch):
    """The streaming path on the Metal/CUDA branches (docs/benchmarks.md, "The streaming path"): frame t + 1 is
    sent off before frame t is read, and a chunk's decode is sent off on a stream of its own, so it never waits
    behind that frame (before, it was evaluated on the frames' stream, behind frame t + 1, and the host built
    frame t + 2 only after both); its audio comes to the host with frame t + 1's codes, in one copy. The last
    chunk (no frame follows it) is read alone."""
    tts = load_tiny("custom_voice-0b6")
    kw = dict(speaker="ryan", language="english", seed=0, max_tokens=13, chunk_frames=4)
    list(tts.stream("Hello there.", **kw))  # traces
    probe = InFlight(monkeypatch)
    chunks = list(tts.stream("Hello there.", **kw))
    assert [c.frames for c in chunks] == [1, 4, 4, 4]
    assert probe.decodes == [(0, 1)] * 3 + [(0, 0)], probe.decodes  # none on a frame's stream; beside one
    assert probe.reads == ["with a frame"] * 3 + ["alone"], probe.reads


def _syncs_per_frame(run, short: int = 8, long: int = 16) -> float:
    """Blocking host syncs per frame of `run(frames)`: (a long run's - a short run's) / (long - short)."""
    counts = []
    for frames in (short, long):
        with SyncCounter() as syncs:
            run(frames)
        counts.append(syncs.blocking)
    return (counts[1] - counts[0]) / (long - short)


@pytest.mark.parametrize("chunk_frames", [None, 1, 4])
def test_streaming_costs_the_host_one_sync_a_frame_as_codes_alone(load_tiny, chunk_frames):
    """`TTS.stream` waits on the device once a frame, as `TTS.frames` does: a chunk's audio comes with a
    frame's codes (before: a blocking eval and a copy per chunk, 1.5 syncs a frame with 4-frame chunks). The
    engine with audio likewise, per step."""
    tts = load_tiny("custom_voice-0b6")
    kw = dict(speaker="ryan", language="english", seed=0)
    frames = lambda n: list(tts.frames("Hello there.", max_tokens=n, **kw))  # noqa: E731
    stream = lambda n: list(tts.stream("Hello there.", max_tokens=n, chunk_frames=chunk_frames, **kw))  # noqa: E731
    stream(6), frames(6)  # traces
    assert _syncs_per_frame(frames) == 1.0
    assert _syncs_per_frame(stream) == 1.0
    with tts.engine(max_active=2) as engine:
        # submit_all: both queued under the engine's lock, so they join in one step (with two submits the
        # scheduler thread may start the first alone, a step ahead: more steps, not more syncs a step)
        # both handles read at once: a handle left unread pauses its row (`engine.UNREAD_CHUNKS`), a step apart
        engine_run = lambda n: list(ThreadPoolExecutor(2).map(list, engine.submit_all([tts.request(  # noqa: E731
            "Hello there.", max_tokens=n, chunk_frames=chunk_frames, **kw) for _ in range(2)])))
        engine_run(6)
        assert _syncs_per_frame(engine_run) <= 1.0  # the two rows share each step's sync


def test_engine_warm_leaves_the_first_streams_chunks_nothing_to_trace(load_tiny):
    """`Engine.warm` traces the codec's compiled step for every piece (`STEP_SIZES`), so a
    server's first request does not trace them on its way to first audio (on the H200, 2026-11-28: the
    first request after the warm-up took 1.10 s to first audio, a later one 0.18 s). A count of the calls
    of the Python function `mx.compile` traces, on a model loaded fresh (no traces cached)."""
    tts = mlx_qwen3tts.load(str(load_tiny("custom_voice-0b6").path))
    decoder, traces = tts.codec.decoder, []
    forward = decoder._forward
    decoder._forward = lambda *args: traces.append(args[0].shape[1]) or forward(*args)
    with tts.engine(max_active=2) as engine:
        engine.warm()
        assert sorted(traces) == sorted(STEP_SIZES)
        traces.clear()
        request = tts.request("Hello there.", speaker="ryan", language="english", seed=0, max_tokens=40)
        chunks = list(engine.submit(request))
    assert sum(len(c.samples) for c in chunks) == 40 * 1920  # 1 + 2 + 4 + 8 + 16 + 9 frames: every piece size
    assert traces == []


# --- warm-up: nothing left to trace -----------------------------------------------------------------

WORDS = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
         "seventeen eighteen nineteen twenty").split()
CLIP = Path(__file__).resolve().parent / "fixtures" / "clone" / "ref_16k.wav"


def prompt_of(chars: int) -> str:
    """A text of about `chars` characters (sentences of counted words): a prompt length of its own."""
    words, text = iter(WORDS * (chars // 10 + 1)), ""
    while len(text) < chars:
        text += " ".join(next(words) for _ in range(7)) + ". "
    return text[:chars].rstrip() + "."


class Traces:
    """Counts traces: every function handed to `mx.compile` after this is made (the model's graphs, loaded
    after it) is wrapped so that each call MLX makes of it to trace is counted, with the thread it ran on."""

    def __init__(self, monkeypatch):
        import threading

        self.seen, compile_ = [], mx.compile

        def counting(fn, *args, **kwargs):
            name = getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", "?")

            def traced(*a):
                self.seen.append((name, threading.current_thread().name))
                return fn(*a)

            return compile_(traced, *args, **kwargs)

        monkeypatch.setattr(mx, "compile", counting)

    def take(self) -> list:
        seen, self.seen = self.seen, []
        return seen


def test_after_warm_up_requests_trace_nothing_new(load_tiny, monkeypatch):
    """`Engine.warm` (the server's, before /health answers) and `TTS.warm` (Python's and the CLI's thread)
    trace every graph requests meet: afterwards requests of 20 prompt lengths up to the server's
    --max-input-chars (split into pieces past 300 characters), preset and cloned voices, streamed and whole,
    alone and joining running streams (the engine's codec steps rows that fall due together), in Python and
    through an engine, trace nothing. Before, each thread's first requests traced again (MLX keeps a trace per
    stream, each thread its own), as did the codec step at batched shapes and an ICL reference's pieces."""
    traces = Traces(monkeypatch)
    custom = mlx_qwen3tts.load(str(load_tiny("custom_voice-0b6").path), dtype=mx.float32)
    base = mlx_qwen3tts.load(str(load_tiny("base-0b6").path), dtype=mx.float32)
    voice = base.clone(str(CLIP), ref_text="This is the reference transcript.")
    lengths = iter([12, 40, 75, 130, 190, 260, 299, 340, 420, 600, 800, 1000, 1500, 2000, 2600, 3100, 3600,
                    4000, 4095, 4096])  # 4096: the server's --max-input-chars
    kw = dict(language="english", max_tokens=5)
    with custom.engine(max_active=4) as one, base.engine(max_active=4) as two:
        one.warm(), two.warm(), custom.warm(max_rows=2), base.warm()  # a batch of 2 below
        assert traces.take(), "the warm-up traced nothing: the counter is not counting"

        custom.generate(prompt_of(next(lengths)), speaker="ryan", seed=1, **kw)
        list(custom.stream(prompt_of(next(lengths)), speaker="ryan", **kw))
        base.generate(prompt_of(next(lengths)), voice=voice, seed=2, **kw)
        list(base.stream(prompt_of(next(lengths)), voice=voice, chunk_frames=4, **kw))
        custom.generate_batch([prompt_of(next(lengths)), prompt_of(next(lengths))], speaker="ryan", **kw)
        assert traces.take() == []

        for engine, tts, who in ((one, custom, dict(speaker="ryan")), (two, base, dict(voice=voice))):
            alone = engine.submit(tts.request(prompt_of(next(lengths)), **who, **kw), whole=True)
            list(alone)
            running = engine.submit(tts.request(prompt_of(next(lengths)), **who, language="english", max_tokens=40))
            chunks = iter(running)
            next(chunks)  # it speaks; the next ones join it
            joined = [engine.submit(tts.request(prompt_of(next(lengths)), **who, **kw)) for _ in range(5)]
            for handle in joined:
                list(handle)
            list(chunks)
        assert traces.take() == []
    assert next(lengths, None) is None  # all 20 lengths were spoken
