"""The 12 Hz speech tokenizer ("codec"): 24 kHz audio <-> 16 codebooks at 12.5 Hz."""

from .decoder import CodecDecoder, DecoderArgs, DecoderState, load_decoder

__all__ = ["CodecDecoder", "DecoderArgs", "DecoderState", "load_decoder"]
