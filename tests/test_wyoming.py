"""The Wyoming protocol (Home Assistant) against a real server process on 127.0.0.1, reached with
the `wyoming` package's own client (AsyncTcpClient). Every read has a timeout, every loop a count."""

import asyncio
import socket
import subprocess
import sys
import time

import httpx
import numpy as np
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("wyoming")

from server_harness import ROOT, ServerProcess, env, free_port, shared_server, wait_until  # noqa: E402
from wyoming.audio import AudioChunk, AudioStart, AudioStop  # noqa: E402
from wyoming.client import AsyncTcpClient  # noqa: E402
from wyoming.error import Error  # noqa: E402
from wyoming.event import Event  # noqa: E402
from wyoming.info import Describe, Info  # noqa: E402
from wyoming.ping import Ping, Pong  # noqa: E402
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
TIMEOUT = 60
TEXT = "Well, here is a reply that arrives word by word, as an LLM writes it."


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """HTTP and Wyoming in one process, greedy Wyoming requests of 20 frames."""
    proc = shared_server("custom_voice-0b6", tmp_path_factory.getbasetemp(), "--wyoming-port", str(free_port()),
                         "--wyoming-temperature", "0", "--wyoming-max-new-tokens", str(FRAMES))
    proc.wyoming_port = int(proc.proc.args[proc.proc.args.index("--wyoming-port") + 1])
    return proc


def client(port):
    return AsyncTcpClient("127.0.0.1", port, connect_timeout=TIMEOUT, read_timeout=TIMEOUT)


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 300))


async def read(c) -> Event:
    event = await c.read_event()
    assert event is not None, "the server closed the connection"
    return event


async def read_audio(c, until=AudioStop, limit=2000):
    """(pcm bytes, events other than audio-chunk) up to and including an `until` event."""
    audio, others = [], []
    for _ in range(limit):
        event = await read(c)
        if AudioChunk.is_type(event.type):
            chunk = AudioChunk.from_event(event)
            assert (chunk.rate, chunk.width, chunk.channels) == (24000, 2, 1)
            audio.append(chunk.audio)
        else:
            others.append(event)
            if until.is_type(event.type):
                return b"".join(audio), others
    raise AssertionError(f"no {until.__name__} after {limit} events")


async def synthesize(port, text, **voice):
    async with client(port) as c:
        await c.write_event(Synthesize(text, voice=SynthesizeVoice(**voice) if voice else None).event())
        return await read_audio(c)


def http_pcm(server, text, **body):
    """The same text sent whole over HTTP with the Wyoming settings (greedy, 20 frames)."""
    response = httpx.post(server.url + "/v1/audio/speech", timeout=TIMEOUT, json={
        "model": "tts-1", "input": text, "response_format": "pcm", "temperature": 0, "max_new_tokens": FRAMES, **body})
    assert response.status_code == 200, response.text
    return response.content


def test_describe_lists_the_presets_with_their_languages_and_streaming(server):
    async def go():
        async with client(server.wyoming_port) as c:
            await c.write_event(Describe().event())
            return await read(c)

    event = run(go())
    assert Info.is_type(event.type)
    info = Info.from_event(event)
    assert len(info.tts) == 1 and not info.asr
    program = info.tts[0]
    assert program.supports_synthesize_streaming and program.installed
    presets = {v["id"] for v in httpx.get(server.url + "/v1/audio/voices", timeout=TIMEOUT).json()["voices"]}
    assert {v.name for v in program.voices} == presets and "ryan" in presets
    for voice in program.voices:
        assert set(voice.languages) == {"zh", "en", "fr", "de", "it", "ja", "ko", "pt", "ru", "es"}


def test_synthesize_streams_24khz_16bit_mono_in_chunks_equal_to_http(server):
    async def go():
        async with client(server.wyoming_port) as c:
            await c.write_event(Synthesize(TEXT, voice=SynthesizeVoice(name="Ryan")).event())
            start = await read(c)
            assert AudioStart.is_type(start.type)
            fmt = AudioStart.from_event(start)
            assert (fmt.rate, fmt.width, fmt.channels) == (24000, 2, 1)
            chunks = []
            for _ in range(100):
                event = await read(c)
                if AudioStop.is_type(event.type):
                    return chunks
                assert AudioChunk.is_type(event.type), event
                chunks.append(AudioChunk.from_event(event).audio)
            raise AssertionError("no audio-stop")

    chunks = run(go())
    audio = b"".join(chunks)
    assert len(audio) == 2 * FRAMES * FRAME  # 20 frames = 0.8 s
    assert len(chunks) > 1 and len(chunks[0]) == 2 * FRAME  # sent as decoded: the first frame alone
    assert audio == http_pcm(server, TEXT, voice="ryan")
    assert np.abs(np.frombuffer(audio, "<i2")).max() > 0


def test_language_from_the_event(server):
    """A language code (what Home Assistant sends when no voice is named) selects the model's
    language for the default voice: equal to HTTP's, and not the audio of 'auto'."""
    text = "Bonjour tout le monde."
    french, _ = run(synthesize(server.wyoming_port, text, language="fr-FR"))
    auto, _ = run(synthesize(server.wyoming_port, text))
    assert french == http_pcm(server, text, language="french") and french != auto

    async def named_and_language():  # SynthesizeVoice sends one of them; a client may send both
        async with client(server.wyoming_port) as c:
            await c.write_event(Event("synthesize", {"text": text, "voice": {"name": "vivian", "language": "fr"}}))
            return await read_audio(c)

    assert run(named_and_language())[0] == http_pcm(server, text, voice="vivian", language="french")


def test_streaming_text_first_audio_before_stop_and_equal_to_the_whole_text(server):
    async def go():
        async with client(server.wyoming_port) as c:
            await c.write_event(SynthesizeStart(voice=SynthesizeVoice(name="ryan")).event())
            words = TEXT.split(" ")
            for i, word in enumerate(words):
                await c.write_event(SynthesizeChunk(word + ("" if i == len(words) - 1 else " ")).event())
            # No synthesize-stop yet: audio must already come.
            assert AudioStart.is_type((await read(c)).type)
            first = await read(c)
            assert AudioChunk.is_type(first.type)
            # As Home Assistant does: the whole text as a plain synthesize (for servers that do not
            # stream), then the stop. It must not be spoken a second time.
            await c.write_event(Synthesize(TEXT, voice=SynthesizeVoice(name="ryan")).event())
            await c.write_event(SynthesizeStop().event())
            rest, others = await read_audio(c, until=SynthesizeStopped)
            assert [e.type for e in others] == ["audio-stop", "synthesize-stopped"]
            await c.write_event(Ping().event())  # nothing else was queued behind the stop
            assert Pong.is_type((await read(c)).type)
            return first.payload + rest

    audio = run(go())
    want = http_pcm(server, TEXT, voice="ryan", text_mode="streaming")
    got, ref = np.frombuffer(audio, "<i2"), np.frombuffer(want, "<i2")
    assert got.shape == ref.shape == (FRAMES * FRAME,)
    assert np.abs(got.astype(int) - ref).max() <= 2


def test_an_empty_stream_is_stopped_without_audio(server):
    async def go():
        async with client(server.wyoming_port) as c:
            await c.write_event(SynthesizeStart().event())
            await c.write_event(SynthesizeStop().event())
            return await read(c)

    assert SynthesizeStopped.is_type(run(go()).type)


def test_two_concurrent_clients_each_get_their_own_audio(server):
    solo = {name: http_pcm(server, TEXT, voice=name) for name in ("ryan", "serena")}

    async def go():
        return await asyncio.gather(*(synthesize(server.wyoming_port, TEXT, name=name) for name in solo))

    for (audio, others), name in zip(run(go()), solo):
        assert [e.type for e in others] == ["audio-start", "audio-stop"]
        assert audio == solo[name]
    assert solo["ryan"] != solo["serena"]


def test_a_client_that_disconnects_frees_its_row(server):
    assert wait_until(lambda: server.health()["active"] + server.health()["queued"] == 0, 30)

    async def go():
        async with client(server.wyoming_port) as c:
            await c.write_event(SynthesizeStart(voice=SynthesizeVoice(name="aiden")).event())
            await c.write_event(SynthesizeChunk("A stream that is never stopped, ").event())
            assert AudioStart.is_type((await read(c)).type)
            assert AudioChunk.is_type((await read(c)).type)
            # The request now waits for more text, holding its row; then the client goes away.
            assert server.health()["active"] == 1

    run(go())
    assert wait_until(lambda: server.health()["active"] + server.health()["queued"] == 0, 10), server.health()
    audio, _ = run(synthesize(server.wyoming_port, "Still serving.", name="aiden"))
    assert len(audio) == 2 * FRAMES * FRAME


def test_a_refused_synthesize_gets_an_error_then_the_connection_closes(server):
    """As wyoming-piper does: a client that reads until audio-stop (Home Assistant before 2025.7)
    learns from the closed connection that no audio comes."""
    bad = [
        (Event("synthesize", {"voice": {"name": "nobody"}}), "malformed_event"),  # no text
        (Event("synthesize", {"text": "Hi.", "voice": {"name": "nobody"}}), "voice_not_found"),
        (Event("synthesize", {"text": 42}), "invalid_request"),
        (Event("synthesize", {"text": "Hi.", "voice": "ryan"}), "invalid_request"),
        (Event("synthesize", {"text": "Hi.", "voice": {"language": "klingon"}}), "unknown_language"),
        (Event("synthesize", {"text": "   "}), "empty_input"),
        (Event("synthesize", {"text": "x" * 5000}), "too_long"),
    ]

    async def go(event):
        async with client(server.wyoming_port) as c:
            await c.write_event(event)
            answer = await read(c)
            return answer, await c.read_event()

    for event, code in bad:
        answer, after = run(go(event))
        assert Error.is_type(answer.type), (event, answer)
        error = Error.from_event(answer)
        assert error.code == code and error.text and "Traceback" not in error.text, (event, error)
        assert after is None, (event, after)
    assert server.alive()


def test_other_bad_events_get_an_error_and_the_connection_stays_usable(server):
    bad = [
        (Event("synthesize-chunk", {"text": "Hi."}), "no_stream"),
        (Event("synthesize-stop"), "no_stream"),
        (Event("synthesize-chunk"), "malformed_event"),
    ]

    async def go():
        async with client(server.wyoming_port) as c:
            for event, code in bad:
                await c.write_event(event)
                answer = await read(c)
                assert Error.is_type(answer.type), (event, answer)
                error = Error.from_event(answer)
                assert error.code == code and error.text and "Traceback" not in error.text, (event, error)
            await c.write_event(Event("no-such-event", {"x": 1}))  # unknown events are dropped, as the protocol says
            await c.write_event(Ping(text="alive").event())
            assert Pong.from_event(await read(c)).text == "alive"
            # A stream refused at its start: an error, its text dropped, and still a synthesize-stopped.
            await c.write_event(SynthesizeStart(voice=SynthesizeVoice(name="nobody")).event())
            assert Error.from_event(await read(c)).code == "voice_not_found"
            await c.write_event(SynthesizeChunk("Dropped.").event())
            await c.write_event(SynthesizeStart().event())
            assert Error.from_event(await read(c)).code == "stream_open"
            await c.write_event(SynthesizeStop().event())
            assert SynthesizeStopped.is_type((await read(c)).type)
            # A chunk over the limit is refused alone: the stream goes on with the next.
            await c.write_event(SynthesizeStart(voice=SynthesizeVoice(name="eric")).event())
            await c.write_event(SynthesizeChunk("x" * 5000).event())
            assert Error.from_event(await read(c)).code == "too_long"
            await c.write_event(SynthesizeChunk("Fine now.").event())
            await c.write_event(SynthesizeStop().event())
            return await read_audio(c, until=SynthesizeStopped)

    audio, others = run(go())
    assert len(audio) == 2 * FRAMES * FRAME
    assert [e.type for e in others] == ["audio-start", "audio-stop", "synthesize-stopped"]
    assert server.alive()


def wyoming_cli(*args):
    return subprocess.run([sys.executable, "-m", "mlx_qwen3tts.server", *args], capture_output=True, text=True,
                          env=env(), cwd=ROOT, timeout=120)


@pytest.mark.parametrize("args, needs", [
    (("--wyoming-port", "10200", "--wyoming-host", "0.0.0.0", "--no-zeroconf"), "--insecure"),
    (("--no-http",), "--wyoming-port"),
])
def test_unsafe_or_empty_setups_are_refused_before_loading(args, needs):
    result = wyoming_cli("--model", "/nonexistent-model-folder", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needs in lines[0], result.stderr


def test_wyoming_alone_on_a_base_model_with_a_saved_voice(tmp_path, load_tiny):
    """--no-http: only Wyoming. The model has no presets: its default voice and the saved one are listed."""
    from fixture_checkpoints import checkpoint_dir

    from mlx_qwen3tts.voices import save_voice

    tts = load_tiny("base-0b6")
    t = np.arange(24000 * 2) / 24000
    voice = tts.clone((0.3 * np.sin(2 * np.pi * 180 * t) * (1 + np.sin(2 * np.pi * 3 * t))).astype(np.float32),
                      x_vector_only=True, sample_rate=24000)
    (tmp_path / "voices").mkdir()
    save_voice(voice, tmp_path / "voices" / "grandpa.safetensors", tts.config.tts_model_size)
    port = free_port()
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "mlx_qwen3tts.server", "--model",
                             str(checkpoint_dir("base-0b6", tmp_path.parent)), "--no-http", "--wyoming-port", str(port),
                             "--voices-dir", str(tmp_path / "voices"), "--dtype", "float32", "--wyoming-temperature", "0",
                             "--wyoming-max-new-tokens", "6"], stdout=log, stderr=subprocess.STDOUT, env=env(), cwd=ROOT)
    try:
        def listening():
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        assert wait_until(listening, 120, 0.2), (tmp_path / "server.log").read_text()

        async def go():
            async with client(port) as c:
                await c.write_event(Describe().event())
                info = Info.from_event(await read(c))
                await c.write_event(Synthesize("Hello.", voice=SynthesizeVoice(name="grandpa")).event())
                cloned, _ = await read_audio(c)
                await c.write_event(Synthesize("Hello.", voice=SynthesizeVoice(name="default")).event())
                default, _ = await read_audio(c)
                return info, cloned, default

        info, cloned, default = run(go())
        assert [v.name for v in info.tts[0].voices] == ["default", "grandpa"]
        assert len(cloned) == len(default) == 2 * 6 * FRAME and cloned != default
        proc.terminate()  # SIGTERM: Wyoming stops, the engine closes
        assert proc.wait(30) == -15  # ended by the signal, as the HTTP server does
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        log.close()


def test_a_stream_without_text_for_too_long_ends_cleanly(tmp_path, load_tiny):
    """The idle bound (--wyoming-idle-timeout, 300 s; 1 s here) on a Wyoming server in this process,
    over TCP: the text that came is spoken, the stream ends as a stop would end it, with no error
    event (Home Assistant 2025.8+ fails the whole reply on one), then the connection closes."""
    from mlx_qwen3tts.server import wyoming
    from mlx_qwen3tts.server.app import Server
    from mlx_qwen3tts.server.limits import Limits
    from mlx_qwen3tts.server.voice_store import VoiceStore

    tts = load_tiny("custom_voice-0b6")
    limits = Limits()
    engine = tts.engine()
    server = Server(tts, engine, "tiny", VoiceStore(tts.facts, tts.tokenizer, tmp_path, limits), limits)
    service = wyoming.Service(server, {"temperature": 0, "max_new_tokens": FRAMES}, stream_idle_seconds=1.0)
    port = free_port()

    async def go():
        stop = asyncio.Event()
        serving = asyncio.create_task(wyoming.serve(service, "127.0.0.1", port, stop))
        await asyncio.sleep(0.5)
        try:
            async with client(port) as c:
                await c.write_event(SynthesizeStart().event())
                await c.write_event(SynthesizeChunk("Hello there, ").event())
                t0 = time.monotonic()
                audio, others = await read_audio(c, until=SynthesizeStopped)
                assert [e.type for e in others] == ["audio-start", "audio-stop", "synthesize-stopped"]
                assert len(audio) == 2 * FRAMES * FRAME and time.monotonic() - t0 >= 0.9
                assert await c.read_event() is None  # closed
        finally:
            stop.set()
            await serving

    try:
        run(go())
    finally:
        engine.close()


def test_a_reply_in_markdown_with_digits_is_read_as_heard(server):
    """Home Assistant's replies come from LLMs: Wyoming reads Markdown as a listener hears it and says numbers as
    words, so the reply sounds as its plain words would (greedy), emphasis, link target and emoji gone."""
    reply = "**Sure!** It is 3 degrees in [Paris](https://example.com/paris) \U0001F600"
    audio, _ = run(synthesize(server.wyoming_port, reply, name="ryan"))
    assert audio == http_pcm(server, "Sure! It is three degrees in Paris.", voice="ryan")
    assert audio != http_pcm(server, reply, voice="ryan")  # HTTP reads Markdown only when asked


def test_http_normalizes_unless_asked_not_to(server):
    asked = http_pcm(server, "I have 3 apples.", voice="ryan", normalize=True)
    assert asked == http_pcm(server, "I have three apples.", voice="ryan")
    assert asked == http_pcm(server, "I have 3 apples.", voice="ryan")  # the default (issue 56)
    assert asked != http_pcm(server, "I have 3 apples.", voice="ryan", normalize=False)
    refused = httpx.post(server.url + "/v1/audio/speech", timeout=TIMEOUT, json={
        "model": "tts-1", "input": "Hi.", "normalize": "yes"})
    assert refused.status_code == 400 and refused.json()["error"]["param"] == "normalize"


def test_the_server_lexicon_respells_every_whole_text(tmp_path, tmp_path_factory):
    """--lexicon at start: HTTP and Wyoming texts are respelled (greedy: equal to the respelled text); a
    malformed file is one line naming its line, before the model loads."""
    bad = tmp_path / "bad.tsv"
    bad.write_text("GIF\tjif\nno tab here\n", encoding="utf-8")
    refused = wyoming_cli("--lexicon", str(bad))
    assert refused.returncode == 2 and "bad.tsv" in refused.stderr and "line 2" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    words = tmp_path / "words.tsv"
    words.write_text("GIF\tjif\n", encoding="utf-8")
    from fixture_checkpoints import checkpoint_dir

    (tmp_path / "voices").mkdir()
    proc = ServerProcess(checkpoint_dir("custom_voice-0b6", tmp_path_factory.getbasetemp()), tmp_path / "voices",
                         tmp_path / "server.log", "--lexicon", str(words), "--wyoming-port", str(free_port()),
                         "--wyoming-temperature", "0", "--wyoming-max-new-tokens", str(FRAMES))
    try:
        proc.wyoming_port = int(proc.proc.args[proc.proc.args.index("--wyoming-port") + 1])
        said = http_pcm(proc, "A GIF, please.", voice="ryan")
        assert said == http_pcm(proc, "A jif, please.", voice="ryan") != http_pcm(proc, "A gif, please.", voice="ryan")
        audio, _ = run(synthesize(proc.wyoming_port, "A GIF, please.", name="ryan"))
        assert audio == said
    finally:
        proc.stop()


def test_wyoming_no_normalize_reads_every_wyoming_text_as_written(tmp_path, tmp_path_factory):
    """Wyoming events carry no settings: --wyoming-no-normalize turns normalization off for all of them (greedy: the
    audio is HTTP's with normalize false, not HTTP's default)."""
    from fixture_checkpoints import checkpoint_dir

    (tmp_path / "voices").mkdir()
    proc = ServerProcess(checkpoint_dir("custom_voice-0b6", tmp_path_factory.getbasetemp()), tmp_path / "voices",
                         tmp_path / "server.log", "--wyoming-no-normalize", "--wyoming-port", str(free_port()),
                         "--wyoming-temperature", "0", "--wyoming-max-new-tokens", str(FRAMES))
    try:
        proc.wyoming_port = int(proc.proc.args[proc.proc.args.index("--wyoming-port") + 1])
        audio, _ = run(synthesize(proc.wyoming_port, "I have 3 apples.", name="ryan"))
        assert audio == http_pcm(proc, "I have 3 apples.", voice="ryan", normalize=False)
        assert audio != http_pcm(proc, "I have 3 apples.", voice="ryan")
    finally:
        proc.stop()


LONG = ("The first sentence sets the scene for a short story about a lighthouse keeper. "
        "Every evening she climbed the hundred steps, lit the lamp and watched the ships go by. "
        "One night a storm rolled in from the west, and the light flickered twice before it held. "
        "In the morning a small boat lay safe in the harbour, its crew asleep on the deck.")


def test_a_long_text_is_spoken_in_the_pieces_generate_cuts_it_into(server):
    """One text path: a whole text over 300 characters is cut at sentence ends as `generate` cuts it, over
    HTTP and Wyoming alike, the pieces' audio joined with generate's short faded pauses (greedy: each piece
    as it sounds alone)."""
    from mlx_qwen3tts.audio.chunks import join_audio
    from mlx_qwen3tts.text import split_sentences

    pieces = split_sentences(LONG, 300)
    assert len(pieces) == 2 and len(LONG) > 300
    whole = http_pcm(server, LONG, voice="ryan", max_new_tokens=None)
    alone = [np.frombuffer(http_pcm(server, p, voice="ryan", max_new_tokens=None), "<i2") / 32768.0 for p in pieces]
    joined = join_audio(alone, 24000)
    got = np.frombuffer(whole, "<i2") / 32768.0
    assert got.shape == joined.shape and got.shape[0] > sum(a.shape[0] for a in alone)  # a pause between them
    np.testing.assert_allclose(got, joined, atol=2 / 32768)
    audio, _ = run(synthesize(server.wyoming_port, LONG, name="ryan"))
    # Wyoming's 20-frame cap ends the first piece early (its last 5 ms faded out): the same audio before that
    head = 2 * (FRAMES * FRAME - 120)
    assert len(audio) == 2 * FRAMES * FRAME and audio[:head] == whole[:head]
