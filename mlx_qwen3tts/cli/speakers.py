"""`--list-speakers`: a model's preset speakers with the language each speaks best, read from its
config.json alone (no weights are loaded); and the released speakers for `--help`."""

from dataclasses import dataclass
from typing import List

import click

from ..model.speakers import NATIVE_LANGUAGES


def native_language(name: str, dialect=None) -> str:
    """'English', or 'Chinese (Sichuan dialect)' (config.json's dialect, else upstream's table); '' when
    neither says."""
    native = dialect if isinstance(dialect, str) and dialect else NATIVE_LANGUAGES.get(name.lower(), "")
    if native.endswith("_dialect"):  # the released dialects are Chinese ones
        return f"Chinese ({native[:-len('_dialect')].replace('_', ' ').title()} dialect)"
    return native.title()


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


@dataclass(frozen=True)
class ListSpeakers:
    """The job of `--list-speakers`: `model`'s speakers on stdout."""

    model: str

    def run(self):
        click.echo(list_speakers(self.model), nl=False)


def help_epilog() -> str:
    """The released speakers, for `--help` (no model is read there)."""
    by_language = {}
    for name in NATIVE_LANGUAGES:
        shown = "_".join(part.capitalize() for part in name.split("_"))
        by_language.setdefault(native_language(name), []).append(shown)
    lines = [f"  {language}: {', '.join(names)}" for language, names in by_language.items()]
    return "\n".join(["\b", "Preset speakers of the CustomVoice models (--speaker), each speaking every language, "
                      "best its own:", *lines, "--list-speakers shows those of the --model given."])
