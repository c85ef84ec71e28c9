"""Command line: `mlx_qwen3tts.generate --text "Hello" --output hello.wav`.

Also runs as `python -m mlx_qwen3tts.generate`. Bad input ends with one `error:` line on stderr
and exit status 2, and nothing is left at the output paths.
"""

import io
import os
import signal
import sys
import threading
import time
import warnings
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

import click

from .. import __version__, outputs
from ..audio.formats import (FORMAT_NAMES, STREAMABLE, AudioFormat, StreamEncoder, encode, format_for_path,
                             not_streamable, open_file)
from ..audio.time_stretch import MAX_SPEED, MIN_SPEED, TimeStretch, time_stretch
from ..codec import FRAMES_PER_SECOND
from ..errors import InputError
from ..longform.progress import StatusLine
from .console import OneLineErrors, cli_errors
from .flags import DEFAULT_MODEL, FLAGS, PATH_OPTIONS  # noqa: F401  (DEFAULT_MODEL: also the server's)
from .text_input import checked_utf8, decode_utf8, stdin_deltas  # noqa: F401  (stdin_deltas: also the tests')
from .saved_voices import voice_file
from .speakers import help_epilog

class Progress:
    """`frames budget audio RTF` on stderr as `StatusLine` shows records; with split text, per piece."""

    def __init__(self, quiet: bool, stream=None):
        self.quiet, self.start, self.last = quiet, time.perf_counter(), 0.0
        self.done_frames, self.piece, self.piece_frames = 0, 1, 0
        self.status = StatusLine(stream)
        self.every_s = 0.25 if self.status.tty else 2.0  # a log gets a line every 2 s, not four a second

    def __call__(self, frames: int, budget: int, piece: int = 1, pieces: int = 1):
        if piece != self.piece:  # a new piece: what the last one made counts towards the audio so far
            self.done_frames, self.piece = self.done_frames + self.piece_frames, piece
        self.piece_frames = frames
        now = time.perf_counter()
        if self.quiet or now - self.last < self.every_s:
            return
        self.last = now
        audio_s = (self.done_frames + frames) / FRAMES_PER_SECOND
        where = f"piece {piece}/{pieces}  " if pieces > 1 else ""
        self.status.update(f"{where}frames {frames}/{budget}  audio {audio_s:5.2f} s  "
                           f"RTF {(now - self.start) / max(audio_s, 1e-9):5.2f}")

    def done(self):
        self.status.end()


@click.command(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]}, epilog=help_epilog())
@click.option("-m", "--model", default=DEFAULT_MODEL, show_default=True, help="Local folder or Hugging Face repo id.")
@click.option("-t", "--text", help="Text to speak; '-' reads all of stdin.")
@click.option("--text-stream", is_flag=True, help="Read the text from stdin as it is written (e.g. piped from an LLM).")
@click.option("-o", "--output", help="Audio file to write (24 kHz); the extension picks the format "
                               "(.wav .flac .ogg/.opus .mp3 .aac .m4a/.m4b .pcm); '-' writes to stdout.")
@click.option("-f", "--format", "audio_format", type=click.Choice(FORMAT_NAMES),
              help="Audio format when the output name does not say it (stdout: default wav).")
@click.option("-l", "--language", default="auto", show_default=True, help="Language name, or auto.")
@click.option("-s", "--speaker", help="Preset speaker (CustomVoice models; default Ryan).")
@click.option("-i", "--instruct", help="Style instruction (VoiceDesign, 1.7B CustomVoice).")
@click.option("--text-mode", type=click.Choice(["streaming", "non-streaming"]),
              help="Text layout; default: upstream's for the model variant.")
@click.option("--temperature", type=float, help="0 = greedy everywhere. Default: generation_config.json.")
@click.option("--top-k", type=int, help="Default: generation_config.json.")
@click.option("--top-p", type=float, help="Default: generation_config.json.")
@click.option("--repetition-penalty", type=float, help="Default: generation_config.json.")
@click.option("--max-tokens", type=int, help="At most this many frames (12.5 per second) for the whole text.")
@click.option("--seed", type=int, help="Random seed for sampling.")
@click.option("--speed", type=click.FloatRange(MIN_SPEED, MAX_SPEED), default=1.0, show_default=True,
              help=f"Speaking rate of the audio written or played, pitch kept ({MIN_SPEED}-{MAX_SPEED}; 2 = twice as "
                   "fast).")
@click.option("--codes-output", help="Write the codes (frames x 16 int32) as .npy.")
@click.option("-r", "--ref-audio", type=click.Path(), help="Reference audio to clone (Base models): WAV, FLAC, "
              "OGG/Opus, MP3; M4A/AAC/ALAC and others with PyAV. The first 30 s are used.")
@click.option("--ref-text", help="Transcript of the reference audio (in-context cloning).")
@click.option("--x-vector-only", is_flag=True, help="Clone from the speaker embedding alone (no transcript).")
@click.option("--save-voice", help="Save the cloned voice (a safetensors file, written under exactly this name).")
@click.option("-v", "--voice", type=click.Path(), help="A voice saved with --save-voice.")
@click.option("--stream", is_flag=True, help="Decode and write audio chunk by chunk while generating.")
@click.option("--play", is_flag=True, help="Play the audio as it is generated.")
@click.option("--first-chunk-frames", type=int, default=1, show_default=True, help="Frames before the first chunk.")
@click.option("--chunk-frames", type=int, default=4, show_default=True, help="Frames per later chunk.")
@click.option("--split", type=click.Choice(["auto", "sequence", "batch", "none"]), default="auto", show_default=True,
              help="Long text: cut at sentence ends and synthesize the pieces one after the other or as a batch.")
@click.option("--batch-file", type=click.Path(dir_okay=False),
              help="Synthesize every line of this file in one batch. Outputs are numbered by line (line 7 of a "
                   "12-line file: out_07.wav); blank lines are skipped and get no file.")
@click.option("--text-file", help="Long-form: speak a whole .txt, Markdown .md, .html or .epub file of any length "
              "('-': stdin), written as it goes; .m4b/.m4a outputs get chapters (and an EPUB's title, author and "
              "cover). See docs/longform.md.")
@click.option("--captions", help="With --text-file: captions per sentence (.srt, .vtt, or .json with sample offsets).")
@click.option("--caption-words", is_flag=True, help="With --captions: time every word with Qwen3-ForcedAligner "
              "(WebVTT word timestamps, a 'words' list per JSON cue, an SRT cue per word). See docs/aligner.md.")
@click.option("--aligner", default="Qwen/Qwen3-ForcedAligner-0.6B", show_default=True,
              help="With --caption-words: the aligner model (hub id or folder).")
@click.option("--aligner-bits", type=click.Choice(["4", "6", "8"]), default=None,
              help="With --caption-words: quantize the aligner's decoder as it loads (default: as stored).")
@click.option("--resume", is_flag=True, help="With --text-file: continue an interrupted run of the same command.")
@click.option("--split-chapters", is_flag=True, help="With --text-file: one output file per chapter "
              "(book_01_Title.mp3, ...).")
@click.option("--script", is_flag=True, help="With --text-file: a dialogue script of 'Name: text' or '[Name] text' "
              "lines.")
@click.option("--cast", multiple=True, metavar="NAME=VOICE", help="With --script: who speaks a name's lines (a preset "
              "speaker or a saved voice file; NAME 'default' for the rest). Repeatable.")
@click.option("--lexicon", help="TSV of 'word<TAB>how to say it' applied to the text before speaking.")
@click.option("--normalize/--no-normalize", default=None, help="Numbers, dates and symbols as words "
              "(default: on for --text-file).")
@click.option("--heading-pattern", help="With --text-file: a regular expression; plain-text lines matching it "
              "start chapters (Markdown uses # and ## headings).")
@click.option("--skip-chapters", metavar="PATTERN", help="With --text-file: leave out the chapters whose whole title "
              "this regular expression matches, any case (e.g. 'Cover|Copyright|Contents').")
@click.option("--batch-size", type=int, default=8, show_default=True, help="With --text-file: segments generated "
              "at once.")
@click.option("--dtype", type=click.Choice(["bfloat16", "float16", "float32"]), help="Compute dtype.")
@click.option("-q", "--quiet", is_flag=True, help="No progress output.")
@click.option("--list-speakers", is_flag=True, help="List the model's preset speakers and their languages, and exit.")
@click.option("--from-codes", type=click.Path(dir_okay=False),
              help="Decode a file written by --codes-output into --output (no generation).")
@click.version_option(__version__, "-V", "--version", prog_name="mlx_qwen3tts")
def main(**opts):
    """Speak text with a Qwen3-TTS model."""
    options = Options.from_click(opts)
    with warnings.catch_warnings(), signals_interrupt():
        warnings.showwarning = lambda msg, *a, **k: click.echo(f"warning: {msg}", err=True)
        try:
            with cli_errors(FLAGS):
                run(options)
        except BrokenPipeError:
            # The reader of stdout (or of a FIFO) went away, e.g. `| head -c 100`: end quietly.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(128 + signal.SIGPIPE)


@contextmanager
def signals_interrupt():
    """SIGTERM and SIGHUP unwind like Ctrl-C: temporary files are removed, exit status 128 + N."""
    def interrupt(signum, frame):
        error = KeyboardInterrupt(signum)
        error.signum = signum  # read by errors.cli_errors
        raise error

    # Handlers can only be set from the main thread (not e.g. from a test runner's thread).
    signals = (signal.SIGTERM, signal.SIGHUP) if threading.current_thread() is threading.main_thread() else ()
    previous = {sig: signal.signal(sig, interrupt) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@dataclass(frozen=True)
class Options:
    """The command's options as click parsed them (paths with ~ expanded), named as the options."""

    model: str
    text: Optional[str]
    text_stream: bool
    output: Optional[str]
    audio_format: Optional[str]
    language: str
    speaker: Optional[str]
    instruct: Optional[str]
    text_mode: Optional[str]
    temperature: Optional[float]
    top_k: Optional[int]
    top_p: Optional[float]
    repetition_penalty: Optional[float]
    max_tokens: Optional[int]
    seed: Optional[int]
    codes_output: Optional[str]
    ref_audio: Optional[str]
    ref_text: Optional[str]
    x_vector_only: bool
    save_voice: Optional[str]
    voice: Optional[str]
    stream: bool
    play: bool
    first_chunk_frames: int
    chunk_frames: int
    split: str
    batch_file: Optional[str]
    dtype: Optional[str]
    quiet: bool
    list_speakers: bool
    from_codes: Optional[str]
    text_file: Optional[str] = None
    captions: Optional[str] = None
    caption_words: bool = False
    aligner: str = "Qwen/Qwen3-ForcedAligner-0.6B"
    aligner_bits: Optional[str] = None
    resume: bool = False
    split_chapters: bool = False
    script: bool = False
    cast: tuple = ()
    lexicon: Optional[str] = None
    normalize: Optional[bool] = None
    heading_pattern: Optional[str] = None
    batch_size: int = 8
    skip_chapters: Optional[str] = None
    speed: float = 1.0

    @classmethod
    def from_click(cls, opts: dict) -> "Options":
        # a shell leaves ~ as it is in `--output=~/a.wav` and in quotes
        paths = {name: os.path.expanduser(opts[name]) for name in PATH_OPTIONS
                 if opts[name] is not None and opts[name] not in outputs.STDOUT_NAMES}
        return cls(**opts | paths)

    @property
    def speaks(self) -> bool:
        """Asked for speech, not only for --save-voice."""
        return self.output is not None or self.codes_output is not None or self.play

    @property
    def sampling(self) -> dict:
        return dict(temperature=self.temperature, top_k=self.top_k, top_p=self.top_p,
                    repetition_penalty=self.repetition_penalty)


@dataclass(frozen=True)
class Plan:
    """What `run` checked before loading the model."""

    text: Optional[str]  # --text, stdin's for '-'
    lines: Optional[list]  # --batch-file's (line number, text) pairs
    outs: dict  # "audio", "codes", "voice": an Output, a list of them (one per line) or None
    fmt: Optional[AudioFormat]  # --output's


def run(opts: Options):
    """Inputs, then outputs, are checked before the model loads; then the voice, then the speech."""
    import mlx.core as mx

    from ..tts import load
    from .longform import check_long_form_options, run_text_file

    if opts.list_speakers:
        from .speakers import list_speakers

        return click.echo(list_speakers(opts.model), nl=False)
    opts = replace(opts, voice=voice_file(opts.voice))
    if opts.from_codes is not None:
        from .from_codes import run_from_codes

        return run_from_codes(opts)
    check_long_form_options(opts)
    if opts.text_file is not None:
        return run_text_file(opts, lambda: load(opts.model, dtype=getattr(mx, opts.dtype) if opts.dtype else None),
                             lambda tts: _voice(tts, None, opts.quiet, speaker=opts.speaker, voice=opts.voice,
                                                ref_audio=opts.ref_audio, ref_text=opts.ref_text,
                                                x_vector_only=opts.x_vector_only))
    text, lines = _check_inputs(opts)
    plan = Plan(text, lines, *_check_outputs(opts, lines))
    if opts.play:
        opts = _playable(opts)

    tts = load(opts.model, dtype=getattr(mx, opts.dtype) if opts.dtype else None)
    voice = _voice(tts, plan.outs["voice"], opts.quiet, speaker=opts.speaker, voice=opts.voice,
                   ref_audio=opts.ref_audio, ref_text=opts.ref_text, x_vector_only=opts.x_vector_only)
    if opts.speaks:  # else only the voice was asked for (text without an output was refused)
        _speak(tts, opts, plan, voice)


@contextmanager
def _play_words():
    """A playback failure in this command's words: the option that asked for it, and the file it could write."""
    from ..audio.playback import PlaybackError

    try:
        yield
    except PlaybackError as e:
        raise PlaybackError(f"--play: {e}; or write a file with --output OUT.wav instead") from None


def _playable(opts: Options) -> Options:
    """--play where nothing can play: an error when it was the only output, else a warning, and the
    files are still written (streamed as --play would have)."""
    from ..audio.playback import check_output_device, output_device_problem

    problem = output_device_problem()
    if problem is None:
        return opts
    if opts.output is None and opts.codes_output is None:
        with _play_words():
            check_output_device()  # raises, with the advice to write a file
    written = " and ".join(str(o) for o in (opts.output, opts.codes_output) if o is not None)
    click.echo(f"warning: cannot play: {problem}; writing {written} only", err=True)
    return replace(opts, play=False, stream=True)


def _check_inputs(opts: Options):
    """The text (read from stdin for '-') or the batch file's lines, and the options that need no model."""
    if sum(x is not None for x in (opts.text, opts.text_stream or None, opts.batch_file)) > 1:
        raise InputError("give only one of --text, --text-stream and --batch-file")
    text, lines = opts.text, None
    if opts.batch_file is not None:
        lines = _read_batch_file(opts.batch_file)
        if opts.stream or opts.play:
            raise InputError("--batch-file cannot be combined with --stream or --play")
    elif text is None and not opts.text_stream and (opts.speaks or opts.save_voice is None):
        raise InputError("no text: give --text TEXT, --text - (stdin) or --text-stream")
    if text is not None:
        text = decode_utf8(sys.stdin.buffer.read(), "stdin") if text == "-" else checked_utf8(text, "--text")
    if not opts.speaks and opts.save_voice is None:
        raise InputError("nothing to do: give --output OUT.wav, --codes-output CODES.npy, --play or --save-voice")
    if not opts.speaks and (text is not None or opts.text_stream or lines is not None):
        raise InputError("the speech would go nowhere: add --output, --codes-output or --play "
                         "(or leave out the text to only save the voice)")
    if opts.audio_format is not None and opts.output is None:
        raise InputError("--format applies to --output; give --output OUT or --output - (stdout)")
    from ..model.sampling_config import SamplingConfig
    from ..request import sampling_settings

    sampling_settings(SamplingConfig(), **opts.sampling)  # the request layer's own check, before the model loads
    return text, lines


def _check_outputs(opts: Options, lines):
    """Every output resolved and checked writable, none of them an input."""
    fmt = format_for_path(opts.output, opts.audio_format) if opts.output is not None else None
    outs = _resolve_outputs(lines, opts.output, opts.codes_output, opts.save_voice)
    streamed = opts.stream or opts.play or opts.text_stream
    if streamed and fmt is not None and fmt.name not in STREAMABLE and not outs["audio"].seekable:
        raise InputError(not_streamable(fmt), field="format")
    outputs.check_distinct(
        [o for group in outs.values() for o in (group if isinstance(group, list) else [group]) if o is not None],
        outputs.input_files("--ref-audio", opts.ref_audio) + outputs.input_files("--voice", opts.voice)
        + outputs.input_files("--batch-file", opts.batch_file)
        + outputs.input_files("model", Path(opts.model).expanduser()),
    )
    return outs, fmt


def _speak(tts, opts: Options, plan: Plan, voice):
    common = dict(language=opts.language, instruct=opts.instruct, text_mode=opts.text_mode, voice=voice,
                  max_tokens=opts.max_tokens, seed=opts.seed, **opts.sampling)
    if opts.normalize or opts.lexicon is not None:  # only when asked: the plain text path stays upstream's
        common.update(normalize=bool(opts.normalize), lexicon=opts.lexicon)
    if plan.lines is not None:
        return _run_batch(tts, plan, common, opts.quiet, opts.split, opts.speed)
    if opts.text_stream or opts.stream or opts.play:
        source = dict(deltas=stdin_deltas()) if opts.text_stream else dict(text=plan.text)
        request = tts.request(**source, first_chunk_frames=opts.first_chunk_frames, chunk_frames=opts.chunk_frames,
                              **common)
        _notify(request.notices)
        codes, stopped_on_eos, budget, made = _run_streaming(tts, request, plan, opts)
    else:
        codes, stopped_on_eos, budget, made = _run_whole(tts, plan, common, opts)
    if not stopped_on_eos:
        _warn_cut(opts.max_tokens, f"the budget for this text ({budget} frames)")
    if plan.outs["codes"] is not None:
        plan.outs["codes"].write(_npy_bytes(codes))
    if not opts.quiet:  # what was made and where it went, as every mode ends
        written = [str(out) for out in (plan.outs["audio"], plan.outs["codes"]) if out is not None]
        click.echo(made + (f" -> {', '.join(written)}" if written else ""), err=True)


def _notify(notices):
    for notice in notices:
        click.echo(f"warning: {notice}", err=True)


def _voice(tts, save_to, quiet: bool, **given):
    """The voice of `given` (speaker, voice, ref_audio, ...), resolved once as cloning is not free,
    and written to `save_to` (--save-voice) when given."""
    from ..request import resolve_voice

    voice, notices = resolve_voice(tts.facts, tts.voices, **given)
    _notify(notices)
    if save_to is not None:
        from ..voices import voice_bytes

        if voice.xvector is None:
            raise InputError("--save-voice needs a cloned voice: give --ref-audio")
        save_to.write(voice_bytes(voice, tts.facts.size))
        if not quiet:
            click.echo(f"saved voice to {save_to}", err=True)
    return voice


def _warn_cut(max_tokens, budget: str, line=""):
    limit, advice = (f"--max-tokens {max_tokens}", "") if max_tokens else (budget, "; --max-tokens sets another budget")
    click.echo(f"warning: {line}stopped at {limit} without an end-of-speech token; the speech may be cut off{advice}",
               err=True)


def _resolve_outputs(texts, output, codes_output, save_voice) -> dict:
    """Every output checked writable (and classified) before the model loads."""
    outs = {"voice": outputs.resolve(save_voice, "--save-voice") if save_voice is not None else None}
    for key, given, what in (("audio", output, "--output"), ("codes", codes_output, "--codes-output")):
        if given is None:
            outs[key] = None
        elif texts is None:
            outs[key] = outputs.resolve(given, what)
        elif given in outputs.STDOUT_NAMES:
            raise InputError(f"{what} {given}: --batch-file writes one numbered file per line; give a file name")
        else:  # out.wav -> out_1.wav ... out_9.wav, or out_001.wav ... out_300.wav: named by line, sorting right
            path, width = Path(given), len(str(texts[-1][0]))
            outs[key] = [outputs.resolve(path.with_name(f"{path.stem}_{number:0{width}d}{path.suffix}"), what)
                         for number, _ in texts]
    return outs


def _npy_bytes(codes) -> bytes:
    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, codes)
    return buffer.getvalue()


def _read_batch_file(path):
    try:
        lines = Path(path).read_bytes()
    except OSError as e:
        raise InputError(f"cannot read --batch-file {path}: {e.strerror}") from None
    lines = decode_utf8(lines, f"--batch-file {path}").splitlines()
    texts = [(number, line.strip()) for number, line in enumerate(lines, start=1) if line.strip()]
    if not texts:
        raise InputError(f"--batch-file {path} has no text lines")
    return texts


def _line_results(tts, texts, common: dict, split: str, decode: bool, done=None):
    """One text path: each line planned as `generate` plans it (`TTS.plan`), the pieces of every line run as
    one batch (`TTS.run`), each line's pieces then joined as `generate` joins them; `done(line index, result)`
    as each line's last piece finishes."""
    from ..tts import joined

    plans = [tts.plan(text, split, **common) for text in texts]
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


def _run_batch(tts, plan: Plan, common: dict, quiet: bool, split: str = "auto", speed: float = 1.0):
    texts, outs = plan.lines, plan.outs
    results = _line_results(tts, [text for _, text in texts], common, split, decode=outs["audio"] is not None,
                            done=None if quiet else _line_done(texts))
    items = []
    for i, ((number, _), result) in enumerate(zip(texts, results)):
        if outs["audio"] is not None:
            if result.codes.shape[0] == 0:
                raise InputError(f"line {number} produced no audio (end of speech at the first frame); nothing written")
            audio = time_stretch(result.audio, speed, result.sample_rate)
            items.append((outs["audio"][i], encode(audio, result.sample_rate, plan.fmt.name)))
        if outs["codes"] is not None:
            items.append((outs["codes"][i], _npy_bytes(result.codes)))
        if not result.stopped_on_eos:
            _warn_cut(common["max_tokens"], "its frame budget", f"line {number} ")
    outputs.write_all(items)
    if not quiet:
        for i, (number, _) in enumerate(texts):
            written = [str(outs[key][i]) for key in ("audio", "codes") if outs[key] is not None]
            click.echo(f"line {number} -> {', '.join(written)}", err=True)
        frames = sum(r.codes.shape[0] for r in results)
        click.echo(f"{len(results)} text{'s' if len(results) != 1 else ''}, {frames} frames", err=True)


def _line_done(texts):
    """A batch's progress: one line per text line as it finishes (the files are written at the end, together)."""
    start, finished = time.perf_counter(), []

    def done(index: int, result):
        finished.append(index)
        frames = result.codes.shape[0]
        click.echo(f"line {texts[index][0]} done ({len(finished)}/{len(texts)}): {frames} frames, "
                   f"{frames / FRAMES_PER_SECOND:.2f} s of audio after {time.perf_counter() - start:.1f} s", err=True)

    return done


def _run_whole(tts, plan: Plan, common: dict, opts: Options):
    output, progress = plan.outs["audio"], Progress(opts.quiet)
    result = tts.generate(plan.text, split=opts.split, decode=output is not None, progress=progress, **common)
    progress.done()
    frames = result.codes.shape[0]
    seconds = frames / FRAMES_PER_SECOND  # of the codes: --speed applies to audio only
    if output is not None:
        if frames == 0:
            raise InputError("the model produced no audio (end of speech at the first frame)")
        audio = time_stretch(result.audio, opts.speed, result.sample_rate)
        output.write(encode(audio, result.sample_rate, plan.fmt.name))
        seconds = audio.shape[0] / result.sample_rate
    return result.codes, result.stopped_on_eos, result.max_frames, f"{frames} frames, {seconds:.2f} s of audio"


def _run_streaming(tts, request, plan: Plan, opts: Options):
    """Codes, whether the model ended the speech, the frame budget, and what was made (in words)."""
    import numpy as np
    output, fmt, play, quiet = plan.outs["audio"], plan.fmt, opts.play, opts.quiet

    # A rough length for the playback buffer: ~0.3 s of speech per text token (none for text read as it comes).
    expected_s = 0.3 * len(tts.tokenizer.encode(request.text)) if play and request.text is not None else None
    collected, start, progress = [], time.perf_counter(), Progress(quiet)
    player, sink, samples_out = None, None, 0
    stretch = TimeStretch(opts.speed, tts.sample_rate) if opts.speed != 1.0 else None

    def out(samples):  # the audio at --speed, to the file and the player
        nonlocal samples_out
        samples_out += samples.shape[0]
        if sink is not None:
            sink(samples)
        if player is not None:
            player.add(samples)

    try:
        with ExitStack() as stack:
            chunks = stack.enter_context(closing(tts.request_chunks(request, opts.split)))
            if play:
                from ..audio.playback import Player

                with _play_words():
                    player = Player(tts.sample_rate, expected_s=expected_s)
            for chunk in chunks:
                collected.append(chunk.codes)
                if chunk.index == 0 and not quiet:
                    click.echo(f"first audio after {chunk.timings['ready'] * 1000:.0f} ms "
                               f"({chunk.frames} frame{'s' if chunk.frames > 1 else ''})", err=True)
                if output is not None and sink is None:
                    sink = stack.enter_context(_audio_sink(output, fmt, tts.sample_rate))
                out(chunk.samples if stretch is None else stretch.process(chunk.samples))
                progress(chunks.frames, chunks.max_frames)
            if output is not None and sink is None:
                raise InputError("the model produced no audio (end of speech at the first frame)")
            if stretch is not None:
                out(stretch.flush())
    finally:
        progress.done()
        if player is not None:
            player.close(wait=sys.exc_info()[0] is None)
    codes = np.concatenate(collected) if collected else np.zeros((0, 16), dtype=np.int32)
    made = (f"{codes.shape[0]} frames, {samples_out / tts.sample_rate:.2f} s of audio in "
            f"{time.perf_counter() - start:.2f} s")
    return codes, chunks.stopped_on_eos, chunks.max_frames, made


@contextmanager
def _audio_sink(output, fmt, sample_rate):
    """A function taking each chunk's samples: a seekable file gets complete headers at the end,
    stdout, pipes and devices get a stream (open-ended WAV header)."""
    if output.seekable:
        # the writer is closed also when interrupted; staged() then drops the temporary file
        with output.staged() as tmp, closing(open_file(tmp, fmt.name, sample_rate)) as writer:
            yield writer.write
        return
    with output.open() as f:
        encoder = StreamEncoder(fmt.name, sample_rate)

        def send(samples):
            f.write(encoder.write(samples))
            f.flush()

        yield send
        f.write(encoder.close())


if __name__ == "__main__":
    main()
