"""The speech_tokenizer folder as one object: the decoder, and the encoder for voice cloning.

model.safetensors holds `encoder.*` (Mimi-style encoder) and `decoder.*` tensors; anything
else is an error. The encoder is only built for Base checkpoints, the only ones that clone.
"""

from pathlib import Path
from typing import Optional

import mlx.core as mx

from ..errors import ModelLoadError
from ..model.checkpoint import apply_weights, load_weights, read_json, safetensors_files
from .decoder import CodecDecoder, DecoderArgs
from .encoder import CodecEncoder


class SpeechTokenizer:
    def __init__(self, decoder: Optional[CodecDecoder], encoder: Optional[CodecEncoder] = None):
        self.decoder, self.encoder = decoder, encoder

    def encode(self, audio_24k) -> mx.array:
        """(n,) 24 kHz samples -> (ceil(n / 1920), 16) codes."""
        if self.encoder is None:
            raise ModelLoadError("this model has no codec encoder loaded (only Base models clone voices)")
        return self.encoder.encode(audio_24k)


def load_codec(folder, encoder: bool = True, decoder: bool = True) -> SpeechTokenizer:
    """The parts asked for of a speech_tokenizer folder (config.json + model.safetensors), loaded strictly."""
    folder = Path(folder)
    config = read_json(folder / "config.json")
    for part, wanted in (("decoder_config", decoder), ("encoder_config", encoder)):
        if wanted and part not in config:
            raise ModelLoadError(f"{folder / 'config.json'} has no {part}: not a Qwen3-TTS speech tokenizer")
    files = safetensors_files(folder)
    weights = load_weights(files)
    stray = sorted(k for k in weights if not k.startswith(("encoder.", "decoder.")))
    if stray:
        raise ModelLoadError(f"{files[0]}: unexpected weights {', '.join(stray[:5])}")
    dec = CodecDecoder(DecoderArgs.from_dict(config["decoder_config"])) if decoder else None
    enc = CodecEncoder(config) if encoder else None
    for name, part in (("decoder", dec), ("encoder", enc)):
        if part is not None:
            apply_weights(part, part.sanitize(weights), f"{folder / 'model.safetensors'} ({name}.*)")
            mx.eval(part.parameters())
    return SpeechTokenizer(dec, enc)
