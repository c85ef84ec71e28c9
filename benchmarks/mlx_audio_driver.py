"""Times mlx-audio's Qwen3-TTS on a checkpoint folder; run with the Python of an environment that has
mlx-audio (it imports neither our package nor anything beyond mlx-audio, mlx, numpy and syncs.py).

    /path/to/mlx-audio-env/bin/python benchmarks/mlx_audio_driver.py --model DIR --frames 8 --text "..."

Prints one JSON line. mlx-audio's `generate` runs its whole loop and decodes at the end, so:
- loop ms/frame: its speech tokenizer's `decode` is replaced by a stub returning silence (and
  keeping the codes), and the steady per-frame cost is the difference of two runs of different
  lengths divided by the extra frames (fixed costs such as the prefill cancel out); median over
  --repeats pairs. Host syncs per frame are differenced the same way (counted as in syncs.py).
- decode ms/frame: its real `decode` on the longer run's codes, timed on the second call (its
  decoder is `mx.compile`d per input shape; the first call compiles).
- RTF: (longer run + its decode) / audio duration.
- first chunk: its `stream=True` mode with a one-frame interval, from the call to the first chunk.
Sampling: the checkpoint's generation_config.json, as for ours; speaker Ryan, language English.
"""

import argparse
import json
import statistics
import sys
import time
from importlib import metadata
from pathlib import Path

import mlx.core as mx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from graph_nodes import GraphCounter, metal_kernels  # noqa: E402
from syncs import SyncCounter  # noqa: E402

SPEAKER = "ryan"
LANGUAGE = "english"
BASE_FRAMES = 3
SAMPLES_PER_FRAME = 1920


def stub_decoder(model, kept: list):
    """Replace the speech tokenizer's decode by silence of the right length; returns the original."""
    tokenizer = model.speech_tokenizer
    original = tokenizer.decode

    def decode(codes, *args, **kwargs):
        kept[:] = [codes]
        batch, frames = codes.shape[0], codes.shape[1]
        return mx.zeros((batch, frames * SAMPLES_PER_FRAME)), mx.array([frames * SAMPLES_PER_FRAME] * batch)

    tokenizer.decode = decode
    return original


def run(model, text: str, frames: int) -> dict:
    tic = time.perf_counter()
    with SyncCounter() as counter:
        results = list(model.generate(text, voice=SPEAKER, lang_code=LANGUAGE, max_tokens=frames))
    return {"total": time.perf_counter() - tic, "tokens": sum(r.token_count for r in results),
            "syncs": counter.blocking, "async": counter.async_evals}


def counts(model, text: str, frames: int) -> dict:
    """Primitives (as Metal evaluates them: graph_nodes.py) and syncs per frame, differenced; the decoder
    stubbed. Run first in the process, so that whatever mlx-audio compiles is traced with Metal's kernels."""
    stub_decoder(model, [])

    def run_counted(n):
        with metal_kernels(), GraphCounter() as graph, SyncCounter() as syncs:
            results = list(model.generate(text, voice=SPEAKER, lang_code=LANGUAGE, max_tokens=n))
        return sum(r.token_count for r in results), graph.nodes, syncs.blocking, syncs.async_evals

    run_counted(BASE_FRAMES)
    short, long = run_counted(BASE_FRAMES), run_counted(BASE_FRAMES + frames)
    extra = long[0] - short[0]
    if extra < 1:
        raise SystemExit(f"mlx-audio produced {long[0]} and {short[0]} frames; cannot difference")
    return {"version": metadata.version("mlx-audio"), "nodes_per_frame": (long[1] - short[1]) / extra,
            "syncs_per_frame": (long[2] - short[2]) / extra, "async_evals_per_frame": (long[3] - short[3]) / extra}


def first_chunk(model, text: str) -> float:
    tic = time.perf_counter()
    stream = model.generate(text, voice=SPEAKER, lang_code=LANGUAGE, max_tokens=2, stream=True,
                            streaming_interval=1 / 12.5)
    next(stream)
    ms = (time.perf_counter() - tic) * 1e3
    stream.close()
    return ms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--frames", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--text", required=True)
    ap.add_argument("--count", action="store_true", help="primitives and syncs per frame only (no timing)")
    ap.add_argument("--loop-only", action="store_true", help="the loop's figures only (no first chunk, no decode)")
    args = ap.parse_args()

    from mlx_audio.tts.utils import load

    tic = time.perf_counter()
    model = load(args.model)
    load_s = time.perf_counter() - tic
    mx.random.seed(0)
    if args.count:
        print(json.dumps(counts(model, args.text, args.frames)))
        return
    first_ms = None
    if not args.loop_only:
        first_chunk(model, args.text)  # warm-up of the streaming decoder
        first_ms = first_chunk(model, args.text)
    kept = []
    decode = stub_decoder(model, kept)
    run(model, args.text, BASE_FRAMES)  # warm-up
    mx.reset_peak_memory()
    per_frame, syncs, asyncs = [], [], []
    for _ in range(args.repeats):
        short = run(model, args.text, BASE_FRAMES)
        long = run(model, args.text, BASE_FRAMES + args.frames)
        extra = long["tokens"] - short["tokens"]
        if extra < 1:
            raise SystemExit(f"mlx-audio produced {long['tokens']} and {short['tokens']} frames; cannot difference")
        per_frame.append((long["total"] - short["total"]) / extra)
        syncs.append((long["syncs"] - short["syncs"]) / extra)
        asyncs.append((long["async"] - short["async"]) / extra)
    decode_s = float("nan")
    if not args.loop_only:
        mx.eval(decode(kept[0]))
        tic = time.perf_counter()
        mx.eval(decode(kept[0]))
        decode_s = time.perf_counter() - tic
    print(json.dumps({
        "version": metadata.version("mlx-audio"),
        "load_s": load_s,
        "loop_ms": statistics.median(per_frame) * 1e3,
        "loop_ms_runs": [t * 1e3 for t in per_frame],
        "decode_ms": decode_s / long["tokens"] * 1e3,
        "rtf": (long["total"] + decode_s) / (long["tokens"] * SAMPLES_PER_FRAME / 24000),
        "syncs_per_frame": statistics.median(syncs),
        "async_evals_per_frame": statistics.median(asyncs),
        "first_chunk_ms": first_ms,
        "peak_gb": mx.get_peak_memory() / 1e9,
        "frames": long["tokens"],
    }))


if __name__ == "__main__":
    main()
