"""The forced aligner's cost: time and memory per second of audio, ours (MLX) against the official
`qwen-asr` 0.0.6 (PyTorch), on the released shapes of Qwen3-ForcedAligner-0.6B with random weights; and the
share of narration time that word captions add to a long-form run (each segment aligned as it finishes).

Each measurement runs in its own process (so its peak memory is its own): load the model, align the clip
once to warm up, then align it `--repeats` times; the two sides alternate round by round (the machine may
be shared) and the medians are reported. Both compute in float32 on the CPU.

    python -m benchmarks.aligner_cost --official-python REF/bin/python            # REF: torch CPU, qwen-asr
    python -m benchmarks.aligner_cost --official-python REF/bin/python --seconds 10 30 --rounds 3
    python -m benchmarks.aligner_cost --official-python REF/bin/python --base-tree /tmp/before   # and an older tree

The official side needs its own virtual environment: `pip install torch==2.13.0 transformers==4.57.6
accelerate librosa soundfile nagisa` then `pip install --no-deps qwen-asr==0.0.6` (as
tests/reference/record_aligner.py). Where nagisa does not import (it needs DyNet's `dynet_config`, which pip
may leave out), tests/reference/record_asr.py's placeholder stands in for it: the clips here are English, which
qwen-asr splits without nagisa (only Japanese uses it). The released-shape checkpoint is built once with
qwen-asr's own classes (bf16, random weights, the real Qwen vocabulary from the test fixtures) into `--cache`.
"""

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RATE = 24000  # the TTS model's rate: what long-form gives the aligner
WORDS = ("the morning light fell across the quiet harbour while boats rocked gently and gulls called over "
         "water that shone like glass under a pale sky").split()

# Qwen/Qwen3-ForcedAligner-0.6B's config.json (the released shapes and ids).
RELEASED = {
    "architectures": ["Qwen3ASRForConditionalGeneration"], "model_type": "qwen3_asr",
    "timestamp_token_id": 151705, "timestamp_segment_time": 80,
    "support_languages": ["Chinese", "English", "Cantonese", "French", "German", "Italian", "Japanese", "Korean",
                          "Portuguese", "Russian", "Spanish"],
    "thinker_config": {
        "model_type": "qwen3_forced_aligner", "classify_num": 5000, "audio_token_id": 151676,
        "audio_start_token_id": 151669, "audio_end_token_id": 151670,
        "audio_config": {"num_mel_bins": 128, "encoder_layers": 24, "encoder_attention_heads": 16,
                         "encoder_ffn_dim": 4096, "d_model": 1024, "max_source_positions": 1500, "n_window": 50,
                         "n_window_infer": 800, "output_dim": 1024, "downsample_hidden_size": 480,
                         "conv_chunksize": 500, "scale_embedding": False, "activation_function": "gelu"},
        "text_config": {"vocab_size": 152064, "hidden_size": 1024, "intermediate_size": 3072,
                        "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 8,
                        "head_dim": 128, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0,
                        "rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20],
                                         "mrope_interleaved": True, "interleaved": True},
                        "tie_word_embeddings": False, "hidden_act": "silu", "attention_bias": False},
    },
}


def speech_like(seconds: float, rate: int = RATE, seed: int = 0):
    """Syllable-like bursts (harmonic tones under a raised-cosine envelope, a little noise) and a text of
    about 2.5 words a second: what the aligner is given."""
    import numpy as np

    rng = np.random.default_rng(seed)
    t = np.arange(int(round(rate * seconds))) / rate
    out = np.zeros_like(t)
    start = 0.1
    while start < seconds - 0.15:
        length = rng.uniform(0.12, 0.3)
        inside = (t >= start) & (t < start + length)
        env = 0.5 - 0.5 * np.cos(2 * np.pi * (t[inside] - start) / length)
        f0 = rng.uniform(110, 260)
        tone = sum(np.sin(2 * np.pi * f0 * k * t[inside]) / k for k in (1, 2, 3))
        out[inside] += 0.3 * env * (tone + 0.2 * rng.standard_normal(inside.sum()))
        start += length + rng.uniform(0.03, 0.12)
    text = " ".join(rng.choice(WORDS, max(1, int(seconds * 2.5))))
    return out.astype(np.float32), text.capitalize() + "."


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb / 1024


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- run inside one side's process -------------------------------------------------------------------

def build_official(folder: Path):
    """The released-shape checkpoint, made and saved with qwen-asr's classes (run with the official python)."""
    import torch

    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    import record_asr  # noqa: F401  (its nagisa placeholder, before qwen_asr)
    from record_aligner import write_tokenizer
    from qwen_asr.core.transformers_backend import Qwen3ASRConfig, Qwen3ASRForConditionalGeneration

    folder.mkdir(parents=True, exist_ok=True)
    write_tokenizer(folder)
    (folder / "preprocessor_config.json").write_text(json.dumps({
        "feature_extractor_type": "WhisperFeatureExtractor", "processor_class": "Qwen3ASRProcessor",
        "feature_size": 128, "sampling_rate": 16000, "hop_length": 160, "n_fft": 400, "chunk_length": 30,
        "n_samples": 480000, "nb_max_frames": 3000, "padding_side": "right", "padding_value": 0.0,
        "return_attention_mask": True, "dither": 0.0}, indent=2))
    torch.manual_seed(0)
    config = Qwen3ASRConfig(**{k: v for k, v in RELEASED.items() if k not in ("architectures", "model_type")})
    model = Qwen3ASRForConditionalGeneration(config).eval()
    assert model.thinker.lm_head.out_features == 5000
    model.to(torch.bfloat16).save_pretrained(str(folder), safe_serialization=True)
    saved = json.loads((folder / "config.json").read_text())
    saved["thinker_config"]["model_type"] = "qwen3_forced_aligner"  # what makes qwen-asr build the 5,000 classes
    (folder / "config.json").write_text(json.dumps(saved, indent=2))


def align_official(folder: Path, seconds: float, repeats: int) -> dict:
    import torch

    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    import record_asr  # noqa: F401  (its nagisa placeholder, before qwen_asr: English never splits with nagisa)
    from qwen_asr import Qwen3ForcedAligner

    audio, text = speech_like(seconds)
    start = time.perf_counter()
    aligner = Qwen3ForcedAligner.from_pretrained(str(folder), dtype=torch.float32, device_map="cpu")
    load_s, loaded = time.perf_counter() - start, _rss_mb()
    run = lambda: aligner.align(audio=(audio, RATE), text=text, language="English")[0]  # noqa: E731
    words = len(run())
    times, cpu = [], []
    for _ in range(repeats):
        start, used = time.perf_counter(), time.process_time()
        run()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return {"side": "qwen-asr 0.0.6 (torch %s, %d threads)" % (torch.__version__, torch.get_num_threads()),
            "load_s": load_s, "align_s": statistics.median(times), "cpu_s": statistics.median(cpu), "words": words,
            "loaded_mb": loaded, "peak_mb": _peak_mb()}


def align_mlx(folder: Path, seconds: float, repeats: int) -> dict:
    sys.path.insert(0, str(ROOT))
    import mlx_qwen3tts  # noqa: F401  (before mlx: OpenBLAS ahead of MLX's reference BLAS)
    import mlx.core as mx
    from mlx_qwen3tts import aligner as aligner_api

    audio, text = speech_like(seconds)
    start = time.perf_counter()
    aligner = aligner_api.load(str(folder))
    mx.eval(aligner.model.parameters())
    load_s, loaded = time.perf_counter() - start, _rss_mb()
    words = len(aligner.align(audio, RATE, text, "English"))
    times, cpu = [], []
    for _ in range(repeats):
        start, used = time.perf_counter(), time.process_time()
        aligner.align(audio, RATE, text, "English")
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return {"side": f"mlx_qwen3tts (MLX {mx.__version__}, {mx.default_device()})", "load_s": load_s,
            "align_s": statistics.median(times), "cpu_s": statistics.median(cpu), "words": words,
            "loaded_mb": loaded, "peak_mb": _peak_mb()}


def narration_share(aligner_folder: Path, tts_folder: Path, segments: int, frames: int, rounds: int) -> dict:
    """CPU time to narrate `segments` sentences (released 0.6B shapes, random weights, `frames` frames each) and
    to align each one's audio, round after round in one process: the share captions add (CPU time, as the
    machine may be shared; long-form aligns each segment as it finishes, on the same thread)."""
    sys.path.insert(0, str(ROOT))
    import mlx_qwen3tts
    from mlx_qwen3tts import aligner as aligner_api
    from mlx_qwen3tts import longform

    tts = mlx_qwen3tts.load(str(tts_folder))
    aligner = aligner_api.load(str(aligner_folder))
    text = " ".join(speech_like(1, seed=i)[1].replace(".", "").capitalize() + " " + " ".join(WORDS[:8]) + "."
                    for i in range(segments))
    document = longform.document(text)
    warm = next(longform.narrate(tts, document, batch_size=1, temperature=0, max_tokens=8))
    aligner.align(warm.audio, tts.sample_rate, warm.segment.shown, "English")
    narrate_s, align_s, audio_s = [], [], []
    for _ in range(rounds):
        start, spoken = time.process_time(), []
        for piece in longform.narrate(tts, document, batch_size=1, temperature=0, max_tokens=frames):
            spoken.append(piece)
        narrate_s.append(time.process_time() - start)
        start = time.process_time()
        for piece in spoken:
            aligner.align(piece.audio, tts.sample_rate, piece.segment.shown, "English")
        align_s.append(time.process_time() - start)
        audio_s.append(sum(p.audio.shape[0] for p in spoken) / tts.sample_rate)
    shares = [a / n for a, n in zip(align_s, narrate_s)]
    return {"segments": len(document.segments), "audio_s": statistics.median(audio_s),
            "narrate_s": statistics.median(narrate_s), "align_s": statistics.median(align_s),
            "share": statistics.median(shares), "shares": shares}


# --- the driver ----------------------------------------------------------------------------------------

def _child(python: str, *args, root: Path = ROOT) -> dict:
    done = subprocess.run([python, "-m", "benchmarks.aligner_cost", *map(str, args)], cwd=root, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(root)})
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, args[:1]))} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(args) -> dict:
    folder = args.cache / "forced-aligner-0.6B-random"
    if not (folder / "model.safetensors").exists():
        print(f"building the released-shape aligner in {folder} with qwen-asr ...", file=sys.stderr)
        subprocess.run([args.official_python, "-m", "benchmarks.aligner_cost", "_build", folder], cwd=ROOT, check=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    sides = {"mlx": sys.executable, "official": args.official_python}
    order = ("mlx", "official") + (("base",) if args.base_tree else ())
    results = {}
    for seconds in args.seconds:
        runs = {side: [] for side in order}
        for r in range(args.rounds):
            for side in (order if r % 2 == 0 else order[::-1]):
                if side == "base":  # our side, from the other tree's code
                    found = _child(sys.executable, "_mlx", folder, seconds, args.repeats, root=args.base_tree)
                    found["side"] += f" at {args.base_tree}"
                else:
                    found = _child(sides[side], f"_{side}", folder, seconds, args.repeats)
                runs[side].append(found)
                print(f"{seconds:g} s round {r + 1} {side}: {json.dumps(found)}", file=sys.stderr, flush=True)
        keys = ("load_s", "align_s", "cpu_s", "loaded_mb", "peak_mb")
        results[seconds] = {side: {key: statistics.median(run[key] for run in found) for key in keys}
                            | {"side": found[0]["side"]} for side, found in runs.items()}
    share = None
    if args.share_segments:
        sys.path.insert(0, str(ROOT))
        import mlx_qwen3tts  # noqa: F401  (before mlx: OpenBLAS ahead of MLX's reference BLAS)
        from benchmarks.checkpoints import checkpoint

        tts_folder = checkpoint("0.6B", "bf16", args.cache, log=lambda m: print(m, file=sys.stderr))
        print(report({"results": results, "share": None}, args), file=sys.stderr, flush=True)  # kept if the rest fails
        share = _child(sys.executable, "_share", folder, tts_folder, args.share_segments, args.share_frames,
                       args.rounds)
    return {"results": results, "share": share}


def report(found: dict, args) -> str:
    lines = ["| audio | side | align (wall) | CPU time | CPU per s of audio | official / ours (CPU) | load | "
             "RSS loaded | peak RSS | peak − loaded, per s of audio |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for seconds, sides in found["results"].items():
        ratio = sides["official"]["cpu_s"] / sides["mlx"]["cpu_s"]
        for name in [n for n in ("mlx", "official", "base") if n in sides]:
            s = sides[name]
            lines.append(f"| {seconds:g} s | {s['side']} | {s['align_s']:.2f} s | {s['cpu_s']:.2f} s | "
                         f"{s['cpu_s'] / seconds * 1000:.0f} ms | " + (f"{ratio:.2f}x" if name == "mlx" else "")
                         + f" | {s['load_s']:.1f} s | "
                         f"{s['loaded_mb']:.0f} MB | {s['peak_mb']:.0f} MB | "
                         f"{(s['peak_mb'] - s['loaded_mb']) / seconds:.1f} MB |")
    for seconds, sides in found["results"].items():
        ours = sides["mlx"]
        lines.append(f"\n{seconds:g} s, wall medians: official / ours "
                     f"{sides['official']['align_s'] / ours['align_s']:.2f}x"
                     + (f", base tree / ours {sides['base']['align_s'] / ours['align_s']:.2f}x "
                        f"(CPU {sides['base']['cpu_s'] / ours['cpu_s']:.2f}x)" if "base" in sides else ""))
    if found["share"]:
        s = found["share"]
        lines += ["", f"Narration: {s['segments']} segments, {s['audio_s']:.1f} s of audio in "
                      f"{s['narrate_s']:.1f} s of CPU time; aligning them {s['align_s']:.1f} s: "
                      f"word captions add {100 * s['share']:.1f}% "
                      f"(rounds: {', '.join(f'{100 * x:.1f}%' for x in s['shares'])})."]
    return "\n".join(lines)


def main():
    if len(sys.argv) > 1 and sys.argv[1].startswith("_"):  # one side's process
        what, rest = sys.argv[1], sys.argv[2:]
        if what == "_build":
            build_official(Path(rest[0]))
            return
        if what == "_share":
            print(json.dumps(narration_share(Path(rest[0]), Path(rest[1]), int(rest[2]), int(rest[3]), int(rest[4]))))
            return
        run = {"_mlx": align_mlx, "_official": align_official}[what]
        print(json.dumps(run(Path(rest[0]), float(rest[1]), int(rest[2]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--official-python", required=True, help="python of a venv with torch CPU and qwen-asr 0.0.6")
    parser.add_argument("--seconds", type=float, nargs="+", default=[10.0, 30.0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2, help="timed alignments per process (after one warm-up)")
    parser.add_argument("--share-segments", type=int, default=4, help="sentences narrated for the share (0: skip)")
    parser.add_argument("--share-frames", type=int, default=100, help="frames per sentence (12.5 a second)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "mlx_qwen3tts_bench")
    parser.add_argument("--base-tree", type=Path, help="a third side: our aligner from another checkout of this "
                        "package (e.g. an older commit), alternating with the two others")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    load = os.getloadavg()
    found = compare(args)
    found["machine"] = {"platform": platform.platform(), "processor": platform.processor(), "cpus": os.cpu_count(),
                        "load_at_start": load, "load_at_end": os.getloadavg()}
    print(report(found, args))
    print(f"\nload average at start {load[0]:.2f}, at end {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    if args.json:
        args.json.write_text(json.dumps(found, indent=1, default=str))


if __name__ == "__main__":
    main()
