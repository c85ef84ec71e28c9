"""One synthesis request, checked in one place before any model work: what every front end (the
Python API, the CLI, HTTP, WebSocket, Wyoming) builds and the engine and the decode loop trust.

`Asked` declares once every field a caller may ask for, as given (unchecked); `build_request` turns
one into a frozen `Request`, or raises `InputError` naming the field in these neutral words (`text`,
`language`, `speaker`, `max_tokens`, `ref_text`, ...); each front end words them its own way
(`InputError.worded`) through a table made by `field_names`, so a new field is named everywhere. It is given the
model's facts (`config.ModelFacts`) and a `voices.VoiceMaker`, never the `TTS` facade. Things the
caller should hear about but that are not errors (an instruction the model ignores) travel as
`Request.notices`, shown as each front end shows such notes.
"""

import math
import re
from dataclasses import dataclass, replace
from numbers import Integral, Real
from pathlib import Path
from typing import Iterable, Iterator, Optional, Tuple

import mlx.core as mx
import numpy as np

from .model.config import VARIANT_NAMES, ModelFacts, model_id
from .request_fields import Asked
from .errors import InputError
from .model.sampling_config import SamplingConfig
from .languages import LANGUAGE_CODES, language_key
from .text.reading import has_words
from .audio.reference import load_reference_audio, transcript_notice
from .voices import Blend, Voice, VoiceChoice, VoiceMaker

TEXT_MODES = ("streaming", "non-streaming")
# Longer whole texts are refused: their audio (and its joining) would be held in memory at once.
MAX_TEXT_CHARS = 20_000
# Control characters (Unicode Cc) except tab and newline: not speakable, removed before tokenizing.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# A str holding a UTF-16 surrogate is not Unicode text (it cannot be encoded): refused, not guessed at.
_SURROGATE = re.compile("[\ud800-\udfff]")
# Text of punctuation, dashes, symbols or emoji alone: nothing a voice could say (refused, not narrated as noise).
NO_WORDS = "{{{field}}} has no words to speak (only punctuation, symbols or emoji); give some text to speak"
DEFAULT_VOICE = "default"  # a speaker name meaning the model's default voice, on every model
DESIGN_EXAMPLE = "A warm, calm woman in her thirties, speaking slowly and clearly"
# What each sampling setting must be (the code predictor's `cp_` settings as the talker's).
_SETTINGS = {"temperature": (Real, "a number >= 0 (0 = greedy)", lambda v: v >= 0),
             "top_k": (Integral, "a whole number >= 0 (0 = no top-k filter)", lambda v: v >= 0),
             "top_p": (Real, "a number in (0, 1]", lambda v: 0 < v <= 1),
             "repetition_penalty": (Real, "a number > 0 (1 = none)", lambda v: v > 0)}


@dataclass(frozen=True)
class Request:
    text: Optional[str]  # whole text (cleaned); None when `deltas` is given
    deltas: Optional[Iterable[str]]  # text arriving as deltas, cleaned and checked as they come; None for whole text
    voice: Voice  # resolved once: preset speaker, cloned/saved voice, or default
    language: str = "auto"  # a language name of the model's, or "auto"
    instruct: Optional[str] = None  # None where the model ignores it (then a notice says so)
    text_mode: str = "streaming"  # "streaming" | "non-streaming" (deltas imply streaming)
    sampling: SamplingConfig = SamplingConfig()  # generation_config defaults + user overrides, checked
    seed: Optional[int] = None  # integer in [0, 2**64)
    max_frames: Optional[int] = None  # user cap (<= generation_config max_new_tokens); None: budget from text
    first_chunk_frames: int = 1
    chunk_frames: Optional[int] = None  # None: later chunks grow (audio.chunks.chunk_length)
    notices: Tuple[str, ...] = ()  # for the caller to show (e.g. an instruction the model ignores)
    guard: bool = True  # the runaway guard watches its frames (loop/runaway.py)


def shown(value) -> str:
    """A value for a message: its repr, cut short (a JSON number can have hundreds of digits)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def clean_text(text, field: str = "text", what: Optional[str] = None) -> str:
    """`text` without control characters (newline and tab kept); InputError unless it is Unicode text."""
    what = what or "{" + field + "}"
    if not isinstance(text, str):
        raise InputError(f"{what} must be a string, got {type(text).__name__}", field=field)
    bad = _SURROGATE.search(text)
    if bad:
        raise InputError(f"{what} holds a lone surrogate (U+{ord(bad.group()):04X}) at character {bad.start()}, "
                         "which is not Unicode text; send valid UTF-8", field=field)
    return _CONTROL.sub("", text)


def _whole_text(text) -> str:
    text = clean_text(text)
    if not text.strip():
        raise InputError("{text} is empty; give some text to speak", field="text", code="empty_input")
    if not has_words(text):
        raise InputError(NO_WORDS.format(field="text"), field="text", code="empty_input")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(f"{{text}} has {len(text):,} characters; at most {MAX_TEXT_CHARS:,} are spoken in one call "
                         "(20-60 minutes of speech); long-form narration ({mlx_qwen3tts.longform}) takes text of any "
                         "length", field="text", code="too_long", others=("mlx_qwen3tts.longform",))
    return text


def checked_deltas(deltas) -> Iterator[str]:
    """The deltas cleaned as they arrive; InputError for one that is not text, and at the end when
    none held anything to say (no words: only spaces, punctuation, symbols or emoji)."""
    blank = words = False
    for delta in deltas:
        delta = clean_text(delta, "deltas", "a text delta")
        blank = blank or bool(delta.strip())
        words = words or has_words(delta)
        yield delta
    if not blank:
        raise InputError("{deltas} is empty; give some text to speak", field="deltas", code="empty_input")
    if not words:
        raise InputError(NO_WORDS.format(field="deltas"), field="deltas", code="empty_input")


def _integer(value, name: str, low: int, high: int, *, why: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or not low <= value <= high:
        raise InputError(f"{{{name}}} must be an integer from {low} to {high}{why}, got {shown(value)}", field=name)
    return int(value)


def language_name(facts: ModelFacts, language) -> str:
    """The model's name for `language`: a name ('English', any case) or an ISO 639-1 code ('en',
    'en-US', 'en_us'); None or '' is 'auto' (the model detects it)."""
    if language is None:
        return "auto"
    if not isinstance(language, str):
        raise InputError(f"{{language}} must be a string, got {type(language).__name__}", field="language")
    key = language_key(language)
    if key not in facts.languages:
        codes = [LANGUAGE_CODES[name] for name in facts.languages if name in LANGUAGE_CODES]
        raise InputError(f"{{language}} {shown(language)} is unknown; choose one of: {', '.join(facts.languages)}"
                         + (f" (or a code: {', '.join(codes)})" if codes else ""), field="language",
                         code="unknown_language")
    return key


def speaker_name(facts: ModelFacts, speaker) -> Optional[str]:
    """The preset speaker named by `speaker` (trimmed, any case; lower case), or None for the model's
    default voice ('default', '' or None)."""
    if speaker is None:
        return None
    if not isinstance(speaker, str):
        raise InputError(f"{{speaker}} must be a name (a string), got {type(speaker).__name__}", field="speaker")
    name = speaker.strip().lower()
    if name in facts.speakers:
        return name
    if name in ("", DEFAULT_VOICE):
        return None
    if facts.variant == "voice_design":
        raise InputError(f"{{speaker}} {shown(speaker)}: a VoiceDesign model has no preset speakers; it speaks in the "
                         f"voice its instruction ({{instruct}}) describes, e.g. {DESIGN_EXAMPLE!r}", field="speaker",
                         code="voice_not_found", others=("instruct",))
    if not facts.speakers:
        raise InputError(f"{{speaker}} {shown(speaker)} is unknown: preset speakers come with CustomVoice models and "
                         f"this is the {facts.name} model; use '{DEFAULT_VOICE}', or clone a voice from reference "
                         "audio ({ref_audio})", field="speaker", code="voice_not_found", others=("ref_audio",))
    raise InputError(f"{{speaker}} {shown(speaker)} is unknown; choose one of: {', '.join(facts.speakers)} "
                     f"(or '{DEFAULT_VOICE}')", field="speaker", code="voice_not_found")


def clone_voice(facts: ModelFacts, maker: VoiceMaker, ref_audio, *, ref_text=None, x_vector_only=False,
                sample_rate=None) -> Tuple[Voice, Tuple[str, ...]]:
    """A Voice cloned from reference audio (path, array + rate, or (array, rate)), and its notices."""
    choice, notices = _reference(facts, ref_audio, ref_text, x_vector_only, sample_rate, maker.hears)
    return maker.make(choice, facts), notices


def _reference(facts: ModelFacts, ref_audio, ref_text, x_vector_only,
               sample_rate=None, hears: bool = False) -> Tuple[VoiceChoice, Tuple[str, ...]]:
    """Reference audio to clone, read and checked (24 kHz mono), with its transcript (None: the x-vector
    alone; none given where the maker `hears`: the recognizer's), as a VoiceChoice; and its notices."""
    if facts.variant != "base":
        raise InputError(_needs_base("voice cloning", facts), field="ref_audio", code="model_not_supported")
    if not isinstance(x_vector_only, (bool, np.bool_)):
        raise InputError(f"{{x_vector_only}} must be true or false, got {shown(x_vector_only)}",
                         field="x_vector_only")
    if ref_text is not None:
        ref_text = clean_text(ref_text, "ref_text")
    # The audio first: a missing or unreadable file is the first thing to fix, before its transcript.
    audio = load_reference_audio(ref_audio, sample_rate)
    if x_vector_only:
        return VoiceChoice(ref_audio=audio), ()
    if not (ref_text and ref_text.strip()) and hears:
        return VoiceChoice(ref_audio=audio, hear=True), ()
    if not (ref_text and ref_text.strip()):
        raise InputError("in-context cloning needs the transcript of the reference audio ({ref_text}); "
                         "or clone from the audio alone ({x_vector_only})", field="ref_text",
                         others=("x_vector_only",))
    return VoiceChoice(ref_audio=audio, ref_text=ref_text), transcript_notice(audio, ref_text)


def _needs_base(what: str, facts: ModelFacts) -> str:
    """`what` needs a Base model: the message naming the one of this model's size."""
    return f"{what} needs a Base model and this is the {facts.name} model: use {model_id('base', facts.size)}"


def _check_cloned(facts: ModelFacts, voice: Voice):
    """A cloned or blended Voice (maybe built by hand) must fit this model, as a cloned or loaded one does."""
    if voice.variant != facts.variant:
        what = "a cloned voice" if voice.variant == "base" else "a blend of CustomVoice presets"
        raise InputError(f"{what} needs a {VARIANT_NAMES.get(voice.variant, voice.variant)} model and this is the "
                         f"{facts.name} model: use {model_id(voice.variant, facts.size)}", field="voice",
                         code="model_not_supported")
    x = voice.xvector
    if not isinstance(x, mx.array) or x.shape != (facts.hidden_size,) or not mx.issubdtype(x.dtype, mx.floating):
        raise InputError(f"{{voice}} has an x-vector of {getattr(x, 'shape', type(x).__name__)}; this model's are "
                         f"({facts.hidden_size},) floats", field="voice")
    if voice.ref_codes is not None:
        checked_codes(facts, voice.ref_codes, "voice")
        if voice.ref_text_ids is None:
            raise InputError("{voice} has reference codes without the ids of their transcript", field="voice")


BLEND_EXAMPLE = "aiden:0.7+vivian:0.3"


def blend_parts(spec, field: str = "voice") -> Optional[Tuple[Tuple[object, float], ...]]:
    """The (voice, weight) pairs of a blend, weights normalised to sum 1, or None when `spec` is not one.
    A blend is a string of parts joined by '+', each 'name' or 'name:weight' (a part without a weight weighs
    1), with a ':' or '+' in it (a voice name has neither); a list of {"voice": name, "weight": w} objects or
    (voice, weight) pairs; or a `Blend`. Weights must be finite numbers > 0."""
    if isinstance(spec, Blend):
        spec = list(spec.parts)
    if isinstance(spec, str):
        if "+" not in spec and ":" not in spec:
            return None
        pairs = []
        for part in spec.split("+"):
            name, _, weight = part.partition(":")
            if not name.strip():
                raise InputError(f"{{{field}}} {shown(spec)} has an empty part; write a blend as "
                                 f"{BLEND_EXAMPLE!r}", field=field, code="invalid_blend")
            try:
                number = float(weight) if weight.strip() else 1.0
            except ValueError:
                raise InputError(f"{{{field}}} {shown(spec)}: the weight of {name.strip()!r} must be a number, "
                                 f"got {weight.strip()!r}; write a blend as {BLEND_EXAMPLE!r}", field=field,
                                 code="invalid_blend") from None
            pairs.append((name.strip(), number))
    elif isinstance(spec, (list, tuple)):
        pairs = [_blend_pair(item, field) for item in spec]
    else:
        return None
    if not pairs:
        raise InputError(f"{{{field}}} is an empty blend; give at least one voice", field=field, code="invalid_blend")
    for name, weight in pairs:
        good = isinstance(weight, Real) and not isinstance(weight, bool)
        if not (good and math.isfinite(weight) and weight > 0):
            raise InputError(f"{{{field}}}: the weight of {shown(name)} must be a finite number > 0, got "
                             f"{shown(weight)}", field=field, code="invalid_blend")
    total = math.fsum(w for _, w in pairs)
    return tuple((name, float(w) / total) for name, w in pairs)


def _blend_pair(item, field: str) -> tuple:
    if isinstance(item, dict) and set(item) <= {"voice", "weight"} and "voice" in item:
        return item["voice"], item.get("weight", 1.0)
    if isinstance(item, (list, tuple)) and len(item) == 2:
        return tuple(item)
    raise InputError(f"{{{field}}}: each part of a blend must be {{\"voice\": NAME, \"weight\": W}}, got "
                     f"{shown(item)}", field=field, code="invalid_blend")


def _blend_choice(facts: ModelFacts, parts, field: str) -> VoiceChoice:
    """A blend's parts checked: all preset speakers (a CustomVoice model), or all x-vector voices (saved files
    or Voices, of this model's size); never an in-context voice."""
    parts = [(part.speaker if isinstance(part, Voice) and part.speaker is not None else part, w) for part, w in parts]
    presets = [isinstance(part, str) for part, _ in parts]
    if any(presets) and not all(presets):
        raise InputError(f"{{{field}}} mixes preset speakers with cloned or saved voices: a blend takes one kind, "
                         "presets (CustomVoice models) or saved voices (x-vectors cloned on Base models, or "
                         "saved blends)", field=field, code="invalid_blend")
    checked = []
    for part, weight in parts:
        if isinstance(part, str) and not part.strip():
            raise InputError(f"{{{field}}} has a blend part with no name", field=field, code="invalid_blend")
        if isinstance(part, str):
            name = speaker_name(facts, part)
            if name is None:
                raise InputError(f"{{{field}}}: {shown(part)} names the model's default voice, which cannot be "
                                 "blended; name preset speakers", field=field, code="invalid_blend")
            checked.append((name, weight))
        elif isinstance(part, (Path, Voice)):
            if isinstance(part, Voice):
                if part.ref_codes is not None:
                    raise InputError(f"{{{field}}}: an in-context voice speaks from its reference audio and "
                                     "transcript rather than a vector, so it cannot be blended; clone it from the "
                                     "audio alone ({x_vector_only}) to blend it", field=field,
                                     others=("x_vector_only",), code="voice_not_blendable")
                if part.xvector is None:
                    raise InputError(f"{{{field}}}: a blend part must be a preset speaker or a cloned voice, got an "
                                     "empty Voice", field=field, code="invalid_blend")
                _check_cloned(facts, part)
            checked.append((part, weight))
        else:
            raise InputError(f"{{{field}}}: a blend part must be a preset speaker's name, a saved voice or a Voice, "
                             f"got {type(part).__name__}", field=field, code="invalid_blend")
    if all(presets) and facts.variant != "custom_voice":  # speaker_name refused unknown names already
        raise InputError(f"{{{field}}}: blending preset speakers needs a CustomVoice model", field=field,
                         code="model_not_supported")
    if not all(presets) and facts.variant not in ("base", "custom_voice"):  # the others are checked as loaded
        raise InputError(_needs_base("blending cloned voices", facts), field=field, code="model_not_supported")
    return VoiceChoice(blend=tuple(checked))


def resolve_voice(facts: ModelFacts, maker: VoiceMaker, **given) -> Tuple[Voice, Tuple[str, ...]]:
    """The Voice for these arguments (`choose_voice`'s) and its notices."""
    choice, notices = choose_voice(facts, **given, hears=maker.hears)
    return maker.make(choice, facts), notices


def choose_voice(facts: ModelFacts, *, speaker=None, voice=None, ref_audio=None, ref_text=None,
                 x_vector_only=False, xvector=None, hears: bool = False) -> Tuple[VoiceChoice, Tuple[str, ...]]:
    """The voice these arguments choose (a preset speaker, a saved voice as a path or Voice, reference
    audio, read and checked, or a speaker embedding given whole), every argument checked, and its notices;
    `VoiceMaker.make` then loads, clones or mixes it. A blend (`blend_parts`) is given as `speaker` (preset
    names) or `voice` (a `Blend`, a list of pairs, or a string of saved voice files: an existing file is a
    file, whatever its name)."""
    if xvector is not None:
        if speaker is not None or voice is not None or ref_audio is not None or ref_text:
            raise InputError("a speaker embedding ({xvector}) is the whole voice: leave out {speaker}, {voice}, "
                             "{ref_audio} and {ref_text}", field="xvector",
                             others=("speaker", "voice", "ref_audio", "ref_text"))
        return VoiceChoice(voice=speaker_embedding(facts, xvector)), ()
    blend = blend_parts(speaker, "speaker") if isinstance(speaker, (str, list, tuple)) else None
    field = "speaker"
    if blend is None and isinstance(voice, (Blend, list, tuple)):
        blend, field = blend_parts(voice, "voice"), "voice"
    if blend is None and isinstance(voice, str) and not Path(voice).exists():  # "a.safetensors:0.5+b.safetensors"
        blend, field = blend_parts(voice, "voice"), "voice"
        blend = None if blend is None else tuple((Path(path), weight) for path, weight in blend)
    if blend is not None:
        other = "voice" if field == "speaker" else "speaker"
        if (voice if field == "speaker" else speaker) is not None or ref_audio is not None or ref_text or x_vector_only:
            raise InputError(f"a blend ({{{field}}}) is the whole voice: leave out {{{other}}}, {{ref_audio}}, "
                             "{ref_text} and {x_vector_only}", field=field,
                             others=(other, "ref_audio", "ref_text", "x_vector_only"))
        return _blend_choice(facts, blend, field), ()
    name = speaker_name(facts, speaker)
    if ref_audio is not None and voice is not None:
        raise InputError("give either a saved voice ({voice}) or reference audio ({ref_audio}), not both",
                         field="voice", others=("ref_audio",))
    if (ref_text or x_vector_only) and voice is None and ref_audio is None:
        raise InputError("{ref_text} and {x_vector_only} need reference audio ({ref_audio})",
                         field="ref_text" if ref_text else "x_vector_only", others=("ref_text", "x_vector_only",
                                                                                     "ref_audio"))
    if voice is not None and not isinstance(voice, (str, Path, Voice)):
        raise InputError(f"{{voice}} must be a saved voice file or a Voice, got {type(voice).__name__}", field="voice")
    if voice is not None and name:
        raise InputError("a cloned voice ({voice}) and a preset speaker ({speaker}) cannot be combined",
                         field="speaker", others=("voice",))
    if isinstance(voice, (str, Path)):
        return VoiceChoice(path=Path(voice)), ()
    if voice is not None and voice.speaker is not None:  # a Voice naming a preset speaker
        name, voice = speaker_name(facts, voice.speaker), None
    if voice is not None and voice.xvector is not None:
        _check_cloned(facts, voice)
    if ref_audio is not None:
        return _reference(facts, ref_audio, ref_text, x_vector_only, hears=hears)
    if voice is None and facts.variant == "custom_voice":
        name = name or facts.default_speaker
        if name is None:
            raise InputError("this CustomVoice model lists no speakers in its config.json", field="speaker")
    return VoiceChoice(speaker=name, voice=voice), ()


def speaker_embedding(facts: ModelFacts, xvector) -> Voice:
    """A Voice of an x-vector given as numbers (a Base model's: as many as its hidden size, all finite)."""
    if facts.variant != "base":
        raise InputError(_needs_base("a speaker embedding ({xvector})", facts), field="xvector",
                         code="model_not_supported")
    try:  # a ragged list ([[1, 2], [3]]) is refused by numpy: the same refusal as any other non-list
        values = np.asarray(xvector) if isinstance(xvector, (list, tuple, np.ndarray)) else None
    except (ValueError, TypeError):
        values = None
    if values is None or values.ndim != 1 or values.dtype.kind not in "fiu":
        raise InputError(f"{{xvector}} must be a list of numbers, got {shown(xvector)}", field="xvector")
    if values.shape[0] != facts.hidden_size:
        raise InputError(f"{{xvector}} has {values.shape[0]} numbers; this model's speaker embeddings have "
                         f"{facts.hidden_size} (the {facts.name} model's hidden size)", field="xvector")
    if not np.isfinite(values.astype(np.float64)).all():
        raise InputError("{xvector} holds a number that is not finite (NaN or infinity)", field="xvector")
    return Voice(xvector=mx.array(values.astype(np.float32)))


TASK_KEYS = {name.lower(): variant for variant, name in VARIANT_NAMES.items()}  # "customvoice" -> "custom_voice"


def task_variant(facts: ModelFacts, task) -> Optional[str]:
    """The model kind a request asks for ('Base', 'CustomVoice', 'VoiceDesign', as the model ids write them;
    any case, '-' and '_' ignored) as this model's variant, or None when it asks for none; InputError naming
    this model's task when it asks for another."""
    if task is None:
        return None
    key = re.sub("[^a-z]", "", task.lower()) if isinstance(task, str) else None
    if key not in TASK_KEYS:
        raise InputError(f"{{task}} must be one of {', '.join(VARIANT_NAMES.values())}, got {shown(task)}",
                         field="task")
    asked, ours = VARIANT_NAMES[TASK_KEYS[key]], VARIANT_NAMES[facts.variant]
    if TASK_KEYS[key] != facts.variant:
        raise InputError(f"{{task}} {asked} needs a {asked} checkpoint and this is the {facts.name} model, whose "
                         f"task is {ours}: ask for {ours} (or leave {{task}} out), or serve a {asked} checkpoint",
                         field="task", code="model_not_supported")
    return TASK_KEYS[key]


def _task_needs(task: Optional[str], a: Asked, instruct: Optional[str]):
    """What a task asked for by name needs: VoiceDesign an instruction, Base a voice to speak in."""
    if task == "voice_design" and not instruct:
        raise InputError("{task} VoiceDesign speaks in the voice its instruction describes: give one ({instruct}), "
                         f"e.g. {DESIGN_EXAMPLE!r}", field="instruct", others=("task",))
    if task == "base" and a.ref_audio is None and a.voice is None and a.xvector is None:
        raise InputError("{task} Base clones a voice: give reference audio ({ref_audio}) with its transcript "
                         "({ref_text}), a speaker embedding ({xvector}) or a saved voice ({voice})",
                         field="ref_audio", others=("task", "ref_text", "xvector", "voice"))


def instructions_honoured(facts: ModelFacts) -> bool:
    """Whether the model follows an instruction: VoiceDesign and the 1.7B CustomVoice do (as upstream)."""
    return not (facts.variant == "base" or (facts.variant == "custom_voice" and facts.size == "0b6"))


def _instruct(facts: ModelFacts, instruct) -> Tuple[Optional[str], Tuple[str, ...]]:
    """The instruction to use (None where the model ignores it) and the notice saying so."""
    if instruct is not None:
        instruct = clean_text(instruct, "instruct")
    if not (instruct and instruct.strip()):
        if facts.variant == "voice_design":  # legal, but it misses what the model is for
            return None, ("a VoiceDesign model speaks in the voice its instruction describes, and none was given: "
                          f"the voice is left to chance; describe one, e.g. {DESIGN_EXAMPLE!r}",)
        return None, ()
    if not instructions_honoured(facts):
        what = "Base models ignore" if facts.variant == "base" else "the 0.6B CustomVoice model ignores"
        return None, (f"{what} instructions (as upstream does); the instruction is not used",)
    return instruct, ()


def _text_and_mode(facts: ModelFacts, text, deltas, text_mode) -> tuple:
    if (text is None) == (deltas is None):
        raise InputError("give the text either whole or as deltas, not both" if text is not None
                         else "no text: give some text to speak", field="text")
    if text is not None:
        text_mode = facts.default_text_mode if text_mode is None else text_mode
        if text_mode not in TEXT_MODES:
            raise InputError(f"{{text_mode}} must be streaming or non-streaming, got {shown(text_mode)}",
                             field="text_mode")
        return _whole_text(text), None, text_mode
    if isinstance(deltas, (str, bytes)) or not hasattr(deltas, "__iter__"):
        raise InputError("{deltas} must be an iterable of str (text as it is written)", field="deltas")
    if text_mode not in (None, "streaming"):
        raise InputError("text given as deltas ({deltas}) needs the streaming text mode ({text_mode})",
                         field="text_mode", others=("deltas",))
    return None, checked_deltas(deltas), "streaming"


def _sampling(facts: ModelFacts, sampling, **asked) -> SamplingConfig:
    if sampling is not None and not isinstance(sampling, SamplingConfig):
        raise InputError(f"{{sampling}} must be a SamplingConfig, got {type(sampling).__name__}", field="sampling")
    return sampling_settings(sampling or facts.sampling, **asked)


def sampling_settings(base: SamplingConfig, temperature=None, top_k=None, top_p=None,
                      repetition_penalty=None) -> SamplingConfig:
    """`base` with a request's settings (None keeps base's); temperature, top_k and top_p set the code
    predictor's too, so a temperature of 0 is greedy throughout. InputError names the first setting out of
    range, base's own included."""
    changes = {} if repetition_penalty is None else {"repetition_penalty": repetition_penalty}
    for name, value in (("temperature", temperature), ("top_k", top_k), ("top_p", top_p)):
        if value is not None:
            changes[name] = changes["cp_" + name] = value
    settings = replace(base, **changes)
    for name, value in vars(settings).items():
        _check_setting(name, value)
    return settings


def _check_setting(name: str, value):
    """Bools, strings, NaN/inf and (for top_k) fractions refused with one message naming the setting."""
    kind, wanted, ok = _SETTINGS[name.removeprefix("cp_")]
    try:
        good = isinstance(value, kind) and not isinstance(value, bool) and math.isfinite(value) and ok(value)
    except OverflowError:  # an integer beyond float range (JSON allows any)
        good = False
    if not good:
        raise InputError(f"{{{name}}} must be {wanted}, got {shown(value)}", field=name)


def _as_spoken(text: Optional[str], deltas, language: str, normalize, lexicon, markdown=False) -> tuple:
    """The text (whole, or its deltas) as the model should say it: with `markdown`, Markdown read as a listener
    hears it; the lexicon's respellings (a `Lexicon` or its TSV file); then, with `normalize`, numbers, dates,
    symbols and abbreviations as words in `language` (with 'auto', each paragraph's own: `text.reading`)."""
    from .text.reading import spoken, spoken_deltas

    for name, value in (("normalize", normalize), ("markdown", markdown)):
        if not isinstance(value, (bool, np.bool_)):
            raise InputError(f"{{{name}}} must be true or false, got {shown(value)}", field=name)
    if text is None:
        if markdown or lexicon is not None:
            raise InputError("{lexicon} and {markdown} need the whole text, not deltas",
                             field="markdown" if markdown else "lexicon", others=("lexicon", "markdown"))
        return None, spoken_deltas(deltas, language) if normalize else deltas
    if markdown:  # markdown-it and the lexicon's module: imported when asked for (a first request paid ~90 ms)
        from .text.markdown import as_heard

        text = as_heard(text)
        if not has_words(text):
            raise InputError("{text} has no words to speak once read as Markdown", field="text")
    if lexicon is not None:
        from .text.lexicon import Lexicon, read_lexicon

        if isinstance(lexicon, (str, Path)):
            lexicon = read_lexicon(lexicon)
        if not isinstance(lexicon, Lexicon):
            raise InputError(f"{{lexicon}} must be a TSV file or a Lexicon, got {type(lexicon).__name__}",
                             field="lexicon")
        text = lexicon.apply(text)
    if normalize:
        text = spoken(text, language)
        if not has_words(text):
            raise InputError(NO_WORDS.format(field="text"), field="text", code="empty_input")
    return text, None


def spoken_text(text, language: str = "auto", normalize=True, lexicon=None) -> str:
    """A whole text checked and made what the model is given, as `build_request` makes it (no model needed:
    the command line's dry run)."""
    return _as_spoken(_whole_text(text), None, language, normalize, lexicon)[0]


def build_request(facts: ModelFacts, maker: VoiceMaker, asked: Asked) -> Request:
    """A complete, valid Request from what was asked; raises InputError naming the first bad field. Every
    argument is checked (reference audio read) before a voice is loaded or cloned, so a bad number is refused
    before any reference audio is encoded."""
    a = asked
    text, deltas, text_mode = _text_and_mode(facts, a.text, a.deltas, a.text_mode)
    task = task_variant(facts, a.task)
    language = language_name(facts, a.language)
    sampling = _sampling(facts, a.sampling, temperature=a.temperature, top_k=a.top_k, top_p=a.top_p,
                         repetition_penalty=a.repetition_penalty)
    max_tokens = None
    if a.max_tokens is not None:
        max_tokens = _integer(a.max_tokens, "max_tokens", 1, facts.max_new_tokens,
                              why=" (max_new_tokens in generation_config.json)")
    seed = None if a.seed is None else _integer(a.seed, "seed", 0, 2**64 - 1)
    if not isinstance(a.guard, bool):
        raise InputError(f"{{guard}} must be true or false, got {shown(a.guard)}", field="guard")
    first_chunk_frames = _integer(a.first_chunk_frames, "first_chunk_frames", 1, 2**31)
    chunk_frames = None if a.chunk_frames is None else _integer(a.chunk_frames, "chunk_frames", 1, 2**31)
    instruct, instruct_notices = _instruct(facts, a.instruct)
    _task_needs(task, a, instruct)
    if a.normalize is not False or a.markdown or a.lexicon is not None:  # normalize=False: the text as given
        text, deltas = _as_spoken(text, deltas, language, a.normalize, a.lexicon, a.markdown)
    # VoiceDesign asked for by name speaks the voice its instruction describes: a speaker named beside it (a
    # client's default) is not used, as vLLM-Omni does not use it.
    speaker = None if task == "voice_design" else a.speaker
    chosen, voice_notices = choose_voice(facts, speaker=speaker, voice=a.voice, ref_audio=a.ref_audio,
                                         ref_text=a.ref_text, x_vector_only=a.x_vector_only, xvector=a.xvector,
                                         hears=maker.hears)
    # Everything is checked: the work.
    voice = maker.make(chosen, facts)
    return Request(text=text, deltas=deltas, voice=voice, language=language, instruct=instruct,
                   text_mode=text_mode, sampling=sampling, seed=seed, max_frames=max_tokens,
                   first_chunk_frames=first_chunk_frames, chunk_frames=chunk_frames,
                   notices=voice_notices + instruct_notices, guard=a.guard)


def checked_codes(facts: ModelFacts, codes, field: str = "codes") -> mx.array:
    """`codes` as (frames, code groups) int32, every code within its codebook; InputError otherwise."""
    try:
        array = codes if isinstance(codes, mx.array) else mx.array(np.asarray(codes))
    except (TypeError, ValueError):
        raise InputError(f"{{{field}}} must be an array of integer codes, got {type(codes).__name__}",
                         field=field) from None
    groups, size = facts.code_groups, facts.codebook_size
    if array.ndim != 2 or array.shape[1] != groups:
        raise InputError(f"{{{field}}} must have the shape (frames, {groups}), got {tuple(array.shape)}", field=field)
    if not mx.issubdtype(array.dtype, mx.integer):
        raise InputError(f"{{{field}}} must be integers, got {array.dtype}", field=field)
    if array.size and not (mx.min(array).item() >= 0 and mx.max(array).item() < size):
        raise InputError(f"{{{field}}} must be in 0..{size - 1} (the codebook size is {size}), got values from "
                         f"{mx.min(array).item()} to {mx.max(array).item()}", field=field)
    return array.astype(mx.int32)
