"""The command line: the contract's flags, and one clear line + exit 2 for bad input."""

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from fixture_checkpoints import checkpoint_dir
from mlx_qwen3tts.cli.generate import main


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {name: checkpoint_dir(name, root) for name in ("custom_voice-1b7", "base-0b6", "voice_design-1b7")}


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def error_line(output):
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


def test_generate_writes_wav_and_codes(ckpt, tmp_path):
    wav, npy = tmp_path / "out.wav", tmp_path / "codes.npy"
    code, out = run("--model", ckpt["custom_voice-1b7"], "--text", "Hello there", "--output", wav,
                    "--codes-output", npy, "--temperature", "0", "--max-tokens", "6", "--quiet")
    assert code == 0, out
    audio, rate = sf.read(wav, dtype="float32")
    codes = np.load(npy)
    assert rate == 24000 and codes.shape == (6, 16) and codes.dtype == np.int32
    assert audio.shape == (6 * 1920,)
    assert "stopped at --max-tokens 6" in out


def test_codes_only_skips_decoding(ckpt, tmp_path):
    npy = tmp_path / "codes.npy"
    code, out = run("--model", ckpt["base-0b6"], "--text", "Hi", "--codes-output", npy, "--temperature", "0",
                    "--max-tokens", "3", "--quiet")
    assert code == 0, out
    assert np.load(npy).shape == (3, 16)
    assert list(tmp_path.iterdir()) == [npy]


def test_stream_file_equals_whole(ckpt, tmp_path):
    args = ["--model", ckpt["custom_voice-1b7"], "--text", "Streaming test.", "--temperature", "0",
            "--max-tokens", "7", "--quiet"]
    assert run(*args, "--output", tmp_path / "a.wav")[0] == 0
    code, out = run(*args, "--output", tmp_path / "b.wav", "--stream", "--chunk-frames", "3")
    assert code == 0, out
    a, _ = sf.read(tmp_path / "a.wav", dtype="float32")
    b, _ = sf.read(tmp_path / "b.wav", dtype="float32")
    assert a.shape == b.shape and np.abs(a - b).max() <= 1e-4


@pytest.mark.parametrize(
    "args, message",
    [
        (["--text", "   "], "--text is empty"),
        (["--text", "hi", "--speaker", "nobody"], "--speaker 'nobody' is unknown; choose one of:"),
        (["--text", "hi", "--language", "klingon"], "--language 'klingon' is unknown; choose one of: auto,"),
        (["--text", "hi", "--temperature", "-0.5"], "--temperature must be a number >= 0"),
        (["--text", "hi", "--top-k", "-1"], "--top-k must be a whole number >= 0"),
        (["--text", "hi", "--max-tokens", "0"], "--max-tokens must be an integer from 1 to"),
    ],
)
def test_bad_arguments(ckpt, tmp_path, args, message):
    wav = tmp_path / "x.wav"
    code, out = run("--model", ckpt["custom_voice-1b7"], "--output", wav, *args)
    assert code == 2
    assert message in error_line(out)
    assert not wav.exists() and list(tmp_path.iterdir()) == []


def test_output_in_missing_folder(ckpt, tmp_path):
    code, out = run("--model", ckpt["base-0b6"], "--text", "hi", "--output", tmp_path / "nope" / "x.wav")
    assert code == 2 and "does not exist" in error_line(out)


def test_speaker_on_base_model(ckpt, tmp_path):
    code, out = run("--model", ckpt["base-0b6"], "--text", "hi", "--speaker", "ryan", "--output", tmp_path / "x.wav")
    assert code == 2 and "CustomVoice" in error_line(out)
    assert list(tmp_path.iterdir()) == []


def test_instruct_on_base_model_warns(ckpt, tmp_path):
    code, out = run("--model", ckpt["base-0b6"], "--text", "hi", "--instruct", "whisper", "--temperature", "0",
                    "--max-tokens", "2", "--output", tmp_path / "x.wav", "--quiet")
    assert code == 0, out
    assert "warning:" in out and "ignore instructions" in out


def test_missing_model_folder(tmp_path):
    code, out = run("--model", tmp_path / "nothing-here", "--text", "hi", "--output", tmp_path / "x.wav")
    assert code == 2 and "does not exist" in error_line(out)


def test_truncated_model(ckpt, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(ckpt["base-0b6"], broken)
    data = (broken / "model.safetensors").read_bytes()
    (broken / "model.safetensors").write_bytes(data[: len(data) // 2])
    code, out = run("--model", broken, "--text", "hi", "--output", tmp_path / "x.wav")
    assert code == 2 and "model.safetensors" in error_line(out)
    assert not (tmp_path / "x.wav").exists()


def test_incomplete_model_folder(ckpt, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(ckpt["base-0b6"], broken)
    shutil.rmtree(broken / "speech_tokenizer")
    code, out = run("--model", broken, "--text", "hi", "--output", tmp_path / "x.wav")
    assert code == 2 and "speech_tokenizer" in error_line(out)


def test_config_of_another_model(ckpt, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(ckpt["base-0b6"], other)
    (other / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_size": 64}))
    code, out = run("--model", other, "--text", "hi", "--output", tmp_path / "x.wav")
    assert code == 2 and "not Qwen3-TTS" in error_line(out)


def test_missing_weight_is_named(ckpt, tmp_path):
    import mlx.core as mx

    broken = tmp_path / "broken"
    shutil.copytree(ckpt["base-0b6"], broken)
    weights = mx.load(str(broken / "model.safetensors"))
    weights.pop("talker.codec_head.weight")
    mx.save_safetensors(str(broken / "model.safetensors"), weights)
    code, out = run("--model", broken, "--text", "hi", "--output", tmp_path / "x.wav")
    assert code == 2 and "missing talker.codec_head.weight" in error_line(out)


def test_console_entry_point_runs_as_module():
    proc = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "--max-tokens" in proc.stdout and "--codes-output" in proc.stdout


def test_hub_id_offline_and_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    proc = subprocess.run(
        [sys.executable, "-m", "mlx_qwen3tts.generate", "--model", "Qwen/Qwen3-TTS-12Hz-0.6B-Base", "--text", "hi",
         "--output", str(tmp_path / "x.wav")],
        capture_output=True, text=True, env={**__import__("os").environ},
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].startswith("error: model 'Qwen/Qwen3-TTS-12Hz-0.6B-Base' is not in")
    assert "Traceback" not in proc.stderr


def test_clone_flags_save_and_reuse_voice(ckpt, tmp_path):
    from fixture_checkpoints import FIXTURES

    ref = FIXTURES / "clone" / "ref_16k.wav"
    base = ["--model", ckpt["base-0b6"], "--temperature", "0", "--max-tokens", "4", "--quiet", "--text", "Hi there."]
    voice = tmp_path / "me.safetensors"
    code, out = run(*base, "--ref-audio", ref, "--ref-text", "Hello world, how are you today?", "--save-voice", voice,
                    "--codes-output", tmp_path / "a.npy")
    assert code == 0, out
    code, out = run(*base, "--voice", voice, "--codes-output", tmp_path / "b.npy")
    assert code == 0, out
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), np.load(tmp_path / "b.npy"))
    code, out = run(*base, "--ref-audio", ref, "--x-vector-only", "--codes-output", tmp_path / "c.npy")
    assert code == 0, out and np.load(tmp_path / "c.npy").shape == (4, 16)


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--ref-audio", "{ref}"], "--x-vector-only"),  # ICL without a transcript
        (["--ref-audio", "{missing}", "--x-vector-only"], "missing.wav"),
        (["--ref-text", "words"], "need reference audio"),
        (["--voice", "{missing}"], "does not exist"),
    ],
)
def test_clone_bad_input(ckpt, tmp_path, extra, message):
    from fixture_checkpoints import FIXTURES

    subs = {"ref": FIXTURES / "clone" / "ref_16k.wav", "missing": tmp_path / "missing.wav"}
    extra = [e.format(**subs) for e in extra]
    wav = tmp_path / "x.wav"
    code, out = run("--model", ckpt["base-0b6"], "--text", "hi", "--output", wav, *extra)
    assert code == 2 and message in error_line(out)
    assert not wav.exists()


def test_clone_needs_a_base_model(ckpt, tmp_path):
    from fixture_checkpoints import FIXTURES

    code, out = run("--model", ckpt["custom_voice-1b7"], "--text", "hi", "--output", tmp_path / "x.wav",
                    "--ref-audio", FIXTURES / "clone" / "ref_16k.wav", "--x-vector-only")
    assert code == 2 and "Base model" in error_line(out)


def test_missing_tokenizer_file(ckpt, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(ckpt["base-0b6"], broken)
    (broken / "merges.txt").unlink()
    code, out = run("--model", broken, "--text", "hi", "--output", tmp_path / "x.wav")
    assert code == 2 and "merges.txt" in error_line(out)


def test_weights_of_another_size(ckpt, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(ckpt["base-0b6"], broken)
    config = json.loads((broken / "config.json").read_text())
    config["talker_config"]["hidden_size"] = 96  # the 1.7B-style width: no longer these weights
    (broken / "config.json").write_text(json.dumps(config))
    code, out = run("--model", broken, "--text", "hi", "--output", tmp_path / "x.wav")
    assert code == 2 and "does not match" in error_line(out)


def test_the_flag_table_holds_every_option_and_no_other():
    """Issue 51: docs/cli.md's table (the README's "every flag") lacked 13 options. Each option of the command
    (its short and long names, --no-... forms and click's --help too) is named in the first column of a row,
    and every option the first column names is one of the command's."""
    import re
    from pathlib import Path

    import click

    page = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    table = page.split("\n## Flags\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ")[0] for line in table.splitlines() if line.startswith("| `")]
    named = {flag for row in rows for flag in re.findall(r"`(-{1,2}[a-zA-Z][\w-]*)", row)}
    ctx = click.Context(main, **main.context_settings)
    options = {o for p in main.get_params(ctx) for o in p.opts + p.secondary_opts}
    assert sorted(options - named) == [], "options missing from docs/cli.md's table"
    assert sorted(named - options) == [], "the table names options the command lacks"
