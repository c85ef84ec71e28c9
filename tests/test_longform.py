"""Long-form through the command line as a user runs it (`--text-file`), on the tiny checkpoints:
bounded memory, captions, resume, chapters, scripts, lexicon, Markdown, and bad input."""

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from fixture_checkpoints import checkpoint_dir
from mlx_qwen3tts.cli.generate import main
from mlx_qwen3tts.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    root = tmp_path_factory.getbasetemp()
    return {name: checkpoint_dir(name, root) for name in ("custom_voice-0b6",)}


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    return result.exit_code, result.output


def error_line(output):
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


def sentences(n, seed=0):
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, 4)).capitalize() + "." for _ in range(n)]


def speak(ckpt, *args):
    """The command's audio for `args` (greedy, 10 frames at most per text)."""
    code, out = run("--model", ckpt["custom_voice-0b6"], "--temperature", "0", "--max-tokens", "10", "-q", *args)
    assert code == 0, out
    return out


def audio(path):
    samples, rate = sf.read(path, dtype="float32")
    assert rate == 24000
    return samples


def cli_process(ckpt, *args, **kwargs):
    """The command as its own process (`python -m mlx_qwen3tts.generate`), printing its peak memory at exit."""
    code = ("import atexit, resource, sys\n"
            "atexit.register(lambda: print('MAXRSS_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
            "file=sys.stderr))\n"
            "from mlx_qwen3tts.cli.generate import main\nmain()")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-c", code, "--model", str(ckpt["custom_voice-0b6"]),
                             *[str(a) for a in args]], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True, **kwargs)


def finished(proc, timeout=600):
    _, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return err


def test_memory_does_not_grow_with_the_text(ckpt, tmp_path):
    texts = sentences(40)
    (tmp_path / "short.txt").write_text(" ".join(texts[:4]))
    (tmp_path / "long.txt").write_text("\n\n".join(" ".join(texts[i:i + 4]) for i in range(0, 40, 4)))
    peaks = {}
    for name in ("short", "long"):
        err = finished(cli_process(ckpt, "--text-file", tmp_path / f"{name}.txt", "-o", tmp_path / f"{name}.wav",
                                   "--temperature", "0", "--max-tokens", "8", "--batch-size", "4", "-q"))
        peaks[name] = int(err.split("MAXRSS_KB")[1].split()[0])
    long_audio = audio(tmp_path / "long.wav")
    assert long_audio.shape[0] > 9 * audio(tmp_path / "short.wav").shape[0]  # ten times the text: ten times the audio
    assert peaks["long"] - peaks["short"] < 8 * 1024, peaks  # KB: the audio is on disk, not in memory


def srt_cues(path):
    """(start s, end s) of each cue as FFmpeg's SRT/WebVTT demuxer reads the file."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_packets", "-of", "json", str(path)],
                           capture_output=True, text=True, check=True)
    packets = json.loads(probe.stdout)["packets"]
    return [(float(p["pts_time"]), float(p["pts_time"]) + float(p["duration_time"])) for p in packets]


def cue_texts(path):
    """The last text line of each cue block (one line per cue here)."""
    blocks = [b.strip().splitlines() for b in Path(path).read_text().split("\n\n") if "-->" in b]
    return [b[-1] for b in blocks]


@pytest.mark.parametrize("ext", ["srt", "vtt"])
def test_captions_are_the_sentences_timed_to_the_samples(ckpt, tmp_path, ext):
    said = sentences(3, seed=1)
    (tmp_path / "story.txt").write_text(f"{said[0]} {said[1]}\n\n{said[2]}\n")
    speak(ckpt, "--text-file", tmp_path / "story.txt", "-o", tmp_path / "story.wav",
          "--captions", tmp_path / f"story.{ext}")
    speak(ckpt, "--text", said[0], "-o", tmp_path / "alone.wav")
    whole, alone = audio(tmp_path / "story.wav"), audio(tmp_path / "alone.wav")
    times = srt_cues(tmp_path / f"story.{ext}")
    assert cue_texts(tmp_path / f"story.{ext}") == said
    assert len(times) == 3 and times[0][0] == 0.0
    assert abs(times[-1][1] - whole.shape[0] / 24000) <= 0.001  # the last cue ends at the output's end
    first = int(round(times[1][0] * 24000))  # the first cue: that sentence alone, then its pause
    np.testing.assert_array_equal(whole[:alone.shape[0]], alone)
    assert first - alone.shape[0] == int(0.3 * 24000) and not whole[alone.shape[0]:first].any()


def test_json_captions_give_exact_samples(ckpt, tmp_path):
    said = sentences(2, seed=2)
    (tmp_path / "a.txt").write_text(" ".join(said))
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.json")
    speak(ckpt, "--text", said[1], "-o", tmp_path / "second.wav")
    cues = json.loads((tmp_path / "a.json").read_text())["cues"]
    whole, second = audio(tmp_path / "a.wav"), audio(tmp_path / "second.wav")
    assert [c["text"] for c in cues] == said and cues[-1]["end"] == whole.shape[0]
    np.testing.assert_array_equal(whole[cues[1]["start"]:cues[1]["speech_end"]], second)


def test_resume_after_a_kill_equals_an_uninterrupted_run(ckpt, tmp_path):
    text = tmp_path / "book.txt"
    said = sentences(12, seed=3)
    text.write_text("\n\n".join(" ".join(said[i:i + 3]) for i in range(0, 12, 3)))
    # Sampled with a seed: each segment's seed comes from the run's and its index.
    args = ["--text-file", text, "--seed", "7", "--max-tokens", "12", "--batch-size", "2"]

    def timed(*extra):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        err = finished(cli_process(ckpt, *args, *extra))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return err, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    _, whole_cpu = timed("-o", tmp_path / "whole.wav")
    out = tmp_path / "resumed.wav"
    parts = tmp_path / ".resumed.wav.parts"
    proc = cli_process(ckpt, *args, "-o", out)
    deadline = time.monotonic() + 300
    while len(list(parts.glob("*.npy"))) < 6 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)  # as a power cut would: no clean-up at all
    proc.communicate()
    assert not out.exists() and len(list(parts.glob("*.npy"))) >= 6
    err, resumed_cpu = timed("-o", out, "--resume")
    assert "resuming after segment" in err
    np.testing.assert_array_equal(audio(out), audio(tmp_path / "whole.wav"))
    assert not parts.exists()  # the work folder goes with the finished output
    assert resumed_cpu < whole_cpu, (resumed_cpu, whole_cpu)
    # A finished run cannot be resumed: nothing is left to continue.
    code, output = run("--model", ckpt["custom_voice-0b6"], *args, "-o", out, "--resume")
    assert code == 2 and "no unfinished run" in error_line(output)


def test_resume_of_another_text_is_refused(ckpt, tmp_path):
    (tmp_path / "a.txt").write_text(" ".join(sentences(2, seed=4)))
    out = tmp_path / "a.wav"
    parts = tmp_path / ".a.wav.parts"
    parts.mkdir()
    (parts / "manifest.json").write_text(json.dumps({"format": 1, "key": "another run", "seed": 1}))
    code, output = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "a.txt", "-o", out, "--resume")
    assert code == 2 and "another text, model or settings" in error_line(output)
    assert not out.exists() and (parts / "manifest.json").exists()


def test_an_unfinished_run_started_over_names_the_option_that_continues_one(ckpt, tmp_path):
    (tmp_path / "a.txt").write_text(" ".join(sentences(2, seed=4)))
    parts = tmp_path / ".a.wav.parts"
    parts.mkdir()
    (parts / "manifest.json").write_text(json.dumps({"format": 1, "key": "another run", "seed": 1}))
    np.save(parts / "000000.npy", np.zeros(8, np.float32))
    code, output = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav",
                       "--temperature", "0", "--max-tokens", "4")
    assert code == 0, output
    assert "warning: started over: the 1 finished segments of an earlier unfinished run of" in output
    assert "were dropped (--resume continues such a run)" in output


BOOK = "# The Start\n\nAlpha bravo.\n\n## In Between\n\nCharlie delta. Echo golf.\n\n# The End\n\nHotel india.\n"


def test_markdown_headings_become_chapters(ckpt, tmp_path):
    (tmp_path / "book.md").write_text(BOOK)
    speak(ckpt, "--text-file", tmp_path / "book.md", "-o", tmp_path / "book.m4b")
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-of", "json", str(tmp_path / "book.m4b")],
                           capture_output=True, text=True, check=True)
    chapters = json.loads(probe.stdout)["chapters"]
    assert [c["tags"]["title"] for c in chapters] == ["The Start", "In Between", "The End"]
    assert float(chapters[0]["start_time"]) == 0 and all(
        float(a["end_time"]) == float(b["start_time"]) for a, b in zip(chapters, chapters[1:]))


def test_split_chapters_writes_a_file_per_chapter(ckpt, tmp_path):
    (tmp_path / "book.md").write_text(BOOK)
    speak(ckpt, "--text-file", tmp_path / "book.md", "-o", tmp_path / "book.wav", "--split-chapters",
          "--captions", tmp_path / "book.srt")
    names = sorted(p.name for p in tmp_path.glob("book_*"))
    assert names == ["book_01_The_Start.srt", "book_01_The_Start.wav", "book_02_In_Between.srt",
                     "book_02_In_Between.wav", "book_03_The_End.srt", "book_03_The_End.wav"]
    assert cue_texts(tmp_path / "book_02_In_Between.srt") == ["In Between", "Charlie delta.", "Echo golf."]
    assert not (tmp_path / "book.wav").exists()


def test_split_chapters_reports_the_whole_length(ckpt, tmp_path):
    (tmp_path / "book.md").write_text(BOOK)
    code, out = run("--model", ckpt["custom_voice-0b6"], "--temperature", "0", "--max-tokens", "10", "--text-file",
                    tmp_path / "book.md", "-o", tmp_path / "book.wav", "--split-chapters")
    assert code == 0, out
    minutes = float(out.split(" min of audio ->")[0].split()[-1])
    written = sum(audio(p).shape[0] for p in tmp_path.glob("book_*.wav")) / 24000 / 60
    assert len(list(tmp_path.glob("book_*.wav"))) == 3 and abs(minutes - written) < 0.005, (minutes, written)


def test_a_byte_order_mark_is_not_spoken(ckpt, tmp_path):
    (tmp_path / "bom.txt").write_bytes("\ufeffAlpha bravo.".encode("utf-8"))
    speak(ckpt, "--text-file", tmp_path / "bom.txt", "-o", tmp_path / "bom.wav", "--captions", tmp_path / "bom.json")
    speak(ckpt, "--text", "Alpha bravo.", "-o", tmp_path / "plain.wav")
    assert [c["text"] for c in json.loads((tmp_path / "bom.json").read_text())["cues"]] == ["Alpha bravo."]
    np.testing.assert_array_equal(audio(tmp_path / "bom.wav"), audio(tmp_path / "plain.wav"))


def test_the_first_eta_counts_the_whole_batch():
    """A batch's segments finish together: the first one's arrival measures the whole batch (the estimate
    was 6 times too long: 0:42:18 for a run of 7:04). A resumed run counts only what is left."""
    import io
    from types import SimpleNamespace

    from mlx_qwen3tts.longform import document
    from mlx_qwen3tts.longform.progress import Progress

    doc = document(" ".join(["Alpha bravo."] * 24))  # 24 segments of 12 characters
    now = [0.0]

    def etas(first, arrivals):
        log = io.StringIO()
        progress = Progress(doc, 24000, batch_size=8, stream=log, clock=lambda: now[0])
        now[0] = 100.0
        progress.resumed(first)
        for index, at in arrivals:
            now[0] = 100.0 + at
            progress.segment(SimpleNamespace(segment=doc.segments[index]), 24000)
        return [line.split("ETA ")[1].split()[0] for line in log.getvalue().splitlines() if "ETA" in line]

    # 10 s a batch: after the first batch two are left (20 s); its later segments arrive at once.
    assert etas(0, [(0, 10.0), (1, 10.0), (7, 10.0), (8, 20.0), (16, 30.0)]) == \
        ["0:00:20", "0:00:20", "0:00:20", "0:00:10", "0:00:00"]
    # Resumed after 8 segments: one batch done in 10 s, one left.
    assert etas(8, [(8, 10.0), (9, 12.0)]) == ["0:00:10", "0:00:08"]


def test_script_turn_equals_its_line_spoken_alone(ckpt, tmp_path):
    (tmp_path / "play.txt").write_text("Alice: Alpha bravo charlie.\n[Bob] Delta echo foxtrot.\n")
    speak(ckpt, "--text-file", tmp_path / "play.txt", "--script", "--cast", "Alice=serena", "--cast", "bob=eric",
          "-o", tmp_path / "play.wav", "--captions", tmp_path / "play.json")
    speak(ckpt, "--text", "Delta echo foxtrot.", "--speaker", "eric", "-o", tmp_path / "bob.wav")
    speak(ckpt, "--text", "Delta echo foxtrot.", "--speaker", "serena", "-o", tmp_path / "other.wav")
    cues = json.loads((tmp_path / "play.json").read_text())["cues"]
    bob = audio(tmp_path / "play.wav")[cues[1]["start"]:cues[1]["speech_end"]]
    np.testing.assert_array_equal(bob, audio(tmp_path / "bob.wav"))
    assert not np.array_equal(bob, audio(tmp_path / "other.wav"))  # the cast voice made the difference
    assert cues[0]["end"] - cues[0]["speech_end"] == int(0.5 * 24000)  # a pause between turns


@pytest.mark.parametrize("ext", ["srt", "vtt", "json"])
def test_script_captions_say_who_speaks(ckpt, tmp_path, ext):
    (tmp_path / "play.txt").write_text("Alice: Alpha bravo. Charlie delta.\n[Bob] Echo <golf> & hotel.\n")
    speak(ckpt, "--text-file", tmp_path / "play.txt", "--script", "-o", tmp_path / "play.wav",
          "--captions", tmp_path / f"play.{ext}")
    if ext == "json":
        cues = json.loads((tmp_path / "play.json").read_text())["cues"]
        assert [(c["speaker"], c["text"]) for c in cues] == [
            ("Alice", "Alpha bravo."), ("Alice", "Charlie delta."), ("Bob", "Echo <golf> & hotel.")]
        return
    expected = {"srt": ["Alice: Alpha bravo.", "Alice: Charlie delta.", "Bob: Echo <golf> & hotel."],
                "vtt": ["<v Alice>Alpha bravo.", "<v Alice>Charlie delta.", "<v Bob>Echo &lt;golf&gt; &amp; hotel."]}
    assert cue_texts(tmp_path / f"play.{ext}") == expected[ext]
    assert len(srt_cues(tmp_path / f"play.{ext}")) == 3  # FFmpeg reads every cue


def test_lexicon_entry_equals_the_respelled_text(ckpt, tmp_path):
    (tmp_path / "a.txt").write_text("I like GIF files.")
    (tmp_path / "b.txt").write_text("I like jif files.")
    (tmp_path / "words.tsv").write_text("# word\thow to say it\nGIF\tjif\n")
    speak(ckpt, "--text-file", tmp_path / "a.txt", "--lexicon", tmp_path / "words.tsv", "-o", tmp_path / "a.wav")
    speak(ckpt, "--text-file", tmp_path / "b.txt", "-o", tmp_path / "b.wav")
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "plain.wav")
    np.testing.assert_array_equal(audio(tmp_path / "a.wav"), audio(tmp_path / "b.wav"))
    assert not np.array_equal(audio(tmp_path / "a.wav"), audio(tmp_path / "plain.wav"))


def test_markdown_sentence_equals_its_plain_words(ckpt, tmp_path):
    (tmp_path / "a.md").write_text("Some **bold** words and [a link](https://example.com/x).\n")
    speak(ckpt, "--text-file", tmp_path / "a.md", "-o", tmp_path / "a.wav")
    speak(ckpt, "--text", "Some bold words and a link.", "-o", tmp_path / "b.wav")
    np.testing.assert_array_equal(audio(tmp_path / "a.wav"), audio(tmp_path / "b.wav"))


def test_numbers_are_spoken_as_words(ckpt, tmp_path):
    (tmp_path / "a.txt").write_text("It cost $5 on the 3rd.")
    speak(ckpt, "--text-file", tmp_path / "a.txt", "-o", tmp_path / "a.wav")
    speak(ckpt, "--text", "It cost five dollars on the third.", "-o", tmp_path / "b.wav")
    np.testing.assert_array_equal(audio(tmp_path / "a.wav"), audio(tmp_path / "b.wav"))


def test_stdin_and_progress_lines(ckpt, tmp_path):
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text-file", "-", "-o", tmp_path / "a.wav",
                    "--temperature", "0", "--max-tokens", "4", input="Alpha bravo. Charlie delta.\n")
    assert code == 0, out
    lines = [line for line in out.splitlines() if line.startswith("segment ")]
    assert [line.split()[1] for line in lines] == ["1/2", "2/2"] and "ETA" in lines[0]


@pytest.mark.parametrize("setup, args, message", [
    (None, ["--text-file", "{tmp}/missing.txt"], "cannot read --text-file"),
    ("bad.txt:\xff\xfe", ["--text-file", "{tmp}/bad.txt"], "is not valid UTF-8"),
    ("empty.txt:  \n\n", ["--text-file", "{tmp}/empty.txt"], "--text-file {tmp}/empty.txt is empty"),
    ("nul.txt:\0\0\0\0", ["--text-file", "{tmp}/nul.txt"], "--text-file {tmp}/nul.txt is empty"),  # not --text: the file is
    ("s.txt:Alice: Hi.\n", ["--text-file", "{tmp}/s.txt", "--script", "--cast", "Alice=nobody"],
     "--cast alice=nobody"),
    ("s.txt:Alice: Hi.\nCarol: Yes.\n", ["--text-file", "{tmp}/s.txt", "--script", "--cast", "Alice=eric"],
     "--script line 2: 'Carol' is not in --cast"),
    ("a.txt:Hi.", ["--text-file", "{tmp}/a.txt", "--resume"],
     "--resume: --output out.wav has no unfinished run to continue (no .out.wav.parts beside it); "
     "run without --resume"),
    ("bad.epub:Hi.", ["--text-file", "{tmp}/bad.epub"], "--text-file {tmp}/bad.epub is not a readable EPUB"),
    ("bad.epub:Hi.", ["--text-file", "{tmp}/bad.epub", "--script"], "not from an EPUB book"),
    ("a.txt:Hi.", ["--text-file", "{tmp}/a.txt", "--lexicon", "{tmp}/a.txt"], "a.txt line 1: expected"),
    ("a.txt:Hi.", ["--text-file", "{tmp}/a.txt", "--captions", "{tmp}/c.txt"], "give a .srt, .vtt or .json"),
    ("a.txt:Hi.", ["--text", "Hi", "--captions", "{tmp}/c.srt"], "--captions applies to --text-file"),
    ("w.tsv:GIF", ["--text", "Hi", "--lexicon", "{tmp}/w.tsv"], "w.tsv line 1: expected"),
])
def test_bad_input_is_one_line_and_exit_2(ckpt, tmp_path, setup, args, message):
    if setup:
        name, content = setup.split(":", 1)
        (tmp_path / name).write_bytes(content.encode("latin-1") if "\xff" in content else content.encode())
    before = set(tmp_path.iterdir())
    code, out = run("--model", ckpt["custom_voice-0b6"], "-o", tmp_path / "out.wav",
                    *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2 and message.replace("{tmp}", str(tmp_path)) in error_line(out)
    assert set(tmp_path.iterdir()) == before  # no output, no work folder left behind


# Over 300 characters: cut at sentence ends into pieces by every mode (issue 35, item 1).
LONG = " ".join(["This is a somewhat longer sentence to see the budget."] * 6)  # two pieces; each ends (greedy)


def test_stream_of_a_long_text_equals_it_whole(ckpt, tmp_path):
    args = ["--text", LONG, "--max-tokens", "200"]
    speak(ckpt, *args, "-o", tmp_path / "whole.wav")
    speak(ckpt, *args, "-o", tmp_path / "stream.wav", "--stream")
    whole, streamed = audio(tmp_path / "whole.wav"), audio(tmp_path / "stream.wav")
    assert whole.shape == streamed.shape and np.abs(whole - streamed).max() <= 1e-4
    assert whole.shape[0] % 1920 != 0  # pauses between pieces: the text was cut


def test_text_stream_of_a_long_text_is_cut_as_it_whole(ckpt, tmp_path):
    """Text read from stdin as it comes is cut where the whole text is, and sounds as the whole text in the
    streaming layout but for its first 5 ms: a streamed text's start is not faded (no one knows yet that
    more pieces follow)."""
    text = " ".join(["Alpha bravo."] * 28)  # two pieces; greedy, the first ends at frame 132
    args = ["--max-tokens", "170", "--temperature", "0", "-q"]
    speak(ckpt, "--text", text, "--text-mode", "streaming", *args, "-o", tmp_path / "whole.wav")
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text-stream", *args, "-o", tmp_path / "in.wav", input=text)
    assert code == 0, out
    whole, streamed = audio(tmp_path / "whole.wav"), audio(tmp_path / "in.wav")
    assert whole.shape == streamed.shape and whole.shape[0] % 1920 != 0  # the pause: it was cut
    assert np.abs(whole[120:] - streamed[120:]).max() <= 1e-4


def test_stream_refuses_split_batch(ckpt, tmp_path):
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text", LONG, "-o", tmp_path / "a.wav", "--stream",
                    "--split", "batch")
    assert code == 2 and "--split batch" in error_line(out) and list(tmp_path.iterdir()) == []


def test_batch_file_line_is_cut_as_the_text_alone(ckpt, tmp_path):
    (tmp_path / "lines.txt").write_text(f"Alpha bravo.\n{LONG}\n")
    speak(ckpt, "--batch-file", tmp_path / "lines.txt", "-o", tmp_path / "out.wav", "--max-tokens", "200")
    speak(ckpt, "--text", LONG, "-o", tmp_path / "alone.wav", "--max-tokens", "200")
    line, alone = audio(tmp_path / "out_2.wav"), audio(tmp_path / "alone.wav")
    assert line.shape == alone.shape and np.abs(line - alone).max() <= 1e-4


def test_runaway_segment_is_named_and_sampled_again(ckpt, tmp_path):
    # "Hello there." runs to its frame budget on this checkpoint (greedy: it always will).
    (tmp_path / "a.txt").write_text("Alpha bravo.\n\nHello there.\n")
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "a.txt", "-o", tmp_path / "g.wav",
                    "--temperature", "0")
    assert code == 0, out
    assert "segment 2 (line 3) ran away (duration" in out and "again" not in out
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "a.txt", "-o", tmp_path / "s.wav",
                    "--seed", "1")
    assert code == 0, out
    assert "(line 3) ran away; spoken again with another seed" in out


def test_python_api_yields_finished_segments(tts_tiny):
    from mlx_qwen3tts import longform

    doc = longform.document("Alpha bravo. Charlie delta.\n\nEcho foxtrot.")
    spoken = list(longform.narrate(tts_tiny, doc, temperature=0, max_tokens=6, batch_size=2))
    assert [s.segment.text for s in spoken] == ["Alpha bravo.", "Charlie delta.", "Echo foxtrot."]
    assert [s.segment.pause_s for s in spoken] == [0.3, 0.7, 0.0]
    for before, after in zip(spoken, spoken[1:]):
        assert after.start == before.start + before.audio.shape[0] + before.pause
    alone = tts_tiny.generate("Charlie delta.", temperature=0, max_tokens=6).audio
    np.testing.assert_array_equal(spoken[1].audio, alone)


@pytest.fixture(scope="module")
def tts_tiny(load_tiny):
    return load_tiny("custom_voice-0b6")


def test_plain_text_asks_for_the_lexicon_and_normalization(ckpt, tmp_path, tts_tiny):
    (tmp_path / "words.tsv").write_text("GIF\tjif\n")
    speak(ckpt, "--text", "A GIF for $5.", "--lexicon", tmp_path / "words.tsv", "--normalize", "-o", tmp_path / "a.wav")
    speak(ckpt, "--text", "A jif for five dollars.", "-o", tmp_path / "b.wav")
    np.testing.assert_array_equal(audio(tmp_path / "a.wav"), audio(tmp_path / "b.wav"))
    api = tts_tiny.generate("A GIF for $5.", lexicon=str(tmp_path / "words.tsv"), normalize=True, temperature=0,
                            max_tokens=10).audio
    np.testing.assert_array_equal(api, audio(tmp_path / "b.wav"))
    assert tts_tiny.request("A GIF.").text == "A GIF."  # unless asked, the text is upstream's


@pytest.mark.parametrize("written, said", [
    ("Phi2 and Qwen2 run on an M1 Max in fp16.", "Phi two and Qwen two run on an M one Max in F P sixteen."),
    ("GPT-4o beats 7B models.", "GPT four o beats seven B models."),
    ("Mistral-7B-v0.1 is out.", "Mistral seven B v zero point one is out."),
    ("Qwen3-TTS 1.2.3 as mp3 on x86-64.",
     "Qwen three TTS one point two point three as M P three on x eighty-six sixty-four."),
    ("It ran 5km on the 3rd for $5.", "It ran five kilometers on the third for five dollars."),
    ("See <https://github.com/ml-explore/mlx-lm/blob/main/LORA.md>.",
     "See H T T P S colon slash slash github dot com slash ml dash explore slash mlx dash lm slash blob slash main "
     "slash LORA dot md."),
    ("Go to https://www.example.com/a_b?x=1#top, then www.qwen.ai.",
     "Go to H T T P S colon slash slash W W W dot example dot com slash a underscore b question mark x equal sign "
     "one number sign top, then W W W dot qwen dot ai."),
    ("Write to <ann.lee@example.org> or mailto:bob@x.io!",
     "Write to ann dot lee at example dot org or bob at x dot io!"),
])
def test_technical_writing_is_read_as_people_say_it(written, said):
    from mlx_qwen3tts.longform import document, normalize_text

    assert normalize_text(written, "english") == said
    assert document(written).segments[0].text == said
    assert document(written, normalize=False).segments[0].text == written  # off: the text as written


def test_technical_writing_in_german():
    from mlx_qwen3tts.longform import normalize_text

    assert normalize_text("Qwen2 in fp16 unter https://qwen.ai/de oder an a@b.de.", "german") == \
        ("Qwen zwei in F P sechzehn unter H T T P S Doppelpunkt Slash Slash qwen Punkt ai Slash de oder an a at b "
         "Punkt de.")


def test_markdown_footnotes_and_alerts_are_not_read():
    from mlx_qwen3tts.longform import document

    source = ("LoRA[^lora] is cheap.[^1] See [the docs](https://x.org).\n\n> [!NOTE]\n> Each example runs.\n\n"
              "> [!WARNING] Careful.\n\n[^lora]: Refer to the paper.\n[^2]: Another.\n\n[^1]: https://example.com\n")
    assert [s.shown for s in document(source, markdown=True).segments] == [
        "LoRA is cheap.", "See the docs.", "Each example runs.", "Careful."]


def png(width, height):
    """A PNG image of one colour (the cover of the test's book), written by the format's definition."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xc8\x1e\x1e" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def make_epub(path, navigation=True):
    """A book as ebooklib writes one: title, author, language, a cover, front matter, and a table of
    contents with a part holding chapters (one entry pointing into a chapter's middle). With `navigation`
    it has EPUB 3 navigation and an EPUB 2 NCX, else the NCX alone."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("test-book")
    book.set_title("The Harbour")
    book.set_language("en")
    book.add_author("Ann Lee")
    book.set_cover("cover.png", png(8, 6))
    pages = {}
    for name, body in [("copyright", "<p>All rights reserved.</p>"),
                       ("part1", "<h1>Part One</h1><p>Alpha bravo.</p>"),
                       ("ch1", "<h2>Morning</h2><p>Charlie <b>delta</b>. Echo golf.</p>"
                               "<h3 id='later'>Later</h3><p>Hotel india.</p>"),
                       ("ch2", "<h2>Evening</h2><p>Juliet kilo.</p>")]:
        pages[name] = epub.EpubHtml(title=name, file_name=f"text/{name}.xhtml", lang="en", content=body)
        book.add_item(pages[name])
    book.toc = [epub.Link("text/copyright.xhtml", "Copyright", "copyright"),
                (epub.Section("Part One", href="text/part1.xhtml"),
                 [epub.Link("text/ch1.xhtml", "Morning", "ch1"), epub.Link("text/ch1.xhtml#later", "Later", "later"),
                  epub.Link("text/ch2.xhtml", "Evening", "ch2")])]
    book.add_item(epub.EpubNcx())
    if navigation:
        book.add_item(epub.EpubNav())
    book.spine = ["cover"] + (["nav"] if navigation else []) + list(pages.values())
    epub.write_epub(str(path), book)


def test_an_epub_becomes_an_audiobook_with_its_chapters_metadata_and_cover(ckpt, tmp_path):
    make_epub(tmp_path / "book.epub")
    speak(ckpt, "--text-file", tmp_path / "book.epub", "-o", tmp_path / "book.m4b", "--captions",
          tmp_path / "book.json", "--skip-chapters", "copyright|contents")
    probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-show_streams", "-show_format",
                                       "-of", "json", str(tmp_path / "book.m4b")],
                                      capture_output=True, text=True, check=True).stdout)
    assert [c["tags"]["title"] for c in probe["chapters"]] == ["Part One", "Morning", "Later", "Evening"]
    tags = probe["format"]["tags"]
    assert (tags["title"], tags["album"], tags["artist"], tags["album_artist"]) == ("The Harbour", "The Harbour",
                                                                                    "Ann Lee", "Ann Lee")
    sound = next(s for s in probe["streams"] if s["codec_type"] == "audio")
    cover = next(s for s in probe["streams"] if s["codec_type"] == "video")
    assert sound["tags"]["language"] == "eng"
    assert cover["disposition"]["attached_pic"] == 1 and (cover["codec_name"], cover["width"], cover["height"]) == (
        "png", 8, 6)  # the book's own picture, decoded by FFmpeg
    cues = json.loads((tmp_path / "book.json").read_text())["cues"]
    # In the spine's order, without the front matter.
    assert [c["text"] for c in cues] == ["Part One", "Alpha bravo.", "Morning", "Charlie delta.", "Echo golf.", "Later",
                                         "Hotel india.", "Evening", "Juliet kilo."]
    end = cues[-1]["end"] / 24000
    assert abs(float(probe["chapters"][-1]["end_time"]) - end) < 0.001  # the captions end where the audio ends
    assert abs(float(sound["duration"]) - end) < 1024 / 24000  # within one AAC frame


def test_an_epub_with_only_an_ncx_and_the_missing_extra(ckpt, tmp_path, monkeypatch):
    from mlx_qwen3tts.longform import book

    make_epub(tmp_path / "old.epub", navigation=False)
    read = book(tmp_path / "old.epub")
    assert read.chapters == ["Copyright", "Part One", "Morning", "Later", "Evening"]
    assert (read.info.title, read.info.author, read.info.language, read.info.cover_type) == (
        "The Harbour", "Ann Lee", "en", "image/png")
    monkeypatch.setitem(sys.modules, "ebooklib", None)  # as if the extra were not installed
    code, out = run("--model", ckpt["custom_voice-0b6"], "--text-file", tmp_path / "old.epub", "-o", tmp_path / "a.m4b")
    assert code == 2 and "pip install ebooklib" in error_line(out) and not (tmp_path / "a.m4b").exists()


def test_html_is_read_as_its_text(ckpt, tmp_path):
    from mlx_qwen3tts.longform import document

    page = ("<!DOCTYPE html><html><head><title>T</title><style>p {}</style><script>var a = 1 < 2;</script></head>"
            "<body><nav><a href='#'>Home</a></nav><h1>The Start</h1><p>Hello <b>world</b>.<sup><a epub:type='noteref' "
            "href='#n1'>1</a></sup></p><aside role='doc-footnote'>A note.</aside><ul><li>One &amp; two</li></ul><pre>code()</pre>"
            "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>7</td></tr></table>"
            "<h2>Next</h2><p>Alpha<br>bravo.</p></body></html>")
    doc = document(page, html=True, normalize=False)
    assert [s.shown for s in doc.segments] == ["The Start", "Hello world.", "One & two", "Name, Age", "Ann, 7", "Next",
                                               "Alpha", "bravo."]  # <br> ends a sentence (issue 51)
    assert doc.chapters == ["The Start", "Next"]
    (tmp_path / "page.html").write_text("<html><body><p>Hello <b>world</b>.</p></body></html>")
    speak(ckpt, "--text-file", tmp_path / "page.html", "-o", tmp_path / "a.wav", "--captions", tmp_path / "a.srt")
    speak(ckpt, "--text", "Hello world.", "-o", tmp_path / "b.wav")
    assert cue_texts(tmp_path / "a.srt") == ["Hello world."]
    np.testing.assert_array_equal(audio(tmp_path / "a.wav"), audio(tmp_path / "b.wav"))


def test_skip_chapters_leaves_out_front_matter(ckpt, tmp_path):
    from mlx_qwen3tts.longform import document

    source = "# Contents\n\nOne, two.\n\n# The Start\n\nAlpha bravo.\n"
    assert document(source, markdown=True, skip_chapters="contents|copyright").chapters == ["The Start"]
    opening = document("Before any chapter.\n\n# One\n\nAlpha.\n", markdown=True, skip_chapters="opening")
    assert opening.chapters == ["One"]  # what comes before the first chapter is "Opening" (as in file names)
    (tmp_path / "x.md").write_text(source)
    for args, message in [(["--skip-chapters", "("], "--skip-chapters is not a regular expression"),
                          (["--skip-chapters", ".*"], "--skip-chapters skips every chapter"),
                          (["--text", "Hi", "--skip-chapters", "x"], "--skip-chapters applies to --text-file")]:
        given = args if args[0] == "--text" else ["--text-file", tmp_path / "x.md", *args]
        code, out = run("--model", ckpt["custom_voice-0b6"], *given, "-o", tmp_path / "a.wav")
        assert code == 2 and message in error_line(out), out
    assert not (tmp_path / "a.wav").exists()


def stop_narration_after(monkeypatch, pieces: int):
    """Long-form narration (`longform.job.narrate`) made to stop as by Ctrl-C after `pieces` spoken pieces;
    returns the real one, to put back."""
    from mlx_qwen3tts.longform import job

    real = job.narrate

    def stopped(*args, **kwargs):
        for n, spoken in enumerate(real(*args, **kwargs)):
            if n == pieces:
                raise KeyboardInterrupt
            yield spoken

    monkeypatch.setattr(job, "narrate", stopped)
    return real


def test_the_python_api_writes_and_resumes_a_stopped_run(ckpt, load_tiny, tmp_path, monkeypatch):
    """`longform.write`: a document into a file with captions; stopped after two segments (as by Ctrl-C) and run
    again with resume=True, the file equals an uninterrupted run's (sampled, one seed), and so do the captions."""
    from mlx_qwen3tts import longform
    from mlx_qwen3tts.longform import job

    tts = load_tiny("custom_voice-0b6")
    doc = longform.document(" ".join(sentences(5, seed=3)))
    kw = dict(speaker="ryan", seed=11, max_tokens=8, batch_size=2)
    whole = longform.write(tts, doc, tmp_path / "whole.wav", captions=tmp_path / "whole.srt", **kw)
    assert [p.name for p in whole] == ["whole.wav", "whole.srt"]
    real = stop_narration_after(monkeypatch, 2)
    with pytest.raises(KeyboardInterrupt):
        longform.write(tts, doc, tmp_path / "part.wav", captions=tmp_path / "part.srt", **kw)
    assert not (tmp_path / "part.wav").exists() and (tmp_path / ".part.wav.parts").is_dir()
    monkeypatch.setattr(job, "narrate", real)
    with pytest.raises(InputError, match="another text"):  # other settings: refused, the finished part kept
        longform.write(tts, doc, tmp_path / "part.wav", resume=True, **dict(kw, max_tokens=9))
    longform.write(tts, doc, tmp_path / "part.wav", captions=tmp_path / "part.srt", resume=True, **dict(kw, seed=None))
    np.testing.assert_array_equal(audio(tmp_path / "part.wav"), audio(tmp_path / "whole.wav"))
    assert (tmp_path / "part.srt").read_text() == (tmp_path / "whole.srt").read_text()
    with pytest.raises(InputError, match="exists; pass overwrite=True"):
        longform.write(tts, doc, tmp_path / "whole.wav", **kw)
