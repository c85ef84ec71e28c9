"""Issue 10, every case in one table: bad input ends in one `error:` line (exit 2), never a
traceback, a damaged input or a file left behind; outputs never replace what is not ours.

CLI rows run in-process (click's CliRunner) unless they need a real process (signals, a closed
pipe, stdout, bytes on argv). Every CLI row runs in a fresh folder holding the inputs (reference
audio, a saved voice, a batch file); afterwards the inputs' checksums are unchanged and the
folder holds exactly the files the row expects (hidden temporary files included).
"""

import hashlib
import io
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import mlx.core as mx
import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from fixture_checkpoints import checkpoint_dir
from mlx_qwen3tts.errors import InputError, ModelLoadError
from mlx_qwen3tts.cli.generate import main

REPO = Path(__file__).resolve().parent.parent
FAST = ["--max-tokens", "3", "--temperature", "0", "--quiet"]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {"cv": checkpoint_dir("custom_voice-0b6", root), "base": checkpoint_dir("base-0b6", root)}


@pytest.fixture(scope="module")
def voice_bytes(models, tmp_path_factory):
    """A voice saved by the CLI once (x-vector only), reused as an input file."""
    folder = tmp_path_factory.mktemp("voice")
    _tone(folder / "ref.wav")
    code, _, err = cli(["--model", models["base"], "--ref-audio", folder / "ref.wav", "--x-vector-only",
                        "--save-voice", folder / "voice.safetensors", "--quiet"])
    assert code == 0, err
    return (folder / "voice.safetensors").read_bytes()


def _tone(path, seconds=2.0, rate=24000):
    t = np.arange(int(seconds * rate)) / rate
    sf.write(path, (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32), rate)


def cli(args, stdin=None):
    result = CliRunner().invoke(main, [os.fspath(a) if isinstance(a, Path) else a for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout_bytes, result.stderr


def listing(folder):
    return sorted(p.name for p in Path(folder).iterdir())


def checksums(paths):
    return {p: hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in paths if Path(p).is_file()}


@pytest.fixture
def work(tmp_path, models, voice_bytes):
    """A folder with the inputs a row may use; `places` fills the {name} fields of the args."""
    _tone(tmp_path / "ref.wav")
    (tmp_path / "voice.safetensors").write_bytes(voice_bytes)
    (tmp_path / "lines.txt").write_text("First line.\n\nSecond line.\n", encoding="utf-8")
    places = {"d": tmp_path, "cv": models["cv"], "base": models["base"], "ref": tmp_path / "ref.wav",
              "voice": tmp_path / "voice.safetensors", "batch": tmp_path / "lines.txt"}
    return tmp_path, places


# Setups: make the filesystem situation a row needs, in the row's folder.
def symlink_to_ref(d):
    (d / "link.wav").symlink_to(d / "ref.wav")


def folder_named_out(d):
    (d / "out.wav").mkdir()


def file_as_folder(d):
    (d / "plain").write_text("x")


def batch_second_output_is_folder(d):
    (d / "out_3.wav").mkdir()  # the second text is on line 3


def batch_file_named_like_output(d):
    shutil.copy(d / "lines.txt", d / "out_1.wav")


def corrupt_voice(d):
    (d / "bad.safetensors").write_bytes(b"\x00" * 64)


def wrong_size_voice(d):
    from safetensors.numpy import save

    meta = {"format": "mlx_qwen3tts.voice", "version": "1", "tts_model_size": "0b6", "ref_text": "null"}
    (d / "bad.safetensors").write_bytes(save({"xvector": np.ones(7, np.float32)}, metadata=meta))


def other_model_folder(d):
    (d / "llama").mkdir()
    (d / "llama" / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_size": 64}))


NEW = ()  # the row leaves no new file
ERRORS = [
    # (id, args, stdin, setup, message in the one error line, files the row may add)
    ("save-voice-is-ref-audio", ["--model", "{base}", "--ref-audio", "{ref}", "--x-vector-only",
                                 "--save-voice", "{ref}"], None, None, "same file as the --ref-audio", NEW),
    ("speech-going-nowhere", ["--model", "{base}", "--text", "hi", "--ref-audio", "{ref}", "--x-vector-only",
                              "--save-voice", "{d}/v.safetensors"], None, None, "the speech would go nowhere", NEW),
    ("text-stream-non-streaming", ["--model", "{cv}", "--text-stream", "--text-mode", "non-streaming",
                                   "--output", "{d}/o.wav"], "Hello.", None, "streaming text mode", NEW),
    ("output-is-ref-audio", ["--model", "{base}", "--text", "hi", "--ref-audio", "{ref}", "--x-vector-only",
                             "--output", "{ref}"], None, None, "same file as the --ref-audio", NEW),
    ("output-symlink-to-ref-audio", ["--model", "{base}", "--text", "hi", "--ref-audio", "{ref}",
                                     "--x-vector-only", "--output", "{d}/link.wav"], None, symlink_to_ref,
     "same file as the --ref-audio", ("link.wav",)),
    ("codes-output-is-voice", ["--model", "{base}", "--text", "hi", "--voice", "{voice}", "--codes-output",
                               "{voice}"], None, None, "same file as the --voice", NEW),
    ("output-is-model-file", ["--model", "{cv}", "--text", "hi", "--output", "{cv}/config.json", "--format", "wav"],
     None, None, "same file as the model file", NEW),
    ("batch-output-is-batch-file", ["--model", "{cv}", "--batch-file", "{d}/out_1.wav", "--output", "{d}/out.wav"],
     None, batch_file_named_like_output, "same file as the --batch-file", ("out_1.wav",)),
    ("two-outputs-one-file", ["--model", "{cv}", "--text", "hi", "--output", "{d}/a.wav", "--codes-output",
                              "{d}/a.wav"], None, None, "are the same file", NEW),
    ("two-outputs-on-stdout", ["--model", "{cv}", "--text", "hi", "--output", "-", "--codes-output", "/dev/stdout"],
     None, None, "are the same file", NEW),
    ("output-folder-missing", ["--model", "{cv}", "--text", "hi", "--output", "{d}/nope/x.wav"], None, None,
     "does not exist", NEW),
    ("output-is-folder", ["--model", "{cv}", "--text", "hi", "--output", "{d}/out.wav"], None, folder_named_out,
     "is a folder", ("out.wav",)),
    ("output-under-a-file", ["--model", "{cv}", "--text", "hi", "--output", "{d}/plain/x.wav"], None,
     file_as_folder, "is not a folder", ("plain",)),
    ("output-not-writable", ["--model", "{cv}", "--text", "hi", "--output", "/proc/o.wav"], None, None,
     "not writable", NEW),
    ("codes-output-not-writable", ["--model", "{cv}", "--text", "hi", "--codes-output", "/proc/c.npy"], None, None,
     "not writable", NEW),
    ("save-voice-not-writable", ["--model", "{base}", "--ref-audio", "{ref}", "--x-vector-only",
                                 "--save-voice", "/proc/v.safetensors"], None, None, "not writable", NEW),
    ("batch-second-output-folder", ["--model", "{cv}", "--batch-file", "{batch}", "--output", "{d}/out.wav"],
     None, batch_second_output_is_folder, "out_3.wav is a folder", ("out_3.wav",)),
    ("batch-output-stdout", ["--model", "{cv}", "--batch-file", "{batch}", "--output", "-"], None, None,
     "one numbered file per line", NEW),
    ("unknown-extension", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.txt"], None, None,
     "unknown audio extension '.txt'", NEW),
    ("format-disagrees", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--format", "mp3"], None, None,
     "does not match the extension", NEW),
    ("unknown-format", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--format", "m4a"], None, None,
     "'m4a' is not one of", NEW),
    ("text-not-utf8", ["--model", "{cv}", "--text", "caf\udce9", "--output", "{d}/x.wav"], None, None,
     "--text is not valid UTF-8", NEW),
    ("stdin-not-utf8", ["--model", "{cv}", "--text", "-", "--output", "{d}/x.wav"], b"caf\xe9 au lait", None,
     "stdin is not valid UTF-8", NEW),
    ("text-stream-not-utf8", ["--model", "{cv}", "--text-stream", "--output", "{d}/x.wav", *FAST],
     b"Hello caf\xe9 au lait", None, "stdin is not valid UTF-8", NEW),
    ("batch-file-not-utf8", ["--model", "{cv}", "--batch-file", "{d}/ref.wav", "--output", "{d}/o.wav"], None, None,
     "is not valid UTF-8", NEW),
    ("text-stream-empty", ["--model", "{cv}", "--text-stream", "--output", "{d}/x.wav"], b"", None,
     "read no text", NEW),
    ("text-stream-whitespace", ["--model", "{cv}", "--text-stream", "--output", "{d}/x.wav"], b" \n\t \n", None,
     "read no text", NEW),
    ("text-stream-control-only", ["--model", "{cv}", "--text-stream", "--output", "{d}/x.wav"], b"\x01\x02 \x1b",
     None, "read no text", NEW),
    ("ref-audio-folder", ["--model", "{base}", "--text", "hi", "--ref-audio", "{d}", "--x-vector-only", "--output",
                          "{d}/x.wav"], None, None, "is a folder; give an audio file", NEW),
    ("ref-audio-empty-file", ["--model", "{base}", "--text", "hi", "--ref-audio", "{batch}", "--x-vector-only",
                              "--output", "{d}/x.wav"], None, None, "cannot read reference audio", NEW),
    ("temperature-nan", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--temperature", "nan"], None,
     None, "temperature must be a number", NEW),
    ("temperature-inf", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--temperature", "inf"], None,
     None, "temperature must be a number", NEW),
    ("top-p-nan", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--top-p", "nan"], None, None,
     "top-p must be a number in (0, 1]", NEW),
    ("penalty-nan", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--repetition-penalty", "nan"],
     None, None, "repetition-penalty must be a number > 0", NEW),
    ("penalty-1e400", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--repetition-penalty", "1e400"],
     None, None, "repetition-penalty must be a number > 0", NEW),
    ("top-k-fraction", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--top-k", "1.5"], None, None,
     "'1.5' is not a valid integer", NEW),
    ("unknown-option", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--loud"], None, None,
     "No such option '--loud'", NEW),
    ("voice-file-corrupt", ["--model", "{base}", "--text", "hi", "--voice", "{d}/bad.safetensors", "--output",
                            "{d}/x.wav"], None, corrupt_voice, "not a voice saved with --save-voice",
     ("bad.safetensors",)),
    ("voice-file-wrong-xvector", ["--model", "{base}", "--text", "hi", "--voice", "{d}/bad.safetensors", "--output",
                                  "{d}/x.wav"], None, wrong_size_voice, "x-vector of shape (7,)",
     ("bad.safetensors",)),
    ("another-models-folder", ["--model", "{d}/llama", "--text", "hi", "--output", "{d}/x.wav"], None,
     other_model_folder, "describes a 'llama' model, not Qwen3-TTS", ("llama",)),
    ("seed-negative", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--seed", "-1"], None, None,
     "seed must be an integer from 0 to 18446744073709551615", NEW),
    ("max-tokens-huge", ["--model", "{cv}", "--text", "hi", "--output", "{d}/x.wav", "--max-tokens", "1000000000"],
     None, None, "--max-tokens must be an integer from 1 to 8192 (max_new_tokens in generation_config.json)", NEW),
    ("text-only-control-characters", ["--model", "{cv}", "--text", "\x01\x02\x1b", "--output", "{d}/x.wav"], None,
     None, "--text is empty", NEW),
    ("text-100k-characters", ["--model", "{cv}", "--text", "-", "--output", "{d}/x.wav"], b"Word. " * 16_667, None,
     "at most 20,000 are spoken in one call", NEW),
    ("play-without-device", ["--model", "{cv}", "--text", "hi", "--play"], None, None, "--output OUT.wav", NEW),
]


def _fill(args, places):
    return [a.format(**places) if isinstance(a, str) and "{" in a else a for a in args]


@pytest.mark.parametrize("args, stdin, setup, message, added", [r[1:] for r in ERRORS], ids=[r[0] for r in ERRORS])
def test_cli_error(work, args, stdin, setup, message, added):
    folder, places = work
    if setup is not None:
        setup(folder)
    before = listing(folder)
    inputs = checksums([*folder.iterdir(), *Path(places["cv"]).iterdir(), *Path(places["base"]).iterdir()])
    code, stdout, stderr = cli(_fill(args, places), stdin)
    lines = stderr.strip().splitlines()
    assert code == 2, stderr
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], stderr
    assert stdout == b""
    assert listing(folder) == before and set(before) >= set(added)
    assert checksums(inputs) == inputs


# --- outputs that work: formats, symlinks, FIFOs, exact names, stdout ---

@pytest.mark.parametrize("name, fmt, sf_format", [
    ("o.wav", None, "WAV"), ("o.flac", None, "FLAC"), ("o.ogg", None, "OGG"), ("o.opus", None, "OGG"),
    ("o.mp3", None, "MP3"), ("noext", None, "WAV"), ("o.WAV", None, "WAV"), ("noext", "flac", "FLAC"),
])
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_output_format_follows_extension(work, name, fmt, sf_format, stream):
    folder, places = work
    extra = (["--format", fmt] if fmt else []) + (["--stream"] if stream else [])
    code, _, err = cli(["--model", places["cv"], "--text", "Hello", "--output", folder / name, *FAST, *extra])
    assert code == 0, err
    info = sf.info(folder / name)
    assert info.format == sf_format and info.samplerate == 24000
    assert abs(info.frames - 3 * 1920) <= 1920  # codecs pad a little
    assert listing(folder) == sorted(["lines.txt", "ref.wav", "voice.safetensors", name])


def test_raw_pcm_output(work):
    folder, places = work
    code, _, err = cli(["--model", places["cv"], "--text", "Hello", "--output", folder / "o.pcm", *FAST])
    assert code == 0, err
    assert (folder / "o.pcm").stat().st_size == 3 * 1920 * 2


def test_symlink_output_writes_its_target(work):
    folder, places = work
    (folder / "target.wav").write_bytes(b"old")
    (folder / "link.wav").symlink_to("target.wav")
    code, _, err = cli(["--model", places["cv"], "--text", "Hello", "--output", folder / "link.wav", *FAST])
    assert code == 0, err
    assert (folder / "link.wav").is_symlink() and os.readlink(folder / "link.wav") == "target.wav"
    assert sf.info(folder / "target.wav").frames == 3 * 1920


def test_dangling_symlink_output_creates_its_target(work):
    folder, places = work
    (folder / "link.npy").symlink_to("made.npy")
    code, _, err = cli(["--model", places["cv"], "--text", "Hello", "--codes-output", folder / "link.npy", *FAST])
    assert code == 0, err
    assert (folder / "link.npy").is_symlink() and np.load(folder / "made.npy").shape == (3, 16)


def test_existing_output_replaced_atomically_keeps_its_mode(work):
    folder, places = work
    (folder / "o.wav").write_bytes(b"old")
    os.chmod(folder / "o.wav", 0o640)
    code, _, err = cli(["--model", places["cv"], "--text", "Hello", "--output", folder / "o.wav", *FAST])
    assert code == 0, err
    assert (folder / "o.wav").stat().st_mode & 0o777 == 0o640 and sf.info(folder / "o.wav").frames == 3 * 1920


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_fifo_output_is_written_through(work, stream):
    folder, places = work
    fifo = folder / "pipe.wav"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    code, _, err = cli(["--model", places["cv"], "--text", "Hello", "--output", fifo, *FAST,
                        *(["--stream"] if stream else [])])
    reader.join(timeout=30)
    assert code == 0, err
    assert fifo.is_fifo()  # still a FIFO, not replaced by a file
    audio, rate = sf.read(io.BytesIO(received[0]), dtype="float32")
    assert rate == 24000 and audio.shape == (3 * 1920,)


@pytest.mark.parametrize("extra", [[], ["--stream"], ["--batch-file", "{batch}"]], ids=["whole", "stream", "batch"])
def test_disk_full_is_one_line_and_leaves_nothing(work, monkeypatch, extra):
    """A write failing half-way (ENOSPC) names the output; the temporary file is gone."""
    import errno

    import mlx_qwen3tts.outputs as outputs

    real_open = open

    class Full(io.FileIO):
        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    def full_open(path, mode="r", *args, **kwargs):
        if "w" in mode and Path(path).name.startswith("."):
            return Full(path, "w")
        return real_open(path, mode, *args, **kwargs)

    class FullSoundFile:  # soundfile's own report of a short write
        def __init__(self, *args, **kwargs):
            pass

        def write(self, samples):
            raise AssertionError

        def close(self):
            pass

    monkeypatch.setattr(outputs, "open", full_open, raising=False)
    if "--stream" in extra:
        monkeypatch.setattr(sf, "SoundFile", FullSoundFile)
    folder, places = work
    before = listing(folder)
    text = [] if extra[:1] == ["--batch-file"] else ["--text", "Hello"]
    code, _, err = cli(["--model", places["cv"], *text, "--output", folder / "o.wav", *FAST, *_fill(extra, places)])
    assert code == 2 and ("No space left on device" in err or "disk full?" in err) and "Traceback" not in err
    assert [line for line in err.splitlines() if line.startswith("error:")] == [err.splitlines()[-1]]
    assert listing(folder) == before


def test_save_voice_writes_exactly_that_name(work):
    folder, places = work
    code, _, err = cli(["--model", places["base"], "--ref-audio", places["ref"], "--x-vector-only",
                        "--save-voice", folder / "me.voice", "--quiet"])
    assert code == 0, err
    assert listing(folder) == sorted(["lines.txt", "ref.wav", "voice.safetensors", "me.voice"])
    code, _, err = cli(["--model", places["base"], "--voice", folder / "me.voice", "--text", "Hi",
                        "--codes-output", folder / "c.npy", *FAST])
    assert code == 0, err


def test_batch_outputs_name_lines(work):
    folder, places = work
    code, _, err = cli(["--model", places["cv"], "--batch-file", places["batch"], "--output", folder / "b.mp3",
                        "--max-tokens", "3", "--temperature", "0"])
    assert code == 0, err
    # The second text is on line 3 of the file (line 2 is empty): its file is named by that line.
    assert sf.info(folder / "b_1.mp3").format == "MP3" and sf.info(folder / "b_3.mp3").format == "MP3"
    assert not (folder / "b_2.mp3").exists()
    assert "line 3 stopped at --max-tokens 3" in err and "line 2 " not in err
    assert f"line 1 -> {folder / 'b_1.mp3'}\n" in err and f"line 3 -> {folder / 'b_3.mp3'}\n" in err
    assert "2 texts, 6 frames" in err


# --- real processes: stdout, closed pipes, signals, bytes on argv ---

def as_from_a_terminal():
    """Ctrl-C reaches a command started from a terminal; a runner started in the background (a non-interactive
    shell's `cmd &`) passes SIGINT on ignored, and Python then keeps ignoring it, as Unix commands do."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def process(args, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-m", "mlx_qwen3tts.generate", *map(os.fspath, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=as_from_a_terminal,
                            **kwargs)


@pytest.mark.parametrize("extra, check, real_process", [
    ([], "wav", False), (["--stream"], "wav", True), (["--format", "pcm"], "pcm", False),
    (["--stream", "--format", "mp3"], "mp3", False),
])
def test_audio_to_stdout(models, tmp_path, monkeypatch, extra, check, real_process):
    args = ["--model", models["cv"], "--text", "Hello", "--output", "-", *FAST, *extra]
    monkeypatch.chdir(tmp_path)
    if real_process:
        proc = process(args, cwd=tmp_path)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    else:
        code, out, err = cli(args)
        assert code == 0, err
    if check == "pcm":
        assert len(out) == 3 * 1920 * 2
    else:
        audio, rate = sf.read(io.BytesIO(out), dtype="float32")
        assert rate == 24000 and abs(audio.shape[0] - 3 * 1920) <= 1920
    assert os.listdir(tmp_path) == []


def test_reader_going_away_ends_quietly(models, tmp_path):
    """`... --output - | head -c 100`: the writer ends without a message (exit 128 + SIGPIPE)."""
    proc = process(["--model", models["cv"], "--text", "Hello there, a longer text to speak.", "--output", "-",
                    "--stream", "--max-tokens", "400", "--temperature", "0.9", "--quiet"], cwd=tmp_path)
    head = proc.stdout.read(100)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert len(head) == 100
    assert proc.returncode == 128 + signal.SIGPIPE and err == b""
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
def test_signal_leaves_nothing(models, tmp_path, sig):
    """The text comes from stdin, kept open, so the command cannot end on its own before the signal reaches it
    (with --text, CI once saw exit 0 and nothing on stderr: the command had ended first)."""
    (tmp_path / "x.wav").write_bytes(b"the user's old file")
    proc = process(["--model", models["cv"], "--text-stream", "--stream", "--output", tmp_path / "x.wav",
                    "--max-tokens", "3000", "--temperature", "0", "--quiet"], cwd=tmp_path, stdin=subprocess.PIPE)
    proc.stdin.write(b"Hello there, a longer text to speak. ")
    proc.stdin.flush()
    deadline = time.monotonic() + 120
    while not any(n.startswith(".x.wav.") for n in os.listdir(tmp_path)) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.05)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    err = proc.stderr.read()
    proc.stdin.close()
    assert proc.returncode == 128 + sig, err
    assert b"Traceback" not in err and err.decode().strip().splitlines() == [f"interrupted ({sig.name})"]
    assert os.listdir(tmp_path) == ["x.wav"] and (tmp_path / "x.wav").read_bytes() == b"the user's old file"


def test_invalid_utf8_argv(models, tmp_path):
    proc = process(["--model", models["cv"], "--text", os.fsdecode(b"caf\xe9"), "--output", tmp_path / "x.wav"])
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and err.decode().splitlines() == [err.decode().strip()]
    assert "--text is not valid UTF-8" in err.decode() and os.listdir(tmp_path) == []


# --- the Python API ---

@pytest.fixture(scope="module")
def cv(load_tiny):
    return load_tiny("custom_voice-0b6")


@pytest.fixture(scope="module")
def base(load_tiny):
    return load_tiny("base-0b6")


def tone_samples(rate, seconds=2.0):
    t = np.arange(int(seconds * rate)) / rate
    return (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32)


API_ERRORS = [
    ("temperature-nan", "cv", lambda t: t.generate("hi", temperature=math.nan), "temperature must be a number"),
    ("temperature-string", "cv", lambda t: t.generate("hi", temperature="0.5"), "temperature must be a number"),
    ("top-k-fraction", "cv", lambda t: t.generate("hi", top_k=1.5), "top_k must be a whole number"),
    ("top-k-bool", "cv", lambda t: t.generate("hi", top_k=True), "top_k must be a whole number"),
    ("top-p-inf", "cv", lambda t: t.generate("hi", top_p=math.inf), "top_p must be a number in (0, 1]"),
    ("penalty-nan", "cv", lambda t: t.generate("hi", repetition_penalty=math.nan), "repetition_penalty must be"),
    ("clone-rate-1", "base", lambda t: t.clone(tone_samples(8000), x_vector_only=True, sample_rate=1),
     "outside 8-192 kHz"),
    ("clone-rate-400k", "base", lambda t: t.clone(tone_samples(8000), x_vector_only=True, sample_rate=400_000),
     "outside 8-192 kHz"),
    ("decode-5000", "cv", lambda t: t.decode(mx.full((2, 16), 5000, dtype=mx.int32)), "codes must be in 0..2047"),
    ("decode-minus-1", "cv", lambda t: t.decode(mx.array([[0] * 15 + [-1]], dtype=mx.int32)),
     "codes must be in 0..2047"),
]


def deltas_then_fail():
    yield "Hello there, "
    raise RuntimeError("the text source broke")


API_ERRORS += [
    ("text-int", "cv", lambda t: t.generate(123), "must be a str"),
    ("text-bytes", "cv", lambda t: t.generate(b"hello"), "must be a str"),
    ("text-control-only", "cv", lambda t: t.generate("\x00\x07"), "text is empty"),
    ("speaker-int", "cv", lambda t: t.generate("hi", speaker=5), "speaker must be a name"),
    ("batch-plain-string", "cv", lambda t: t.generate_batch("abc"), "takes a list of texts"),
    ("seed-negative", "cv", lambda t: t.generate("hi", seed=-1), "seed must be an integer"),
    ("seed-2**64", "cv", lambda t: t.generate("hi", seed=2**64), "seed must be an integer"),
    ("max-tokens-over-cap", "cv", lambda t: t.generate("hi", max_tokens=10**9), "from 1 to 8192"),
    ("max-tokens-fraction", "cv", lambda t: t.generate("hi", max_tokens=2.5), "max_tokens must be an integer"),
    ("frames-bad-sampling", "cv", lambda t: list(t.frames("hi", top_p=2.0)), "top_p must be"),
    ("text-frames-bad-sampling", "cv", lambda t: list(t.text_frames(iter(["hi"]), temperature=-1)), "temperature"),
    ("text-100k", "cv", lambda t: t.generate("Word. " * 16_667), "at most 20,000"),
]


@pytest.mark.parametrize("which, call, message", [r[1:] for r in API_ERRORS], ids=[r[0] for r in API_ERRORS])
def test_api_error(cv, base, which, call, message):
    with pytest.raises(InputError) as info:
        call(cv if which == "cv" else base)
    assert message in str(info.value)


@pytest.mark.parametrize("kind", ["bad-argument", "delta-iterator-raises", "interrupt"])
def test_no_poisoned_state(cv, kind):
    """After any failed call the next one gives what it gives in a fresh state."""
    settings = dict(seed=11, max_tokens=5, temperature=0.8, decode=False)
    expected = cv.generate("Hello there.", **settings).codes
    if kind == "bad-argument":
        with pytest.raises(InputError):
            cv.generate("Hello there.", top_k=1.5)
    elif kind == "delta-iterator-raises":
        with pytest.raises(RuntimeError):
            list(cv.text_frames(deltas_then_fail(), max_tokens=40, temperature=0.8, seed=3))
    else:
        def progress(frames, *_):
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            cv.generate("Hello there.", progress=progress, seed=2, temperature=0.8)
    np.testing.assert_array_equal(cv.generate("Hello there.", **settings).codes, expected)


def test_load_refuses_a_non_path():
    import mlx_qwen3tts

    with pytest.raises(ModelLoadError, match="give a model folder"):
        mlx_qwen3tts.load(None)


def test_progress_shows_the_real_budget(work):
    folder, places = work
    code, _, err = cli(["--model", places["cv"], "--text", "Hi.", "--codes-output", folder / "c.npy",
                        "--temperature", "0", "--no-guard"])  # random weights run away: the guard would end them
    assert code == 0, err
    budgets = {part.split("/")[1].split()[0] for part in err.replace("\r", "\n").split("frames ")[1:] if "/" in part}
    from mlx_qwen3tts.loop.decode_loop import frame_budget

    budget = str(frame_budget(2))  # "Hi." is 2 text tokens
    assert budgets == {budget}  # frame_budget of the text's tokens, not generation_config's 8192
    assert "--max-tokens 8192" not in err and f"stopped at the budget for this text ({budget} frames)" in err


def test_progress_per_piece_of_split_text(work):
    folder, places = work
    text = " ".join(["This sentence is one of several that make the text long enough to be split."] * 6)
    code, _, err = cli(["--model", places["cv"], "--text", text, "--codes-output", folder / "c.npy",
                        "--temperature", "0", "--max-tokens", "2"])
    assert code == 0, err
    assert "piece 1/2  frames 1/2" in err


def test_another_models_config_is_named_whatever_else_is_missing(tmp_path):
    import mlx_qwen3tts

    other_model_folder(tmp_path)
    with pytest.raises(ModelLoadError, match="'llama' model, not Qwen3-TTS"):
        mlx_qwen3tts.load(str(tmp_path / "llama"))


EXTREMES = [dict(temperature=1e-30), dict(temperature=1e30), dict(temperature=1e300), dict(temperature=5e-324),
            dict(top_k=1), dict(top_p=1e-30), dict(temperature=1e30, top_p=0.5), dict(repetition_penalty=1e30),
            dict(repetition_penalty=1e-30), dict(repetition_penalty=1e300, temperature=1e-30, top_k=1)]


@pytest.mark.parametrize("settings", EXTREMES, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_codes_stay_in_range(cv, settings):
    codes = cv.generate("Hello there, how are you?", max_tokens=12, seed=3, decode=False, **settings).codes
    assert codes.shape[1] == 16
    assert codes.min() >= 0 and codes.max() <= 2047  # EOS is never among the returned frames


def test_tokenizer_added_tokens_may_skip_ids(tmp_path):
    from fixture_checkpoints import TOKENIZER_FILES

    from mlx_qwen3tts.tokenizer import TextTokenizer

    source = checkpoint_dir("custom_voice-0b6", tmp_path / "ckpt")
    for name in TOKENIZER_FILES:
        shutil.copy(source / name, tmp_path / name)
    config = json.loads((tmp_path / "tokenizer_config.json").read_text())
    last = max(int(i) for i in config["added_tokens_decoder"])
    config["added_tokens_decoder"][str(last + 10)] = {"content": "<|gap_token|>", "special": True}
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config))
    tokenizer = TextTokenizer.from_folder(tmp_path).tokenizer
    assert tokenizer.token_to_id("<|gap_token|>") == last + 10
    for token_id, entry in config["added_tokens_decoder"].items():
        assert tokenizer.token_to_id(entry["content"]) == int(token_id)
    assert tokenizer.encode("a<|gap_token|>b").ids[1] == last + 10
