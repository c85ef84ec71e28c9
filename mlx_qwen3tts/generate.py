"""Command line: `mlx_qwen3tts.generate --text "Hello" --output hello.wav`.

Also runs as `python -m mlx_qwen3tts.generate`. Bad input ends with one `error:` line on stderr
and exit status 2; nothing is left at the output paths.
"""

import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import click

from .errors import InputError, Qwen3TTSError

DEFAULT_MODEL = "Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice"


class Progress:
    def __init__(self, quiet: bool, max_frames: int):
        self.quiet, self.max_frames = quiet, max_frames
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, frames: int):
        now = time.perf_counter()
        if self.quiet or now - self.last < 0.25:
            return
        self.last = now
        audio_s = frames * 0.08
        click.echo(
            f"\rframes {frames}/{self.max_frames}  audio {audio_s:5.2f} s  "
            f"RTF {(now - self.start) / max(audio_s, 1e-9):5.2f}",
            err=True,
            nl=False,
        )

    def done(self):
        if not self.quiet and self.last:
            click.echo("", err=True)


def _check_output(path, what):
    if path is None:
        return None
    path = Path(path)
    if not path.parent.exists():
        raise InputError(f"cannot write {what} {path}: folder {path.parent} does not exist")
    if path.is_dir():
        raise InputError(f"{what} {path} is a folder; give a file name")
    return path


def _write_atomic(path: Path, write):
    """Write through a temporary file in the same folder so a failure leaves nothing behind."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--model", default=DEFAULT_MODEL, show_default=True, help="Local folder or Hugging Face repo id.")
@click.option("--text", required=True, help="Text to speak.")
@click.option("--output", type=click.Path(dir_okay=False), help="WAV file to write (24 kHz).")
@click.option("--language", default="auto", show_default=True, help="Language name, or auto.")
@click.option("--speaker", default=None, help="Preset speaker (CustomVoice models).")
@click.option("--instruct", default=None, help="Style instruction (VoiceDesign, 1.7B CustomVoice).")
@click.option(
    "--text-mode",
    type=click.Choice(["streaming", "non-streaming"]),
    default=None,
    help="Text layout; default: upstream's for the model variant.",
)
@click.option("--temperature", type=float, default=None, help="0 = greedy everywhere. Default: generation_config.json.")
@click.option("--top-k", type=int, default=None, help="Default: generation_config.json.")
@click.option("--top-p", type=float, default=None, help="Default: generation_config.json.")
@click.option("--repetition-penalty", type=float, default=None, help="Default: generation_config.json.")
@click.option("--max-tokens", type=int, default=None, help="At most this many frames (12.5 per second).")
@click.option("--seed", type=int, default=None, help="Random seed for sampling.")
@click.option("--codes-output", type=click.Path(dir_okay=False), help="Write the codes (frames x 16 int32) as .npy.")
@click.option("--dtype", type=click.Choice(["bfloat16", "float16", "float32"]), default=None, help="Compute dtype.")
@click.option("--quiet", is_flag=True, help="No progress output.")
def main(**opts):
    """Speak TEXT with a Qwen3-TTS model."""
    with warnings.catch_warnings():
        warnings.showwarning = lambda msg, *a, **k: click.echo(f"warning: {msg}", err=True)
        try:
            run(**opts)
        except Qwen3TTSError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(130)


def run(model, text, output, language, speaker, instruct, text_mode, temperature, top_k, top_p,
        repetition_penalty, max_tokens, seed, codes_output, dtype, quiet, **_):
    import mlx.core as mx
    import numpy as np

    from .tts import load

    if output is None and codes_output is None:
        raise InputError("nothing to write: give --output OUT.wav and/or --codes-output CODES.npy")
    if not text or not text.strip():
        raise InputError("the text is empty; give some text to speak")
    if max_tokens is not None and max_tokens < 1:
        raise InputError(f"--max-tokens must be at least 1, got {max_tokens}")
    output = _check_output(output, "output")
    codes_output = _check_output(codes_output, "codes output")

    tts = load(model, dtype=getattr(mx, dtype) if dtype else None)
    limit = max_tokens or int(tts.generation_config.get("max_new_tokens", 8192))
    progress = Progress(quiet, limit)
    result = tts.generate(
        text,
        language=language,
        speaker=speaker,
        instruct=instruct,
        text_mode=text_mode,
        temperature=temperature,
        top_k=top_k,
        top_p=top_p,
        repetition_penalty=repetition_penalty,
        max_tokens=max_tokens,
        seed=seed,
        decode=output is not None,
        progress=progress,
    )
    progress.done()
    if not result.stopped_on_eos:
        click.echo(f"warning: stopped at --max-tokens {limit} frames without an end-of-speech token", err=True)
    if codes_output is not None:
        _write_atomic(codes_output, lambda tmp: np.save(open(tmp, "wb"), result.codes))
    if output is not None:
        import soundfile as sf

        _write_atomic(output, lambda tmp: sf.write(tmp, result.audio, result.sample_rate, format="WAV", subtype="FLOAT"))
    if not quiet:
        seconds = result.audio.shape[0] / result.sample_rate if output else result.codes.shape[0] * 0.08
        click.echo(f"{result.codes.shape[0]} frames, {seconds:.2f} s of audio", err=True)


if __name__ == "__main__":
    main()
