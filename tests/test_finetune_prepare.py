"""`prepare` on the tiny Base checkpoint: recordings (made here from physics: voiced tones, noise bursts and
pauses, at several rates, mono and stereo, WAV, FLAC, MP3 and M4A) -> a dataset whose codes are the codec's
encode of each clip alone and whose speaker vectors are `extract_xvector` of each clip's reference, as the
cloning path loads it; bad datasets refused in one line with nothing written; clips refused with reasons;
an interrupted run resumed without redoing what was done."""

import importlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

import mlx_qwen3tts  # noqa: F401  (before mlx)
import mlx.core as mx
from fixture_checkpoints import asr_dir, checkpoint_dir
from mlx_qwen3tts.audio.reference import load_reference_audio, resample_to_24k
from mlx_qwen3tts.finetune import dataset
from mlx_qwen3tts.model.speaker_encoder import extract_xvector

# The module (the package's `prepare` may be the function of the same name).
prep = importlib.import_module("mlx_qwen3tts.finetune.prepare")
CHECKPOINT = "base-0b6"
REPO = Path(__file__).resolve().parent.parent
CLONE = REPO / "tests" / "fixtures" / "clone"


def speech(seconds, rate=24000, f0=140.0, seed=0, pauses=(), level=0.3):
    """Syllables of a voiced tone (f0 and two harmonics, 4 a second) with a noise burst after each, silent
    (a -80 dB noise floor) inside `pauses` ((start, end) seconds)."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(round(seconds * rate))) / rate
    voiced = sum(np.sin(2 * np.pi * f0 * k * t) / k for k in (1, 2, 3))
    syllable = np.clip(np.sin(2 * np.pi * 4 * t), 0, None) ** 0.5
    burst = (np.sin(2 * np.pi * 4 * t + 2.6) > 0.9) * rng.standard_normal(t.shape) * 0.3
    x = level * (voiced * syllable / 1.8 + burst)
    for start, end in pauses:
        x[int(start * rate):int(end * rate)] = 0
    return (x + 1e-4 * rng.standard_normal(t.shape)).astype(np.float32)


def write_m4a(path, samples, rate):
    av = pytest.importorskip("av")
    with av.open(str(path), "w", format="mp4") as container:
        stream = container.add_stream("aac", rate=rate)
        stream.layout = "mono"
        frame = av.AudioFrame.from_ndarray(samples[None].astype(np.float32), format="fltp", layout="mono")
        frame.sample_rate = rate
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.getbasetemp()


@pytest.fixture(scope="module")
def base(root):
    return checkpoint_dir(CHECKPOINT, root)


def expected_codes(tts, path):
    """Our codec's encode of the clip alone, loaded as cloning loads reference audio."""
    return np.array(tts.codec.encode(load_reference_audio(str(path))))


def expected_vector(tts, path):
    return np.array(extract_xvector(tts.model.speaker_encoder, load_reference_audio(str(path))))


def folder_of_recordings(root: Path) -> Path:
    data = root / "recordings"
    data.mkdir()
    sf.write(data / "one.wav", speech(2.3, 24000, seed=1), 24000)
    x = speech(1.7, 44100, f0=190, seed=2)
    sf.write(data / "two.flac", np.stack([x, 0.6 * x[::-1]], axis=1), 44100)  # stereo 44.1 kHz
    sf.write(data / "three.wav", (speech(3.1, 16000, f0=110, seed=3) * 32767).astype(np.int16), 16000)
    sf.write(data / "four.mp3", speech(2.0, 22050, seed=4), 22050)
    write_m4a(data / "five.m4a", speech(2.6, 48000, f0=160, seed=5), 48000)
    for name, text in (("one", "Hello there, this is me."), ("two", "A second clip."), ("three", "And a third."),
                       ("four", "The fourth one, as an MP3."), ("five", "The fifth, from a phone.")):
        (data / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    return data


def test_codes_are_each_clip_encoded_alone_and_vectors_its_xvector(tmp_path, base, load_tiny):
    tts = load_tiny(CHECKPOINT)
    data = folder_of_recordings(tmp_path)
    summary = prep.prepare(data, str(base), tmp_path / "ds", progress=False)
    got = dataset.load(tmp_path / "ds")
    assert summary.kept == len(got.items) == 5 and not summary.refused
    clips = {p.stem: p for p in data.iterdir() if p.suffix != ".txt"}
    assert {i.id for i in got.items} == set(clips)
    for item in got.items:
        np.testing.assert_array_equal(item.codes, expected_codes(tts, clips[item.id]), err_msg=item.id)
        assert item.codes.dtype == np.int32 and item.speaker_vector.dtype == np.float32
        np.testing.assert_allclose(item.speaker_vector, expected_vector(tts, clips[item.id]), atol=1e-5, rtol=1e-5)
        assert item.text == (data / f"{item.id}.txt").read_text(encoding="utf-8").strip()
        assert item.language == "auto" and item.speaker == "speaker"
    # Each clip alone: encoding them as one padded batch (upstream's prepare_data.py) gives other last frames.
    audio = [load_reference_audio(str(clips[i.id])) for i in got.items]
    batched = tts.codec.encoder.encode_batch(audio)
    assert any(not np.array_equal(np.array(b), i.codes) for b, i in zip(batched, got.items))
    mean = np.mean(np.stack([i.speaker_vector for i in got.items]), axis=0)
    np.testing.assert_allclose(got.mean_speaker(), mean, atol=1e-6)
    meta = json.loads((tmp_path / "ds" / "dataset.json").read_text())
    assert meta["made_by"] == prep.MADE_BY and meta["summary"]["kept"] == 5
    assert abs(meta["summary"]["hours"] - sum(i.codes.shape[0] for i in got.items) / 12.5 / 3600) < 0.001
    assert not (tmp_path / "ds.partial").exists()


def test_jsonl_in_the_official_format_vectors_from_ref_audio(tmp_path, base, load_tiny):
    tts = load_tiny(CHECKPOINT)
    sf.write(tmp_path / "utt1.wav", speech(1.8, 24000, seed=6), 24000)
    sf.write(tmp_path / "utt2.wav", speech(2.4, 24000, seed=7, f0=200), 24000)
    sf.write(tmp_path / "ref.wav", speech(3.3, 44100, seed=8, f0=120), 44100)
    lines = [{"audio": "utt1.wav", "text": "She said she would be here by noon.", "ref_audio": "ref.wav",
              "language": "English"},
             {"audio": str(tmp_path / "utt2.wav"), "text": "其实我真的有发现。", "ref_audio": "ref.wav"}]
    (tmp_path / "train.jsonl").write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n")
    prep.prepare(tmp_path / "train.jsonl", str(base), tmp_path / "ds", progress=False)
    items = dataset.load(tmp_path / "ds").items
    assert [i.language for i in items] == ["english", "auto"]  # no language: the auto prefix, as upstream
    ref = expected_vector(tts, tmp_path / "ref.wav")
    for item, name in zip(items, ("utt1", "utt2")):
        np.testing.assert_array_equal(item.codes, expected_codes(tts, tmp_path / f"{name}.wav"))
        np.testing.assert_allclose(item.speaker_vector, ref, atol=1e-5, rtol=1e-5)
    assert items[1].text == "其实我真的有发现。"


def run_main(argv):
    """The command in a fresh process: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.finetune", "prepare", *map(str, argv)],
                          capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "PYTHONPATH": str(REPO)})
    return done.returncode, done.stdout, done.stderr


def bad_datasets(root: Path) -> dict:
    """name -> (DATA, extra arguments, words the one line must hold)."""
    cases = {}
    (root / "empty").mkdir()
    cases["empty folder"] = (root / "empty", [], "no recordings")
    notaudio = root / "notaudio"
    notaudio.mkdir()
    sf.write(notaudio / "good.wav", speech(2.0, seed=9), 24000)
    (notaudio / "good.txt").write_text("A good clip.")
    (notaudio / "bad.wav").write_text("this is a text file, not a recording\n" * 20)
    (notaudio / "bad.txt").write_text("A bad clip.")
    cases["not audio"] = (notaudio, [], "bad.wav is not audio")
    sf.write(root / "a.wav", speech(2.0, seed=10), 24000)
    (root / "noaudio.jsonl").write_text(json.dumps({"audio": "a.wav", "text": "Fine.", "ref_audio": "a.wav"}) + "\n"
                                        + json.dumps({"text": "No audio here.", "ref_audio": "a.wav"}) + "\n")
    cases["jsonl line without audio"] = (root / "noaudio.jsonl", [], "line 2 has no \"audio\"")
    lang = root / "lang"
    lang.mkdir()
    sf.write(lang / "a.wav", speech(2.0, seed=11), 24000)
    (lang / "a.txt").write_text("Heute ist das Wetter wirklich schön, und wir gehen im Park spazieren.")
    cases["transcript in another language"] = (lang, ["--language", "English"], "reads as german, not english")
    rate = root / "rate"
    rate.mkdir()
    sf.write(rate / "a.wav", speech(2.0, 4000, seed=12), 4000)
    (rate / "a.txt").write_text("Too low a rate.")
    cases["sample rate"] = (rate, [], "4000 Hz")
    sf.write(root / "tiny-ref.wav", speech(0.2, seed=14), 24000)
    (root / "badref.jsonl").write_text(json.dumps({"audio": "a.wav", "text": "Fine.", "ref_audio": "tiny-ref.wav"}))
    cases["reference too short"] = (root / "badref.jsonl", [], "ref_audio")
    notext = root / "notext"
    notext.mkdir()
    sf.write(notext / "a.wav", speech(2.0, seed=13), 24000)
    cases["no transcript and no recognizer"] = (notext, [], "--asr")
    return cases


def test_bad_datasets_one_line_exit_2_nothing_written(tmp_path, base):
    for name, (data, extra, words) in bad_datasets(tmp_path).items():
        out = tmp_path / f"out-{name.replace(' ', '-')}"
        code, stdout, stderr = run_main([data, "--model", base, "--out", out, *extra])
        assert code == 2, (name, stderr)
        assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr, (name, stderr)
        assert words in stderr, (name, stderr)
        assert not out.exists() and not Path(f"{out}.partial").exists(), name
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(f".{out.name}")], name


def test_bad_arguments_and_a_folder_not_ours_one_line(tmp_path, base, root):
    data = folder_of_recordings(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    custom = checkpoint_dir("custom_voice-0b6", root)
    for argv, words in (([data, "--out", tmp_path / "x"], "--model"),
                        ([data, "--model", base, "--out", mine], "is not a dataset prepare made"),
                        ([data, "--model", custom, "--out", tmp_path / "x"], "Base"),
                        ([data, "--model", base, "--out", tmp_path / "x", "--language", "Klingon"], "Klingon")):
        code, _, stderr = run_main(argv)
        assert code == 2 and len(stderr.strip().splitlines()) == 1 and words in stderr, stderr
    assert (mine / "notes.txt").read_text() == "keep me" and sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    assert not (tmp_path / "x").exists() and not (tmp_path / "x.partial").exists()


def test_clips_refused_with_their_reasons_and_counted(tmp_path, base):
    data = tmp_path / "data"
    data.mkdir()
    clips = {"ok": speech(2.0, seed=14), "short": speech(0.4, seed=15), "long": speech(25.0, seed=16),
             "silent": np.zeros(48000, np.float32), "clipped": np.clip(speech(2.0, seed=17) * 8, -1, 1),
             "empty": speech(2.0, seed=18)}
    for name, samples in clips.items():
        sf.write(data / f"{name}.wav", samples, 24000)
        (data / f"{name}.txt").write_text("" if name == "empty" else f"The clip called {name}.")
    summary = prep.prepare(data, str(base), tmp_path / "ds", progress=False)
    assert summary.kept == 1 and [i.id for i in dataset.load(tmp_path / "ds").items] == ["ok"]
    assert summary.refused == {"too short": 1, "too long": 1, "silent": 1, "clipped": 1, "transcript empty": 1}
    assert summary.lines()[0].startswith("1 clips kept") and "clipped: 1" in summary.lines()[0]


def test_every_clip_refused_is_one_line_and_nothing_written(tmp_path, base):
    data = tmp_path / "data"
    data.mkdir()
    sf.write(data / "a.wav", np.zeros(48000, np.float32), 24000)
    (data / "a.txt").write_text("Silence.")
    code, _, stderr = run_main([data, "--model", base, "--out", tmp_path / "ds"])
    last = stderr.strip().splitlines()[-1]  # after the progress lines and the refusal's
    assert code == 2 and "Traceback" not in stderr and last.startswith("error: every clip") and "silent" in stderr
    assert not (tmp_path / "ds").exists() and not (tmp_path / "ds.partial").exists()


def test_an_interrupted_run_resumes_keeping_done_clips(tmp_path, base, monkeypatch):
    data = folder_of_recordings(tmp_path)
    real, calls = prep.prepare_one, []

    def interrupted(source, enc, options):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(source.id)
        return real(source, enc, options)

    monkeypatch.setattr(prep, "prepare_one", interrupted)
    with pytest.raises(KeyboardInterrupt):
        prep.prepare(data, str(base), tmp_path / "ds", progress=False)
    assert not (tmp_path / "ds").exists() and (tmp_path / "ds.partial").is_dir()  # nothing half-written
    done, calls[:] = list(calls), []
    monkeypatch.setattr(prep, "prepare_one", lambda s, e, o: (calls.append(s.id), real(s, e, o))[1])
    prep.prepare(data, str(base), tmp_path / "ds", progress=False)
    assert len(done) == 2 and not set(done) & set(calls) and len(calls) == 3  # the two done are not redone
    assert not (tmp_path / "ds.partial").exists()
    monkeypatch.setattr(prep, "prepare_one", real)
    prep.prepare(data, str(base), tmp_path / "fresh", progress=False)  # a complete dataset of ours: replaced
    resumed, fresh = dataset.load(tmp_path / "ds"), dataset.load(tmp_path / "fresh")
    assert [i.id for i in resumed.items] == [i.id for i in fresh.items]
    for a, b in zip(resumed.items, fresh.items):
        np.testing.assert_array_equal(a.codes, b.codes)
        np.testing.assert_array_equal(a.speaker_vector, b.speaker_vector)


def test_a_partial_run_of_other_settings_is_not_mixed_in(tmp_path, base, monkeypatch):
    data = folder_of_recordings(tmp_path)
    monkeypatch.setattr(prep, "prepare_one", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        prep.prepare(data, str(base), tmp_path / "ds", progress=False)
    with pytest.raises(prep.DatasetError, match="unfinished prepare of other data or settings"):
        prep.prepare(data, str(base), tmp_path / "ds", language="english", progress=False)


def test_long_recordings_are_cut_at_pauses_and_heard(tmp_path, base, root, load_tiny):
    tts = load_tiny(CHECKPOINT)
    from mlx_qwen3tts import asr

    recognizer = asr.load(str(asr_dir(root)))
    pauses = [(6.0, 6.6), (13.0, 13.5), (19.5, 20.2), (27.0, 27.6)]
    data = tmp_path / "data"
    data.mkdir()
    sf.write(data / "book.wav", speech(33.0, 24000, seed=19, pauses=pauses), 24000)
    samples = sf.read(data / "book.wav", dtype="float32")[0]  # as stored: 16-bit
    summary = prep.prepare(data, str(base), tmp_path / "ds", asr=recognizer, max_seconds=10.0, progress=False)
    got = {i.id: i for i in dataset.load(tmp_path / "ds").items} if summary.kept else {}
    spans = prep.utterances(samples, 10.0)
    assert len(spans) == 5 and spans[0][0] == 0 and spans[-1][1] == samples.shape[0]
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert end == start and any(a * 24000 < end < b * 24000 for a, b in pauses), end / 24000
    assert summary.kept + sum(summary.refused.values()) == len(spans) and set(summary.refused) <= {"transcript empty"}
    for k, (start, end) in enumerate(spans, 1):
        piece, heard = samples[start:end], recognizer.transcribe(samples[start:end], 24000).text.strip()
        item = got.get(f"book#{k:03d}")
        assert (item is None) == (not heard)
        if item is not None:
            assert item.text == heard
            np.testing.assert_array_equal(item.codes, np.array(tts.codec.encode(mx.array(piece))))
            np.testing.assert_allclose(item.speaker_vector, np.array(extract_xvector(tts.model.speaker_encoder, piece)),
                                       atol=1e-5, rtol=1e-5)


def test_resampling_is_the_cloning_paths(tmp_path):
    """The clip a dataset holds is the reference loader's (soxr_hq, librosa's length), stereo mixed by mean."""
    x = speech(1.3, 44100, seed=20)
    sf.write(tmp_path / "s.wav", np.stack([x, -0.5 * x], 1), 44100, subtype="FLOAT")
    audio, clipped = prep.load_clip(tmp_path / "s.wav")
    mono = (x + -0.5 * x) / 2
    np.testing.assert_allclose(audio, resample_to_24k(mono, 44100), atol=1e-7)
    assert clipped == 0.0 and audio.shape[0] == int(np.ceil(x.shape[0] * (24000 / 44100)))  # librosa: ratio first


def test_the_memory_table_in_the_docs_is_the_benchmarks_output():
    """docs/finetune.md's table is what `python -m benchmarks.finetune_memory` prints, and its arithmetic holds:
    full fp32 keeps 4 bytes a weight and 12 (gradient, two moments) a trained parameter, which are all but the
    text embedding (151,936 x 2048 in both sizes), frozen as training leaves it."""
    from benchmarks import finetune_memory

    args = finetune_memory.argparse.Namespace(batch_size=4, seconds=10.0, text_tokens=30, rank=8)
    rows = finetune_memory.table(args)
    page = (REPO / "docs" / "finetune.md").read_text(encoding="utf-8")
    assert all(row in page for row in rows), [row for row in rows if row not in page]
    for preset in ("0.6B", "1.7B"):
        c = finetune_memory.counts(preset)
        n, w, g, o, _ = finetune_memory.methods(c, 8)["full fp32"]
        assert w == 4 * c["total"] and g + o == 12 * n and n == c["total"] - 151936 * 2048


def test_the_docs_batch_of_one_totals_are_the_benchmarks():
    from benchmarks import finetune_memory

    rows = finetune_memory.table(finetune_memory.argparse.Namespace(batch_size=1, seconds=10.0, text_tokens=30,
                                                                    rank=8))
    totals = [float(re.search(r"\| ([\d.]+) GB \| [^|]+ \|$", row).group(1)) for row in rows[2:]]
    said = re.search(r"`--batch-size 1` the totals fall to ([\d., and]+) GB \(0\.6B\) and ([\d., and]+) GB \(1\.7B\)",
                     " ".join((REPO / "docs" / "finetune.md").read_text(encoding="utf-8").split()))
    numbers = [float(x) for x in re.findall(r"[\d.]+\d", said.group(1) + " " + said.group(2))]
    assert numbers == totals


def test_full_fine_tuning_trains_all_but_the_text_embedding(tmp_path):
    """What the table counts as trained for full fine-tuning (`shape_for`): on the tiny base-0b6 as `load_base`
    shapes it, every talker parameter but the text embedding."""
    from mlx.utils import tree_flatten
    from mlx_qwen3tts.finetune.train import load_base

    talker = load_base(checkpoint_dir("base-0b6", tmp_path), "full").model.talker
    trained = sum(v.size for _, v in tree_flatten(talker.trainable_parameters()))
    total = sum(v.size for _, v in tree_flatten(talker.parameters()))
    assert trained == total - talker.model.text_embedding.weight.size


def test_a_dataset_is_written_all_at_once_and_never_over_a_folder_it_was_not_told_to_replace(tmp_path):
    item = dataset.Item("a", "Hello.", "english", np.zeros((3, 16), np.int32), np.ones(4, np.float32))
    mine = tmp_path / "ds"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError):
        dataset.write(mine, [item], {})
    assert [p.name for p in mine.iterdir()] == ["notes.txt"] and len(list(tmp_path.iterdir())) == 1
    with pytest.raises(ValueError):
        dataset.write(tmp_path / "empty", [], {})
    written = dataset.load(dataset.write(tmp_path / "new", [item], {"model": "m"}))
    assert written.items[0].text == "Hello." and written.meta["model"] == "m" and written.meta["items"] == 1
    other = dataset.Item("b", "Again.", "auto", np.ones((2, 16), np.int32), np.zeros(4, np.float32))
    replaced = dataset.load(dataset.write(tmp_path / "new", [item, other], {}, replace=True))
    assert [i.id for i in replaced.items] == ["a", "b"] and replaced.items[1].codes.shape == (2, 16)


def test_clips_that_are_no_speech_are_refused_and_real_speech_kept(tmp_path, base):
    """A steady tone, mains hum, white noise and a beeping tone are refused as "not speech"; the recorded speech
    of the cloning fixtures (16 and 44.1 kHz; the 24 kHz one is under a second) and the syllables of `speech`
    are kept."""
    data, rate = tmp_path / "data", 24000
    data.mkdir()
    t = np.arange(3 * rate) / rate
    noise = np.random.default_rng(3).standard_normal(t.shape)
    clips = {"tone": 0.3 * np.sin(2 * np.pi * 440 * t), "hum": 0.3 * np.sin(2 * np.pi * 50 * t),
             "noise": 0.1 * noise, "beeps": 0.3 * np.sin(2 * np.pi * 880 * t) * (np.sin(2 * np.pi * 2 * t) > 0),
             "syllables": speech(2.0, seed=21)}
    for name, samples in clips.items():
        sf.write(data / f"{name}.wav", samples.astype(np.float32), rate)
    for name in ("ref_16k.wav", "ref_44k_stereo.flac"):
        shutil.copy(CLONE / name, data / name)
    for clip in data.iterdir():
        clip.with_suffix(".txt").write_text("Some words said in the clip.")
    summary = prep.prepare(data, str(base), tmp_path / "ds", progress=False)
    kept = sorted(i.id for i in dataset.load(tmp_path / "ds").items)
    assert kept == ["ref_16k", "ref_44k_stereo", "syllables"]
    assert summary.refused == {"not speech": 4}
