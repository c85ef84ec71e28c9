"""The build's one check of its own: an interpreter older than pyproject.toml's requires-python is refused
here, in one line, before pip resolves a dependency. pip does not check a local project's requires-python
before resolving: with macOS's own python3 (3.9) it tried version after version of every dependency for
minutes. Everything else is in pyproject.toml."""

import sys

if sys.version_info < (3, 10):
    sys.exit(f"error: mlx-qwen3tts needs Python 3.10 or later; {sys.executable} is Python "
             f"{sys.version.split()[0]}: make the virtual environment with a newer python3 (see the README's Install)")

from setuptools import setup  # noqa: E402

setup()
