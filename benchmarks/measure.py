"""The figures of one loaded model, each taken in its own pass so that no measurement disturbs another.

- components: the talker forward and the frame step that follows it (codebook-0 sampling, the code
  predictor's 15 codebooks, the next input), each the loop's own compiled graphs on the loop's fixed-capacity
  KV state, with an `mx.eval` barrier after each, medians over the frames; prefill is the talker forward over
  the prompt but its last position. Barriers forbid overlap, so these add up to more than the pipelined loop.
- loop: `TTS.frames` end to end, as users run it (compiled, pipelined, whatever the loop does).
  ms/frame is the median interval between yielded frames (steady state; the median resists a
  machine shared with other work); host syncs per frame are counted between the first and the last
  yielded frame (see syncs.py); peak memory (MLX allocator, weights included) is reset before this
  pass and read after the decode pass.
- decode: the codec decoder's streaming `step` over the loop's codes, 4 frames per call.
- RTF = (prefill + all frames of the loop + their decoding) / audio duration (frames x 80 ms).
- first chunk: `TTS.stream` from the call until the first AudioChunk is in hand (prefill + frames
  + decode), with the first chunk after 1 frame and after 4 frames.
- first text delta -> first audio: `TTS.stream_text` fed the text word by word as fast as it is
  asked for; from the moment the first delta is handed over to the first AudioChunk.
- batch: `TTS.generate_batch` (codes only when it can skip decoding) for 1, 2, 4, 8 texts;
  aggregate frames per second = all frames generated / wall time.
Sampling is the checkpoint's default (temperature 0.9, top-k 50); random weights never emit EOS,
so every run produces the frames asked for.
"""

import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Optional

import mlx.core as mx
import numpy as np

from mlx_qwen3tts.loop import state as batch
from mlx_qwen3tts.loop.row_store import RowStore
from mlx_qwen3tts.loop.rows import Prefill, Row

from benchmarks.syncs import SyncCounter

TEXT = ("The quick brown fox jumps over the lazy dog, then it runs across the quiet field "
        "and rests beneath an old oak tree until the evening light fades.")
BATCH_TEXTS = [
    TEXT,
    "Please call Stella and ask her to bring these things with her from the store today.",
    "A rainbow is a division of white light into many beautiful colors after the rain.",
    "She sells sea shells by the sea shore, and the shells she sells are surely shells.",
    "The birch canoe slid on the smooth planks while we glued the sheet to the dark blue background.",
    "It is easy to tell the depth of a well, but the water at the bottom is always cold.",
    "Four hours of steady work faced us, and the boy was there when the sun rose again.",
    "Rice is often served in round bowls, and the juice of lemons makes fine punch.",
]
LANGUAGE = "english"
FRAME_MS = 80.0  # 12.5 frames per second
DECODE_CHUNK = 4


@dataclass
class Figures:
    label: str
    frames: int
    dtype: str = ""
    load_s: float = 0.0
    prefill_ms: float = 0.0
    talker_ms: float = 0.0
    cp_ms: float = 0.0
    loop_ms: float = 0.0
    loop_prefill_ms: float = 0.0
    decode_ms: float = 0.0
    rtf: float = 0.0
    first_chunk_ms: dict = field(default_factory=dict)
    delta_to_audio_ms: Optional[float] = None
    peak_gb: float = 0.0
    syncs_per_frame: float = 0.0
    async_evals_per_frame: float = 0.0
    sync_kinds: dict = field(default_factory=dict)
    batch_fps: Optional[dict] = None
    batch_frames: Optional[int] = None
    notes: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def _now() -> float:
    return time.perf_counter()


def _prompt(tts, text: str):
    return tts.prompt(tts.request(text, language=LANGUAGE))


def component_pass(tts, text: str, frames: int) -> dict:
    """The talker forward and the frame step (codebook-0 sampling, 15 code-predictor codebooks, next input),
    each closed by an eval barrier, on the loop's own path: one row of a `RowStore` at a fixed KV capacity,
    the talker's forward with the loop's compiled stages (`LoopGraphs.forward`), the loop's compiled
    frame graph. Every timed frame has the shapes of the one before, as in the loop: a talker run on a
    growing cache instead gives every frame a new attention shape, which stalled this pass on CUDA (the
    narrow preset had not finished its frames after 200 s on an H200). Prefill is the prompt's forward but
    its last position, as `Rows` prefills it."""
    graphs = tts.loop.graphs
    talker = graphs.talker
    row = Row(_prompt(tts, text), tts.sampling, frames + 1, seed=0)
    tic = _now()
    prefill = Prefill(row, talker, span=1.0)
    prefill.piece(prefill.left)
    mx.eval([(c.keys, c.values) for c in prefill.cache])
    prefill_s = _now() - tic
    store = RowStore(talker, graphs.vocab)
    n = prefill.done
    store.place(row)
    store.make_room(n + frames + 1)
    keys, values = prefill.kv()
    store.put(0, batch.BatchState(x=prefill.embeds[:, -1:], lengths=mx.array([n], dtype=mx.int32), keys=keys,
                                  values=values, seen=mx.zeros((1, graphs.vocab), dtype=mx.bool_),
                                  rng=mx.random.key(0)[None], steps=mx.zeros((1,), dtype=mx.int32)))
    settings, sampled = store.settings()
    state, moving = store.state, mx.ones((1,), dtype=mx.bool_)
    mx.eval(state)
    talker_times, cp_times = [], []
    shape = store.row_shape
    for step in range(frames):
        text_vector = mx.zeros((1, 1, shape.hidden), shape.dtype) if step == 0 else row.track(step - 1)
        tic = _now()
        logits, hidden, keys, values = graphs.forward(state, text_vector)
        mx.eval(logits, hidden, keys, values)
        talker_times.append(_now() - tic)
        tic = _now()
        _, stepped = graphs.advance[sampled](logits, hidden, state._replace(keys=[], values=[]), settings, moving)
        state = stepped._replace(keys=keys, values=values)
        mx.eval(state)
        cp_times.append(_now() - tic)
    return {
        "prefill_ms": prefill_s * 1e3,
        "talker_ms": statistics.median(talker_times[1:]) * 1e3,
        "cp_ms": statistics.median(cp_times[1:]) * 1e3,
    }


def loop_pass(tts, text: str, frames: int, **request) -> dict:
    """`TTS.frames` end to end with syncs counted (`request`: its keywords, e.g. speaker and seed; the language
    LANGUAGE unless given): the median and mean gap between frames after the first, and the codes for the decode
    pass. The one way the benchmarks time the loop."""
    codes, stamps = [], []
    tic = _now()
    with SyncCounter() as counter:
        stream = tts.frames(text, **{"language": LANGUAGE, **request}, max_tokens=frames)
        for frame in stream:
            codes.append(frame.codes)
            stamps.append((_now(), counter.blocking, counter.async_evals))
    total = _now() - tic
    if len(stamps) < 2:
        raise RuntimeError(f"the loop produced {len(stamps)} frame(s); the benchmark needs at least 2")
    (_, s0, a0), (_, s1, a1) = stamps[0], stamps[-1]
    n = len(stamps) - 1
    intervals = [b[0] - a[0] for a, b in zip(stamps, stamps[1:])]
    return {
        "codes": mx.array(np.concatenate(codes)),
        "total_s": total,
        "loop_ms": statistics.median(intervals) * 1e3,
        "loop_mean_ms": statistics.mean(intervals) * 1e3,  # a median hides a slow frame every few
        "loop_prefill_ms": stream.prefill_s * 1e3,
        "syncs_per_frame": (s1 - s0) / n,
        "async_evals_per_frame": (a1 - a0) / n,
        "sync_kinds": dict(counter.counts),
    }


def decode_pass(tts, codes: mx.array) -> dict:
    decoder = tts.codec.decoder
    state = decoder.make_state()
    tic = _now()
    for start in range(0, codes.shape[0], DECODE_CHUNK):
        audio = decoder.step(codes[None, start : start + DECODE_CHUNK], state)
        mx.eval(audio, state.state)
    total = _now() - tic
    return {"decode_ms": total / codes.shape[0] * 1e3, "total_s": total}


def first_chunk_pass(tts, text: str, first_frames: int) -> float:
    tic = _now()
    chunks = tts.stream(text, first_chunk_frames=first_frames, chunk_frames=4, max_tokens=first_frames + 1,
                        language=LANGUAGE)
    try:
        next(iter(chunks))
        return (_now() - tic) * 1e3
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


def delta_pass(tts, text: str) -> float:
    """ms from handing over the first text delta to holding the first audio chunk."""
    first = []

    def deltas():
        for i, word in enumerate(text.split(" ")):
            if not first:
                first.append(_now())
            yield word if i == 0 else " " + word

    chunks = tts.stream_text(deltas(), first_chunk_frames=1, chunk_frames=4, max_tokens=2, language=LANGUAGE)
    try:
        next(iter(chunks))
        return (_now() - first[0]) * 1e3
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


def batch_pass(tts, frames: int, sizes) -> dict:
    """Aggregate frames/s of `TTS.generate_batch` per batch size."""
    options = {"max_tokens": frames, "language": LANGUAGE, "decode": False}
    fps = {}
    for size in sizes:
        texts = [BATCH_TEXTS[i % len(BATCH_TEXTS)] for i in range(size)]
        tts.generate_batch(texts, **dict(options, max_tokens=2))  # warm-up: the step graph of this batch size
        tic = _now()
        results = tts.generate_batch(texts, **options)
        fps[size] = sum(r.codes.shape[0] for r in results) / (_now() - tic)
    return fps


def warm_up(tts, text: str):
    """Build every code path once (graph caches, compiled functions) before anything is timed."""
    codes = [f.codes for f in tts.frames(text, language=LANGUAGE, max_tokens=2)]
    decode_pass(tts, mx.array(np.concatenate(codes)))
    first_chunk_pass(tts, text, 1)


def compute_dtype(tts) -> str:
    """What the talker computes in: its head's dtype, or for quantized layers the bits and the scales' dtype."""
    head = tts.model.talker.codec_head
    if hasattr(head, "scales"):
        return f"{head.bits}-bit, {str(head.scales.dtype).split('.')[-1]} scales"
    return str(head.weight.dtype).split(".")[-1]


def measure(tts, label: str, frames: int, batch_sizes=(1, 2, 4, 8), batch_frames: Optional[int] = None,
            text: str = TEXT, log=print) -> Figures:
    figures = Figures(label=label, frames=frames, dtype=compute_dtype(tts))
    mx.random.seed(0)
    log(f"[{label}] warm-up")
    warm_up(tts, text)
    log(f"[{label}] components ({frames} frames)")
    parts = component_pass(tts, text, frames)
    figures.prefill_ms, figures.talker_ms, figures.cp_ms = parts["prefill_ms"], parts["talker_ms"], parts["cp_ms"]
    log(f"[{label}] loop ({frames} frames)")
    mx.reset_peak_memory()
    loop = loop_pass(tts, text, frames)
    decode = decode_pass(tts, loop["codes"])
    figures.peak_gb = mx.get_peak_memory() / 1e9
    for key in ("loop_ms", "loop_prefill_ms", "syncs_per_frame", "async_evals_per_frame", "sync_kinds"):
        setattr(figures, key, loop[key])
    figures.decode_ms = decode["decode_ms"]
    n = loop["codes"].shape[0]
    figures.rtf = (loop["total_s"] + decode["total_s"]) / (n * FRAME_MS / 1e3)
    log(f"[{label}] streaming latency")
    figures.first_chunk_ms = {k: first_chunk_pass(tts, text, k) for k in (1, 4)}
    figures.delta_to_audio_ms = delta_pass(tts, text)
    if batch_sizes:
        log(f"[{label}] batch {','.join(map(str, batch_sizes))}")
        figures.batch_frames = batch_frames or frames
        figures.batch_fps = batch_pass(tts, figures.batch_frames, batch_sizes)
        if figures.batch_fps is None:
            figures.notes.append("TTS.generate_batch is not available: batch rows n/a")
    return figures
