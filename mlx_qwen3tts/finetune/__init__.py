"""Fine-tuning Qwen3-TTS in MLX: prepare a dataset, train the talker and code predictor, export a
CustomVoice checkpoint (docs/finetune.md)."""
