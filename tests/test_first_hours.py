"""What a new user hits in the first hours (issue 35, items 7-12 and the commands it found missing),
through the command line and the Python API as a user runs them, on tiny random checkpoints."""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from fixture_checkpoints import checkpoint_dir
from mlx_qwen3tts.cli.generate import main

REPO = Path(__file__).resolve().parent.parent
GREEDY = ["--temperature", "0"]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    names = {"cv": "custom_voice-0b6", "base": "base-0b6", "base17": "base-1b7", "vd": "voice_design-1b7"}
    return {key: checkpoint_dir(name, root) for key, name in names.items()}


def cli(args, stdin=None, env=None):
    result = CliRunner(env=env).invoke(main, [os.fspath(a) for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def command(args, env=None, timeout=300):
    """The CLI in its own process (playback: PortAudio reads the sound setup once per process)."""
    env = dict(os.environ, PYTHONPATH=str(REPO), **(env or {}))
    result = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", *map(os.fspath, args)],
                            capture_output=True, text=True, env=env, timeout=timeout)
    return result.returncode, result.stderr


def error_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def tone(path, seconds=2.0, rate=24000):
    t = np.arange(int(seconds * rate)) / rate
    sf.write(path, (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32), rate)


def sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _portaudio():
    try:
        import sounddevice  # noqa: F401
    except OSError:
        return False
    return True


# --- 7: progress on every long path ---

@pytest.mark.parametrize("mode", ["--stream", "--text-stream"])
def test_streams_show_a_progress_line(models, tmp_path, mode):
    text = ["--text", "Hello there."] if mode == "--stream" else []
    code, _, err = cli(["--model", models["cv"], *text, mode, "--output", tmp_path / "s.wav", "--max-tokens", "6",
                        *GREEDY], stdin=b"Hello there." if mode == "--text-stream" else None)
    assert code == 0, err
    # stderr is no terminal here: a line per record, as plain generate and long-form write it (issue 43)
    assert "\nframes 1/" in "\n" + err and "\r" not in err, repr(err)
    assert sf.info(tmp_path / "s.wav").frames == 6 * 1920


@pytest.mark.skipif(not _portaudio(), reason="PortAudio is not installed (.ci/run installs libportaudio2)")
def test_play_shows_a_progress_line(models, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text("pcm.!default {\n    type null\n}\n")  # ALSA's null device
    code, err = command(["--model", models["cv"], "--text", "Play this.", "--play", "--max-tokens", "5", *GREEDY],
                        env={"HOME": str(home)})
    assert code == 0, err
    assert "frames 1/5  audio" in err and "cannot play" not in err, err  # (text mode reads its \r as a newline)


def test_a_batch_reports_each_line_as_it_finishes(models, tmp_path):
    # Greedy, without EOS, each line runs to the frame budget of its text: the long first line ends last.
    lines = ["This first line is by far the longest of the three, so that it runs the longest of them all.",
             "Short.", "A middle one."]
    (tmp_path / "lines.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = cli(["--model", models["cv"], "--batch-file", tmp_path / "lines.txt", "--codes-output",
                        tmp_path / "b.npy", *GREEDY])
    assert code == 0, err
    done = [line for line in err.splitlines() if " done (" in line]
    assert len(done) == 3, err
    assert done[-1].startswith("line 1 done (3/3): ") and {d.split()[1] for d in done} == {"1", "2", "3"}
    frames = np.load(tmp_path / "b_1.npy").shape[0]
    assert f"line 1 done (3/3): {frames} frames" in err
    # the progress comes before the summary of the files written at the end
    assert err.index("line 1 done") < err.index("line 1 -> ")


# --- 8: VoiceDesign is about the description ---

def test_voice_design_without_instruct_hints_at_the_description(models, tmp_path):
    code, _, err = cli(["--model", models["vd"], "--text", "Hello.", "--output", tmp_path / "v.wav",
                        "--max-tokens", "3", *GREEDY])
    assert code == 0, err
    hint = [line for line in err.splitlines() if line.startswith("warning: a VoiceDesign model")]
    assert len(hint) == 1 and "instruction describes" in hint[0], err
    code, _, err = cli(["--model", models["vd"], "--text", "Hello.", "--instruct", "A deep, slow voice.",
                        "--output", tmp_path / "w.wav", "--max-tokens", "3", *GREEDY])
    assert code == 0 and "VoiceDesign" not in err, err


def test_a_speaker_on_voice_design_is_told_to_describe_the_voice(models, tmp_path):
    code, _, err = cli(["--model", models["vd"], "--text", "Hello.", "--speaker", "ryan", "--output",
                        tmp_path / "v.wav"])
    line = error_line(err)
    assert code == 2 and "--instruct" in line and "VoiceDesign" in line and "--ref-audio" not in line
    assert not (tmp_path / "v.wav").exists()


# --- 9: the missing file first ---

def test_a_missing_reference_file_is_reported_before_the_missing_transcript(models, tmp_path):
    code, _, err = cli(["--model", models["base"], "--text", "Hello.", "--ref-audio", tmp_path / "missing.wav",
                        "--output", tmp_path / "o.wav"])
    line = error_line(err)
    assert code == 2 and "missing.wav" in line and "--ref-text" not in line


# --- 10: --play with no sound device still writes the file ---

def test_play_without_a_device_still_writes_the_output(models, tmp_path):
    home = tmp_path / "home"
    home.mkdir()  # no .asoundrc: the test machine's ALSA has no card (as the row in test_reliability relies on)
    code, err = command(["--model", models["cv"], "--text", "Hello.", "--play", "--output", tmp_path / "p.wav",
                         "--max-tokens", "4", *GREEDY], env={"HOME": str(home)})
    assert code == 0, err
    warning = [line for line in err.splitlines() if line.startswith("warning: cannot play")]
    assert len(warning) == 1 and "--output" not in warning[0] and "p.wav" in warning[0], err
    assert sf.info(tmp_path / "p.wav").frames == 4 * 1920


# --- 11: saving from Python, and load()'s words ---

def test_result_save_picks_the_format_and_keeps_existing_files(models, tmp_path):
    import mlx_qwen3tts

    tts = mlx_qwen3tts.load(str(models["cv"]))
    result = tts.generate("Hello.", max_tokens=4, temperature=0)
    assert result.save(tmp_path / "a.flac") == tmp_path / "a.flac"
    info = sf.info(tmp_path / "a.flac")
    assert info.format == "FLAC" and info.samplerate == 24000 and info.frames == result.audio.shape[0]
    result.save(tmp_path / "a.wav")
    audio, _ = sf.read(tmp_path / "a.wav", dtype="float32")
    np.testing.assert_array_equal(audio, result.audio)  # float WAV holds the samples as they are

    (tmp_path / "mine.wav").write_bytes(b"a user's file")
    with pytest.raises(mlx_qwen3tts.InputError, match="exists; pass overwrite=True"):
        result.save(tmp_path / "mine.wav")
    assert (tmp_path / "mine.wav").read_bytes() == b"a user's file"
    result.save(tmp_path / "mine.wav", overwrite=True)
    assert sf.info(tmp_path / "mine.wav").frames == result.audio.shape[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.flac", "a.wav", "mine.wav"]  # no temporary left


def test_tts_saves_a_cloned_voice_that_loads_again(models, tmp_path):
    import mlx_qwen3tts

    tone(tmp_path / "ref.wav")
    tts = mlx_qwen3tts.load(str(models["base"]))
    voice = tts.clone(tmp_path / "ref.wav", x_vector_only=True)
    assert tts.save_voice(voice, tmp_path / "me.safetensors") == tmp_path / "me.safetensors"
    before = sha(tmp_path / "me.safetensors")
    with pytest.raises(mlx_qwen3tts.InputError, match="exists"):
        tts.save_voice(voice, tmp_path / "me.safetensors")
    assert sha(tmp_path / "me.safetensors") == before
    again = tts.generate("Hi.", voice=tts.load_voice(tmp_path / "me.safetensors"), max_tokens=3, temperature=0)
    first = tts.generate("Hi.", voice=voice, max_tokens=3, temperature=0)
    np.testing.assert_array_equal(again.codes, first.codes)


@pytest.mark.parametrize("repo", ["nobody/no-such-model", "Qwen/Qwen3-TTS-12Hz-0.6B-Base"])
def test_load_of_an_id_not_in_the_cache_says_what_to_pass_in_python_words(tmp_path, repo):
    code = f"import mlx_qwen3tts\ntry:\n    mlx_qwen3tts.load({repo!r})\nexcept mlx_qwen3tts.ModelLoadError as e:\n" \
           "    print(e)"
    env = dict(os.environ, PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    message = result.stdout.strip()
    assert result.returncode == 0 and repo in message, result.stderr
    assert "--model" not in message and "path of a local model folder" in message


# --- 12: the model to use, sizes as users write them ---

def test_cloning_on_custom_voice_names_the_base_model(models, tmp_path):
    tone(tmp_path / "ref.wav")
    code, _, err = cli(["--model", models["cv"], "--text", "Hi.", "--ref-audio", tmp_path / "ref.wav",
                        "--x-vector-only", "--output", tmp_path / "o.wav"])
    line = error_line(err)
    assert code == 2 and "Qwen/Qwen3-TTS-12Hz-0.6B-Base" in line and "0.6B CustomVoice" in line
    assert "custom_voice" not in line


def test_a_voice_of_another_size_is_named_in_sizes_users_know(models, tmp_path):
    tone(tmp_path / "ref.wav")
    code, _, err = cli(["--model", models["base"], "--ref-audio", tmp_path / "ref.wav", "--x-vector-only",
                        "--save-voice", tmp_path / "me.safetensors"])
    assert code == 0, err
    code, _, err = cli(["--model", models["base17"], "--text", "Hi.", "--voice", tmp_path / "me.safetensors",
                        "--output", tmp_path / "o.wav"])
    line = error_line(err)
    assert code == 2 and "0.6B" in line and "1.7B" in line and "Qwen/Qwen3-TTS-12Hz-0.6B-Base" in line
    assert "0b6" not in line and "1b7" not in line


def test_a_speaker_on_base_names_the_model_as_users_do(models, tmp_path):
    code, _, err = cli(["--model", models["base"], "--text", "Hi.", "--speaker", "ryan", "--output",
                        tmp_path / "o.wav"])
    line = error_line(err)
    assert code == 2 and "the 0.6B Base model" in line and "--ref-audio" in line and "base model" not in line


# --- the commands users looked for ---

def test_list_speakers_gives_each_with_its_language(models):
    code, out, err = cli(["--model", models["cv"], "--list-speakers"])
    assert code == 0, err
    rows = {line.split()[0]: " ".join(line.split()[1:]) for line in out.splitlines() if line.startswith("  ")}
    assert rows["ryan"] == "English" and rows["sohee"] == "Korean" and rows["ono_anna"] == "Japanese"
    assert rows["eric"] == "Chinese (Sichuan dialect)" and rows["dylan"] == "Chinese (Beijing dialect)"
    assert len(rows) == 9
    code, out, err = cli(["--model", models["base"], "--list-speakers"])
    assert code == 0 and "no preset speakers" in out and "--ref-audio" in out, err


def test_help_lists_the_speakers():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    assert "--list-speakers" in result.output
    assert "English: Ryan, Aiden" in result.output and "Korean: Sohee" in result.output


def test_voice_by_the_name_the_server_saved_it_under(models, tmp_path):
    from mlx_qwen3tts.server.limits import Limits
    from mlx_qwen3tts.server.voice_store import VoiceStore
    import mlx_qwen3tts

    tone(tmp_path / "ref.wav")
    tts = mlx_qwen3tts.load(str(models["base"]))
    data = tmp_path / "data"
    store = VoiceStore(tts.facts, tts.tokenizer, data / "mlx_qwen3tts" / "voices", Limits())
    store.save("Narrator", tts.clone(tmp_path / "ref.wav", x_vector_only=True))
    env = {"XDG_DATA_HOME": str(data)}
    args = ["--model", models["base"], "--text", "Hi.", "--max-tokens", "3", *GREEDY, "--quiet"]
    code, _, err = cli([*args, "--voice", "narrator", "--codes-output", tmp_path / "by_name.npy"], env=env)
    assert code == 0, err
    code, _, err = cli([*args, "--voice", data / "mlx_qwen3tts" / "voices" / "Narrator.safetensors",
                        "--codes-output", tmp_path / "by_path.npy"])
    assert code == 0, err
    np.testing.assert_array_equal(np.load(tmp_path / "by_name.npy"), np.load(tmp_path / "by_path.npy"))
    code, _, err = cli([*args, "--voice", "someone", "--codes-output", tmp_path / "x.npy"], env=env)
    line = error_line(err)
    assert code == 2 and "no voice named 'someone'" in line and "Narrator" in line
    assert not (tmp_path / "x.npy").exists()


def test_from_codes_turns_a_codes_file_back_into_its_audio(models, tmp_path):
    code, _, err = cli(["--model", models["cv"], "--text", "Hello there.", "--max-tokens", "6", *GREEDY, "--quiet",
                        "--output", tmp_path / "a.wav", "--codes-output", tmp_path / "a.npy"])
    assert code == 0, err
    code, _, err = cli(["--model", models["cv"], "--from-codes", tmp_path / "a.npy", "--output", tmp_path / "b.wav"])
    assert code == 0, err
    assert "6 frames, 0.48 s of audio" in err
    original, _ = sf.read(tmp_path / "a.wav", dtype="float32")
    decoded, rate = sf.read(tmp_path / "b.wav", dtype="float32")
    assert rate == 24000
    np.testing.assert_allclose(decoded, original, atol=1e-5)
    (tmp_path / "text.npy").write_bytes(b"not codes")
    for bad, message in (("text.npy", "is not a .npy array of codes"), ("none.npy", "does not exist")):
        code, _, err = cli(["--model", models["cv"], "--from-codes", tmp_path / bad, "--output", tmp_path / "c.wav"])
        assert code == 2 and message in error_line(err)
    code, _, err = cli(["--model", models["cv"], "--from-codes", tmp_path / "a.npy", "--text", "Hi",
                        "--output", tmp_path / "c.wav"])
    assert code == 2 and "leave out --text" in error_line(err)
    assert not (tmp_path / "c.wav").exists()


@pytest.mark.parametrize("module", ["mlx_qwen3tts.server", "mlx_qwen3tts.convert"])
def test_server_and_converter_tell_their_version(module):
    import mlx_qwen3tts

    result = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True,
                            timeout=120, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{module}, version {mlx_qwen3tts.__version__}"
