"""The page at / in a real headless Chromium (Debian's package), driven over its DevTools
protocol: the page loads, a synthesis streams and the page reports the received duration;
typed keystrokes go through the WebSocket and speech follows before the utterance ends."""

import base64
import json
import os
import re
import shutil
import subprocess
import time

import httpx
import pytest

pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

from server_harness import API_KEY, shared_server  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
# Skipped where no Chromium is installed, except in CI (.ci/run installs it), where that fails.
pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="Chromium is not installed (apt-get install chromium)")
FRAMES = 12


class Browser:
    """Chromium with --remote-debugging-port=0; one page, commands over its DevTools WebSocket."""

    def __init__(self, profile):
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--mute-audio",
             "--autoplay-policy=no-user-gesture-required", "--remote-debugging-address=127.0.0.1",
             "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=900,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port, deadline = None, time.monotonic() + 60
        while port is None and time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            match = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            port = int(match.group(1)) if match else None
            if not line and self.proc.poll() is not None:
                break
        if port is None:
            self.close()
            raise RuntimeError("Chromium did not start its DevTools endpoint")
        pages = httpx.get(f"http://127.0.0.1:{port}/json/list", timeout=10).json()
        url = next(p["webSocketDebuggerUrl"] for p in pages if p["type"] == "page")
        self.ws = ws_client.connect(url, max_size=None, open_timeout=30)
        self.next_id = 0

    def send(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        for _ in range(10000):
            message = json.loads(self.ws.recv(timeout=30))
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
        raise RuntimeError(f"no answer to {method}")

    def js(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.js(expression):
                return True
            time.sleep(0.1)
        return False

    def close(self):
        if getattr(self, "ws", None):
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,
                         "--max-active", "8", "--max-queue", "4")


@pytest.fixture(scope="module")
def page(server, tmp_path_factory):
    browser = Browser(tmp_path_factory.mktemp("chromium-profile"))
    try:
        browser.send("Page.enable")
        browser.send("Page.navigate", url=server.url + "/")
        assert browser.wait("document.readyState === 'complete' && !!document.getElementById('speak')")
        # Short requests for the tiny model: add a frame cap to what the page sends (HTTP and WebSocket).
        browser.js(f"""
            const realFetch = window.fetch;
            window.fetch = (url, opts) => {{
              if (opts && opts.body) {{ const b = JSON.parse(opts.body); b.max_new_tokens = {FRAMES}; b.temperature = 0;
                                        opts = {{...opts, body: JSON.stringify(b)}}; }}
              return realFetch(url, opts);
            }};
            const realSend = WebSocket.prototype.send;
            WebSocket.prototype.send = function (data) {{
              const m = JSON.parse(data);
              if (m.type === 'session.update') {{ m.session.max_new_tokens = {FRAMES}; m.session.temperature = 0; }}
              return realSend.call(this, JSON.stringify(m));
            }};
            true""")
        yield browser
    finally:
        browser.close()


def screenshot(page, path):
    data = base64.b64decode(page.send("Page.captureScreenshot", format="png")["data"])
    path.write_bytes(data)
    if os.environ.get("MLX_QWEN3TTS_SCREENSHOTS"):
        shutil.copy(path, os.environ["MLX_QWEN3TTS_SCREENSHOTS"])
    return data


def set_key(page, key):
    page.js("(() => { const k = document.getElementById('apikey'); k.value = " + json.dumps(key) + ";"
            "k.dispatchEvent(new Event('change')); return true; })()")


def enter_key(page):
    key = {"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13, "text": "\r"}
    page.send("Input.dispatchKeyEvent", type="keyDown", **key)
    page.send("Input.dispatchKeyEvent", type="keyUp", **{k: v for k, v in key.items() if k != "text"})


def test_page_loads_with_the_key_and_a_synthesis_streams(page, tmp_path):
    set_key(page, API_KEY)
    assert page.wait("document.getElementById('voice').options.length === 10")
    # The page's default voice is the command line's: no voice is sent, the server picks it (Ryan).
    assert page.js("document.getElementById('voice').value") == ""
    assert page.js("document.getElementById('voice').selectedOptions[0].text") == "default"
    assert page.js("document.getElementById('model').textContent").startswith("custom_voice-0b6")
    page.js("document.getElementById('voice').value = 'vivian'; document.getElementById('speak').click(); true")
    assert page.wait("document.getElementById('status').dataset.state === 'done'", 120), \
        page.js("document.getElementById('status').textContent")
    seconds = float(page.js("document.getElementById('status').dataset.receivedSeconds"))
    assert seconds == pytest.approx(FRAMES * 0.08, abs=1e-3)
    assert "received 0.96 s" in page.js("document.getElementById('status').textContent")
    assert page.js("!document.getElementById('download').hidden")
    assert len(screenshot(page, tmp_path / "page.png")) > 10_000


def test_typing_streams_speech_before_the_utterance_ends(page, tmp_path):
    page.js("document.getElementById('live').focus(); true")
    for word in "Speech follows typing here".split(" "):
        page.send("Input.insertText", text=word + " ")
    # No Enter yet: audio is already arriving over the WebSocket.
    assert page.wait("document.getElementById('status').textContent.startsWith('Live: received')", 60), \
        page.js("document.getElementById('status').textContent")
    enter_key(page)
    assert page.wait("document.getElementById('status').textContent.startsWith('Live: utterance done')", 60)
    seconds = float(page.js("document.getElementById('status').dataset.receivedSeconds"))
    assert seconds == pytest.approx(FRAMES * 0.08, abs=1e-3)
    assert page.js("document.getElementById('live').value") == ""
    screenshot(page, tmp_path / "page-live.png")


def test_a_wrong_key_is_reported_on_the_page(page):
    set_key(page, "wrong")
    assert page.wait("document.getElementById('status').textContent.includes('API key')", 30)
