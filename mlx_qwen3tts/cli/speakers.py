"""`--list-speakers`: a model's preset speakers with the language each speaks best, read from its
config.json alone (no weights are loaded); and the released speakers for `--help`."""

from typing import List

# Upstream's table of the released CustomVoice speakers (config.json has only their dialects):
# each speaks every language of the model, best its native one.
NATIVE = {"vivian": "Chinese", "serena": "Chinese", "uncle_fu": "Chinese", "dylan": "Chinese", "eric": "Chinese",
          "ryan": "English", "aiden": "English", "ono_anna": "Japanese", "sohee": "Korean"}
RELEASED_DIALECTS = {"dylan": "beijing_dialect", "eric": "sichuan_dialect"}


def native_language(name: str, dialect) -> str:
    """'English', or 'Chinese (Sichuan dialect)'; '' when neither the table nor config.json says."""
    language = NATIVE.get(name.lower(), "")
    if isinstance(dialect, str) and dialect:
        place = dialect.replace("_dialect", "").replace("_", " ").title()
        return f"{language or 'Chinese'} ({place} dialect)"
    return language


def speaker_lines(config) -> List[str]:
    talker = config.talker_config
    names = config.speakers
    width = max((len(n) for n in names), default=0)
    return [f"  {name:<{width}}  {native_language(name, talker.spk_is_dialect.get(name))}".rstrip() for name in names]


def describe(model: str, config) -> str:
    """The listing for a `model.config.ModelConfig` (imported by the caller: --help loads no model code)."""
    from ..model.config import VARIANT_NAMES, size_name

    what = f"{size_name(config.tts_model_size)} {VARIANT_NAMES.get(config.tts_model_type, config.tts_model_type)}"
    if not config.speakers:
        way = ("it speaks the voice --instruct describes" if config.tts_model_type == "voice_design"
               else "it clones a voice: --ref-audio CLIP --ref-text TRANSCRIPT, or --voice of a saved one")
        return f"{model} ({what}) has no preset speakers; {way}\n"
    return "\n".join([f"Preset speakers of {model} ({what}), each with the language it speaks best:",
                      *speaker_lines(config),
                      "Each speaks every language of the model: --speaker NAME [--language LANGUAGE]."]) + "\n"


def list_speakers(model: str) -> str:
    """What `--list-speakers` prints for `model` (a folder or a hub id)."""
    from ..model import checkpoint

    return describe(model, checkpoint.load_config(checkpoint.resolve(model)))


def help_epilog() -> str:
    """The released speakers, for `--help` (no model is read there)."""
    by_language = {}
    for name in NATIVE:
        shown = "_".join(part.capitalize() for part in name.split("_"))
        by_language.setdefault(native_language(name, RELEASED_DIALECTS.get(name)), []).append(shown)
    lines = [f"  {language}: {', '.join(names)}" for language, names in by_language.items()]
    return "\n".join(["\b", "Preset speakers of the CustomVoice models (--speaker), each speaking every language, "
                      "best its own:", *lines, "--list-speakers shows those of the --model given."])
