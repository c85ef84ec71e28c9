"""Checkpoints already converted for MLX: ours (convert.py) and the mlx-community ones.

What an mlx-community/Qwen3-TTS-12Hz-* repo holds. Their model cards say "converted ... using
mlx-audio version 0.3.0"; read from that release (`mlx_audio/convert.py` `convert` and
`copy_model_files`; `mlx_audio/tts/models/qwen3_tts/qwen3_tts.py` `Model.sanitize`,
`model_quant_predicate`, `post_load_hook`; `speaker_encoder.py`; `talker.py`) and from the mlx-lm
helpers it calls (`mlx_lm.utils.quantize_model`, `save_model`, `save_config`):
- model.safetensors (+ model.safetensors.index.json; one shard below 5 GB): the released key names
  (`talker.*`, and `speaker_encoder.*` for Base), since mlx-audio's modules mirror them and
  `Model.sanitize` renames nothing; `position_ids` dropped. Every tensor is cast to the config's
  `torch_dtype` (bfloat16). The speaker encoder's Conv1d kernels are stored transposed to MLX's
  (out, kernel, in); the talker has no convolutions. The safetensors metadata says
  {"format": "mlx"} (mlx-lm's `save_model`); the released files say {"format": "pt"}.
- 4/6/8-bit repos: every Linear of the talker and code predictor whose input width divides by 64
  (all of them at released sizes) is stored as `weight` (packed uint32) + `scales` + `biases`;
  `text_embedding`, `codec_embedding`, the speaker encoder and the codec are not quantized.
  config.json gains "quantization": {"group_size": 64, "bits": N} (newer mlx-lm adds
  "mode": "affine"), an equal "quantization_config", sorted keys, no "_name_or_path"; its
  model_type stays "qwen3_tts".
- speech_tokenizer/ is copied file by file from the source: float32, PyTorch layout, released keys.
  The codec loader reads it like a released folder.
- Tokenizer files, generation_config.json and preprocessor files are copied unchanged.

Our converted folders use the same layout, so one rule covers both: a folder whose weights say
{"format": "mlx"}, or whose config carries "quantization", holds MLX-layout weights under the
checkpoint's names and needs no transposes. Everything else is in the released (PyTorch) layout.
"""

import mlx.core as mx

from .checkpoint import apply_weights, load_weights, safetensors_files, safetensors_info

SPEAKER_PREFIX = "speaker_encoder."


def is_mlx_layout(files, config) -> bool:
    """True when the weights were written by MLX (mlx-lm, mlx-audio, our converter): decided by the
    files' metadata and the config's quantization entry, never by tensor shapes."""
    if getattr(config, "quantization", None):
        return True
    return any(safetensors_info(f)[0].get("format") == "mlx" for f in files)


def sanitize(model, weights: dict, files, config) -> dict:
    """Checkpoint tensors -> `Qwen3TTSModel` parameters, for either layout.

    Released layout: the model's own `sanitize` (speaker-encoder kernels transposed). MLX layout: the
    names and layouts are final already; only the speaker encoder is brought to float32, as for
    released checkpoints.
    """
    if not is_mlx_layout(files, config):
        return model.sanitize(weights)
    return {k: _speaker_float32(k, v) for k, v in weights.items()}


def load_model(folder, config, dtype=None, prefix: str = ""):
    """The talker, code predictor and speaker encoder of a checkpoint folder in either layout,
    quantized as its config says; floating tensors whose name starts with `prefix` cast to `dtype`."""
    from .talker import Qwen3TTSModel

    files = safetensors_files(folder)
    model = Qwen3TTSModel(config)
    weights = sanitize(model, load_weights(files), files, config)
    if dtype is not None:
        cast = lambda k, v: k.startswith(prefix) and mx.issubdtype(v.dtype, mx.floating)  # noqa: E731
        weights = {k: v.astype(dtype) if cast(k, v) else v for k, v in weights.items()}
    apply_weights(model, weights, str(folder / "model.safetensors"), config.quantization)
    return model


def _speaker_float32(key: str, value: mx.array) -> mx.array:
    if key.startswith(SPEAKER_PREFIX) and mx.issubdtype(value.dtype, mx.floating):
        return value.astype(mx.float32)
    return value
