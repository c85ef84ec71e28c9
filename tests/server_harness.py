"""A real server process on 127.0.0.1 for the server tests: one per configuration, shared by
every test module that asks for it, stopped when the test run ends.

All traffic goes to 127.0.0.1; every wait is bounded.
"""

import atexit
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
API_KEY = "test-key-1234"
START_TIMEOUT_S = 120
_servers = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    return e


class ServerProcess:
    """The server on a free port, answering /health (bounded wait). `entry`: what runs it after the Python
    (a test's own entry point that swaps a part first, with `path` put before the project on PYTHONPATH)."""

    def __init__(self, model_dir: Path, voices_dir: Path, log_path: Path, *extra,
                 entry=("-m", "mlx_qwen3tts.server"), path: str = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.log = open(log_path, "wb")
        cmd = [sys.executable, *entry, "--model", str(model_dir), "--port", str(self.port),
               "--voices-dir", str(voices_dir), "--dtype", "float32", "--log-level", "warning", *extra]
        e = env()
        if path:
            e["PYTHONPATH"] = path + os.pathsep + e["PYTHONPATH"]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=e, cwd=ROOT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.output()}")
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"server did not start within {START_TIMEOUT_S} s:\n{self.output()}")

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def health(self) -> dict:
        return httpx.get(self.url + "/health", timeout=10).json()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


def shared_server(name: str, tmp_root: Path, *extra) -> ServerProcess:
    """The server for checkpoint `name` with these options, started on first use."""
    from fixture_checkpoints import checkpoint_dir

    key = (name, extra)
    if key not in _servers or not _servers[key].alive():
        model = checkpoint_dir(name, tmp_root)
        folder = Path(tmp_root) / f"server-{name}-{len(_servers)}"
        (folder / "voices").mkdir(parents=True, exist_ok=True)
        _servers[key] = ServerProcess(model, folder / "voices", folder / "server.log", *extra)
    return _servers[key]


@atexit.register
def _stop_all():
    for server in _servers.values():
        server.stop()


def wait_until(predicate, timeout: float, step: float = 0.05):
    """True once predicate() holds, False after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
