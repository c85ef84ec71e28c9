"""Join benchmark: what a joining request does to the streams already speaking, and its own first audio.

N streams speak on one `Engine` (one-frame chunks, so every frame is a chunk a listener hears);
once they are steady, requests join one at a time with a prompt of each length in --chars, each
length three times: arriving just after a frame, a third and two thirds of a frame-time later (a
request comes at any moment; one that comes just after a frame waits the longest for the step
under way to end). Each runs to its first audio. Reported per length: the streams' median gap
between frames before any join, their longest gap during the joins (from a submit until two median
gaps after its first audio, so a stall on its entry counts too) and the ratio; the joiner's first
audio (submit to first chunk out) alone on the idle engine (each length's second request: its first,
printed beside it, also meets the length's shapes for the first time), and while joining: the mean of the
three arrivals and the worst, each with its ratio to alone, and the prefill budget in use at the
joins (the engine's, measured as the streams run; `--budget N` fixes it). The engine is warmed first
(`Engine.warm`), as the server does. Random checkpoints never say EOS, so streams run until
cancelled.

    PYTHONPATH=$PWD python -m benchmarks.join --preset 0.6B            # released shapes: minutes
    PYTHONPATH=$PWD python -m benchmarks.join --preset tiny --chars 300  # seconds (a smoke run)
"""

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import mlx_qwen3tts  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

import mlx.core as mx  # noqa: E402

from benchmarks import checkpoints, report  # noqa: E402

PHASES = (0.0, 1 / 3, 2 / 3)  # where in the streams' frame cycle each joiner arrives (a request comes any time)
STREAM_TEXTS = ["Hello, and welcome to the show tonight.", "The quick brown fox jumps over the lazy dog.",
                "Please hold while I connect your call.", "Local speech keeps your words on your own machine."]
SENTENCES = ["The committee met on Tuesday to review the budget for the coming year.",
             "Several members asked for more detail on the costs of the new building.",
             "After a long discussion, the chair proposed that a working group look into it.",
             "The group will report back at the next meeting, early in the spring.",
             "Until then, the current plans stay as they are, and no money will be spent."]


def joiner_text(chars: int) -> str:
    """English prose of about `chars` characters (whole sentences)."""
    text, i = "", 0
    while len(text) + len(SENTENCES[i % len(SENTENCES)]) + 1 <= chars:
        text += SENTENCES[i % len(SENTENCES)] + " "
        i += 1
    return text.strip()


class Listener:
    """Reads a stream's one-frame chunks on a thread and keeps their arrival times."""

    def __init__(self, handle):
        self.handle, self.times = handle, []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for _ in self.handle:
            self.times.append(time.perf_counter())

    def gaps(self, start: float, end: float) -> list:
        """Gaps between consecutive frames whose later frame arrived in (start, end]."""
        return [b - a for a, b in zip(self.times, self.times[1:]) if start < b <= end]


def first_audio(engine, request) -> float:
    """Seconds from submit to the request's first chunk; the request is then cancelled."""
    tic = time.perf_counter()
    handle = engine.submit(request)
    next(iter(handle))
    elapsed = time.perf_counter() - tic
    handle.cancel()
    return elapsed


def wait_frames(listeners, count: int, timeout: float = 600):
    """Until every stream has `count` more frames."""
    want = [len(lis.times) + count for lis in listeners]
    deadline = time.perf_counter() + timeout
    while any(len(lis.times) < w for lis, w in zip(listeners, want)) and time.perf_counter() < deadline:
        time.sleep(0.01)


def say(message: str):
    print(message, file=sys.stderr, flush=True)


def run(tts, streams: int, chars: list, budget, baseline_frames: int) -> list:

    joiners = [tts.request(joiner_text(n), speaker="ryan", max_tokens=4) for n in chars]
    with tts.engine(max_active=streams + 1, max_queue=0, prefill_budget=budget) as engine:
        engine.warm()
        first_use = [first_audio(engine, request) for request in joiners]  # a new length's first use
        alone = [first_audio(engine, request) for request in joiners]
        say(f"alone: first audio {', '.join(f'{t:.2f}' for t in alone)} s "
            f"(each length's first request: {', '.join(f'{t:.2f}' for t in first_use)} s)")
        handles = [engine.submit(tts.request(STREAM_TEXTS[i % len(STREAM_TEXTS)], speaker="vivian", seed=i,
                                             max_tokens=8000, first_chunk_frames=1, chunk_frames=1))
                   for i in range(streams)]
        listeners = [Listener(h) for h in handles]
        wait_frames(listeners, 2)  # every stream speaking
        start = time.perf_counter()
        wait_frames(listeners, baseline_frames)
        median = statistics.median([g for lis in listeners for g in lis.gaps(start, time.perf_counter())])
        joins = [[join(engine, listeners, request, phase * median) for phase in PHASES] for request in joiners]
        for h in handles:
            h.cancel()
    rows = []
    for request, solo, first, tries in zip(joiners, alone, first_use, joins):
        longest = max(max(g for lis in listeners for g in lis.gaps(at, at + during + 2 * median))
                      for at, during, _ in tries)
        during = [d for _, d, _ in tries]
        rows.append({"chars": len(request.text), "positions": tts.prompt(request).embeds.shape[1],
                     "budget": budget or round(statistics.mean(b for _, _, b in tries)),
                     "median_gap_s": median, "longest_gap_s": longest, "gap_ratio": longest / median,
                     "first_audio_alone_s": solo, "first_audio_first_use_s": first,
                     "first_audio_joining_s": statistics.mean(during),
                     "first_audio_ratio": statistics.mean(during) / solo, "first_audio_worst_s": max(during),
                     "first_audio_worst_ratio": max(during) / solo})
    return rows


def join(engine, listeners, request, delay: float) -> tuple:
    """(submit time, first audio, prefill budget then) of `request` submitted `delay` seconds after the
    streams' next frame."""
    wait_frames(listeners, 1)
    time.sleep(delay)
    budget = engine.prefill_budget_now
    submitted = time.perf_counter()
    during = first_audio(engine, request)
    say(f"joined ({len(request.text):,} chars, {delay:.2f} s into a frame): first audio {during:.2f} s")
    wait_frames(listeners, 3)  # steady again before the next one
    return submitted, during, budget


def table(rows: list, streams: int, budget) -> str:
    lines = [f"| joiner chars | prompt positions | budget | median gap before (s) | longest gap during joins (s) "
             f"| gap ratio | first audio alone (s) | joining {streams} streams: mean (s) | ratio | worst (s) | ratio |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        used = f"{r['budget']}{'' if budget else ' (measured)'}"
        lines.append(f"| {r['chars']:,} | {r['positions']:,} | {used} | {r['median_gap_s']:.2f} "
                     f"| {r['longest_gap_s']:.2f} | {r['gap_ratio']:.2f}x | {r['first_audio_alone_s']:.2f} "
                     f"| {r['first_audio_joining_s']:.2f} | {r['first_audio_ratio']:.2f}x "
                     f"| {r['first_audio_worst_s']:.2f} | {r['first_audio_worst_ratio']:.2f}x |")
    return "\n".join(lines)


def main(argv=None):
    from mlx_qwen3tts import backend

    ap = argparse.ArgumentParser(prog="python -m benchmarks.join", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="0.6B", choices=checkpoints.PRESETS)
    ap.add_argument("--streams", type=int, default=3, help="streams speaking when a request joins")
    ap.add_argument("--chars", default="600,2400,4000", help="joining prompts' lengths in characters")
    ap.add_argument("--budget", type=int, default=None,
                    help="prompt cost units prefilled per step while rows run (default: measured, about a frame "
                         "step's work; a large one: whole prompts)")
    ap.add_argument("--baseline-frames", type=int, default=6, help="frames per stream before the first join")
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"], help="talker compute dtype")
    ap.add_argument("--cache", type=Path, default=checkpoints.DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = ap.parse_args(argv)
    tts = mlx_qwen3tts.load(str(checkpoints.checkpoint(args.preset, "bf16", args.cache)),
                            dtype=getattr(mx, args.dtype))
    load = os.getloadavg()[0]
    tic = time.perf_counter()
    rows = run(tts, args.streams, [int(c) for c in args.chars.split(",")], args.budget, args.baseline_frames)
    print(f"{args.preset} {args.dtype}, {args.streams} streams, commit {report.commit()}, MLX {mx.__version__}, "
          f"load average {load:.2f} at start, {os.getloadavg()[0]:.2f} at end, run {time.perf_counter() - tic:.0f} s; "
          f"BLAS: {backend.status}")
    print(table(rows, args.streams, args.budget))
    if args.out:
        args.out.write_text(json.dumps({"preset": args.preset, "streams": args.streams, "budget": args.budget,
                                        "commit": report.commit(), "load_average_start": load, "rows": rows}, indent=1))
    return rows


if __name__ == "__main__":
    main()
