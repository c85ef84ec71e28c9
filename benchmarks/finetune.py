"""Fine-tuning benchmark: a training step's time and peak memory for full, LoRA and QLoRA, and the memory each
model size and method needs (estimated from the shapes, `finetune.train.estimate_memory`).

On a random-weight checkpoint of --preset (benchmarks/checkpoints.py; 0.6B: the released shapes) it builds a
batch of --batch-size clips of --frames frames with a --tokens-token text (random codes and speaker vectors),
runs --warmup optimizer steps, then times --rounds more (the median is reported) and reads MLX's peak memory.
The estimate table covers 0.6B and 1.7B for each method at the same batch shape without building either.

    PYTHONPATH=$PWD python -m benchmarks.finetune --preset 0.6B            # released shapes: minutes a method
    PYTHONPATH=$PWD python -m benchmarks.finetune --preset tiny --rounds 3 # seconds (a smoke run)
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import mlx_qwen3tts  # noqa: F401  (first: it loads OpenBLAS before mlx.core is: mlx_qwen3tts/backend.py)
import mlx.core as mx  # noqa: E402
import numpy as np  # noqa: E402

from mlx_qwen3tts.finetune import objective  # noqa: E402
from mlx_qwen3tts.finetune.dataset import Item  # noqa: E402
from mlx_qwen3tts.model.config import ModelConfig  # noqa: E402
from mlx_qwen3tts.model.talker import Qwen3TTSModel  # noqa: E402

from benchmarks import checkpoints  # noqa: E402
from benchmarks.checkpoints import DEFAULT_CACHE  # noqa: E402

training = sys.modules["mlx_qwen3tts.finetune.train"]  # the module (the package's `train` is the function)
METHODS = ("full", "lora", "qlora")


def items(batch: int, frames: int, tokens: int, hidden: int, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    text = " ".join(["word"] * tokens)
    return [Item(id=f"c{i}", text=text, language="english", codes=rng.integers(0, 2048, (frames, 16)).astype(np.int32),
                 speaker_vector=rng.standard_normal(hidden).astype(np.float32)) for i in range(batch)]


def step_times(folder: Path, method: str, args) -> dict:
    """Median seconds of an optimizer step and the peak memory, for one method on the preset's checkpoint."""
    mx.random.seed(0)
    base = training.load_base(folder, method, args.dtype)
    hidden = base.model.talker.codec_head.weight.shape[1]
    examples = [objective.example(i, base.tokenizer, base.config)
                for i in items(args.batch_size, args.frames, args.tokens, hidden)]
    opts = training.Options(method=method, batch_size=args.batch_size, steps=args.warmup + args.rounds, lr=1e-5,
                            progress=False)
    plan = training.Plan.of(len(examples), opts)
    with tempfile.TemporaryDirectory() as out, training.buffers_kept():  # as `train` runs its trainer
        trainer = training.Trainer(base, (examples, []), plan, opts, Path(out), {})
        times = []
        mx.reset_peak_memory()
        for r in range(args.warmup + args.rounds):
            start = time.perf_counter()
            trainer.one_step()
            if r >= args.warmup:
                times.append(time.perf_counter() - start)
    return {"step_s": statistics.median(times), "peak_gb": mx.get_peak_memory() / 2**30,
            "positions": sum(e.length for e in examples)}


def estimates(args) -> dict:
    """{size: {method: GB}} from the released shapes (lazy modules: nothing is allocated)."""
    out = {}
    for preset in ("0.6B", "1.7B"):
        out[preset] = {}
        for method in METHODS:
            model = Qwen3TTSModel(ModelConfig.from_json_dict(checkpoints.model_config(preset)))
            if method == "full" and args.dtype == "bfloat16":
                model.set_dtype(mx.bfloat16)
            training.shape_for(model, method)
            hidden = model.talker.codec_head.weight.shape[1]
            examples = [objective.Example(np.zeros(args.tokens + 12 + args.frames, np.int32), None, None, 0, None,
                                          np.zeros((args.frames, 16), np.int32), 0) for _ in range(args.batch_size)]
            need = training.estimate_memory(model.talker, examples, training.Options(batch_size=args.batch_size))
            out[preset][method] = {k: v / 2**30 for k, v in need.items()}
            del hidden
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="0.6B", choices=checkpoints.PRESETS)
    ap.add_argument("--methods", default="full,lora,qlora")
    ap.add_argument("--batch-size", type=int, default=2)
    ap.add_argument("--frames", type=int, default=100, help="frames a clip (8 s at 12.5 Hz)")
    ap.add_argument("--tokens", type=int, default=30, help="text tokens a clip")
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"], help="full fine-tuning's weights")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", type=Path, help="write the results here too")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = ap.parse_args(argv)
    folder = checkpoints.checkpoint(args.preset, "bf16", args.cache)
    results = {"preset": args.preset, "device": str(mx.default_device()), "batch_size": args.batch_size,
               "frames": args.frames, "tokens": args.tokens, "measured": {}, "estimated_gb": estimates(args)}
    print(f"{args.preset}, batch {args.batch_size} x ({args.tokens} tokens + {args.frames} frames), "
          f"{mx.default_device()}")
    print(f"{'method':8} {'step s (median)':>16} {'peak GB':>8}")
    for method in args.methods.split(","):
        r = step_times(folder, method, args)
        results["measured"][method] = r
        print(f"{method:8} {r['step_s']:16.3f} {r['peak_gb']:8.2f}", flush=True)
    print("estimated memory (GB): weights + optimizer + activations = total")
    for preset, methods in results["estimated_gb"].items():
        for method, e in methods.items():
            print(f"  {preset:5} {method:6} {e['weights']:6.2f} + {e['optimizer']:6.2f} + {e['activations']:6.2f}"
                  f" = {e['total']:6.2f}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
