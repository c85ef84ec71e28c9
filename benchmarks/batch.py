"""A batch of N texts (POST /v1/audio/speech/batch) against the same N sent one after another
(POST /v1/audio/speech), on one real server process on 127.0.0.1.

The checkpoint is a random-weight one of `benchmarks.checkpoints` (it never says EOS, so every text
runs its --frames); greedy, pcm, a different speaker per text. Each round sends the N texts one after
another, then as one batch; reported: the median wall time of each over --rounds, and their ratio.

    PYTHONPATH=$PWD python -m benchmarks.batch --preset tiny --texts 8 --frames 24 --rounds 3
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

import mlx_qwen3tts  # noqa: F401  (first: it loads OpenBLAS before mlx.core is; see mlx_qwen3tts/backend.py)

from benchmarks import checkpoints  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ["Hello, and welcome to the show tonight.", "The quick brown fox jumps over the lazy dog.",
         "Please hold while I connect your call.", "It is going to rain this afternoon, take an umbrella."]
SPEAKERS = ["ryan", "vivian", "serena", "dylan", "aiden", "eric", "sohee", "uncle_fu"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(model: Path, texts: int, dtype: str, log: Path):
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "mlx_qwen3tts.server", "--model", str(model), "--port", str(port),
                             "--max-active", str(texts), "--max-queue", str(texts), "--max-batch", str(texts),
                             "--dtype", dtype, "--log-level", "warning"], stdout=log.open("wb"),
                            stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}; see {log}")
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    proc.terminate()
    raise RuntimeError(f"the server did not start in 600 s; see {log}")


def items(n: int, frames: int) -> list:
    return [{"model": "tts-1", "input": TEXTS[i % len(TEXTS)], "voice": SPEAKERS[i % len(SPEAKERS)],
             "temperature": 0, "max_new_tokens": frames, "response_format": "pcm"} for i in range(n)]


def one_after_another(http, batch: list) -> float:
    start = time.perf_counter()
    for body in batch:
        response = http.post("/v1/audio/speech", json=body)
        response.raise_for_status()
    return time.perf_counter() - start


def together(http, batch: list) -> float:
    start = time.perf_counter()
    response = http.post("/v1/audio/speech/batch", json={"items": batch})
    response.raise_for_status()
    assert len(response.json()["data"]) == len(batch)
    return time.perf_counter() - start


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.batch", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="tiny", choices=checkpoints.PRESETS)
    ap.add_argument("--texts", type=int, default=8)
    ap.add_argument("--frames", type=int, default=24, help="frames per text (12.5 a second of audio)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"])
    ap.add_argument("--cache", type=Path, default=checkpoints.DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = ap.parse_args(argv)
    model = checkpoints.checkpoint(args.preset, "bf16", args.cache)
    args.cache.mkdir(parents=True, exist_ok=True)
    proc, url = start(model, args.texts, args.dtype, args.cache / "batch-server.log")
    try:
        batch = items(args.texts, args.frames)
        with httpx.Client(base_url=url, timeout=3600) as http:
            together(http, batch[:2])  # first requests of each kind out of the way
            one_after_another(http, batch[:2])
            seq, bat = [], []
            for _ in range(args.rounds):
                seq.append(one_after_another(http, batch))
                bat.append(together(http, batch))
    finally:
        proc.terminate()
        proc.wait(30)
    result = {"preset": args.preset, "texts": args.texts, "frames": args.frames, "rounds": args.rounds,
              "one_after_another_s": statistics.median(seq), "batch_s": statistics.median(bat),
              "all_one_after_another_s": seq, "all_batch_s": bat}
    result["speedup"] = result["one_after_another_s"] / result["batch_s"]
    print(f"{args.texts} texts x {args.frames} frames, {args.preset}: one after another "
          f"{result['one_after_another_s']:.2f} s, one batch {result['batch_s']:.2f} s "
          f"({result['speedup']:.2f}x; medians of {args.rounds})")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
