"""Benchmarks of mlx-qwen3tts (see benchmarks/run.py); not part of the installed package."""
