"""`--from-codes CODES.npy --output OUT.wav`: the audio of a codes file that --codes-output wrote,
decoded by the model's codec without generating anything. Checked as any run: inputs, then the
output, before the model loads."""

from pathlib import Path

import click
import numpy as np

from .. import outputs
from ..audio.formats import encode, format_for_path
from ..audio.time_stretch import time_stretch
from ..errors import InputError

# Options that would ask for generation, which a codes file replaces.
GENERATION_OPTIONS = ("text", "text_stream", "batch_file", "codes_output", "save_voice", "ref_audio", "speaker",
                      "instruct", "stream", "play")


def check_options(opts):
    """--output is needed; options that only generation uses are refused rather than ignored."""
    for name in GENERATION_OPTIONS:
        if getattr(opts, name) not in (None, False):
            option = "--" + name.replace("_", "-")
            raise InputError(f"--from-codes decodes a codes file and generates nothing: leave out {option}")
    if opts.output is None:
        raise InputError("--from-codes needs --output OUT.wav (or --output - for stdout)")


def read_codes(path: str) -> np.ndarray:
    """The array of a .npy file; its shape and values are checked by the request layer (`checked_codes`)."""
    try:
        codes = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise InputError(f"--from-codes {path} does not exist") from None
    except OSError as e:
        raise InputError(f"cannot read --from-codes {path}: {e.strerror or e}") from None
    except (ValueError, EOFError):  # not .npy, truncated, or pickled objects
        raise InputError(f"--from-codes {path} is not a .npy array of codes (as --codes-output writes)") from None
    if not isinstance(codes, np.ndarray):  # an .npz archive
        raise InputError(f"--from-codes {path} is an .npz archive; give the .npy file --codes-output wrote")
    if codes.ndim == 2 and codes.shape[0] == 0:
        raise InputError(f"--from-codes {path} holds no frames: there is nothing to decode")
    return codes


def run_from_codes(opts):
    """`opts`: the command's `generate.Options`."""
    import mlx.core as mx

    from ..tts import load

    check_options(opts)
    codes = read_codes(opts.from_codes)
    fmt = format_for_path(opts.output, opts.audio_format)
    output = outputs.resolve(opts.output, "--output")
    outputs.check_distinct([output], outputs.input_files("--from-codes", opts.from_codes)
                           + outputs.input_files("--voice", opts.voice)
                           + outputs.input_files("model", Path(opts.model).expanduser()))
    tts = load(opts.model, dtype=getattr(mx, opts.dtype) if opts.dtype else None)
    voice = tts.load_voice(opts.voice) if opts.voice is not None else None  # ICL: its reference codes lead in
    audio = time_stretch(tts.decode(codes, ref_codes=None if voice is None else voice.ref_codes), opts.speed,
                         tts.sample_rate)
    output.write(encode(audio, tts.sample_rate, fmt.name))
    if not opts.quiet:
        click.echo(f"{codes.shape[0]} frames, {audio.shape[0] / tts.sample_rate:.2f} s of audio -> {output}", err=True)
