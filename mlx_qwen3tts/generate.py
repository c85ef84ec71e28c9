"""Command line: `mlx_qwen3tts.generate --text "Hello" --output hello.wav`.

Also runs as `python -m mlx_qwen3tts.generate`. Bad input ends with one `error:` line on stderr
and exit status 2, and nothing is left at the output paths.
"""

import codecs
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import click

from .errors import InputError, cli_errors

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
        audio_s = frames / 12.5
        click.echo(f"\rframes {frames}/{self.max_frames}  audio {audio_s:5.2f} s  "
                   f"RTF {(now - self.start) / max(audio_s, 1e-9):5.2f}", err=True, nl=False)

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


def _temp_beside(path: Path) -> str:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; the result should look like any new file
    return tmp


def _write_atomic(path: Path, write):
    """Write through a temporary file in the same folder so a failure leaves nothing behind."""
    tmp = _temp_beside(path)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def stdin_deltas(stream=None, size: int = 64):
    """Text from stdin as it arrives (UTF-8 decoded incrementally, so split characters are fine)."""
    stream = stream or sys.stdin.buffer
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    read = getattr(stream, "read1", stream.read)
    while True:
        data = read(size)
        if not data:
            tail = decoder.decode(b"", final=True)
            if tail:
                yield tail
            return
        text = decoder.decode(data)
        if text:
            yield text


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--model", default=DEFAULT_MODEL, show_default=True, help="Local folder or Hugging Face repo id.")
@click.option("--text", default=None, help="Text to speak; '-' reads all of stdin.")
@click.option("--text-stream", is_flag=True, help="Read the text from stdin as it is written (e.g. piped from an LLM).")
@click.option("--output", type=click.Path(dir_okay=False), help="WAV file to write (24 kHz).")
@click.option("--language", default="auto", show_default=True, help="Language name, or auto.")
@click.option("--speaker", default=None, help="Preset speaker (CustomVoice models; default Ryan).")
@click.option("--instruct", default=None, help="Style instruction (VoiceDesign, 1.7B CustomVoice).")
@click.option("--text-mode", type=click.Choice(["streaming", "non-streaming"]), default=None,
              help="Text layout; default: upstream's for the model variant.")
@click.option("--temperature", type=float, default=None, help="0 = greedy everywhere. Default: generation_config.json.")
@click.option("--top-k", type=int, default=None, help="Default: generation_config.json.")
@click.option("--top-p", type=float, default=None, help="Default: generation_config.json.")
@click.option("--repetition-penalty", type=float, default=None, help="Default: generation_config.json.")
@click.option("--max-tokens", type=int, default=None, help="At most this many frames (12.5 per second).")
@click.option("--seed", type=int, default=None, help="Random seed for sampling.")
@click.option("--codes-output", type=click.Path(dir_okay=False), help="Write the codes (frames x 16 int32) as .npy.")
@click.option("--ref-audio", type=click.Path(), default=None, help="Reference audio to clone (Base models).")
@click.option("--ref-text", default=None, help="Transcript of the reference audio (in-context cloning).")
@click.option("--x-vector-only", is_flag=True, help="Clone from the speaker embedding alone (no transcript).")
@click.option("--save-voice", type=click.Path(dir_okay=False), default=None, help="Save the cloned voice (.safetensors).")
@click.option("--voice", type=click.Path(), default=None, help="A voice saved with --save-voice.")
@click.option("--stream", is_flag=True, help="Decode and write audio chunk by chunk while generating.")
@click.option("--play", is_flag=True, help="Play the audio as it is generated.")
@click.option("--first-chunk-frames", type=int, default=1, show_default=True, help="Frames before the first chunk.")
@click.option("--chunk-frames", type=int, default=4, show_default=True, help="Frames per later chunk.")
@click.option("--split", type=click.Choice(["auto", "sequence", "batch", "none"]), default="auto", show_default=True,
              help="Long text: cut at sentence ends and synthesize the pieces one after the other or as a batch.")
@click.option("--batch-file", type=click.Path(dir_okay=False), default=None,
              help="Synthesize every line of this file in one batch; outputs are numbered (out_1.wav, ...).")
@click.option("--dtype", type=click.Choice(["bfloat16", "float16", "float32"]), default=None, help="Compute dtype.")
@click.option("--quiet", is_flag=True, help="No progress output.")
def main(**opts):
    """Speak text with a Qwen3-TTS model."""
    with warnings.catch_warnings():
        warnings.showwarning = lambda msg, *a, **k: click.echo(f"warning: {msg}", err=True)
        with cli_errors():
            run(**opts)


def run(model, text, text_stream, output, language, speaker, instruct, text_mode, temperature, top_k, top_p,
        repetition_penalty, max_tokens, seed, codes_output, ref_audio, ref_text, x_vector_only, save_voice,
        voice, stream, play, first_chunk_frames, chunk_frames, split, batch_file, dtype, quiet):
    import mlx.core as mx

    from .tts import load

    if sum(x is not None and x is not False for x in (text, text_stream or None, batch_file)) > 1:
        raise InputError("give only one of --text, --text-stream and --batch-file")
    texts = None
    if batch_file is not None:
        texts = _read_batch_file(batch_file)
        if stream or play:
            raise InputError("--batch-file cannot be combined with --stream or --play")
    elif not text_stream:
        if text is None:
            raise InputError("no text: give --text TEXT, --text - (stdin) or --text-stream")
        if text == "-":
            text = sys.stdin.read()
        if not text.strip():
            raise InputError("the text is empty; give some text to speak")
    if output is None and codes_output is None and not play and save_voice is None:
        raise InputError("nothing to do: give --output OUT.wav, --codes-output CODES.npy, --play or --save-voice")
    if max_tokens is not None and max_tokens < 1:
        raise InputError(f"--max-tokens must be at least 1, got {max_tokens}")
    if first_chunk_frames < 1 or chunk_frames < 1:
        raise InputError("--first-chunk-frames and --chunk-frames must be at least 1")
    output, codes_output = _check_output(output, "output"), _check_output(codes_output, "codes output")
    save_voice = _check_output(save_voice, "voice file")
    sampling_args = dict(temperature=temperature, top_k=top_k, top_p=top_p, repetition_penalty=repetition_penalty)
    if any(v is not None and v < 0 for v in sampling_args.values()):
        bad = next(k for k, v in sampling_args.items() if v is not None and v < 0)
        raise InputError(f"--{bad.replace('_', '-')} must not be negative")

    tts = load(model, dtype=getattr(mx, dtype) if dtype else None)
    sampling = tts.sampling.override(**sampling_args)
    voice_obj = None
    if ref_audio is not None or voice is not None or ref_text or x_vector_only:
        voice_obj = tts.resolve_voice(speaker, voice, ref_audio, ref_text, x_vector_only)
    if save_voice is not None:
        from .voices import save_voice as save

        if voice_obj is None or voice_obj.xvector is None:
            raise InputError("--save-voice needs a cloned voice: give --ref-audio")
        _write_atomic(save_voice, lambda tmp: save(voice_obj, tmp, tts.config.tts_model_size))
        if not quiet:
            click.echo(f"saved voice to {save_voice}", err=True)
        if text is None and not text_stream:
            return
    if seed is not None:
        mx.random.seed(seed)

    common = dict(language=language, speaker=None if voice_obj is not None else speaker, instruct=instruct,
                  voice=voice_obj, sampling=sampling, max_tokens=max_tokens)
    limit = max_tokens or int(tts.generation_config.get("max_new_tokens", 8192))
    from .synthesis import LoopState

    state = LoopState()
    if texts is not None:
        return _run_batch(tts, texts, common, text_mode, output, codes_output, quiet)
    if text_stream:
        frames = tts.text_frames(stdin_deltas(), state=state, **common)
        codes = _run_streaming(tts, frames, voice_obj, output, play, first_chunk_frames, chunk_frames, quiet)
    elif stream or play:
        frames = tts.frames(text, text_mode=text_mode, state=state, **common)
        # A rough length for the playback buffer: ~0.3 s of speech per text token.
        expected_s = 0.3 * len(tts.tokenizer.encode(text))
        codes = _run_streaming(tts, frames, voice_obj, output, play, first_chunk_frames, chunk_frames, quiet,
                               expected_s)
    else:
        codes, state = _run_whole(tts, text, common, text_mode, split, output, quiet, limit)
    if not state.stopped_on_eos and state.frames >= state.max_frames:
        click.echo(f"warning: stopped at --max-tokens {state.max_frames} frames without an end-of-speech token",
                   err=True)
    if codes_output is not None:
        _save_codes(codes_output, codes)


def _save_codes(path, codes):
    import numpy as np

    _write_atomic(path, lambda tmp: np.save(open(tmp, "wb"), codes))


def _save_wav(path, audio, sample_rate):
    import soundfile as sf

    _write_atomic(path, lambda tmp: sf.write(tmp, audio, sample_rate, format="WAV", subtype="FLOAT"))


def _read_batch_file(path):
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read --batch-file {path}: {e}") from None
    texts = [line.strip() for line in lines if line.strip()]
    if not texts:
        raise InputError(f"--batch-file {path} has no text lines")
    return texts


def _numbered(path, i):
    return None if path is None else path.with_name(f"{path.stem}_{i}{path.suffix}")


def _run_batch(tts, texts, common, text_mode, output, codes_output, quiet):
    results = tts.generate_batch(texts, text_mode=text_mode, decode=output is not None, **common)
    for i, result in enumerate(results, start=1):
        if output is not None:
            if result.codes.shape[0] == 0:
                raise InputError(f"line {i} produced no audio (end of speech at the first frame)")
            _save_wav(_numbered(output, i), result.audio, result.sample_rate)
        if codes_output is not None:
            _save_codes(_numbered(codes_output, i), result.codes)
        if not result.stopped_on_eos:
            click.echo(f"warning: line {i} stopped at the frame limit without an end-of-speech token", err=True)
    if not quiet:
        click.echo(f"{len(results)} texts, {sum(r.codes.shape[0] for r in results)} frames", err=True)


def _run_whole(tts, text, common, text_mode, split, output, quiet, limit):
    progress = Progress(quiet, common["max_tokens"] or limit)
    result = tts.generate(text, text_mode=text_mode, split=split, decode=output is not None, progress=progress,
                          **common)
    progress.done()
    if output is not None:
        if result.codes.shape[0] == 0:
            raise InputError("the model produced no audio (end of speech at the first frame)")
        _save_wav(output, result.audio, result.sample_rate)
        if not quiet:
            click.echo(f"{result.codes.shape[0]} frames, {result.audio.shape[0] / result.sample_rate:.2f} s of audio "
                       f"-> {output}", err=True)
    return result.codes, result.state


def _run_streaming(tts, frames, voice, output, play, first_chunk_frames, chunk_frames, quiet, expected_s=None):
    import numpy as np

    from .streaming import stream_audio

    collected = []

    def recorded(frames):
        for frame in frames:
            collected.append(np.array(frame.codes))
            yield frame

    start = time.perf_counter()
    chunks = stream_audio(tts.codec, recorded(frames), tts.sample_rate, first_chunk_frames, chunk_frames,
                          voice.ref_codes if voice else None, start)
    player = sink = tmp = None
    try:
        if play:
            from .playback import Player

            player = Player(tts.sample_rate, expected_s=expected_s)
        for chunk in chunks:
            if chunk.index == 0 and not quiet:
                click.echo(f"first audio after {chunk.timings['ready'] * 1000:.0f} ms "
                           f"({chunk.frames} frame{'s' if chunk.frames > 1 else ''})", err=True)
            if output is not None and sink is None:
                import soundfile as sf

                tmp = _temp_beside(output)
                sink = sf.SoundFile(tmp, "w", samplerate=tts.sample_rate, channels=1, format="WAV", subtype="FLOAT")
            if sink is not None:
                sink.write(chunk.samples)
                sink.flush()
            if player is not None:
                player.add(chunk.samples)
        if sink is not None:
            sink.close()
            os.replace(tmp, output)
            sink = None
    finally:
        if sink is not None:
            sink.close()
        if tmp is not None and os.path.exists(tmp):
            os.remove(tmp)
        if player is not None:
            player.close(wait=sys.exc_info()[0] is None)
        chunks.close()
    codes = np.concatenate(collected) if collected else np.zeros((0, 16), dtype=np.int32)
    if not quiet:
        click.echo(f"{codes.shape[0]} frames, {codes.shape[0] / 12.5:.2f} s of audio in "
                   f"{time.perf_counter() - start:.2f} s", err=True)
    return codes


if __name__ == "__main__":
    main()
