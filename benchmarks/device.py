"""Everything measured on a lent GPU, in one run that fits the device time a session has: the random
checkpoints (written first, in a step of their own), the parity tests, the streaming path part by part
(benchmarks.parts: the frame step, the codec step, one stream with and without audio, the engine's step with
and without audio, its decode on a second stream (the default) or the frames' stream), the cost of full
float32 on the codec, the engine at 1/8/16 streams, the join, a server's first request against its second
(benchmarks.first_request), and benchmarks.run (narrow and 0.6B, bf16 and 4-bit) with mlx-audio side by side.
Each step runs in its own process with its own time limit, in that order, and the steps left when --budget
is spent are marked skipped; a step that fails is reported and the rest go on. Writes OUT/device.md (the
table for docs/benchmarks.md: date, GPU, MLX, commit) and each step's own output beside it.

    source .device/two/setup.sh && python -m benchmarks.device --out $OUT/gpu       # on the lent machine
    python -m benchmarks.device --tiny --out /tmp/device-smoke                       # here: seconds, tiny shapes
    python -m benchmarks.device --out mac-device                                     # a Mac: Metal, as installed

`.device/two/setup.sh` is not in this repository: the lending workplace's device kit (its
`shared/device/pack.sh`, described in its README) makes `.device/` (ignored by git) with MLX's CUDA build
and a setup script that installs it on the lent NVIDIA machine, which has no network. Anywhere MLX is
installed (a Mac, a CUDA machine set up as docs/platforms.md says) no setup is needed.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ("engine with audio, one stream, at least 0.8x the codes-only frame step's frames/s; "
           "8 streams at least 6x one stream's aggregate, 16 at least 10x")


def plan(args) -> list:
    """(name, argv, seconds allowed, extra environment) of every step, in the order they run."""
    py, preset, dtype, cache = [sys.executable], args.preset, args.dtype, ["--cache", str(args.cache)]
    rows = "1,2" if args.tiny else "1,8,16"
    parts = py + ["-m", "benchmarks.parts", "--preset", preset, "--dtype", dtype, "--rows", rows,
                  "--steps", str(args.steps)] + cache
    out = args.out
    write = ("import sys; from pathlib import Path; from benchmarks import checkpoints; "
             "[checkpoints.checkpoint(p, q, Path(sys.argv[1])) for p in sys.argv[2:] for q in ('bf16', '4bit') "
             "if q == 'bf16' or p != 'narrow']")
    steps = [
        # the random checkpoints first, in a step of their own: writing them inside a timed step cost it its time
        ("checkpoints", py + ["-c", write, str(args.cache)] + (["tiny"] if args.tiny else [preset, "narrow"]), 120, {}),
        # issue 59 first: codes only, one stream, the three ways it was measured, and mlx-audio's loop beside it
        ("codes-only", py + ["-m", "benchmarks.codes_only", "--preset", preset, "--quant", "bf16" if args.tiny
                             else "bf16,4bit", "--frames", "8" if args.tiny else "48", "--rounds", "2" if args.tiny
                             else "3", "--out", str(out / "codes-only.json")] + ([] if args.tiny else ["--peer"])
         + cache, 150, {}),
        # a server's first request after Engine.warm against its 6th-10th (new prompt lengths): what is left to trace
        ("first-request", py + ["-m", "benchmarks.first_request", "--preset", preset, "--processes",
                                "1" if args.tiny else "2", "--frames", "4" if args.tiny else "16",
                                "--out", str(out / "first-request.json")] + cache, 240, {}),
        ("engine", py + ["-m", "benchmarks.engine", "--preset", preset, "--streams", rows, "--frames",
                         str(args.frames), "--dtype", "bfloat16", "--out", str(out / "engine.json")] + cache, 150, {}),
        ("join", py + ["-m", "benchmarks.join", "--preset", preset, "--streams", "2" if args.tiny else "3",
                       "--chars", "300" if args.tiny else "600,2400", "--dtype", "bfloat16",
                       "--out", str(out / "join.json")] + cache, 120, {}),
        ("parity", py + ["-m", "pytest", "-p", "no:cacheprovider", "-q", "tests/test_parity.py"] + args.parity_args,
         240, {"MLX_QWEN3TTS_NO_OPENBLAS": "1"}),
        # cold, every shape compiles its kernels on CUDA: 120 s were not enough on 2026-11-28 (about a minute warm)
        ("parts", parts + ["--out", str(out / "parts.json")], 200, {}),
        ("parts-same-stream", parts + ["--parts", "engine", "--decode-stream", "same",
                                       "--out", str(out / "parts-same.json")], 90, {}),
        ("codec-tf32-on", parts + ["--parts", "codec", "--out", str(out / "codec-tf32-on.json")], 60,
         {"MLX_ENABLE_TF32": "1"}),
        ("counts", py + ["-m", "benchmarks.parts", "--preset", preset, "--rows", rows, "--count",
                         "--out", str(out / "counts.json")] + cache, 120, {}),
    ]
    run = py + ["-m", "benchmarks.run", "--out", str(out / "run")] + cache
    run += (["--tiny", "--frames", "3", "--batch-sizes", "1", "--no-peers"] if args.tiny
            else ["--sizes", "narrow,0.6B", "--quant", "bf16,4bit", "--peer-repeats", "1"])
    steps.append(("run", run, 300, {}))
    return steps


def run_step(name, argv, seconds, env_changes, out: Path, deadline: float) -> dict:
    left = deadline - time.monotonic()
    if left < 10:
        return {"status": "skipped (budget spent)", "seconds": 0.0}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    env.update(env_changes)
    tic = time.monotonic()
    with open(out / f"{name}.log", "w") as log:
        try:
            code = subprocess.run(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  timeout=min(seconds, left)).returncode
            status = "ok" if code == 0 else f"failed (exit {code})"
        except subprocess.TimeoutExpired:
            status = f"timed out after {min(seconds, left):.0f} s"
    return {"status": status, "seconds": time.monotonic() - tic}


def _read(path: Path):
    return json.loads(path.read_text()) if path.exists() else None


def _tail(path: Path, lines: int) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


def machine() -> dict:
    import mlx_qwen3tts  # noqa: F401  (first: OpenBLAS before mlx.core)
    import mlx.core as mx

    gpu = shutil.which("nvidia-smi")
    name = (subprocess.run([gpu, "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True)
            .stdout.strip() if gpu else "") or str(mx.default_device())
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "device": name,
            "mlx": mx.__version__, "commit": commit.stdout.strip() or "?", "load": f"{os.getloadavg()[0]:.2f}"}


def parts_table(parts: dict, same: dict, tf32_on: dict) -> list:
    lines = []
    frame = parts.get("frame_ms", {})
    if frame:
        lines += ["| rows | frame step (codes only), ms | frames/s |", "|---|---|---|"]
        lines += [f"| {n} | {ms:.1f} | {int(n) * 1e3 / ms:.1f} |" for n, ms in frame.items()]
    codec = parts.get("codec", {})
    if codec:
        on = (tf32_on or {}).get("codec", {})
        lines += ["", "| codec step, streams x frames | ms | ms per frame | ms with TF32 on |", "|---|---|---|---|"]
        lines += [f"| {k} | {v['ms']:.1f} | {v['ms_per_frame']:.2f} | "
                  f"{on[k]['ms']:.1f} |" if k in on else f"| {k} | {v['ms']:.1f} | {v['ms_per_frame']:.2f} | |"
                  for k, v in codec.items()]
    stream = parts.get("stream")
    if stream:
        lines += ["", f"One request: `TTS.frames` {stream['frames_ms_per_frame']:.1f} ms/frame, `TTS.stream` (audio, "
                      f"growing chunks) {stream['stream_ms_per_frame']:.1f} ms/frame, (4-frame chunks) "
                      f"{stream.get('stream_4_ms_per_frame', float('nan')):.1f} ms/frame."]
    engine = parts.get("engine", {})
    if engine:
        other = (same or {}).get("engine", {})
        lines += ["", "| rows | engine step codes only: frames/s | with audio: frames/s | audio, decode on the "
                      "frames' stream: frames/s |", "|---|---|---|---|"]
        for n, figures in engine.items():
            alt = other.get(n, {}).get("audio", {}).get("frames_per_s")
            lines.append(f"| {n} | {figures['codes']['frames_per_s']:.1f} | {figures['audio']['frames_per_s']:.1f} | "
                         f"{'' if alt is None else f'{alt:.1f}'} |")
        if frame and "1" in engine:
            loop = 1e3 / frame["1"]
            ratios = [f"one stream with audio {engine['1']['audio']['frames_per_s'] / loop:.2f}x the frame step's "
                      "frames/s"]
            ratios += [f"{n} streams {engine[n]['audio']['frames_per_s'] / engine['1']['audio']['frames_per_s']:.2f}x "
                       "one" for n in engine if n != "1"]
            lines += ["", "Against the targets (" + TARGETS + "): " + "; ".join(ratios) + "."]
    return lines


def report(out: Path, facts: dict, results: dict, args) -> Path:
    lines = [f"### {facts['device']}, {facts['date']}", "",
             f"MLX {facts['mlx']}, commit {facts['commit']}, preset {args.preset} ({args.dtype}), "
             f"load {facts['load']} at the start; `python -m benchmarks.device{' --tiny' if args.tiny else ''}`.", "",
             "| step | status | seconds |", "|---|---|---|"]
    lines += [f"| {name} | {r['status']} | {r['seconds']:.0f} |" for name, r in results.items()]
    parts = _read(out / "parts.json")
    if parts:
        lines += ["", "#### The streaming path, part by part", ""]
        lines += parts_table(parts, _read(out / "parts-same.json"), _read(out / "codec-tf32-on.json"))
    counts = _read(out / "counts.json")
    if counts:
        lines += ["", "#### Per frame (per engine step), Metal/CUDA branches", "",
                  "| path | primitives | host syncs |", "|---|---|---|"]
        lines += [f"| {k} | {v['primitives']:,.0f} | {v['syncs']:.2f} |" for k, v in counts["counts"].items()]
    for name, lines_kept in (("codes-only", 4), ("parity", 3), ("engine", 12), ("join", 12), ("first-request", 20)):
        text = _tail(out / f"{name}.log", lines_kept)
        if text:
            lines += ["", f"#### {name}", "", "```", text, "```"]
    table = out / "run" / "results.md"
    if table.exists():
        lines += ["", "#### benchmarks.run", "", table.read_text()]
    path = out / "device.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.device", description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for device.md and each step's output")
    ap.add_argument("--tiny", action="store_true", help="the tiny shapes, small counts: a smoke run (seconds)")
    ap.add_argument("--budget", type=float, default=540, help="seconds for all the steps together")
    ap.add_argument("--only", help="comma list of steps to run (default: all)")
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                    / "mlx-qwen3tts-benchmarks", help="where generated checkpoints are kept")
    args = ap.parse_args(argv)
    args.preset = "tiny" if args.tiny else "0.6B"
    args.dtype = "bfloat16"
    args.steps, args.frames = (4, 6) if args.tiny else (12, 24)
    args.parity_args = ["-k", "custom_voice_0b6_ryan"] if args.tiny else []
    return args


def main(argv=None):
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    facts, deadline = machine(), time.monotonic() + args.budget
    only = set(args.only.split(",")) if args.only else None
    results = {}
    for name, argv_, seconds, env in plan(args):
        if only is None or name in only:
            results[name] = run_step(name, argv_, seconds, env, args.out, deadline)
            print(f"{name}: {results[name]['status']} ({results[name]['seconds']:.0f} s)", flush=True)
    print(report(args.out, facts, results, args).read_text())


if __name__ == "__main__":
    main()
