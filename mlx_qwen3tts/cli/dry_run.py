"""`--dry-run`: each piece of the text printed as it will be spoken, one a line, and nothing else done (no
model is loaded): --text (or '-', stdin) cut as `generate` cuts it, --text-file's segments as long-form speaks
them, with the lexicon and normalization (--language, --no-normalize) as the real run applies them. A line
break inside a piece is printed as a space."""

import sys
from dataclasses import dataclass

import click

from ..errors import InputError
from .options import LongForm, Speech
from .text_input import checked_utf8, decode_utf8


@dataclass(frozen=True)
class DryRun:
    speech: Speech
    longform: LongForm

    def run(self):
        for piece in self.pieces():
            click.echo(" ".join(piece.split()))

    def pieces(self) -> list:
        speech = self.speech
        _check_language(speech.language)
        if self.longform.text_file is not None:
            from .longform import read_text_file

            if speech.text is not None:
                raise InputError("--text-file cannot be combined with --text")
            return [segment.text for segment in read_text_file(self.longform, speech).segments]
        if speech.text is None:
            raise InputError("--dry-run prints what a text says: give --text TEXT, --text - (stdin) or --text-file")
        text = decode_utf8(sys.stdin.buffer.read(), "stdin") if speech.text == "-" else checked_utf8(speech.text,
                                                                                                     "--text")
        return spoken_pieces(text, speech)


def spoken_pieces(text: str, speech: Speech) -> list:
    """`text` as `generate` speaks it (the request's checks, lexicon and normalization), in its pieces."""
    from ..plan import LONG_TEXT_CHARS
    from ..request import spoken_text
    from ..text import split_sentences

    text = spoken_text(text, speech.language, speech.normalize is not False, speech.lexicon)
    if speech.split == "none" or (speech.split == "auto" and len(text) <= LONG_TEXT_CHARS):
        return [text]
    return split_sentences(text, LONG_TEXT_CHARS)


def _check_language(language: str):
    """A language the models speak (a name or code), or auto: as the request checks it, without a model."""
    from ..languages import LANGUAGE_CODES, language_key

    if language_key(language or "auto") not in (*LANGUAGE_CODES, "auto"):
        raise InputError(f"--language {language!r} is unknown; choose one of: "
                         f"{', '.join(name.capitalize() for name in LANGUAGE_CODES)} (or a code, or auto)")
