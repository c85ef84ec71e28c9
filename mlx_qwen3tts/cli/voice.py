"""The command's voice (--speaker, --voice, --ref-audio, --ref-text, --x-vector-only), resolved once, and
saved with --save-voice: the same for one text, a batch file and a long-form run's narrator."""

import click

from ..errors import InputError
from .console import warn


def speaking_voice(tts, voice, save_to=None, quiet: bool = False):
    """The Voice of `voice` (a `cli.options.Voice`), resolved once as cloning is not free, and written to
    `save_to` (--save-voice's Output) when given."""
    from ..request import resolve_voice

    resolved, notices = resolve_voice(tts.facts, tts.voices, **voice.given())
    for notice in notices:
        warn(notice)
    if resolved.heard:  # the clip came without --ref-text: --asr's transcript is what it is cloned with
        click.echo(f"transcript: {resolved.ref_text}", err=True)
    if save_to is not None:
        from ..voices import voice_bytes

        if resolved.xvector is None:
            raise InputError("--save-voice needs a cloned voice: give --ref-audio")
        save_to.write(voice_bytes(resolved, tts.facts.size))
        if not quiet:
            click.echo(f"saved voice to {save_to}", err=True)
    return resolved
