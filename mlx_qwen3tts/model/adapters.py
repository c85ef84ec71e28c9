"""LoRA adapters kept beside a checkpoint (a fine-tuned export not merged: `mlx_qwen3tts.finetune.export`).

adapter_config.json {"rank", "scale", "dropout", "keys"} names mlx-lm's LoRA layers on every talker and code
predictor layer's projections (`keys`, relative to a layer); adapters.safetensors holds their `lora_a`, `lora_b`
under the checkpoint's names ("talker.model.layers.0.self_attn.q_proj.lora_a", ...).
"""

import json
from pathlib import Path

import mlx.core as mx

ADAPTERS = "adapters.safetensors"
ADAPTER_CONFIG = "adapter_config.json"


def has_adapters(folder: Path) -> bool:
    return (Path(folder) / ADAPTER_CONFIG).exists()


def add_lora_layers(talker, lora: dict):
    """mlx-lm LoRA layers (`lora`: rank, scale, dropout, keys) on the talker's and code predictor's layers."""
    from mlx_lm.tuner.utils import linear_to_lora_layers

    for stack in (talker.model, talker.code_predictor.model):
        linear_to_lora_layers(stack, len(stack.layers), lora)


def apply_adapters(talker, folder: Path):
    """The adapters of `folder` on the talker, in its compute dtype, frozen."""
    folder = Path(folder)
    add_lora_layers(talker, json.loads((folder / ADAPTER_CONFIG).read_text(encoding="utf-8")))
    dtype = talker.codec_head.weight.dtype
    weights = mx.load(str(folder / ADAPTERS))
    talker.load_weights([(k[len("talker."):], v.astype(dtype)) for k, v in weights.items()], strict=False)
    talker.freeze()
