"""Placeholder `torchaudio` modules so `import qwen_tts` works without torchaudio.

qwen_tts imports `torchaudio.compliance.kaldi` for its 25 Hz tokenizer only, which the 12 Hz
models never touch; torchaudio has no build matching the reference torch. Import this module
before `qwen_tts`.
"""

import importlib.machinery
import sys
import types


def install() -> None:
    for name in ("torchaudio", "torchaudio.compliance", "torchaudio.compliance.kaldi"):
        if name in sys.modules:
            continue
        module = types.ModuleType(name)
        module.__spec__ = importlib.machinery.ModuleSpec(name, loader=None, is_package=not name.endswith("kaldi"))
        module.__path__ = []
        sys.modules[name] = module
    sys.modules["torchaudio"].compliance = sys.modules["torchaudio.compliance"]
    sys.modules["torchaudio.compliance"].kaldi = sys.modules["torchaudio.compliance.kaldi"]


install()
