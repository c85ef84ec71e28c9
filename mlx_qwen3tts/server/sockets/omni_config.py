"""vLLM-Omni's `session.config` (its WebSocket `/v1/audio/speech/stream`), parsed into our request's keywords.

Its fields, flat in the message: `voice` (or `speaker`), `task_type`, `language`, `instructions`,
`response_format`, `speed`, `max_new_tokens`, `seed`, `ref_audio` (a `data:` URL with the audio in base64),
`ref_text`, `x_vector_only_mode`, `speaker_embedding`, `stream_audio`, `word_timestamps`, `streaming_mode`;
ours beside them where the message has room (`temperature`, `top_k`, `top_p`, `repetition_penalty`, a blend or
a saved voice as `voice`). The voice and task fields are parsed as the HTTP request's are
(`params.speech_kwargs`: a `data:` URL decoded by `params.reference_audio`, `task_type` and
`speaker_embedding` the request's `task` and `xvector`), and every check of a synthesis setting is the
request layer's, so a refusal has the same words on both paths; this only parses and names.
"""

from dataclasses import dataclass, replace

from ...request_fields import field_names
from .. import params as fields
from ..engine_client import built
from ..limits import ApiError
from ..piece_timing import check_timings

# The request layer's fields as these sessions name them.
OMNI_NAMES = field_names(text="text", deltas="text", speaker="voice", instruct="instructions",
                         max_tokens="max_new_tokens", x_vector_only="x_vector_only_mode",
                         xvector="speaker_embedding", task="task_type")
MODES = ("none", "token_level", "sentence_commit")
# What the HTTP request's parser (`params.speech_kwargs`) takes of a session.config, under the same names.
PASSED = ("voice", "speaker", "task_type", "ref_audio", "ref_text", "x_vector_only_mode", "speaker_embedding",
          "language", "instructions", "max_new_tokens", "seed", *fields.SAMPLING_FIELDS)


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


async def omni_config(server, message: dict) -> OmniConfig:
    """A `session.config` message parsed and checked by the request layer (a clone made once from its
    `ref_audio`, for every utterance of the session), or an ApiError."""
    params = {k: v for k, v in message.items() if k != "type"}
    # Its clients send their default speaker with every task; a speaker means something only to CustomVoice.
    if params.get("task_type") in ("Base", "VoiceDesign"):
        params = {k: v for k, v in params.items() if k not in ("voice", "speaker")}
    kwargs = fields.speech_kwargs(server.voices, {k: params[k] for k in PASSED if k in params}, server.limits)
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
    request = await built(server, OMNI_NAMES, deltas=(), **kwargs)  # refused now, not when text comes
    if kwargs.get("ref_audio") is not None:  # the clone it made speaks every utterance
        kwargs = {k: v for k, v in kwargs.items() if k not in ("ref_audio", "ref_text", "x_vector_only")}
        config = replace(config, kwargs={**kwargs, "voice": request.voice})
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
        check_timings(server, config.kwargs.get("language"), "word_timestamps")
