"""backend.py in fresh processes: OpenBLAS is loaded ahead of MLX's bundled reference BLAS where that
applies, one clear warning when it cannot be, off with the environment variable;
the compute dtype per backend."""

import ctypes.util
import os
import subprocess
import sys

import mlx.core as mx
import pytest

from mlx_qwen3tts import backend

APPLIES = sys.platform.startswith("linux") and backend._bundled_reference_blas()
HAVE_OPENBLAS = ctypes.util.find_library("openblas") is not None
REPORT = "from mlx_qwen3tts import backend; print(backend.status, round(backend.gemm_gflops()))"


def run(code: str, **env_changes):
    env = {k: v for k, v in os.environ.items() if k != backend.DISABLE_ENV}
    env.update(env_changes)
    proc = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    status, gflops = proc.stdout.split()
    return status, float(gflops), proc.stderr


@pytest.mark.skipif(not (APPLIES and HAVE_OPENBLAS), reason="needs Linux mlx[cpu] and OpenBLAS installed")
def test_openblas_is_loaded():
    status, _, err = run("import mlx_qwen3tts\n" + REPORT)
    assert status == "loaded" and "Warning" not in err
    off_status, _, off_err = run("import mlx_qwen3tts\n" + REPORT, **{backend.DISABLE_ENV: "1"})
    assert off_status == "disabled" and "Warning" not in off_err
    # MLX started with OpenBLAS already in place (as LD_PRELOAD does) also counts as loaded, without a warning.
    status, _, err = run("import ctypes\nctypes.CDLL('libopenblas.so.0', mode=ctypes.RTLD_GLOBAL)\nimport mlx.core\n"
                         "import mlx_qwen3tts\n" + REPORT)
    assert status == "loaded" and "Warning" not in err


@pytest.mark.skipif(not (APPLIES and HAVE_OPENBLAS), reason="needs Linux mlx[cpu] and OpenBLAS installed")
def test_mlx_imported_first_says_how_to_fix_once():
    status, _, err = run("import mlx.core\nimport mlx_qwen3tts\nimport mlx_qwen3tts.tts\n" + REPORT)
    assert status == "ineffective"
    assert err.count("mlx_qwen3tts: warning:") == 1 and "import mlx_qwen3tts first" in err and "LD_PRELOAD" in err
    assert len(err.splitlines()) == 1 and "Warning" not in err  # one clean line, no echoed source line


@pytest.mark.skipif(not (APPLIES and HAVE_OPENBLAS), reason="needs Linux mlx[cpu] and OpenBLAS installed")
def test_the_notice_is_one_line_in_every_command_help_included():
    code = ("import mlx.core, sys\nsys.argv = ['mlx_qwen3tts.generate', '--help']\n"
            "from mlx_qwen3tts.generate import main\nmain()")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k != backend.DISABLE_ENV})
    assert proc.returncode == 0 and "--output" in proc.stdout
    assert proc.stderr.splitlines() == [proc.stderr.strip()] and proc.stderr.startswith("mlx_qwen3tts: warning: ")


@pytest.mark.skipif(not APPLIES, reason="needs Linux mlx[cpu]")
def test_missing_openblas_says_how_to_get_it():
    code = ("import mlx_qwen3tts\nfrom mlx_qwen3tts import backend\n"
            "backend.status = None\nbackend._load_openblas = lambda mode=0: None\nbackend.setup()\nbackend.setup()\n"
            "print(backend.status, 0)")
    status, _, err = run(code)
    assert status == "missing" and "apt install libopenblas0" in err
    assert err.splitlines() == [err.strip()] and err.startswith("mlx_qwen3tts: warning: ")


def test_compute_dtype_per_backend():
    assert backend.compute_dtype(mx.bfloat16) == mx.bfloat16
    default = mx.default_device()
    try:
        mx.set_default_device(mx.cpu)
        assert backend.compute_dtype() == mx.float32
        if mx.is_available(mx.gpu):
            mx.set_default_device(mx.gpu)
            assert backend.compute_dtype() is None
    finally:
        mx.set_default_device(default)


def test_forced_paths_choose_the_dtype():
    """`backend.CPU_PATHS` decides the default dtype as the device would (tests/test_gpu_paths.py runs on it)."""
    try:
        backend.CPU_PATHS = False
        assert backend.compute_dtype() is None
        backend.CPU_PATHS = True
        assert backend.compute_dtype() == mx.float32
    finally:
        backend.CPU_PATHS = None


def test_quantized_model_in_half_precision_on_cpu_warns(load_tiny, tmp_path):
    """MLX's CPU quantized matmul accumulates in the activations' dtype: bfloat16 with 4-bit weights is
    ~1e-1 off at the released widths. Asked for, it is kept, with a warning saying how to avoid it."""
    import warnings

    import mlx_qwen3tts
    from mlx_qwen3tts import convert

    folder = str(convert.convert(str(load_tiny("custom_voice-0b6").path), str(tmp_path / "q4"), bits=4, group_size=32))
    default = mx.default_device()
    try:
        mx.set_default_device(mx.cpu)
        with pytest.warns(RuntimeWarning, match="bfloat16 activations on MLX's CPU backend.*pass float32"):
            kept = mlx_qwen3tts.load(folder, dtype=mx.bfloat16)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            plain = mlx_qwen3tts.load(folder)
            backend.compute_dtype(mx.bfloat16)  # not quantized: no warning
    finally:
        mx.set_default_device(default)
    assert kept.model.talker.codec_head.scales.dtype == mx.bfloat16
    assert plain.model.talker.codec_head.scales.dtype == mx.float32


def test_load_defaults_to_float32_on_cpu(load_tiny):
    import mlx_qwen3tts

    folder = str(load_tiny("custom_voice-0b6").path)  # stored in bfloat16
    with mx.stream(mx.cpu):
        default = mlx_qwen3tts.load(folder)
        stored = mlx_qwen3tts.load(folder, dtype=mx.bfloat16)
    assert default.model.talker.codec_head.weight.dtype == mx.float32
    assert stored.model.talker.codec_head.weight.dtype == mx.bfloat16


@pytest.mark.parametrize("in_place", ["mlx-cpu", "mlx-cuda-12"])
def test_which_of_two_mlx_builds_is_in_place(tmp_path, monkeypatch, in_place):
    """mlx-cpu and mlx-cuda-12 both install mlx/lib/libmlx.so: the file's size tells whose it is."""
    import importlib.util

    sizes = {"mlx-cpu": 100, "mlx-cuda-12": 200}
    (tmp_path / "mlx" / "lib").mkdir(parents=True)
    (tmp_path / "mlx" / "lib" / "libmlx.so").write_bytes(b"\0" * sizes[in_place])
    for name, size in sizes.items():
        info = tmp_path / f"{name.replace('-', '_')}-0.32.4.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.32.4\n")
        (info / "RECORD").write_text(f"mlx/lib/libmlx.so,sha256=x,{size}\n")
    spec = importlib.util.spec_from_file_location("mlx", tmp_path / "mlx" / "__init__.py",
                                                  submodule_search_locations=[str(tmp_path / "mlx")])
    monkeypatch.setattr(backend.importlib.util, "find_spec", lambda name: spec)
    assert backend._libmlx_owner() == in_place
    (tmp_path / "mlx_cpu-0.32.4.dist-info" / "RECORD").unlink()
    (tmp_path / "mlx_cpu-0.32.4.dist-info" / "METADATA").unlink()
    (tmp_path / "mlx_cpu-0.32.4.dist-info").rmdir()
    assert backend._libmlx_owner() is None  # one build installed: nothing to say


def _tf32_run(code: str, **env_changes):
    env = {k: v for k, v in os.environ.items() if k != backend.TF32_ENV}
    env.update(env_changes)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split(), proc.stderr


TF32_REPORT = "import os\nfrom mlx_qwen3tts import backend\nprint(backend.precision, os.environ.get('MLX_ENABLE_TF32'))"


def test_full_float32_unless_the_user_chose():
    """MLX_ENABLE_TF32=0 is set at import where it is unset, before MLX's first operation; a user's own 0 or 1
    stands (the CLI, the server and Wyoming all import the package first)."""
    assert _tf32_run("import mlx_qwen3tts\n" + TF32_REPORT)[0] == ["set", "0"]
    assert _tf32_run("import mlx_qwen3tts\n" + TF32_REPORT, MLX_ENABLE_TF32="1")[0] == ["user", "1"]
    assert _tf32_run("import mlx_qwen3tts\n" + TF32_REPORT, MLX_ENABLE_TF32="0")[0] == ["user", "0"]
    # the console scripts' modules import the package first too
    out, _ = _tf32_run("import mlx_qwen3tts.cli.generate, mlx_qwen3tts.server.__main__\n" + TF32_REPORT)
    assert out == ["set", "0"]


def test_full_float32_after_mlx_ran_work_is_late_and_quiet_without_tf32_hardware():
    code = "import mlx.core as mx\nmx.eval(mx.ones((8, 8)) @ mx.ones((8, 8)))\nimport mlx_qwen3tts\n" + TF32_REPORT
    out, err = _tf32_run(code, **{backend.DISABLE_ENV: "1"})
    assert out == ["late", "0"]
    assert "MLX_ENABLE_TF32" not in err  # this machine has no TF32 hardware: nothing to say
    out, _ = _tf32_run("import mlx.core as mx\nimport mlx_qwen3tts\n" + TF32_REPORT, **{backend.DISABLE_ENV: "1"})
    assert out == ["set", "0"]  # imported but nothing run: MLX has not read the variable yet


def test_full_float32_too_late_says_so_once_where_tf32_exists(monkeypatch, capsys):
    monkeypatch.delenv(backend.TF32_ENV, raising=False)
    monkeypatch.setattr(backend, "precision", None)
    monkeypatch.setattr(backend, "_has_tf32_device", lambda: True)
    mx.eval(mx.ones((4, 4)) @ mx.ones((4, 4)))  # this process has run MLX work
    assert backend.full_float32() == "late" and os.environ[backend.TF32_ENV] == "0"
    assert backend.full_float32() == "late"
    err = capsys.readouterr().err
    assert err.count("mlx_qwen3tts: warning:") == 1 and len(err.splitlines()) == 1
    assert "may come too late" in err and "MLX_ENABLE_TF32=0" in err and "import mlx_qwen3tts first" in err
