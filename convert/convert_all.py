"""Convert every released Qwen3-TTS variant into the MLX folders we publish, with model cards.

    python convert/convert_all.py --source-root ~/qwen3-tts --output-root ~/qwen3-tts-mlx
    python convert/convert_all.py ... --variants 0.6B-Base 1.7B-VoiceDesign --formats bf16 mixed
    python convert/convert_all.py ... --upload-org mlx-community     # also push every folder

Sources are local folders named as the released repos (Qwen3-TTS-12Hz-0.6B-Base, ...), so the
script runs offline; fetch them once with `huggingface-cli download Qwen/<name> --local-dir ...`.
Each variant becomes one folder per format, named as `mlx_qwen3tts.convert` names it:
bf16; 8, 6 and 4 bits (uniform recipe: every Linear and the text embedding); and the mixed
recipe talker4-cp8 (talker 4-bit, code predictor and output heads 8-bit), the 4-bit we
recommend. --mlx-audio uses the linear-only recipe instead of uniform, so that mlx-audio's
loader can read the N-bit folders too. A folder that exists is complete (conversion is atomic)
and is skipped unless --force.
"""

import argparse
import sys
from pathlib import Path

from mlx_qwen3tts.convert import convert, default_name, recipe_bits
from mlx_qwen3tts.cli.console import cli_errors
from mlx_qwen3tts.errors import InputError

VARIANTS = ("0.6B-Base", "0.6B-CustomVoice", "1.7B-Base", "1.7B-CustomVoice", "1.7B-VoiceDesign")
FORMATS = {"bf16": (None, None), "8bit": ("uniform", 8), "6bit": ("uniform", 6), "4bit": ("uniform", 4),
           "mixed": ("talker4-cp8", None)}


def plan(variants, formats, mlx_audio: bool):
    """(source folder name, output folder name, recipe, bits) for every conversion asked for."""
    rows = []
    for variant in variants:
        source = f"Qwen3-TTS-12Hz-{variant}"
        for fmt in formats:
            recipe, bits = FORMATS[fmt]
            if mlx_audio and recipe == "uniform":
                recipe = "linear-only"
            rows.append((source, default_name(source, "bfloat16", recipe, recipe_bits(recipe, bits)), recipe, bits))
    return rows


def main(argv=None) -> list:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source-root", type=Path, required=True, help="Folder holding the released checkpoints.")
    ap.add_argument("--output-root", type=Path, required=True, help="Folder to write the conversions into.")
    ap.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    ap.add_argument("--formats", nargs="+", choices=list(FORMATS), default=list(FORMATS))
    ap.add_argument("--group-size", type=int, default=64)
    ap.add_argument("--mlx-audio", action="store_true", help="N-bit folders as linear-only (mlx-audio can load).")
    ap.add_argument("--upload-org", help="Upload each folder to <org>/<folder name> on the Hugging Face hub.")
    ap.add_argument("--force", action="store_true", help="Convert again into existing folders.")
    args = ap.parse_args(argv)
    written = []
    with cli_errors({"group_size": "--group-size", "force": "--force"}):  # convert()'s arguments as ours
        rows = plan(args.variants, args.formats, args.mlx_audio)
        missing = sorted({s for s, *_ in rows if not (args.source_root / s / "config.json").exists()})
        if missing:
            raise InputError(f"no released checkpoint folder {', '.join(missing)} in {args.source_root}")
        args.output_root.mkdir(parents=True, exist_ok=True)
        for source, name, recipe, bits in rows:
            output = args.output_root / name
            if output.exists() and not args.force:
                print(f"{output} exists, skipped (--force converts it again)", file=sys.stderr)
                continue
            repo = f"{args.upload_org}/{name}" if args.upload_org else None
            convert(str(args.source_root / source), str(output), dtype="bfloat16", bits=bits,
                    group_size=args.group_size, recipe=recipe, force=args.force, upload_repo=repo)
            print(f"wrote {output}" + (f" and uploaded it to {repo}" if repo else ""), file=sys.stderr)
            written.append(output)
    return written


if __name__ == "__main__":
    main()
