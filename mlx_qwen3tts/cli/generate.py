"""Command line: `mlx_qwen3tts.generate --text "Hello" --output hello.wav`.

Also runs as `python -m mlx_qwen3tts.generate`. Bad input ends with one `error:` line on stderr
and exit status 2, and nothing is left at the output paths. The options are parsed into a config per job
(`cli.options`); each job has a module: one text (`speak`), a batch file (`batch`), a long text
(`longform`), codes to audio (`from_codes`), the speakers (`speakers`).
"""

import sys
import warnings
from dataclasses import dataclass, replace
from pathlib import Path

import click

from .. import __version__, outputs
from ..audio.formats import FORMAT_NAMES, STREAMABLE, format_for_path, not_streamable
from ..audio.time_stretch import MAX_SPEED, MIN_SPEED
from ..errors import InputError
from .console import OneLineErrors, cli_errors
from .flags import DEFAULT_MODEL, FLAGS, document_options
from .batch import numbered_outputs, read_batch_file, run_batch
from .options import Configs, Hearing, Model, Outputs, Speaking, Speech, Streaming, Voice
from .saved_voices import voice_file
from .signals import closed_pipe_ends_quietly, signals_interrupt
from .sinks import playable
from .speak import speak
from .speakers import help_epilog
from .text_input import checked_utf8, decode_utf8
from .voice import speaking_voice


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
              help=f"Speaking rate of the audio (pitch kept, {MIN_SPEED}-{MAX_SPEED}; 2: twice as fast).")
@click.option("--codes-output", help="Write the codes (frames x 16 int32) as .npy.")
@click.option("-r", "--ref-audio", type=click.Path(), help="Reference audio to clone (Base models): WAV, FLAC, "
              "OGG/Opus, MP3; M4A/AAC/ALAC and others with PyAV. The first 30 s are used.")
@click.option("--ref-text", help="Transcript of the reference audio (in-context cloning).")
@click.option("--x-vector-only", is_flag=True, help="Clone from the speaker embedding alone (no transcript).")
@click.option("--asr", metavar="MODEL", help="Speech recognizer (e.g. Qwen/Qwen3-ASR-0.6B): transcribes --ref-audio.")
@click.option("--check", metavar="REPORT.json", help="Hear each piece back with --asr, make a misheard one again.")
@click.option("--check-threshold", type=float, help="With --check: error rate that remakes a piece (default 0.25).")
@click.option("--check-tries", type=int, help="With --check: the most times a piece is made (default 3).")
@click.option("--save-voice", help="Save the cloned voice (a safetensors file, written under exactly this name).")
@click.option("-v", "--voice", type=click.Path(), help="A voice saved with --save-voice.")
@click.option("--stream", is_flag=True, help="Decode and write audio chunk by chunk while generating.")
@click.option("--play", is_flag=True, help="Play the audio as it is generated.")
@click.option("--first-chunk-frames", type=int, default=1, show_default=True, help="Frames before the first chunk.")
@click.option("--chunk-frames", type=int, help="Frames per later chunk (default: growing, 2, 4, 8 then 16).")
@click.option("--split", type=click.Choice(["auto", "sequence", "batch", "none"]), default="auto", show_default=True,
              help="Long text: cut at sentence ends and synthesize the pieces one after the other or as a batch.")
@click.option("--batch-file", type=click.Path(dir_okay=False),
              help="Synthesize every line of this file in one batch. Outputs are numbered by line (line 7 of a "
                   "12-line file: out_07.wav); blank lines are skipped and get no file.")
@click.option("--text-file", help="Long-form: speak a whole .txt, Markdown .md, .html or .epub file of any length "
              "('-': stdin), written as it goes; .m4b/.m4a outputs get chapters (and an EPUB's title, author and "
              "cover). See docs/longform.md.")
@click.option("--captions", multiple=True, help="With --text-file: captions per sentence (.srt, .vtt, or .json with "
              "sample offsets). Repeatable: one file per format, all written from the one run.")
@click.option("--read-along", metavar="BOOK.epub", help="With --text-file: also write an EPUB 3 read-along book "
              "(the text, the narration per chapter, Media Overlays that highlight each sentence, or each word with "
              "--caption-words). See docs/longform.md.")
@click.option("--caption-words", is_flag=True, help="With --captions or --read-along: time every word with "
              "Qwen3-ForcedAligner (WebVTT word timestamps, a 'words' list per JSON cue, an SRT cue per word; the "
              "read-along book highlights each word). See docs/aligner.md.")
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
@click.option("--normalize/--no-normalize", default=True, show_default=True, help="Numbers, dates, symbols and "
              "abbreviations as words, in each paragraph's language (--language, else the document's, else "
              "detected); --no-normalize: the text as written. See docs/longform.md#languages.")
@click.option("--dry-run", is_flag=True, help="Print each piece of the text as it will be spoken, one a line, and "
              "exit (loads no model; with --text, --text-file, --language, --no-normalize, --lexicon).")
@click.option("--guard/--no-guard", default=True, show_default=True, help="The runaway guard: speech that will "
              "not end is spoken again once with another seed (a stream is ended there); a warning says so. See "
              "docs/cli.md#runaway-guard.")
@document_options
@click.option("--title", help="With --text-file: the title an .m4b/.m4a is tagged with (default: the EPUB's, the "
              "page's <title>, a Markdown file's front matter or first heading).")
@click.option("--author", help="With --text-file: the author an .m4b/.m4a is tagged with (default: the EPUB's, the "
              "page's <meta name=\"author\">, a Markdown file's front matter).")
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
    configs = Configs.from_click(opts)
    with warnings.catch_warnings(), signals_interrupt(), closed_pipe_ends_quietly():
        warnings.showwarning = lambda msg, *a, **k: click.echo(f"warning: {msg}", err=True)
        with cli_errors(FLAGS):
            job_of(configs).run()


def job_of(configs: Configs):
    """The job the options ask for, holding only the configs it needs; options that cannot go with it are
    refused here."""
    if configs.speech.dry_run:
        from .dry_run import DryRun

        return DryRun(configs.speech, configs.longform)
    if configs.list_speakers:
        from .speakers import ListSpeakers

        return ListSpeakers(configs.model.model)
    hearing = configs.hearing.checked()
    voice = replace(configs.voice, voice=voice_file(configs.voice.voice))
    if configs.from_codes is not None:
        from .from_codes import DecodeCodes, check_options

        check_options(configs)
        hearing.not_with("--from-codes")
        return DecodeCodes(configs.from_codes, configs.model, voice.voice, configs.outputs)
    from .longform import LongFormRun, check_long_form_options

    check_long_form_options(configs)
    if configs.longform.text_file is not None:
        return LongFormRun(configs.model, voice, configs.speech, configs.outputs, configs.longform, hearing)
    return Speak(configs.model, voice, configs.speech, configs.outputs, configs.streaming, hearing)


@dataclass(frozen=True)
class Speak:
    """--text, --text-stream or --batch-file spoken to --output, --codes-output or --play (or only --save-voice):
    inputs, then outputs, are checked before the model loads; then the voice, then the speech."""

    model: Model
    voice: Voice
    speech: Speech
    outputs: Outputs
    streaming: Streaming
    hearing: Hearing

    @property
    def speaks(self) -> bool:
        """Asked for speech, not only for --save-voice."""
        return self.outputs.speaks or self.streaming.play

    def run(self):
        speech, quiet = self.speech, self.outputs.quiet
        text, lines = _check_inputs(self)
        outs, fmt = _check_outputs(self, lines)
        streaming = self.streaming
        if streaming.play:
            streaming = playable(streaming, self.outputs)
        tts = self.model.load()
        self.hearing.attach(tts)
        voice = speaking_voice(tts, self.voice, outs["voice"], quiet)
        if not self.speaks:  # only the voice was asked for (text without an output was refused)
            return
        common = dict(voice=voice, seed=speech.seed, normalize=speech.normalize is not False, lexicon=speech.lexicon,
                      **speech.settings, **self.hearing.asked())
        job = Speaking(text, outs, fmt, common, speech, streaming, self.outputs)
        if lines is not None:
            return run_batch(tts, lines, job)
        speak(tts, job)


def _check_inputs(job: Speak):
    """The text (read from stdin for '-') or the batch file's lines, and the options that need no model."""
    speech, outs, streaming = job.speech, job.outputs, job.streaming
    if sum(x is not None for x in (speech.text, speech.text_stream or None, speech.batch_file)) > 1:
        raise InputError("give only one of --text, --text-stream and --batch-file")
    text, lines = speech.text, None
    if speech.batch_file is not None:
        lines = read_batch_file(speech.batch_file)
        if streaming.stream or streaming.play:
            raise InputError("--batch-file cannot be combined with --stream or --play")
    elif text is None and not speech.text_stream and (job.speaks or outs.save_voice is None):
        raise InputError("no text: give --text TEXT, --text - (stdin) or --text-stream")
    job.hearing.whole(speech, streaming)
    if text is not None:
        text = decode_utf8(sys.stdin.buffer.read(), "stdin") if text == "-" else checked_utf8(text, "--text")
    if not job.speaks and outs.save_voice is None:
        raise InputError("nothing to do: give --output OUT.wav, --codes-output CODES.npy, --play or --save-voice")
    if not job.speaks and (text is not None or speech.text_stream or lines is not None):
        raise InputError("the speech would go nowhere: add --output, --codes-output or --play "
                         "(or leave out the text to only save the voice)")
    if outs.audio_format is not None and outs.output is None:
        raise InputError("--format applies to --output; give --output OUT or --output - (stdout)")
    from ..model.sampling_config import SamplingConfig
    from ..request import sampling_settings

    sampling_settings(SamplingConfig(), **speech.sampling)  # the request layer's own check, before the model loads
    return text, lines


def _check_outputs(job: Speak, lines):
    """Every output resolved and checked writable (and classified), none of them an input."""
    outs, streaming, voice = job.outputs, job.streaming, job.voice
    fmt = format_for_path(outs.output, outs.audio_format) if outs.output is not None else None
    resolved = {"voice": outputs.resolve(outs.save_voice, "--save-voice") if outs.save_voice is not None else None}
    check = job.hearing.check
    resolved["check"] = outputs.resolve(check, "--check") if check is not None else None
    for key, given, what in (("audio", outs.output, "--output"), ("codes", outs.codes_output, "--codes-output")):
        if given is None:
            resolved[key] = None
        elif lines is None:
            resolved[key] = outputs.resolve(given, what)
        else:
            resolved[key] = numbered_outputs(lines, given, what)
    streamed = streaming.stream or streaming.play or job.speech.text_stream
    if streamed and fmt is not None and fmt.name not in STREAMABLE and not resolved["audio"].seekable:
        raise InputError(not_streamable(fmt), field="format")
    outputs.check_distinct(
        [o for group in resolved.values() for o in (group if isinstance(group, list) else [group]) if o is not None],
        outputs.input_files("--ref-audio", voice.ref_audio) + outputs.input_files("--voice", voice.voice)
        + outputs.input_files("--batch-file", job.speech.batch_file)
        + outputs.input_files("model", Path(job.model.model).expanduser()),
    )
    return resolved, fmt


if __name__ == "__main__":
    main()
