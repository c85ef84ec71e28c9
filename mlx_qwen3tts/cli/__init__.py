"""The command line: `mlx_qwen3tts.generate` (`cli.generate`) and the console scripts' error handling."""
