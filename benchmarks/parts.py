"""Where the streaming path's time goes, part by part, on one model: the frame step, the codec step, one
stream with and without audio, the engine's step with and without its audio (decoded on the frame's MLX
stream or on a second one).

    PYTHONPATH=$PWD python -m benchmarks.parts --preset 0.6B --dtype bfloat16
    PYTHONPATH=$PWD python -m benchmarks.parts --preset 0.6B --dtype bfloat16 --decode-stream second
    PYTHONPATH=$PWD python -m benchmarks.parts --preset narrow --count     # primitives and syncs per frame

Timings (medians over --steps, after a warm-up that traces every graph):
- frame: `Rows.step` of R rows, codes only: the frame step alone (R in --rows).
- codec: the codec decoder's `step_streams` alone: one stream for 1, 2, 4, 8, 16 and 25 frames; R streams x 4
  frames (each stream stepped on its own, one after the other: a seed's samples do not depend on the others).
- stream: one request, `TTS.frames` (codes only) and `TTS.stream` (audio in the growing chunks, and in 4-frame
  chunks), ms per frame.
- engine: R rows stepped with their audio decoded as chunks fall due, one codec step per row (`start_chunks`,
  the audio to the host with the next step's frames, as the engine does) against the same rows codes only:
  ms per step and frames/s. Metal/CUDA decode on a second MLX stream of the device, so the decode need not
  wait for the frame in flight; `--decode-stream same` decodes on the frames' stream (as before).
Counts (`--count`, forced Metal/CUDA branches: the graphs those devices run, on any backend): per frame,
primitives evaluated (graph_nodes.GraphCounter, each `mx.fast` op one node) and blocking host syncs
(syncs.SyncCounter) of `TTS.frames`, `TTS.stream` (the default growing chunks, and `_4`: 4-frame chunks) and
the engine's step with audio at each R (per step), differenced over each of `--windows`; and the codec step's
primitives per frame for chunks of each of CODEC_FRAMES.
Counts depend on the code and the shapes only. Prints one JSON object (and writes it to --out).
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
from benchmarks.graph_nodes import GraphCounter, metal_kernels  # noqa: E402
from benchmarks.syncs import SyncCounter  # noqa: E402
from mlx_qwen3tts.audio.chunks import ChunkDecoder, start_chunks  # noqa: E402

TEXT = "The quick brown fox jumps over the lazy dog, then it runs across the quiet field."
CHUNK = 4  # frames per chunk after the first (the package's default before the growing schedule)
CODEC_FRAMES = (1, 2, 4, 8, 16, 25)  # the codec part's chunk lengths, one stream


def _median_ms(times) -> float:
    return statistics.median(times) * 1e3


def _rows(tts, n: int, frames: int):
    """A `Rows` batch of n requests, and those rows."""
    rows, added = tts.loop.rows(), [tts.loop.row(tts.request(TEXT, speaker="ryan", seed=i, max_tokens=frames))
                                    for i in range(n)]
    rows.add(*added)
    return rows, added


class EngineSteps:
    """R rows stepped as the engine steps them, each row's audio decoded as its chunks fall due (`decode`,
    chunks as `chunk_frames` says), its audio brought to the host with the next step's frames where a frame is
    in flight (`Rows.carry`), as the engine does."""

    def __init__(self, tts, n: int, frames: int, decode: bool, chunk_frames=CHUNK):
        self.rows, added = _rows(tts, n, frames)
        self.chunks = {row: ChunkDecoder(tts.codec, tts.sample_rate, 1, chunk_frames) for row in added}
        self.decode, self.frames, self.waiting = decode, 0, None

    def step(self):
        frames = self.rows.step()
        self.frames += len(frames)
        if self.waiting is not None:
            decoding, carried = self.waiting
            decoding.take(carried.get())
            self.waiting = None
        due = [self.chunks[row] for row, codes in frames if self.decode and self.chunks[row].add(codes, row.done)]
        if due:
            decoding = start_chunks(due)
            carried = self.rows.carry(decoding.arrays)
            if carried is None:
                decoding.take()
            else:
                self.waiting = decoding, carried


def frame_part(tts, rows, steps: int) -> dict:
    out = {}
    for n in rows:
        batch, _ = _rows(tts, n, steps + 8)
        batch.step(), batch.step()  # trace, fill the pipeline
        times = []
        for _ in range(steps):
            tic = time.perf_counter()
            batch.step()
            times.append(time.perf_counter() - tic)
        out[n] = _median_ms(times)
    return out


def codec_part(tts, rows, steps: int) -> dict:
    decoder, out = tts.codec.decoder, {}
    for streams, frames in [(1, n) for n in CODEC_FRAMES] + [(n, CHUNK) for n in rows if n > 1]:
        codes = mx.zeros((streams, frames, 16), dtype=mx.int32)
        states = [decoder.make_state(1) for _ in range(streams)]

        def run():
            mx.eval(decoder.step_streams(codes, states), [s.state for s in states])

        run()
        times = []
        for _ in range(steps):
            tic = time.perf_counter()
            run()
            times.append(time.perf_counter() - tic)
        out[f"{streams}x{frames}"] = {"ms": _median_ms(times), "ms_per_frame": _median_ms(times) / streams / frames}
    return out


def stream_part(tts, steps: int) -> dict:
    frames = steps + 4

    def per_frame(make):
        stamps = []
        for item in make():
            stamps.append((time.perf_counter(), item))
        intervals = [b[0] - a[0] for a, b in zip(stamps, stamps[1:])]
        return sum(intervals) / max(frames - 1, 1) * 1e3

    codes = lambda: tts.frames(TEXT, speaker="ryan", seed=0, max_tokens=frames)  # noqa: E731
    audio = lambda: tts.stream(TEXT, speaker="ryan", seed=0, max_tokens=frames)  # noqa: E731
    audio_4 = lambda: tts.stream(TEXT, speaker="ryan", seed=0, max_tokens=frames, chunk_frames=CHUNK)  # noqa: E731
    per_frame(codes), per_frame(audio), per_frame(audio_4)  # warm-up: every graph traced
    return {"frames_ms_per_frame": per_frame(codes), "stream_ms_per_frame": per_frame(audio),
            "stream_4_ms_per_frame": per_frame(audio_4)}


def engine_part(tts, rows, steps: int) -> dict:
    out = {}
    for n in rows:
        out[n] = {}
        for decode in (False, True):
            run = EngineSteps(tts, n, 3 * steps + 16, decode)
            for _ in range(CHUNK + 2):  # trace, fill the pipeline, the first chunks
                run.step()
            run.frames, times = 0, []
            tic = time.perf_counter()
            for _ in range(steps):
                t = time.perf_counter()
                run.step()
                times.append(time.perf_counter() - t)
            wall = time.perf_counter() - tic
            out[n]["audio" if decode else "codes"] = {"ms_per_step": _median_ms(times), "frames_per_s": run.frames / wall}
    return out


def _per_frame(measure, short: int, long: int) -> dict:
    """(counts of a run of `long` frames - counts of `short` frames) / (long - short): the prompt cancels."""
    a, b = measure(short), measure(long)
    return {key: (b[key] - a[key]) / (long - short) for key in a}


def _counted(run) -> dict:
    with metal_kernels(), GraphCounter() as graphs, SyncCounter() as syncs:
        run()
    return {"primitives": graphs.nodes, "syncs": syncs.blocking, "async_evals": syncs.async_evals}


def count_part(tts, rows, windows) -> dict:
    """Counts per frame (the module docstring); the caller has forced the Metal/CUDA branches."""
    def frames(n):
        return _counted(lambda: [f for f in tts.frames(TEXT, speaker="ryan", seed=0, max_tokens=n)])

    def stream(n, chunk_frames=None):
        return _counted(lambda: [c for c in tts.stream(TEXT, speaker="ryan", seed=0, max_tokens=n,
                                                       chunk_frames=chunk_frames)])

    for warm in (frames, stream, lambda n: stream(n, CHUNK)):
        warm(CHUNK + 1)
    out = {}
    for short, long in windows:
        out[f"frames {short}-{long}"] = _per_frame(frames, short, long)
        out[f"stream {short}-{long}"] = _per_frame(stream, short, long)  # the growing schedule
        out[f"stream_4 {short}-{long}"] = _per_frame(lambda n: stream(n, CHUNK), short, long)
    for n in rows:
        def engine(steps, n=n, chunk_frames=None):
            run = EngineSteps(tts, n, 64, True, chunk_frames)
            return _counted(lambda: [run.step() for _ in range(steps)])

        engine(CHUNK + 2)
        for short, long in windows:  # per step: n frames each
            out[f"engine_{n} {short}-{long}"] = _per_frame(engine, short, long)
            out[f"engine_{n}_4 {short}-{long}"] = _per_frame(lambda s: engine(s, chunk_frames=CHUNK), short, long)
    return out


def codec_counts(tts) -> dict:
    """Primitives per frame of the codec's step alone, one stream, for chunks of each of CODEC_FRAMES frames."""
    decoder, out = tts.codec.decoder, {}
    for frames in CODEC_FRAMES:
        state, codes = decoder.make_state(1), mx.zeros((1, frames, 16), dtype=mx.int32)
        mx.eval(decoder.step(codes, state), state.state)  # traced, and the state's first-chunk arrays made
        out[frames] = _counted(lambda: mx.eval(decoder.step(codes, state), state.state))["primitives"] / frames
    return out


def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.parts", description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="narrow", help=f"one of {', '.join(checkpoints.PRESETS)}")
    ap.add_argument("--quant", default="bf16", help="bf16, 8bit or 4bit")
    ap.add_argument("--dtype", default="auto", help="compute dtype: auto, float32, bfloat16, float16")
    ap.add_argument("--rows", default="1,8,16", help="comma list of row counts for the frame and engine parts")
    ap.add_argument("--steps", type=int, default=12, help="timed steps per figure")
    ap.add_argument("--parts", default="frame,codec,stream,engine", help="comma list of frame, codec, stream, engine")
    ap.add_argument("--decode-stream", choices=("same", "second"), default="second",
                    help="a chunk's decode on Metal/CUDA: on the frames' MLX stream or on a second one (the default)")
    ap.add_argument("--count", action="store_true", help="primitives and host syncs per frame instead of timings")
    ap.add_argument("--windows", default="8-16", help="--count: per frame = (run of B frames - run of A) / (B - A), "
                                                       "for each A-B in this comma list")
    ap.add_argument("--cache", type=Path, default=checkpoints.DEFAULT_CACHE,
                    help="where generated checkpoints are kept")
    ap.add_argument("--out", type=Path, help="also write the JSON here")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    rows = [int(r) for r in args.rows.split(",") if r.strip()]
    if args.count:  # the graphs Metal and CUDA run, their stored compute dtype included
        mlx_qwen3tts.backend.CPU_PATHS = False
    mlx_qwen3tts.backend.OWN_DECODE_STREAM = args.decode_stream == "second"
    folder = checkpoints.checkpoint(args.preset, args.quant, args.cache, "linear-only", lambda m: None)
    tts = mlx_qwen3tts.load(str(folder), dtype=None if args.dtype == "auto" else getattr(mx, args.dtype))
    result = {"preset": args.preset, "quant": args.quant, "dtype": args.dtype, "device": str(mx.default_device()),
              "mlx": mx.__version__, "tf32": os.environ.get("MLX_ENABLE_TF32"), "load_average": os.getloadavg()[0]}
    for key, measure in _measures(args, tts, rows):
        result[key] = measure()
        _write(result, args.out)  # after each part: a run stopped at its time limit keeps what it measured
    print(json.dumps(result, indent=1, default=float))


def _measures(args, tts, rows) -> list:
    """(result key, function) of each part asked for, in order."""
    if args.count:
        windows = [tuple(int(n) for n in w.split("-")) for w in args.windows.split(",")]
        return [("counts", lambda: count_part(tts, rows, windows)), ("codec_counts", lambda: codec_counts(tts))]
    parts = args.parts.split(",")
    chosen = [("frame_ms", "frame", lambda: frame_part(tts, rows, args.steps)),
              ("codec", "codec", lambda: codec_part(tts, rows, args.steps)),
              ("stream", "stream", lambda: stream_part(tts, args.steps)),
              ("decode_stream", "engine", lambda: args.decode_stream),
              ("engine", "engine", lambda: engine_part(tts, rows, args.steps))]
    return [(key, measure) for key, part, measure in chosen if part in parts]


def _write(result: dict, out):
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1, default=float))

if __name__ == "__main__":
    main()
