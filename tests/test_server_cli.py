"""The server command: its safety checks, which run before any model is loaded, and a clean exit."""

import subprocess
import sys

import pytest

pytest.importorskip("uvicorn")

from server_harness import ROOT, env  # noqa: E402


def run(*args):
    return subprocess.run([sys.executable, "-m", "mlx_qwen3tts.server", *args], capture_output=True, text=True,
                          env=env(), cwd=ROOT, timeout=120)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10", "example.com"])
def test_a_non_loopback_host_needs_a_key_or_insecure(host):
    result = run("--model", "/nonexistent-model-folder", "--host", host)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--api-key" in lines[0] and "--insecure" in lines[0]


@pytest.mark.parametrize("args, words", [(["--port", "abc"], "'abc' is not a valid integer range"),
                                         (["--max-active", "0"], "--max-active"), (["--bogus"], "No such option")])
def test_usage_errors_are_one_line(args, words):
    result = run("--model", "/nonexistent-model-folder", *args)
    assert result.returncode == 2 and result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("error: ") and words in result.stderr


def test_with_a_key_the_check_passes_and_the_model_is_loaded_next():
    # --port 0: the port is bound before the model loads; any free one will do.
    result = run("--model", "/nonexistent-model-folder", "--host", "0.0.0.0", "--port", "0", "--api-key", "k")
    assert result.returncode == 2 and "--api-key" not in result.stderr
    assert "nonexistent-model-folder" in result.stderr and "Traceback" not in result.stderr


def test_help_lists_the_options():
    result = run("--help")
    assert result.returncode == 0
    for option in ("--host", "--port", "--api-key", "--voices-dir", "--max-active", "--max-queue", "--cors",
                   "--insecure"):
        assert option in result.stdout


def test_ctrl_c_after_generating_exits_cleanly(tmp_path):
    """Ctrl-C runs the interpreter's teardown, which aborted ("terminate called", SIGABRT) once the
    engine's thread had run MLX work."""
    import signal

    import httpx
    from server_harness import ServerProcess
    from fixture_checkpoints import checkpoint_dir

    (tmp_path / "voices").mkdir()
    server = ServerProcess(checkpoint_dir("custom_voice-0b6", tmp_path), tmp_path / "voices", tmp_path / "server.log")
    try:
        response = httpx.post(server.url + "/v1/audio/speech", timeout=120, json={
            "input": "Hello there.", "voice": "serena", "max_new_tokens": 3, "response_format": "pcm"})
        assert response.status_code == 200 and len(response.content) == 2 * 3 * 1920
        server.proc.send_signal(signal.SIGINT)
        rc = server.proc.wait(60)
        log = server.output()
        assert "terminate called" not in log
        assert rc in (0, 128 + signal.SIGINT, -signal.SIGINT), (rc, log)
    finally:
        server.stop()
