"""The engine: concurrent requests on one model, each equal to running it alone."""

import gc
import threading
import time
from dataclasses import replace

import numpy as np
import pytest

from mlx_qwen3tts.engine import Engine, EngineFull, TextFeed
from mlx_qwen3tts.prompt import Voice


def Req(text, deltas, voice, **kw):
    kw.setdefault("temperature", 0)
    if "max_frames" in kw:
        kw["max_tokens"] = kw.pop("max_frames")
    return TTS_.request(text, deltas, speaker=voice.speaker, **kw)


TTS_ = None


@pytest.fixture(scope="module")
def tts(load_tiny):
    global TTS_
    TTS_ = load_tiny("custom_voice-1b7")
    return TTS_


def collect(handle):
    chunks = list(handle)
    codes = np.concatenate([c.codes for c in chunks]) if chunks else np.zeros((0, 16), np.int32)
    audio = np.concatenate([c.samples for c in chunks]) if chunks else np.zeros((0,), np.float32)
    return codes, audio


def solo(tts, req, deltas=None):
    if deltas is not None:
        req = replace(req, deltas=iter(deltas))
    chunks = list(tts.request_chunks(req))
    return np.concatenate([c.codes for c in chunks]), np.concatenate([c.samples for c in chunks])


def test_requests_equal_solo_runs(tts):
    reqs = [Req("Hello world.", None, Voice(speaker="ryan"), max_frames=9),
            Req("今天天气很好。", None, Voice(speaker="vivian"), text_mode="non-streaming", max_frames=7),
            Req(None, ["A streamed ", "sentence."], Voice(speaker="dylan"), max_frames=8)]
    with Engine(tts, max_active=4) as engine:
        handles = [engine.submit(r) for r in reqs]
        outs = [collect(h) for h in handles]
    for req, (codes, audio) in zip(reqs, outs):
        want_codes, want_audio = solo(tts, req, ["A streamed ", "sentence."] if req.deltas else None)
        np.testing.assert_array_equal(codes, want_codes)
        assert np.abs(audio - want_audio).max() <= 1e-4


def test_full_engine_refuses_at_once(tts):
    feed = TextFeed()  # never ends: keeps its request busy
    with Engine(tts, max_active=1, max_queue=1) as engine:
        busy = engine.submit(Req(None, feed, Voice(speaker="ryan"), max_frames=50))
        engine.submit(Req("Queued.", None, Voice(speaker="ryan"), max_frames=2))
        start = time.perf_counter()
        with pytest.raises(EngineFull):
            engine.submit(Req("Refused.", None, Voice(speaker="ryan"), max_frames=2))
        assert time.perf_counter() - start < 0.5
        busy.cancel()


def test_failing_text_iterator_fails_alone(tts):
    def broken():
        yield "Half a sen"
        raise RuntimeError("the writer died")

    good = Req("Hello world.", None, Voice(speaker="ryan"), max_frames=6)
    with Engine(tts) as engine:
        bad = engine.submit(Req(None, broken(), Voice(speaker="vivian"), max_frames=10))
        ok = engine.submit(good)
        with pytest.raises(RuntimeError, match="the writer died"):
            collect(bad)
        codes, _ = collect(ok)
    np.testing.assert_array_equal(codes, solo(tts, good)[0])


def test_cancel_and_dropped_handle_end_the_request(tts):
    feed = TextFeed()
    feed.append("Words that keep ")
    with Engine(tts) as engine:
        handle = engine.submit(Req(None, feed, Voice(speaker="ryan"), max_frames=40))
        first = next(iter(handle))
        assert first.frames == 1
        handle.cancel()
        assert list(handle) == []
        dropped = engine.submit(Req(None, TextFeed(), Voice(speaker="ryan"), max_frames=40))
        del dropped
        gc.collect()
        deadline = time.perf_counter() + 5
        while engine.stats()["active"] + engine.stats()["queued"] and time.perf_counter() < deadline:
            time.sleep(0.01)
        assert engine.stats() == {"active": 0, "queued": 0}
