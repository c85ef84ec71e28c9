"""Engine benchmark: N concurrent streams of mixed requests with staggered arrivals.

For each N in --streams: N requests (speakers, both text layouts, one text streamed in as
deltas, sampled with seeds; the random checkpoints never say EOS, so every request runs its
--frames) arrive one after another, `--stagger` frame-times apart, on one `Engine`. Reported:
aggregate frames/s (all frames / wall time from the first submit to the last chunk), per-stream
RTF (wall time / audio duration, median), first-chunk latency of the requests that joined a busy
engine (p50/p95: seconds from submit; frame-times from their first frame in hand, i.e. after
their prefill, to their first chunk out), the time to free a cancelled row (frame-times), peak
MLX memory; and the same requests run one after another (`TTS.request_chunks`) for the speedup.
Audio is decoded for every chunk (as a server would).

    PYTHONPATH=$PWD python -m benchmarks.engine --preset 0.6B --streams 1,2,4,8,16 --frames 12
"""

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import mlx_qwen3tts  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

import mlx.core as mx  # noqa: E402

from benchmarks import checkpoints  # noqa: E402

TEXTS = ["Hello, and welcome to the show tonight.", "今天天气很好，我们去公园散步吧。",
         "The quick brown fox jumps over the lazy dog.", "Please hold while I connect your call."]
SPEAKERS = ["ryan", "vivian", "serena", "dylan"]
FPS = 12.5  # codec frames per second of audio


def requests(tts, n: int, frames: int) -> list:
    """n mixed requests: (request, deltas or None)."""
    out = []
    for i in range(n):
        kw = dict(speaker=SPEAKERS[i % len(SPEAKERS)], seed=i, max_tokens=frames)
        text = TEXTS[i % len(TEXTS)]
        if i % 4 == 3:
            out.append((kw, text.split(" ")))  # streamed in as word deltas
        else:
            out.append((dict(kw, text_mode="non-streaming" if i % 4 == 1 else "streaming"), text))
    return out


def build(tts, spec):
    from mlx_qwen3tts.loop.text_track import TextFeed

    kw, text = spec
    if isinstance(text, list):
        feed = TextFeed()
        for word in text[:-1]:
            feed.append(word + " ")
        feed.append(text[-1])
        feed.end()
        return tts.request(deltas=feed, **kw)
    return tts.request(text, **kw)


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def sequential(tts, specs) -> dict:
    tic = time.perf_counter()
    frames = 0
    for spec in specs:
        for chunk in tts.request_chunks(build(tts, spec)):
            frames += chunk.frames
    wall = time.perf_counter() - tic
    return {"frames": frames, "wall_s": wall, "fps": frames / wall}


def concurrent(tts, specs, frame_s: float, stagger: float, cancel: bool) -> dict:
    import threading


    mx.reset_peak_memory()
    results = [None] * len(specs)
    with tts.engine(max_active=len(specs) + 1, max_queue=0) as engine:
        def consume(i, handle, submitted):
            chunks = list(handle)
            results[i] = (submitted, time.perf_counter(), chunks)

        threads = []
        tic = time.perf_counter()
        for i, spec in enumerate(specs):
            if i:
                time.sleep(stagger * frame_s)
            submitted = time.perf_counter()
            handle = engine.submit(build(tts, spec))
            t = threading.Thread(target=consume, args=(i, handle, submitted))
            t.start()
            threads.append(t)
        cancel_frames = None
        if cancel:  # one extra row, cancelled once it has spoken: how long until its row is free
            extra = engine.submit(build(tts, specs[0]))
            next(iter(extra))
            before = engine.stats()["active"]
            t0 = time.perf_counter()
            extra.cancel()
            while engine.stats()["active"] >= before:
                time.sleep(0.0005)
            cancel_frames = (time.perf_counter() - t0) / frame_s
        for t in threads:
            t.join()
        wall = time.perf_counter() - tic
    frames = sum(c.frames for r in results for c in r[2])
    rtf = [(end - sub) / (sum(c.frames for c in chunks) / FPS) for sub, end, chunks in results]
    first = [chunks[0].timings["ready"] for _, _, chunks in results]
    # From the request's first frame in hand (its prefill done) to its first chunk out.
    after_prefill = [chunks[0].timings["ready"] - chunks[0].timings["first_frame"] for _, _, chunks in results]
    # The engine's frame-time under this load: chunk-to-chunk intervals per frame, median.
    steps = [(b.timings["ready"] - a.timings["ready"]) / b.frames for _, _, chunks in results
             for a, b in zip(chunks[1:], chunks[2:]) if b.frames]
    return {"frames": frames, "wall_s": wall, "fps": frames / wall, "rtf_median": statistics.median(rtf),
            "first_chunk_s": first, "after_prefill_s": after_prefill, "step_s": statistics.median(steps) if steps else None,
            "peak_memory_gb": mx.get_peak_memory() / 1e9, "cancel_frames": cancel_frames}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="0.6B", choices=checkpoints.PRESETS)
    ap.add_argument("--streams", default="1,2,4,8,16")
    ap.add_argument("--frames", type=int, default=12, help="frames per request")
    ap.add_argument("--stagger", type=float, default=1.0, help="frame-times between arrivals")
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"], help="talker compute dtype")
    ap.add_argument("--no-sequential", action="store_true", help="skip the one-after-another baseline")
    ap.add_argument("--cache", type=Path, default=checkpoints.DEFAULT_CACHE)
    ap.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = ap.parse_args(argv)

    from mlx_qwen3tts import backend

    path = checkpoints.checkpoint(args.preset, "bf16", args.cache)
    tts = mlx_qwen3tts.load(str(path), dtype=getattr(mx, args.dtype))
    load = os.getloadavg()[0]
    # Warm-up: the step graph of every batch size a run passes through (rows join one at a time, and
    # the cancelled extra row makes N + 1), then the single-stream frame time.
    sizes = [1]
    while sizes[-1] < max(int(s) for s in args.streams.split(",")) + 1:
        sizes.append(2 * sizes[-1])
    for n in sizes:
        concurrent(tts, [requests(tts, 1, 3)[0]] * n, 0.0, 0.0, False)
    one = concurrent(tts, requests(tts, 1, args.frames), 0.0, 0.0, False)
    frame_s = one["wall_s"] / one["frames"]
    idle_first = one["first_chunk_s"][0]
    print(f"{args.preset} {args.dtype}: one stream {one['fps']:.2f} frames/s ({frame_s * 1e3:.0f} ms/frame), "
          f"first chunk {idle_first:.2f} s; load average {load:.2f} at start; BLAS: {backend.status}")
    rows = []
    for n in [int(s) for s in args.streams.split(",")]:
        specs = requests(tts, n, args.frames)
        run = concurrent(tts, specs, frame_s, args.stagger, cancel=n > 1)
        seq = None if args.no_sequential else sequential(tts, specs)
        joiners = run["first_chunk_s"][1:] or run["first_chunk_s"]
        after = run["after_prefill_s"][1:] or run["after_prefill_s"]
        step = run["step_s"] or frame_s
        in_hand = [f - a for f, a in zip(run["first_chunk_s"][1:], after)] or [run["first_chunk_s"][0] - after[0]]
        row = {"streams": n, "fps": run["fps"], "x_one_stream": run["fps"] / one["fps"],
               "x_sequential": run["fps"] / seq["fps"] if seq else None, "rtf_median": run["rtf_median"],
               "join_first_chunk_p50_s": percentile(joiners, 0.5), "join_first_chunk_p95_s": percentile(joiners, 0.95),
               "join_added_p95_frames": (percentile(joiners, 0.95) - idle_first) / frame_s,
               "step_s": step,  # the engine's frame-time at this load (median chunk interval per frame)
               "join_prefilled_p50_s": percentile(in_hand, 0.5),  # submit -> first frame in hand (wait + prefill)
               "after_prefill_p50_frames": percentile(after, 0.5) / step,
               "after_prefill_p95_frames": percentile(after, 0.95) / step,
               "cancel_frames": run["cancel_frames"],
               "cancel_step_frames": run["cancel_frames"] * frame_s / step if run["cancel_frames"] is not None else None,
               "peak_memory_gb": run["peak_memory_gb"], "sequential_fps": seq["fps"] if seq else None}
        rows.append(row)
        print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
    result = {"preset": args.preset, "dtype": args.dtype, "frames": args.frames, "stagger": args.stagger,
              "one_stream_fps": one["fps"], "frame_ms": frame_s * 1e3, "idle_first_chunk_s": idle_first,
              "blas": backend.status, "load_average_start": load, "load_average_end": os.getloadavg()[0], "rows": rows}
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
