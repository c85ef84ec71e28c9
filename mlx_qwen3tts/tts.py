"""The loaded model bundle and its user-level API: text in, 24 kHz audio out.

`load(path_or_repo)` returns a `TTS`. Its methods form a stack over one decode loop:
`frames` yields codec frames, `stream` decodes them into audio chunks as they come, `generate`
collects everything; `stream_text` / `text_frames` take the text itself as a stream of deltas.
Defaults follow the official wrappers: CustomVoice and VoiceDesign use the non-streaming text
layout, Base (default voice and cloning) the streaming one.
"""

import itertools
import time
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

import mlx.core as mx
import numpy as np

from . import backend, outputs
from .audio.formats import encode, format_for_path
from .model import checkpoint, layouts
from .codec import SAMPLE_RATE
from .model.config import ModelFacts
from .errors import InputError
from .loop.decode_loop import DecodeLoop, FrameStream
from .loop.engine import Engine
from .loop.prompt import Prompt
from .plan import Plan, build_plan
from .seeds import check_seed, retry_seed
from .request import Request, build_request, checked_codes, clone_voice
from .audio.chunks import AudioChunk, chunk_length, join_audio, stream_audio
from .iterators import Iterated
from .tokenizer import TemplateIds
from .request_fields import FIELDS, Asked
from .audio.time_stretch import MAX_SPEED, MIN_SPEED, time_stretch
from .voices import Presets, Voice, VoiceCache, VoiceMaker, load_voice, voice_bytes

PER_ITEM_KEYS = ("language", "speaker", "instruct", "voice", "ref_audio", "ref_text", "x_vector_only", "seed")


@dataclass
class Result:
    audio: np.ndarray  # (samples,) float32 at 24 kHz; empty when decoding was skipped
    codes: np.ndarray  # (frames, 16) int32, EOS excluded
    sample_rate: int
    stopped_on_eos: bool
    max_frames: int  # the frame limit it ran under (max_tokens, else the budget of its text)
    prefill_s: float  # from the start until its first frame was read (the last piece's, when split)
    voice: Voice  # the voice it was spoken with (e.g. the cloned one)
    runaway: Optional[str] = None  # the runaway guard's rule that ended it ("duration", "silence", "loop")
    retried: bool = False  # spoken again with a derived seed after a runaway (`runaway` is then the second's)
    checks: tuple = ()  # generate(check=...): each piece as the recognizer heard it (`hearing.PieceCheck`)

    def save(self, path, format: Optional[str] = None, overwrite: bool = False) -> Path:
        """Write the audio to `path`, in the format its extension names (.wav .flac .ogg/.opus .mp3 .aac
        .pcm) or `format`. An existing file is kept (InputError) unless overwrite=True; the file appears
        whole or not at all. Returns the path written."""
        if self.audio.shape[0] == 0:
            raise InputError("this result holds no audio (generated with decode=False, or the speech ended at "
                             "once): nothing to save", field="audio")
        return _write_new(path, "audio file", encode(self.audio, self.sample_rate, format_for_path(path, format).name),
                          overwrite)


def joined(results: List[Result], decode: bool, complete: bool = True) -> Result:
    """The pieces of one text as one Result, their audio joined with short faded pauses (`join_audio`); a
    whole text in one piece is itself. `complete`: every piece was generated (a shared max_tokens can end
    the text early), else it did not stop on its own."""
    if len(results) == 1 and complete:
        return results[0]
    last = results[-1]
    audio = join_audio([r.audio for r in results], last.sample_rate) if decode else np.zeros((0,), np.float32)
    runaway = next((r.runaway for r in results if r.runaway), None)
    return Result(audio, np.concatenate([r.codes for r in results]), last.sample_rate,
                  complete and all(r.stopped_on_eos for r in results), last.max_frames, last.prefill_s, last.voice,
                  runaway, any(r.retried for r in results), sum((r.checks for r in results), ()))


def _write_new(path, what: str, data: bytes, overwrite: bool) -> Path:
    """`data` written to `path` atomically (a symlink's target), never over a file unless `overwrite`."""
    out = outputs.new_file(path, what, overwrite)
    out.write(data, replace=overwrite)
    return out.path


# Other front ends' names for a request field, told where one is given here.
_THEIR_NAMES = {"max_new_tokens": "max_tokens", "instructions": "instruct", "input": "text", "voice_id": "speaker"}


def _asked(**kwargs) -> Asked:
    """The request's fields as given; an unknown keyword refused in one line naming the accepted ones."""
    unknown = [name for name in kwargs if name not in FIELDS]
    if unknown:
        name = unknown[0]
        if name == "speed":
            hint = " (speed stretches whole audio: generate and generate_batch take it; a stream comes at speed 1)"
        elif name in _THEIR_NAMES:
            hint = f" (here it is {_THEIR_NAMES[name]})"
        else:
            hint = ""
        accepted = ", ".join(f for f in FIELDS if f not in ("text", "deltas"))
        raise InputError(f"unknown keyword {name}{hint}; the keywords are {accepted}", field=name, code="unknown_field")
    return Asked(**kwargs)


def _check_speed(speed) -> float:
    if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not MIN_SPEED <= speed <= MAX_SPEED:
        raise InputError(f"{{speed}} must be a number from {MIN_SPEED} to {MAX_SPEED}, got {speed!r}", field="speed")
    return float(speed)


def _stretched(result: "Result", speed: float) -> "Result":
    """`result` with its audio at `speed` (its codes as made), as the command line's and the server's speed."""
    if speed == 1 or result.audio.shape[0] == 0:
        return result
    return replace(result, audio=time_stretch(result.audio, float(speed), result.sample_rate))


def _written(text: Optional[str]):
    """The text as given, cut where the plan cuts it (`aligner.piece_words.PieceTexts`): the words timed."""
    from .aligner.piece_words import PieceTexts

    return PieceTexts(text)


def _warn(notices, stacklevel: int):
    """Request notices as warnings, the Python API's way, each once, at the user's call (`stacklevel`
    counted from here)."""
    for notice in dict.fromkeys(notices):
        warnings.warn(notice, stacklevel=stacklevel)


class ChunkStream(Iterated):
    """Audio chunks of one request as they are generated (iterate it), and the loop's report on its
    frames: `frames`, `max_frames`, `stopped_on_eos`, `prefill_s`, `runaway` (see `decode_loop.FrameStream`:
    a stream whose speech ran away ends there, and says so in `runaway`)."""

    def __init__(self, chunks: Iterator[AudioChunk], frames: FrameStream):
        self._run, self._frames = chunks, frames

    def __getattr__(self, name):
        if name in ("frames", "max_frames", "stopped_on_eos", "prefill_s", "runaway"):
            return getattr(self._frames, name)
        raise AttributeError(name)


class TTS:
    def __init__(self, model, codec, tokenizer, generation_config: dict, path: Path):
        self.model, self.config, self.codec, self.tokenizer, self.path = model, model.config, codec, tokenizer, path
        self.generation_config = generation_config
        self.facts = ModelFacts.read(model.config, generation_config, codec.decoder.args.codebook_size)
        self.sampling = self.facts.sampling
        self.sample_rate = SAMPLE_RATE
        tc = model.config.talker_config
        presets = Presets(model.talker.codec_embed, tc.spk_id, tc.spk_is_dialect)
        self.voices = VoiceMaker(getattr(model, "speaker_encoder", None), codec, tokenizer, presets=presets)
        self.loop = DecodeLoop(model.talker, model.config, tokenizer, self.max_new_tokens)

    @property
    def asr(self):
        """The speech recognizer (`hearing`), or None: with one, a clip to clone without its transcript is
        transcribed and cloned in context, and `generate(check=...)` hears what it said."""
        return self.voices.recognizer

    @asr.setter
    def asr(self, given):
        """A folder or hub id of Qwen3-ASR (loaded once, here), a recognizer object, or None."""
        from .hearing import recognizer

        self.voices.recognizer, self.voices.transcripts = recognizer(given), VoiceCache()  # heard by another now

    @property
    def variant(self) -> str:
        return self.facts.variant

    @property
    def voice_cache(self) -> VoiceCache:
        return self.voices.cache

    @voice_cache.setter
    def voice_cache(self, cache: VoiceCache):
        self.voices.cache = cache

    @property
    def max_new_tokens(self) -> int:
        """The frame cap of generation_config.json (the most `max_tokens` may be)."""
        return self.facts.max_new_tokens

    def clone(self, ref_audio, ref_text: Optional[str] = None, x_vector_only: bool = False,
              sample_rate: Optional[int] = None) -> Voice:
        """A cloned Voice from reference audio (Base models); cached per distinct audio."""
        voice, notices = clone_voice(self.facts, self.voices, ref_audio, ref_text=ref_text, x_vector_only=x_vector_only,
                                     sample_rate=sample_rate)
        _warn(notices, stacklevel=3)
        return voice

    def load_voice(self, path) -> Voice:
        return load_voice(path, self.facts, self.tokenizer)

    def save_voice(self, voice: Voice, path, overwrite: bool = False) -> Path:
        """Write a cloned voice (from `clone`, or `Result.voice`) to exactly `path`, for `load_voice`,
        `voice=` and the CLI's --voice. An existing file is kept (InputError) unless overwrite=True."""
        if not isinstance(voice, Voice):
            raise InputError(f"{{voice}} must be a Voice (from clone), got {type(voice).__name__}", field="voice")
        return _write_new(path, "voice file", voice_bytes(voice, self.facts.size), overwrite)

    def request(self, text: Optional[str] = None, deltas: Optional[Iterable[str]] = None, **kwargs) -> Request:
        """One validated request: `text` whole or `deltas` as written, keywords as `generate`/`stream`
        (language, speaker, instruct, text_mode, voice, ref_audio, ref_text, x_vector_only, sampling,
        temperature, top_k, top_p, repetition_penalty, seed, max_tokens, first_chunk_frames,
        chunk_frames; `xvector`: a Base model's speaker embedding as numbers; `task`: the model kind asked for,
        refused unless it is this one's). Raises InputError for the first bad argument; resolves the voice once.
        What the caller should be told (an ignored instruction) is in `notices`, not warned."""
        return build_request(self.facts, self.voices, _asked(text=text, deltas=deltas, **kwargs))

    def plan(self, text: str, split: str = "auto", **kwargs) -> Plan:
        """How `generate` speaks `text`: the validated request as the pieces it is cut into and the rules they
        share (`plan.Plan`; `split` and keywords as `generate`). A bad `split` is refused with the other
        arguments, before a voice is cloned."""
        return build_plan(self.facts, self.voices, _asked(text=text, **kwargs), split)

    def _told(self, request: Request, stacklevel: int = 3) -> Request:
        """`request`, its notices given as warnings (the Python API's way) at the user's call."""
        _warn(request.notices, stacklevel + 1)
        return request

    def prompt(self, request: Request, target: Optional[TemplateIds] = None, text_complete: bool = True) -> Prompt:
        """The prefill embeddings and per-frame text track of a request (see `DecodeLoop.prompt`)."""
        return self.loop.prompt(request, target, text_complete)

    def request_frames(self, request: Request) -> FrameStream:
        """Codec frames for a Request, as they are generated (with the loop's report on them)."""
        return self.loop.frames(request)

    def request_chunks(self, request: Request, split: str = "auto", aligner=None, written=None):
        """Audio chunks for a Request while generating, in the pieces `generate` speaks it in (`split`, as
        there but "batch"; text arriving as deltas is cut the same way as it comes); they concatenate to its
        one-shot audio. A `ChunkStream` (or `plan.PlanChunks`, which tells the same). With `aligner`, each
        piece's `Words` too, after its last chunk (`aligner.piece_words.Timed`, in the request's language; an
        aligner that cannot time it refuses here, before any audio): the words of `written` (the text as given,
        an `aligner.piece_words.PieceTexts`) with their spoken forms' times, else the words spoken."""
        if aligner is None:
            return Plan(request, split).chunks(self._chunks, self.sample_rate)
        from .aligner.piece_words import PieceWords, Timed  # the aligner's modules, loaded when asked for

        words = PieceWords(aligner, request.language, self.sample_rate, written=written)
        return Timed(Plan(request, split).chunks(self._chunks, self.sample_rate), words)

    def _chunks(self, request: Request) -> ChunkStream:
        start, frames = time.perf_counter(), self.request_frames(request)
        chunks = stream_audio(self.codec, frames, self.sample_rate, first_chunk_frames=request.first_chunk_frames,
                              chunk_frames=request.chunk_frames, ref_codes=request.voice.ref_codes, start_time=start)
        return ChunkStream(chunks, frames)

    def frames(self, text: str, **kwargs) -> FrameStream:
        """Codec frames for `text`, as they are generated; keywords as `generate`. The iterator
        also tells `frames`, `max_frames`, `stopped_on_eos` and `prefill_s` as it runs."""
        return self.request_frames(self._told(self.request(text, **kwargs)))

    def text_frames(self, deltas: Iterable[str], **kwargs) -> FrameStream:
        """Codec frames for text that arrives as deltas (e.g. from an LLM), streaming text layout.

        Speech starts after the first text token; each frame consumes one more token, waiting for
        it when it has not arrived. Greedy codes equal those of the whole text given at once.
        """
        return self.request_frames(self._told(self.request(deltas=deltas, **kwargs)))

    def generate(self, text: str, seed: Optional[int] = None, decode: bool = True, progress=None,
                 split: str = "auto", speed: float = 1.0, check=None, **kwargs) -> Result:
        """Synthesize `text`. Keyword arguments as `request`: language, speaker, instruct, voice,
        ref_audio, ref_text, x_vector_only, text_mode, max_tokens, sampling and temperature / top_k /
        top_p / repetition_penalty overrides (temperature 0 = greedy). decode=False returns codes only.

        split: text longer than LONG_TEXT_CHARS is cut at sentence ends ("auto": one piece after
        the other, "sequence" likewise for any length, "batch": the pieces as one batch, "none":
        never) and the pieces' audio is joined with short, faded pauses.

        progress: called after each frame as progress(frames, frame_budget, piece, pieces).
        speed: the audio stretched to it (0.25 to 4; pitch kept), as the command line's --speed.

        check: True, or a `hearing.Check` (threshold, tries): each piece is heard by the recognizer (`asr`) once
        made and, sampled and heard too far from its text, made again with a derived seed (`seeds.check_seed`),
        the best kept; `Result.checks` tells each piece's check.
        """
        speed = _check_speed(speed)  # before any work
        checking = self.checking(check, decode)
        plan = self.plan(text, split, seed=seed, **kwargs)
        self._told(plan.request)  # the pieces share the notices
        if plan.split == "batch" and plan.many:
            pieces = plan.batch()
            results = [result for _, result in sorted(self.run(pieces, decode), key=lambda item: item[0])]
            if checking is not None:
                results = [self._checked(checking, p, r, progress, (i + 1, len(pieces)))
                           for i, (p, r) in enumerate(zip(pieces, results))]
        else:
            results = []
            for i, piece in enumerate(plan.run(lambda: sum(r.codes.shape[0] for r in results))):
                result = self._generate(piece, decode, progress, (i + 1, len(plan.pieces)))
                if checking is not None:
                    result = self._checked(checking, piece, result, progress, (i + 1, len(plan.pieces)))
                results.append(result)
        return _stretched(joined(results, decode, complete=not plan.cut), speed)

    def checking(self, check, decode: bool = True):
        """`check` as `generate` takes it (True, or a `hearing.Check`) as a `hearing.Check` with its recognizer (this
        model's, `asr`, where it names none), or None; InputError when there is no recognizer, or no audio."""
        if check is None or check is False:
            return None
        from .hearing import Check

        if check is not True and not isinstance(check, Check):
            raise InputError(f"{{check}} must be true or a hearing.Check, got {type(check).__name__}", field="check")
        checking = Check() if check is True else check
        if checking.recognizer is None and self.asr is None:
            raise InputError("{check} needs a speech recognizer: load the model with asr= (e.g. "
                             "asr='Qwen/Qwen3-ASR-0.6B') or set tts.asr", field="check")
        if not decode:
            raise InputError("{check} hears the audio, and decode=False makes none", field="check")
        return checking if checking.recognizer is not None else replace(checking, recognizer=self.asr)

    def _checked(self, checking, piece: Request, result: Result, progress, at) -> Result:
        """The best of `result` and the piece made again while heard over the threshold, with its check."""
        def again(attempt: int) -> Result:
            seed = None if piece.seed is None else check_seed(piece.seed, attempt)
            return self._generate(replace(piece, seed=seed), True, progress, at)

        best, heard = checking.best(piece.text, result, lambda r: r.audio, self.sample_rate, piece.language,
                                    again if piece.sampling.sampled else None)
        return replace(best, checks=(heard,))

    def _generate(self, request: Request, decode: bool = True, progress=None, piece=(1, 1)) -> Result:
        """One piece's Result; a sampled piece whose speech ran away is spoken again once (`seeds.retry_seed`)."""
        frames, codes = self._spoken(request, progress, piece)
        if frames.runaway and request.sampling.sampled:
            request = replace(request, seed=retry_seed(frames.seed))
            frames, codes = self._spoken(request, progress, piece)
            return replace(self._result(request, codes, frames, decode), retried=True)
        return self._result(request, codes, frames, decode)

    def _spoken(self, request: Request, progress, piece) -> Tuple[FrameStream, list]:
        frames, codes = self.request_frames(request), []
        for frame in frames:
            codes.append(frame.codes)
            if progress is not None:
                progress(frame.index + 1, frames.max_frames, *piece)
        return frames, codes

    def _result(self, request: Request, codes: list, stats, decode: bool) -> Result:
        """A Result from the (1, 16) or (16,) code arrays of a request's frames; `stats`: the loop's
        report on them (stopped_on_eos, max_frames, prefill_s, runaway: a FrameStream or a Row)."""
        codes = np.array(codes, dtype=np.int32).reshape(-1, 16)
        audio = np.zeros((0,), dtype=np.float32)
        if decode and len(codes):
            audio = self._decode(mx.array(codes), request.voice.ref_codes, request.first_chunk_frames,
                                 request.chunk_frames)
        return Result(audio, codes, self.sample_rate, stats.stopped_on_eos, stats.max_frames, stats.prefill_s,
                      request.voice, stats.runaway)

    def generate_batch(self, texts: Sequence[str], seed=None, decode: bool = True, done=None, speed: float = 1.0,
                       **kwargs) -> List[Result]:
        """Several texts in one left-padded batch, each stopping at its own EOS.

        Per-item settings (language, speaker, instruct, voice, ref_audio, ref_text, x_vector_only, seed)
        may be lists of the same length as `texts`; a single value applies to every item. With
        greedy decoding each result equals generating that text alone.

        done: called as done(index, result) as each text finishes (in the order they finish).
        speed: each one's audio stretched to it, as `generate`.
        """
        speed = _check_speed(speed)  # before any work
        if isinstance(texts, (str, bytes)):
            raise InputError("generate_batch takes a list of texts; for a single text use generate", field="texts")
        texts = list(texts)
        if not texts:
            raise InputError("no texts to synthesize", field="texts")
        kwargs["seed"] = seed
        per_item = {k: v for k, v in kwargs.items() if k in PER_ITEM_KEYS and isinstance(v, list)}
        for key, values in per_item.items():
            if len(values) != len(texts):
                raise InputError(f"{{{key}}} has {len(values)} entries for {len(texts)} texts", field=key)
        requests = [self.request(text, **{**kwargs, **{k: v[i] for k, v in per_item.items()}})
                    for i, text in enumerate(texts)]
        _warn([n for r in requests for n in r.notices], stacklevel=3)  # each once for the batch
        results = {}
        for i, result in self.run(requests, decode):
            results[i] = result = _stretched(result, speed)
            if done is not None:
                done(i, result)
        return [results[i] for i in range(len(requests))]

    def run(self, requests: Sequence[Request], decode: bool = True) -> Iterator[Tuple[int, Result]]:
        """Requests (from `request`, or a plan's pieces) run together as rows of one batch, each with its own
        settings, seed and frame limit: (index in `requests`, its Result) as each finishes, in the order they
        finish. Every batch goes through here: `generate_batch`, `generate`'s "batch" split, long-form. The
        sampled ones whose speech ran away are spoken again once, together, after the others
        (`seeds.retry_seed`; their Results say `retried`)."""
        again = {}  # index -> the request spoken again
        for i, row, result in self._rows_run(requests, decode):
            if result.runaway and requests[i].sampling.sampled:
                again[i] = replace(requests[i], seed=retry_seed(row.seed))
            else:
                yield i, result
        order = list(again)
        for j, _, result in self._rows_run([again[i] for i in order], decode):
            yield order[j], replace(result, retried=True)

    def _rows_run(self, requests: Sequence[Request], decode: bool) -> Iterator[Tuple[int, object, Result]]:
        rows, batch = self.loop.rows(), [self.loop.row(request) for request in requests]
        rows.add(*batch)
        codes, finished = {row: [] for row in batch}, set()
        for frames in rows.drain():
            for row, frame in frames:
                codes[row].append(frame)
            for i, row in enumerate(batch):  # a row is done once its last frame is read
                if row.done and i not in finished:
                    finished.add(i)
                    yield i, row, self._result(requests[i], codes[row], row, decode)
        for i, (request, row) in enumerate(zip(requests, batch)):
            if i not in finished:
                yield i, row, self._result(request, codes[row], row, decode)

    def stream(self, text: str, first_chunk_frames: int = 1, chunk_frames: Optional[int] = None,
               seed: Optional[int] = None, split: str = "auto", aligner=None, **kwargs) -> ChunkStream:
        """Audio chunks while generating; they concatenate to `generate(...).audio` (a long text in the
        same pieces, `split` as there but "batch"). The first chunk has `first_chunk_frames` frames, each later
        one `chunk_frames`; with chunk_frames None they grow (2, 4, 8, then 16 frames after a first of 1).
        `aligner` (`mlx_qwen3tts.aligner.load()`): the stream also gives each piece's word timings
        (`aligner.piece_words.Words`: its words as written, with the times their spoken forms took) after its last
        chunk, aligned on a thread of their own as soon as its audio is complete (`request_chunks`)."""
        request = self._told(self.request(text, first_chunk_frames=first_chunk_frames, chunk_frames=chunk_frames,
                                          seed=seed, **kwargs))
        return self.request_chunks(request, split, aligner, _written(text) if aligner is not None else None)

    def stream_text(self, deltas: Iterable[str], first_chunk_frames: int = 1, chunk_frames: Optional[int] = None,
                    seed: Optional[int] = None, split: str = "auto", aligner=None, **kwargs) -> ChunkStream:
        """Audio chunks for text that arrives as deltas, spoken as it comes: a long text is cut at sentence
        ends where `generate` would cut it whole (split "none": never), each piece's first sentence spoken
        word by word, a later one once it has ended (so the cut is known). `aligner`: each piece's words
        too, as `stream` gives them."""
        written = _written(None) if aligner is not None else None
        deltas = written.fed(deltas) if written is not None else deltas
        request = self._told(self.request(deltas=deltas, first_chunk_frames=first_chunk_frames,
                                          chunk_frames=chunk_frames, seed=seed, **kwargs))
        return self.request_chunks(request, split, aligner, written)

    def warm(self, max_rows: int = 1):
        """Trace, on this thread, every compiled graph a request run here meets (Metal, CUDA), and load the text
        readers: `warm_up` without an engine (batches of up to `max_rows` rows: `generate_batch` of that many
        texts). Returns self."""
        warm_up(self, max_rows=max_rows)
        return self

    def engine(self, max_active: int = 8, max_queue: int = 32, prefill_budget: Optional[int] = None) -> Engine:
        """A continuous-batching `Engine` over this model: submit many requests, iterate their chunks."""
        return Engine(self.loop, self.codec, max_active=max_active, max_queue=max_queue, prefill_budget=prefill_budget)

    def decode(self, codes: mx.array, ref_codes: Optional[mx.array] = None) -> np.ndarray:
        """(T, 16) codes -> float32 audio. With ICL reference codes, decode them in front and drop
        their samples, as upstream does. Decoded in the default stream's chunks, so `decode(result.codes)` is
        bit for bit a default request's audio. Codes outside the codebooks are refused."""
        ref_codes = None if ref_codes is None else checked_codes(self.facts, ref_codes, "ref_codes")
        return self._decode(checked_codes(self.facts, codes), ref_codes)

    def _decode(self, codes: mx.array, ref_codes: Optional[mx.array] = None, first_chunk_frames: int = 1,
                chunk_frames: Optional[int] = None) -> np.ndarray:
        """`decode` of codes the loop made (valid by construction), in the chunks a stream of a request with
        these chunk sizes decodes them in (`chunk_length`), after its ICL reference codes: a request's whole
        audio is bit for bit its streamed audio, whichever front end ran it (the codec's result moves in the
        last bits with the split)."""
        lengths = (chunk_length(i, first_chunk_frames, chunk_frames) for i in itertools.count())
        return np.array(self.codec.decoder.decode_chunks(codes.astype(mx.int32), lengths, ref_codes))


def load(path_or_repo: str, dtype: Optional[mx.Dtype] = None, asr=None) -> TTS:
    """Load a Qwen3-TTS checkpoint from a local folder or a Hugging Face repo id.

    dtype: compute dtype of the talker and code predictor (default: float32 on the CPU, else as stored).
    The codec and the speaker encoder always run in float32.
    asr: a speech recognizer (`TTS.asr`): Qwen3-ASR's folder or hub id (e.g. 'Qwen/Qwen3-ASR-0.6B'), or an object
    with `transcribe(audio, sample_rate, language=None)`; reference audio without its transcript is then cloned in
    context with what it hears, and `generate(check=True)` checks what was said.
    """
    from .codec.speech_tokenizer import load_codec
    from .tokenizer import TextTokenizer

    folder = checkpoint.resolve(path_or_repo)
    config = checkpoint.load_config(folder)
    dtype = backend.compute_dtype(dtype, quantized=bool(config.quantization))
    model = layouts.load_model(folder, config, dtype, prefix="talker.")
    mx.eval(model.parameters())
    codec = load_codec(folder / "speech_tokenizer", encoder=config.tts_model_type == "base")
    tokenizer = TextTokenizer.from_folder(folder)
    gen_path = folder / "generation_config.json"
    generation_config = checkpoint.read_json(gen_path) if gen_path.exists() else {}
    tts = TTS(model, codec, tokenizer, generation_config, folder)
    tts.asr = asr
    return tts


def warm_up(tts: TTS, engine: Optional[Engine] = None, max_rows: int = 1):
    """Make ready what a first request meets, so that it costs what the next ones do: the loop's compiled graphs
    (the text projection's among them) and the codec's step for every piece a chunk is cut into, where requests
    run (`engine`'s scheduler thread, for its batches; else this thread, for batches of up to `max_rows` rows);
    a cloning model's speaker and codec encoders on this thread, where its clones are made; the text readers
    and the language detector. MLX keeps a compiled function's traces per stream and each thread has its own: call
    it on the thread that will clone (or, without an engine, speak). The one warm-up of every front end."""
    from .text.reading import warm as warm_reading

    if engine is not None:
        engine.warm()
    else:
        tts.loop.warm(max_rows)
        tts.codec.decoder.warm()
    tts.voices.warm()
    warm_reading()
