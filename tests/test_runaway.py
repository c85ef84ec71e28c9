"""The runaway guard (loop/runaway.py) and seeds that hold for split texts (seeds.derived_seed), issue 49.

Random weights never end their speech; a tiny checkpoint with its codec head zeroed ("silent") says codebook-0
code 0 for ever (greedy), a held code: the shape of the official model's silent runaways. Each rule is shown
on it or on the plain tiny checkpoint, through each front end; the "duration" bound is at least twice a slow
reading of a paragraph of prose in each language (tests/fixtures/runaway).
"""

import base64
import json
import shutil
from pathlib import Path

import httpx
import numpy as np
import pytest
from click.testing import CliRunner

from fixture_checkpoints import FIXTURES, checkpoint_dir
from mlx_qwen3tts.loop.decode_loop import frame_budget

# Imported where used, so that each test fails on its own where they are missing (8ffc7d9).
def guard_module():
    from mlx_qwen3tts.loop import runaway as module

    return module


def seeds_module():
    from mlx_qwen3tts import seeds

    return seeds

SHORT = "Hello there."
# Two pieces (the first 279 characters, the second 39), each sampled with its own seed.
SPLIT = " ".join(["Alpha bravo charlie delta echo foxtrot."] * 8)
TIMEOUT = 300


def rules(codes, tokens=10, language="english", bounded=False):
    guard = guard_module().Runaway(lambda: tokens, language, bounded)
    return {guard.see(int(c)) for c in codes} - {None}


# -- the rules ---------------------------------------------------------------------------------------------

def test_each_rule_fires_on_its_shape():
    g = guard_module()
    SILENCE_FRAMES, LOOP_FRAMES, Runaway, speech_bound = g.SILENCE_FRAMES, g.LOOP_FRAMES, g.Runaway, g.speech_bound
    rng = np.random.default_rng(0)
    speech = rng.integers(0, 2048, 400)
    assert rules(speech) == set()
    assert rules(speech, tokens=10, bounded=True) == {"duration"}  # 400 frames for 10 tokens
    bound = speech_bound(10, "english")
    guard = Runaway(lambda: 10, "english")
    fired = [guard.see(int(c)) for c in speech[:bound + 1]]
    assert fired[bound - 1] is None and fired[bound] == "duration"
    held = np.concatenate([speech[:10], np.full(SILENCE_FRAMES, 7)])
    assert rules(held, tokens=10) == {"silence"}
    assert rules(held[:-1], tokens=10) == set()
    assert rules(np.concatenate([speech[:5], np.full(SILENCE_FRAMES, 7)]), tokens=10) == set()  # text not consumed
    looped = np.concatenate([speech[:20], np.tile([3, 9, 27], LOOP_FRAMES // 3 + 1)])
    assert rules(looped, tokens=1000) == {"loop"}
    assert rules(np.concatenate([speech[:20], np.tile(speech[20:40], 3)]), tokens=1000) == {"loop"}  # 20-frame period


def test_the_bound_is_tighter_than_the_frame_budget():
    speech_bound, seconds_per_token = guard_module().speech_bound, guard_module().seconds_per_token
    for language in ("english", "chinese", "japanese", "german", "korean", "auto"):
        for tokens in (1, 10, 100, 1000):
            assert speech_bound(tokens, language) < frame_budget(tokens)
    assert seconds_per_token("auto") == max(seconds_per_token(x) for x in ("english", "chinese", "japanese"))


RUNAWAY_FIXTURES = FIXTURES / "runaway"


def slow_readings(tok):
    """(language, text tokens, seconds) of each paragraph of prose in paragraphs.json read slowly: the longer of
    espeak-ng's reading at its slowest, -s 80 (slow_readings.json; measured again where espeak-ng is installed)
    and 80 words a minute by word count; Chinese and Japanese at 2.5 characters a second (punctuation left out)."""
    import unicodedata

    paragraphs = json.loads((RUNAWAY_FIXTURES / "paragraphs.json").read_text(encoding="utf-8"))
    measured = json.loads((RUNAWAY_FIXTURES / "slow_readings.json").read_text(encoding="utf-8"))["seconds"]
    if shutil.which("espeak-ng"):
        import importlib.util

        spec = importlib.util.spec_from_file_location("measure", RUNAWAY_FIXTURES / "measure_slow_readings.py")
        measure = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(measure)
        measured = {language: measure.seconds(voice, paragraphs["paragraphs"][language])
                    for language, voice in paragraphs["espeak_voices"].items()}
    for language, text in paragraphs["paragraphs"].items():
        if language in ("chinese", "japanese"):
            seconds = sum(not c.isspace() and not unicodedata.category(c).startswith("P") for c in text) / 2.5
        else:
            seconds = max(measured[language], len(text.split()) / 80 * 60)
        yield language, len(tok.encode(text)), seconds


@pytest.fixture(scope="module")
def tok(tmp_path_factory):
    import tarfile

    from mlx_qwen3tts.tokenizer import TextTokenizer

    folder = tmp_path_factory.mktemp("tokenizer")
    with tarfile.open(FIXTURES / "tokenizer" / "tokenizer.tar.xz") as tar:
        tar.extractall(folder, filter="data")
    config = json.loads((FIXTURES / "tokenizer" / "corpus.json").read_text(encoding="utf-8"))["config_json"]
    (folder / "config.json").write_text(json.dumps(config))
    return TextTokenizer.from_folder(folder)


def test_the_duration_bound_is_twice_a_slow_reading_in_every_language(tok):
    from mlx_qwen3tts.languages import LANGUAGE_CODES

    speech_bound = guard_module().speech_bound
    readings = list(slow_readings(tok))
    assert {language for language, _, _ in readings} == set(LANGUAGE_CODES) - {"auto"}
    for language, tokens, seconds in readings:
        for asked in (language, "auto"):  # "auto": the language not told
            bound = speech_bound(tokens, asked) / 12.5
            assert bound >= 2 * seconds, (language, asked, tokens, seconds, bound)
        # a third of the paragraph: the bound's lead does not carry a short text
        assert speech_bound(tokens // 3, language) / 12.5 >= 2 * seconds / 3, (language, tokens, seconds)
        assert speech_bound(tokens, language) < frame_budget(tokens)  # the default cap never cuts before the rule


def test_derived_seeds():
    derived_seed, piece_seed, retry_seed = (getattr(seeds_module(), n) for n in ("derived_seed", "piece_seed",
                                                                                  "retry_seed"))
    assert piece_seed(5, 0) == 5 and piece_seed(None, 3) is None
    seeds = {piece_seed(5, i) for i in range(50)} | {retry_seed(5)}
    assert len(seeds) == 51 and piece_seed(5, 1) == derived_seed(5, 1) and retry_seed(5) == derived_seed(5, 0, 1)
    from mlx_qwen3tts.longform import segment_seed

    assert segment_seed(5, 3) == derived_seed(5, 3)  # long-form segments: the same rule


# -- a checkpoint made to run away ---------------------------------------------------------------------------

def silent_checkpoint(root: Path) -> Path:
    """custom_voice-0b6 with its codec head zeroed: every codebook-0 logit 0, so greedy says code 0 for ever."""
    import mlx.core as mx

    folder = root / "silent-custom_voice-0b6"
    if not (folder / "model.safetensors").exists():
        shutil.copytree(checkpoint_dir("custom_voice-0b6", root), folder, dirs_exist_ok=True)
        weights = mx.load(str(folder / "model.safetensors"))
        weights["talker.codec_head.weight"] = mx.zeros_like(weights["talker.codec_head.weight"])
        mx.save_safetensors(str(folder / "model.safetensors"), weights)
    return folder


@pytest.fixture(scope="module")
def silent(tmp_path_factory):
    import mlx.core as mx

    import mlx_qwen3tts

    return mlx_qwen3tts.load(str(silent_checkpoint(tmp_path_factory.getbasetemp())), dtype=mx.float32)


@pytest.fixture(scope="module")
def tiny(load_tiny):
    return load_tiny("custom_voice-0b6")


def test_python_generate_ends_each_rule_and_reports_it(silent):
    held = silent.generate(SHORT, temperature=0, max_tokens=400, decode=False)
    assert held.runaway == "silence" and not held.retried
    assert (held.codes[:, 0] == 0).all() and held.codes.shape[0] < 60  # caught early, not at 400
    long_text = "One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen."
    looped = silent.generate(long_text, temperature=0, max_tokens=400, decode=False)
    assert looped.runaway == "loop" and looped.codes.shape[0] == guard_module().LOOP_FRAMES
    off = silent.generate(SHORT, temperature=0, max_tokens=80, decode=False, guard=False)
    assert off.runaway is None and off.codes.shape[0] == 80


def test_python_whole_audio_is_spoken_again_once_and_reported(tiny):
    result = tiny.generate(SHORT, seed=3, language="english")
    n = len(tiny.tokenizer.encode(SHORT))
    assert result.retried and result.runaway == "duration"  # random weights: it runs away again
    assert result.codes.shape[0] == guard_module().speech_bound(n, "english") + 1 < frame_budget(n)
    again = tiny.generate(SHORT, seed=3, language="english")
    np.testing.assert_array_equal(result.audio, again.audio)
    greedy = tiny.generate(SHORT, temperature=0, language="english", decode=False)
    assert greedy.runaway == "duration" and not greedy.retried  # greedy would say the same again


def test_python_batch_items_are_spoken_again(tiny):
    results = tiny.generate_batch([SHORT, "Alpha bravo."], seed=[1, 2], language="english", decode=False)
    assert all(r.retried and r.runaway == "duration" for r in results)


def test_python_stream_ends_at_detection_and_says_so(silent):
    stream = silent.stream(SHORT, temperature=0, max_tokens=400)
    chunks = list(stream)
    assert stream.runaway == "silence" and stream.frames < 60 and chunks[-1].is_final


# Three pieces (split at 300 characters), each of which the silent checkpoint runs away in.
# Words, not digits: normalization (on by default) would read "18" longer and cut the reply in four.
REPLY = " ".join(f"Sentence {w} of a long streamed reply." for w in "alpha bravo charlie delta echo foxtrot golf hotel "
                 "india juliett kilo lima mike november oscar papa quebec romeo".split())


def test_python_stream_text_speaks_the_pieces_after_a_runaway(silent):
    from mlx_qwen3tts.text import split_sentences

    pieces = split_sentences(REPLY)
    assert len(pieces) == 3
    stream = silent.stream_text((word + " " for word in REPLY.split(" ")), temperature=0)
    chunks = list(stream)
    said = [c.said for c in chunks if c.said is not None]
    # every piece spoken, each ended by the guard (what of its text had not been read by then is not spoken)
    assert len(said) == len(pieces) and all(piece.startswith(s) for s, piece in zip(said, pieces))
    assert stream.runaway in ("silence", "loop")
    frames = sum(c.frames for c in chunks)
    assert frames >= len(pieces) * guard_module().SILENCE_FRAMES, frames


def test_seeded_split_text_repeats_in_python(tiny):
    plan = tiny.plan(SPLIT, seed=11)
    assert len(plan.pieces) == 2
    first = tiny.generate(SPLIT, seed=11, guard=False, decode=False)
    second = tiny.generate(SPLIT, seed=11, guard=False, decode=False)
    np.testing.assert_array_equal(first.codes, second.codes)
    pieces = [p.seed for p in plan.run(lambda: 0)]
    assert pieces == [11, seeds_module().derived_seed(11, 1)]


# -- the command line ----------------------------------------------------------------------------------------

def cli(*args):
    from mlx_qwen3tts.cli.generate import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def test_cli_whole_and_stream_warn_in_one_line(silent, tmp_path):
    for extra in ([], ["--stream"]):
        code, out = cli("--model", silent.path, "--text", SHORT, "--temperature", "0", "--max-tokens", "400",
                        "-o", tmp_path / f"a{len(extra)}.wav", "-q", *extra)
        assert code == 0, out
        lines = [line for line in out.splitlines() if "ran away" in line]
        assert len(lines) == 1 and lines[0].startswith("warning: the speech ran away (silence"), out
    code, out = cli("--model", silent.path, "--text", SHORT, "--temperature", "0", "--max-tokens", "60",
                    "-o", tmp_path / "off.wav", "-q", "--no-guard")
    assert code == 0 and "ran away" not in out, out


def test_cli_retries_whole_audio_and_seeded_split_repeats(tiny, tmp_path):
    code, out = cli("--model", tiny.path, "--text", SHORT, "--seed", "4", "--language", "english", "-q",
                    "--codes-output", tmp_path / "r.npy")
    assert code == 0 and "spoken again with another seed, it ran away again" in out, out
    for name in ("a", "b"):
        code, out = cli("--model", tiny.path, "--text", SPLIT, "--seed", "11", "--no-guard", "-q",
                        "--codes-output", tmp_path / f"{name}.npy")
        assert code == 0, out
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), np.load(tmp_path / "b.npy"))


# -- the server: HTTP, SSE, WebSocket, Wyoming, /metrics -----------------------------------------------------

@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    pytest.importorskip("uvicorn")
    from server_harness import API_KEY, ServerProcess, free_port, shared_server  # noqa: F401

    root = tmp_path_factory.getbasetemp()
    folder = root / "server-silent"
    (folder / "voices").mkdir(parents=True, exist_ok=True)
    port = free_port()
    silent_server = ServerProcess(silent_checkpoint(root), folder / "voices", folder / "server.log",
                                  "--wyoming-port", str(port), "--wyoming-temperature", "0")
    silent_server.wyoming_port = port
    yield silent_server, shared_server("custom_voice-0b6", root)
    silent_server.stop()


def post(server, **body):
    return httpx.post(server.url + "/v1/audio/speech", timeout=TIMEOUT,
                      json={"model": "tts-1", "response_format": "pcm", **body})


def metric(server, name):
    text = httpx.get(server.url + "/metrics", timeout=10).text
    return {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines()
            if line.startswith(name) and not line.startswith("#")}


def test_http_whole_retried_stream_ended_and_counted(servers):
    silent, tiny = servers
    whole = post(tiny, input=SHORT, seed=3, language="english")
    assert whole.status_code == 200 and "it ran away again" in whole.headers["x-notice"]
    assert metric(tiny, "mlx_qwen3tts_runaway_retries_total")["mlx_qwen3tts_runaway_retries_total"] >= 1
    sse = post(silent, input=SHORT, temperature=0, max_new_tokens=400, stream_format="sse")
    events = [json.loads(line[6:]) for line in sse.text.splitlines() if line.startswith("data: ")]
    kinds = [e["type"] for e in events]
    assert kinds[-2:] == ["speech.runaway", "speech.audio.done"] and "(silence" in events[-2]["message"]
    assert events[-1]["usage"]["output_tokens"] < 60
    counted = metric(silent, "mlx_qwen3tts_runaways_total")
    assert counted['mlx_qwen3tts_runaways_total{rule="silence"}'] >= 1
    off = post(silent, input=SHORT, temperature=0, max_new_tokens=60, guard=False)
    assert off.status_code == 200 and "x-notice" not in off.headers and len(off.content) == 60 * 1920 * 2
    batch = httpx.post(silent.url + "/v1/audio/speech/batch", timeout=TIMEOUT, json={"items": [
        {"input": SHORT, "temperature": 0, "max_new_tokens": 400, "response_format": "pcm"}]})
    assert batch.status_code == 200 and "ran away (silence" in batch.json()["data"][0]["notices"][-1]



def test_sse_tells_each_piece_that_ran_away_before_the_next_pieces_audio(servers):
    """A streamed reply of three pieces, each of which runs away: every piece is spoken, and a speech.runaway
    event follows each piece's audio, before the next piece's (issue 57: it came once, at the end)."""
    silent, _ = servers
    sse = post(silent, input=REPLY, temperature=0, stream_format="sse", language="english")
    assert sse.status_code == 200, sse.text
    events = [json.loads(line[6:]) for line in sse.text.splitlines() if line.startswith("data: ")]
    kinds = [e["type"] for e in events]
    told = [i for i, kind in enumerate(kinds) if kind == "speech.runaway"]
    assert len(told) == 3 and all("ran away" in events[i]["message"] for i in told), kinds
    between = [sum(len(base64.b64decode(e["audio"])) // 2 for e in events[a + 1:b] if e["type"] == "speech.audio.delta")
               for a, b in zip(told, told[1:])]
    assert min(between) >= guard_module().SILENCE_FRAMES * 1920, between  # the next piece spoken after each notice
    assert kinds[-1] == "speech.audio.done"

def test_http_seeded_split_text_repeats(servers):
    _, tiny = servers
    first, second = (post(tiny, input=SPLIT, seed=11, guard=False) for _ in range(2))
    assert first.status_code == second.status_code == 200
    assert first.content == second.content and len(first.content) > 0


def ws_say(server, text, **session):
    ws_client = pytest.importorskip("websockets.sync.client")
    url = server.url.replace("http://", "ws://") + "/v1/audio/speech/stream"
    audio, events = [], []
    with ws_client.connect(url, open_timeout=TIMEOUT) as ws:
        json.loads(ws.recv(TIMEOUT))  # session.created
        ws.send(json.dumps({"type": "session.update", "session": {"response_format": "pcm", **session}}))
        json.loads(ws.recv(TIMEOUT))
        ws.send(json.dumps({"type": "input_text.append", "text": text}))
        ws.send(json.dumps({"type": "input_text.end"}))
        for _ in range(5000):
            event = json.loads(ws.recv(TIMEOUT))
            events.append(event)
            if event["type"] == "speech.audio.delta":
                audio.append(base64.b64decode(event["audio"]))
            if event["type"] in ("speech.audio.done", "error"):
                break
    return b"".join(audio), events


def test_websocket_says_runaway_and_seeded_split_repeats(servers):
    silent, tiny = servers
    _, events = ws_say(silent, SHORT, temperature=0, max_new_tokens=400)
    assert [e["type"] for e in events][-2:] == ["speech.runaway", "speech.audio.done"], events[-3:]
    first, _ = ws_say(tiny, SPLIT, seed=11, guard=False)
    second, _ = ws_say(tiny, SPLIT, seed=11, guard=False)
    assert first == second and len(first) > 0


def test_wyoming_sends_an_error_event_and_stops(servers):
    import asyncio

    pytest.importorskip("wyoming")
    from wyoming.audio import AudioStop
    from wyoming.client import AsyncTcpClient
    from wyoming.error import Error
    from wyoming.tts import Synthesize

    silent, _ = servers

    async def go():
        async with AsyncTcpClient("127.0.0.1", silent.wyoming_port) as c:
            await c.write_event(Synthesize(SHORT).event())
            seen = []
            for _ in range(2000):
                event = await c.read_event()
                seen.append(event)
                if AudioStop.is_type(event.type):
                    return seen
        raise AssertionError("no audio-stop")

    events = asyncio.run(asyncio.wait_for(go(), TIMEOUT))
    errors = [Error.from_event(e) for e in events if Error.is_type(e.type)]
    assert len(errors) == 1 and errors[0].code == "runaway" and "silence" in errors[0].text


def test_wyoming_streamed_reply_speaks_the_pieces_after_a_runaway(servers):
    """Home Assistant's streaming: synthesize-chunks of a reply of three pieces, each of which runs away; every
    piece is spoken (the guard ends each) and an error event tells of each as it ends, before the next piece's
    audio; then audio-stop and synthesize-stopped."""
    import asyncio

    pytest.importorskip("wyoming")
    from wyoming.audio import AudioChunk, AudioStop
    from wyoming.client import AsyncTcpClient
    from wyoming.error import Error
    from wyoming.tts import SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeStopped

    silent, _ = servers

    async def go():
        async with AsyncTcpClient("127.0.0.1", silent.wyoming_port) as c:
            await c.write_event(SynthesizeStart().event())
            for word in REPLY.split(" "):
                await c.write_event(SynthesizeChunk(word + " ").event())
            await c.write_event(SynthesizeStop().event())
            seen = []
            for _ in range(5000):
                event = await c.read_event()
                seen.append(event)
                if SynthesizeStopped.is_type(event.type):
                    return seen
        raise AssertionError("no synthesize-stopped")

    events = asyncio.run(asyncio.wait_for(go(), TIMEOUT))
    samples = sum(len(AudioChunk.from_event(e).audio) // 2 for e in events if AudioChunk.is_type(e.type))
    errors = [Error.from_event(e) for e in events if Error.is_type(e.type)]
    assert len(errors) == 3 and all(e.code == "runaway" for e in errors), errors
    assert samples >= 3 * guard_module().SILENCE_FRAMES * 1920, samples // 1920
    kinds = ["audio" if AudioChunk.is_type(e.type) else e.type for e in events]
    first, second = [i for i, kind in enumerate(kinds) if kind == "error"][:2]
    piece = sum(len(AudioChunk.from_event(e).audio) // 2 for e in events[first:second] if AudioChunk.is_type(e.type))
    assert piece >= guard_module().SILENCE_FRAMES * 1920, kinds  # the next piece's audio after the first notice
    assert [e.type for e in events if AudioStop.is_type(e.type) or Error.is_type(e.type)][-2:] == ["error",
                                                                                                   "audio-stop"]
