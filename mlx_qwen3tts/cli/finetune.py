"""Command line of fine-tuning: `python -m mlx_qwen3tts.finetune prepare | train | export` (docs/finetune.md).
It parses options and maps the library's names to them; the work is `mlx_qwen3tts.finetune`'s."""

import sys

import click

from ..errors import Qwen3TTSError
from .console import OneLineErrors


class OneLineGroup(OneLineErrors, click.Group):
    """Usage errors as one `error:` line and exit 2, as every other error."""


def _run(fn, *args, **kwargs):
    """fn's result; a ValueError or a package error as one `error:` line (the library's names of settings as this
    command's options) and exit 2."""
    try:
        return fn(*args, **kwargs)
    except Qwen3TTSError as e:
        command = click.get_current_context().command
        names = {p.name: p.opts[0] for p in command.params if p.opts and p.opts[0].startswith("--")}
        click.echo(f"error: {e.worded({**names, 'speaker': '--speaker'})}", err=True)
        sys.exit(2)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)


@click.group(cls=OneLineGroup)
def main():
    """Fine-tune Qwen3-TTS: a folder of recordings to a dataset, a trained run, a CustomVoice checkpoint."""


@main.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True}, add_help_option=False)
@click.pass_context
def prepare(ctx):
    """A folder of audio files (a same-named .txt is a clip's transcript) or an official JSONL -> a dataset
    (`prepare DATA --model BASE --out DATASET [--asr MODEL] [--language NAME]`; --help for all options)."""
    from .prepare import main as command

    sys.exit(command(ctx.args))


@main.command(cls=OneLineErrors)
@click.option("--model", required=True, help="the checkpoint to fine-tune (folder or hub id)")
@click.option("--data", required=True, help="a dataset made by `prepare`")
@click.option("--out", required=True, help="the run folder (the same again resumes it)")
@click.option("--method", type=click.Choice(["full", "lora", "qlora"]), default="full", show_default=True)
@click.option("--steps", type=int, default=None, help="optimizer steps (default: 3 epochs)")
@click.option("--epochs", type=int, default=None, help="passes over the dataset (instead of --steps)")
@click.option("--lr", type=float, default=None, help="peak learning rate (default 2e-5 full, 1e-4 LoRA; 0 accepted)")
@click.option("--batch-size", type=int, default=2, show_default=True)
@click.option("--grad-accum", type=int, default=1, show_default=True, help="micro-batches an optimizer step")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--val-share", type=float, default=None,
              help="share of clips held out for validation (default 0.05 from 20 clips, else none)")
@click.option("--dtype", type=click.Choice(["float32", "bfloat16"]), default="float32", show_default=True,
              help="the weights' dtype (the frozen base's too, for LoRA)")
@click.option("--predictor-weight", type=float, default=0.3, show_default=True,
              help="the code predictor's share of the loss")
@click.option("--warmup", type=int, default=None, help="warm-up steps (default: a twentieth, at most 100)")
@click.option("--schedule", type=click.Choice(["cosine", "constant"]), default="cosine", show_default=True)
@click.option("--clip", type=float, default=1.0, show_default=True, help="gradient norm clipping (0: none)")
@click.option("--lora-rank", type=int, default=8, show_default=True)
@click.option("--lora-scale", type=float, default=20.0, show_default=True)
@click.option("--no-progress", is_flag=True, help="no progress line")
def train(model, data, out, no_progress, **options):
    """Train the talker and code predictor on a dataset; writes RUN/log.jsonl a line a step."""
    from .. import finetune

    _run(finetune.train, model, data, out, progress=not no_progress, **options)


@main.command(cls=OneLineErrors)
@click.argument("run")
@click.option("--speaker", "speakers", multiple=True, required=True,
              help="the new speaker's name; SPEAKER=NAME for each speaker of a several-speaker dataset")
@click.option("--out", required=True, help="the CustomVoice checkpoint folder to write")
@click.option("--merge", is_flag=True, help="merge LoRA into the weights (else kept as an adapter beside them)")
def export(run, speakers, out, merge):
    """A trained run -> a CustomVoice checkpoint (the speakers at free spk_id rows)."""
    from .. import finetune

    path = _run(finetune.export, run, list(speakers), out, merge=merge)
    click.echo(f"wrote {path}; speak with: mlx_qwen3tts.generate --model {path} --speaker "
               f"{speakers[0].rpartition('=')[2].lower()} --text ... --output out.wav", err=True)


if __name__ == "__main__":
    main()
