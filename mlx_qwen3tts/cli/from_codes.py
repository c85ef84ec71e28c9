"""`--from-codes CODES.npy --output OUT.wav`: the audio of a codes file that --codes-output wrote,
decoded by the model's codec without generating anything. Checked as any run: inputs, then the
output, before the model loads."""

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import click
import numpy as np

from .. import outputs
from ..audio.formats import encode, format_for_path
from ..audio.time_stretch import time_stretch
from ..errors import InputError
from .options import Model, Outputs

# Options that would ask for generation, which a codes file replaces, by the config that holds them.
GENERATION_OPTIONS = (("speech", "text"), ("speech", "text_stream"), ("speech", "batch_file"),
                      ("outputs", "codes_output"), ("outputs", "save_voice"), ("voice", "ref_audio"),
                      ("voice", "speaker"), ("speech", "instruct"), ("streaming", "stream"), ("streaming", "play"))


def check_options(configs):
    """--output is needed; options that only generation uses are refused rather than ignored."""
    for config, name in GENERATION_OPTIONS:
        if getattr(getattr(configs, config), name) not in (None, False):
            option = "--" + name.replace("_", "-")
            raise InputError(f"--from-codes decodes a codes file and generates nothing: leave out {option}")
    if configs.outputs.output is None:
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


@dataclass(frozen=True)
class DecodeCodes:
    """The job of `--from-codes` (its options checked by `check_options`): the codes file, the model, the
    saved voice whose reference codes lead in (an ICL clone's), and where the audio goes."""

    codes: str
    model: Model
    voice: Optional[str]
    outputs: Outputs

    def run(self):
        outs = self.outputs
        codes = read_codes(self.codes)
        fmt = format_for_path(outs.output, outs.audio_format)
        output = outputs.resolve(outs.output, "--output")
        outputs.check_distinct([output], outputs.input_files("--from-codes", self.codes)
                               + outputs.input_files("--voice", self.voice)
                               + outputs.input_files("model", Path(self.model.model).expanduser()))
        tts = self.model.load()
        voice = tts.load_voice(self.voice) if self.voice is not None else None  # ICL: its reference codes lead in
        audio = time_stretch(tts.decode(codes, ref_codes=None if voice is None else voice.ref_codes), outs.speed,
                             tts.sample_rate)
        output.write(encode(audio, tts.sample_rate, fmt.name))
        if not outs.quiet:
            click.echo(f"{codes.shape[0]} frames, {audio.shape[0] / tts.sample_rate:.2f} s of audio -> {output}",
                       err=True)
