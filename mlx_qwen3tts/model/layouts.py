"""Checkpoints already converted for MLX: ours (convert.py) and the mlx-community ones.

The mlx-community/Qwen3-TTS-12Hz-* repos were made by mlx-audio 0.3.0 (`mlx_audio/convert.py`,
`qwen3_tts.py` `Model.sanitize` and `model_quant_predicate`) with mlx-lm's `quantize_model`,
`save_model` and `save_config`:
- model.safetensors (+ index): the released key names, `position_ids` dropped, every tensor in
  the config's `torch_dtype`, speaker-encoder Conv1d kernels transposed to MLX's (out, kernel, in);
  metadata {"format": "mlx"} where the released files say {"format": "pt"}.
- 4/6/8-bit repos: every Linear of talker and code predictor whose input width divides by 64 as
  `weight` + `scales` + `biases` (embeddings, speaker encoder and codec not quantized); config.json
  gains mlx-lm's "quantization" (and an equal "quantization_config").
- speech_tokenizer/, tokenizer and generation files: copied unchanged (released layout).

Our converted folders use the same layout, so one rule covers both: a folder whose weights say
{"format": "mlx"}, or whose config carries "quantization", holds MLX-layout weights under the
checkpoint's names and needs no transposes. Everything else is in the released (PyTorch) layout.
"""

import mlx.core as mx

from .adapters import apply_adapters, has_adapters
from .checkpoint import apply_weights, load_weights, safetensors_files, safetensors_info

SPEAKER_PREFIX = "speaker_encoder."


def is_mlx_layout(files, config) -> bool:
    """True when the weights were written by MLX (mlx-lm, mlx-audio, our converter): decided by the
    files' metadata and the config's quantization entry, never by tensor shapes."""
    return bool(config.quantization) or any(safetensors_info(f)[0].get("format") == "mlx" for f in files)


def load_model(folder, config, dtype=None, prefix: str = "", fuse: bool = True):
    """The talker, code predictor and speaker encoder of a checkpoint folder in either layout,
    quantized as its config says; floating tensors whose name starts with `prefix` cast to `dtype`,
    the speaker encoder's others to float32 (as the released layout's `sanitize` leaves them). The talker's
    projections are fused (`Talker.fuse`; fuse=False: not, as training wants, whose updates replace the layers'
    weights); its parameters keep the checkpoint's names."""
    from .talker import Qwen3TTSModel

    files = safetensors_files(folder)
    weights = load_weights(files)
    model = Qwen3TTSModel(config, speaker_encoder=any(k.startswith(SPEAKER_PREFIX) for k in weights))
    if not is_mlx_layout(files, config):
        weights = model.sanitize(weights)

    def cast(key: str, value: mx.array) -> mx.array:
        if not mx.issubdtype(value.dtype, mx.floating):
            return value
        if dtype is not None and key.startswith(prefix):
            return value.astype(dtype)
        return value.astype(mx.float32) if key.startswith(SPEAKER_PREFIX) else value

    weights = {k: cast(k, v) for k, v in weights.items()}
    apply_weights(model, weights, str(folder / "model.safetensors"), config.quantization)
    if has_adapters(folder):
        apply_adapters(model.talker, folder)
    if fuse:
        model.talker.fuse()
    return model
