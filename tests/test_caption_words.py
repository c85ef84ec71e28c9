"""Long-form captions with word timings (`--caption-words`, issue 44) on the tiny checkpoints: each
sentence's words are the aligner's on that sentence's own audio, inside its cue, in order; WebVTT
carries them as cue-internal timestamps, SRT as a cue per word, JSON as a `words` list; a run killed
midway and resumed gives the same captions."""

import json
import re
import signal
import time

import numpy as np
import pytest

from fixture_checkpoints import aligner_dir, checkpoint_dir
from mlx_qwen3tts import aligner as aligner_api
from test_longform import audio, cli_process, error_line, finished, run, sentences

RATE = 24000


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {"custom_voice-0b6": checkpoint_dir("custom_voice-0b6", root), "aligner": aligner_dir(root)}


@pytest.fixture(scope="module")
def aligner(ckpt):
    return aligner_api.load(str(ckpt["aligner"]))


def speak(ckpt, *args):
    code, out = run("--model", ckpt["custom_voice-0b6"], "--temperature", "0", "--max-tokens", "20", "-q",
                    "--caption-words", "--aligner", ckpt["aligner"], *args)
    assert code == 0, out
    return out


TEXT = "Hello world, it's me. 我爱 Python 和 MLX!\n\nThe e-mail came at 10 o'clock."


def test_json_words_are_the_aligners_on_each_sentence_inside_its_cue(ckpt, aligner, tmp_path):
    (tmp_path / "a.txt").write_text(TEXT)
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.json")
    whole = audio(tmp_path / "a.wav")
    cues = json.loads((tmp_path / "a.json").read_text())["cues"]
    assert [c["text"] for c in cues] == ["Hello world, it's me.", "我爱 Python 和 MLX!",
                                         "The e-mail came at 10 o'clock."]
    for cue in cues:
        own = aligner.align(whole[cue["start"]:cue["speech_end"]], RATE, cue["text"], "auto")
        expected = [(w.text, min(cue["start"] + round(w.start * RATE), cue["speech_end"]),
                     min(cue["start"] + round(w.end * RATE), cue["speech_end"])) for w in own]
        got = [(w["text"], w["start"], w["end"]) for w in cue["words"]]
        assert [g[0] for g in got] == [e[0] for e in expected]
        assert all(abs(g[1] - e[1]) <= 1 and abs(g[2] - e[2]) <= 1 for g, e in zip(got, expected))
        starts = [w["start"] for w in cue["words"]]
        assert starts == sorted(starts)
        assert all(cue["start"] <= w["start"] <= w["end"] <= cue["speech_end"] for w in cue["words"])
    assert [w["text"] for w in cues[1]["words"]] == ["我", "爱", "Python", "和", "MLX"]
    assert [w["text"] for w in cues[2]["words"]] == ["The", "email", "came", "at", "10", "o'clock"]
    assert cues[-1]["words"][-1]["end"] <= whole.shape[0]


def _clock(text):
    h, m, s = text.replace(",", ".").split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def test_vtt_word_timestamps_and_srt_word_cues(ckpt, tmp_path):
    (tmp_path / "a.txt").write_text(TEXT)
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.json")
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "b.wav", "--captions", tmp_path / "b.vtt")
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "c.wav", "--captions", tmp_path / "c.srt")
    cues = json.loads((tmp_path / "a.json").read_text())["cues"]
    blocks = [b.strip().splitlines() for b in (tmp_path / "b.vtt").read_text().split("\n\n") if "-->" in b]
    assert len(blocks) == len(cues)
    for block, cue in zip(blocks, cues):
        start, end = (_clock(t) for t in block[0].split(" --> "))
        tags = [_clock(t) for t in re.findall(r"<(\d\d:\d\d:\d\d\.\d\d\d)>", block[1])]
        assert re.sub(r"<[^>]*>", "", block[1]) == cue["text"]
        assert all(start < t < end for t in tags) and tags == sorted(set(tags))
        shown = {w["start"] * 1000 // RATE / 1000 for w in cue["words"]}
        assert set(tags) <= shown
    srt = [b.strip().splitlines() for b in (tmp_path / "c.srt").read_text().split("\n\n") if "-->" in b]
    words = [w for c in cues for w in c["words"]]
    assert len(srt) <= len(words)  # a cue per word (words starting on one millisecond share one)
    assert "".join(b[2] for b in srt).replace(" ", "") == "".join(c["text"] for c in cues).replace(" ", "")
    starts = [_clock(b[1].split(" --> ")[0]) for b in srt]
    assert starts == sorted(starts) and all(_clock(b[1].split(" --> ")[1]) >= _clock(b[1].split(" --> ")[0])
                                            for b in srt)


def test_word_captions_survive_a_kill_and_resume(ckpt, tmp_path):
    text = tmp_path / "book.txt"
    said = sentences(10, seed=5)
    text.write_text("\n\n".join(" ".join(said[i:i + 2]) for i in range(0, 10, 2)))
    args = ["--text-file", text, "--seed", "7", "--max-tokens", "12", "--batch-size", "2", "--caption-words",
            "--aligner", ckpt["aligner"]]
    finished(cli_process(ckpt, *args, "-o", tmp_path / "whole.wav", "--captions", tmp_path / "whole.json"))
    out, parts = tmp_path / "resumed.wav", tmp_path / ".resumed.wav.parts"
    proc = cli_process(ckpt, *args, "-o", out, "--captions", tmp_path / "resumed.json")
    deadline = time.monotonic() + 300
    while len(list(parts.glob("*.words.json"))) < 4 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    assert not out.exists() and len(list(parts.glob("*.words.json"))) >= 4
    err = finished(cli_process(ckpt, *args, "-o", out, "--captions", tmp_path / "resumed.json", "--resume"))
    assert "resuming after segment" in err
    np.testing.assert_array_equal(audio(out), audio(tmp_path / "whole.wav"))
    whole = json.loads((tmp_path / "whole.json").read_text())
    assert json.loads((tmp_path / "resumed.json").read_text()) == whole
    assert all(c["words"] for c in whole["cues"])


def test_an_8_bit_aligner_times_the_same_words(ckpt, tmp_path):
    (tmp_path / "a.txt").write_text(TEXT)
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.json",
          "--aligner-bits", "8")
    cues = json.loads((tmp_path / "a.json").read_text())["cues"]
    assert [w["text"] for w in cues[1]["words"]] == ["我", "爱", "Python", "和", "MLX"]
    assert all(c["start"] <= w["start"] <= w["end"] <= c["speech_end"] for c in cues for w in c["words"])


@pytest.mark.parametrize("args, message", [
    (["--caption-words"], "--caption-words times the words of --captions"),
    (["--captions", "{tmp}/a.vtt", "--aligner-bits", "4"], "--aligner-bits applies to --caption-words"),
    (["--captions", "{tmp}/a.vtt", "--caption-words", "--language", "korean"], "Korean needs soynlp"),
])
def test_bad_word_caption_options_are_one_line_and_exit_2(ckpt, tmp_path, args, message):
    (tmp_path / "a.txt").write_text("Hello there.")
    code, output = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "a.txt", "-o",
                       tmp_path / "a.wav", *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2 and message in error_line(output)
    assert not (tmp_path / "a.wav").exists()


def test_caption_words_needs_text_file(ckpt, tmp_path):
    code, output = run("--model", ckpt["custom_voice-0b6"], "--text", "Hi", "-o", tmp_path / "a.wav",
                       "--caption-words")
    assert code == 2 and "--caption-words applies to --text-file" in error_line(output)


def test_rendering_of_timed_words_in_each_format():
    """Word times that differ (the tiny aligner's mostly do not): WebVTT tags sit before each later word,
    strictly inside the cue; SRT gives a cue per word up to the next word's start, showing the text as written
    (issue 51: "e-mail now!", not the aligner's "email now"), words that start together share one; JSON keeps
    the samples."""
    from mlx_qwen3tts.longform.captions import Cue, render

    words = (("Call", 2400, 7200), ("me", 9600, 12000), ("email", 14400, 20000), ("now", 14400, 30000))
    cue = Cue("Call me, e-mail now!", 2400, 36000, 43200, 0, 1, words=words)
    plain = Cue("Next.", 43200, 48000, 48000, 0, 2)
    vtt = render([cue, plain], RATE, "vtt").splitlines()
    assert vtt[2:4] == ["00:00:00.100 --> 00:00:01.800",
                        "Call <00:00:00.400>me, <00:00:00.600>e-mail now!"]
    assert vtt[5:7] == ["00:00:01.800 --> 00:00:02.000", "Next."]
    srt = [b.splitlines() for b in render([cue, plain], RATE, "srt").split("\n\n") if b.strip()]
    assert [b[1:] for b in srt] == [["00:00:00,100 --> 00:00:00,400", "Call"],
                                    ["00:00:00,400 --> 00:00:00,600", "me,"],
                                    ["00:00:00,600 --> 00:00:01,800", "e-mail now!"],
                                    ["00:00:01,800 --> 00:00:02,000", "Next."]]
    cues = json.loads(render([cue, plain], RATE, "json"))["cues"]
    assert cues[0]["words"][1] == {"text": "me", "start": 9600, "end": 12000} and "words" not in cues[1]


@pytest.mark.parametrize("code", ["en", "en-US", "de"])
def test_iso_language_codes_time_words_as_for_speech(ckpt, tmp_path, code):
    """Issue 51: docs/cli.md takes `--language en`; with --caption-words it generated the whole audio and then
    failed on the aligner's names. The code times the words as its name does."""
    (tmp_path / "a.txt").write_text("Hello world, it's me.\n\nThe e-mail came at ten.")
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.json",
          "--language", code)
    cues = json.loads((tmp_path / "a.json").read_text())["cues"]
    assert [[w["text"] for w in c["words"]] for c in cues] == [["Hello", "world", "it's", "me"],
                                                                ["The", "email", "came", "at", "ten"]]


@pytest.mark.parametrize("language", ["ko", "ko-KR"])
def test_what_the_aligner_cannot_time_is_refused_before_any_audio(ckpt, tmp_path, language):
    """Issue 51: Korean by its code was spoken first and refused after; now one line, exit 2, no output and no
    work folder."""
    (tmp_path / "a.txt").write_text("Hello there.")
    code, output = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "a.txt", "-o",
                       tmp_path / "a.wav", "--captions", tmp_path / "a.vtt", "--caption-words", "--language", language)
    assert code == 2 and "Korean needs soynlp" in error_line(output)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
