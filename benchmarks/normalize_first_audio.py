"""First audio with text normalization on against off (issue 56: "first audio no later than with
normalization off"), in one process, alternating the two sides over --rounds rounds (medians).

Two paths: `stream` (the text given whole, as HTTP, SSE, Wyoming and the CLI give it) and `stream_text`
(the same text arriving word by word with no wait between words, as an LLM's deltas: normalization holds a
stretch back until a following word settles it, so what it can cost there is one word's wait). The text
holds numbers, a date, money and an abbreviation, so the normalized prompt differs from the raw one; both
sides are warmed up first.

    PYTHONPATH=$PWD python -m benchmarks.normalize_first_audio --preset narrow --rounds 7
    PYTHONPATH=$PWD python -m benchmarks.normalize_first_audio --preset tiny --rounds 2  # smoke run
"""

import argparse
import json
import os
import statistics
import time
from pathlib import Path

TEXT = "On 3 May 2024 we paid $12.50 for 2 tickets, e.g. the 7:30 show."


def first_audio(tts, path: str, normalize: bool, frames: int) -> float:
    kw = dict(speaker="ryan", language="english", seed=0, max_tokens=frames, normalize=normalize)
    tic = time.perf_counter()
    if path == "stream":
        chunks = tts.stream(TEXT, **kw)
    else:
        words = TEXT.split(" ")
        chunks = tts.stream_text(iter([w + " " for w in words[:-1]] + [words[-1]]), **kw)
    first = None
    for _ in chunks:
        first = time.perf_counter() - tic if first is None else first
    return first


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="narrow", choices=("tiny", "narrow", "0.6B", "1.7B"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--frames", type=int, default=8, help="frames a request (only the first chunk is timed)")
    ap.add_argument("--cache", type=Path, default=None, help="checkpoint cache (benchmarks.checkpoints' default)")
    args = ap.parse_args(argv)
    import mlx_qwen3tts  # first: OpenBLAS before mlx.core

    from benchmarks import checkpoints, report

    folder = checkpoints.checkpoint(args.preset, "bf16", args.cache or checkpoints.DEFAULT_CACHE, log=lambda m: None)
    tts = mlx_qwen3tts.load(str(folder))
    tts.warm()
    times = {(path, on): [] for path in ("stream", "stream_text") for on in (True, False)}
    for side in times:  # every graph and the language detector met once before timing
        first_audio(tts, *side, args.frames)
    load = os.getloadavg()[0]
    for r in range(args.rounds):
        for path in ("stream", "stream_text"):
            for on in ((True, False) if r % 2 == 0 else (False, True)):
                times[(path, on)].append(first_audio(tts, path, on, args.frames))
    result = {"preset": args.preset, "commit": report.commit(), "rounds": args.rounds, "load_average_start": load,
              "load_average_end": os.getloadavg()[0]}
    for path in ("stream", "stream_text"):
        on, off = statistics.median(times[(path, True)]), statistics.median(times[(path, False)])
        result[path] = {"on_ms": round(on * 1000, 1), "off_ms": round(off * 1000, 1), "on_over_off": round(on / off, 3)}
        print(f"{path:12s} first audio: normalization on {on * 1000:7.1f} ms, off {off * 1000:7.1f} ms, "
              f"on/off {on / off:.3f} (medians of {args.rounds})")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
