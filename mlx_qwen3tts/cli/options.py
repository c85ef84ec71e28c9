"""The command's options as small typed configs, one per job: which model, with which voice, what to say,
where it goes, how it streams, and long-form's own. Each takes its fields by name from click's parsed
options (`take`); every option is in one of them (tests/test_architecture.py checks)."""

import os
from dataclasses import dataclass, fields
from typing import Optional

from .. import outputs
from .flags import PATH_OPTIONS


class Taken:
    """A config whose fields are named as the command's options."""

    @classmethod
    def take(cls, opts: dict):
        """The config of click's `opts`, its fields named as the options."""
        return cls(**{f.name: opts[f.name] for f in fields(cls)})


def _expanded(given):
    """A path option (or a repeated one's paths) with a leading ~ expanded; stdout's names kept."""
    if isinstance(given, tuple):
        return tuple(_expanded(g) for g in given)
    return given if given in outputs.STDOUT_NAMES else os.path.expanduser(given)


@dataclass(frozen=True)
class Model(Taken):
    """--model (a folder or a hub id) and --dtype."""

    model: str
    dtype: Optional[str]

    def load(self):
        import mlx.core as mx

        from ..tts import load

        return load(self.model, dtype=getattr(mx, self.dtype) if self.dtype else None)


@dataclass(frozen=True)
class Voice(Taken):
    """With which voice: a preset speaker, a saved voice file, or a clip to clone (as `resolve_voice` takes it)."""

    speaker: Optional[str]
    voice: Optional[str]
    ref_audio: Optional[str]
    ref_text: Optional[str]
    x_vector_only: bool

    def given(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Speech(Taken):
    """What to say (--text, --text-stream or --batch-file) and how: the request's settings but the voice."""

    text: Optional[str]
    text_stream: bool
    batch_file: Optional[str]
    language: str
    instruct: Optional[str]
    text_mode: Optional[str]
    temperature: Optional[float]
    top_k: Optional[int]
    top_p: Optional[float]
    repetition_penalty: Optional[float]
    max_tokens: Optional[int]
    seed: Optional[int]
    split: str
    normalize: Optional[bool]
    lexicon: Optional[str]
    guard: bool
    dry_run: bool

    @property
    def sampling(self) -> dict:
        return dict(temperature=self.temperature, top_k=self.top_k, top_p=self.top_p,
                    repetition_penalty=self.repetition_penalty)

    @property
    def settings(self) -> dict:
        """The request's keywords but the text, the voice and the seed."""
        return dict(language=self.language, instruct=self.instruct, text_mode=self.text_mode,
                    max_tokens=self.max_tokens, guard=self.guard, **self.sampling)


@dataclass(frozen=True)
class Outputs(Taken):
    """Where the results go, at which speed, and whether the command tells what it does."""

    output: Optional[str]
    audio_format: Optional[str]
    codes_output: Optional[str]
    save_voice: Optional[str]
    speed: float
    quiet: bool

    @property
    def speaks(self) -> bool:
        """Asked for speech, not only for --save-voice (--play is the streaming config's)."""
        return self.output is not None or self.codes_output is not None


@dataclass(frozen=True)
class Streaming(Taken):
    """--stream, --play and the chunk sizes."""

    stream: bool
    play: bool
    first_chunk_frames: int
    chunk_frames: Optional[int]


@dataclass(frozen=True)
class LongForm(Taken):
    """--text-file and the options that only it takes."""

    @property
    def read(self) -> tuple:
        """What is read beside the text (`longform.document`'s `read`)."""
        given = set(self.read_parts)
        return ("numbers",) * ("no-list-numbers" not in given) + tuple(p for p in ("notes", "navigation") if p in given)

    text_file: Optional[str]
    captions: tuple  # each --captions file (one per format)
    read_along: Optional[str]
    caption_words: bool
    aligner: str
    aligner_bits: Optional[str]
    resume: bool
    split_chapters: bool
    script: bool
    cast: tuple
    heading_pattern: Optional[str]
    skip_chapters: Optional[str]
    read_parts: tuple  # --read: "notes", "navigation", "no-list-numbers"
    title: Optional[str]
    author: Optional[str]
    batch_size: int


@dataclass(frozen=True)
class Hearing(Taken):
    """--asr (a speech recognizer: transcribes a clip cloned without --ref-text) and --check (what was said, heard
    back and made again where it was heard wrong; the report's file)."""

    asr: Optional[str]
    check: Optional[str]
    check_threshold: Optional[float]
    check_tries: Optional[int]

    def checked(self) -> "Hearing":
        """Refuses --check without --asr, and the check's settings without --check (before the model loads)."""
        from ..errors import InputError

        if self.check is not None and self.asr is None:
            raise InputError("--check hears what was said with a speech recognizer: add --asr MODEL (e.g. --asr "
                             "Qwen/Qwen3-ASR-0.6B)")
        for flag, given in (("--check-threshold", self.check_threshold), ("--check-tries", self.check_tries)):
            if given is not None and self.check is None:
                raise InputError(f"{flag} applies to --check; add --check REPORT.json")
        if self.check is not None:
            self.settings()
        return self

    def whole(self, speech: "Speech", streaming: "Streaming"):
        """--check makes a piece again: refused with what sends out speech as it is made, or a batch file."""
        streamed = [flag for flag, given in (("--batch-file", speech.batch_file is not None),
                                             ("--stream", streaming.stream), ("--play", streaming.play),
                                             ("--text-stream", speech.text_stream)) if given]
        if self.check is not None and streamed:
            from ..errors import InputError

            raise InputError(f"--check makes a piece again where it is heard wrong, so it needs the speech whole: it "
                             f"cannot be combined with {streamed[0]}")

    def not_with(self, flag: str):
        """--asr (and so --check) refused with a job that makes no speech."""
        if self.asr is not None:
            from ..errors import InputError

            raise InputError(f"{flag} makes no speech: --asr and --check apply to speech being made")

    def settings(self):
        """The check's `hearing.Check` (its recognizer the model's, set by `attach`)."""
        from ..hearing import DEFAULT_THRESHOLD, DEFAULT_TRIES, Check

        return Check(DEFAULT_THRESHOLD if self.check_threshold is None else self.check_threshold,
                     DEFAULT_TRIES if self.check_tries is None else self.check_tries)

    def asked(self) -> dict:
        """What a request is given for the check: `check` where --check asks for one, else nothing."""
        return {} if self.check is None else {"check": self.settings()}

    def attach(self, tts):
        """The recognizer of --asr loaded (once) as the model's (`TTS.asr`)."""
        if self.asr is not None:
            tts.asr = self.asr


@dataclass(frozen=True)
class Speaking:
    """What `Speak` hands the speaking of one text (`cli.speak`) or of a batch file's lines (`cli.batch`): the
    text (None: --text-stream's stdin), the checked outputs ("audio", "codes": an Output, a list of them per
    line, or None) and their format, the request's keywords (voice, seed, settings) and the configs asked."""

    text: Optional[str]
    outs: dict
    fmt: object  # audio.formats' format of --output, or None
    request: dict
    speech: Speech
    streaming: Streaming
    outputs: Outputs


@dataclass(frozen=True)
class Configs:
    """One command line: which job it asks for (--list-speakers, --from-codes, --text-file, or speech) and
    the configs (`cli.generate.job_of` hands each job those it needs)."""

    list_speakers: bool
    from_codes: Optional[str]
    model: Model
    voice: Voice
    speech: Speech
    outputs: Outputs
    streaming: Streaming
    longform: LongForm
    hearing: Hearing

    @classmethod
    def from_click(cls, opts: dict) -> "Configs":
        # a shell leaves ~ as it is in `--output=~/a.wav` and in quotes
        opts = opts | {name: _expanded(opts[name]) for name in PATH_OPTIONS if opts[name] is not None}
        return cls(opts["list_speakers"], opts["from_codes"], Model.take(opts), Voice.take(opts), Speech.take(opts),
                   Outputs.take(opts), Streaming.take(opts), LongForm.take(opts), Hearing.take(opts))

