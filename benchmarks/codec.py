"""Codec decoder speed at the released shapes (random weights, no checkpoint needed): ms per frame of
the streaming `step`, 4 frames per call, as the generation benchmark decodes.

    python -m benchmarks.codec                 # 8 frames after a warm-up call
    python -m benchmarks.codec --native        # also MLX's own conv kernels / sin / compiled step, same run

--native times the paths Metal and CUDA run (`backend.CPU_PATHS = False`) in the same process,
so the ratio is measured on one machine state. MLX_QWEN3TTS_NO_OPENBLAS=1 runs on MLX's bundled BLAS.
"""

import argparse
import time

import mlx_qwen3tts  # noqa: F401  first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)
import mlx.core as mx  # noqa: E402
from mlx.utils import tree_flatten  # noqa: E402

from mlx_qwen3tts import backend  # noqa: E402
from mlx_qwen3tts.codec import conv  # noqa: E402
from mlx_qwen3tts.codec.decoder import CodecDecoder, DecoderArgs  # noqa: E402

from . import checkpoints  # noqa: E402


def released_decoder(seed: int = 0) -> CodecDecoder:
    mx.random.seed(seed)
    decoder = CodecDecoder(DecoderArgs.from_dict(checkpoints.RELEASED_DECODER))
    mx.eval(decoder.parameters())
    return decoder


def decode_ms_per_frame(decoder: CodecDecoder, frames: int, chunk: int, seed: int = 0) -> float:
    args = decoder.args
    codes = mx.random.randint(0, args.codebook_size, (1, frames + chunk, args.num_quantizers), key=mx.random.key(seed))
    state = decoder.make_state()
    mx.eval(decoder.step(codes[:, :chunk], state), state.state)  # warm-up: traces the compiled step
    tic = time.perf_counter()
    for start in range(chunk, frames + chunk, chunk):
        audio = decoder.step(codes[:, start : start + chunk], state)
        mx.eval(audio, state.state)
    return (time.perf_counter() - tic) / frames * 1e3


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.codec", description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=8, help="timed frames (a multiple of --chunk)")
    ap.add_argument("--chunk", type=int, default=4, help="frames per step call")
    ap.add_argument("--native", action="store_true", help="also time MLX's own kernels (the Metal/CUDA paths)")
    args = ap.parse_args(argv)
    decoder = released_decoder()
    n = sum(v.size for _, v in tree_flatten(decoder.parameters()))
    print(f"released codec decoder ({n / 1e6:.0f}M parameters) on {mx.default_device()}, BLAS: OpenBLAS "
          f"{backend.status} ({backend.gemm_gflops():.0f} GFLOP/s float32 GEMM), {args.frames} frames, "
          f"{args.chunk} per step")
    results = {}
    for name, cpu_paths in [("default", None)] + ([("native kernels", False)] if args.native else []):
        backend.CPU_PATHS = cpu_paths
        try:
            results[name] = decode_ms_per_frame(released_decoder(), args.frames, args.chunk)
        finally:
            backend.CPU_PATHS = None
        print(f"  {name:15s} {results[name]:10,.1f} ms/frame (RTF {results[name] / 80:.2f})", flush=True)
    if len(results) == 2:
        print(f"  default is {results['native kernels'] / results['default']:.1f}x faster than native kernels")


if __name__ == "__main__":
    main()
