import os

import pytest

# The suite runs on MLX's own BLAS (this process and the CLI subprocesses, which inherit the variable):
# OpenBLAS rounds a float32 GEMM row differently depending on the number of rows around it, so
# chunked (streaming) decoding would equal one-shot decoding only to ~2e-4 on the tiny codecs, not to
# the tests' 1e-4. tests/test_backend.py checks the OpenBLAS set-up itself, in fresh processes.
os.environ.setdefault("MLX_QWEN3TTS_NO_OPENBLAS", "1")

_MODELS = {}


@pytest.fixture(scope="module")
def gpu_paths():
    """The branches Metal and CUDA take, forced on MLX's CPU backend for a whole test module
    (`pytestmark = pytest.mark.usefixtures("gpu_paths")`; see tests/test_gpu_paths.py): MLX's own
    conv kernels, `mx.sin` SnakeBeta, the compiled codec step (in STEP_SIZES pieces) and the stored
    compute dtype. Everything that asks `mlx_qwen3tts.backend.cpu_paths()` gets False, threads included."""
    from mlx_qwen3tts import backend

    backend.CPU_PATHS = False
    yield
    backend.CPU_PATHS = None


@pytest.fixture(scope="session")
def load_tiny(tmp_path_factory):
    """load_tiny(name) -> TTS for a fixture checkpoint, float32, loaded once per session."""
    import mlx.core as mx

    import mlx_qwen3tts
    from fixture_checkpoints import checkpoint_dir

    root = tmp_path_factory.getbasetemp()

    def load(name):
        if name not in _MODELS:
            _MODELS[name] = mlx_qwen3tts.load(str(checkpoint_dir(name, root)), dtype=mx.float32)
        return _MODELS[name]

    return load


@pytest.fixture(scope="module")
def tts(request, load_tiny):
    """The TTS of the tiny checkpoint named by the test module's CHECKPOINT."""
    return load_tiny(request.module.CHECKPOINT)
