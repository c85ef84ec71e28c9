"""vLLM-Omni's HTTP dialect where it differs from ours: the batch's answer and the saved voices' listing.

Shapes as vllm-project/vllm-omni declares them (vllm_omni/entrypoints/openai/protocol/audio.py:
`SpeechBatchItemResult`, `BatchSpeechResponse`, `SpeechTokenUsage`; serving_speech.py: `create_speech_batch`,
each item checked and made on its own, a bad one failing alone). The body is parsed by `params.batch` and
each item by `params.speech`, into the same requests as ours; nothing below learns which dialect asked.
"""

import base64
import json
import uuid

from starlette.responses import JSONResponse

from ..audio_out import CONTENT_TYPES, Usage, whole_files
from ..engine_client import built, engine_error, send_all
from ..limits import ApiError
from .. import params as fields


async def speech_batch(server, request, items: list) -> JSONResponse:
    """Every item parsed and built on its own (a refusal is that item's `error`), the good ones submitted
    together (429 for the whole batch when the engine cannot take them all), each answered as a whole file."""
    results, todo = [None] * len(items), []
    for i, item in enumerate(fields.shared_clips(items, server.voices)):
        try:
            speech = fields.speech(item, server.limits, server.voices)
            todo.append((i, speech, await built(server, text=speech.text, **speech.kwargs)))
        except ApiError as e:
            results[i] = failure(i, e.message)
    handles = send_all(server, [req for _, _, req in todo]) if todo else []
    usages = [Usage(text_tokens(server, speech)) for _, speech, _ in todo]
    files = await whole_files(handles, [s for _, s, _ in todo], server.tts.sample_rate, request.receive, usages,
                              settle=True)
    for (i, speech, req), made, usage in zip(todo, files, usages):
        if isinstance(made, BaseException):
            results[i] = failure(i, engine_error(made).message)
        else:
            audio_tokens = 0 if req.voice.ref_codes is None else int(req.voice.ref_codes.shape[0])
            results[i] = success(i, made[0], speech.fmt, token_usage(usage.text_tokens, audio_tokens, usage.frames))
    succeeded = sum(r["status"] == "success" for r in results)
    return JSONResponse({"id": f"speech-batch-{uuid.uuid4().hex}", "results": results, "total": len(results),
                         "succeeded": succeeded, "failed": len(results) - succeeded})


def text_tokens(server, speech) -> int:
    """The text tokens of a request as vLLM-Omni counts them: its input and its instructions."""
    encode = server.tts.tokenizer.encode
    return sum(len(encode(text)) for text in (speech.text, speech.kwargs.get("instruct")) if text)


def token_usage(text: int, audio: int, frames: int) -> dict:
    """`SpeechTokenUsage`: text and reference-audio frames in, codec frames out."""
    return {"input_tokens": text + audio, "output_tokens": frames, "total_tokens": text + audio + frames,
            "input_token_details": {"text_tokens": text, "audio_tokens": audio}}


def success(index: int, data: bytes, fmt: str, usage: dict) -> dict:
    return {"index": index, "status": "success", "audio_data": base64.b64encode(data).decode(),
            "media_type": CONTENT_TYPES[fmt], "error": None, "usage": usage}


def failure(index: int, message: str) -> dict:
    return {"index": index, "status": "error", "audio_data": None, "media_type": None, "error": message,
            "usage": None}


def saved_text(meta: dict):
    """The transcript a saved voice was cloned with (None for an x-vector alone or a blend)."""
    try:
        text = json.loads(meta.get("ref_text") or "null")
    except ValueError:
        return None
    return text if isinstance(text, str) else None


def uploaded_voices(store) -> list:
    """The saved voices this model speaks, as vLLM-Omni lists its uploads: `name` (what a request names),
    when it was made, its size and where its vector came from (`audio`: cloned; `blend`: mixed)."""
    saved = [v for v in store.listing() if v["type"] == "saved"]
    listed = []
    for voice in saved:
        path = store.folder / (voice["id"] + ".safetensors")
        try:
            stat = path.stat()
        except OSError:  # deleted since it was listed
            continue
        meta = store.metadata(voice["id"])
        listed.append({"name": voice["id"], "display_name": voice["name"], "created_at": int(stat.st_mtime),
                       "file_size": stat.st_size, "mime_type": "application/x-safetensors",
                       "embedding_source": "blend" if meta.get("tts_model_type") == "custom_voice" else "audio",
                       "ref_text": saved_text(meta)})
    return listed
