"""vLLM-Omni's `session.config` (its WebSocket `/v1/audio/speech/stream`), parsed into our request's keywords.

Its fields, flat in the message: `voice` (or `speaker`), `task_type`, `language`, `instructions`,
`response_format`, `speed`, `max_new_tokens`, `seed`, `ref_audio` (a `data:` URL with the audio in base64),
`ref_text`, `x_vector_only_mode`, `stream_audio`, `word_timestamps`, `streaming_mode`; ours beside them where
the message has room (`temperature`, `top_k`, `top_p`, `repetition_penalty`, a blend or a saved voice as
`voice`). Every check of a synthesis setting stays the request layer's; this only parses and names.
"""

import base64
import binascii
from dataclasses import dataclass

from ..errors import InputError
from ..request import clone_voice
from ..request_fields import field_names
from . import params as fields
from .engine_client import build, engine_error
from .limits import ApiError
from .piece_timing import WordTimer
from .voice_store import clone_kwargs

# The request layer's fields as these sessions name them.
OMNI_NAMES = field_names(text="text", deltas="text", speaker="voice", instruct="instructions",
                         max_tokens="max_new_tokens", x_vector_only="x_vector_only_mode")
TASKS = {"CustomVoice": "custom_voice", "VoiceDesign": "voice_design", "Base": "base"}
MODES = ("none", "token_level", "sentence_commit")
PASSED = ("language", "instructions", "max_new_tokens", "seed", *fields.SAMPLING_FIELDS)


@dataclass(frozen=True)
class OmniConfig:
    """A session's settings: the request's keywords and how its audio goes back."""
    kwargs: dict
    fmt: str = "wav"
    speed: float = 1.0
    stream_audio: bool = False
    word_timestamps: bool = False
    mode: str = "none"  # "none": the text of an utterance is spoken once input.done comes


def _flag(params: dict, name: str) -> bool:
    value = params.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(400, f"{name} must be true or false, got {value!r}"[:200], param=name)
    return value


def _task(server, params: dict):
    task = params.get("task_type")
    if task is None:
        return None
    if task not in TASKS:
        raise ApiError(400, f"task_type must be one of {', '.join(TASKS)}, got {task!r}"[:200], param="task_type")
    variant = server.tts.variant
    if TASKS[task] != variant:
        served = next(name for name, v in TASKS.items() if v == variant)
        raise ApiError(400, f"task_type '{task}' needs a {task} checkpoint; this server runs {server.model_id}, a "
                            f"{served} model: send task_type '{served}' or leave it out", param="task_type",
                       code="task_type_mismatch")
    return task


def reference_clip(server, ref_audio) -> tuple:
    """(samples, rate) of `ref_audio`, a `data:` URL with the audio in base64; anything else is refused."""
    if not isinstance(ref_audio, str) or not ref_audio.startswith("data:") or "," not in ref_audio:
        shown = ref_audio.split(":", 1)[0] + ":" if isinstance(ref_audio, str) and ":" in ref_audio[:8] else "this"
        raise ApiError(400, f"ref_audio: a {shown[:8]} reference is not fetched (this server reads no URLs and no "
                            "server files); send the clip as a data: URL (data:audio/wav;base64,...), or upload it "
                            "to POST /v1/audio/voices and name it as voice", param="ref_audio", code="invalid_audio")
    try:
        data = base64.b64decode(ref_audio.split(",", 1)[1], validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, "ref_audio: the data: URL's audio is not valid base64", param="ref_audio",
                       code="invalid_audio") from None
    try:
        return server.voices.decode_upload(data)
    except ApiError as e:
        raise ApiError(e.status, e.message.replace("audio_sample", "ref_audio"), param="ref_audio",
                       code=e.code) from None


def _cloned(server, params: dict, samples, rate):
    """The voice cloned from the clip (on the server's MLX thread, as every clone is)."""
    if params.get("ref_text") is not None and not isinstance(params["ref_text"], str):
        raise ApiError(400, "ref_text must be a string", param="ref_text")
    kwargs = clone_kwargs(params.get("ref_text"), _flag(params, "x_vector_only_mode"))
    try:
        voice, _ = clone_voice(server.tts.facts, server.tts.voices, (samples, rate), **kwargs)
    except InputError as e:
        raise engine_error(e, OMNI_NAMES) from None
    return voice


async def omni_config(server, message: dict, loop) -> OmniConfig:
    """A `session.config` message parsed and checked (a clone made from its `ref_audio`), or an ApiError."""
    params = {k: v for k, v in message.items() if k != "type"}
    if params.get("speaker_embedding") is not None:
        raise ApiError(400, "speaker_embedding is not taken on this WebSocket: send ref_audio (a data: URL), or a "
                            "saved voice's name as voice", param="speaker_embedding")
    task = _task(server, params)
    cloning = params.get("ref_audio") is not None
    # Its clients send their default speaker with every task; a speaker means something only to CustomVoice.
    voice = None if cloning or task in ("Base", "VoiceDesign") else params.get("voice", params.get("speaker"))
    kwargs = fields.speech_kwargs(server.voices, {"voice": voice, **{k: params.get(k) for k in PASSED}},
                                  server.limits)
    if cloning:
        samples, rate = reference_clip(server, params["ref_audio"])
        kwargs.pop("speaker", None)
        kwargs["voice"] = await loop.run_in_executor(server.mlx_thread, _cloned, server, params, samples, rate)
    mode = params.get("streaming_mode") or "none"
    if mode not in MODES:
        raise ApiError(400, f"streaming_mode must be one of {', '.join(MODES)}, got {mode!r}"[:200],
                       param="streaming_mode")
    # A streaming mode's audio goes out as it is made, PCM chunks, as vLLM-Omni sends it with or without stream_audio.
    streamed = mode != "none"
    fmt = fields.check_format(params.get("response_format") or ("pcm" if streamed else "wav"))
    config = OmniConfig(kwargs, fmt, fields.speed(params), _flag(params, "stream_audio") or streamed,
                        _flag(params, "word_timestamps"), mode)
    _check_output(server, config)
    build(server, OMNI_NAMES, deltas=(), **kwargs)  # refused now, not when text comes
    return config


def _check_output(server, config: OmniConfig):
    if config.stream_audio and config.fmt != "pcm":
        if config.mode != "none":
            raise ApiError(400, f"streaming_mode '{config.mode}' sends s16le PCM chunks as they are made: set "
                                "response_format to 'pcm'", param="response_format")
        raise ApiError(400, "stream_audio sends s16le PCM chunks: set response_format to 'pcm', or leave stream_audio "
                            f"out to get each sentence as one {config.fmt} file", param="stream_audio")
    if config.word_timestamps:
        if not (config.stream_audio and config.fmt == "pcm"):
            raise ApiError(400, "word_timestamps come in audio.chunk events of PCM audio: set stream_audio to true "
                                "and response_format to 'pcm'", param="word_timestamps")
        refusal = WordTimer.refusal(server, config.kwargs.get("language"), "word_timestamps")
        if refusal is not None:
            raise refusal
