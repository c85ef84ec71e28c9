"""Where an engine step goes at the released 0.6B shapes: `Rows.step` (talker + code predictor, codes
only) for 1/4/8 rows, and the codec decoder step for 1 row (1 and 4 frames) and for 8 streams
due together (`CodecDecoder.step_streams`, 4 frames each: each stream stepped on its own, so that a seed's
samples do not depend on the streams beside it); medians of 3.

From these it prints what the steps allow at most, whatever the scheduling: one stream needs
`step(1) + codec(1 row)` per frame and 8 streams `step(8) + 8 x codec per row-frame` per
8 frames, so 8 streams give at most 8 (step(1) + codec_1) / (step(8) + 8 codec_8) times one
stream's frames/s; codes only (`generate_batch(decode=False)`), at most 8 step(1) / step(8).

    PYTHONPATH=$PWD python -m benchmarks.engine_steps
"""

import os
import statistics
import time

import mlx_qwen3tts  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

import mlx.core as mx  # noqa: E402

from benchmarks import checkpoints  # noqa: E402
from benchmarks.checkpoints import DEFAULT_CACHE  # noqa: E402


def timed(fn, repeats=3):
    times = []
    for _ in range(repeats):
        tic = time.perf_counter()
        fn()
        times.append(time.perf_counter() - tic)
    return statistics.median(times)


def main():
    from mlx_qwen3tts import backend
    tts = mlx_qwen3tts.load(str(checkpoints.checkpoint("0.6B", "bf16", DEFAULT_CACHE)), dtype=mx.float32)
    eos = tts.config.talker_config.codec_eos_token_id
    print(f"load average {os.getloadavg()[0]:.2f}; BLAS: {backend.status}", flush=True)
    steps = {}
    for n in (1, 4, 8):
        rows = tts.loop.rows()
        for i in range(n):
            rows.add(tts.loop.row(tts.request(TEXT, speaker="ryan", seed=i, max_tokens=40)))
        rows.step(), rows.step()  # compile, fill the pipeline
        steps[n] = timed(rows.step)
        print(f"Rows.step, {n} row(s): {steps[n] * 1e3:.0f} ms ({steps[n] / steps[1]:.2f}x one row)", flush=True)
    decoder = tts.codec.decoder
    codes = mx.zeros((8, 4, 16), dtype=mx.int32)
    per_frame = {}
    for streams, frames in ((1, 1), (1, 4), (8, 4)):
        states = [decoder.make_state(1) for _ in range(streams)]

        def run():
            mx.eval(decoder.step_streams(codes[:streams, :frames], states), [s.state for s in states])

        run()
        ms = timed(run) * 1e3
        per_frame[streams] = ms / streams / frames
        print(f"codec decoder step, {streams} stream(s) x {frames} frame(s): {ms:.0f} ms "
              f"({per_frame[streams]:.1f} ms per stream-frame)", flush=True)
    one_stream = steps[1] * 1e3 + per_frame[1]
    eight = steps[8] * 1e3 + 8 * per_frame[8]
    print(f"at most: 8 streams = {8 * one_stream / eight:.2f}x one stream (audio decoded, 4-frame chunks); "
          f"codes only, 8 rows = {8 * steps[1] / steps[8]:.2f}x one row", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


TEXT = "Hello, and welcome to the show tonight."

if __name__ == "__main__":
    main()
