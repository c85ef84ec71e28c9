"""A fine-tuning step, ours (MLX: full, LoRA, QLoRA) against the official PyTorch step on the same batch.

The official step is `sft_12hz.py`'s with the alignment corrected (tests/reference/record_finetune.py says how):
qwen-tts 0.1.1's talker and code predictor, float32 on the CPU, forward over the batch our collate lays out
(text through the text projection, each item's speaker vector, the frame codes' embeddings), the talker's CE at the
scored positions, `forward_sub_talker_finetune` on the hidden before each frame with head i on codebook i + 1,
loss = talker CE + 0.3 x predictor CE, backward, gradient clipping at 1.0, `torch.optim.AdamW` (weight decay
0.01). As ours, it freezes the text embedding (the script also updates its 151,936 rows: dense gradients and
AdamW state that would only add to its time and memory). Ours is `Trainer.one_step` (benchmarks/finetune.py).

Each measurement is its own process (its peak memory is its own): load, --warmup steps, then --repeats timed
steps (median). The sides alternate round by round (the machine may be shared); the medians over --rounds are
reported, with each process's peak RSS and, for ours, MLX's peak memory. Both sides also report their loss of the
batch at the base weights (the same computation: they agree to float32 rounding).

    python -m benchmarks.finetune_torch --official-python REF/bin/python                  # 0.6B shapes
    python -m benchmarks.finetune_torch --official-python REF/bin/python --preset tiny --rounds 1

REF: a venv with torch 2.13.0 CPU, transformers 4.57.3, accelerate, librosa, soundfile, einops, sox,
onnxruntime and `pip install --no-deps qwen-tts==0.1.1` (tests/reference/README.md).
"""

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("full", "lora", "qlora")
BATCH_KEYS = ("text_ids", "text_mask", "codec_ids", "codec_mask", "speakers", "frame_codes", "frame_mask",
              "talker_at", "talker_targets", "predictor_at", "predictor_codes", "predictor_targets")


def _peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


# --- our side (the package's venv) ---------------------------------------------------------------------

def write_batch(folder: Path, args, path: Path):
    """The benchmark's batch (benchmarks/finetune.py's items) as our collate lays it out, for the official side."""
    import mlx_qwen3tts  # noqa: F401  (before mlx)
    import numpy as np

    from benchmarks import finetune
    from mlx_qwen3tts.finetune import objective
    from mlx_qwen3tts.finetune.train import load_base
    from mlx_qwen3tts.model import checkpoint
    from mlx_qwen3tts.tokenizer import TextTokenizer

    config = checkpoint.load_config(folder)
    hidden = config.talker_config.hidden_size
    tokenizer = TextTokenizer.from_folder(folder)
    examples = [objective.example(i, tokenizer, config)
                for i in finetune.items(args.batch_size, args.frames, args.tokens, hidden)]
    batch = objective.collate(examples, config.talker_config.codec_eos_token_id)
    np.savez(path, **{k: np.array(getattr(batch, k)) for k in BATCH_KEYS})
    talker = load_base(folder, "full").model.talker  # float32, as the official side
    return {"loss": objective.loss(talker, batch)[0].item()}


def ours(folder: Path, method: str, args) -> dict:
    import mlx_qwen3tts  # noqa: F401  (before mlx)
    import mlx.core as mx

    from benchmarks import finetune

    args.rounds = args.repeats  # benchmarks/finetune.py's timed steps in one process
    found = finetune.step_times(folder, method, args)
    return {"side": f"ours {method} (MLX {mx.__version__}, {mx.default_device()})", "step_s": found["step_s"],
            "mlx_peak_gb": found["peak_gb"], "peak_rss_gb": _peak_rss_gb()}


# --- the official side (the reference venv) -------------------------------------------------------------

def official(folder: Path, batch_path: Path, args) -> dict:
    import numpy as np
    import torch
    import torch.nn.functional as F

    sys.path.insert(0, str(ROOT / "tests" / "reference"))
    import _torchaudio_stub  # noqa: F401  (before qwen_tts)
    from qwen_tts.core.models.configuration_qwen3_tts import Qwen3TTSConfig
    from qwen_tts.core.models.modeling_qwen3_tts import Qwen3TTSTalkerForConditionalGeneration
    from safetensors.torch import load_file

    torch.manual_seed(0)
    b = {k: torch.from_numpy(v) for k, v in np.load(batch_path).items()}
    # the talker alone (what the step trains), as `Qwen3TTSForConditionalGeneration.from_pretrained` builds it,
    # without the codec it would also load
    talker = Qwen3TTSTalkerForConditionalGeneration(Qwen3TTSConfig.from_pretrained(str(folder)).talker_config)
    weights = load_file(str(folder / "model.safetensors"))
    talker.load_state_dict({k[len("talker."):]: v.float() for k, v in weights.items() if k.startswith("talker.")})
    talker = talker.float().train()
    del weights
    for name, p in talker.named_parameters():
        p.requires_grad_(not name.startswith("model.text_embedding."))
    trainable = [p for p in talker.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=1e-5, weight_decay=0.01)
    B, L = b["text_ids"].shape

    def step():
        embeds = talker.text_projection(talker.model.text_embedding(b["text_ids"].long())) * b["text_mask"]
        embeds = embeds + talker.model.codec_embedding(b["codec_ids"].long()) * b["codec_mask"] + b["speakers"]
        tables = talker.code_predictor.get_input_embeddings()
        for q in range(15):
            embeds = embeds + tables[q](b["frame_codes"][..., q].long()) * b["frame_mask"]
        out = talker(inputs_embeds=embeds, attention_mask=torch.ones(B, L, dtype=torch.long),
                     output_hidden_states=True)
        logits = out.logits.reshape(B * L, -1)[b["talker_at"].long()]
        talker_ce = F.cross_entropy(logits, b["talker_targets"].long())
        hidden = out.hidden_states[0][-1].reshape(B * L, -1)[b["predictor_at"].long()]
        sub_logits, _ = talker.forward_sub_talker_finetune(b["predictor_codes"].long(), hidden)
        predictor_ce = F.cross_entropy(sub_logits.reshape(-1, sub_logits.shape[-1]),
                                       b["predictor_targets"].reshape(-1).long())
        loss = talker_ce + 0.3 * predictor_ce
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trainable, 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return loss.item()

    first = step()
    for _ in range(args.warmup - 1):
        step()
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return {"side": f"qwen-tts 0.1.1 (torch {torch.__version__}, {torch.get_num_threads()} threads, "
                    f"{talker.config._attn_implementation})",
            "step_s": statistics.median(times), "peak_rss_gb": _peak_rss_gb(), "loss": first}


# --- the driver ------------------------------------------------------------------------------------------

def _child(python: str, *args) -> dict:
    done = subprocess.run([python, "-m", "benchmarks.finetune_torch", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode != 0:
        raise SystemExit(f"{args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _shape_args(args) -> list:
    return [args.batch_size, args.frames, args.tokens, args.warmup, args.repeats, args.dtype]


def compare(args) -> dict:
    from benchmarks import checkpoints

    folder = checkpoints.checkpoint(args.preset, "bf16", args.cache, log=lambda m: print(m, file=sys.stderr))
    sides = [*args.methods, "official"]
    runs = {side: [] for side in sides}
    with tempfile.TemporaryDirectory() as tmp:
        batch = Path(tmp) / "batch.npz"
        our_loss = _child(sys.executable, "_batch", folder, batch, *_shape_args(args))["loss"]
        for r in range(args.rounds):
            for side in (sides if r % 2 == 0 else sides[::-1]):
                if side == "official":
                    found = _child(args.official_python, "_official", folder, batch, *_shape_args(args))
                else:
                    found = _child(sys.executable, "_ours", folder, side, *_shape_args(args))
                runs[side].append(found)
                print(f"round {r + 1} {side}: {json.dumps(found)}", file=sys.stderr, flush=True)
    keys = ("step_s", "peak_rss_gb", "mlx_peak_gb")
    out = {side: {k: statistics.median(x[k] for x in found) for k in keys if k in found[0]}
           | {"side": found[0]["side"], "steps_s": [x["step_s"] for x in found]} for side, found in runs.items()}
    out["official"]["loss"] = runs["official"][0]["loss"]
    for method in args.methods:
        out[method]["loss"] = our_loss
    return out


def report(found: dict, args) -> str:
    torch_s = found["official"]["step_s"]
    lines = [f"{args.preset} shapes, batch {args.batch_size} x ({args.tokens} tokens + {args.frames} frames), "
             f"median of {args.rounds} alternating rounds x {args.repeats} steps",
             "| side | step (median) | ours / torch | peak RSS | MLX peak | loss at the base weights |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, s in found.items():
        ratio = f"{s['step_s'] / torch_s:.2f}x" if name != "official" else ""
        mlx_peak = f"{s['mlx_peak_gb']:.2f} GB" if "mlx_peak_gb" in s else ""
        loss = f"{s['loss']:.4f}" if s.get("loss") is not None else ""
        lines.append(f"| {s['side']} | {s['step_s']:.3f} s | {ratio} | {s['peak_rss_gb']:.2f} GB | {mlx_peak} | "
                     f"{loss} |")
    return "\n".join(lines)


def _shape_namespace(rest: list) -> argparse.Namespace:
    batch, frames, tokens, warmup, repeats, dtype = rest
    return argparse.Namespace(batch_size=int(batch), frames=int(frames), tokens=int(tokens), warmup=int(warmup),
                              repeats=int(repeats), rounds=int(repeats), dtype=dtype)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0].startswith("_"):  # one side's process
        what, rest = argv[0], argv[1:]
        if what == "_batch":
            print(json.dumps(write_batch(Path(rest[0]), _shape_namespace(rest[2:]), Path(rest[1]))))
        elif what == "_ours":
            print(json.dumps(ours(Path(rest[0]), rest[1], _shape_namespace(rest[2:]))))
        else:
            print(json.dumps(official(Path(rest[0]), Path(rest[1]), _shape_namespace(rest[2:]))))
        return None
    from benchmarks.checkpoints import DEFAULT_CACHE, PRESETS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--official-python", required=True, help="python of a venv with torch CPU and qwen-tts 0.1.1")
    ap.add_argument("--preset", default="0.6B", choices=PRESETS)
    ap.add_argument("--methods", default="full,lora,qlora")
    ap.add_argument("--batch-size", type=int, default=2)
    ap.add_argument("--frames", type=int, default=100, help="frames a clip (8 s at 12.5 Hz)")
    ap.add_argument("--tokens", type=int, default=30, help="text tokens a clip")
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"],
                    help="our full fine-tuning's weights")
    ap.add_argument("--warmup", type=int, default=1, help="untimed steps a process (ours: the compilation)")
    ap.add_argument("--repeats", type=int, default=2, help="timed steps a process")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    args.methods = [m for m in args.methods.split(",") if m]
    unknown = sorted(set(args.methods) - set(METHODS))
    if unknown:
        raise SystemExit(f"--methods: unknown {', '.join(unknown)}; choose from {', '.join(METHODS)}")
    load = os.getloadavg()
    found = compare(args)
    text = report(found, args)
    machine = {"platform": platform.platform(), "cpus": os.cpu_count(), "load_at_start": load,
               "load_at_end": os.getloadavg()}
    print(text + f"\nMachine: {machine['platform']}, {machine['cpus']} CPUs, load "
                 f"{load[0]:.1f} at the start, {machine['load_at_end'][0]:.1f} at the end")
    if args.json:
        args.json.write_text(json.dumps({"results": found, "machine": machine}, indent=1))
    return found


if __name__ == "__main__":
    main()
