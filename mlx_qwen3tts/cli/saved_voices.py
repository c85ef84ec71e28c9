"""`--voice NAME`: a voice the server saved, found by its name in the server's voices folder."""

import os
from typing import Optional

from ..errors import InputError


def voice_file(given: Optional[str]) -> Optional[str]:
    """--voice as given: a voice file, else the name of a voice the server saved (its default voices folder);
    a blend of such ("alice:0.7+bob:0.3") with each part so resolved, for the request layer to check."""
    from ..model.speakers import NATIVE_LANGUAGES
    from ..voices import VOICE_ID, default_voices_dir, saved_voice_ids, saved_voice_path  # mlx: not for --help

    if given is not None and not os.path.exists(given) and ("+" in given or ":" in given):
        parts = [part.partition(":") for part in given.split("+")]
        return "+".join(voice_file(name.strip()) + colon + weight if name.strip() else part
                        for part, (name, colon, weight) in zip(given.split("+"), parts))
    if given is None or os.path.exists(given) or not VOICE_ID.fullmatch(given):
        return given  # a path (a missing one is reported by the request layer)
    folder = default_voices_dir()
    found = saved_voice_path(given, folder)
    if found is None and given.lower() in NATIVE_LANGUAGES:  # a released preset's name (mlx-audio's habit)
        raise InputError(f"--voice {given}: no such file or saved voice; '{given}' is a preset speaker: give "
                         f"--speaker {given} (a CustomVoice model's; --list-speakers shows them)")
    if found is None:
        saved = saved_voice_ids(folder)
        raise InputError(f"--voice {given}: no such file, and no voice named '{given}' is saved in {folder} "
                         f"({'saved: ' + ', '.join(saved) if saved else 'none is saved there'}); give a voice file "
                         "or the name of a saved voice")
    return str(found)
