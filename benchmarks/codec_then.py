"""The timing loop of benchmarks/codec.py for a checkout of commit a8b144e (before the CPU work), which
the platform targets are measured against. That commit's `DecoderState` gives its arrays with
`arrays()` and it has no `backend` module (MLX's bundled reference BLAS). Run it from the checkout:

    git worktree add /tmp/a8b144e a8b144e
    cd /tmp/a8b144e && PYTHONPATH=. python /path/to/this/repo/benchmarks/codec_then.py --frames 8
"""

import argparse
import time

import mlx.core as mx

from benchmarks import checkpoints
from mlx_qwen3tts.codec.decoder import CodecDecoder, DecoderArgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=8, help="timed frames (a multiple of --chunk)")
    ap.add_argument("--chunk", type=int, default=4, help="frames per step call")
    args = ap.parse_args()
    mx.random.seed(0)
    decoder = CodecDecoder(DecoderArgs.from_dict(checkpoints.RELEASED_DECODER))
    mx.eval(decoder.parameters())
    codes = mx.random.randint(0, 2048, (1, args.frames + args.chunk, 16), key=mx.random.key(0))
    state = decoder.make_state()
    mx.eval(decoder.step(codes[:, : args.chunk], state), state.arrays())
    tic = time.perf_counter()
    for start in range(args.chunk, args.frames + args.chunk, args.chunk):
        mx.eval(decoder.step(codes[:, start : start + args.chunk], state), state.arrays())
    ms = (time.perf_counter() - tic) / args.frames * 1e3
    print(f"codec decoder at the released shapes, {args.chunk} frames per step: {ms:.1f} ms/frame")


if __name__ == "__main__":
    main()
