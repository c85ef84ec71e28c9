"""Outputs that land whole or not at all, and files whose bytes depend only on their audio (issue 57).

WAV: libsndfile's PEAK chunk holds the time it was written, so two files of the same samples differed.
"""

import time

import numpy as np

import mlx_qwen3tts  # noqa: F401  (before soundfile and mlx: the package loads OpenBLAS first)
from mlx_qwen3tts.audio import formats

SR = 24000


def test_wav_files_of_the_same_samples_are_the_same_bytes(tmp_path):
    samples = np.sin(np.arange(SR // 10) / 7.0).astype(np.float32) * 0.5
    first = formats.encode(samples, SR, "wav")
    for name in ("a.wav", "b.wav"):
        writer = formats.open_file(tmp_path / name, "wav", SR)
        writer.write(samples)
        writer.close()
        time.sleep(1.1)  # the PEAK chunk's time stamp counts seconds
    assert formats.encode(samples, SR, "wav") == first
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "b.wav").read_bytes() == first
    assert b"PEAK" not in first
    import soundfile as sf

    np.testing.assert_array_equal(sf.read(tmp_path / "a.wav", dtype="float32")[0], samples)


def test_a_refused_longform_write_leaves_nothing_behind(load_tiny, tmp_path):
    import pytest

    from mlx_qwen3tts import longform
    from mlx_qwen3tts.errors import InputError

    tts = load_tiny("custom_voice-0b6")
    doc = longform.document("Alpha bravo. Charlie delta.")
    for bad in ({"speaker": "nobody"}, {"language": "klingon"}, {"temperature": -1}):
        with pytest.raises(InputError):
            longform.write(tts, doc, tmp_path / "w.wav", captions=tmp_path / "w.srt", **bad)
        assert list(tmp_path.iterdir()) == [], (bad, list(tmp_path.iterdir()))


# -- a failure in any writer leaves the old files as they were and no new one -------------------------------

def _visible(folder):
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def _no_temporaries(folder):
    assert not [p for p in folder.rglob("*.tmp")], list(folder.rglob("*.tmp"))


def _fail(*args, **kwargs):
    import errno

    raise OSError(errno.ENOSPC, "No space left on device (injected)")


class _FailingWriter:
    """A long-form writer that takes the audio and fails as it finishes the file."""

    def __init__(self, *args, **kwargs):
        pass

    def write(self, samples):
        pass

    close = _fail


def test_a_failing_longform_writer_lands_no_file(load_tiny, tmp_path, monkeypatch):
    import pytest

    from mlx_qwen3tts import longform
    from mlx_qwen3tts.longform import job

    tts = load_tiny("custom_voice-0b6")
    doc = longform.document("Alpha bravo. Charlie delta.")
    names = ("w.wav", "w.srt", "w.vtt", "w.epub")
    kw = dict(captions=[tmp_path / "w.srt", tmp_path / "w.vtt"], read_along=tmp_path / "w.epub", speaker="ryan",
              seed=1, max_tokens=6, overwrite=True)
    for name in names:
        (tmp_path / name).write_bytes(b"old " + name.encode())
    for where, name in (("open_writer", _FailingWriter), ("render", _fail), ("write_book", _fail)):
        with monkeypatch.context() as m:
            m.setattr(job, where, name)
            with pytest.raises(Exception):
                longform.write(tts, doc, tmp_path / "w.wav", **kw)
        assert _visible(tmp_path) == sorted(names), where
        assert all((tmp_path / n).read_bytes() == b"old " + n.encode() for n in names), where
        _no_temporaries(tmp_path)
    written = longform.write(tts, doc, tmp_path / "w.wav", resume=True, **kw)  # the kept segments, all landed
    assert all(p.read_bytes()[:4] != b"old " for p in written) and len(written) == 4


def cli(*args):
    from click.testing import CliRunner

    from mlx_qwen3tts.cli.generate import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def test_a_failing_cli_writer_lands_no_file(load_tiny, tmp_path, monkeypatch):
    from mlx_qwen3tts.cli import speak

    model = load_tiny("custom_voice-0b6").path
    for extra in ([], ["--stream"]):
        with monkeypatch.context() as m:
            m.setattr(speak, "npy_bytes", _fail)  # the codes fail after the audio is made
            code, out = cli("--model", model, "--text", "Hello.", "--max-tokens", "6", "-q", "-o", tmp_path / "a.wav",
                            "--codes-output", tmp_path / "c.npy", *extra)
        assert code != 0 and "Traceback" not in out, out
        assert _visible(tmp_path) == [], (extra, _visible(tmp_path))
        _no_temporaries(tmp_path)
    from mlx_qwen3tts.cli import sinks

    with monkeypatch.context() as m:
        m.setattr(sinks, "open_file", _FailingWriter)  # the streamed audio file fails as it is finished
        code, out = cli("--model", model, "--text", "Hello.", "--max-tokens", "6", "-q", "-o", tmp_path / "a.wav",
                        "--codes-output", tmp_path / "c.npy", "--stream")
    assert code != 0 and "cannot write --output" in out and "Traceback" not in out, out
    assert _visible(tmp_path) == [] and not list(tmp_path.rglob("*.tmp")), _visible(tmp_path)
    code, out = cli("--model", model, "--text", "Hello.", "--max-tokens", "6", "-q", "-o", tmp_path / "a.wav",
                    "--codes-output", tmp_path / "c.npy")
    assert code == 0 and _visible(tmp_path) == ["a.wav", "c.npy"], out


def test_split_chapters_land_together_or_not_at_all(load_tiny, tmp_path, monkeypatch):
    from mlx_qwen3tts.longform import job

    model = load_tiny("custom_voice-0b6").path
    book = tmp_path / "in" / "book.md"
    book.parent.mkdir()
    book.write_text("# One\n\nAlpha bravo.\n\n# Two\n\nCharlie delta.\n\n# Three\n\nEcho foxtrot.\n")
    out = tmp_path / "out"
    out.mkdir()
    real, opened = job.open_writer, []

    def second_fails(*args, **kwargs):
        opened.append(args)
        return (_FailingWriter if len(opened) == 2 else real)(*args, **kwargs)

    monkeypatch.setattr(job, "open_writer", second_fails)
    code, said = cli("--model", model, "--text-file", book, "--split-chapters", "--max-tokens", "6", "-q",
                     "--captions", out / "b.srt", "-o", out / "b.wav")
    assert code != 0 and len(opened) == 2, said
    assert _visible(out) == [], _visible(out)
    _no_temporaries(out)
