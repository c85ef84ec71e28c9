"""The recognizer's cost: time and memory of a transcription, ours (MLX) against the official `qwen-asr` 0.0.6
(PyTorch), on the released shapes of Qwen3-ASR-0.6B with random weights (the ASR twin of aligner_cost.py); and
the share of narration time that `--check` adds (each piece heard back and compared with its text).

Random weights never stop on their own: both sides decode a fixed `--tokens` new tokens (qwen-asr's
`max_new_tokens`, our `Recognizer.max_new_tokens`; a run that chooses EOS sooner says so in `tokens`), so the
figures are the encoder over the clip, the prefill and that many greedy steps. Each measurement runs in its own
process (its peak memory is its own): load, transcribe once to warm up, then `--repeats` times; the two sides
alternate round by round (the machine may be shared) and the medians are reported. Both compute in float32 on
the CPU, language detected.

    python -m benchmarks.asr_cost --official-python REF/bin/python            # REF: torch CPU, qwen-asr
    python -m benchmarks.asr_cost --official-python REF/bin/python --seconds 10 30 --tokens 48 --rounds 3
    python -m benchmarks.asr_cost --official-python REF/bin/python --tiny --seconds 2 --rounds 1   # a smoke run
    python -m benchmarks.asr_cost --official-python REF/bin/python --only-share --share-pieces 3 --rounds 2

The share (`check_share`): `--share-pieces` sentences narrated by the released 0.6B TTS shapes (random weights,
benchmarks/checkpoints.py; `--share-frames` frames each, about 2.5 words a second of text) and each checked as
`--check` checks it (`hearing.Check.best`, language given), in CPU time. Random weights never stop on their own, so
the recognizer is held to the tokens a transcript of the text takes (its tokens and the end token: a piece heard
right, one try); and, apart, to the check's own cap (`asr.Recognizer.text_cap`: a piece heard as never stopping,
what a failing try costs at most). A retry is the piece narrated again and checked again.

The official side needs its own virtual environment, as tests/reference/record_asr.py. The checkpoint is built
once with qwen-asr's own classes (bf16, random weights, the real Qwen vocabulary from the test fixtures) into
`--cache`.
"""

import argparse
import copy
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.aligner_cost import _peak_mb, _rss_mb, speech_like

ROOT = Path(__file__).resolve().parents[1]
RATE = 24000  # the TTS model's rate: what a narration check or a cloned clip gives the recognizer

# Qwen/Qwen3-ASR-0.6B's shapes and ids (its config.json as independent ports list it).
RELEASED = {
    "architectures": ["Qwen3ASRForConditionalGeneration"], "model_type": "qwen3_asr",
    "thinker_config": {
        "model_type": "qwen3_asr_thinker", "audio_token_id": 151676, "audio_start_token_id": 151669,
        "audio_end_token_id": 151670,
        "audio_config": {"num_mel_bins": 128, "encoder_layers": 18, "encoder_attention_heads": 14,
                         "encoder_ffn_dim": 3584, "d_model": 896, "max_source_positions": 1500, "n_window": 50,
                         "n_window_infer": 800, "output_dim": 1024, "downsample_hidden_size": 480,
                         "conv_chunksize": 500, "scale_embedding": False, "activation_function": "gelu"},
        "text_config": {"vocab_size": 151936, "hidden_size": 1024, "intermediate_size": 3072,
                        "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 8,
                        "head_dim": 128, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0,
                        "rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20],
                                         "mrope_interleaved": True, "interleaved": True},
                        "tie_word_embeddings": False, "hidden_act": "silu", "attention_bias": False},
    },
}


def tiny() -> dict:
    """Small shapes for a smoke run (the tests' checkpoint sizes)."""
    config = copy.deepcopy(RELEASED)
    config["thinker_config"]["audio_config"].update(encoder_layers=2, encoder_attention_heads=4, encoder_ffn_dim=64,
                                                    d_model=32, output_dim=64, downsample_hidden_size=8)
    config["thinker_config"]["text_config"].update(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                                   num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                                                   rope_scaling={"rope_type": "default", "mrope_section": [4, 2, 2],
                                                                 "mrope_interleaved": True, "interleaved": True})
    return config


# --- run inside one side's process -------------------------------------------------------------------

def build_official(folder: Path, small: bool):
    """The checkpoint, made and saved with qwen-asr's classes (run with the official python)."""
    import torch

    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    from record_asr import PREPROCESSOR, write_tokenizer
    from qwen_asr.core.transformers_backend import Qwen3ASRConfig, Qwen3ASRForConditionalGeneration

    folder.mkdir(parents=True, exist_ok=True)
    write_tokenizer(folder)
    (folder / "preprocessor_config.json").write_text(json.dumps(PREPROCESSOR, indent=2))
    torch.manual_seed(0)
    released = tiny() if small else RELEASED
    config = Qwen3ASRConfig(**{k: v for k, v in released.items() if k not in ("architectures", "model_type")})
    model = Qwen3ASRForConditionalGeneration(config).eval()
    model.to(torch.bfloat16).save_pretrained(str(folder), safe_serialization=True)


def _timed(run, repeats: int) -> tuple:
    times, cpu = [], []
    for _ in range(repeats):
        start, used = time.perf_counter(), time.process_time()
        run()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return statistics.median(times), statistics.median(cpu)


def transcribe_official(folder: Path, seconds: float, tokens: int, repeats: int) -> dict:
    import torch

    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    import record_asr  # noqa: F401  (its nagisa placeholder, before qwen_asr)
    from qwen_asr import Qwen3ASRModel

    audio, _ = speech_like(seconds)
    start = time.perf_counter()
    model = Qwen3ASRModel.from_pretrained(str(folder), dtype=torch.float32, device_map="cpu", max_new_tokens=tokens)
    load_s, loaded = time.perf_counter() - start, _rss_mb()
    processor = model.processor
    made = len(processor.tokenizer(model.transcribe(audio=(audio, RATE))[0].text)["input_ids"])
    wall, cpu = _timed(lambda: model.transcribe(audio=(audio, RATE)), repeats)
    return {"side": "qwen-asr 0.0.6 (torch %s, %d threads)" % (torch.__version__, torch.get_num_threads()),
            "load_s": load_s, "transcribe_s": wall, "cpu_s": cpu, "text_tokens": made, "loaded_mb": loaded,
            "peak_mb": _peak_mb()}


def transcribe_mlx(folder: Path, seconds: float, tokens: int, repeats: int) -> dict:
    sys.path.insert(0, str(ROOT))
    import mlx_qwen3tts  # noqa: F401  (before mlx: OpenBLAS ahead of MLX's reference BLAS)
    import mlx.core as mx
    from mlx_qwen3tts import asr

    audio, _ = speech_like(seconds)
    start = time.perf_counter()
    model = asr.load(str(folder))
    model.max_new_tokens = tokens
    load_s, loaded = time.perf_counter() - start, _rss_mb()
    made = len(model.tokenizer.encode(model.transcribe(audio, RATE).text))
    wall, cpu = _timed(lambda: model.transcribe(audio, RATE), repeats)
    return {"side": f"mlx_qwen3tts (MLX {mx.__version__}, {mx.default_device()})", "load_s": load_s,
            "transcribe_s": wall, "cpu_s": cpu, "text_tokens": made, "loaded_mb": loaded, "peak_mb": _peak_mb()}


def check_share(asr_folder: Path, tts_folder: Path, pieces: int, frames: int, rounds: int) -> dict:
    """CPU time to narrate `pieces` sentences (TTS at `tts_folder`, `frames` frames each) and to check each one
    with the recognizer at `asr_folder`, round after round in one process: the share the check adds (CPU time, as
    the machine may be shared; long-form checks each piece as it finishes, on the same thread). Each check is
    timed twice: held to a transcript of the text (passing) and to the check's cap (never stopping)."""
    sys.path.insert(0, str(ROOT))
    import mlx_qwen3tts
    from mlx_qwen3tts import asr, longform
    from mlx_qwen3tts.hearing import Check

    tts = mlx_qwen3tts.load(str(tts_folder))
    recognizer = asr.load(str(asr_folder))
    decoded, run = [], recognizer.run

    def counted(*args, **kwargs):  # the tokens each check decoded
        heard = run(*args, **kwargs)
        decoded.extend(len(p.generated) for p in heard)
        return heard

    recognizer.run = counted
    text = " ".join(speech_like(frames / 12.5, seed=i)[1] for i in range(pieces))
    document = longform.document(text)
    check = Check(recognizer=recognizer)

    def heard_all(spoken, passing: bool) -> float:
        start = time.process_time()
        for piece in spoken:
            said = piece.segment.text  # a transcript of the text: its tokens and the end token
            recognizer.max_new_tokens = len(recognizer.tokenizer.encode(said)) + 1 if passing else asr.MAX_NEW_TOKENS
            check.best(said, piece, lambda p: p.audio, tts.sample_rate, "English")
        recognizer.max_new_tokens = asr.MAX_NEW_TOKENS
        return time.process_time() - start

    warm = list(longform.narrate(tts, document, batch_size=1, temperature=0, max_tokens=8, language="English"))
    heard_all(warm[:1], True)
    narrate_s, check_s, capped_s, audio_s = [], [], [], []
    for _ in range(rounds):
        start = time.process_time()
        spoken = list(longform.narrate(tts, document, batch_size=1, temperature=0, max_tokens=frames,
                                       language="English"))
        narrate_s.append(time.process_time() - start)
        decoded.clear()
        check_s.append(heard_all(spoken, True))
        passing_tokens = list(decoded)
        decoded.clear()
        capped_s.append(heard_all(spoken, False))
        capped_tokens = list(decoded)
        audio_s.append(sum(p.audio.shape[0] for p in spoken) / tts.sample_rate)
    shares = [c / n for c, n in zip(check_s, narrate_s)]
    worst = [c / n for c, n in zip(capped_s, narrate_s)]
    return {"pieces": len(document.segments), "audio_s": statistics.median(audio_s),
            "narrate_s": statistics.median(narrate_s), "check_s": statistics.median(check_s),
            "capped_s": statistics.median(capped_s), "share": statistics.median(shares), "shares": shares,
            "capped_share": statistics.median(worst), "tokens": passing_tokens, "capped_tokens": capped_tokens}


# --- the driver ----------------------------------------------------------------------------------------

def _child(python: str, *args) -> dict:
    done = subprocess.run([python, "-m", "benchmarks.asr_cost", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, args[:1]))} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(args) -> dict:
    folder = args.cache / ("asr-tiny-random" if args.tiny else "asr-0.6B-random")
    if not (folder / "model.safetensors").exists():
        print(f"building the checkpoint in {folder} with qwen-asr ...", file=sys.stderr)
        subprocess.run([args.official_python, "-m", "benchmarks.asr_cost", "_build", folder, str(int(args.tiny))],
                       cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    sides = {"mlx": sys.executable, "official": args.official_python}
    results = {}
    for seconds in ([] if args.only_share else args.seconds):
        runs = {"mlx": [], "official": []}
        for r in range(args.rounds):
            for side in (("mlx", "official") if r % 2 == 0 else ("official", "mlx")):
                found = _child(sides[side], f"_{side}", folder, seconds, args.tokens, args.repeats)
                runs[side].append(found)
                print(f"{seconds:g} s round {r + 1} {side}: {json.dumps(found)}", file=sys.stderr, flush=True)
        keys = ("load_s", "transcribe_s", "cpu_s", "loaded_mb", "peak_mb")
        results[seconds] = {side: {key: statistics.median(run[key] for run in found) for key in keys}
                            | {"side": found[0]["side"], "text_tokens": found[0]["text_tokens"]}
                            for side, found in runs.items()}
    found = {"results": results, "tokens": args.tokens, "shapes": "tiny" if args.tiny else "Qwen3-ASR-0.6B",
             "share": None}
    if args.share_pieces:
        from benchmarks.checkpoints import checkpoint

        tts_folder = checkpoint("tiny" if args.tiny else "0.6B", "bf16", args.cache,
                                log=lambda m: print(m, file=sys.stderr))
        print(report(found), file=sys.stderr, flush=True)  # kept if the rest fails
        found["share"] = _child(sys.executable, "_share", folder, tts_folder, args.share_pieces, args.share_frames,
                                args.rounds)
    return found


def report(found: dict) -> str:
    lines = [f"Shapes: {found['shapes']} (random weights), {found['tokens']} new tokens at most.", ""]
    if found["results"]:
        lines += ["| audio | side | transcribe (wall) | CPU time | official / ours (CPU) | text tokens | load | "
                  "RSS loaded | peak RSS |", "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for seconds, sides in found["results"].items():
        ratio = sides["official"]["cpu_s"] / sides["mlx"]["cpu_s"]
        for name in ("mlx", "official"):
            s = sides[name]
            lines.append(f"| {seconds:g} s | {s['side']} | {s['transcribe_s']:.2f} s | {s['cpu_s']:.2f} s | "
                         + (f"{ratio:.2f}x" if name == "mlx" else "") + f" | {s['text_tokens']} | "
                         f"{s['load_s']:.1f} s | {s['loaded_mb']:.0f} MB | {s['peak_mb']:.0f} MB |")
    if found.get("share"):
        s = found["share"]
        lines += ["", f"Narration: {s['pieces']} pieces, {s['audio_s']:.1f} s of audio in {s['narrate_s']:.1f} s of "
                      f"CPU time; checking them {s['check_s']:.1f} s (heard right, {sum(s['tokens'])} tokens): "
                      f"--check adds {100 * s['share']:.1f}% (rounds: "
                      f"{', '.join(f'{100 * x:.1f}%' for x in s['shares'])}). Heard as never stopping (to the "
                      f"check's cap, {sum(s['capped_tokens'])} tokens): {s['capped_s']:.1f} s, "
                      f"{100 * s['capped_share']:.1f}%. A retry narrates and checks the piece again: "
                      f"{1 + s['share']:.2f}x (heard right) to {1 + s['capped_share']:.2f}x (never stopping) "
                      "the piece's narration time."]
    return "\n".join(lines)


def main():
    if len(sys.argv) > 1 and sys.argv[1].startswith("_"):  # one side's process
        what, rest = sys.argv[1], sys.argv[2:]
        if what == "_build":
            build_official(Path(rest[0]), bool(int(rest[1])))
            return
        if what == "_share":
            print(json.dumps(check_share(Path(rest[0]), Path(rest[1]), int(rest[2]), int(rest[3]), int(rest[4]))))
            return
        run = {"_mlx": transcribe_mlx, "_official": transcribe_official}[what]
        print(json.dumps(run(Path(rest[0]), float(rest[1]), int(rest[2]), int(rest[3]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--official-python", required=True, help="python of a venv with torch CPU and qwen-asr 0.0.6")
    parser.add_argument("--seconds", type=float, nargs="+", default=[10.0, 30.0])
    parser.add_argument("--tokens", type=int, default=32, help="new tokens decoded per transcription")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2, help="timed transcriptions per process (after one warm-up)")
    parser.add_argument("--tiny", action="store_true", help="the tests' tiny shapes (a smoke run), not the released")
    parser.add_argument("--share-pieces", type=int, default=3, help="pieces narrated and checked for the share "
                                                                    "(0: skip)")
    parser.add_argument("--share-frames", type=int, default=75, help="frames per piece (12.5 a second)")
    parser.add_argument("--only-share", action="store_true", help="the share alone, not ours against qwen-asr")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "mlx_qwen3tts_bench")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    load = os.getloadavg()
    found = compare(args)
    found["machine"] = {"platform": platform.platform(), "processor": platform.processor(), "cpus": os.cpu_count(),
                        "load_at_start": load, "load_at_end": os.getloadavg()}
    print(report(found))
    print(f"\nload average at start {load[0]:.2f}, at end {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    if args.json:
        args.json.write_text(json.dumps(found, indent=1, default=str))


if __name__ == "__main__":
    main()
