"""The first request after the warm-up against the ones after it: what is left to trace (and, on CUDA and
Metal, to compile) after the warm-up (`tts.warm_up`, the server's and `TTS.warm`'s), on the branches Metal
and CUDA take (forced on this CPU unless --cpu-paths).

Each of --processes fresh processes (alternating between the --tree's given, A B A B ...: each imports the
package from its tree) loads the checkpoint (no traces cached), warms up as its front end does, then sends
--requests requests one after the other, each run to its end and each with a prompt length no request
before it had (a length met for the first time is what a server's first requests meet): the seconds from
submit to its first audio. The front end: `engine` (the server's: `warm_up` with its engine, then
`Engine.submit`) or `python` (`warm_up` on the calling thread, as `TTS.warm`, then `TTS.stream`). Per
process, the first request's first audio over the median of the sixth to tenth; per tree, the median of
those ratios over its processes (issue 59: within 1.05). The lengths go round a middle one (the first's),
so the first and the later ones have prompts of about the same cost.

    PYTHONPATH=$PWD python -m benchmarks.first_request --preset narrow
    PYTHONPATH=$PWD python -m benchmarks.first_request --preset narrow --tree /path/to/old --tree $PWD
    PYTHONPATH=$PWD python -m benchmarks.first_request --preset tiny --processes 1 --frames 4  # smoke run
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("the quick brown fox jumps over a lazy dog and then it runs far away into deep forest where nobody "
         "has ever seen such an animal before today").split()
# Words in request i's prompt: the first request's in the middle, the later ones round it, each length new.
WORD_COUNTS = (20, 14, 26, 17, 23, 19, 21, 18, 22, 16, 24, 15, 25, 13, 27, 12, 28, 11, 29, 10)
LATER = slice(5, 10)  # the sixth to the tenth request


def prompt(i: int) -> str:
    words = (WORDS * 2)[: WORD_COUNTS[i]]
    return " ".join(words).capitalize() + "."


def one_process(args) -> dict:
    """This process's figures (see the module docstring)."""
    import mlx_qwen3tts  # first: OpenBLAS before mlx.core
    import mlx.core as mx

    from benchmarks import checkpoints, report

    try:
        from mlx_qwen3tts.tts import warm_up
    except ImportError:  # a --tree from before issue 65, which warmed up with these calls
        def warm_up(tts, engine):
            (engine or tts).warm()
            if engine is not None:
                from mlx_qwen3tts.text.reading import warm
                warm()

    mlx_qwen3tts.backend.CPU_PATHS = args.cpu_paths
    folder = checkpoints.checkpoint(args.preset, "bf16", args.cache, log=lambda m: None)
    tts = mlx_qwen3tts.load(str(folder))
    load = os.getloadavg()[0]
    kw = dict(speaker="ryan", language="english", seed=0, max_tokens=args.frames)
    firsts = []
    engine = tts.engine(max_active=args.max_active) if args.front == "engine" else None
    try:
        tic = time.perf_counter()
        warm_up(tts, engine)  # as its front end warms up: the server's (the engine's thread) or TTS.warm's
        warm_s = time.perf_counter() - tic
        for i in range(args.requests):
            tic, first = time.perf_counter(), None
            chunks = engine.submit(tts.request(prompt(i), **kw)) if engine is not None else tts.stream(prompt(i), **kw)
            for _ in chunks:
                first = time.perf_counter() - tic if first is None else first
            firsts.append(first)
    finally:
        if engine is not None:
            engine.close()
    later = statistics.median(firsts[LATER])
    return {"tree": str(Path(mlx_qwen3tts.__file__).resolve().parent.parent), "preset": args.preset,
            "front": args.front, "commit": report.commit(), "mlx": mx.__version__, "load_average_start": load,
            "gpu_paths": not args.cpu_paths, "warm_s": warm_s, "first_audio_s": firsts,
            "first_over_later": firsts[0] / later}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.first_request", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="narrow", choices=("tiny", "narrow", "0.6B", "1.7B"))
    ap.add_argument("--front", default="engine", choices=("engine", "python"))
    ap.add_argument("--frames", type=int, default=40, help="frames a request (random weights never end earlier)")
    ap.add_argument("--requests", type=int, default=10, help="requests a process (at least 10)")
    ap.add_argument("--processes", type=int, default=3, help="fresh processes a tree")
    ap.add_argument("--max-active", type=int, default=8, help="the engine's rows (a server's --max-active)")
    ap.add_argument("--tree", action="append", type=Path, help="a source tree of the package (repeat to alternate)")
    ap.add_argument("--cpu-paths", action="store_true", help="this CPU's own branches instead of Metal's and CUDA's")
    ap.add_argument("--cache", type=Path, default=None, help="checkpoint cache (benchmarks.checkpoints' default)")
    ap.add_argument("--out", type=Path, help="also write the JSON here")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not 10 <= args.requests <= len(WORD_COUNTS):
        ap.error(f"--requests must be 10 to {len(WORD_COUNTS)}")
    if args.cache is None:
        from benchmarks.checkpoints import DEFAULT_CACHE

        args.cache = DEFAULT_CACHE
    if args.child:
        print(json.dumps(one_process(args)))
        return None
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    runs = {str(t): [] for t in trees}
    forwarded = list(argv if argv is not None else sys.argv[1:])
    for round_ in range(args.processes):
        for tree in (trees if round_ % 2 == 0 else trees[::-1]):
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(ROOT)] + [p for p in [os.environ.get(
                "PYTHONPATH")] if p])}
            # This file runs in every tree (an older tree's own may differ); the package comes from the tree.
            out = subprocess.run([sys.executable, __file__, *forwarded, "--child"], env=env, cwd=tree,
                                 capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit(f"a run in {tree} failed:\n{out.stderr[-3000:]}")
            run = json.loads(out.stdout.strip().splitlines()[-1])
            if Path(run["tree"]) != tree:
                sys.exit(f"the run for {tree} imported the package from {run['tree']}")
            runs[str(tree)].append(run)
            print(f"{tree}: first audio {run['first_audio_s'][0] * 1000:.0f} ms, 6th-10th median "
                  f"{statistics.median(run['first_audio_s'][LATER]) * 1000:.0f} ms, ratio "
                  f"{run['first_over_later']:.3f} (warm-up {run['warm_s']:.1f} s)", file=sys.stderr, flush=True)
    result = {"preset": args.preset, "front": args.front, "frames": args.frames, "runs": runs,
              "median_first_over_later": {t: statistics.median(r["first_over_later"] for r in rs)
                                          for t, rs in runs.items()}}
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text)
    print(text)
    return result


if __name__ == "__main__":
    main()
