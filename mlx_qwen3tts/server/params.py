"""Request fields of HTTP and WebSocket JSON -> keyword arguments of `TTS.request`.

Only parsing lives here: OpenAI's field names to ours, JSON's one number type to an int where a
count is meant, the server's own limits and options (speed, input length). Every check of a
synthesis setting is the request layer's (`mlx_qwen3tts.request`); its errors name fields in its
own words, which `JSON_NAMES` turns into these requests' (`max_tokens` -> `max_new_tokens`).
"""

import base64
import json
from typing import NamedTuple, Optional

from ..audio import formats as audio_formats
from ..request_fields import field_names
from .limits import ApiError
from ..audio.time_stretch import MAX_SPEED, MIN_SPEED

SAMPLING_FIELDS = ("temperature", "top_k", "top_p", "repetition_penalty")
OPENAI_FORMATS = ("mp3", "opus", "aac", "flac", "wav", "pcm")
STREAM_FORMATS = ("audio", "sse")
# The request layer's field names as HTTP requests name them (the others are the same).
JSON_NAMES = {**field_names(text="input", deltas="input", speaker="voice", instruct="instructions",
                            max_tokens="max_new_tokens", x_vector_only="x_vector_only_mode",
                            xvector="speaker_embedding", task="task_type"), "format": "response_format"}
# ... and as the voice upload's form names them (POST /v1/audio/voices).
UPLOAD_NAMES = {**JSON_NAMES, "ref_audio": "audio_sample", "x_vector_only": "x_vector_only"}
# vLLM-Omni's batch-level fields (BatchSpeechRequest): a batch body with any of them at its top level speaks
# its dialect; ours puts shared fields in `defaults`.
OMNI_BATCH_FIELDS = ("voice", "speaker", "instructions", "response_format", "speed", "task_type", "language",
                     "ref_audio", "ref_text", "x_vector_only_mode", "max_new_tokens", "initial_codec_chunk_frames",
                     "non_streaming_mode", "session_id")
SEND_INLINE = ("send the clip in the request as a data: URL (data:audio/wav;base64,...), or save it once with "
               "POST /v1/audio/voices and name it in voice")


def _count(value):
    """A JSON number meant as a count: 5.0 is 5 (JSON has one number type); anything else as given."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _number(params: dict, name: str):
    value = params.get(name)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    try:
        return float(value) if ok else None
    except OverflowError:  # a JSON integer beyond float range
        return None


def reference_audio(value, voices) -> tuple:
    """vLLM-Omni's `ref_audio`: a data: URL holding base64 audio, decoded within the upload limits, as
    (samples, rate). A URL or a server-side path is refused: this server fetches nothing. A tuple is such a
    clip decoded already (JSON makes none: `shared_clips` puts it there)."""
    if isinstance(value, tuple):
        return value
    if isinstance(value, str) and value.startswith("data:"):
        header, comma, payload = value.partition(",")
        if not comma or not header.endswith(";base64"):
            raise ApiError(400, "ref_audio: a data: URL must hold base64 audio (data:audio/wav;base64,...)",
                           param="ref_audio", code="invalid_audio")
        try:
            data = base64.b64decode("".join(payload.split()), validate=True)
        except ValueError:
            raise ApiError(400, "ref_audio: the data: URL's base64 does not decode", param="ref_audio",
                           code="invalid_audio") from None
        return voices.decode_upload(data, field="ref_audio")
    if isinstance(value, str) and value.startswith(("http://", "https://", "file:")):
        raise ApiError(400, f"ref_audio: this server fetches no URLs or server-side files; {SEND_INLINE}",
                       param="ref_audio", code="ref_audio_not_inline")
    raise ApiError(400, f"ref_audio must be one clip as a data: URL; {SEND_INLINE}", param="ref_audio",
                   code="invalid_audio")


def shared_clips(items: list, voices) -> list:
    """The items, each `ref_audio` decoded once for all that give the same one (a batch's top-level clip is in
    every item); one that does not decode is left as given, for each item to refuse it."""
    clips = {}
    for item in items:
        ref = item.get("ref_audio")
        if isinstance(ref, str) and ref not in clips:
            try:
                clips[ref] = reference_audio(ref, voices)
            except ApiError:
                clips[ref] = ref
    return [{**item, "ref_audio": clips[item["ref_audio"]]} if isinstance(item.get("ref_audio"), str) else item
            for item in items]


def voice_kwargs(voices, params: dict) -> dict:
    """The voice: `voice` (a preset, a saved voice or a blend; vLLM-Omni's `speaker` too), or vLLM-Omni's
    reference audio to clone (`ref_audio`) or speaker embedding (`speaker_embedding`), either of which makes
    `voice` unused, as there; with `ref_text`, `x_vector_only_mode` and the `task_type` asked for."""
    ref_audio, embedding = params.get("ref_audio"), params.get("speaker_embedding")
    if ref_audio is None and embedding is None:
        kwargs = dict(voices.resolve(params.get("voice", params.get("speaker"))))
    else:
        kwargs = {"ref_audio": None if ref_audio is None else reference_audio(ref_audio, voices), "xvector": embedding}
    given = {"ref_text": params.get("ref_text"), "x_vector_only": params.get("x_vector_only_mode"),
             "task": params.get("task_type")}
    return {name: value for name, value in {**kwargs, **given}.items() if value is not None}


def text_mode(params: dict):
    """Our `text_mode`, or vLLM-Omni's `non_streaming_mode` (true: the text is read whole before speaking)."""
    value = params.get("non_streaming_mode")
    if params.get("text_mode") is not None or value is None:
        return params.get("text_mode")
    if not isinstance(value, bool):
        raise ApiError(400, f"non_streaming_mode must be true or false, got {value!r}"[:200],
                       param="non_streaming_mode")
    return "non-streaming" if value else "streaming"


def speech_kwargs(voices, params: dict, limits) -> dict:
    """Everything but the text: voice, language, instructions, sampling, seed, frame cap, text mode, chunk sizes,
    as `TTS.request` keywords (a field left out, or null, keeps the request's default)."""
    kwargs = voice_kwargs(voices, params)
    instruct = params.get("instructions", params.get("instruct"))
    if isinstance(instruct, str) and len(instruct) > limits.max_input_chars:
        raise ApiError(400, f"instructions must be at most {limits.max_input_chars:,} characters",
                       param="instructions", code="too_long")
    sampling = params.get("sampling") if isinstance(params.get("sampling"), dict) else {}
    given = {name: {**sampling, **params}.get(name) for name in SAMPLING_FIELDS}
    given.update(top_k=_count(given["top_k"]), seed=_count(params.get("seed")),
                 max_tokens=_count(params.get("max_new_tokens")), language=params.get("language"),
                 instruct=instruct, text_mode=text_mode(params), normalize=params.get("normalize"),
                 markdown=params.get("markdown"), guard=params.get("guard"),
                 first_chunk_frames=_count(params.get("first_chunk_frames")),
                 chunk_frames=_count(params.get("chunk_frames")))
    return {**kwargs, **{name: value for name, value in given.items() if value is not None}}


def speed(params: dict) -> float:
    if params.get("speed") is None:
        return 1.0
    value = _number(params, "speed")
    if value is None:
        raise ApiError(400, f"speed must be a number, got {params['speed']!r}"[:200], param="speed")
    if not MIN_SPEED <= value <= MAX_SPEED:
        raise ApiError(400, f"speed must be between {MIN_SPEED} and {MAX_SPEED}, got {value:g}", param="speed")
    return value


def input_text(params: dict, limits):
    """The `input` field (its checks as text are the request layer's), within the server's length limit."""
    text = params.get("input")
    if text is None:
        raise ApiError(400, "input is missing: give the text to speak", param="input", code="missing_input")
    if isinstance(text, str) and len(text) > limits.max_input_chars:
        raise ApiError(400, f"input has {len(text):,} characters; the limit is {limits.max_input_chars:,} "
                            "(the server's --max-input-chars)",
                       param="input", code="string_above_max_length")
    return text


def offered_formats() -> list:
    """OpenAI's formats this installation encodes (aac needs PyAV, which the server extra brings)."""
    return [f for f in OPENAI_FORMATS if f in audio_formats.FORMATS and audio_formats.available(f)]


def check_format(fmt, allowed=None) -> str:
    allowed = allowed or offered_formats()
    if fmt is None:
        return allowed[0] if "mp3" not in allowed else "mp3"
    if not isinstance(fmt, str) or fmt.lower() not in allowed:
        reason = "is not offered by this server" if fmt in OPENAI_FORMATS else "is not a known format"
        raise ApiError(400, f"response_format '{str(fmt)[:32]}' {reason}; choose one of {', '.join(allowed)}",
                       param="response_format", code="unsupported_format")
    return fmt.lower()


class Speech(NamedTuple):
    """A speech request's JSON body, parsed: what to say (`text`, and `TTS.request`'s other keywords) and
    how the audio goes back (format, speed, `stream_format`: None for one whole file, and `timestamps`:
    every word's time beside the audio, from the server's aligner)."""
    text: str
    kwargs: dict
    fmt: str
    speed: float
    stream_format: Optional[str]
    timestamps: bool = False


def timestamps(params: dict, stream_format: Optional[str]) -> bool:
    value = params.get("timestamps")
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(400, f"timestamps must be true or false, got {value!r}"[:200], param="timestamps")
    if value and stream_format == "audio":
        raise ApiError(400, "timestamps need a whole response (JSON with the audio in base64) or "
                       "stream_format 'sse' (a timing event); raw streamed audio has no place for them",
                       param="timestamps")
    return value


def batch_items(body: dict, max_batch: int) -> list:
    """The `items` of a batch body: a list of 1 to `max_batch` speech request objects."""
    items = body.get("items")
    if not isinstance(items, list) or not items:
        raise ApiError(400, "items must be a non-empty list of speech requests (each as /v1/audio/speech takes it)",
                       param="items")
    if len(items) > max_batch:
        raise ApiError(400, f"items has {len(items)} requests; this server takes at most {max_batch} in one batch "
                            "(--max-batch)", param="items", code="too_many_items")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ApiError(400, f"items[{i}] must be a JSON object", param=f"items[{i}]")
        for name in ("stream_format", "stream"):
            if item.get(name) not in (None, False):
                raise ApiError(400, f"items[{i}].{name}: a batch answers whole files; leave {name} out",
                               param=f"items[{i}].{name}")
    return items


def streamed_as(params: dict):
    """`stream_format`; without one, vLLM-Omni's `stream: true` asks for SSE (as there)."""
    stream = params.get("stream")
    if stream is not None and not isinstance(stream, bool):
        raise ApiError(400, f"stream must be true or false, got {stream!r}"[:200], param="stream")
    given = params.get("stream_format")
    return "sse" if given is None and stream else given


class Batch(NamedTuple):
    """A batch body: its items, each with the batch's shared fields under its own (an item's null keeps the
    batch's), and whether it speaks vLLM-Omni's dialect (answered in its shape, a bad item failing alone)."""
    items: list
    omni: bool


def batch(body: dict, max_batch: int) -> Batch:
    """POST /v1/audio/speech/batch's body: ours, `{"items", "defaults"}` (`defaults`: fields every item takes
    unless it gives its own), or vLLM-Omni's, `{"items", ...}` with those fields at the top level
    (`OMNI_BATCH_FIELDS`; its `response_format` is wav unless given)."""
    items = batch_items(body, max_batch)
    defaults = body.get("defaults")
    flat = {name: body[name] for name in OMNI_BATCH_FIELDS if body.get(name) is not None}
    if defaults is not None and (flat or not isinstance(defaults, dict)):
        raise ApiError(400, "defaults must be a JSON object of the fields every item shares, and the batch's "
                            "other fields (vLLM-Omni's way of sharing them) left out", param="defaults")
    for name in ("stream_format", "stream"):
        if (defaults or {}).get(name) not in (None, False):
            raise ApiError(400, f"defaults.{name}: a batch answers whole files; leave {name} out",
                           param=f"defaults.{name}")
    shared = {"response_format": "wav", **flat} if flat else defaults or {}
    merged = [{**shared, **{name: value for name, value in item.items() if value is not None}} for item in items]
    return Batch(merged, bool(flat))


def speech(params: dict, limits, voices) -> Speech:
    """The body of POST /v1/audio/speech, every field checked that the request layer does not check."""
    text = input_text(params, limits)
    fmt, rate = check_format(params.get("response_format")), speed(params)
    stream_format = streamed_as(params)
    if stream_format is not None and stream_format not in STREAM_FORMATS:
        raise ApiError(400, f"stream_format must be one of {', '.join(STREAM_FORMATS)}", param="stream_format")
    return Speech(text, speech_kwargs(voices, params, limits), fmt, rate, stream_format,
                  timestamps(params, stream_format))


def socket_message(raw) -> dict:
    """A WebSocket text message as the JSON object every message of either dialect is, or a 400 ApiError."""
    try:
        message = json.loads(raw)
    except (TypeError, ValueError):
        message = None
    if not isinstance(message, dict):
        raise ApiError(400, "messages must be JSON objects", code="invalid_json")
    return message
