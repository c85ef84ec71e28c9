"""docs/scaling.md as written: its HAProxy config (the ```haproxy block) started by its `haproxy`
command, in front of two real servers on 127.0.0.1 started with the page's `--max-active` values
and one shared voices folder (the tiny Base checkpoint stands in for the page's model). Only the
addresses change: each `bind` and `server` address becomes 127.0.0.1 and a free port.

Debian's HAProxy 2.6 (`.ci/run` installs it). Every wait is bounded and all traffic goes to
127.0.0.1; the servers and HAProxy are stopped at the end. About 40 s on 2 cores.
"""

import base64
import csv
import io
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

from fixture_checkpoints import checkpoint_dir  # noqa: E402
from server_harness import API_KEY, ServerProcess, free_port, wait_until  # noqa: E402

DOC = Path(__file__).resolve().parent.parent / "docs" / "scaling.md"
PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin"])  # Debian's haproxy is in sbin
CHECKPOINT = "base-0b6"
FRAME = 1920
TIMEOUT = 60
AUTH = {"Authorization": f"Bearer {API_KEY}"}

pytestmark = pytest.mark.skipif(shutil.which("haproxy", path=PATH) is None,
                                reason="HAProxy is not installed (.ci/run installs Debian's haproxy)")


@dataclass
class Page:
    config: str  # the ```haproxy block
    servers: dict  # server name -> (host the page runs it on, its `server` line's options)
    commands: dict  # host -> the page's mlx_qwen3tts.server command for it, as words
    haproxy: str  # the page's command that starts the balancer

    @classmethod
    def read(cls) -> "Page":
        text = DOC.read_text(encoding="utf-8")
        configs = re.findall(r"^```haproxy\n(.*?)^```", text, re.M | re.S)
        assert len(configs) == 1, "docs/scaling.md should hold one ```haproxy block"
        servers = {}
        for line in configs[0].splitlines():
            words = line.split("#")[0].split()
            if words[:1] == ["server"]:
                options = dict(zip(words[3::2], words[4::2]))
                servers[words[1]] = (words[2].rsplit(":", 1)[0], options)
        commands, host, starts = {}, None, []
        for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
            for line in block.splitlines():
                if line.startswith("# on "):
                    host = line[len("# on "):].strip()
                elif line.startswith("mlx_qwen3tts.server "):
                    commands[host] = shlex.split(line)
                elif line.startswith("haproxy "):
                    starts.append(line)
        assert len(starts) == 1, "docs/scaling.md should start HAProxy with one command"
        return cls(configs[0], servers, commands, starts[0])

    def option(self, host: str, name: str) -> str:
        words = self.commands[host]
        return words[words.index(name) + 1]


def localized(config: str, server_ports: dict) -> tuple:
    """The config with every address on 127.0.0.1 (free ports), and the port of each section's bind."""
    lines, binds, section = [], {}, None
    for line in config.splitlines():
        if line and not line[0].isspace():
            section = line.split()[0]
        words = line.split()
        if words[:1] == ["bind"]:
            binds[section] = free_port()
            line = line.replace(words[1], f"127.0.0.1:{binds[section]}", 1)
        elif words[:1] == ["server"]:
            line = line.replace(words[2], f"127.0.0.1:{server_ports[words[1]]}", 1)
        lines.append(line)
    return "\n".join(lines) + "\n", binds


@dataclass
class Farm:
    url: str
    stats_url: str
    servers: dict  # name -> ServerProcess
    voices: Path
    haproxy: subprocess.Popen

    def stats(self) -> dict:
        """HAProxy's own view of each server: its stats CSV row."""
        text = httpx.get(self.stats_url + "/;csv", timeout=10).text.lstrip("# ")
        return {row["svname"]: row for row in csv.DictReader(io.StringIO(text)) if row["pxname"] == "macs"}


@pytest.fixture(scope="module")
def farm(tmp_path_factory):
    page = Page.read()
    root = tmp_path_factory.mktemp("scaling")
    model = checkpoint_dir(CHECKPOINT, tmp_path_factory.getbasetemp())
    hosts = {host for host, _ in page.servers.values()}
    assert len(page.servers) == 2 and hosts == set(page.commands), (page.servers, page.commands)
    assert all(page.option(h, "--model").endswith("-Base") for h in hosts)  # what the tiny Base model stands in for
    assert len({page.option(h, "--voices-dir") for h in hosts}) == 1  # one shared folder
    voices = root / "voices"
    voices.mkdir()
    servers, haproxy, log = {}, None, open(root / "haproxy.log", "wb")
    try:
        for name, (host, _) in page.servers.items():
            servers[name] = ServerProcess(model, voices, root / f"{name}.log", "--api-key", API_KEY,
                                          "--max-active", page.option(host, "--max-active"))
        config, binds = localized(page.config, {name: s.port for name, s in servers.items()})
        (root / "haproxy.cfg").write_text(config)
        haproxy = subprocess.Popen(shlex.split(page.haproxy), cwd=root, stdout=log, stderr=subprocess.STDOUT,
                                   env={**os.environ, "PATH": PATH})
        if not wait_until(lambda: haproxy.poll() is not None or listening(binds["frontend"]), 10) \
                or haproxy.poll() is not None:
            raise RuntimeError(f"haproxy did not start:\n{(root / 'haproxy.log').read_text()}")
        yield Farm(f"http://127.0.0.1:{binds['frontend']}", f"http://127.0.0.1:{binds['listen']}", servers,
                   voices, haproxy)
    finally:
        if haproxy is not None and haproxy.poll() is None:
            haproxy.terminate()
            try:
                haproxy.wait(10)
            except subprocess.TimeoutExpired:
                haproxy.kill()
                haproxy.wait(10)
        log.close()
        for server in servers.values():
            server.stop()


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def raw_status(port: int, request: bytes) -> str:
    """The status line a server gives a request sent byte for byte (HTTP/1.0, headers as given)."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as s:
        s.sendall(request)
        return s.makefile("rb").readline().decode("latin-1").strip()


def clip(seconds=2.0, rate=16000) -> bytes:
    """A voiced-like test signal: harmonics of a gliding fundamental with a little noise."""
    rng = np.random.default_rng(1)
    t = np.arange(int(seconds * rate)) / rate
    phase = 2 * np.pi * np.cumsum(120 + 30 * np.sin(2 * np.pi * 0.7 * t)) / rate
    audio = sum(np.sin(k * phase) / k for k in range(1, 8)) * 0.2 + 0.01 * rng.standard_normal(t.shape)
    buf = io.BytesIO()
    sf.write(buf, audio.astype(np.float32), rate, format="WAV")
    return buf.getvalue()


def speak(url: str, voice: str, frames: int) -> httpx.Response:
    return httpx.post(url + "/v1/audio/speech", headers=AUTH, timeout=TIMEOUT,
                      json={"model": "tts-1", "input": "Spread the work over the Macs.", "voice": voice,
                            "response_format": "pcm", "temperature": 0, "max_new_tokens": frames})


def test_haproxys_own_health_check_passes_and_weights_are_the_health_capacity(farm):
    """HAProxy's check is HTTP/1.0 without a Host header: a loopback server answers it."""
    def checked():
        rows = farm.stats()
        return all(rows[name]["check_status"].lstrip("* ") not in ("", "INI") for name in farm.servers)

    assert wait_until(checked, 20, 0.2), farm.stats()
    rows = farm.stats()
    for name, server in farm.servers.items():
        row, health = rows[name], server.health()
        assert (row["status"], row["check_status"].lstrip("* ")) == ("UP", "L7OK"), row
        assert int(row["weight"]) == health["max_active"]
        assert int(row["slim"]) == health["max_active"] + health["max_queue"]
    assert sorted(int(rows[name]["weight"]) for name in farm.servers) == [8, 16]


def test_no_host_header_is_served_and_a_foreign_host_still_refused(farm):
    port = next(iter(farm.servers.values())).port
    assert " 200 " in raw_status(port, b"GET /health HTTP/1.0\r\n\r\n")
    assert " 200 " in raw_status(port, b"GET /health HTTP/1.0\r\nHost: 127.0.0.1:80\r\n\r\n")
    # The rebinding defence stays for every Host a browser can send.
    assert " 400 " in raw_status(port, b"GET /health HTTP/1.0\r\nHost: attacker.example\r\n\r\n")
    assert " 400 " in raw_status(port, b"GET /health HTTP/1.1\r\nHost: attacker.example:8000\r\n\r\n")


def test_requests_spread_over_both_servers_with_a_voice_saved_through_the_balancer(farm):
    upload = httpx.post(farm.url + "/v1/audio/voices", headers=AUTH, timeout=TIMEOUT,
                        files={"audio_sample": ("ref.wav", clip(), "audio/wav")},
                        data={"name": "shared_voice", "x_vector_only": "true"})
    assert upload.status_code == 201, upload.text
    assert upload.headers["x-served-by"] in farm.servers
    assert (farm.voices / "shared_voice.safetensors").is_file()

    frames, clients = 24, 6
    start = threading.Barrier(clients)

    def one(_):
        start.wait(TIMEOUT)  # all at once, so that leastconn has open connections to weigh
        return speak(farm.url, "shared_voice", frames)

    with ThreadPoolExecutor(clients) as pool:
        responses = list(pool.map(one, range(clients)))
    for response in responses:  # each server found the voice the other one saved
        assert response.status_code == 200, response.text
        assert len(response.content) == frames * FRAME * 2
    assert {r.headers["x-served-by"] for r in responses} == set(farm.servers)


def test_a_websocket_session_completes_through_the_balancer(farm):
    url = farm.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    with ws_client.connect(url, additional_headers=AUTH, open_timeout=TIMEOUT) as ws:
        assert ws.response.headers["X-Served-By"] in farm.servers

        def recv():
            return json.loads(ws.recv(timeout=TIMEOUT))

        assert recv()["type"] == "session.created"
        ws.send(json.dumps({"type": "session.update", "session": {"voice": "default", "temperature": 0,
                                                                  "max_new_tokens": 5}}))
        assert recv()["type"] == "session.updated"
        for text in ("First part,", " on one server."):
            ws.send(json.dumps({"type": "input_text.append", "text": text}))
        ws.send(json.dumps({"type": "input_text.flush"}))
        ws.send(json.dumps({"type": "input_text.append", "text": "Second part."}))
        ws.send(json.dumps({"type": "input_text.end"}))
        audio, done = [], []
        for _ in range(500):
            event = recv()
            assert event["type"] in ("speech.audio.delta", "speech.audio.done"), event
            if event["type"] == "speech.audio.delta":
                audio.append(len(base64.b64decode(event["audio"])))
            else:
                done.append(event)
                if len(done) == 2:
                    break
        assert [d["usage"]["output_tokens"] for d in done] == [5, 5] and sum(audio) == 2 * 5 * FRAME * 2
        with pytest.raises(Exception):  # the session ends after its audio
            ws.recv(timeout=TIMEOUT)


def test_one_server_stopped_mid_run_and_the_balancer_carries_on_with_the_other(farm):
    rows = farm.stats()
    # An idle farm sends to the server of highest weight first: that one is stopped.
    victim = max(farm.servers, key=lambda name: int(rows[name]["weight"]))
    survivor = next(name for name in farm.servers if name != victim)
    stopper = threading.Thread(target=farm.servers[victim].stop)  # SIGTERM, as Ctrl-C stops it
    served, frames = [], 6  # (whether the victim had stopped when the request was sent, who answered)
    for i in range(60):
        if i == 3:
            stopper.start()
        stopped = stopper.ident is not None and not stopper.is_alive()
        response = speak(farm.url, "default", frames)
        assert response.status_code == 200, (i, response.text)
        assert len(response.content) == frames * FRAME * 2
        served.append((stopped, response.headers["x-served-by"]))
        if sum(s for s, _ in served) >= 5:
            break
        time.sleep(0.1)
    stopper.join(30)
    assert victim in [name for _, name in served[:3]]
    after = [name for stopped, name in served if stopped]
    assert len(after) >= 5 and set(after) == {survivor}, served
    assert wait_until(lambda: farm.stats()[victim]["status"].startswith("DOWN"), 15, 0.2), farm.stats()
    assert farm.stats()[survivor]["status"] == "UP"
    assert speak(farm.url, "default", 2).headers["x-served-by"] == survivor
