"""Primitives, host syncs and weight bytes per frame, on the branches Metal takes (forced on any backend).

    python -m benchmarks.primitives --model CKPT [--frames 2] [--mlx-audio-python PY]

Counted as Metal evaluates them: each `mx.fast` op one node (graph_nodes.metal_kernels; a CPU expands them).
- split: the graph of one frame step at one row, built (never evaluated) from the loop's own graphs and
  counted from MLX's DOT export (graph_nodes.py): the talker's forward (`LoopGraphs.forward`), the code
  predictor's 15 passes (compiled alone, greedy picks) and the rest of the frame (codebook-0 processing
  and sampling, the picks, the next input: the frame minus the code predictor), greedy and sampled.
- loop: `TTS.frames` end to end (sampled, as the checkpoint says), every graph MLX evaluates counted at
  the call that evaluates it, with the host syncs (syncs.py); per frame = the difference of runs of
  3 and 3 + --frames frames over the extra frames (the prompt cancels out).
- bytes: weights read per frame (talker once, code predictor layers once per pass, each head once, one
  row per embedding table used).
- mlx-audio: its driver with --count (the loop figures, the same way), in its own environment.
Counts are deterministic: they depend on the code and the model's shapes, not on the machine.
"""

import argparse
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import mlx_qwen3tts  # noqa: F401  (first: it loads OpenBLAS before mlx.core on Linux)
import mlx.core as mx
from mlx.utils import tree_flatten

from benchmarks.graph_nodes import GraphCounter, count, metal_kernels
from benchmarks.peers import DRIVER, mlx_audio_python
from benchmarks.syncs import SyncCounter

TEXT = "The quick brown fox jumps over the lazy dog, then it runs across the quiet field."
LANGUAGE = "english"
BASE_FRAMES = 3
CP_PASSES = 15


def frame_split(tts, sampled: bool, rows: int = 1) -> dict:
    """Primitives of one frame step's graph, by part (see the module docstring)."""
    from mlx_qwen3tts.loop.row_store import RowStore
    from mlx_qwen3tts.loop.sampling import row_settings

    talker, graphs = tts.model.talker, tts.loop.graphs
    store = RowStore(talker, graphs.vocab)
    store.slots = [None] * rows
    store.make_room(1)
    sampling = tts.sampling if sampled else replace(tts.sampling, temperature=0.0, cp_temperature=0.0)
    settings = row_settings([sampling] * rows)
    text, moving = mx.zeros((rows, 1, store.row_shape.hidden), store.row_shape.dtype), mx.ones((rows,), mx.bool_)
    mx.eval(store.state, settings, text, moving)
    mx.eval(graphs.step[sampled](store.state, settings, text, moving))  # traced: counts see the steady graph
    logits, hidden, keys, values = graphs.forward(store.state, text)
    forward = count(logits, hidden, keys, values)
    codes, state = graphs.advance[sampled](logits, hidden, store.state._replace(keys=[], values=[]), settings, moving)
    frame = count(codes, state) - forward
    mx.eval(logits, hidden)
    c0_embed = talker.codec_embed(mx.argmax(logits, axis=-1))[:, None]
    mx.eval(c0_embed)
    predict = mx.compile(lambda h, e: talker.code_predictor.predict(h, e, lambda lg, q: mx.argmax(lg, axis=-1)))
    mx.eval(predict(hidden, c0_embed))
    code_predictor = count(predict(hidden, c0_embed))
    return {"talker": forward, "code_predictor": code_predictor, "sampling_and_rest": frame - code_predictor,
            "frame_total": forward + frame}


def weight_bytes(talker) -> dict:
    """Bytes of weights read per frame (module docstring); `talker.` names as in the checkpoint."""
    parts = {"talker": 0, "code_predictor": 0, "embedding_rows": 0}
    tables = {}
    for name, value in tree_flatten(talker.parameters()):
        if "embedding" in name:
            tables.setdefault(name.rsplit(".", 1)[0], []).append(value)
        elif name.startswith("code_predictor."):
            once = name.startswith("code_predictor.lm_head.")
            parts["code_predictor"] += value.nbytes * (1 if once else CP_PASSES)
        else:
            parts["talker"] += value.nbytes
    for table, arrays in tables.items():
        if table.endswith("text_embedding"):
            continue  # read on the host when the text track is made, not per frame
        parts["embedding_rows"] += sum(a.nbytes // a.shape[0] for a in arrays)
    parts["total"] = sum(parts.values())
    return parts


def loop_counts(tts, frames: int) -> dict:
    """Primitives and syncs per frame of `TTS.frames`, differenced (module docstring)."""

    def run(n):
        with GraphCounter() as graph, SyncCounter() as syncs:
            made = sum(1 for _ in tts.frames(TEXT, language=LANGUAGE, max_tokens=n))
        return made, graph.nodes, syncs.blocking, syncs.async_evals

    run(BASE_FRAMES)  # traces
    short, long = run(BASE_FRAMES), run(BASE_FRAMES + frames)
    extra = long[0] - short[0]
    if extra < 1:
        raise SystemExit(f"the loop produced {long[0]} and {short[0]} frames; cannot difference")
    return {"nodes_per_frame": (long[1] - short[1]) / extra, "syncs_per_frame": (long[2] - short[2]) / extra,
            "async_evals_per_frame": (long[3] - short[3]) / extra}


def ours(model: str, frames: int, dtype=None) -> dict:
    from mlx_qwen3tts import backend

    from mlx_qwen3tts.loop.graphs import LoopGraphs

    saved, backend.CPU_PATHS = backend.CPU_PATHS, False  # the branches Metal and CUDA take
    try:
        tts = mlx_qwen3tts.load(model, dtype=dtype)
        figures = {"dtype": str(tts.model.talker.codec_head.weight.dtype).rsplit(".", 1)[-1],
                   "bytes": weight_bytes(tts.model.talker)}
        with metal_kernels():
            tts.loop.graphs = LoopGraphs(tts.model.talker, tts.loop.graphs.eos_id)  # traced with Metal's kernels
            figures.update(greedy=frame_split(tts, sampled=False), sampled=frame_split(tts, sampled=True))
            if frames:
                figures["loop"] = loop_counts(tts, frames)
    finally:
        backend.CPU_PATHS = saved
    return figures


def mlx_audio(python: str, model: str, frames: int) -> dict:
    cmd = [python, str(DRIVER), "--model", model, "--frames", str(frames), "--text", TEXT, "--count"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"error": f"exit {proc.returncode}: {tail[0][:300]}"}
    return json.loads(lines[-1])


def git_commit() -> str:
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"], capture_output=True, text=True)
    return proc.stdout.strip() or "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="checkpoint folder")
    ap.add_argument("--frames", type=int, default=2, help="extra frames of the loop count (0: skip the loop)")
    ap.add_argument("--float32", action="store_true", help="compute in float32 (same graph, faster on a CPU)")
    ap.add_argument("--mlx-audio-python", help="a Python with mlx-audio (default: $MLX_AUDIO_PYTHON)")
    args = ap.parse_args(argv)
    report = {"commit": git_commit(), "model": args.model,
              "ours": ours(args.model, args.frames, mx.float32 if args.float32 else None)}
    python = mlx_audio_python(args.mlx_audio_python)
    if python and args.frames:
        report["mlx_audio"] = mlx_audio(python, args.model, args.frames)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    sys.exit(main())
