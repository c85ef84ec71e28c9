"""The 12 Hz speech tokenizer ("codec"): 24 kHz audio <-> 16 codebooks at 12.5 Hz."""

SAMPLE_RATE = 24000
FRAMES_PER_SECOND = 12.5
