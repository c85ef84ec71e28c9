"""The voices a request may name: the model's preset speakers and the voices saved in one folder.

A voice id is `[A-Za-z0-9_-]{1,64}`, so no request can name a path; an upload's name may be any
short display name ("My Voice"), kept in the file, from which the id is derived ("my-voice"). Saved voices are the
`.safetensors` files `save_voice` writes, `<id>.safetensors` in the voices folder; an upload is
written beside them under a temporary name and renamed into place, and never replaces a voice.
OpenAI's voice names (alloy, ash, ...) select the model's default voice; any other name goes to
the request layer as a speaker name (a preset, or `default`), which refuses unknown ones.
"""

import hashlib
import io
import os
import re
import tempfile
import threading
from pathlib import Path
from typing import Optional

import mlx.core as mx
import numpy as np

from ..errors import InputError
from ..audio.reference import FORMATS, ReferenceAudioError, read_audio
from ..request import DEFAULT_VOICE, blend_parts
from ..voices import SUFFIX, VOICE_ID, Blend, Voice, load_voice, save_voice, saved_voice_ids
from ..voices import default_voices_dir  # noqa: F401  (the server's default folder, as __main__ imports it)
from .limits import ApiError, Limits

NOT_IN_IDS = re.compile(r"[^A-Za-z0-9_-]+")
# Display names: one line, no path separators (a name never reads as a path, even where shown).
DISPLAY_NAME = re.compile(r"[^\x00-\x1f\x7f/\\]{1,64}")
OPENAI_VOICES = ("alloy", "ash", "ballad", "cedar", "coral", "echo", "fable", "marin", "nova", "onyx", "sage",
                 "shimmer", "verse")


class VoiceStore:
    """facts: the model's (`config.ModelFacts`); tokenizer: for the transcripts of saved voices."""

    def __init__(self, facts, tokenizer, folder, limits: Limits):
        self.facts, self.tokenizer, self.folder, self.limits = facts, tokenizer, Path(folder), limits
        self.presets = {name.lower(): name for name in facts.speakers}
        self._loaded = {}  # id -> (mtime, Voice)
        self._meta = {}  # id -> (mtime, safetensors metadata): listings read only the header
        self._lock = threading.Lock()

    def saved_ids(self) -> list:
        return saved_voice_ids(self.folder)

    def listing(self) -> list:
        """The voices this model can speak: its presets (or, on a model without any, `default`), and the saved
        voices made for its size and kind (cloned voices for a Base model, blends of presets for a CustomVoice one)."""
        voices = [{"id": name, "name": name, "type": "preset"} for name in self.presets.values()]
        if not voices:
            voices = [{"id": DEFAULT_VOICE, "name": DEFAULT_VOICE, "type": "default"}]
        for vid in self.saved_ids():
            meta = self.metadata(vid)
            kind = meta.get("tts_model_type", "base")  # voices saved before blends: Base x-vectors
            fits = meta.get("tts_model_size") == self.facts.size and kind == self.facts.variant
            if vid.lower() not in self.presets and fits:
                voices.append({"id": vid, "name": meta.get("name") or vid, "type": "saved"})
        return voices

    def metadata(self, vid: str) -> dict:
        """The metadata saved with voice `vid` ({} where the file cannot be read as a voice)."""
        from safetensors import safe_open

        path = self.folder / (vid + SUFFIX)
        try:
            mtime = path.stat().st_mtime_ns
            cached = self._meta.get(vid)
            if cached and cached[0] == mtime:
                return cached[1]
            with safe_open(str(path), framework="numpy") as f:
                meta = f.metadata() or {}
        except Exception:  # a damaged or foreign file: not listed, and refused by name with its reason
            return {}
        self._meta[vid] = (mtime, meta)
        return meta

    def resolve(self, name) -> dict:
        """Keyword arguments for `TTS.request` selecting the voice `name` (None: the default); a blend
        (`request.blend_parts`: "aiden:0.7+vivian:0.3", or a list of {"voice", "weight"}) as a `Blend` of
        preset names and saved voices, which the request layer checks."""
        if isinstance(name, dict):  # OpenAI's newer {"id": ...} form
            name = name.get("id")
        if name is None:
            return {}
        try:
            parts = blend_parts(name, "voice") if isinstance(name, (str, list)) else None
        except InputError as e:
            raise ApiError(400, e.worded({}), param="voice", code=e.code) from None
        if parts is not None:
            return {"voice": Blend(tuple((self._part(part), weight) for part, weight in parts))}
        if not isinstance(name, str):
            raise ApiError(400, "voice must be a string", param="voice")
        saved = self.saved_id(name.strip())
        if saved is not None and saved.lower() not in self.presets:
            return {"voice": self._load(saved)}
        if name.strip().lower() in OPENAI_VOICES:
            return {}
        return {"speaker": name}

    def _part(self, name):
        """A blend's part: a saved voice (loaded), else the name for the request layer (a preset, or refused)."""
        if not isinstance(name, str):
            raise ApiError(400, "each voice of a blend must be a name (a string)", param="voice", code="invalid_blend")
        saved = self.saved_id(name.strip())
        return self._load(saved) if saved is not None and saved.lower() not in self.presets else name

    def saved_id(self, name: str):
        """The id of the saved voice `name` (any case), or None."""
        if not VOICE_ID.fullmatch(name):
            return None
        if (self.folder / (name + SUFFIX)).is_file():
            return name
        return next((vid for vid in self.saved_ids() if vid.lower() == name.lower()), None)

    def _load(self, vid: str) -> Voice:
        path = self.folder / (vid + SUFFIX)
        mtime = path.stat().st_mtime_ns
        with self._lock:
            cached = self._loaded.get(vid)
            if cached and cached[0] == mtime:
                return cached[1]
        try:
            voice = load_voice(path, self.facts, self.tokenizer)
            # Loaded arrays are lazy and tied to this thread's stream; the engine's thread uses them.
            mx.eval([a for a in (voice.xvector, voice.ref_codes) if a is not None])
        except InputError as e:
            reason = str(e).replace(str(path), path.name)  # no server paths in responses
            raise ApiError(400, f"voice '{vid}' cannot be used with this model: {reason}", param="voice") from None
        with self._lock:
            self._loaded[vid] = (mtime, voice)
        return voice

    @staticmethod
    def new_names(name) -> tuple:
        """(id, display name) for an upload's `name`: a valid id is used as it is; any other short
        name is kept for display and its id made of its letters and digits ("My Voice" -> "my-voice")."""
        display = name.strip() if isinstance(name, str) else None
        if not display or not DISPLAY_NAME.fullmatch(display):
            raise ApiError(400, "name must be 1-64 characters on one line, without '/' or '\\' "
                                "(e.g. 'My Voice'; its id is made of its letters and digits)", param="name",
                           code="invalid_voice_name")
        if VOICE_ID.fullmatch(display):
            return display, display
        vid = NOT_IN_IDS.sub("-", display).strip("-").lower()
        return vid or "voice-" + hashlib.sha1(display.encode()).hexdigest()[:8], display

    def check_new_id(self, vid) -> str:
        if not isinstance(vid, str) or not VOICE_ID.fullmatch(vid):
            raise ApiError(400, "voice ids are 1-64 characters of A-Z, a-z, 0-9, '_' or '-'", param="name",
                           code="invalid_voice_name")
        if vid.lower() in self.presets:
            raise ApiError(409, f"'{vid}' is a preset speaker of this model; choose another name", param="name")
        if vid.lower() == DEFAULT_VOICE:
            raise ApiError(409, f"'{vid}' names the model's default voice; choose another name", param="name")
        if (self.folder / (vid + SUFFIX)).exists():
            raise ApiError(409, f"a voice named '{vid}' exists; delete it first or choose another name",
                           param="name", code="voice_exists")
        if len(self.saved_ids()) >= self.limits.max_voices:
            raise ApiError(400, f"the voices folder holds the maximum of {self.limits.max_voices} voices")
        return vid

    def decode_upload(self, data: bytes, field: str = "audio_sample") -> tuple:
        """(samples, rate) of an uploaded clip, within the size and duration limits; refusals name `field`."""
        lim = self.limits
        if len(data) > lim.max_upload_bytes:
            raise ApiError(413, f"{field} is larger than the limit of {lim.max_upload_bytes:,} bytes",
                           param=field, code="too_large")
        try:  # M4A/AAC/ALAC as phones record too (PyAV); at most the stated limit is decoded
            samples, rate, seconds = read_audio(io.BytesIO(data), lim.max_upload_seconds, name=field)
        except ReferenceAudioError:
            raise ApiError(400, f"{field} is not audio this server reads; send {FORMATS}",
                           param=field, code="invalid_audio") from None
        if seconds is not None and seconds > lim.max_upload_seconds:
            raise ApiError(400, f"{field} is {seconds:.1f} s long; the limit is {lim.max_upload_seconds:g} s "
                                "(3-15 s of clear speech works best)", param=field, code="too_long")
        return np.ascontiguousarray(samples), int(rate)

    def save(self, vid: str, voice: Voice, name: Optional[str] = None):
        """Write voice `vid` (shown as `name`) atomically; an existing file is never replaced."""
        self.folder.mkdir(parents=True, exist_ok=True)
        # The name must end in .safetensors (mx.save_safetensors appends it otherwise); the leading
        # dot keeps it out of the listing.
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".{vid}.", suffix=SUFFIX)
        os.close(fd)
        try:
            save_voice(voice, tmp, self.facts.size, name if name != vid else None)
            # link() fails if the target exists, unlike rename(): two uploads of one name cannot clobber.
            os.link(tmp, self.folder / (vid + SUFFIX))
        except FileExistsError:
            raise ApiError(409, f"a voice named '{vid}' exists; delete it first or choose another name",
                           param="name", code="voice_exists") from None
        finally:
            os.remove(tmp)

    def delete(self, vid: str):
        if not isinstance(vid, str) or not VOICE_ID.fullmatch(vid):
            raise ApiError(400, "voice ids are 1-64 characters of A-Z, a-z, 0-9, '_' or '-'", param="voice_id")
        path = self.folder / (vid + SUFFIX)
        if not path.is_file():
            if vid.lower() in self.presets:
                raise ApiError(400, f"'{vid}' is a preset speaker of the model and cannot be deleted")
            raise ApiError(404, f"no saved voice '{vid}'", param="voice_id", code="voice_not_found")
        path.unlink()
        with self._lock:
            self._loaded.pop(vid, None)


def clone_kwargs(ref_text: Optional[str], x_vector_only) -> dict:
    """TTS.clone options from the form fields. Without a transcript the request layer refuses,
    as the command line does, unless x_vector_only is set: the choice is the caller's."""
    flag = str(x_vector_only or "false").lower()
    if flag not in ("1", "true", "yes", "on", "0", "false", "no", "off", ""):
        raise ApiError(400, "x_vector_only must be true or false", param="x_vector_only")
    x_only = flag in ("1", "true", "yes", "on")
    return {"ref_text": ref_text if not x_only else None, "x_vector_only": x_only}
