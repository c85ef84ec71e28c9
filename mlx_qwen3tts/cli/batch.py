"""`--batch-file LINES.txt`: every line of a file spoken in one batch, each written to its own numbered file
(line 7 of a 12-line file: out_07.wav). All is checked before the model loads; the files are written together
at the end."""

from pathlib import Path

import click

from .. import outputs
from ..audio.formats import encode
from ..audio.time_stretch import time_stretch
from ..errors import InputError
from .console import warn_cut, warn_runaway
from .options import Speaking
from .progress import line_done
from .sinks import npy_bytes
from .text_input import decode_utf8


def read_batch_file(path):
    """The file's (line number, text) pairs; blank lines are skipped."""
    try:
        lines = Path(path).read_bytes()
    except OSError as e:
        raise InputError(f"cannot read --batch-file {path}: {e.strerror}") from None
    lines = decode_utf8(lines, f"--batch-file {path}").splitlines()
    texts = [(number, line.strip()) for number, line in enumerate(lines, start=1) if line.strip()]
    if not texts:
        raise InputError(f"--batch-file {path} has no text lines")
    return texts


def numbered_outputs(texts, given: str, what: str) -> list:
    """out.wav -> out_1.wav ... out_9.wav, or out_001.wav ... out_300.wav: named by line, sorting right."""
    if given in outputs.STDOUT_NAMES:
        raise InputError(f"{what} {given}: --batch-file writes one numbered file per line; give a file name")
    path, width = Path(given), len(str(texts[-1][0]))
    return [outputs.resolve(path.with_name(f"{path.stem}_{number:0{width}d}{path.suffix}"), what)
            for number, _ in texts]


def line_results(tts, texts, job: Speaking, done=None):
    """One text path: each line planned as `generate` plans it (`TTS.plan`), the pieces of every line run as
    one batch (`TTS.run`), each line's pieces then joined as `generate` joins them; `done(line index, result)`
    as each line's last piece finishes."""
    from ..tts import joined

    decode = job.outs["audio"] is not None
    plans = [tts.plan(text, job.speech.split, **job.request) for text in texts]
    pieces = [plan.beside_others() for plan in plans]
    owner = [i for i, line in enumerate(pieces) for _ in line]
    finished, lines = {}, {}
    for index, result in tts.run([piece for line in pieces for piece in line], decode):
        finished[index] = result
        line = owner[index]
        mine = [j for j, o in enumerate(owner) if o == line]
        if all(j in finished for j in mine):
            lines[line] = joined([finished[j] for j in mine], decode, complete=not plans[line].cut)
            if done is not None:
                done(line, lines[line])
    return [lines[line] for line in range(len(pieces))]


def run_batch(tts, texts, job: Speaking):
    """`texts`: `read_batch_file`'s; `job.outs`: "audio" and "codes", each a list of Outputs (one per line) or None."""
    outs, fmt, quiet, speed = job.outs, job.fmt, job.outputs.quiet, job.outputs.speed
    results = line_results(tts, [text for _, text in texts], job, done=None if quiet else line_done(texts))
    items = []
    for i, ((number, _), result) in enumerate(zip(texts, results)):
        if outs["audio"] is not None:
            if result.codes.shape[0] == 0:
                raise InputError(f"line {number} produced no audio (end of speech at the first frame); nothing written")
            audio = time_stretch(result.audio, speed, result.sample_rate)
            items.append((outs["audio"][i], encode(audio, result.sample_rate, fmt.name)))
        if outs["codes"] is not None:
            items.append((outs["codes"][i], npy_bytes(result.codes)))
        warn_runaway(result.runaway, result.retried, f"line {number}: ")
        if not result.stopped_on_eos and not result.runaway:
            warn_cut(job.request["max_tokens"], "its frame budget", f"line {number} ")
    outputs.write_all(items)
    if not quiet:
        for i, (number, _) in enumerate(texts):
            written = [str(outs[key][i]) for key in ("audio", "codes") if outs[key] is not None]
            click.echo(f"line {number} -> {', '.join(written)}", err=True)
        frames = sum(r.codes.shape[0] for r in results)
        click.echo(f"{len(results)} text{'s' if len(results) != 1 else ''}, {frames} frames", err=True)
