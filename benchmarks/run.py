"""Benchmark mlx-qwen3tts on random-weight checkpoints of the released shapes, side by side with mlx-audio,
espeak-ng and Apple's synthesizer; writes results.md, results.json and a plot.

    python -m benchmarks.run                      # narrow (overhead-bound) and 0.6B, bf16 / 8-bit / 4-bit
    python -m benchmarks.run --tiny               # seconds: the test shapes, bf16 (a smoke run)
    python -m benchmarks.run --sizes 0.6B,1.7B --quant bf16,4bit --frames 32
    python -m benchmarks.run --model DIR          # a checkpoint folder of your own (released weights)
    python -m benchmarks.run --mlx-audio-python ~/venvs/mlx-audio/bin/python
    python -m benchmarks.run --sizes 0.6B --quant bf16 --dtype auto,bfloat16   # compute dtypes side by side

Checkpoints are generated on first use into --cache (no download) and reused afterwards.
"""

import argparse
import gc
import sys
import time
from pathlib import Path

from mlx_qwen3tts import load  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

import mlx.core as mx  # noqa: E402

from benchmarks import checkpoints, peers, report
from benchmarks.measure import TEXT, measure


def _list(value: str) -> list:
    return [v.strip() for v in value.split(",") if v.strip()]


def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n")[0])
    ap.add_argument("--tiny", action="store_true", help="the tiny test shapes only, bf16 (seconds)")
    ap.add_argument("--sizes", default="narrow,0.6B", help=f"comma list of {', '.join(checkpoints.PRESETS)}")
    ap.add_argument("--quant", default="bf16,8bit,4bit", help="comma list of bf16, 8bit, 4bit")
    ap.add_argument("--recipe", default="linear-only", help="mlx_qwen3tts.convert recipe for 8bit / 4bit")
    ap.add_argument("--dtype", default="auto", help="comma list of talker / code predictor compute dtypes: auto "
                                                    "(the package's default for this backend), float32, bfloat16, float16")
    ap.add_argument("--model", action="append", default=[], help="also measure this checkpoint folder (repeatable)")
    ap.add_argument("--frames", type=int, help="frames per timed run (default 8; narrow 40: its frames are cheap and "
                                               "a median of 8 swings; with --tiny 32)")
    ap.add_argument("--batch-sizes", default="1,2,4,8", help="comma list; empty to skip the batch rows")
    ap.add_argument("--batch-frames", type=int, help="frames per batch run (default: --frames)")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results"), help="folder for the outputs")
    ap.add_argument("--cache", type=Path, default=checkpoints.DEFAULT_CACHE,
                    help="where generated checkpoints are kept")
    ap.add_argument("--mlx-audio-python", help="Python of an environment with mlx-audio (default: this one "
                                               "if it imports mlx_audio, else $MLX_AUDIO_PYTHON)")
    ap.add_argument("--peer-openblas", action="store_true", help="run mlx-audio with the system OpenBLAS too "
                                                                  "(LD_PRELOAD), as this package runs")
    ap.add_argument("--peer-repeats", type=int, default=3, help="mlx-audio differencing pairs (median)")
    ap.add_argument("--no-peers", action="store_true", help="skip mlx-audio, espeak-ng and Apple's synthesizer")
    ap.add_argument("--append", action="store_true", help="keep the rows of --out/results.json (same labels "
                                                          "are replaced), e.g. to add a size measured separately")
    ap.add_argument("--text", default=TEXT, help="text to speak")
    args = ap.parse_args(argv)
    if args.tiny:
        args.sizes, args.quant = "tiny", "bf16"
    if args.frames is not None and args.frames < 2:
        ap.error("--frames must be at least 2")
    return args


def _frames(args, size) -> int:
    """Frames per timed run: --frames, else 32 with --tiny, 40 for narrow (cheap frames: a median of 8 swings
    run to run), 8 otherwise."""
    return args.frames or (32 if args.tiny else 40 if size == "narrow" else 8)


def _order(row: dict):
    """Presets smallest first, then bf16, 8bit, 4bit, then the compute dtype; other checkpoints last."""
    size, quant, *dtype = row["label"].split(" ")[:3] + [""] * 2
    if size in checkpoints.PRESETS and quant in checkpoints.QUANTS:
        return (checkpoints.PRESETS.index(size), checkpoints.QUANTS.index(quant), dtype[0])
    return (len(checkpoints.PRESETS), 0, row["label"])


def _dtype(name: str):
    if name == "auto":
        return None
    if name not in ("float32", "bfloat16", "float16"):
        raise SystemExit(f"--dtype: unknown dtype {name!r}")
    return getattr(mx, name)


def main(argv=None):
    args = parse_args(argv)
    start = time.perf_counter()
    log = lambda msg: print(f"{time.perf_counter() - start:7.1f}s {msg}", file=sys.stderr, flush=True)  # noqa: E731
    targets = [(f"{size} {quant}", size, quant) for size in _list(args.sizes) for quant in _list(args.quant)]
    targets += [(Path(m).name, None, m) for m in args.model]
    batch_sizes = [int(b) for b in _list(args.batch_sizes)]
    python = None if args.no_peers else peers.mlx_audio_python(args.mlx_audio_python)
    if not args.no_peers and python is None:
        log("mlx-audio not found (pass --mlx-audio-python): its rows are left out")
    rows, mlx_audio, info = [], None if args.no_peers else {}, report.machine()
    if args.append and (args.out / "results.json").exists():
        previous = report.read(args.out)
        labels = {label if d == "auto" else f"{label} {d}" for label, _, _ in targets for d in _list(args.dtype)}
        rows = [dict(r, commit=r.get("commit", previous["machine"]["commit"]))
                for r in previous["models"] if r["label"] not in labels]
        if mlx_audio is not None:
            mlx_audio = {k: v for k, v in (previous["mlx_audio"] or {}).items() if k not in labels}
    dtypes = _list(args.dtype)
    for target, size, quant in targets:
        folder = Path(quant) if size is None else checkpoints.checkpoint(size, quant, args.cache, args.recipe, log)
        frames = _frames(args, size)
        for dtype in dtypes:
            label = target if dtype == "auto" else f"{target} {dtype}"
            tic = time.perf_counter()
            tts = load(str(folder), dtype=_dtype(dtype))
            load_s = time.perf_counter() - tic
            figures = measure(tts, label, frames, batch_sizes, args.batch_frames, args.text, log)
            figures.load_s = load_s
            rows.append(dict(figures.as_dict(), commit=info["commit"]))
            del tts
            gc.collect()
            mx.clear_cache()
        if python:  # once per checkpoint: beside its first row
            label = target if dtypes[0] == "auto" else f"{target} {dtypes[0]}"
            log(f"[{target}] mlx-audio")
            mlx_audio[label] = peers.run_mlx_audio(python, folder, frames, args.text, args.peer_repeats,
                                                   openblas=args.peer_openblas)
        rows.sort(key=_order)
        # a killed run keeps what it measured
        report.write(args.out, info, rows, mlx_audio, None if args.no_peers else [], frames)
    synths = None if args.no_peers else peers.synthesizers(args.text)
    written = report.write(args.out, info, rows, mlx_audio, synths, _frames(args, None))
    print((args.out / "results.md").read_text())
    log("wrote " + ", ".join(map(str, written)))


if __name__ == "__main__":
    main()
