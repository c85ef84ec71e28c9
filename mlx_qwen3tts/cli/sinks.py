"""Where the command's audio and codes go: a file written whole or chunk by chunk, stdout or a pipe as a
stream, the player (`--play`), and codes as .npy bytes."""

import io
from contextlib import ExitStack, closing, contextmanager
from dataclasses import replace

import click

from ..audio.formats import StreamEncoder, open_file


@contextmanager
def audio_sink(output, fmt, sample_rate, landing: ExitStack):
    """A function taking each chunk's samples: a seekable file gets complete headers at the end and is renamed
    into place when `landing` closes (with the run's other files), stdout, pipes and devices get a stream
    (open-ended WAV header)."""
    if output.seekable:
        # the writer is closed also when interrupted; staged() then drops the temporary file
        tmp = landing.enter_context(output.staged())
        with closing(open_file(tmp, fmt.name, sample_rate)) as writer:
            yield writer.write
        return
    with output.open() as f:
        encoder = StreamEncoder(fmt.name, sample_rate)

        def send(samples):
            f.write(encoder.write(samples))
            f.flush()

        yield send
        f.write(encoder.close())


def npy_bytes(codes) -> bytes:
    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, codes)
    return buffer.getvalue()


@contextmanager
def play_words():
    """A playback failure in this command's words: the option that asked for it, and the file it could write."""
    from ..audio.playback import PlaybackError

    try:
        yield
    except PlaybackError as e:
        raise PlaybackError(f"--play: {e}; or write a file with --output OUT.wav instead") from None


def player(sample_rate: int, expected_s):
    from ..audio.playback import Player

    with play_words():
        return Player(sample_rate, expected_s=expected_s)


def playable(streaming, outs):
    """--play where nothing can play: an error when it was the only output, else a warning, and the
    files are still written (streamed as --play would have). `streaming`: a `cli.options.Streaming`,
    `outs`: `cli.options.Outputs`."""
    from ..audio.playback import check_output_device, output_device_problem

    problem = output_device_problem()
    if problem is None:
        return streaming
    if outs.output is None and outs.codes_output is None:
        with play_words():
            check_output_device()  # raises, with the advice to write a file
    written = " and ".join(str(o) for o in (outs.output, outs.codes_output) if o is not None)
    click.echo(f"warning: cannot play: {problem}; writing {written} only", err=True)
    return replace(streaming, play=False, stream=True)
