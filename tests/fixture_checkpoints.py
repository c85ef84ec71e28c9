"""Tiny reference checkpoints for the tests, unpacked into released-layout folders (stdlib only).

`tests/reference/build_checkpoints.py --pack` writes, under fixtures/checkpoints/:
  checkpoints.tar.xz     <name>/{config.json, generation_config.json, model.safetensors}
                         and one speech_tokenizer/ shared by every checkpoint;
  text_tokenizer.tar.xz  vocab.json, merges.txt, tokenizer_config.json.
`checkpoint_dir` merges them into <tmp_root>/qwen3tts_checkpoints/<name>/, the layout of the
released Hugging Face repos. Reference outputs live in fixtures/reference/ (see tests/reference/README.md).

Set MLX_QWEN3TTS_FIXTURES to another folder made by the same scripts (checkpoints/ and reference/)
to run the tests on checkpoints they have never seen; its checkpoints/ may hold the archives or
already complete folders (`build_checkpoints.py --out DIR/checkpoints`).
"""

import os
import shutil
import tarfile
import tempfile
from pathlib import Path

FIXTURES = Path(os.environ.get("MLX_QWEN3TTS_FIXTURES") or Path(__file__).resolve().parent / "fixtures")
CHECKPOINTS = FIXTURES / "checkpoints"
REFERENCE = FIXTURES / "reference"
CHECKPOINT_ARCHIVE = "checkpoints.tar.xz"
TOKENIZER_ARCHIVE = "text_tokenizer.tar.xz"
# The text tokenizer archive is shared with the tokenizer tests; a fixture folder made with
# build_checkpoints.py --pack may carry its own copy under checkpoints/.
SHARED_TOKENIZER = Path(__file__).resolve().parent / "fixtures" / "tokenizer" / "tokenizer.tar.xz"
TOKENIZER_FILES = ("vocab.json", "merges.txt", "tokenizer_config.json")
NAMES = ("base-0b6", "base-1b7", "custom_voice-0b6", "custom_voice-1b7", "voice_design-1b7")

_unpacked = {}


def _unpack(tmp_root: Path) -> Path:
    """Extract both archives once into tmp_root and complete every checkpoint folder."""
    root = tmp_root / "qwen3tts_checkpoints"
    if (root / ".complete").exists():
        return root
    tmp_root.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".unpack-", dir=tmp_root))
    for archive in (CHECKPOINT_ARCHIVE, TOKENIZER_ARCHIVE):
        path = CHECKPOINTS / archive
        if archive == TOKENIZER_ARCHIVE and not path.exists():
            path = SHARED_TOKENIZER
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing; build it with tests/reference/build_checkpoints.py --pack")
        with tarfile.open(path, "r:xz") as tar:
            target = stage if archive == CHECKPOINT_ARCHIVE else stage / "_text_tokenizer"
            if hasattr(tarfile, "data_filter"):
                tar.extractall(target, filter="data")
            else:
                tar.extractall(target)
    # speech_tokenizer/ holds a model.safetensors too, but it is not a checkpoint: completing it as one
    # would copy it into itself, and that nested copy into every checkpoint after it.
    checkpoints = [p for p in stage.iterdir() if p.name != "speech_tokenizer" and (p / "model.safetensors").exists()]
    for folder in sorted(checkpoints):
        for fname in TOKENIZER_FILES:
            shutil.copyfile(stage / "_text_tokenizer" / fname, folder / fname)
        shutil.copytree(stage / "speech_tokenizer", folder / "speech_tokenizer")
    (stage / ".complete").touch()
    try:
        stage.rename(root)
    except OSError:  # another process finished first
        shutil.rmtree(stage, ignore_errors=True)
    return root


def checkpoint_dir(name: str, tmp_root) -> Path:
    """A complete released-layout folder for checkpoint `name` (unpacked at most once per tmp_root)."""
    direct = CHECKPOINTS / name
    if (direct / "config.json").exists() and (direct / "speech_tokenizer").is_dir():
        return direct
    tmp_root = Path(tmp_root)
    if tmp_root not in _unpacked:
        _unpacked[tmp_root] = _unpack(tmp_root)
    folder = _unpacked[tmp_root] / name
    if not (folder / "config.json").exists():
        raise KeyError(f"no checkpoint {name!r} in {CHECKPOINTS}")
    return folder


ALIGNER = FIXTURES / "aligner"


def aligner_dir(tmp_root) -> Path:
    """The tiny Qwen3-ForcedAligner of fixtures/aligner/ as a released-layout folder (unpacked once per
    tmp_root): checkpoint.tar.xz plus vocab.json and merges.txt from the shared text tokenizer archive."""
    return _fixture_folder(ALIGNER, Path(tmp_root) / "qwen3_forced_aligner")


def _fixture_folder(fixture: Path, folder: Path) -> Path:
    """`fixture`/checkpoint.tar.xz with the shared tokenizer's vocab.json and merges.txt, unpacked once into
    `folder` (staged beside it and renamed into place, so concurrent test processes never see half of it)."""
    if (folder / ".complete").exists():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    with tarfile.open(fixture / "checkpoint.tar.xz", "r:xz") as tar:
        tar.extractall(stage, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(stage)
    with tarfile.open(SHARED_TOKENIZER, "r:xz") as tar:
        for name in ("vocab.json", "merges.txt"):
            (stage / name).write_bytes(tar.extractfile(name).read())
    (stage / ".complete").touch()
    try:
        stage.rename(folder)
    except OSError:  # another process finished first
        shutil.rmtree(stage, ignore_errors=True)
    return folder


ASR = FIXTURES / "asr"


def asr_dir(tmp_root) -> Path:
    """The tiny random Qwen3-ASR of fixtures/asr/ (recorded by tests/reference/record_asr.py with qwen-asr's own
    classes) as a released-layout folder, unpacked once per tmp_root: checkpoint.tar.xz plus vocab.json and
    merges.txt from the shared text tokenizer archive. `mlx_qwen3tts.asr.load(str(asr_dir(tmp)))` loads it."""
    return _fixture_folder(ASR, Path(tmp_root) / "qwen3_asr")
