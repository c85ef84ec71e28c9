"""Real clients, unchanged: each test replays one client's own requests or event sequence, as its
source (cited per test: project, version, file) writes them, against a real server process on
127.0.0.1. Every read has a timeout, every loop a count.

Two servers serve the module: KEYLESS (no key, Wyoming on, --max-input-chars 200) and KEYED
(--api-key, --public-listings, --allow-host). Zeroconf is observed only inside a private network
namespace the test makes (`unshare -n`), never on the machine's interfaces.
"""

import asyncio
import io
import json
import math
import shutil
import subprocess
import sys
import textwrap
import time

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("wyoming")

from server_harness import API_KEY, ROOT, env, free_port, shared_server  # noqa: E402
from wyoming.audio import AudioChunk, AudioStop  # noqa: E402
from wyoming.client import AsyncTcpClient  # noqa: E402
from wyoming.tts import (  # noqa: E402
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStop,
    SynthesizeStopped,
    SynthesizeVoice,
)

FRAMES = 20  # --wyoming-max-new-tokens: the tiny random checkpoints never stop on their own
FRAME = 1920  # samples per frame at 24 kHz
LIMIT = 200  # --max-input-chars of the keyless server
TIMEOUT = 60
HA_TOOL_CALL_PAUSE = 31.0  # longer than the 30 s after which the server used to end a stream
REPLY = ("Sure. The living room lights are now off, and the thermostat is set to twenty degrees. "
         "Tomorrow will be cloudy with a chance of rain in the afternoon, so take an umbrella. "
         "Your next meeting is at nine with the design team; it will last an hour. "
         "I also added milk, eggs and bread to the shopping list, as you asked this morning. "
         "The washing machine finished its cycle ten minutes ago. Anything else I can do for you?")


@pytest.fixture(scope="module")
def keyless(tmp_path_factory):
    proc = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--wyoming-port", str(free_port()),
                         "--wyoming-temperature", "0", "--wyoming-max-new-tokens", str(FRAMES),
                         "--max-input-chars", str(LIMIT))
    proc.wyoming_port = int(proc.proc.args[proc.proc.args.index("--wyoming-port") + 1])
    return proc


@pytest.fixture(scope="module")
def keyed(tmp_path_factory):
    return shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--api-key", API_KEY,
                         "--public-listings", "--allow-host", "tts.home.internal")


def run(coro, timeout=300):
    return asyncio.run(asyncio.wait_for(coro, timeout))


# ----- Home Assistant (Wyoming) -------------------------------------------------------------------


async def ha_2024_get_tts_audio(port, message, voice_name=None, read_timeout=15.0):
    """home-assistant/core 2024.x-2025.6 homeassistant/components/wyoming/tts.py
    `async_get_tts_audio` (also `tts.speak` in 2025.7): one synthesize, then read until audio-stop
    or a closed connection, ignoring every other event, with no timeout of its own (the test's
    `read_timeout` stands for "Home Assistant would wait forever"). Returns (wav bytes or None, events)."""
    seen = []
    async with AsyncTcpClient("127.0.0.1", port) as client:
        voice = SynthesizeVoice(name=voice_name, speaker=None) if voice_name is not None else None
        await client.write_event(Synthesize(text=message, voice=voice).event())
        audio = b""
        for _ in range(5000):
            event = await asyncio.wait_for(client.read_event(), read_timeout)
            if event is None:
                return None, seen  # "Connection lost": Home Assistant returns (None, None)
            seen.append(event.type)
            if AudioStop.is_type(event.type):
                return audio, seen
            if AudioChunk.is_type(event.type):
                audio += AudioChunk.from_event(event).audio
    raise AssertionError("no audio-stop after 5000 events")


async def ha_2025_stream_tts_audio(port, chunks, voice_name=None, pauses=None, read_timeout=TIMEOUT):
    """home-assistant/core 2025.7 homeassistant/components/wyoming/tts.py `async_stream_tts_audio`:
    a background task writes synthesize-start, one synthesize-chunk per LLM delta (`pauses[i]`
    seconds before chunk i: the LLM calling a tool), the whole message as a plain synthesize "for
    backwards compatibility", synthesize-stop; the reader yields audio until synthesize-stopped.
    (2025.8+ `_generate_tts_audio` writes the same events and also ends on synthesize-stopped.)
    Returns (pcm bytes, event types)."""
    pauses = pauses or {}
    seen, audio = [], b""
    async with AsyncTcpClient("127.0.0.1", port) as client:
        voice = SynthesizeVoice(name=voice_name, speaker=None) if voice_name is not None else None

        async def write_tts_message():
            await client.write_event(SynthesizeStart(voice=voice).event())
            for i, chunk in enumerate(chunks):
                if i in pauses:
                    await asyncio.sleep(pauses[i])
                await client.write_event(SynthesizeChunk(text=chunk).event())
            await client.write_event(Synthesize(text="".join(chunks), voice=voice).event())
            await client.write_event(SynthesizeStop().event())

        writer = asyncio.create_task(write_tts_message())
        try:
            for _ in range(20000):
                event = await asyncio.wait_for(client.read_event(), read_timeout)
                assert event is not None, f"connection lost after {seen}"
                seen.append(event.type)
                if AudioChunk.is_type(event.type):
                    audio += AudioChunk.from_event(event).audio
                elif SynthesizeStopped.is_type(event.type):
                    await writer
                    return audio, seen
        finally:
            writer.cancel()
    raise AssertionError("no synthesize-stopped after 20000 events")


def llm_deltas(text: str) -> list:
    """Text as an LLM streams it: a few characters at a time."""
    words = text.split(" ")
    return [w + ("" if i == len(words) - 1 else " ") for i, w in enumerate(words)]


def test_ha_2024_plain_synthesize_is_spoken(keyless):
    audio, seen = run(ha_2024_get_tts_audio(keyless.wyoming_port, "Turning off the lights.", "ryan"))
    assert seen[0] == "audio-start" and seen[-1] == "audio-stop" and "error" not in seen
    assert len(audio) == 2 * FRAMES * FRAME


@pytest.mark.parametrize("message, voice", [
    ("Hello.", "grandpa"),  # no such voice (a saved voice since deleted, a model switched)
    ("x" * (LIMIT + 1), "ryan"),  # longer than --max-input-chars
])
def test_ha_2024_refused_synthesize_returns_at_once(keyless, message, voice):
    """Home Assistant ignores the error event; the closed connection ends its wait (wyoming-piper
    handler.py: writes the Error, then re-raises, which closes the connection)."""
    t0 = time.monotonic()
    audio, seen = run(ha_2024_get_tts_audio(keyless.wyoming_port, message, voice))
    assert audio is None and seen == ["error"] and time.monotonic() - t0 < 10
    assert keyless.alive()


def test_ha_2025_7_streamed_reply_survives_a_tool_call_pause(keyless):
    """An LLM reply with a 31 s pause (a tool call) between two deltas: no error event (Home
    Assistant 2025.8+ turns one into a failed reply), and the text after the pause is spoken."""
    chunks = ["The weather ", "today: ", "sunny and ", "warm."]
    audio, seen = run(ha_2025_stream_tts_audio(keyless.wyoming_port, chunks, "ryan", pauses={2: HA_TOOL_CALL_PAUSE},
                                               read_timeout=HA_TOOL_CALL_PAUSE + TIMEOUT))
    assert "error" not in seen, seen
    assert seen[0] == "audio-start" and seen[-2:] == ["audio-stop", "synthesize-stopped"]
    assert len(audio) == 2 * FRAMES * FRAME


def test_ha_2025_7_long_streamed_reply_is_spoken_whole(keyless):
    """A reply of ~2.4x --max-input-chars: the limit holds per chunk and per engine request, so the
    reply is spoken as consecutive requests (each capped at 20 frames here), all of it, no error."""
    reply = REPLY
    assert len(reply) > 2 * LIMIT
    audio, seen = run(ha_2025_stream_tts_audio(keyless.wyoming_port, llm_deltas(reply), "ryan"))
    assert "error" not in seen, seen
    segments = seen.count("audio-start")
    assert segments == seen.count("audio-stop") >= math.ceil(len(reply) / LIMIT) and seen[-1] == "synthesize-stopped"
    assert len(audio) == segments * 2 * FRAMES * FRAME


# ----- HTTP clients ------------------------------------------------------------------------------


def speech(server, body, headers, host=None):
    headers = {"Content-Type": "application/json", **headers}
    if host is not None:
        headers["Host"] = f"{host}:{server.port}"
    return httpx.post(server.url + "/v1/audio/speech", content=json.dumps(body), headers=headers, timeout=300)


def decoded_mp3(data: bytes):
    """(samples decoded by FFmpeg through PyAV, FFmpeg's warnings)."""
    import av
    import av.logging

    previous = av.logging.get_level()
    av.logging.set_level(av.logging.VERBOSE)
    try:
        with av.logging.Capture(True) as logs:
            with av.open(io.BytesIO(data), format="mp3") as container:
                samples = sum(frame.samples for frame in container.decode(audio=0))
    finally:
        av.logging.set_level(previous)
    return samples, [message for level, _, message in logs if level <= av.logging.WARNING]


def test_librechat_joined_mp3_responses_decode_as_one_stream(keyless):
    """LibreChat api/server/services/Files/Audio/TTSService.js (v0.7.x) `openAIProvider`: body
    {input, model, voice} (no response_format: mp3), `Authorization: Bearer ${apiKey}` -- "Bearer
    undefined" when no key is configured. `processTextToSpeech` splits a long text and pipes each
    response into one audio/mpeg stream: the joined responses must decode as one stream, of both
    lengths."""
    pieces = []
    for text in ("The first part of a long answer.", "And here is the second part of it."):
        response = speech(keyless, {"input": text, "model": "tts-1", "voice": "ryan"},
                          {"Authorization": "Bearer undefined"})
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == "audio/mpeg"
        pieces.append(response.content)
    lengths = [decoded_mp3(p)[0] for p in pieces]
    joined, warnings = decoded_mp3(b"".join(pieces))
    assert not any("concatenated" in w for w in warnings), warnings
    assert joined == sum(lengths) and min(lengths) > 0


@pytest.mark.parametrize("body, headers", [
    # LibreChat TTSService.js `openAIProvider`, speech.tts.openai.url in librechat.yaml
    ({"input": "Hello from a container.", "model": "tts-1", "voice": "ryan"}, {"Authorization": "Bearer undefined"}),
    # Open WebUI routers/audio.py `speech` (0.6.x): its empty key gives "Bearer ", which arrives as
    # "Bearer" (HTTP strips a field value's trailing space, RFC 9110 5.5; httpx refuses to send it)
    ({"input": "Hello from a container.", "voice": "ryan", "model": "tts-1"}, {"Authorization": "Bearer"}),
], ids=["librechat", "open-webui"])
def test_clients_in_docker_reach_a_loopback_server_as_host_docker_internal(keyless, body, headers):
    """Both usually run in Docker and name the Mac host.docker.internal (Open WebUI's base URL
    http://host.docker.internal:8000/v1). The server still binds 127.0.0.1: only the Host header differs."""
    response = speech(keyless, body, headers, host="host.docker.internal")
    assert response.status_code == 200, response.text


def test_anythingllm_without_a_key_sends_bearer_null(keyless):
    """AnythingLLM server/utils/TextToSpeech/openAiGeneric/index.js: the OpenAI SDK with
    `apiKey: TTS_OPEN_AI_COMPATIBLE_KEY || null`, `audio.speech.create({model, voice, input})`."""
    response = speech(keyless, {"model": "tts-1", "voice": "alloy", "input": "Hello from AnythingLLM."},
                      {"Authorization": "Bearer null"})
    assert response.status_code == 200 and response.headers["content-type"] == "audio/mpeg"
    assert decoded_mp3(response.content)[0] > 0


def test_sillytavern_voice_list_with_spaces(keyed):
    """SillyTavern public/scripts/extensions/tts/openai-compatible.js (1.12.x): "Available Voices"
    split on "," untrimmed ("alloy, ryan" gives " ryan"); src/endpoints/openai.js
    `/custom/generate-voice` posts {input, response_format: "mp3", voice, speed, model} with
    `Authorization: Bearer ${key ?? ''}`."""
    voices = "alloy, ryan".split(",")
    for voice in voices:
        response = speech(keyed, {"input": "Hello there.", "response_format": "mp3", "voice": voice, "speed": 1,
                                  "model": "tts-1"}, {"Authorization": f"Bearer {API_KEY}"})
        assert response.status_code == 200, (voice, response.text)


def test_open_webui_lists_models_and_voices_without_a_key(keyed):
    """Open WebUI backend/open_webui/routers/audio.py (0.5-0.6.x) `get_available_models` /
    `get_available_voices`: GET {TTS_OPENAI_API_BASE_URL}/audio/models and /audio/voices with no
    Authorization header (on failure it shows tts-1/tts-1-hd and alloy...shimmer); `speech` posts
    {input, voice, model} with `Bearer ${TTS_OPENAI_API_KEY}`."""
    base = keyed.url + "/v1"
    models = httpx.get(base + "/audio/models", timeout=TIMEOUT)
    voices = httpx.get(base + "/audio/voices", timeout=TIMEOUT)
    assert models.status_code == voices.status_code == 200, (models.text, voices.text)
    assert "tts-1" in [m["id"] for m in models.json()["models"]]
    offered = {v["id"]: v["name"] for v in voices.json()["voices"]}
    assert offered["ryan"] == "ryan"
    response = speech(keyed, {"input": "Hello from Open WebUI.", "voice": "ryan", "model": "tts-1"},
                      {"Authorization": f"Bearer {API_KEY}"})
    assert response.status_code == 200 and response.headers["content-type"] == "audio/mpeg"
    # The listings only: speech, uploads and deletions still need the key.
    assert httpx.post(base + "/audio/speech", json={"input": "hi"}, timeout=TIMEOUT).status_code == 401
    assert httpx.delete(base + "/audio/voices/ryan", timeout=TIMEOUT).status_code == 401


def test_allowed_host_names_and_no_others(keyed):
    """--allow-host NAME adds a Host name (a reverse proxy's); any other name is still refused."""
    auth = {"Authorization": f"Bearer {API_KEY}"}
    ok = httpx.get(keyed.url + "/v1/models", headers={**auth, "Host": "tts.home.internal"}, timeout=TIMEOUT)
    refused = httpx.get(keyed.url + "/v1/models", headers={**auth, "Host": "attacker.example"}, timeout=TIMEOUT)
    assert ok.status_code == 200 and refused.status_code == 400


# ----- Home Assistant discovery (zeroconf) --------------------------------------------------------

BROWSE = textwrap.dedent("""
    import json, socket, sys, time
    from zeroconf import ServiceBrowser, ServiceListener, Zeroconf
    host, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    deadline = time.monotonic() + 120  # the server loads its model first
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex((host, port)) == 0:
                break
        time.sleep(0.2)
    found = []
    class Listener(ServiceListener):
        def add_service(self, zc, kind, name):
            info = zc.get_service_info(kind, name, timeout=3000)
            if info is not None:
                found.append({"name": name, "port": info.port, "addresses": info.parsed_addresses()})
        update_service = remove_service = lambda *args: None
    zc = Zeroconf()
    browser = ServiceBrowser(zc, "_wyoming._tcp.local.", Listener())
    deadline = time.monotonic() + seconds
    while not found and time.monotonic() < deadline:
        time.sleep(0.2)
    browser.cancel()
    zc.close()
    print(json.dumps(found))
""")


def unshare_usable() -> str:
    """'' if this process can make a private network namespace, else why not."""
    if sys.platform != "linux" or shutil.which("unshare") is None or shutil.which("ip") is None:
        return "private network namespaces need Linux with unshare and ip (util-linux, iproute2)"
    probe = subprocess.run(["unshare", "-n", "sh", "-c", "ip link set lo up multicast on && ip addr add 10.99.0.1/32 dev lo"],
                           capture_output=True)
    if probe.returncode != 0:  # not root, or no CAP_NET_ADMIN in a container
        return f"cannot make a network namespace with multicast on loopback: {probe.stderr.decode().strip()[:200]}"
    return ""


@pytest.mark.parametrize("options, announced", [
    (["--no-http"], True),  # Wyoming alone (its own event loop)
    ([], True),  # beside HTTP on the namespace's 127.0.0.1 (Wyoming in its thread)
    (["--no-http", "--no-zeroconf"], False),
], ids=["wyoming-alone", "beside-http", "no-zeroconf"])
def test_wyoming_beyond_loopback_is_announced_for_home_assistant(tmp_path, options, announced):
    """Home Assistant homeassistant/components/wyoming manifest.json ("zeroconf":
    ["_wyoming._tcp.local."]) and config_flow.py `async_step_zeroconf` (host and port of the
    announcement). In a private network namespace, whose only interface is its own loopback (with
    multicast on and a second address, 10.99.0.1, which is not a loopback address), the server
    binds 10.99.0.1: announced by default beyond loopback, and found by a zeroconf browser in the
    same namespace; with --no-zeroconf, not found. Nothing reaches the machine's interfaces."""
    reason = unshare_usable()
    if reason:
        pytest.skip(reason + "; test_the_announcement_records checks the records instead")
    from fixture_checkpoints import checkpoint_dir

    from mlx_qwen3tts.server.discovery import default_name

    model = checkpoint_dir("custom_voice-0b6", tmp_path.parent)
    port = 10300
    server = (f"{sys.executable} -m mlx_qwen3tts.server --model {model} --wyoming-port {port} "
              f"--wyoming-host 10.99.0.1 --insecure --voices-dir {tmp_path} --dtype float32 --log-level info "
              + " ".join(options))
    (tmp_path / "browse.py").write_text(BROWSE)
    script = (
        "set -e; ip link set lo up multicast on; ip addr add 10.99.0.1/32 dev lo; "
        "ip route add 224.0.0.0/4 dev lo; "
        f"{server} > {tmp_path}/server.log 2>&1 & pid=$!; "
        f"{sys.executable} {tmp_path}/browse.py 10.99.0.1 {port} {30 if announced else 5}; "
        "kill -TERM $pid; wait $pid || true"
    )
    result = subprocess.run(["unshare", "-n", "sh", "-c", script], capture_output=True, text=True, env=env(),
                            cwd=ROOT, timeout=300)
    log = (tmp_path / "server.log").read_text()
    assert result.returncode == 0, result.stderr + log
    found = json.loads(result.stdout.strip().splitlines()[-1])
    want = [{"name": f"{default_name()}._wyoming._tcp.local.", "port": port, "addresses": ["10.99.0.1"]}]
    assert found == (want if announced else []), log


def test_the_announcement_records():
    """The records themselves (what a browser reads), checked without any network."""
    from mlx_qwen3tts.server.discovery import SERVICE_TYPE, addresses_for, service_info

    info = service_info("kitchen-tts", 10300, ["192.0.2.7"])
    assert SERVICE_TYPE == "_wyoming._tcp.local." and info.type == SERVICE_TYPE
    assert info.name == "kitchen-tts._wyoming._tcp.local." and info.port == 10300
    assert info.parsed_addresses() == ["192.0.2.7"] and info.server.endswith(".local.")
    assert addresses_for("192.0.2.7") == ["192.0.2.7"]
    assert all(a not in ("127.0.0.1", "::1") for a in addresses_for("0.0.0.0"))


@pytest.mark.parametrize("host, flags, announced", [
    ("127.0.0.1", [], None),  # unreachable from Home Assistant: never announced
    ("0.0.0.0", ["--no-zeroconf"], None),
    ("0.0.0.0", [], "default"),
    ("0.0.0.0", ["--zeroconf-name", "kitchen-tts"], "kitchen-tts"),
])
def test_when_the_service_is_announced(host, flags, announced):
    from mlx_qwen3tts.server.__main__ import announced_name
    from mlx_qwen3tts.server.discovery import default_name

    name = announced_name(host, "--no-zeroconf" in flags, flags[1] if flags[:1] == ["--zeroconf-name"] else None)
    assert name == (default_name() if announced == "default" else announced)


def test_a_bad_zeroconf_name_is_refused_before_loading():
    result = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.server", "--model", "/nonexistent-model-folder",
                             "--wyoming-port", "10300", "--wyoming-host", "0.0.0.0", "--insecure",
                             "--zeroconf-name", "a.b"], capture_output=True, text=True, env=env(), cwd=ROOT,
                            timeout=120)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "--zeroconf-name" in lines[0] and "'.'" in lines[0], \
        result.stderr

