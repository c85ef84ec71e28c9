"""Request fields -> keyword arguments of `TTS.request`, checked once for HTTP and WebSocket alike.

JSON gives any type for any field; each is checked here so that a wrong one is a 400 naming the
field, never a 500 from deep inside generation.
"""

from ..request import TEXT_MODES
from .limits import ApiError
from .time_stretch import MAX_SPEED, MIN_SPEED

SAMPLING_FIELDS = {"temperature": float, "top_k": int, "top_p": float, "repetition_penalty": float}


def _number(params: dict, name: str, kind, lo=None, hi=None):
    value = params.get(name)
    if value is None:
        return None
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok and kind is int:
        ok = isinstance(value, int) or value.is_integer()
    try:
        value = kind(value) if ok else None
    except OverflowError:  # a JSON integer beyond float range
        value = None
    if value is None:
        raise ApiError(400, f"{name} must be {'an integer' if kind is int else 'a number'}, got "
                       f"{params[name]!r}"[:200], param=name)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ApiError(400, f"{name} must be between {lo} and {hi}, got {value}"[:200], param=name)
    return value


def _string(params: dict, name: str, max_len: int = 64):
    value = params.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > max_len:
        raise ApiError(400, f"{name} must be a string of at most {max_len} characters", param=name)
    return value


def speech_kwargs(tts, voices, params: dict, limits) -> dict:
    """Everything but the text: voice, language, instructions, sampling, seed, frame cap, text mode."""
    kwargs = dict(voices.resolve(params.get("voice")))
    language = _string(params, "language")
    if language is not None and language.lower() not in [name.lower() for name in tts.config.languages]:
        raise ApiError(400, f"unknown language '{language}'; this model knows {', '.join(tts.config.languages)}",
                       param="language")
    instruct = params.get("instructions", params.get("instruct"))
    if instruct is not None and (not isinstance(instruct, str) or len(instruct) > limits.max_input_chars):
        raise ApiError(400, f"instructions must be a string of at most {limits.max_input_chars} characters",
                       param="instructions")
    sampling = params.get("sampling") if isinstance(params.get("sampling"), dict) else {}
    given = {name: _number({**sampling, **params}, name, kind) for name, kind in SAMPLING_FIELDS.items()}
    given["seed"] = _number(params, "seed", int, 0, 2**64 - 1)
    limit = int(tts.generation_config.get("max_new_tokens", 8192))
    given["max_tokens"] = _number(params, "max_new_tokens", int, 1, limit)
    text_mode = _string(params, "text_mode")
    if text_mode is not None and text_mode not in TEXT_MODES:
        raise ApiError(400, f"text_mode must be one of {', '.join(TEXT_MODES)}", param="text_mode")
    # An empty instruction is none; a field left out (None) keeps TTS.request's default.
    given.update(language=language and language.lower(), instruct=instruct or None, text_mode=text_mode)
    return {**kwargs, **{name: value for name, value in given.items() if value is not None}}


def speed(params: dict) -> float:
    value = _number(params, "speed", float)
    if value is None:
        return 1.0
    if not MIN_SPEED <= value <= MAX_SPEED:
        raise ApiError(400, f"speed must be between {MIN_SPEED} and {MAX_SPEED}, got {value:g}", param="speed")
    return value


def input_text(params: dict, limits) -> str:
    text = params.get("input")
    if text is None:
        raise ApiError(400, "input is missing: give the text to speak", param="input", code="missing_input")
    if not isinstance(text, str):
        raise ApiError(400, "input must be a string", param="input")
    if not text.strip():
        raise ApiError(400, "input is empty: give some text to speak", param="input", code="empty_input")
    if len(text) > limits.max_input_chars:
        raise ApiError(400, f"input has {len(text):,} characters; the limit is {limits.max_input_chars:,}",
                       param="input", code="string_above_max_length")
    return text
