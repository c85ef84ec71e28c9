"""The engine: concurrent requests on one model, each equal to running it alone."""

import gc
import math
import threading
import time
from dataclasses import replace
from pathlib import Path

import mlx.core as mx
import numpy as np
import pytest

from mlx_qwen3tts.loop.engine import EngineFull, TextFeed

CLONE = Path(__file__).resolve().parent / "fixtures" / "clone"
REF_TEXT = "Okay. Yeah. I resent you. I love you."


@pytest.fixture(scope="module")
def custom(load_tiny):
    return load_tiny("custom_voice-1b7")


@pytest.fixture(scope="module")
def base(load_tiny):
    return load_tiny("base-0b6")


def collect(handle):
    chunks = list(handle)
    codes = np.concatenate([c.codes for c in chunks]) if chunks else np.zeros((0, 16), np.int32)
    audio = np.concatenate([c.samples for c in chunks]) if chunks else np.zeros((0,), np.float32)
    return codes, audio


def solo(tts, request, deltas=None):
    """The request run alone through the TTS API (deltas: its text pieces, all at once)."""
    if deltas is not None:
        request = replace(request, deltas=iter(deltas))
    chunks = list(tts.request_chunks(request))
    if not chunks:
        return np.zeros((0, 16), np.int32), np.zeros((0,), np.float32)
    return np.concatenate([c.codes for c in chunks]), np.concatenate([c.samples for c in chunks])


def assert_same(got, want):
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1].shape == want[1].shape and (got[1].size == 0 or np.abs(got[1] - want[1]).max() <= 1e-4)


def stalled(feed, pieces, started, pause=0.3):
    """Writes `pieces` into `feed` once `started` is set, pausing between them (an LLM that stalls)."""
    def write():
        started.wait(30)
        for piece in pieces:
            time.sleep(pause)
            feed.append(piece)
        feed.end()

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def test_staggered_mixed_voices_with_stalls_and_cancels_equal_solo_runs(base):
    """Base model: default voice, x-vector clone, ICL clone, text streamed with stalls; arrivals
    staggered while others run; one cancelled mid-way. Greedy: each equals its solo run."""
    xvec = base.clone(CLONE / "ref_24k_short.wav", x_vector_only=True)
    icl = base.clone(CLONE / "ref_24k_short.wav", REF_TEXT)
    pieces = ["The writer ", "pauses, then ", "goes on."]
    req = lambda text=None, deltas=None, **kw: base.request(text, deltas, temperature=0, **kw)  # noqa: E731
    first = [req("Hello there, a default voice.", max_tokens=14),
             req("A cloned x-vector voice speaks.", voice=xvec, max_tokens=12, chunk_frames=3)]
    feeds = [TextFeed(), TextFeed()]
    later = [req("In context cloning, second wave.", voice=icl, max_tokens=10, text_mode="non-streaming"),
             req(None, feeds[0], voice=xvec, max_tokens=12),
             req(None, feeds[1], max_tokens=12)]
    victim = req("This one is cancelled.", max_tokens=40)
    started = threading.Event()
    with base.engine(max_active=8) as engine:
        handles = [engine.submit(r) for r in first]
        doomed = engine.submit(victim)
        next(iter(handles[0]))  # the first wave is running: the second joins a busy batch
        got_first = [list(handles[0])]
        writers = [stalled(feeds[0], pieces, started), stalled(feeds[1], pieces, started, 0.15)]
        handles += [engine.submit(r) for r in later]
        started.set()
        doomed_chunks = iter(doomed)
        next(doomed_chunks)
        doomed.cancel()
        assert list(doomed_chunks) == []  # iteration ends at once
        outs = [collect(h) for h in handles[1:]]
        for w in writers:
            w.join()
    chunks0 = [c for c in got_first[0]]
    # handle 0: the chunk taken before plus the rest
    want = solo(base, first[0])
    got0 = np.concatenate([c.codes for c in chunks0])
    np.testing.assert_array_equal(got0, want[0][-got0.shape[0]:])
    wants = [solo(base, first[1]), solo(base, later[0]), solo(base, later[1], pieces), solo(base, later[2], pieces)]
    for got, want in zip(outs, wants):
        assert_same(got, want)


def test_preset_speakers_instruct_and_text_modes_in_one_batch_equal_solo(custom):
    req = lambda text=None, deltas=None, **kw: custom.request(text, deltas, temperature=0, **kw)  # noqa: E731
    pieces = ["A streamed ", "sentence, ", "in pieces."]
    reqs = [req("Hello world.", speaker="ryan", max_tokens=9),
            req("今天天气很好。", speaker="vivian", text_mode="non-streaming", max_tokens=7),
            req("Whisper this, please.", speaker="dylan", instruct="Speak in a whisper.", max_tokens=8),
            req(None, iter(pieces), speaker="ryan", max_tokens=10, first_chunk_frames=2)]
    with custom.engine(max_active=4) as engine:
        handles = [engine.submit(r) for r in reqs]
        outs = [collect(h) for h in handles]
    for r, got in zip(reqs, outs):
        assert_same(got, solo(custom, r, pieces if r.deltas is not None else None))


def test_seeded_requests_repeat_alone_and_batched(custom):
    """Sampled rows draw from their own keys: a seeded request gives the same codes alone and in
    a batch of other sampled requests, and another seed gives other codes."""
    req = lambda seed, text="A sampled sentence.", **kw: custom.request(text, speaker="ryan", seed=seed,  # noqa: E731
                                                                        max_tokens=8, **kw)
    alone = solo(custom, req(11))
    with custom.engine(max_active=4) as engine:
        handles = [engine.submit(req(5, "Other words here.", temperature=1.2, top_k=7)),
                   engine.submit(req(11)), engine.submit(req(12)),
                   engine.submit(req(3, "Greedy row.", temperature=0))]
        outs = [collect(h) for h in handles]
    np.testing.assert_array_equal(outs[1][0], alone[0])
    assert not np.array_equal(outs[2][0], alone[0])
    np.testing.assert_array_equal(custom.generate("A sampled sentence.", speaker="ryan", seed=11, max_tokens=8,
                                                  decode=False).codes, alone[0])


def test_prefills_cut_into_pieces_equal_solo_runs(custom):
    """A three-position prefill budget: the joining prompts (tens of positions) are processed in many
    pieces between the running rows' frames, and several share a step; greedy, each equals its solo run."""
    req = lambda text=None, deltas=None, **kw: custom.request(text, deltas, temperature=0, **kw)  # noqa: E731
    pieces = ["A streamed ", "sentence, ", "in pieces."]
    running = req("The first one keeps on talking for a while.", speaker="ryan", max_tokens=30, chunk_frames=1)
    joining = [req("Hello world, joining late.", speaker="vivian", max_tokens=9),
               req("今天天气很好。", speaker="serena", text_mode="non-streaming", max_tokens=7),
               req("Whisper this, please.", speaker="dylan", instruct="Speak in a whisper.", max_tokens=8),
               req(None, iter(pieces), speaker="ryan", max_tokens=10, first_chunk_frames=2)]
    with custom.engine(max_active=8, prefill_budget=3) as engine:
        first = engine.submit(running)
        chunks = iter(first)
        taken = [next(chunks)]  # it is speaking: the others join a running batch
        handles = [engine.submit(r) for r in joining]
        outs = [collect(h) for h in handles]
        taken += list(chunks)
    assert_same((np.concatenate([c.codes for c in taken]), np.concatenate([c.samples for c in taken])),
                solo(custom, running))
    for r, got in zip(joining, outs):
        assert_same(got, solo(custom, r, pieces if r.deltas is not None else None))


@pytest.mark.parametrize("cpu", [True, False], ids=["cpu", "gpu-paths"])
def test_whole_prompts_go_in_chunks_on_the_cpu(custom, cpu, monkeypatch):
    """With no row running a prompt is prefilled whole: on the CPU paths in passes of at most
    `PREFILL_CHUNK` positions (several prompts together too), on Metal/CUDA paths in one pass; greedy,
    the frames equal those of one pass."""
    from mlx_qwen3tts import backend
    from mlx_qwen3tts.loop.rows import Rows
    from mlx_qwen3tts.model.talker import TalkerModel

    texts = ["A prompt of a few tens of positions, cut in passes.", "Another, shorter one."]
    kw = dict(speaker=["ryan", "vivian"], temperature=0, max_tokens=6, decode=False)
    monkeypatch.setattr(backend, "CPU_PATHS", True)
    monkeypatch.setattr(Rows, "PREFILL_CHUNK", None)
    one_pass = [custom.generate(texts[0], speaker="ryan", temperature=0, max_tokens=6, decode=False).codes,
                [r.codes for r in custom.generate_batch(texts, **kw)]]
    positions = custom.prompt(custom.request(texts[0], speaker="ryan")).embeds.shape[1] - 1
    chunk = next(c for c in range(5, 10) if positions % c > 1)  # its last pass is told from a frame's
    passes, call = [], TalkerModel.__call__
    monkeypatch.setattr(TalkerModel, "__call__",
                        lambda self, x, *a, **k: passes.append(x.shape[:2]) or call(self, x, *a, **k))
    monkeypatch.setattr(backend, "CPU_PATHS", cpu)
    monkeypatch.setattr(Rows, "PREFILL_CHUNK", chunk)
    single = custom.generate(texts[0], speaker="ryan", temperature=0, max_tokens=6, decode=False).codes
    prefill = [n for b, n in passes if n > 1]
    assert prefill == ([chunk] * (positions // chunk) + [positions % chunk] if cpu else [positions])
    passes.clear()
    batch = [r.codes for r in custom.generate_batch(texts, **kw)]
    longest = max(n for b, n in passes if b == 2)
    assert (longest <= chunk) if cpu else longest > chunk
    np.testing.assert_array_equal(single, one_pass[0])
    for got, want in zip(batch, one_pass[1]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("cpu", [True, False], ids=["cpu", "gpu-paths"])
def test_scheduler_steps_running_rows_first_then_the_oldest_prefill(custom, cpu, monkeypatch):
    """While prompts wait, a running row still gets a frame every step; the waiting prompts take the
    budget oldest first, so each one's first frame comes at the step its positions (and those of the
    prompts before it) fit in the budget, and then equals its solo run. On the CPU a frame is read in
    the step that sends it; on Metal/CUDA paths one step later (one frame stays in flight)."""
    from mlx_qwen3tts import backend

    monkeypatch.setattr(backend, "CPU_PATHS", cpu)
    budget = 5
    req = lambda text, **kw: custom.request(text, speaker="ryan", temperature=0, **kw)  # noqa: E731
    rows = custom.loop.rows(prefill_budget=budget)
    assert rows.overlap is not cpu
    rows.span = 1e12  # every position costs 1 (the attention term: test_pieces_cost_alike)
    runner = custom.loop.row(req("A running row.", max_tokens=60))
    rows.add(runner)
    while not runner.frames:
        rows.step()
    rows.store.make_room(256, 4)  # no step goes to growing the store (test_store_grows_in_a_step_of_its_own)
    older = custom.loop.row(req("An older prompt waits first.", max_tokens=4))
    newer = custom.loop.row(req("A newer one, a little longer than that.", max_tokens=4))
    rows.add(older, newer)
    first, codes, step = {}, {id(older): [], id(newer): []}, 0
    while older.frames < 4 or newer.frames < 4:
        step += 1
        before = runner.frames
        for row, frame in rows.step():
            if row is not runner:
                codes[id(row)].append(frame)
                first.setdefault(id(row), step)
        assert runner.frames == before + 1  # its cadence first: one frame every step
    # Prefilled: every prompt position but the last, which is the row's input to its first frame step.
    n_older, n_newer = older.prompt.embeds.shape[1] - 1, newer.prompt.embeds.shape[1] - 1
    # The oldest prompt's last piece is done in step ceil(positions / budget) (the budget serves it first),
    # that step gives its first frame (read `lag` steps later). The newer one uses what the older leaves.
    steps, lag = (lambda n: -(-n // budget)), int(not cpu)  # noqa: E731
    assert first[id(older)] == steps(n_older) + lag
    assert steps(n_older + n_newer) + lag <= first[id(newer)] <= steps(n_older) + steps(n_newer) + lag
    for row, text in ((older, "An older prompt waits first."), (newer, "A newer one, a little longer than that.")):
        alone = custom.generate(text, speaker="ryan", temperature=0, max_tokens=4, decode=False).codes
        np.testing.assert_array_equal(np.array(codes[id(row)]), alone)


def test_store_grows_in_a_step_of_its_own(custom):
    """A prompt the store has no room for (a row more, or more KV positions) gets it in a step without
    prefill pieces but its first position (which makes its cache), the running row's frame aside (that
    new memory is a step's work by itself); then its pieces go as usual and its frames equal its solo run."""
    req = lambda text, **kw: custom.request(text, speaker="ryan", temperature=0, **kw)  # noqa: E731
    rows = custom.loop.rows(prefill_budget=6)
    rows.store.GROW = 8  # KV capacity in steps of 8 positions
    runner = custom.loop.row(req("Run.", max_tokens=40))
    rows.add(runner)
    while not runner.frames:
        rows.step()
    text = "A joining prompt, longer than the runner's."
    joiner = custom.loop.row(req(text, max_tokens=4))
    before = rows.store.state.keys[0].shape
    assert before[0] < 2 or before[2] < joiner.prompt.embeds.shape[1] + 1
    rows.add(joiner)
    frames = rows.step()
    assert rows.waiting[0].done == 1 and [r for r, _ in frames] == [runner]  # its cache made, one position in
    grown = rows.store.state.keys[0].shape
    assert grown[0] >= 2 and grown[2] >= joiner.prompt.embeds.shape[1] + 1
    rows.step()
    assert rows.waiting[0].done > 0  # its pieces start in the next step
    codes = []
    while joiner.frames < 4:
        codes += [c for r, c in rows.step() if r is joiner]
    alone = custom.generate(text, speaker="ryan", temperature=0, max_tokens=4, decode=False).codes
    np.testing.assert_array_equal(np.array(codes), alone)


def test_pieces_cost_alike(custom):
    """A long prompt's pieces cost the same where a position costs 1 plus 1 per `span` positions it attends
    to: later pieces hold fewer positions; as few pieces as the budget allows; a step's budget is shared."""
    rows = custom.loop.rows(prefill_budget=40)
    rows.span = 50
    runner = custom.loop.row(custom.request("A running row.", speaker="ryan", max_tokens=60))
    rows.add(runner)
    while not runner.frames:
        rows.step()  # with no row running, prompts are prefilled whole
    rows.store.make_room(256, 4)  # no step goes to growing the store
    long, short = (custom.loop.row(custom.request(text, speaker="ryan", max_tokens=2))
                   for text in ("A much longer prompt than the others, " * 4, "Short."))
    rows.add(long, short)
    prefill = rows.waiting[0]
    n = prefill.left
    total = n + n * (n - 1) / (2 * rows.span)  # position p costs 1 + p / span
    sizes = []
    while rows.waiting and rows.waiting[0] is prefill:
        rows.step()
        sizes.append(prefill.done - sum(sizes))
    assert sum(sizes) == n and len(sizes) == -(-total // 40)
    starts = np.cumsum([0] + sizes[:-1])
    costs = [s + (s * a + s * (s - 1) / 2) / rows.span for s, a in zip(sizes, starts)]
    assert max(costs) - min(costs) <= 1 + n / rows.span and max(costs) <= 40 + 1 + n / rows.span
    assert sizes[0] > sizes[-1] + 2
    assert short.slot is not None or rows.waiting[0].done > 0  # the short one took what the last piece left


@pytest.mark.parametrize("budget", [5, 40, 96, 140])
@pytest.mark.parametrize("span", [50, 1250, 1e12])
def test_piece_plan_uses_as_few_pieces_as_the_budget_allows(budget, span):
    """Given a whole budget each step, a prompt of any length goes in ceil(cost / budget) pieces, none over
    the budget by more than one position's cost (rounding never leaves a stray one-position piece)."""
    from mlx_qwen3tts.loop.rows import Prefill

    for n in range(2, 1200, 7):
        prefill = object.__new__(Prefill)
        prefill.embeds, prefill.span, prefill.done, prefill.plan = np.zeros((1, n, 1)), span, 0, None
        total, pieces = prefill.total(n - 1), 0
        while prefill.left:
            size = prefill.piece_size(budget, budget)
            assert 0 < size <= prefill.left and prefill.cost(size) <= budget + 1 + n / span
            prefill.done += size
            pieces += 1
        fewest = math.ceil(total / (budget + 1 + n / span) - 1e-9)  # each one over by a whole position
        assert max(fewest, 1) <= pieces <= max(math.ceil(total / budget - 1e-9), 1), (n, budget, span)


class FakeClock:
    """A clock that moves only when told: the time a step would take, without the waiting."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_measured_budget_settles_where_a_piece_takes_a_frame_step():
    """With frame steps of f seconds and pieces costing a fixed part plus a part per unit, the measured
    budget settles where a piece takes f (so a step with a piece takes about 2f), from a first guess too
    high or too low, and follows f when it changes; steps that took a row in or grew the store are no
    measure."""
    from mlx_qwen3tts.loop.rows import Cadence

    fixed, per_unit = 0.1, 0.004  # a piece of u units: 0.1 + 0.004 u seconds; one of 100 takes 0.5 s

    def run(cadence, clock, frame, units=None, took_in=False, grew=False):
        cadence.begin()
        units = cadence.budget if units is None else units
        cadence.end(None if grew or took_in else units)
        clock.now += frame + (3.0 if grew else fixed + per_unit * units if units else 0)
        return cadence.budget

    for first in (300, 20):
        clock = FakeClock()
        cadence = Cadence(first, clock)
        for _ in range(3):
            run(cadence, clock, 0.5, units=0)  # frame steps only
        budgets = [run(cadence, clock, 0.5, grew=step % 7 == 3) for step in range(40)]
        assert budgets[0] == first and abs(budgets[-1] - 100) < 2, budgets
        # A row comes in with its prompt's last piece (40 units): from then on frame steps take 0.8 s.
        run(cadence, clock, 0.8, units=40, took_in=True)
        for _ in range(5):
            run(cadence, clock, 0.8, units=0)
        # Prefill runs at 100 units in 0.5 s in the pieces kept (that step was none): 0.8 s of it is 160.
        assert abs(cadence.budget - 160) < 1, cadence.budget
        budgets = [run(cadence, clock, 0.8) for _ in range(40)]
        assert abs(budgets[-1] - 175) < 3, budgets  # where 0.1 + 0.004 u = 0.8


def test_rows_follow_the_measured_budget(custom, monkeypatch):
    """A Rows with no fixed budget sizes its pieces from what its steps measured: here frame steps of
    0.1 s and 0.01 s a prompt position (a piece of 10 positions takes a frame step), from a first budget of
    20: the first piece is planned at 20, the rest at 10; the joiner's frames still equal its solo run."""
    from mlx_qwen3tts.loop.rows import Cadence, Prefill

    clock, sizes = FakeClock(), []
    rows = custom.loop.rows()
    rows.cadence, rows.span = Cadence(20, clock), 1e12  # every position costs 1
    send, piece = rows._send, Prefill.piece

    def timed_piece(prefill, size):
        clock.now += 0.01 * size
        sizes.append(size)
        return piece(prefill, size)

    def timed_send(moving):
        clock.now += 0.1 + 0.3 * (len(moving) - 1)  # a row taken in makes its step longer: that is no measure
        return send(moving)

    monkeypatch.setattr(Prefill, "piece", timed_piece)
    monkeypatch.setattr(rows, "_send", timed_send)
    req = lambda text, **kw: custom.request(text, speaker="ryan", temperature=0, **kw)  # noqa: E731
    runner = custom.loop.row(req("A running row.", max_tokens=200))
    rows.add(runner)
    while not runner.frames:
        rows.step()
    rows.store.make_room(512, 4)  # no step goes to growing the store
    for _ in range(3):
        rows.step()  # frame steps, measured
    sizes.clear()
    text = "A joining prompt that is a good deal longer than the running one, " * 3
    joiner = custom.loop.row(req(text, max_tokens=3))
    rows.add(joiner)
    codes = []
    while joiner.frames < 3 and not joiner.done:
        codes += [c for r, c in rows.step() if r is joiner]
    assert sum(sizes) == joiner.prompt.embeds.shape[1] - 1 and len(sizes) >= 4
    rest = sizes[1:]  # planned at 10 a piece: as few as that allows, of equal size
    assert 12 < sizes[0] <= 20 and len(rest) == -(-sum(rest) // 10) and max(rest) - min(rest) <= 1, sizes
    assert abs(rows.budget - 10) < 0.5
    alone = custom.generate(text, speaker="ryan", temperature=0, max_tokens=3, decode=False).codes
    np.testing.assert_array_equal(np.array(codes), alone)


def test_warm_compiles_every_batch_size_before_the_first_request(custom):
    """After `warm()`, requests of every batch size up to max_active trace nothing new (a trace runs
    the Python of the graphs, here counted at the code predictor, which every graph calls)."""
    import copy

    from mlx_qwen3tts.loop.decode_loop import DecodeLoop

    fresh = copy.copy(custom)  # a loop of its own: no graph traced yet
    fresh.loop = DecodeLoop(custom.model.talker, custom.config, custom.tokenizer, custom.max_new_tokens)
    predictor = type(custom.model.talker.code_predictor)
    original, traces = predictor.predict, []

    def counting(self, *args):
        traces.append(args[0].shape[0])
        return original(self, *args)

    predictor.predict = counting
    try:
        with fresh.engine(max_active=4) as engine:
            engine.warm()
            warmed = len(traces)
            handles = [engine.submit(fresh.request("Warm start.", speaker="ryan", max_tokens=3, seed=i,
                                                   temperature=0 if i % 2 else 0.9)) for i in range(4)]
            for h in handles:
                collect(h)
    finally:
        predictor.predict = original
    assert warmed >= 6  # step graphs of 1, 2 and 4 rows, greedy and sampled (first frames come from them)
    assert len(traces) == warmed, str(traces)


def test_full_engine_refuses_at_once(custom):
    feed = TextFeed()  # never ends: keeps its request waiting for text
    with custom.engine(max_active=1, max_queue=1) as engine:
        busy = engine.submit(custom.request(deltas=feed, speaker="ryan", max_tokens=50))
        # kept: a dropped handle would cancel it and free its place
        queued = engine.submit(custom.request("Queued.", speaker="ryan", max_tokens=2))
        start = time.perf_counter()
        with pytest.raises(EngineFull):
            engine.submit(custom.request("Refused.", speaker="ryan", max_tokens=2))
        assert time.perf_counter() - start < 0.5
        busy.cancel(), queued.cancel()


def test_failing_text_iterator_fails_alone(custom):
    def broken():
        yield "Half a sen"
        time.sleep(0.2)
        raise RuntimeError("the writer died")

    good = custom.request("Hello world, a longer sentence.", speaker="ryan", temperature=0, max_tokens=12)
    with custom.engine() as engine:
        bad = engine.submit(custom.request(deltas=broken(), speaker="vivian", temperature=0, max_tokens=10))
        ok = engine.submit(good)
        with pytest.raises(RuntimeError, match="the writer died"):
            collect(bad)
        got = collect(ok)
    assert_same(got, solo(custom, good))


def test_cancel_frees_the_row_at_the_next_frame_and_dropped_handles_cancel(custom):
    with custom.engine() as engine:
        t0 = time.perf_counter()
        keep = engine.submit(custom.request("Keep talking for a while please.", speaker="ryan", max_tokens=40,
                                            chunk_frames=1))
        victim = engine.submit(custom.request("Stop me soon.", speaker="vivian", max_tokens=40, chunk_frames=1))
        next(iter(victim))
        cancelled = time.perf_counter()
        victim.cancel()
        while engine.stats()["active"] > 1:
            time.sleep(0.001)
        freed = time.perf_counter()
        assert list(victim) == []  # iteration ends at once
        ready = [t0 + c.timings["ready"] for c in keep]  # one frame per chunk
        # Frames the other row made between the cancel and the row being freed: the one in flight
        # and, if the cancel came in mid-frame, the one after (cancels are read at frame boundaries).
        assert sum(cancelled < t <= freed for t in ready) <= 2
        dropped = engine.submit(custom.request(deltas=TextFeed(), speaker="ryan", max_tokens=40))
        del dropped
        gc.collect()
        deadline = time.perf_counter() + 5
        while engine.stats() != {"active": 0, "queued": 0} and time.perf_counter() < deadline:
            time.sleep(0.01)
        assert engine.stats() == {"active": 0, "queued": 0}


def test_a_chunk_goes_out_without_waiting_for_the_next_frame(custom):
    """The first frame's chunk arrives while the row waits for text its second frame needs, and a
    row ending at its frame limit marks its last audio chunk final (no empty chunk after it)."""
    feed = TextFeed()
    feed.append("Hello there ")  # one token known ("there" may go on): the prefill, then a stall
    with custom.engine() as engine:
        handle = engine.submit(custom.request(deltas=feed, speaker="ryan", temperature=0, max_tokens=6,
                                              chunk_frames=4, normalize=False))  # "there" not held back
        got = []
        reader = threading.Thread(target=lambda: got.append(next(iter(handle))), daemon=True)
        reader.start()
        reader.join(30)
        assert got and got[0].frames == 1 and not got[0].is_final
        feed.append("friend, this is a longer sentence to speak.")
        feed.end()
        rest = list(handle)
    assert [c.frames for c in got + rest] == [1, 4, 1] and [c.is_final for c in got + rest] == [False, False, True]


def test_many_sequential_requests_leave_memory_flat(custom):
    request = custom.request("Hi.", speaker="ryan", temperature=0, max_tokens=2)
    with custom.engine() as engine:
        def run(n):
            for _ in range(n):
                collect(engine.submit(request))
            gc.collect()
            return mx.get_active_memory(), len(gc.get_objects())

        run(20)
        mem0, objs0 = run(80)
        mem1, objs1 = run(400)
    assert mem1 - mem0 < 1 << 20  # no growth per request (tiny model: a leak would be ~100 KB each)
    assert objs1 - objs0 < 2000


def settle(engine, active, queued=0, timeout=10):
    """Waits (bounded) until the engine's stats read (active, queued); returns them as a dict."""
    want = {"active": active, "queued": queued}
    deadline = time.perf_counter() + timeout
    while engine.stats() != want and time.perf_counter() < deadline:
        time.sleep(0.01)
    return engine.stats()


def reader(handle):
    """Iterates `handle` on a thread; returns (thread, outcome list that gets 'ended' or the error)."""
    outcome = []

    def read():
        try:
            list(handle)
            outcome.append("ended")
        except Exception as e:  # noqa: BLE001  (reported to the test)
            outcome.append(e)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread, outcome


def test_cancel_while_waiting_for_text_ends_the_request_and_its_reader(custom):
    with custom.engine() as engine:
        feed = TextFeed()  # no text yet: the request holds its place waiting for it
        handle = engine.submit(custom.request(deltas=feed, speaker="ryan", max_tokens=40))
        assert settle(engine, 1) == {"active": 1, "queued": 0}
        thread, outcome = reader(handle)
        time.sleep(0.2)  # the reader is blocked waiting for audio that needs text first
        assert thread.is_alive()
        handle.cancel()
        thread.join(5)
        assert not thread.is_alive() and outcome == ["ended"]
        assert settle(engine, 0) == {"active": 0, "queued": 0}
        feed.append("Late text.")  # arriving after the cancel, it starts nothing
        feed.end()
        time.sleep(0.2)
        assert engine.stats() == {"active": 0, "queued": 0}


def test_cancel_while_queued_ends_at_once_and_frees_the_place(custom):
    feed = TextFeed()
    with custom.engine(max_active=1, max_queue=1) as engine:
        busy = engine.submit(custom.request(deltas=feed, speaker="ryan", max_tokens=40))  # holds the only row
        queued = engine.submit(custom.request("Queued behind it.", speaker="ryan", max_tokens=4))
        assert settle(engine, 1, 1) == {"active": 1, "queued": 1}
        thread, outcome = reader(queued)
        queued.cancel()
        thread.join(5)
        assert not thread.is_alive() and outcome == ["ended"]
        assert settle(engine, 1) == {"active": 1, "queued": 0}
        # the freed place takes a new request at once
        again = engine.submit(custom.request("Another.", speaker="ryan", max_tokens=2))
        busy.cancel()
        assert len(collect(again)[0]) == 2


EXIT_SCRIPT = """
import sys
import mlx.core as mx
import mlx_qwen3tts
from mlx_qwen3tts.loop.engine import TextFeed

tts = mlx_qwen3tts.load(sys.argv[1], dtype=mx.float32)
engine = tts.engine()
chunks = list(engine.submit(tts.request("Hello there.", speaker="ryan", temperature=0, max_tokens=3)))
assert sum(c.frames for c in chunks) == 3
if sys.argv[2] == "close":
    engine.close()
elif sys.argv[2] == "running":  # one request mid-generation, one waiting for text, at exit
    it = iter(engine.submit(tts.request("Still talking when the script ends.", speaker="ryan", max_tokens=400)))
    next(it)
    engine.submit(tts.request(deltas=TextFeed(), speaker="ryan"))
print("done", flush=True)
"""


@pytest.mark.parametrize("ending", ["close", "no-close", "running"])
def test_a_script_using_the_engine_exits_cleanly(tmp_path_factory, ending):
    """MLX work on the scheduler thread once made the interpreter abort at exit (rc 134)."""
    import os
    import subprocess
    import sys

    from fixture_checkpoints import checkpoint_dir

    model = checkpoint_dir("custom_voice-0b6", tmp_path_factory.getbasetemp())
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    result = subprocess.run([sys.executable, "-c", EXIT_SCRIPT, str(model), ending], capture_output=True,
                            text=True, timeout=300, env=env)
    assert "terminate called" not in result.stderr
    assert (result.returncode, result.stdout) == (0, "done\n"), result.stderr[-2000:]


def test_a_joiners_first_audio_waits_for_no_other_streams_codec_step(custom, monkeypatch):
    """Each stream's codec step runs alone (seeds to the bit), so a step with several due chunks runs several
    codec steps: the chunk of a row's first frame is decoded and handed out before those of rows already
    speaking, which wait one codec step more (issue 65: a joiner's first audio behind three streams' steps)."""
    from mlx_qwen3tts.codec.decoder import CodecDecoder
    from mlx_qwen3tts.loop.engine import Engine

    events = []  # ("step", decoder state) and ("hand", decoder state, chunk index), in order
    step, hand = CodecDecoder.step, Engine._hand

    def logged_step(self, codes, state):
        events.append(("step", id(state)))
        return step(self, codes, state)

    def logged_hand(jobs, chunks):
        events.extend(("hand", id(job.chunks.state), chunk.index) for job, chunk in zip(jobs, chunks))
        hand(jobs, chunks)

    monkeypatch.setattr(CodecDecoder, "step", logged_step)
    monkeypatch.setattr(Engine, "_hand", staticmethod(logged_hand))
    speak = dict(speaker="ryan", temperature=0, chunk_frames=1, normalize=False)
    with custom.engine() as engine:
        streams = [engine.submit(custom.request(text, max_tokens=40, **speak))
                   for text in ("The first stream speaks.", "The second one as well.")]
        started = [iter(h) for h in streams]
        for it in started:
            next(it)  # both speaking: each chunk is one frame, so every step decodes both
        joiner = engine.submit(custom.request("A request that joins them.", max_tokens=4, **speak))
        first = next(iter(joiner))
        for handle in streams:
            handle.cancel()
        list(joiner)
    assert first.index == 0
    firsts = [(i, e[1]) for i, e in enumerate(events) if e[0] == "hand" and e[2] == 0]
    assert len(firsts) == 3  # the two streams', then the joiner's
    at, mine = firsts[2]
    since = max(i for i, e in enumerate(events[:at]) if e[0] == "hand")
    between = [e[1] for e in events[since + 1 : at] if e[0] == "step"]
    assert between == [mine], f"{len(between) - 1} other codec steps ran before the joiner's first audio"
