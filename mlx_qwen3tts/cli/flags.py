"""The command's names for the request layer's fields (errors name the option the user typed) and which of
its options are paths (a leading ~ is expanded); the options that say how a document is read."""

import click

from ..request_fields import FIELDS, field_names

DEFAULT_MODEL = "Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice"
# The request layer's fields as this command's options (errors name the option the user typed).
FLAGS = {**field_names(**{**{name: "--" + name.replace("_", "-") for name in FIELDS}, "deltas": "--text-stream"}),
         "save_voice": "--save-voice", "split": "--split", "format": "--format", "codes": "--from-codes",
         "mlx_qwen3tts.longform": "--text-file FILE", "check": "--check", "check_threshold": "--check-threshold",
         "check_tries": "--check-tries", "asr": "--asr"}
PATH_OPTIONS = ("model", "output", "codes_output", "ref_audio", "save_voice", "voice", "batch_file", "from_codes",
                "text_file", "captions", "read_along", "lexicon", "aligner", "check")


def document_options(command):
    """--heading-pattern, --skip-chapters and --read: how the document of --text-file is read."""
    for option in reversed((
            click.option("--heading-pattern", help="With --text-file: a regular expression; plain-text lines matching "
                         "it start chapters (Markdown uses # and ## headings)."),
            click.option("--skip-chapters", metavar="PATTERN", help="With --text-file: leave out the chapters whose "
                         "whole title this regular expression matches, any case (e.g. 'Cover|Copyright|Contents')."),
            click.option("--read", "read_parts", multiple=True, type=click.Choice(["notes", "navigation",
                                                                                    "no-list-numbers"]),
                         help="With --text-file: also read footnotes and endnotes (notes) or a page's navigation and "
                         "tables of contents (navigation), left out by default; no-list-numbers: a Markdown list's "
                         "item numbers are not read. Repeatable."))):
        command = option(command)
    return command
