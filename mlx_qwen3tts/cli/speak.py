"""One text spoken: whole (`generate`, then written), or streamed chunk by chunk to the file, stdout and the
player as it is made (--stream, --play, --text-stream)."""

import sys
import time
from contextlib import ExitStack, closing

import click

from .. import outputs
from ..audio.formats import encode
from ..audio.time_stretch import TimeStretch, time_stretch
from ..codec import FRAMES_PER_SECOND
from ..errors import InputError
from .console import warn, warn_cut, warn_runaway
from .options import Speaking
from .progress import FrameProgress
from .sinks import audio_sink, npy_bytes, player
from .text_input import stdin_deltas


def speak(tts, job: Speaking):
    """`job.text` in the voice and settings of `job.request` to `job.outs` as its configs ask."""
    speech, streaming, quiet = job.speech, job.streaming, job.outputs.quiet
    audio_out, codes_out = job.outs["audio"], job.outs["codes"]
    with ExitStack() as landing:  # the run's files are renamed into place together, once all are written
        if speech.text_stream or streaming.stream or streaming.play:
            if streaming.play:  # every graph traced before the first chunk: a trace between chunks is a gap heard
                tts.warm()
            source = dict(deltas=stdin_deltas()) if speech.text_stream else dict(text=job.text)
            request = tts.request(**source, first_chunk_frames=streaming.first_chunk_frames,
                                  chunk_frames=streaming.chunk_frames, **job.request)
            for notice in request.notices:
                warn(notice)
            codes, spoken, made = _streamed(tts, request, job, landing)
        else:
            codes, spoken, made = _whole(tts, job, landing)
        stopped_on_eos, budget = spoken.stopped_on_eos, spoken.max_frames
        warn_runaway(spoken.runaway, getattr(spoken, "retried", False))
        if not stopped_on_eos and not spoken.runaway:
            warn_cut(speech.max_tokens, f"the budget for this text ({budget} frames)")
        if codes_out is not None:
            outputs.stage_all(landing, [(codes_out, npy_bytes(codes))])
    if not quiet:  # what was made and where it went, as every mode ends
        written = [str(out) for out in (audio_out, codes_out) if out is not None]
        click.echo(made + (f" -> {', '.join(written)}" if written else ""), err=True)


def _whole(tts, job: Speaking, landing: ExitStack):
    output, progress = job.outs["audio"], FrameProgress(job.outputs.quiet)
    check = job.request.get("check")
    result = tts.generate(job.text, split=job.speech.split, decode=output is not None or check is not None,
                          progress=progress, **job.request)
    progress.done()
    if check is not None:
        from ..hearing import report_bytes, summary

        job.outs["check"].write(report_bytes(result.checks, check.threshold))
        click.echo(summary(result.checks) + f" -> {job.outs['check']}", err=True)
    frames = result.codes.shape[0]
    seconds = frames / FRAMES_PER_SECOND  # of the codes: --speed applies to audio only
    if output is not None:
        if frames == 0:
            raise InputError("the model produced no audio (end of speech at the first frame)")
        audio = time_stretch(result.audio, job.outputs.speed, result.sample_rate)
        outputs.stage_all(landing, [(output, encode(audio, result.sample_rate, job.fmt.name))])
        seconds = audio.shape[0] / result.sample_rate
    return result.codes, result, f"{frames} frames, {seconds:.2f} s of audio"


def _streamed(tts, request, job: Speaking, landing: ExitStack):
    """Codes, the stream (whether the model ended the speech, the frame budget, a runaway), and what was made
    (in words); a file's audio renamed into place when `landing` closes."""
    import numpy as np

    output, fmt, play, quiet, speed = (job.outs["audio"], job.fmt, job.streaming.play, job.outputs.quiet,
                                       job.outputs.speed)
    # A rough length for the playback buffer: ~0.3 s of speech per text token (none for text read as it comes).
    expected_s = 0.3 * len(tts.tokenizer.encode(request.text)) if play and request.text is not None else None
    collected, start, progress = [], time.perf_counter(), FrameProgress(quiet)
    speaker, sink, samples_out = None, None, 0
    stretch = TimeStretch(speed, tts.sample_rate) if speed != 1.0 else None

    def out(samples):  # the audio at --speed, to the file and the player
        nonlocal samples_out
        samples_out += samples.shape[0]
        if sink is not None:
            sink(samples)
        if speaker is not None:
            speaker.add(samples)

    try:
        with ExitStack() as stack:
            chunks = stack.enter_context(closing(tts.request_chunks(request, job.speech.split)))
            if play:
                speaker = player(tts.sample_rate, expected_s)
            for chunk in chunks:
                collected.append(chunk.codes)
                if chunk.index == 0 and not quiet:
                    click.echo(f"first audio after {chunk.timings['ready'] * 1000:.0f} ms "
                               f"({chunk.frames} frame{'s' if chunk.frames > 1 else ''})", err=True)
                if output is not None and sink is None:
                    sink = stack.enter_context(audio_sink(output, fmt, tts.sample_rate, landing))
                out(chunk.samples if stretch is None else stretch.process(chunk.samples))
                progress(chunks.frames, chunks.max_frames)
            if output is not None and sink is None:
                raise InputError("the model produced no audio (end of speech at the first frame)")
            if stretch is not None:
                out(stretch.flush())
    finally:
        progress.done()
        if speaker is not None:
            speaker.close(wait=sys.exc_info()[0] is None)
    codes = np.concatenate(collected) if collected else np.zeros((0, 16), dtype=np.int32)
    made = (f"{codes.shape[0]} frames, {samples_out / tts.sample_rate:.2f} s of audio in "
            f"{time.perf_counter() - start:.2f} s")
    return codes, chunks, made
