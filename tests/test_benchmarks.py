"""Smoke test of the benchmark harness on the tiny shapes: it generates a checkpoint, measures it and
writes the table, the JSON and the plot; plus the sync counter it relies on."""

import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import mlx.core as mx
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

from benchmarks import run  # noqa: E402
from benchmarks.syncs import SyncCounter  # noqa: E402


def test_sync_counter_counts_blocking_calls_and_restores_them():
    eval_before, item_before = mx.eval, mx.array.item
    a = mx.ones((3,))
    with SyncCounter() as counter:
        mx.eval(a)
        a[0].item()
        np.array(a)
        np.array([1, 2])  # not an mx.array: no sync
        mx.async_eval(a)
        if a[0] > 0:  # bool() of an array waits for it
            pass
    assert counter.counts["eval"] == 1
    assert counter.counts["item"] == 1
    assert counter.counts["numpy"] == 1
    assert counter.counts["bool"] == 1
    assert counter.blocking == 4 and counter.async_evals == 1
    assert mx.eval is eval_before and mx.array.item is item_before


def test_tiny_run_writes_the_table(tmp_path, capsys):
    out = tmp_path / "results"
    run.main(["--tiny", "--frames", "3", "--batch-sizes", "1,2", "--no-peers",
              "--out", str(out), "--cache", str(tmp_path / "cache")])
    table = (out / "results.md").read_text()
    assert "Machine:" in table and f"MLX {mx.__version__}" in table
    rows = [line for line in table.splitlines() if line.startswith("| tiny bf16 |")]
    assert len(rows) == 3  # generation, batch, side by side
    # --no-peers (issue 51): no mlx-audio row and no empty table of the synthesizers, a line saying so instead
    assert "| mlx-audio" not in table and "| system | RTF |" not in table and "--no-peers" in table
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    assert len(cells) == 14 and cells[2] == (commit.stdout.strip() or "?") and cells[3] == "3"
    # The compute dtype of the row: on the CPU backend the package's default is float32.
    assert cells[1] == ("float32" if mx.default_device().type == mx.DeviceType.cpu else "bfloat16")
    for cell in cells[4:10]:
        assert float(cell.replace(",", "")) > 0, cells

    results = json.loads((out / "results.json").read_text())
    (figures,) = results["models"]
    assert figures["frames"] == 3
    for key in ("prefill_ms", "talker_ms", "cp_ms", "loop_ms", "decode_ms", "rtf", "peak_gb"):
        assert math.isfinite(figures[key]) and figures[key] > 0, key
    assert set(figures["first_chunk_ms"]) == {"1", "4"}
    assert figures["delta_to_audio_ms"] > 0
    # The loop evaluates at least once per frame; a count of 0 would mean the counter saw nothing.
    assert figures["syncs_per_frame"] >= 1
    if figures["batch_fps"] is not None:
        assert set(figures["batch_fps"]) == {"1", "2"} and all(v > 0 for v in figures["batch_fps"].values())

    svg = ET.parse(out / "plot.svg").getroot()
    assert svg.tag.endswith("svg") and len(svg) > 5
    assert "| tiny bf16 |" in capsys.readouterr().out


def test_rejects_unknown_size(tmp_path):
    with pytest.raises(ValueError, match="unknown size"):
        run.main(["--sizes", "2B", "--quant", "bf16", "--no-peers", "--out", str(tmp_path), "--cache", str(tmp_path)])


def test_join_benchmark_runs_on_the_tiny_shapes(tmp_path, capsys):
    from benchmarks import join

    rows = join.main(["--preset", "tiny", "--chars", "300,600", "--baseline-frames", "3",
                      "--cache", str(tmp_path / "cache")])
    out = capsys.readouterr().out
    assert sum(line.startswith("|") for line in out.splitlines()) == 4  # header, rule, one row per length
    assert "| joiner chars |" in out
    assert [r["chars"] <= c for r, c in zip(rows, (300, 600))] == [True, True]
    assert rows[0]["positions"] < rows[1]["positions"]
    for r in rows:
        for key in ("median_gap_s", "longest_gap_s", "first_audio_alone_s", "first_audio_joining_s",
                    "first_audio_worst_s"):
            assert math.isfinite(r[key]) and r[key] > 0, key


def test_first_request_benchmark_runs_on_the_tiny_shapes(tmp_path):
    """One fresh process on the engine, one on Python's thread: ten requests each, each prompt a length of
    its own, the first one's first audio over the median of the sixth to tenth."""
    from benchmarks import first_request

    assert len({len(first_request.prompt(i)) for i in range(20)}) == 20
    for front in ("engine", "python"):
        result = first_request.main(["--preset", "tiny", "--front", front, "--processes", "1", "--frames", "2",
                                     "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / f"{front}.json")])
        (run,) = next(iter(result["runs"].values()))
        assert run["front"] == front and run["gpu_paths"] and len(run["first_audio_s"]) == 10
        assert all(s > 0 for s in run["first_audio_s"]) and run["first_over_later"] > 0
        assert json.loads((tmp_path / f"{front}.json").read_text())["median_first_over_later"]


def test_normalize_first_audio_benchmark_times_both_sides_of_both_paths(tmp_path):
    """Its text reads differently normalized (else the A/B compares a prompt with itself); each path's medians
    for normalization on and off, from a first chunk that came."""
    from benchmarks import normalize_first_audio as bench

    from mlx_qwen3tts.text import spoken

    assert spoken(bench.TEXT, "english") != bench.TEXT
    result = bench.main(["--preset", "tiny", "--rounds", "1", "--frames", "2", "--cache", str(tmp_path / "cache")])
    for path in ("stream", "stream_text"):
        assert result[path]["on_ms"] > 0 and result[path]["off_ms"] > 0 and result[path]["on_over_off"] > 0


def test_prefill_benchmark_compares_passes_that_compute_the_same(tmp_path, capsys):
    """The prefill benchmark has a row per length and a time per chunk size; the passes it times fill
    the cache as one pass does."""
    from benchmarks import checkpoints, prefill

    import mlx_qwen3tts
    from mlx_qwen3tts.loop.rows import forward

    rows = prefill.main(["--preset", "tiny", "--chars", "100,300", "--chunks", "4,16", "--repeats", "1",
                         "--cache", str(tmp_path / "cache")])
    assert sum(line.startswith("|") for line in capsys.readouterr().out.splitlines()) == 4
    assert rows[0]["positions"] < rows[1]["positions"] and rows[0]["positions"] > 16
    assert all(r["one_pass_s"] > 0 and sorted(r["chunks_s"]) == [4, 16] for r in rows)
    tts = mlx_qwen3tts.load(str(checkpoints.checkpoint("tiny", "bf16", tmp_path / "cache")), dtype=mx.float32)
    talker = tts.loop.talker
    embeds = mx.random.normal((1, 37, talker.model.norm.weight.shape[0]), key=mx.random.key(0))
    one, cut = talker.make_cache(), talker.make_cache()
    forward(talker, embeds, one)
    forward(talker, embeds, cut, 16)
    assert cut[0].offset == one[0].offset == 37
    for a, b in zip(one, cut):
        np.testing.assert_allclose(np.array(b.keys[:, :, :37]), np.array(a.keys[:, :, :37]), atol=1e-5)
        np.testing.assert_allclose(np.array(b.values[:, :, :37]), np.array(a.values[:, :, :37]), atol=1e-5)


def test_mixed_pass_probe_equals_separate_passes(tmp_path, capsys):
    """The probe's mixed pass gives what the two passes give (so its timings compare like with like),
    and its table has a row per size and offset."""
    from benchmarks import checkpoints, mixed_pass

    import mlx_qwen3tts
    from mlx_qwen3tts.model.cache import RowKVCache

    rows = mixed_pass.main(["--preset", "tiny", "--sizes", "3,5", "--offsets", "0,7", "--repeats", "1",
                            "--cache", str(tmp_path / "cache")])
    assert [(r["size"], r["offset"]) for r in rows] == [(3, 0), (3, 7), (5, 0), (5, 7)]
    assert sum(line.startswith("|") for line in capsys.readouterr().out.splitlines()) == 6
    tts = mlx_qwen3tts.load(str(checkpoints.checkpoint("tiny", "bf16", tmp_path / "cache")), dtype=mx.float32)
    model = tts.loop.talker.model
    attn, hidden = model.layers[0].self_attn, model.norm.weight.shape[0]

    def caches():
        kv = [mx.random.normal((2, attn.n_kv_heads, 16, attn.head_dim), key=mx.random.key(i)) for i in range(2)]
        steps = [RowKVCache(kv[0], kv[1], mx.array([4, 9], mx.int32)) for _ in model.layers]
        piece = tts.loop.talker.make_cache()
        model(mx.random.normal((1, 6, hidden), key=mx.random.key(2)), piece)
        return steps, piece

    x = mx.random.normal((2, 1, hidden), key=mx.random.key(3))
    e = mx.random.normal((1, 5, hidden), key=mx.random.key(4))
    steps, piece = caches()
    want = [model(x, steps), model(e, piece)]
    steps, piece = caches()
    got = mixed_pass.mixed(model, [(x, steps), (e, piece)])
    np.testing.assert_allclose(np.array(got[0, :2]), np.array(want[0][:, 0]), atol=1e-4)
    np.testing.assert_allclose(np.array(got[0, 2:]), np.array(want[1][0]), atol=1e-4)


def test_components_pass_steps_on_the_loops_shapes(gpu_paths, tmp_path, monkeypatch):
    """The components pass, on the Metal/CUDA branches: after the warm-up every timed frame runs the graphs the
    loop traced, with the loop's shapes. Its talker used to run on a growing cache, so each frame's attention
    had a KV length of its own (new shapes every frame: what stalled the pass on CUDA); a graph traced again
    inside the pass would show its code predictor's attention calls here too."""
    from benchmarks import checkpoints
    from benchmarks.measure import TEXT, component_pass, warm_up
    from mlx_qwen3tts import load

    tts = load(str(checkpoints.checkpoint("tiny", "bf16", tmp_path / "cache", "linear-only", lambda _: None)))
    warm_up(tts, TEXT)
    attention, calls = mx.fast.scaled_dot_product_attention, []

    def counted(q, k, v, **kw):
        calls.append((q.shape, k.shape))
        return attention(q, k, v, **kw)

    monkeypatch.setattr(mx.fast, "scaled_dot_product_attention", counted)
    frames, layers = 6, len(tts.model.talker.model.layers)
    parts = component_pass(tts, TEXT, frames)
    prompt_calls, frame_calls = calls[:layers], calls[layers:]
    assert all(q[2] > 1 for q, _ in prompt_calls)  # the prefill
    assert len(frame_calls) == frames * layers  # the talker's layers only: nothing traced again
    assert len(set(frame_calls)) == 1, sorted(set(frame_calls))  # one shape for every frame
    assert all(parts[key] > 0 for key in ("prefill_ms", "talker_ms", "cp_ms"))


def test_device_script_runs_every_step_on_the_tiny_shapes(tmp_path):
    """The one script a lent GPU runs (benchmarks/device.py), here on the CPU with the tiny preset: every step
    ends ok and the table holds each part."""
    out = tmp_path / "device"
    proc = subprocess.run([sys.executable, "-m", "benchmarks.device", "--tiny", "--out", str(out),
                           "--cache", str(tmp_path / "cache")], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    table = (out / "device.md").read_text()
    lines = table.splitlines()
    start = lines.index("| step | status | seconds |") + 2
    rows = [line.split("|")[1:3] for line in lines[start:lines.index("", start)]]
    statuses = {name.strip(): status.strip() for name, status in rows}
    assert set(statuses) == {"checkpoints", "codes-only", "parity", "parts", "parts-same-stream", "codec-tf32-on",
                             "counts", "engine", "join", "first-request", "run"}, statuses
    assert all(status == "ok" for status in statuses.values()), statuses
    codes = json.loads((out / "codes-only.json").read_text())["quants"]["bf16"]
    assert all(codes[k] > 0 for k in ("generate_ms", "frames_median_ms", "frames_mean_ms")), codes
    for heading in ("codes-only", "The streaming path, part by part", "Per frame (per engine step)", "benchmarks.run",
                    "Against the targets"):
        assert heading in table, heading
    counts = json.loads((out / "counts.json").read_text())["counts"]
    # docs/benchmarks.md, "The streaming path: one sync a frame and growing chunks": per frame (the engine: per
    # step), one host sync, audio or not, in growing and in 4-frame chunks (before: 1.5 with audio)
    parts = ("frames", "stream", "stream_4", "engine_1", "engine_1_4", "engine_2", "engine_2_4")
    assert set(counts) == {f"{part} 8-16" for part in parts}, sorted(counts)
    assert {key: count["syncs"] for key, count in counts.items()} == {key: 1.0 for key in counts}


def test_batch_benchmark_runs_on_the_tiny_shapes(tmp_path, capsys):
    pytest.importorskip("uvicorn")
    from benchmarks import batch

    result = batch.main(["--preset", "tiny", "--texts", "2", "--frames", "3", "--rounds", "1",
                         "--cache", str(tmp_path / "cache"), "--out", str(tmp_path / "batch.json")])
    assert "2 texts x 3 frames, tiny: one after another" in capsys.readouterr().out
    assert json.loads((tmp_path / "batch.json").read_text()) == result
    assert result["batch_s"] > 0 and result["one_after_another_s"] > 0


def test_a_mac_user_can_follow_the_benchmark_pages():
    """Issue 51: the Apple synthesizer's quoted figures cited a seed file that is not in the repository, and
    benchmarks/device.py a setup script nobody could find; the pages gave no command for Metal. Every quoted
    source is a public address, no page or table names a file outside the repository, and docs/benchmarks.md
    shows the Metal run and how `say` is measured."""
    from benchmarks import peers

    assert all("https://" in row["note"] for row in peers.QUOTED)
    texts = [p for p in (ROOT / "benchmarks").rglob("*") if p.suffix in (".py", ".md", ".json")]
    texts += [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    assert not [str(p.relative_to(ROOT)) for p in texts if re.search(r"shared/seeds|seed 000_", p.read_text())]
    device = (ROOT / "benchmarks" / "device.py").read_text()
    assert ".device/two/setup.sh" not in device or "pack.sh" in device  # said where it comes from
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    mac = page.split("## On a Mac (Metal): what to run", 1)[1].split("\n## ", 1)[0]
    assert "python -m benchmarks.run --sizes 0.6B" in mac and "say --file-format=WAVE" in mac


def test_aligner_cost_measures_our_side_and_the_share_on_the_tiny_shapes(tmp_path):
    """benchmarks/aligner_cost.py (issue 50) on the tiny aligner and TTS: our side's figures and the share
    (the official side needs its own environment; the docs' figures ran both)."""
    from fixture_checkpoints import aligner_dir
    from benchmarks.aligner_cost import align_mlx, narration_share, speech_like
    from benchmarks.checkpoints import checkpoint

    audio, text = speech_like(2.0)
    assert audio.shape == (48000,) and len(text.split()) == 5
    found = align_mlx(aligner_dir(tmp_path), 2.0, 1)
    assert found["words"] == 5 and 0 < found["cpu_s"] and found["peak_mb"] >= found["loaded_mb"] > 0
    share = narration_share(aligner_dir(tmp_path), checkpoint("tiny", "bf16", tmp_path / "cache"), 2, 12, 1)
    assert share["segments"] == 2 and 0 < share["share"] and share["audio_s"] > 0


def test_asr_cost_measures_the_share_of_the_check_on_the_tiny_shapes(tmp_path):
    """benchmarks/asr_cost.py's share step (issue 58 item 3's cost) on the tiny recognizer and TTS: each piece
    checked once held to a transcript of its text (its tokens and the end token) and once to the check's cap."""
    from fixture_checkpoints import asr_dir
    from benchmarks.asr_cost import check_share, report, speech_like
    from benchmarks.checkpoints import checkpoint
    from mlx_qwen3tts import asr
    from mlx_qwen3tts.longform import document

    folder = asr_dir(tmp_path)
    share = check_share(folder, checkpoint("tiny", "bf16", tmp_path / "cache"), 2, 12, 1)
    assert share["pieces"] == 2 and share["audio_s"] > 0 and 0 < share["share"] and 0 < share["capped_share"]
    recognizer = asr.load(str(folder))
    texts = [s.text for s in document(" ".join(speech_like(12 / 12.5, seed=i)[1] for i in range(2))).segments]
    assert share["tokens"] == [len(recognizer.tokenizer.encode(t)) + 1 for t in texts]
    assert share["capped_tokens"] == [recognizer.text_cap(t, "English") for t in texts]
    assert "--check adds" in report({"results": {}, "tokens": 32, "shapes": "tiny", "share": share})


def test_asr_check_threshold_scores_each_fault_as_its_edits():
    """benchmarks/check_threshold.py (the arithmetic behind --check's default threshold): every fault it makes in
    the quality sentences is scored as its count of edits over the text's characters."""
    from benchmarks.check_threshold import FAULTS, SENTENCES, rates, table
    from mlx_qwen3tts.hearing import comparable

    sentences = json.loads(SENTENCES.read_text(encoding="utf-8"))["sentences"]
    found = rates(sentences)
    assert set(found) == set(sentences) and all(set(f) == set(FAULTS) for f in found.values())
    english = sentences["english"]
    lengths = [len(comparable(t)) for t in english]
    assert sorted(found["english"]["a character"]) == sorted(1 / n for t, n in zip(english, lengths)
                                                             for c in t if c.isalnum())
    assert sorted(found["english"]["a word"]) == sorted(len(comparable(w)) / n for t, n in zip(english, lengths)
                                                        for w in t.split(" "))
    assert all(0.4 < r < 0.6 for faults in found.values() for r in faults["half"])
    assert len(found["chinese"]["other language"]) == 30 * (len(sentences) - 1)
    assert table(found, 0.25).count("\n") == len(sentences) + 1
