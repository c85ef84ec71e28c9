"""A server's first request against its second: what the first use of the codec's shapes costs after
`Engine.warm`, on the branches Metal and CUDA take (forced on this CPU unless --cpu-paths).

Loads the checkpoint fresh (no traces cached), warms an engine as the server does, then runs the same
request twice, one after the other, each to its end: the seconds from submit to its first chunk, to its
fifth (1 + 2 + 4 + 8 + 16 frames: every piece size of the default chunks met) and to its last. On CUDA and
Metal a shape met for the first time also compiles kernels; on this CPU the forced branches show the host's
part of that cost, the trace of each compiled graph.

    PYTHONPATH=$PWD python -m benchmarks.first_request --preset tiny
"""

import argparse
import json
import os
import time
from pathlib import Path

import mlx_qwen3tts  # first: OpenBLAS before mlx.core
import mlx.core as mx

from benchmarks import checkpoints, report
from benchmarks.checkpoints import DEFAULT_CACHE

TEXT = "The quick brown fox jumps over the lazy dog, and then it runs far away into the deep forest."


def timed(engine, request) -> dict:
    """Seconds from submit to the first chunk, the fifth and the last."""
    tic, marks = time.perf_counter(), []
    for chunk in engine.submit(request):
        marks.append(time.perf_counter() - tic)
    return {"first_s": marks[0], "fifth_s": marks[min(4, len(marks) - 1)], "last_s": marks[-1]}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.first_request", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="tiny", choices=checkpoints.PRESETS)
    ap.add_argument("--frames", type=int, default=40, help="frames a request (random weights never end earlier)")
    ap.add_argument("--cpu-paths", action="store_true", help="this CPU's own branches instead of Metal's and CUDA's")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, help="also write the JSON here")
    args = ap.parse_args(argv)
    mlx_qwen3tts.backend.CPU_PATHS = args.cpu_paths
    folder = checkpoints.checkpoint(args.preset, "bf16", args.cache, log=lambda m: None)
    tts = mlx_qwen3tts.load(str(folder))
    load = os.getloadavg()[0]
    request = tts.request(TEXT, speaker="ryan", language="english", seed=0, max_tokens=args.frames)
    with tts.engine(max_active=2) as engine:
        tic = time.perf_counter()
        engine.warm()
        warm_s = time.perf_counter() - tic
        first, second = timed(engine, request), timed(engine, request)
    result = {"preset": args.preset, "commit": report.commit(), "mlx": mx.__version__, "load_average_start": load,
              "gpu_paths": not args.cpu_paths, "warm_s": warm_s, "first": first, "second": second}
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text)
    print(text)
    return result


if __name__ == "__main__":
    main()
