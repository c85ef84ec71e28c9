"""The work folder of a long-form run: a hidden folder beside the output holding a manifest (a hash
of the text, model and settings, and the run's seed) and one file per finished segment, so a run
stopped in any way continues where it stopped. Every file is written whole (temporary name, then
renamed), so a segment file that exists is complete. The folder goes when the output is complete."""

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

from ..errors import InputError
from .narrate import new_run_seed

MANIFEST = "manifest.json"
FORMAT = 1


def work_folder(output: Path) -> Path:
    return output.with_name(f".{output.name}.parts")


def fingerprint(*parts) -> str:
    """A hash of JSON-able parts (text, settings) and of bytes (files)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else json.dumps(part, sort_keys=True, default=str).encode()
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def _write_whole(path: Path, write):
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.remove(tmp)


class WorkFolder:
    """Finished segments of one run on disk: `save(i, audio)`, `done()`, `audio(i)`, `remove()`."""

    def __init__(self, folder: Path, key: str, seed: int, dropped: int = 0):
        self.folder, self.key, self.seed = folder, key, seed
        self.dropped = dropped  # finished segments of an earlier unfinished run, dropped to start over

    @classmethod
    def open(cls, output: Path, what: str, key: str, seed: Optional[int], resume: bool) -> "WorkFolder":
        """The run's folder: continued with `resume` (refused when there is none, it is another run's, or
        `seed` is given and is not the seed it runs with: None keeps it), else made anew with `seed` (None: a
        new one; an earlier unfinished run of this output is dropped)."""
        folder = work_folder(output)
        found = _manifest(folder)
        if resume:
            if found is None:
                raise InputError(f"{{resume}}: {what} {output.name} has no unfinished run to continue "
                                 f"(no {folder.name} beside it); run without {{resume}}", field="resume")
            if found.get("key") != key:
                raise InputError(f"{{resume}}: the unfinished run of {what} {output.name} was made with another text, "
                                 "model or settings; give the same arguments, or run without {resume} to start over",
                                 field="resume")
            if seed is not None and seed != found["seed"]:
                raise InputError(f"{{resume}}: the unfinished run of {what} {output.name} runs with {{seed}} "
                                 f"{found['seed']}, not {seed}; give that seed or none to continue it, or run "
                                 "without {resume} to start over", field="seed", others=("resume",))
            return cls(folder, key, found["seed"])
        seed = new_run_seed() if seed is None else seed
        dropped = 0
        if folder.exists():
            if found is None:
                raise InputError(f"{folder} exists and is not a work folder of this program; move it away",
                                 field="resume")
            dropped = cls(folder, key, seed).done()
            shutil.rmtree(folder)
        folder.mkdir()
        work = cls(folder, key, seed, dropped)
        _write_whole(folder / MANIFEST, lambda f: f.write(json.dumps(
            {"format": FORMAT, "key": key, "seed": seed}).encode()))
        return work

    @property
    def started(self) -> float:
        """When the run began (its manifest is written then, and kept by a resumed run): seconds since the epoch."""
        return (self.folder / MANIFEST).stat().st_mtime

    def _path(self, index: int) -> Path:
        return self.folder / f"{index:06d}.npy"

    def save(self, index: int, audio: np.ndarray):
        _write_whole(self._path(index), lambda f: np.save(f, np.asarray(audio, np.float32)))

    def done(self) -> int:
        """How many segments are finished (from the first, without a gap)."""
        n = 0
        while self._path(n).exists():
            n += 1
        return n

    def save_words(self, index: int, aligner: str, words: list):
        """Word timings of a finished segment, made by `aligner` (see longform.word_timing)."""
        data = json.dumps({"aligner": aligner, "words": words}, ensure_ascii=False).encode()
        _write_whole(self.folder / f"{index:06d}.words.json", lambda f: f.write(data))

    def words(self, index: int, aligner: str) -> Optional[list]:
        """The segment's saved word timings, or None where there are none made by `aligner`."""
        try:
            found = json.loads((self.folder / f"{index:06d}.words.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return found["words"] if isinstance(found, dict) and found.get("aligner") == aligner else None

    def save_check(self, index: int, check):
        """How the recognizer heard a finished segment (`hearing.PieceCheck`), kept so a resumed run reports it."""
        data = json.dumps(check.as_json(), ensure_ascii=False).encode()
        _write_whole(self.folder / f"{index:06d}.check.json", lambda f: f.write(data))

    def check(self, index: int):
        """The segment's kept check (`hearing.PieceCheck`), or None where there is none."""
        from ..hearing import PieceCheck

        try:
            found = json.loads((self.folder / f"{index:06d}.check.json").read_text(encoding="utf-8"))
            return PieceCheck(**found)
        except (OSError, ValueError, TypeError):
            return None

    def audio(self, index: int) -> np.ndarray:
        return np.load(self._path(index))

    def lengths(self, count: int) -> Iterator[int]:
        """Sample counts of the first `count` segments, read from their headers only."""
        for i in range(count):
            yield np.load(self._path(i), mmap_mode="r").shape[0]

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)


def _manifest(folder: Path) -> Optional[dict]:
    try:
        found = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and found.get("format") == FORMAT else None
