"""What depends on the MLX backend: an optimized BLAS for the CPU backend on Linux, the default compute dtype.

The `mlx[cpu]` wheel for Linux links MLX's CPU backend against the reference BLAS it bundles
(mlx_cpu.libs/libblas-*.so): a float32 GEMM runs at ~3 GFLOP/s on x86-64. MLX binds `cblas_sgemm`
when `mlx.core` is loaded, and a library loaded earlier with RTLD_GLOBAL is searched first, so
loading the system's OpenBLAS before that makes every float32 matmul and convolution ~40x faster.
`setup()` does this (the package's __init__ runs it before anything imports mlx.core), checks that
it took effect (OpenBLAS's `cblas_sgemm` is the one the global scope resolves, and it was there before
mlx.core loaded), and says once, in one line on stderr, how to fix it when it could not.
`gemm_gflops()` measures the result.
MLX_QWEN3TTS_NO_OPENBLAS=1 turns it off.

MLX runs float32 matmuls, convolutions and attention at TF32 precision by default where the hardware has it
(NVIDIA GPUs through CUDA, Apple's M5 neural accelerators), which moves the float32 codec, and any model run
in float32, off the official output. `full_float32()` (also run by the package's __init__) sets
MLX_ENABLE_TF32=0 before MLX's first operation unless the user set the variable (their 0 or 1 stands); MLX
reads it at its first float32 GEMM, so where MLX already ran work it says once that it may come too late.

On the CPU only float32 matmuls use BLAS (bfloat16, float16 and quantized ones are plain loops whose
cost grows with every batch row), so there the talker and code predictor compute in float32 by
default; Metal and CUDA keep the stored dtype. `cpu_paths()` is where the package asks which backend's
branches to take (`CPU_PATHS` forces either). A quantized model with half-precision activations warns
on the CPU: there MLX's quantized matmul accumulates in that half dtype (measured with MLX 0.32: a 4-bit
product with bfloat16 activations is off by 1e-1 relative at K=2048, 2e-2 at K=64; dense bfloat16 ~3e-3).
"""

import ctypes
import ctypes.util
import importlib.util
import os
import sys
import threading
import timeit
import warnings
from importlib import metadata
from pathlib import Path
from typing import Optional

DISABLE_ENV = "MLX_QWEN3TTS_NO_OPENBLAS"
TF32_ENV = "MLX_ENABLE_TF32"
OPENBLAS = "libopenblas.so.0"
INSTALL_HINT = "install OpenBLAS (Debian/Ubuntu: apt install libopenblas0; Fedora: dnf install openblas)"
# What setup() found: "disabled", "not needed", "loaded", "missing", "ineffective" (None: not run).
status: Optional[str] = None
# What full_float32() found: "user" (the user's own MLX_ENABLE_TF32 stands), "set" (0, before any MLX work),
# "late" (0, but MLX had run work already: it may have read the default). None: not run.
precision: Optional[str] = None


def _bundled_reference_blas() -> bool:
    """Whether the installed MLX carries its own reference BLAS (Linux wheels: mlx_cpu.libs, mlx_cuda_12.libs)."""
    spec = importlib.util.find_spec("mlx")  # finds the package without loading mlx.core
    if spec is None or not spec.submodule_search_locations:
        return False
    return any(any(Path(p).parent.glob("mlx_*.libs/libblas*.so*")) for p in spec.submodule_search_locations)


def _libmlx_owner() -> Optional[str]:
    """Which installed distribution's mlx/lib/libmlx.so is in place, when several provide one (mlx-cpu
    and mlx-cuda-12 both do: installing both leaves whichever was written last)."""
    spec = importlib.util.find_spec("mlx")
    roots = [Path(p).parent for p in (spec.submodule_search_locations or [])] if spec else []
    if not any(any(r.glob("mlx_cpu-*.dist-info")) and any(r.glob("mlx_cuda*.dist-info")) for r in roots):
        return None
    owners = {}
    for dist in metadata.distributions(path=[str(r) for r in roots]):
        name = dist.metadata["Name"] or ""
        if name.startswith(("mlx-cpu", "mlx-cuda", "mlx_cpu", "mlx_cuda")):
            for entry in dist.files or []:
                if entry.as_posix() == "mlx/lib/libmlx.so" and entry.size:
                    owners[name] = (dist.locate_file(entry), entry.size)
    if len(owners) < 2:
        return None
    for name, (path, size) in owners.items():
        if Path(path).exists() and Path(path).stat().st_size == size:
            return name
    return None


def _load_openblas(mode: int = ctypes.RTLD_GLOBAL) -> Optional[ctypes.CDLL]:
    for name in (OPENBLAS, ctypes.util.find_library("openblas")):
        if name:
            try:
                return ctypes.CDLL(name, mode=mode)
            except OSError:
                pass
    return None


def _global_sgemm_is(library: ctypes.CDLL) -> bool:
    """Whether `cblas_sgemm` resolves to `library`'s in the global scope, where MLX's lookup starts."""
    address = lambda lib: ctypes.cast(lib.cblas_sgemm, ctypes.c_void_p).value  # noqa: E731
    try:
        return address(ctypes.CDLL(None)) == address(library)
    except AttributeError:
        return False


def gemm_gflops(n: int = 256) -> float:
    """float32 GEMM throughput of MLX's CPU backend (best of 3 n x n x n products)."""
    import mlx.core as mx

    a = mx.random.normal((n, n), stream=mx.cpu)
    mx.eval(a, mx.matmul(a, a, stream=mx.cpu))
    best = min(timeit.repeat(lambda: mx.eval(mx.matmul(a, a, stream=mx.cpu)), number=1, repeat=3))
    return 2 * n**3 / best / 1e9


def setup() -> str:
    """Load OpenBLAS ahead of MLX's bundled reference BLAS where that applies; returns `status`."""
    global status
    if status is not None:
        return status
    owner = _libmlx_owner() if sys.platform.startswith("linux") else None
    if owner is not None and owner.startswith(("mlx-cpu", "mlx_cpu")):
        _say("both mlx-cpu and mlx-cuda are installed and MLX loads the CPU-only build: for the GPU run "
             "`pip uninstall -y mlx-cpu` and reinstall mlx-cuda (pip install --force-reinstall --no-deps mlx-cuda-12)")
    if os.environ.get(DISABLE_ENV, "") not in ("", "0"):
        status = "disabled"
    elif not sys.platform.startswith("linux") or not _bundled_reference_blas():
        status = "not needed"
    else:
        # MLX binds its BLAS symbols when mlx.core loads: OpenBLAS must be in the global scope by then
        # (loaded here first, or already there, e.g. through LD_PRELOAD).
        in_time = "mlx.core" not in sys.modules or _load_openblas(os.RTLD_NOLOAD | ctypes.RTLD_GLOBAL) is not None
        library = _load_openblas()
        if library is None:
            status = "missing"
            _say(f"MLX's CPU backend is using its slow bundled reference BLAS: {INSTALL_HINT}")
        elif in_time and _global_sgemm_is(library):
            status = "loaded"
        else:
            status = "ineffective"
            why = ("mlx was imported before mlx_qwen3tts: import mlx_qwen3tts first, or start Python with "
                   f"LD_PRELOAD={OPENBLAS}") if not in_time else f"it did not take effect (try LD_PRELOAD={OPENBLAS})"
            _say(f"MLX's CPU backend is using its slow bundled reference BLAS: OpenBLAS was found but {why}")
    return status


def full_float32() -> str:
    """Full float32 unless the user chose otherwise: MLX_ENABLE_TF32=0 where the variable is unset; returns
    `precision`. Says once, where MLX has run work already on a device that has TF32, that it may come too late."""
    global precision
    if precision is not None:
        return precision
    if os.environ.get(TF32_ENV) is not None:
        precision = "user"
        return precision
    os.environ[TF32_ENV] = "0"
    precision = "late" if _mlx_ran_work() else "set"
    if precision == "late" and _has_tf32_device():
        _say(f"MLX ran work before mlx_qwen3tts was imported, so full float32 ({TF32_ENV}=0) may come too late: "
             "float32 matmuls may run at TF32 precision and move off the official output; import mlx_qwen3tts "
             f"first or start Python with {TF32_ENV}=0", silence=f"set {TF32_ENV} yourself, 0 or 1,")
    return precision


def _mlx_ran_work() -> bool:
    """Whether MLX has evaluated anything in this process (its allocator has handed out memory)."""
    mx = sys.modules.get("mlx.core")
    peak = getattr(mx, "get_peak_memory", None)
    return peak is not None and peak() > 0


def _has_tf32_device() -> bool:
    mx = sys.modules.get("mlx.core")
    cuda = getattr(mx, "cuda", None)
    return mx is not None and (mx.metal.is_available() or (cuda is not None and cuda.is_available()))


def _say(message: str, silence: str = f"set {DISABLE_ENV}=1"):
    # One plain line on stderr (setup() runs once per process), not a warning: a RuntimeWarning echoes
    # a source line of this file under it, and the CLI's `--help` would carry both.
    print(f"mlx_qwen3tts: warning: {message} ({silence} to silence)", file=sys.stderr, flush=True)


# None: follow MLX's default device. True / False: take the CPU backend's branches, or the ones Metal and CUDA
# take, whatever the device (the tests run the Metal / CUDA branches on the CPU this way; benchmarks compare).
CPU_PATHS: Optional[bool] = None
# Metal / CUDA: the codec decodes on a stream of its own (`decode_stream`); False: on the frames' stream (a
# switch for benchmarks/parts.py, which compares the two).
OWN_DECODE_STREAM = True
_THREAD = threading.local()  # this thread's decode stream
HALF_QUANTIZED_ON_CPU = (
    "quantized weights with {dtype} activations on MLX's CPU backend: its quantized matmul sums in that dtype "
    "(logits off by ~1e-1 relative at the released widths with bfloat16); leave the dtype out (float32 on the "
    "CPU) or pass float32")


def cpu_paths() -> bool:
    """Whether to take the CPU backend's branches (codec kernels, SnakeBeta, uncompiled codec step, float32)."""
    import mlx.core as mx

    return CPU_PATHS if CPU_PATHS is not None else mx.default_device().type == mx.DeviceType.cpu


def compute_dtype(requested=None, quantized: bool = False):
    """The talker / code predictor compute dtype: `requested`, else float32 on the CPU backend (its
    BLAS path), else None (as stored: bfloat16, or the quantized weights' own scales). Warns when a
    quantized model would compute in a half dtype on the CPU, whose quantized matmul accumulates in it."""
    import mlx.core as mx

    dtype = requested if requested is not None else (mx.float32 if cpu_paths() else None)
    if quantized and (dtype is None or dtype != mx.float32) and mx.default_device().type == mx.DeviceType.cpu:
        name = "stored-dtype" if dtype is None else str(dtype).rsplit(".", 1)[-1]
        warnings.warn(HALF_QUANTIZED_ON_CPU.format(dtype=name), RuntimeWarning, stacklevel=3)
    return dtype


def decode_stream():
    """The MLX stream a chunk's decode runs on, this thread's. Metal / CUDA: a second stream of the device, so
    the decode runs beside the frame in flight on the default stream, not behind it (a stream runs its work
    in order). On the CPU branches the default stream: the host's cores compute both, nothing overlaps."""
    import mlx.core as mx

    if cpu_paths() or not OWN_DECODE_STREAM:
        return mx.default_stream(mx.default_device())
    if getattr(_THREAD, "stream", None) is None:
        _THREAD.stream = mx.new_stream(mx.default_device())
    return _THREAD.stream


def release_thread_streams():
    """Destroy the MLX streams this thread created; call it last on every thread that ran MLX work.

    Recent MLX (0.32 here) leaves a thread's streams to be destroyed when the thread or the process ends, which
    comes too late: the process aborts at exit ("terminate called without an active exception").
    Older MLX has no `clear_streams` and needs nothing.
    """
    import mlx.core as mx

    _THREAD.stream = None
    clear = getattr(mx, "clear_streams", None)
    if clear is not None:
        clear()
