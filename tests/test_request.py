"""The request: every argument validated in one place, the same keywords on every entry point, and
no error (bad argument, failing text source, Ctrl-C) that leaves the loaded model unusable."""

import dataclasses
import warnings

import mlx.core as mx
import numpy as np
import pytest

from mlx_qwen3tts.errors import InputError
from mlx_qwen3tts.request import Request, sampling_settings
from mlx_qwen3tts.loop.decode_loop import frame_budget
from mlx_qwen3tts.loop.sampling import SamplingConfig

TEXT = "Hello there, how are you?"


CHECKPOINT = "custom_voice-0b6"  # the conftest `tts` fixture loads it


@pytest.fixture(scope="module")
def sampled(tts):
    """Codes of a seeded, sampled generation made before anything in this module failed."""
    return tts.generate(TEXT, seed=7, max_tokens=6, decode=False).codes


def codes_of(frames):
    return np.concatenate([np.array(f.codes) for f in frames]) if frames else np.zeros((0, 16), np.int32)


def test_request_is_frozen_and_resolved(tts):
    request = tts.request(TEXT, temperature=0, seed=3, max_tokens=5)
    assert isinstance(request, Request) and request.text == TEXT and request.deltas is None
    assert request.voice.speaker == "ryan" and request.text_mode == "non-streaming"
    assert request.sampling.temperature == 0 and request.sampling.cp_temperature == 0
    assert (request.seed, request.max_frames, request.first_chunk_frames, request.chunk_frames) == (3, 5, 1, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.seed = 4
    assert tts.request(deltas=iter(["Hi"])).text_mode == "streaming"


@pytest.mark.parametrize("text", [b"Hello", 123, ["Hello"]])
def test_text_must_be_str(tts, text):
    with pytest.raises(InputError, match="must be a str"):
        tts.request(text)
    with pytest.raises(InputError, match="must be a str"):
        tts.generate(text, max_tokens=2)


def test_control_characters_are_removed(tts):
    assert tts.request("He\x00llo\x07 the\x1bre,\tyou\r\nthere\x7f\x85.").text == "Hello there,\tyou\nthere."
    dirty = tts.generate("Hel\x00lo\x1b there.", temperature=0, max_tokens=4, decode=False).codes
    clean = tts.generate("Hello there.", temperature=0, max_tokens=4, decode=False).codes
    np.testing.assert_array_equal(dirty, clean)
    frames = tts.text_frames(iter(["Hel\x00", "lo\x1b there."]), temperature=0, max_tokens=4)
    np.testing.assert_array_equal(codes_of(list(frames)),
                                  tts.generate("Hello there.", text_mode="streaming", temperature=0,
                                               max_tokens=4, decode=False).codes)


@pytest.mark.parametrize("text", ["", "   ", "\x00\x01\x1b", "\x07 \x08"])
def test_text_empty_after_cleaning_is_refused(tts, text):
    with pytest.raises(InputError, match="empty"):
        tts.generate(text)


def test_a_delta_that_is_not_text_is_refused(tts):
    with pytest.raises(InputError, match="text delta must be a str"):
        list(tts.text_frames(iter(["Hello ", b"there"]), temperature=0, max_tokens=4))


@pytest.mark.parametrize("value", [0, -3, 1.5, 2.0, True, "5", 8193, 10**9])
def test_max_tokens_must_be_an_integer_within_the_cap(tts, value):
    with pytest.raises(InputError, match=r"max_tokens must be an integer from 1 to 8192 \(max_new_tokens"):
        tts.generate(TEXT, max_tokens=value)
    with pytest.raises(InputError, match="max_tokens"):
        tts.stream(TEXT, max_tokens=value)


@pytest.mark.parametrize("value", [-1, 2**64, 1.0, "1", True])
def test_seed_must_be_an_integer_below_two_to_the_64(tts, value):
    with pytest.raises(InputError, match=r"seed must be an integer from 0 to 18446744073709551615"):
        tts.generate(TEXT, seed=value, max_tokens=2)


def test_largest_seed_is_accepted(tts):
    first = tts.generate(TEXT, seed=2**64 - 1, max_tokens=3, decode=False).codes
    np.testing.assert_array_equal(first, tts.generate(TEXT, seed=2**64 - 1, max_tokens=3, decode=False).codes)


@pytest.mark.parametrize("texts", ["abc", b"abc"])
def test_generate_batch_refuses_a_plain_string(tts, texts):
    with pytest.raises(InputError, match="list of texts"):
        tts.generate_batch(texts, max_tokens=2)


@pytest.mark.parametrize("name,value", [("first_chunk_frames", 0), ("chunk_frames", 1.5)])
def test_chunk_sizes_are_checked(tts, name, value):
    with pytest.raises(InputError, match=name):
        tts.stream(TEXT, **{name: value})


def test_frames_take_the_sampling_keywords_of_generate(tts):
    kwargs = dict(temperature=0.7, top_k=5, top_p=0.9, repetition_penalty=1.2, seed=11, max_tokens=5)
    whole = tts.generate(TEXT, text_mode="streaming", decode=False, **kwargs).codes
    np.testing.assert_array_equal(codes_of(list(tts.frames(TEXT, text_mode="streaming", **kwargs))), whole)
    deltas = iter([TEXT[:7], TEXT[7:]])
    np.testing.assert_array_equal(codes_of(list(tts.text_frames(deltas, **kwargs))), whole)
    greedy = tts.generate(TEXT, text_mode="streaming", decode=False, temperature=0, max_tokens=5).codes
    assert not np.array_equal(greedy, whole)  # the keywords were used, not ignored


def test_an_ignored_instruction_is_a_notice_of_the_request_and_a_warning_of_generate(tts, load_tiny):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the request carries the notice; showing it is the caller's
        request = tts.request(TEXT, instruct="whisper")
        assert request.instruct is None
        assert request.notices == ("the 0.6B CustomVoice model ignores instructions (as upstream does); "
                                   "the instruction is not used",)
        assert load_tiny("base-0b6").request(TEXT, instruct="whisper").notices[0].startswith(
            "Base models ignore instructions")
        request = load_tiny("voice_design-1b7").request(TEXT, instruct="Whis\x00per.")
        assert request.instruct == "Whisper." and request.notices == ()
    with pytest.warns(UserWarning, match="the 0.6B CustomVoice model ignores instructions") as caught:
        tts.generate(TEXT, instruct="whisper", max_tokens=1, decode=False)
    assert caught[0].filename == __file__  # the user's own call, not a line inside the package
    with pytest.warns(UserWarning, match="ignores instructions") as caught:
        tts.frames(TEXT, instruct="whisper", max_tokens=1)
    with pytest.warns(UserWarning, match="ignores instructions") as batch:
        tts.generate_batch([TEXT, TEXT], instruct="whisper", max_tokens=1, decode=False)
    assert caught[0].filename == batch[0].filename == __file__ and len(batch) == 1  # once for the batch


def test_stream_text_budget_grows_with_the_text_like_generate(tts):
    """Without max_tokens, text given as deltas stops where the whole text would (the tiny random weights say
    no EOS for this text, so both run to the budget; the runaway guard, which would end them sooner, is off)."""
    whole = tts.generate("Hello.", text_mode="streaming", temperature=0, decode=False, guard=False)
    assert not whole.stopped_on_eos
    stream = tts.text_frames(iter(["Hel", "lo", "."]), temperature=0, guard=False)
    frames = list(stream)
    n_tokens = len(tts.tokenizer.encode("Hello."))
    assert len(frames) == whole.codes.shape[0] == stream.max_frames == frame_budget(n_tokens)
    np.testing.assert_array_equal(codes_of(frames), whole.codes)


@pytest.mark.parametrize("kwargs", [dict(top_k=1.5), dict(top_k=-1), dict(temperature=-1), dict(top_p=0)])
def test_bad_argument_does_not_poison(tts, sampled, kwargs):
    with pytest.raises(Exception):
        tts.generate(TEXT, max_tokens=6, **kwargs)
    codes = tts.generate(TEXT, max_tokens=3, decode=False).codes  # unseeded: no reset
    assert 1 <= codes.shape[0] <= 3 and codes.shape[1] == 16, codes.shape  # sampled: it may end early
    np.testing.assert_array_equal(tts.generate(TEXT, seed=7, max_tokens=6, decode=False).codes, sampled)


@pytest.mark.parametrize("error", [RuntimeError("the LLM fell over"), KeyboardInterrupt()])
def test_failing_text_source_does_not_poison(tts, sampled, error):
    def deltas():
        yield "Hello there, "
        yield "how are"
        raise error

    with pytest.raises(type(error)):
        list(tts.stream_text(deltas(), max_tokens=40, seed=7))
    np.testing.assert_array_equal(tts.generate(TEXT, seed=7, max_tokens=6, decode=False).codes, sampled)


@pytest.mark.parametrize("at", [1, 3])
def test_interrupt_during_generation_does_not_poison(tts, sampled, at):
    def progress(frame, *_):
        if frame == at:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tts.generate(TEXT, seed=5, max_tokens=6, progress=progress, temperature=0.8)
    np.testing.assert_array_equal(tts.generate(TEXT, seed=7, max_tokens=6, decode=False).codes, sampled)


@pytest.mark.parametrize("bad, field", [
    (dict(temperature=-1), "temperature"), (dict(temperature=float("nan")), "temperature"),
    (dict(temperature=True), "temperature"), (dict(top_k=-1), "top_k"), (dict(top_k=1.5), "top_k"),
    (dict(top_p=0.0), "top_p"), (dict(top_p=1.5), "top_p"), (dict(repetition_penalty=0), "repetition_penalty"),
    (dict(repetition_penalty=10**400), "repetition_penalty")])
def test_sampling_settings_out_of_range_are_refused(bad, field):
    with pytest.raises(InputError) as caught:
        sampling_settings(SamplingConfig(), **bad)
    assert caught.value.field == field


def test_the_base_settings_are_checked_too():
    with pytest.raises(InputError) as caught:
        sampling_settings(SamplingConfig(cp_temperature=-1), top_k=3)
    assert caught.value.field == "cp_temperature"
    assert sampling_settings(SamplingConfig(cp_temperature=-1), temperature=0.5).cp_temperature == 0.5


def test_a_requests_temperature_top_k_and_top_p_set_the_code_predictors_too():
    settings = sampling_settings(SamplingConfig(), temperature=0, top_k=7, top_p=0.5, repetition_penalty=1.0)
    assert settings == SamplingConfig(temperature=0, top_k=7, top_p=0.5, repetition_penalty=1.0,
                                      cp_temperature=0, cp_top_k=7, cp_top_p=0.5)
    assert sampling_settings(settings) == settings  # None keeps the base's


def test_sampling_config_passed_whole_is_validated(tts):
    with pytest.raises(InputError, match="top_p") as error:
        tts.request(TEXT, sampling=SamplingConfig(top_p=2.0))
    assert error.value.field == "top_p"


def test_every_argument_is_checked_before_a_voice_is_loaded_or_cloned(tts, load_tiny, monkeypatch, tmp_path):
    """A bad split (checked by generate, not by request) or a preset speaker beside a saved voice is refused
    before any reference audio is encoded and before a voice file is read."""
    base = load_tiny("base-0b6")

    def no_work(*args, **kwargs):
        raise AssertionError("a voice was made before every argument was checked")

    monkeypatch.setattr(base.voices, "clone", no_work)
    monkeypatch.setattr(base.voices, "make", no_work)
    monkeypatch.setattr(tts.voices, "make", no_work)
    audio = (0.3 * np.sin(2 * np.pi * 220 * np.arange(48000) / 24000)).astype(np.float32)
    with pytest.raises(InputError, match="split") as e:
        base.generate(TEXT, ref_audio=(audio, 24000), ref_text="A tone.", split="chapters", max_tokens=2)
    assert e.value.field == "split"
    with pytest.raises(InputError, match="cannot be combined") as e:
        tts.generate(TEXT, voice=tmp_path / "saved.safetensors", speaker="ryan", max_tokens=2)
    assert e.value.field == "speaker"


def test_generate_speaks_the_pieces_its_plan_gives(tts):
    long = " ".join(f"Sentence number {i} is here." for i in range(20))
    pieces = tts.plan(long, temperature=0, max_tokens=40, normalize=False).pieces  # the text as written
    assert len(pieces) > 1 and " ".join(p.text for p in pieces) == long
    assert all(p.voice == pieces[0].voice and p.sampling == pieces[0].sampling for p in pieces)
    assert [p.text for p in tts.plan(long, split="none", normalize=False).pieces] == [long]
    assert len(tts.plan("Hi. There.", split="sequence").pieces) == 1  # packed into one piece where it fits


def test_the_task_asked_for_must_be_the_models(tts, load_tiny):
    """`task` (vLLM-Omni's task_type): the model's own kind in any spelling passes; another is refused naming
    this model's; VoiceDesign needs an instruction and Base a voice, as vLLM-Omni's Qwen3-TTS adapter refuses."""
    for task in ("CustomVoice", "custom_voice", "customvoice"):
        assert tts.request(TEXT, task=task).voice.speaker == "ryan"
    with pytest.raises(InputError, match="whose task is CustomVoice") as refused:
        tts.request(TEXT, task="Base")
    assert refused.value.field == "task" and refused.value.code == "model_not_supported"
    with pytest.raises(InputError, match="must be one of Base, CustomVoice, VoiceDesign") as refused:
        tts.request(TEXT, task=3)
    with pytest.raises(InputError, match="VoiceDesign speaks in the voice its instruction") as refused:
        load_tiny("voice_design-1b7").request(TEXT, task="VoiceDesign")
    assert refused.value.field == "instruct"
    with pytest.raises(InputError, match="Base clones a voice") as refused:
        load_tiny("base-0b6").request(TEXT, task="Base")
    assert refused.value.field == "ref_audio"
    assert load_tiny("base-0b6").request(TEXT).voice.xvector is None  # without `task`: the default voice, as before


def test_a_speaker_embedding_is_a_base_models_cloned_voice(tts, load_tiny):
    base = load_tiny("base-0b6")
    size = base.facts.hidden_size
    request = base.request(TEXT, task="Base", xvector=[0.25] * size)
    assert request.voice.xvector.shape == (size,) and request.voice.ref_codes is None
    np.testing.assert_array_equal(np.array(request.voice.xvector), np.full(size, 0.25, np.float32))
    for bad, words in (([0.25] * (size + 1), f"has {size + 1} numbers"), ([[0.25] * size], "a list of numbers"),
                       (["a"] * size, "a list of numbers"), ([float("nan")] * size, "not finite")):
        with pytest.raises(InputError, match=words) as refused:
            base.request(TEXT, xvector=bad)
        assert refused.value.field == "xvector"
    with pytest.raises(InputError, match="the whole voice"):
        base.request(TEXT, xvector=[0.25] * size, voice="somebody.safetensors")
    with pytest.raises(InputError, match="needs a Base model") as refused:
        tts.request(TEXT, xvector=[0.25] * size)
    assert refused.value.code == "model_not_supported"
