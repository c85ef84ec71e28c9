"""The loaded model bundle and its user-level API: text in, 24 kHz audio out.

`load(path_or_repo)` returns a `TTS`. Its methods form a stack over one decode loop:
`frames` yields codec frames, `stream` decodes them into audio chunks as they come, `generate`
collects everything; `stream_text` / `text_frames` take the text itself as a stream of deltas.
Defaults follow the official wrappers: CustomVoice and VoiceDesign use the non-streaming text
layout, Base (default voice and cloning) the streaming one.
"""

import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence

import mlx.core as mx
import numpy as np

from . import backend, interop
from . import load as loading
from .errors import InputError
from .prompt import Voice, build_prompt, stack_prompts
from .sampling import SamplingConfig
from .streaming import AudioChunk, LiveTextTrack, stream_audio
from .synthesis import Frame, LoopState, generate_frames
from .talker import Qwen3TTSModel
from .text import frame_budget, join_audio, split_sentences
from .voices import VoiceCache, clone_voice, load_voice

SAMPLE_RATE = 24000
FRAMES_PER_SECOND = 12.5
TEXT_MODES = ("streaming", "non-streaming")
SPLIT_MODES = ("auto", "sequence", "batch", "none")
LONG_TEXT_CHARS = 300
SAMPLING_KEYS = ("temperature", "top_k", "top_p", "repetition_penalty")


@dataclass
class Result:
    audio: np.ndarray  # (samples,) float32 at 24 kHz; empty when decoding was skipped
    codes: np.ndarray  # (frames, 16) int32, EOS excluded
    sample_rate: int
    stopped_on_eos: bool
    state: LoopState


class TTS:
    def __init__(self, model, codec, tokenizer, generation_config: dict, path: Path):
        self.model = model
        self.config = model.config
        self.codec = codec
        self.tokenizer = tokenizer
        self.generation_config = generation_config
        self.sampling = SamplingConfig.from_generation_config(generation_config)
        self.path = path
        self.sample_rate = SAMPLE_RATE
        self.voice_cache = VoiceCache()

    @property
    def variant(self) -> str:
        return self.config.tts_model_type

    def default_text_mode(self) -> str:
        return "streaming" if self.variant == "base" else "non-streaming"

    def default_speaker(self) -> str:
        """CustomVoice needs a speaker; without one we use Ryan (English), else the first listed."""
        speakers = self.config.speakers
        if not speakers:
            raise InputError("this CustomVoice model lists no speakers in its config.json")
        return "ryan" if "ryan" in speakers else speakers[0]

    def clone(self, ref_audio, ref_text: Optional[str] = None, x_vector_only: bool = False,
              sample_rate: Optional[int] = None) -> Voice:
        """A cloned Voice from reference audio (Base models); cached per distinct audio."""
        return clone_voice(self, ref_audio, ref_text, x_vector_only, sample_rate)

    def load_voice(self, path) -> Voice:
        return load_voice(self, path)

    def resolve_voice(self, speaker=None, voice=None, ref_audio=None, ref_text=None, x_vector_only=False) -> Voice:
        """The Voice for these arguments: preset speaker, saved voice (path or Voice) or reference audio."""
        if ref_audio is not None:
            if voice is not None:
                raise InputError("give either a saved voice or reference audio, not both")
            voice = self.clone(ref_audio, ref_text, x_vector_only)
        elif isinstance(voice, (str, Path)):
            voice = self.load_voice(voice)
        elif (ref_text or x_vector_only) and voice is None:
            raise InputError("--ref-text and --x-vector-only need reference audio (--ref-audio)")
        if voice is not None and speaker:
            raise InputError("a cloned voice and a preset speaker cannot be combined")
        if voice is not None and voice.xvector is not None and self.variant != "base":
            raise InputError(f"cloned voices need a Base model; this is a {self.variant} model")
        if speaker:
            return Voice(speaker=speaker)
        if voice is None and self.variant == "custom_voice":
            return Voice(speaker=self.default_speaker())
        return voice or Voice()

    def _instruct(self, instruct):
        if not instruct:
            return None
        if self.variant == "base" or (self.variant == "custom_voice" and self.config.tts_model_size == "0b6"):
            what = "Base models" if self.variant == "base" else "the 0.6B CustomVoice model"
            warnings.warn(f"{what} ignore instructions (as upstream does); --instruct is not used", stacklevel=4)
            return None
        return instruct

    def _loop(self, prompt, sampling, max_tokens, state, track=None):
        if max_tokens is not None and max_tokens < 1:
            raise InputError(f"--max-tokens must be at least 1, got {max_tokens}")
        limit = int(self.generation_config.get("max_new_tokens", 8192))
        if max_tokens is None and prompt.text_tokens:
            max_tokens = min(limit, frame_budget(prompt.text_tokens))
        max_tokens = max_tokens or limit
        if state is not None:
            state.max_frames = max_tokens
        return generate_frames(
            self.model.talker, prompt, sampling or self.sampling, max_tokens,
            self.config.talker_config.codec_eos_token_id, text_track=track, state=state,
        )

    def prompt(self, text: str, language: str = "auto", speaker: Optional[str] = None,
               instruct: Optional[str] = None, text_mode: Optional[str] = None, voice=None,
               ref_audio=None, ref_text: Optional[str] = None, x_vector_only: bool = False):
        """(Prompt, Voice) for one request: the prefill embeddings and the per-frame text track."""
        if text is None or not text.strip():
            raise InputError("the text is empty; give some text to speak")
        text_mode = text_mode or self.default_text_mode()
        if text_mode not in TEXT_MODES:
            raise InputError(f"unknown text mode '{text_mode}'; choose streaming or non-streaming")
        voice = self.resolve_voice(speaker, voice, ref_audio, ref_text, x_vector_only)
        instruct = self._instruct(instruct)
        prompt = build_prompt(
            self.model.talker, self.config, self.tokenizer.assistant_ids(text), voice=voice,
            language=language, instruct_ids=self.tokenizer.instruct_ids(instruct) if instruct else None,
            streaming=text_mode == "streaming",
        )
        return prompt, voice

    def frames(self, text: str, language: str = "auto", speaker: Optional[str] = None,
               instruct: Optional[str] = None, text_mode: Optional[str] = None, voice=None,
               ref_audio=None, ref_text: Optional[str] = None, x_vector_only: bool = False,
               sampling: Optional[SamplingConfig] = None, max_tokens: Optional[int] = None,
               state: Optional[LoopState] = None) -> Iterator[Frame]:
        """Codec frames for `text`, as they are generated."""
        prompt, voice = self.prompt(text, language, speaker, instruct, text_mode, voice, ref_audio, ref_text,
                                    x_vector_only)
        if state is not None:
            state.voice = voice
        return self._loop(prompt, sampling, max_tokens, state)

    def text_frames(self, deltas: Iterable[str], language: str = "auto", speaker: Optional[str] = None,
                    instruct: Optional[str] = None, voice=None, ref_audio=None, ref_text: Optional[str] = None,
                    x_vector_only: bool = False, sampling: Optional[SamplingConfig] = None,
                    max_tokens: Optional[int] = None, state: Optional[LoopState] = None) -> Iterator[Frame]:
        """Codec frames for text that arrives as deltas (e.g. from an LLM), streaming text layout.

        Speech starts after the first text token; each frame consumes one more token, waiting for
        it when it has not arrived. Greedy codes equal those of the whole text given at once.
        """
        voice = self.resolve_voice(speaker, voice, ref_audio, ref_text, x_vector_only)
        instruct = self._instruct(instruct)
        talker = self.model.talker
        embed = lambda ids: talker.text_embed(mx.array([list(ids)]))[0]  # noqa: E731
        track = LiveTextTrack(self.tokenizer, deltas, embed)
        if state is not None:
            state.voice = voice
        return self._text_frames(track, voice, language, instruct, sampling, max_tokens, state)

    def _text_frames(self, track, voice, language, instruct, sampling, max_tokens, state):
        try:
            needed, lead = 1, []
            if voice.ref_codes is not None:  # ICL: the prefill overlays text on every reference frame
                ref_text, n_audio = list(voice.ref_ids[3:-2]), voice.ref_codes.shape[0] + 1
                needed, lead = max(n_audio - len(ref_text), 0), ref_text[n_audio:]
            body = track.wait_for(max(needed, 1))
            if not body:
                return
            consumed = body if track.finished else body[:needed]
            ids = track.ids[:3] + list(consumed) + [0] * 5  # build_prompt reads ids[:3] and ids[3:-5]
            talker, cfg = self.model.talker, self.config
            prompt = build_prompt(
                talker, cfg, ids, voice=voice, language=language, streaming=True, text_complete=track.finished,
                instruct_ids=self.tokenizer.instruct_ids(instruct) if instruct else None,
            )
            track.eos, track.pad = talker.text_embed(mx.array([[cfg.tts_eos_token_id, cfg.tts_pad_token_id]]))[0]
            track.lead, track.offset = lead, (needed if voice.ref_codes is not None else 1)
            yield from self._loop(prompt, sampling, max_tokens, state, track=None if track.finished else track)
        finally:
            track.close()

    def _sampling(self, kwargs) -> SamplingConfig:
        base = kwargs.pop("sampling", None) or self.sampling
        return base.override(**{k: kwargs.pop(k) for k in SAMPLING_KEYS if k in kwargs})

    def generate(self, text: str, seed: Optional[int] = None, decode: bool = True, progress=None,
                 split: str = "auto", **kwargs) -> Result:
        """Synthesize `text`. Keyword arguments as `frames`, plus temperature / top_k / top_p /
        repetition_penalty overrides (temperature 0 = greedy). decode=False returns codes only.

        split: text longer than LONG_TEXT_CHARS is cut at sentence ends ("auto": one piece after
        the other, "sequence" likewise for any length, "batch": the pieces as one batch, "none":
        never) and the pieces' audio is joined with short, faded pauses.
        """
        if split not in SPLIT_MODES:
            raise InputError(f"unknown split mode '{split}'; choose one of {', '.join(SPLIT_MODES)}")
        if text is not None and split != "none" and (split != "auto" or len(text) > LONG_TEXT_CHARS):
            pieces = split_sentences(text, LONG_TEXT_CHARS)
            if len(pieces) > 1:
                return self._generate_pieces(pieces, split, seed, decode, kwargs)
        sampling = self._sampling(kwargs)
        if seed is not None:
            mx.random.seed(seed)
        state = LoopState()
        codes = []
        for frame in self.frames(text, sampling=sampling, state=state, **kwargs):
            codes.append(frame.codes)
            if progress is not None:
                progress(frame.index + 1)
        codes = mx.concatenate(codes) if codes else mx.zeros((0, 16), dtype=mx.int32)
        audio = np.zeros((0,), dtype=np.float32)
        if decode and codes.shape[0]:
            audio = self.decode(codes, ref_codes=state.voice.ref_codes)
        return Result(audio, np.array(codes), self.sample_rate, state.stopped_on_eos, state)

    def _generate_pieces(self, pieces, split, seed, decode, kwargs) -> Result:
        if split == "batch":
            results = self.generate_batch(pieces, seed=seed, decode=decode, **kwargs)
        else:
            if seed is not None:
                mx.random.seed(seed)
            results = [self.generate(piece, split="none", decode=decode, **kwargs) for piece in pieces]
        audio = join_audio([r.audio for r in results], self.sample_rate) if decode else np.zeros((0,), np.float32)
        codes = np.concatenate([r.codes for r in results])
        return Result(audio, codes, self.sample_rate, all(r.stopped_on_eos for r in results), results[-1].state)

    def generate_batch(self, texts: Sequence[str], seed: Optional[int] = None, decode: bool = True,
                       **kwargs) -> List[Result]:
        """Several texts in one left-padded batch, each stopping at its own EOS.

        Per-item settings (language, speaker, instruct, voice, ref_audio, ref_text) may be lists
        of the same length as `texts`; a single value applies to every item. With greedy decoding
        each result equals generating that text alone.
        """
        if not texts:
            raise InputError("no texts to synthesize")
        sampling = self._sampling(kwargs)
        max_tokens = kwargs.pop("max_tokens", None)
        text_mode = kwargs.pop("text_mode", None)
        per_item = {k: v if isinstance(v, list) else [v] * len(texts) for k, v in kwargs.items()}
        for key, values in per_item.items():
            if len(values) != len(texts):
                raise InputError(f"{key} has {len(values)} entries for {len(texts)} texts")
        prompts, voices = [], []
        for i, text in enumerate(texts):
            prompt, voice = self.prompt(text, text_mode=text_mode, **{k: v[i] for k, v in per_item.items()})
            prompts.append(prompt)
            voices.append(voice)
        if seed is not None:
            mx.random.seed(seed)
        state = LoopState()
        rows = [[] for _ in texts]
        for frame in self._loop(stack_prompts(prompts), sampling, max_tokens, state):
            codes = np.array(frame.codes)
            for b in range(len(texts)):
                if frame.active is None or frame.active[b]:
                    rows[b].append(codes[b])
        results = []
        for b, voice in enumerate(voices):
            codes = np.stack(rows[b]).astype(np.int32) if rows[b] else np.zeros((0, 16), np.int32)
            ended = len(rows[b]) < state.frames or state.stopped_on_eos
            audio = np.zeros((0,), dtype=np.float32)
            if decode and codes.shape[0]:
                audio = self.decode(mx.array(codes), ref_codes=voice.ref_codes)
            results.append(Result(audio, codes, self.sample_rate, ended, state))
        return results

    def stream(self, text: str, first_chunk_frames: int = 1, chunk_frames: int = 4, seed: Optional[int] = None,
               state: Optional[LoopState] = None, **kwargs) -> Iterator[AudioChunk]:
        """Audio chunks while generating; they concatenate to `generate(...).audio`."""
        return self._stream(self.frames, text, first_chunk_frames, chunk_frames, seed, state, kwargs)

    def stream_text(self, deltas: Iterable[str], first_chunk_frames: int = 1, chunk_frames: int = 4,
                    seed: Optional[int] = None, state: Optional[LoopState] = None, **kwargs) -> Iterator[AudioChunk]:
        """Audio chunks for text that arrives as deltas."""
        return self._stream(self.text_frames, deltas, first_chunk_frames, chunk_frames, seed, state, kwargs)

    def _stream(self, make_frames, source, first_chunk_frames, chunk_frames, seed, state, kwargs):
        start = time.perf_counter()
        sampling = self._sampling(kwargs)
        if seed is not None:
            mx.random.seed(seed)
        state = state if state is not None else LoopState()
        frames = make_frames(source, sampling=sampling, state=state, **kwargs)
        return stream_audio(self.codec, frames, self.sample_rate, first_chunk_frames, chunk_frames,
                            state.voice.ref_codes, start)

    def decode(self, codes: mx.array, ref_codes: Optional[mx.array] = None) -> np.ndarray:
        """(T, 16) codes -> float32 audio. With ICL reference codes, decode them in front and cut
        their share of the samples, as upstream does."""
        if ref_codes is not None:
            full = mx.concatenate([ref_codes.astype(mx.int32), codes])
            audio = np.array(self.codec.decoder.decode(full[None])[0])
            cut = int(ref_codes.shape[0] / max(full.shape[0], 1) * audio.shape[0])
            return audio[cut:]
        return np.array(self.codec.decoder.decode(codes[None])[0])


def load(path_or_repo: str, dtype: Optional[mx.Dtype] = None) -> TTS:
    """Load a Qwen3-TTS checkpoint from a local folder or a Hugging Face repo id.

    dtype: compute dtype of the talker and code predictor (default: float32 on the CPU, else as stored).
    The codec and the speaker encoder always run in float32.
    """
    from .codec.speech_tokenizer import load_codec
    from .tokenizer import TextTokenizer

    folder = loading.resolve(path_or_repo)
    config = loading.load_config(folder)
    files = loading.safetensors_files(folder)
    weights = loading.load_weights(files)
    model = Qwen3TTSModel(config)
    weights = interop.sanitize(model, weights, files, config)
    dtype = backend.compute_dtype(dtype)
    if dtype is not None:
        weights = {k: _cast(v, dtype) if k.startswith("talker.") else v for k, v in weights.items()}
    loading.apply_weights(model, weights, str(folder / "model.safetensors"), config.quantization)
    mx.eval(model.parameters())
    codec = load_codec(folder / "speech_tokenizer", encoder=config.tts_model_type == "base")
    tokenizer = TextTokenizer.from_folder(folder)
    gen_path = folder / "generation_config.json"
    generation_config = loading.read_json(gen_path) if gen_path.exists() else {}
    return TTS(model, codec, tokenizer, generation_config, folder)


def _cast(value: mx.array, dtype: mx.Dtype) -> mx.array:
    return value.astype(dtype) if mx.issubdtype(value.dtype, mx.floating) else value
