"""The memory a fine-tuning step needs on a Mac, computed from the released shapes (docs/finetune.md).

    python -m benchmarks.finetune_memory [--batch-size 4] [--seconds 10] [--text-tokens 30] [--rank 8]

Parameters are counted from the package's own modules built with the released 0.6B and 1.7B shapes
(`benchmarks.checkpoints.model_config`; arrays never materialized): the talker (its text embedding,
text projection, 28 layers, codec embedding and head) and the code predictor. The speaker encoder and the
codec are not in a training step: `prepare` computed their outputs once.

Per method, bytes held through a step:
- full fp32: weights 4, gradients 4, AdamW's two moments 8 (per trained parameter: all but the text embedding,
  which training keeps frozen, as `mlx_qwen3tts.finetune.train.shape_for` leaves it), activations in float32;
- full bf16: weights 2, gradients 2, moments 4 (MLX's AdamW keeps its state in the parameter's dtype);
- lora: the base in bf16 (2 a parameter, no gradients); rank-`rank` adapters (A: in x r, B: r x out) on
  every attention and MLP projection of both transformers, trained in float32 (4 + 4 + 8 a parameter);
- qlora: as lora, the base's projections and heads 4-bit (mlx's affine quantization, groups of 64 with a
  bf16 scale and bias: 4.5 bits a weight); embeddings stay bf16.
Activations are what autodiff keeps for the backward pass of one batch, without recomputation: per token and
layer the block's inputs, norms, q/k/v (before and after their norms and rotary), attention scores and
probabilities (heads x positions), the attention output, the MLP's gate, up, SiLU and product, and the
residuals; plus the text path (2048-wide embedding, the projection's two layers) and the logits with their
softmax (talker: 3072 a position; code predictor: 15 heads x 2048 a frame). A batch holds `batch-size` clips
of `seconds` of speech (12.5 frames a second) and `text-tokens` of text; the talker sees text + frames + 9
prompt positions, the code predictor one 16-position sequence a frame. These are upper estimates: MLX's fused
attention keeps less, and memory freed during the step is reused.
"""

import argparse
import math
import re

from benchmarks.checkpoints import model_config  # noqa: E402  (puts the package first on sys.path)
import mlx.nn as nn  # noqa: E402
from mlx.utils import tree_flatten  # noqa: E402

from mlx_qwen3tts.finetune.train import shape_for  # noqa: E402
from mlx_qwen3tts.model.config import ModelConfig  # noqa: E402
from mlx_qwen3tts.model.talker import Qwen3TTSModel  # noqa: E402

GB = 1e9
PROMPT_POSITIONS = 9  # role, think and speaker slots and the codec BOS/EOS around the text (upstream's collate)
PREDICTOR_POSITIONS = 16  # the talker's hidden and codebooks 0..14, one sequence a frame
MAC_SIZES = (8, 16, 24, 32, 36, 48, 64, 96, 128, 192)
GPU_SHARE = 0.75  # of unified memory macOS lets Metal wire by default (about)
PROJECTION = re.compile(r"\.layers\.\d+\.(self_attn|mlp)\.\w+_proj$")


def counts(preset: str) -> dict:
    """Parameter counts of a preset's talker + code predictor, by kind, and its shapes."""
    config = ModelConfig.from_json_dict(model_config(preset))
    model = Qwen3TTSModel(config)
    linears = {p: m for p, m in model.named_modules() if isinstance(m, nn.Linear)}
    projections = [m.weight.shape for p, m in linears.items() if PROJECTION.search(p)]
    heads = sum(m.weight.size for p, m in linears.items() if "head" in p)
    params = dict(tree_flatten(model.parameters()))
    shape_for(model, "full")  # what full fine-tuning trains
    return {"total": sum(v.size for v in params.values()),
            "full": sum(v.size for _, v in tree_flatten(model.trainable_parameters())),
            "embeddings": sum(v.size for k, v in params.items() if "embedding" in k),
            "projections": sum(o * i for o, i in projections), "heads": heads, "projection_shapes": projections,
            "talker": config.talker_config, "predictor": config.talker_config.code_predictor_config}


def layer_values(hidden, ffn, heads, kv_heads, head_dim, positions) -> int:
    """Values one transformer layer keeps per token for the backward pass."""
    q, kv = heads * head_dim, kv_heads * head_dim
    return 6 * hidden + 3 * q + 4 * kv + 2 * heads * positions + 4 * ffn


def activation_bytes(c: dict, batch: int, seconds: float, text_tokens: int, dtype_bytes: int) -> float:
    frames = math.ceil(seconds * 12.5)
    t, p = c["talker"], c["predictor"]
    positions = text_tokens + frames + PROMPT_POSITIONS
    talker = batch * positions * t.num_hidden_layers * layer_values(
        t.hidden_size, t.intermediate_size, t.num_attention_heads, t.num_key_value_heads, t.head_dim, positions)
    text = batch * positions * (3 * t.text_hidden_size + t.hidden_size)
    predictor = batch * frames * PREDICTOR_POSITIONS * p.num_hidden_layers * layer_values(
        p.hidden_size, p.intermediate_size, p.num_attention_heads, p.num_key_value_heads, p.head_dim,
        PREDICTOR_POSITIONS)
    logits = 2 * 4 * batch * (positions * t.vocab_size + frames * (p.num_code_groups - 1) * p.vocab_size)
    return (talker + text + predictor) * dtype_bytes + logits


def methods(c: dict, rank: int) -> dict:
    """Method -> (trained parameters, bytes of weights, gradients, optimizer state, activation dtype bytes)."""
    n, f = c["total"], c["full"]
    lora = sum(rank * (i + o) for o, i in c["projection_shapes"])
    quantized = c["projections"] + c["heads"]
    qlora_base = quantized * 4.5 / 8 + (n - quantized) * 2
    return {"full fp32": (f, 4 * n, 4 * f, 8 * f, 4), "full bf16": (f, 2 * n, 2 * f, 4 * f, 2),
            "lora": (lora, 2 * n + 4 * lora, 4 * lora, 8 * lora, 2),
            "qlora": (lora, qlora_base + 4 * lora, 4 * lora, 8 * lora, 2)}


def smallest_mac(total: float) -> str:
    fits = [size for size in MAC_SIZES if total <= GPU_SHARE * size * GB]
    return f"{fits[0]} GB" if fits else f"over {MAC_SIZES[-1]} GB"


def table(args) -> list:
    rows = ["| model | method | trained params | weights | grads | AdamW | activations | total | a Mac with |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for preset in ("0.6B", "1.7B"):
        c = counts(preset)
        for method, (trained, w, g, o, act_bytes) in methods(c, args.rank).items():
            a = activation_bytes(c, args.batch_size, args.seconds, args.text_tokens, act_bytes)
            total = w + g + o + a
            rows.append(f"| {preset} ({c['total'] / 1e6:.0f} M) | {method} | {trained / 1e6:.1f} M | {w / GB:.2f} GB "
                        f"| {g / GB:.2f} GB | {o / GB:.2f} GB | {a / GB:.2f} GB | {total / GB:.1f} GB "
                        f"| {smallest_mac(total)} |")
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--seconds", type=float, default=10.0, help="speech a clip")
    p.add_argument("--text-tokens", type=int, default=30, help="text tokens a clip")
    p.add_argument("--rank", type=int, default=8, help="LoRA rank")
    args = p.parse_args(argv)
    print(f"batch: {args.batch_size} clips of {args.seconds:g} s and {args.text_tokens} text tokens; LoRA rank "
          f"{args.rank}; 'a Mac with': the smallest unified memory whose {GPU_SHARE:.0%} holds the total")
    for preset in ("0.6B", "1.7B"):
        c = counts(preset)
        print(f"{preset}: {c['total'] / 1e6:.1f} M parameters in talker + code predictor, "
              f"{c['embeddings'] / 1e6:.1f} M of them embeddings (the text embedding "
              f"{c['talker'].text_vocab_size} x {c['talker'].text_hidden_size})")
    print("\n".join(table(args)))


if __name__ == "__main__":
    main()
