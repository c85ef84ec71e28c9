"""`--from-codes CODES.npy --output OUT.wav`: the audio of a codes file that --codes-output wrote,
decoded by the model's codec without generating anything."""

import numpy as np

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
