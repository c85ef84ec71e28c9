"""Blended voices through the Python API: a blend of one voice is that voice to the bit (codes and
audio), a 50/50 blend of two presets (or two x-vectors) is neither, and every bad blend is refused
by the request layer, before any work, with one line saying why."""

import mlx.core as mx
import numpy as np
import pytest

from fixture_checkpoints import FIXTURES
from mlx_qwen3tts.errors import InputError
from mlx_qwen3tts.loop.prompt import language_id
from mlx_qwen3tts.voices import Blend, Voice

TEXT = "Hello there, this is a test."
FRAMES = 12
CLIP = str(FIXTURES / "clone" / "ref_16k.wav")


def speak(tts, **kw):
    return tts.generate(TEXT, temperature=0, max_tokens=FRAMES, language="english", **kw)


def same(a, b) -> bool:
    return np.array_equal(np.array(a.codes), np.array(b.codes)) and np.array_equal(a.audio, b.audio)


@pytest.fixture(scope="module")
def custom(load_tiny):
    return load_tiny("custom_voice-0b6")


@pytest.fixture(scope="module")
def base(load_tiny):
    return load_tiny("base-0b6")


@pytest.mark.parametrize("blend", ["serena:1", "serena:0.3", "serena+", [{"voice": "serena", "weight": 2}],
                                   [("SERENA", 1)]])
def test_a_blend_of_one_preset_is_that_preset_to_the_bit(custom, blend):
    if blend == "serena+":  # an empty part is refused, not read as serena alone
        with pytest.raises(InputError, match="empty part"):
            custom.request(text=TEXT, speaker=blend)
        return
    assert same(speak(custom, speaker="serena"), speak(custom, speaker=blend) if isinstance(blend, str)
                else speak(custom, voice=blend))


def test_a_dialect_speaker_alone_keeps_its_dialect(custom):
    """dylan speaks Beijing dialect: a blend of dylan alone, in auto language, is dylan exactly."""
    one = custom.request(text=TEXT, speaker="dylan:1")
    assert one.voice.dialect == "beijing_dialect"
    a = custom.generate(TEXT, temperature=0, max_tokens=FRAMES, speaker="dylan")
    b = custom.generate(TEXT, temperature=0, max_tokens=FRAMES, speaker="dylan:1")
    assert same(a, b)


def test_a_blend_of_different_dialects_takes_none(custom):
    voice = custom.request(text=TEXT, speaker="dylan:0.5+eric:0.5").voice
    assert voice.dialect is None
    assert language_id(custom.config, "auto", voice.speaker, voice.dialect) is None
    same_dialect = custom.request(text=TEXT, speaker="dylan+dylan").voice
    assert same_dialect.dialect == "beijing_dialect"


def test_a_half_and_half_blend_of_two_presets_is_neither(custom):
    a, b = speak(custom, speaker="serena"), speak(custom, speaker="aiden")
    mix = speak(custom, speaker="serena:0.5+aiden:0.5")
    assert not np.array_equal(np.array(mix.codes), np.array(a.codes))
    assert not np.array_equal(np.array(mix.codes), np.array(b.codes))
    # The vector is the mean of the two presets' codec embedding rows.
    tc = custom.config.talker_config
    rows = custom.model.talker.codec_embed(mx.array([tc.spk_id["serena"], tc.spk_id["aiden"]]))
    assert np.allclose(np.array(mix.voice.xvector), np.array(rows.mean(axis=0)), atol=1e-7)


def test_weights_are_relative(custom):
    ways = ["serena:2+aiden:2", "serena+aiden", [{"voice": "serena"}, {"voice": "aiden", "weight": 7}],
            [("serena", 0.25), ("aiden", 0.25)]]
    vectors = [np.array(custom.request(text=TEXT, **({"speaker": w} if isinstance(w, str) else {"voice": w}))
                        .voice.xvector) for w in ways]
    assert all(np.array_equal(vectors[0], v) for v in vectors[1:2] + vectors[3:])
    assert not np.array_equal(vectors[0], vectors[2])  # 1:7


@pytest.mark.parametrize("speaker,words", [
    ("serena:0", "finite number > 0"), ("serena:-1+aiden", "finite number > 0"), ("serena:inf", "finite number"),
    ("serena:nan", "finite number"), ("serena:loud", "must be a number"), ("+aiden", "empty part"),
    ("serena:1+nobody:1", "'nobody' is unknown"), ("default:1", "default voice"),
    ([{"voice": "serena", "weight": True}], "finite number > 0"), ([{"name": "serena"}], "each part"),
    ([], "empty blend"),
])
def test_bad_blends_are_refused_naming_the_field(custom, speaker, words):
    key = "speaker" if isinstance(speaker, str) else "voice"
    with pytest.raises(InputError, match=words) as e:
        custom.request(text=TEXT, **{key: speaker})
    assert e.value.field == key
    assert "\n" not in str(e.value)


def test_a_blend_is_the_whole_voice(custom):
    with pytest.raises(InputError, match="is the whole voice"):
        custom.request(text=TEXT, speaker="serena+aiden", voice="x.safetensors")


def test_presets_blend_only_on_a_custom_voice_model(base):
    with pytest.raises(InputError, match="unknown: preset speakers come with CustomVoice"):
        base.request(text=TEXT, speaker="serena:0.5+aiden:0.5")


def test_x_vectors_blend_on_a_base_model(base, tmp_path):
    cloned = base.clone(CLIP, x_vector_only=True)
    other = Voice(xvector=mx.array(np.random.default_rng(0).normal(0, 0.05, cloned.xvector.shape), mx.float32))
    path = base.save_voice(cloned, tmp_path / "one.safetensors")
    alone = speak(base, voice=cloned)
    assert same(alone, speak(base, voice=[(path, 1)]))
    assert same(alone, speak(base, voice=Blend(((cloned, 0.25),))))
    mix = speak(base, voice=[(path, 1), (other, 1)])
    assert not np.array_equal(np.array(mix.codes), np.array(alone.codes))
    assert not np.array_equal(np.array(mix.codes), np.array(speak(base, voice=other).codes))
    assert np.allclose(np.array(mix.voice.xvector), (np.array(cloned.xvector) + np.array(other.xvector)) / 2,
                       atol=1e-7)


def test_an_in_context_voice_cannot_be_blended(base, tmp_path):
    icl = base.clone(CLIP, ref_text="A reference clip for cloning.")
    with pytest.raises(InputError, match="in-context voice .* cannot be blended") as e:
        base.request(text=TEXT, voice=[(icl, 0.5), (base.clone(CLIP, x_vector_only=True), 0.5)])
    assert "x_vector_only" in str(e.value)
    path = base.save_voice(icl, tmp_path / "icl.safetensors")
    with pytest.raises(InputError, match="'icl.safetensors' is an in-context voice"):
        base.request(text=TEXT, voice=[(path, 1)])


def test_presets_and_cloned_voices_do_not_mix(custom, base):
    cloned = base.clone(CLIP, x_vector_only=True)
    with pytest.raises(InputError, match="mixes preset speakers with cloned or saved voices"):
        custom.request(text=TEXT, voice=[("serena", 1), (cloned, 1)])


def test_a_blend_saved_is_the_blend_again(custom, base, tmp_path):
    mix = speak(custom, speaker="serena:0.7+dylan:0.3")
    path = custom.save_voice(mix.voice, tmp_path / "mix.safetensors")
    assert same(mix, speak(custom, voice=path))
    again = speak(custom, voice=[(path, 1)])  # a saved blend blends again, as what it is
    assert same(mix, again) and again.voice.variant == "custom_voice"
    with pytest.raises(InputError, match="blend of CustomVoice presets .* Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice"):
        base.request(text=TEXT, voice=path)
    with pytest.raises(InputError, match="blend of CustomVoice presets"):
        base.request(text=TEXT, voice=mix.voice)


def cli(*args):
    from click.testing import CliRunner

    from mlx_qwen3tts.cli.generate import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def test_the_command_line_blends_saves_and_reuses(tmp_path, tmp_path_factory):
    from fixture_checkpoints import checkpoint_dir

    model = checkpoint_dir("custom_voice-0b6", tmp_path_factory.getbasetemp())
    common = ["--model", model, "--text", TEXT, "--temperature", "0", "--max-tokens", "6", "--quiet"]
    code, out = cli(*common, "--speaker", "serena:0.5+aiden:0.5", "--save-voice", tmp_path / "mix.safetensors",
                    "--codes-output", tmp_path / "a.npy")
    assert code == 0, out
    code, out = cli(*common, "--voice", tmp_path / "mix.safetensors", "--codes-output", tmp_path / "b.npy")
    assert code == 0, out
    code, out = cli(*common, "--speaker", "serena", "--codes-output", tmp_path / "c.npy")
    assert code == 0, out
    code, out = cli(*common, "--speaker", "serena:1", "--codes-output", tmp_path / "d.npy")
    assert code == 0, out
    a, b, c, d = (np.load(tmp_path / f"{n}.npy") for n in "abcd")
    assert np.array_equal(a, b) and np.array_equal(c, d) and not np.array_equal(a, c)
    code, out = cli(*common, "--speaker", "serena:0+aiden", "--output", tmp_path / "bad.wav")
    lines = [line for line in out.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1 and "--speaker" in lines[0] and "finite number > 0" in lines[0], out
    assert not (tmp_path / "bad.wav").exists()


def test_the_command_line_blends_saved_voices_by_file_or_name(base, tmp_path, tmp_path_factory, monkeypatch):
    from fixture_checkpoints import checkpoint_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    saved = tmp_path / "data" / "mlx_qwen3tts" / "voices"
    saved.mkdir(parents=True)
    one = base.save_voice(base.clone(CLIP, x_vector_only=True), saved / "alice.safetensors")
    other = Voice(xvector=mx.array(np.random.default_rng(1).normal(0, 0.05, (base.facts.hidden_size,)), mx.float32))
    base.save_voice(other, saved / "bob.safetensors")
    base.save_voice(base.clone(CLIP, ref_text="A reference clip for cloning."), saved / "carol.safetensors")
    model = checkpoint_dir("base-0b6", tmp_path_factory.getbasetemp())
    common = ["--model", model, "--text", TEXT, "--temperature", "0", "--max-tokens", "6", "--quiet"]
    runs = {"alone": ["--voice", one], "file": ["--voice", f"{one}:1"], "name": ["--voice", "alice:2"],
            "mix": ["--voice", "alice+bob"], "mix-files": ["--voice", f"{one}:0.5+{saved / 'bob.safetensors'}:0.5"]}
    codes = {}
    for name, args in runs.items():
        code, out = cli(*common, *args, "--codes-output", tmp_path / f"{name}.npy")
        assert code == 0, out
        codes[name] = np.load(tmp_path / f"{name}.npy")
    assert np.array_equal(codes["alone"], codes["file"]) and np.array_equal(codes["alone"], codes["name"])
    assert np.array_equal(codes["mix"], codes["mix-files"]) and not np.array_equal(codes["mix"], codes["alone"])
    code, out = cli(*common, "--voice", "alice+carol", "--output", tmp_path / "bad.wav")
    lines = [line for line in out.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1 and "--voice 'carol.safetensors' is an in-context voice" in lines[0], out
    assert "--x-vector-only" in lines[0] and not (tmp_path / "bad.wav").exists()


def test_a_voice_of_another_size_is_refused_in_a_blend(base, load_tiny, tmp_path):
    large = load_tiny("base-1b7")
    path = large.save_voice(large.clone(CLIP, x_vector_only=True), tmp_path / "large.safetensors")
    mine = base.clone(CLIP, x_vector_only=True)
    with pytest.raises(InputError, match="made with a 1.7B model and this is the 0.6B Base model") as e:
        base.request(text=TEXT, voice=((mine, 1), (path, 1)))
    assert e.value.field == "voice" and "\n" not in str(e.value)
