"""Where an engine step goes at the released 0.6B shapes: `Rows.step` (talker + code predictor, codes
only) for 1/4/8 rows, and one row's codec decoder step for 1 and 4 frames (medians of 3).

    PYTHONPATH=$PWD python -m benchmarks.engine_steps
"""

import os
import statistics
import time

import mlx_qwen3tts  # first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)

import mlx.core as mx  # noqa: E402

from . import checkpoints  # noqa: E402
from .engine import DEFAULT_CACHE  # noqa: E402


def timed(fn, repeats=3):
    times = []
    for _ in range(repeats):
        tic = time.perf_counter()
        fn()
        times.append(time.perf_counter() - tic)
    return statistics.median(times)


def main():
    from mlx_qwen3tts import backend
    from mlx_qwen3tts.synthesis import Rows

    tts = mlx_qwen3tts.load(str(checkpoints.checkpoint("0.6B", "bf16", DEFAULT_CACHE)), dtype=mx.float32)
    eos = tts.config.talker_config.codec_eos_token_id
    print(f"load average {os.getloadavg()[0]:.2f}; BLAS: {backend.status}", flush=True)
    one = None
    for n in (1, 4, 8):
        rows = Rows(tts.model.talker, eos)
        for i in range(n):
            rows.add(tts.row(tts.request(TEXT, speaker="ryan", seed=i, max_tokens=40)))
        rows.step(), rows.step()  # compile, fill the pipeline
        step = timed(rows.step)
        one = one or step
        print(f"Rows.step, {n} row(s): {step * 1e3:.0f} ms ({step / one:.2f}x one row)", flush=True)
    decoder = tts.codec.decoder
    codes = mx.zeros((1, 4, 16), dtype=mx.int32)
    for frames in (1, 4):
        state = decoder.make_state()
        mx.eval(decoder.step(codes[:, :frames], state))
        ms = timed(lambda: mx.eval(decoder.step(codes[:, :frames], state))) * 1e3
        print(f"codec decoder step, one row, {frames} frame(s): {ms:.0f} ms", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


TEXT = "Hello, and welcome to the show tonight."

if __name__ == "__main__":
    main()
