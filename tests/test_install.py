"""Installing as a newcomer does (issue 51): no index serves mlx-qwen3tts, so the docs say what works, a
checkout (`pip install -e .`) or a wheel built from one with `python -m build`. The wheel holds the package
with the page's static files and nothing of the repository beside it (no tests); its metadata carries the
license as an SPDX expression and requires-python; a Python older than 3.10 is refused in one line, at
once, instead of pip trying version after version of every dependency."""

import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATIC = sorted(p.name for p in (ROOT / "mlx_qwen3tts" / "server" / "page").iterdir() if p.is_file())
REFUSED = re.compile(r"error: mlx-qwen3tts needs Python 3\.10 or later; \S+ is Python 3\.9\.\d+")


def _checkout_copy(dest: Path) -> Path:
    """The repository's tracked files (what a clone holds) under `dest`."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    pytest.importorskip("build")
    src = _checkout_copy(tmp_path_factory.mktemp("checkout"))
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(src)], capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (found,) = out.glob("mlx_qwen3tts-*-py3-none-any.whl")
    return found


def test_the_wheel_holds_the_package_and_the_page_and_no_tests(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert sorted(Path(n).name for n in names if n.startswith("mlx_qwen3tts/server/page/")) == STATIC
    assert "index.html" in STATIC and "app.js" in STATIC
    assert {"mlx_qwen3tts/cli/generate.py", "mlx_qwen3tts/aligner/__init__.py"} <= set(names)
    data = ROOT / "mlx_qwen3tts" / "text" / "verbalize" / "data"  # the normalizer's word tables
    assert {f"mlx_qwen3tts/text/verbalize/data/{p.name}" for p in data.glob("*.tsv")} <= set(names)
    outside = {n.split("/")[0] for n in names} - {"mlx_qwen3tts", wheel.name.split("-py3")[0] + ".dist-info"}
    assert not outside, outside  # no tests/, benchmarks/, convert/ or docs/ beside the package
    assert not [n for n in names if "/tests/" in n or n.startswith("tests/")]


def test_the_wheels_metadata_says_the_license_and_the_python(wheel):
    archive = zipfile.ZipFile(wheel)
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    fields = dict(line.split(": ", 1) for line in metadata.split("\n\n", 1)[0].splitlines() if ": " in line)
    assert fields["License-Expression"] == "Apache-2.0" and "License" not in fields
    assert fields["Requires-Python"] == ">=3.10"


def _python39() -> str:
    """A Python 3.9 that runs (a pyenv shim may not), or skip."""
    candidates = [shutil.which("python3.9"), *sorted(Path("/root/.pyenv/versions").glob("3.9.*/bin/python"))]
    for found in filter(None, candidates):
        if subprocess.run([str(found), "-c", "import venv, ensurepip"], capture_output=True).returncode == 0:
            return str(found)
    pytest.skip("no Python 3.9 here (macOS's own python3 is one; pyenv gives one elsewhere)")


def test_python_3_9_is_refused_in_one_line_at_once(tmp_path):
    """The README's install on macOS's python3 (3.9): refused in seconds with our line, before pip resolves any
    dependency (it backtracked for over 10 minutes before)."""
    venv = tmp_path / "venv39"
    subprocess.run([_python39(), "-m", "venv", str(venv)], check=True, timeout=120)
    src = _checkout_copy(tmp_path / "checkout")
    start = time.monotonic()
    try:
        result = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-e", ".[server]"], cwd=src,
                                capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired:
        pytest.fail("pip was still resolving after 240 s instead of refusing Python 3.9")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and REFUSED.search(output), output[-3000:]
    assert "Collecting mlx" not in output and time.monotonic() - start < 180


def test_no_page_or_message_installs_from_an_index_that_does_not_serve_it():
    """docs/server.md, platforms.md, the converted model's card (convert.py) and the hints of the messages said
    `pip install "mlx-qwen3tts[server]"`, which no index serves; they say what works instead."""
    files = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "mlx_qwen3tts").rglob("*.py")]
    wrong = re.compile(r"pip install [\"']?mlx-qwen3tts\b")
    assert not [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in files for m in wrong.finditer(p.read_text())]
    readme = (ROOT / "README.md").read_text()
    install = readme.split("## Install", 1)[1].split("\n## ", 1)[0]
    assert "Python 3.10 or later" in install and "macOS 14" in install and "python -m build" in install


def test_the_converted_models_card_says_how_to_install():
    from mlx_qwen3tts.convert import model_card

    card = model_card("Qwen3-TTS-12Hz-0.6B-CustomVoice-4bit", "Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice",
                      dtype="bfloat16", group_size=64, per_component={}, plan={})
    assert "pip install -e ." in card and "python -m build" in card
