"""`python -m mlx_qwen3tts.generate`, the command's published name: the command line is
`mlx_qwen3tts.cli.generate`."""

from .cli.generate import main  # noqa: F401

if __name__ == "__main__":
    main()
