"""`python -m mlx_qwen3tts.finetune`: the command line (cli/finetune.py)."""

from ..cli.finetune import main

if __name__ == "__main__":
    main()
