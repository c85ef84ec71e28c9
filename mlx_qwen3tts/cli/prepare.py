"""`python -m mlx_qwen3tts.finetune prepare DATA --model BASE --out DATASET [--asr MODEL] [--language NAME]`:
the options parsed and named for `finetune.prepare`, whose messages this words in the command's flags. Bad input
is one line on stderr and exit status 2; Ctrl-C keeps what was done for the next run (exit status 130)."""

import argparse
import sys

from ..errors import Qwen3TTSError

PROG = "python -m mlx_qwen3tts.finetune prepare"
FLAGS = {"data": "DATA", "model": "--model", "out": "--out", "asr": "--asr", "aligner": "--aligner",
         "language": "--language", "min_seconds": "--min-seconds", "max_seconds": "--max-seconds"}


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise Qwen3TTSError(f"{self.prog}: {message}")


def parser() -> argparse.ArgumentParser:
    from ..finetune.prepare import EXAMPLE_MODEL, MAX_SECONDS, MIN_SECONDS

    p = _Parser(prog=PROG, description="Recordings -> a fine-tuning dataset of codes, transcripts and speaker vectors.")
    p.add_argument("data", help="a folder of recordings (NAME.txt beside NAME.wav: its transcript) or a JSONL "
                                "in the official format (audio, text, ref_audio, optional language)")
    p.add_argument("--model", required=True, help=f"the Base checkpoint whose encoders to use (e.g. {EXAMPLE_MODEL})")
    p.add_argument("--out", required=True, help="the dataset folder to write (an unfinished one is resumed)")
    p.add_argument("--asr", help="a Qwen3-ASR model (e.g. Qwen/Qwen3-ASR-0.6B) to transcribe recordings without "
                                 "a transcript; long ones are cut first (at their words with --aligner, else at "
                                 "their pauses)")
    p.add_argument("--aligner", help="a Qwen3-ForcedAligner (e.g. Qwen/Qwen3-ForcedAligner-0.6B) to cut recordings "
                                     "over --max-seconds at sentence ends and pauses between words, transcribed or not")
    p.add_argument("--language", help="the language of every clip that does not declare its own (default: auto)")
    p.add_argument("--min-seconds", type=float, default=MIN_SECONDS, help="refuse shorter clips")
    p.add_argument("--max-seconds", type=float, default=MAX_SECONDS,
                   help="refuse (or, with --asr or --aligner, cut) longer ones")
    return p


def main(argv=None) -> int:
    """0 done, 2 bad input (one line on stderr), 130 stopped by Ctrl-C (run again to resume)."""
    from ..finetune.prepare import PARTIAL, prepare

    args = None
    try:
        args = parser().parse_args(argv)
        if not 0 < args.min_seconds < args.max_seconds:
            raise Qwen3TTSError("--min-seconds must be above 0 and below --max-seconds")
        summary = prepare(args.data, args.model, args.out, asr=args.asr, language=args.language, aligner=args.aligner,
                          min_seconds=args.min_seconds, max_seconds=args.max_seconds)
    except Qwen3TTSError as e:
        print(f"error: {e.worded(FLAGS)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        kept = f" ({args.out}{PARTIAL} keeps what is done)" if args else ""
        first = "\n" if sys.stderr.isatty() else ""  # after the redrawn progress line
        print(f"{first}stopped: run the same command again to resume{kept}", file=sys.stderr)
        return 130
    print(f"wrote {args.out}: " + "\n".join(summary.lines()))
    return 0
