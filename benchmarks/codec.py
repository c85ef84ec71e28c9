"""Codec decoder speed at the released shapes (random weights, no checkpoint needed): ms per frame of
the streaming `step`, 4 frames per call, as the generation benchmark decodes.

    python -m benchmarks.codec                 # 8 frames after a warm-up call
    python -m benchmarks.codec --native        # also MLX's own conv kernels / sin / compiled step, same run
    python -m benchmarks.codec --new-length    # Metal's paths: decode() of a new length vs a repeated one

--native times the paths Metal and CUDA run (`backend.CPU_PATHS = False`) in the same process,
so the ratio is measured on one machine state. MLX_QWEN3TTS_NO_OPENBLAS=1 runs on MLX's bundled BLAS.
--new-length, on those paths too and on a narrow decoder (`NARROW`): after a warm-up decode of 5
frames (twice), the first decodes of lengths never seen (`NEW_LENGTHS`) against the second ones, with
the compiled step run in `STEP_SIZES` pieces (shapes the warm-up traced) and with one piece per length (a trace per new length, as before the pieces), each on a fresh decoder and
an empty MLX kernel cache (MLX keeps the CPU kernels it compiles under $TMPDIR/mlx across processes).
"""

import argparse
import os
import tempfile
import time

import mlx_qwen3tts  # noqa: F401  first: it loads OpenBLAS before mlx.core is (mlx_qwen3tts/backend.py)
import mlx.core as mx  # noqa: E402
from mlx.utils import tree_flatten  # noqa: E402

from mlx_qwen3tts import backend  # noqa: E402
from mlx_qwen3tts.codec import decoder as codec_decoder  # noqa: E402
from mlx_qwen3tts.codec.decoder import CodecDecoder, DecoderArgs  # noqa: E402

from benchmarks import checkpoints  # noqa: E402


# The released decoder's depth and op graph at 1/16 of its widths: what a trace costs stays (it follows
# the number of ops), while the arithmetic, which on this CPU's native kernels would hide it, goes.
NARROW = {"hidden_size": 32, "head_dim": 8, "num_attention_heads": 4, "num_key_value_heads": 4,
          "intermediate_size": 64, "latent_dim": 64, "codebook_dim": 32, "decoder_dim": 96}


def released_decoder(seed: int = 0, narrow: bool = False) -> CodecDecoder:
    mx.random.seed(seed)
    decoder = CodecDecoder(DecoderArgs.from_dict({**checkpoints.RELEASED_DECODER, **(NARROW if narrow else {})}))
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


NEW_LENGTHS = (6, 7, 9, 10, 11)  # pieces of 4 and 1 only, as the warm-up's 5 = 4 + 1


def new_vs_repeated(warm: int, per_length: bool) -> list:
    """Seconds of the first `decode()` of each of NEW_LENGTHS and of the second one right after it, summed;
    after two decodes of `warm` frames."""
    decoder, frames = released_decoder(narrow=True), max(warm, *NEW_LENGTHS)
    codes = mx.random.randint(0, decoder.args.codebook_size, (1, frames, decoder.args.num_quantizers),
                              key=mx.random.key(1))
    saved = codec_decoder.STEP_SIZES
    if per_length:  # every length up to `frames` is a piece size: one piece, one trace per new length
        codec_decoder.STEP_SIZES = tuple(range(frames, 0, -1))
    try:
        for _ in range(2):
            mx.eval(decoder.decode(codes[:, :warm]))
        times = [0.0, 0.0]
        for n in NEW_LENGTHS:
            for i in range(2):
                tic = time.perf_counter()
                mx.eval(decoder.decode(codes[:, :n]))
                times[i] += time.perf_counter() - tic
    finally:
        codec_decoder.STEP_SIZES = saved
    return times


def print_new_vs_repeated(warm: int = 5):
    print(f"decode() of {len(NEW_LENGTHS)} new lengths {NEW_LENGTHS} vs each again, after {warm} frames, Metal/CUDA "
          f"paths forced, released depth at 1/16 width (NARROW), on {mx.default_device()}:")
    backend.CPU_PATHS, tmpdir = False, os.environ.get("TMPDIR")
    try:
        for name, per_length in [(f"pieces of {codec_decoder.STEP_SIZES}", False), ("one piece per length", True)]:
            with tempfile.TemporaryDirectory() as fresh:
                # MLX keeps the CPU kernels it compiles under $TMPDIR/mlx across processes: start empty
                os.environ["TMPDIR"] = fresh
                first, again = new_vs_repeated(warm, per_length)
            print(f"  {name:32s} new {first * 1e3:8,.0f} ms, repeated {again * 1e3:8,.0f} ms, "
                  f"new / repeated {first / again:.2f}", flush=True)
    finally:
        backend.CPU_PATHS = None
        os.environ.pop("TMPDIR") if tmpdir is None else os.environ.update(TMPDIR=tmpdir)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.codec", description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=8, help="timed frames (a multiple of --chunk)")
    ap.add_argument("--chunk", type=int, default=4, help="frames per step call")
    ap.add_argument("--native", action="store_true", help="also time MLX's own kernels (the Metal/CUDA paths)")
    ap.add_argument("--new-length", action="store_true",
                    help="only time decode() of a new length vs a repeated one on the Metal/CUDA paths")
    args = ap.parse_args(argv)
    if args.new_length:
        return print_new_vs_repeated()
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
