"""The Qwen3-ASR "thinker" that Qwen3-ForcedAligner (`aligner`) and Qwen3-ASR (`asr`) share: the audio front
end (`features`), the audio encoder (`encoder`) and the Qwen3 decoder with its head (`model`)."""
