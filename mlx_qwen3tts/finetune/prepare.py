"""Recordings -> a fine-tuning dataset (`dataset.py`): codes, transcripts and speaker vectors.

DATA is a folder of recordings (WAV, FLAC, MP3, M4A, ...; any rate, mono or stereo; `NAME.txt` beside
`NAME.wav` is its transcript; recordings in a subfolder are the speaker the subfolder names, the others
"speaker") or a JSONL in the official format (finetuning/prepare_data.py of QwenLM/Qwen3-TTS: one object a
line, `audio`, `text`, `ref_audio`, optional `language`; here also an optional `speaker`, and `ref_audio`
defaults to the clip itself). Each clip's codes are the 12 Hz codec's encode of that clip alone (upstream
encodes 32 zero-padded clips at once, which changes a shorter clip's last frame); its speaker vector is
the speaker encoder's x-vector of its `ref_audio` (a folder's clip: the clip itself), in float32.

The whole dataset is checked before any work (one line for the first problem: an empty folder, a file that
is not audio, a JSONL line without `audio`, a transcript in another language than declared, a sample rate
outside 8-192 kHz). Clips that cannot train well are then refused one by one, each with its reason, and
counted: too short, too long, silent, clipped, not speech (a steady tone, hum or noise), transcript empty.
Without a transcript the recognizer (`asr`) writes one. A recording longer than `max_seconds` is cut into
utterances at its words where an aligner is given: its transcript (given, or heard in windows both models take)
timed by the aligner, cut at sentence ends, else at the longest gaps between words (`cutting`). Without an
aligner, or where it fails, one without a transcript is cut at its pauses (energy-based), one with a transcript
refused as too long; the summary counts each way.

Work is kept per recording in `OUT.partial/` so that a run stopped by Ctrl-C or a crash resumes where it
stopped; the dataset is written into place at the end, all or nothing (`dataset.write`). An existing OUT
that this did not make is never touched.
"""

import hashlib
import json
import math
import os
import shutil
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

import mlx.core as mx
import numpy as np
from safetensors.numpy import load_file, save_file

from ..audio.reference import (FORMATS, MAX_SAMPLE_RATE, MIN_SAMPLE_RATE, ReferenceAudioError, load_reference_audio,
                               read_audio, resample_to_24k)
from ..errors import InputError
from ..languages import LANGUAGE_CODES, language_key
from . import cutting, dataset

MADE_BY = "mlx_qwen3tts.finetune.prepare"
PARTIAL = ".partial"
SAMPLE_RATE, FRAME_RATE = 24000, 12.5
AUDIO_SUFFIXES = (".wav", ".flac", ".mp3", ".m4a", ".ogg", ".opus", ".aac", ".aif", ".aiff", ".webm", ".mp4")
MIN_SECONDS, MAX_SECONDS = 1.0, 20.0
SILENT_DBFS = -60.0  # a clip whose loudness (RMS) is below this holds no speech to learn from
CLIP_LEVEL, CLIPPED_SHARE = 0.999, 0.001  # more than 0.1% of samples at full scale: the recording clipped
PAUSE_SECONDS, PAUSE_DB = 0.25, 35.0  # a cut: this long this far below the recording's loud frames
STEADY_DB, VOICED_R, VOICED_SHARE = 2.5, 0.5, 0.2  # `not_speech` (speech here: 4-6 dB and 65-92% voiced)
EXAMPLE_MODEL = "Qwen/Qwen3-TTS-12Hz-0.6B-Base"
WORDS, NOT_CUT = "at its words", "not cut"  # how a long recording was cut (`cut`), counted in the summary


class DatasetError(InputError):
    """DATA, OUT or an option cannot be prepared; the one-line message says what to change, naming the
    arguments in `others` as `{name}` (`Qwen3TTSError.worded`)."""

    def __init__(self, message: str, others=()):
        super().__init__(message, field="data", others=tuple(others))


@dataclass
class Source:
    """One recording to prepare, as DATA names it."""

    id: str
    audio: Path
    text: Optional[str]
    ref_audio: Optional[Path] = None  # None: the clip itself
    language: str = "auto"
    speaker: str = "speaker"


@dataclass
class Summary:
    recordings: int = 0
    kept: int = 0
    seconds: float = 0.0
    refused: dict = field(default_factory=dict)  # reason -> clips
    languages: dict = field(default_factory=dict)  # language -> {"clips", "seconds"}
    speakers: dict = field(default_factory=dict)  # speaker -> clips
    cut: dict = field(default_factory=dict)  # how long recordings were cut (`cut`) -> recordings

    @property
    def hours(self) -> float:
        return self.seconds / 3600

    def lines(self) -> list:
        refused = sum(self.refused.values())
        why = ", ".join(f"{reason}: {n}" for reason, n in sorted(self.refused.items()))
        head = (f"{self.kept} clips kept ({self.hours:.3f} h) from {self.recordings} recordings, {refused} refused"
                + (f" ({why})" if why else ""))
        cut = [f"  long recordings cut {how}: {n}" for how, n in sorted(self.cut.items())]
        return [head] + [f"  {name}: {v['clips']} clips, {v['seconds'] / 3600:.3f} h"
                         for name, v in sorted(self.languages.items())] + cut


# --- DATA -> sources, checked before any work ---------------------------------------------------------------

def declared_language(language: Optional[str]) -> str:
    """The dataset's name of a declared language ("english", ...), "auto" for None or "auto"."""
    key = language_key(language or "auto")
    if key != "auto" and key not in LANGUAGE_CODES:
        raise DatasetError(f"language {language!r} is not one the model speaks: "
                           f"auto, {', '.join(sorted(LANGUAGE_CODES))}")
    return key


def read_sources(data, language: Optional[str] = None) -> list:
    """The recordings DATA names (a folder or a JSONL), transcripts read; DatasetError on the first problem."""
    data = Path(data)
    if data.is_dir():
        return folder_sources(data, declared_language(language))
    if data.is_file() and data.suffix.lower() in (".jsonl", ".json"):
        return jsonl_sources(data, language)
    if data.is_file():
        raise DatasetError(f"{data} is neither a folder of recordings nor a .jsonl in the official format")
    raise DatasetError(f"{data} does not exist: give a folder of recordings or a .jsonl")


def folder_sources(folder: Path, language: str) -> list:
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not any(
        part.startswith(".") for part in p.relative_to(folder).parts))
    sources = []
    for path in files:
        rel = path.relative_to(folder)
        if len(rel.parts) > 2:
            raise DatasetError(f"{path}: recordings go in DATA or in one subfolder a speaker (DATA/NAME/clip.wav)")
        if path.suffix.lower() == ".txt":
            continue
        if path.suffix.lower() not in AUDIO_SUFFIXES:
            raise DatasetError(f"{path} is not audio ({', '.join(s[1:] for s in AUDIO_SUFFIXES)}): move it out "
                               f"of {folder}")
        text_path = path.with_suffix(".txt")
        text = text_path.read_text(encoding="utf-8") if text_path.is_file() else None
        speaker = rel.parts[0] if len(rel.parts) == 2 else "speaker"
        sources.append(Source(rel.with_suffix("").as_posix(), path, text, None, language, speaker))
    if not sources:
        raise DatasetError(f"{folder} holds no recordings ({', '.join(s[1:] for s in AUDIO_SUFFIXES)})")
    ids = [s.id for s in sources]
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice:
        raise DatasetError(f"{folder}: two recordings named {twice} (different formats); keep one")
    return sources


def jsonl_sources(path: Path, language: Optional[str]) -> list:
    sources = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            sources.append(jsonl_source(path, n, line, language))
    if not sources:
        raise DatasetError(f"{path} is empty: one JSON object a line with audio, text and ref_audio")
    return sources


def jsonl_source(path: Path, n: int, line: str, language: Optional[str]) -> Source:
    where = f"{path} line {n}"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        raise DatasetError(f"{where} is not JSON ({e.msg})") from None
    if not isinstance(record, dict) or not isinstance(record.get("audio"), str) or not record["audio"].strip():
        raise DatasetError(f"{where} has no \"audio\": each line needs audio, text and ref_audio")
    text = record.get("text")
    if text is not None and not isinstance(text, str):
        raise DatasetError(f"{where}: \"text\" must be a string")
    audio = _beside(path, record["audio"], where)
    ref = _beside(path, record["ref_audio"], where) if record.get("ref_audio") else None
    try:
        lang = declared_language(record.get("language") or language)
    except DatasetError as e:
        raise DatasetError(f"{where}: {e.template}", e.fields[1:]) from None
    speaker = str(record.get("speaker") or "speaker")
    return Source(f"{n:05d}-{audio.stem}", audio, text, ref, lang, speaker)


def _beside(jsonl: Path, name, where: str) -> Path:
    """A path a JSONL line names: relative to the JSONL's folder, else to the working folder (upstream's)."""
    if not isinstance(name, str):
        raise DatasetError(f"{where}: audio paths must be strings, got {name!r}")
    for candidate in (jsonl.parent / name, Path(name)):
        if candidate.is_file():
            return candidate
    raise DatasetError(f"{where}: {name} not found (beside {jsonl.name} or in the working folder)")


def check_sources(sources: list, asr) -> None:
    """Every recording readable at a rate the encoders take, every transcript in its declared language."""
    from ..text.reading import detected

    missing = [s for s in sources if s.text is None]
    if missing and asr is None:
        raise DatasetError(f"{len(missing)} recordings have no transcript (first: {missing[0].audio}): write "
                           "NAME.txt beside each (or \"text\" in the JSONL), or give a recognizer ({asr}) to "
                           "transcribe them", others=("asr",))
    for path in dict.fromkeys([s.audio for s in sources] + [s.ref_audio for s in sources if s.ref_audio]):
        _probe(path)
    for s in sources:
        said = detected(s.text) if s.text and s.language != "auto" else None
        if said and said != LANGUAGE_CODES[s.language]:
            name = next(k for k, v in LANGUAGE_CODES.items() if v == said)
            raise DatasetError(f"{s.audio}: its transcript reads as {name}, not {s.language} as declared; fix the "
                               "transcript or the language ({language}, or the line's \"language\")",
                               others=("language",))


def _probe(path: Path) -> None:
    try:
        _, rate, _ = read_audio(path, max_seconds=0.05)
    except ReferenceAudioError:
        raise DatasetError(f"{path} is not audio in a format this reads ({FORMATS})") from None
    if not MIN_SAMPLE_RATE <= rate <= MAX_SAMPLE_RATE:
        raise DatasetError(f"{path} is sampled at {rate} Hz; the encoders take {MIN_SAMPLE_RATE // 1000}-"
                           f"{MAX_SAMPLE_RATE // 1000} kHz (resampled to 24 kHz): record or export it at 16 kHz "
                           "or more")


# --- OUT and its work folder --------------------------------------------------------------------------------

def work_folder(out: Path, plan: dict) -> Path:
    """OUT.partial, made or resumed; DatasetError where it is something this did not make or another run's."""
    work = out.with_name(out.name + PARTIAL)
    if work.exists():
        if not _made_here(work / "plan.json"):
            raise DatasetError(f"{work} exists and was not made by prepare; move it away or choose another {{out}}",
                               others=("out",))
        if json.loads((work / "plan.json").read_text(encoding="utf-8")) != plan:
            raise DatasetError(f"{work} is an unfinished prepare of other data or settings; delete it to start "
                               "again, or prepare the same again to resume it")
        return work
    (work / "clips").mkdir(parents=True)
    _write_atomic(work / "plan.json", json.dumps(plan, indent=1, ensure_ascii=False).encode())
    return work


def _made_here(path: Path) -> bool:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("made_by") == MADE_BY
    except (OSError, ValueError, AttributeError):
        return False


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _clip_files(work: Path, source: Source) -> tuple:
    key = hashlib.sha1(source.id.encode("utf-8")).hexdigest()[:16]
    return work / "clips" / f"{key}.json", work / "clips" / f"{key}.safetensors"


def save_done(work: Path, source: Source, done: dict, arrays: dict) -> None:
    """One recording's pieces and refusals, arrays first: its .json marks it done."""
    meta, tensors = _clip_files(work, source)
    if arrays:
        save_file(arrays, str(tensors.with_name(f".{tensors.name}.tmp")))
        os.replace(tensors.with_name(f".{tensors.name}.tmp"), tensors)
    _write_atomic(meta, json.dumps(done, ensure_ascii=False).encode())


def load_done(work: Path, source: Source) -> Optional[tuple]:
    meta, tensors = _clip_files(work, source)
    if not meta.is_file():
        return None
    done = json.loads(meta.read_text(encoding="utf-8"))
    return done, (load_file(str(tensors)) if done["pieces"] else {})


# --- one recording -> pieces ---------------------------------------------------------------------------------

@dataclass
class Encoders:
    """What prepare runs: the codec's encoder, the speaker encoder and, for missing transcripts, a recognizer."""

    codec: object
    speaker: object
    asr: object = None
    aligner: object = None  # times a long recording's words to cut it there (`cut`)
    refs: dict = field(default_factory=dict)  # ref_audio path -> its x-vector

    def vector(self, ref: Optional[Path], audio: np.ndarray) -> np.ndarray:
        from ..model.speaker_encoder import extract_xvector

        if ref is None:
            return np.array(extract_xvector(self.speaker, audio), dtype=np.float32)
        if ref not in self.refs:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # over 30 s: its first 30 s, as cloning uses
                try:
                    audio = load_reference_audio(ref)
                except ReferenceAudioError as e:
                    raise DatasetError(f"ref_audio {ref}: {e}") from None
                self.refs[ref] = np.array(extract_xvector(self.speaker, audio), np.float32)
        return self.refs[ref]

    def codes(self, audio: np.ndarray) -> np.ndarray:
        codes = self.codec.encode(mx.array(audio))
        return np.array(codes.astype(mx.int32))


def load_clip(path: Path) -> tuple:
    """(24 kHz mono float32 samples, share of original samples at full scale)."""
    samples, rate, _ = read_audio(path)
    clipped = float(np.mean(np.max(np.abs(samples), axis=1) >= CLIP_LEVEL)) if samples.size else 0.0
    return resample_to_24k(np.mean(samples, axis=1, dtype=np.float32), rate), clipped


def refusal(audio: np.ndarray, clipped: float, options: dict) -> Optional[str]:
    """Why a clip cannot train well ("too short: ..."), or None."""
    seconds = audio.shape[0] / SAMPLE_RATE
    if seconds < options["min_seconds"]:
        return f"too short: {seconds:.2f} s, at least {options['min_seconds']:g} s"
    if seconds > options["max_seconds"]:
        return (f"too long: {seconds:.1f} s, at most {options['max_seconds']:g} s (cut it, or give an aligner to "
                "cut it at its words)")
    if _dbfs(audio) < SILENT_DBFS:
        return f"silent: {_dbfs(audio):.0f} dBFS"
    if clipped > CLIPPED_SHARE:
        return f"clipped: {100 * clipped:.1f}% of samples at full scale"
    return not_speech(audio)


def not_speech(audio: np.ndarray) -> Optional[str]:
    """Why a clip is clearly no speech (a steady tone, hum or noise), or None. Speech rises and falls syllable by
    syllable and is voiced (periodic at a pitch) in much of it: over the clip's 30 ms frames within PAUSE_DB of its
    loud ones, the loudness varies by at least STEADY_DB (standard deviation) and VOICED_SHARE of them are periodic
    (normalized autocorrelation over VOICED_R at a lag of 70-400 Hz)."""
    hop = int(0.03 * SAMPLE_RATE)
    frames = audio[: audio.shape[0] // hop * hop].reshape(-1, hop).astype(np.float64)
    energy = 10 * np.log10(np.mean(np.square(frames), axis=1) + 1e-12)
    loud = np.flatnonzero(energy >= np.percentile(energy, 95) - PAUSE_DB)
    if (spread := float(np.std(energy[loud]))) < STEADY_DB:
        return f"not speech: its loudness is steady ({spread:.1f} dB of variation), as a tone's, hum's or noise's is"
    voiced = float(np.mean([_periodicity(audio[i * hop : i * hop + 2 * hop]) > VOICED_R for i in loud]))
    if voiced < VOICED_SHARE:
        return f"not speech: {100 * voiced:.0f}% of it is voiced (pitched), as noise is"
    return None


def _periodicity(window: np.ndarray) -> float:
    """The highest normalized autocorrelation of `window` at a lag of a voice's pitch (70-400 Hz)."""
    x = window.astype(np.float64) - np.mean(window)
    ac = np.fft.irfft(np.abs(np.fft.rfft(x, 2 * x.shape[0])) ** 2)[: x.shape[0]]
    lo, hi = SAMPLE_RATE // 400, min(SAMPLE_RATE // 70, x.shape[0] - 1)
    return float(np.max(ac[lo:hi]) / ac[0]) if ac[0] > 0 and hi > lo else 0.0


def _dbfs(audio: np.ndarray) -> float:
    rms = float(np.sqrt(np.mean(np.square(audio, dtype=np.float64)))) if audio.size else 0.0
    return 20 * math.log10(max(rms, 1e-12))


def utterances(audio: np.ndarray, max_seconds: float) -> list:
    """(start, end) sample spans of at most `max_seconds` each, cut in the middle of pauses: frames of 30 ms at
    least PAUSE_DB below the loud (95th percentile) frames, for PAUSE_SECONDS or more. A stretch without such a
    pause stays whole (and is refused as too long)."""
    hop = int(0.03 * SAMPLE_RATE)
    n = audio.shape[0] // hop
    if n == 0:
        return [(0, audio.shape[0])]
    energy = 10 * np.log10(np.mean(np.square(audio[: n * hop].reshape(n, hop), dtype=np.float64), axis=1) + 1e-12)
    quiet = energy < max(np.percentile(energy, 95) - PAUSE_DB, SILENT_DBFS)
    cuts, run = [], 0
    for i, q in enumerate(np.append(quiet, False)):
        if q:
            run += 1
            continue
        if run * hop >= PAUSE_SECONDS * SAMPLE_RATE and i - run > 0 and i < n:
            cuts.append((i - run // 2) * hop)
        run = 0
    spans, start, limit = [], 0, int(max_seconds * SAMPLE_RATE)
    for here, after in zip(cuts, cuts[1:] + [audio.shape[0]]):
        if after - start > limit:
            spans.append((start, here))
            start = here
    return spans + [(start, audio.shape[0])]


def cut(source: Source, audio: np.ndarray, enc: Encoders, options: dict) -> tuple:
    """([(start, end, text or None: to transcribe)], how) of one recording: whole where it is short; a long one
    cut at its words (`at_words`) where an aligner times them, else (no aligner, or it failed: `how` says why)
    at its pauses when it has no transcript, or left whole (and refused as too long) when it has one."""
    whole = [(0, audio.shape[0], source.text)]
    if audio.shape[0] <= options["max_seconds"] * SAMPLE_RATE or (source.text is not None and enc.aligner is None):
        return whole, None
    why = "no aligner"
    if enc.aligner is not None:
        try:
            return at_words(source, audio, enc, options), WORDS
        except (InputError, cutting.Unplaced) as e:
            why = f"the aligner could not: {e}"
    if source.text is not None:
        return whole, f"{NOT_CUT} ({why})"
    return [(a, b, None) for a, b in utterances(audio, options["max_seconds"])], f"at pauses ({why})"


def at_words(source: Source, audio: np.ndarray, enc: Encoders, options: dict) -> list:
    """[(start, end, text)] samples of a long recording cut at its words (`cutting`): its transcript, given or
    heard, timed by the aligner."""
    text, words = timed_words(source, audio, enc)
    found = cutting.pieces(text, words, audio.shape[0] / SAMPLE_RATE, options["max_seconds"], options["min_seconds"])
    return [(_sample(a, audio), _sample(b, audio), said) for a, b, said in found]


def _sample(seconds: float, audio: np.ndarray) -> int:
    return min(max(int(round(seconds * SAMPLE_RATE)), 0), audio.shape[0])


def timed_words(source: Source, audio: np.ndarray, enc: Encoders) -> tuple:
    """(transcript, aligner words in seconds of the recording): the given transcript aligned at once, or the
    recording heard and aligned in windows both models take, cut at pauses (the windows' texts joined by a
    space; a window heard as nothing has no words)."""
    from ..aligner import MAX_SECONDS as ALIGNER_SECONDS, Word

    if source.text is not None:
        return source.text, enc.aligner.align(audio, SAMPLE_RATE, source.text, source.language)
    longest = min(ALIGNER_SECONDS, getattr(enc.asr, "chunk_seconds", ALIGNER_SECONDS))
    texts, words = [], []
    for start, end in utterances(audio, longest):
        heard = enc.asr.transcribe(audio[start:end], SAMPLE_RATE, _asr_language(source))
        if not any(ch.isalnum() for ch in heard.text):
            continue
        found = getattr(heard, "language", "") or ""  # one language detected: the aligner splits its words so
        said = found if source.language == "auto" and "," not in found else source.language
        timed = enc.aligner.align(audio[start:end], SAMPLE_RATE, heard.text, said or "auto")
        texts.append(heard.text.strip())
        words += [Word(w.text, w.start + start / SAMPLE_RATE, w.end + start / SAMPLE_RATE) for w in timed]
    return " ".join(texts), words


def _asr_language(source: Source) -> Optional[str]:
    return None if source.language == "auto" else source.language


def prepare_one(source: Source, enc: Encoders, options: dict) -> tuple:
    """One recording -> ({"pieces": [...], "refused": [...], "cut": how or None}, arrays): its clips (a long one
    cut, `cut`), each kept with its codes and speaker vector or refused with its reason."""
    audio, clipped = load_clip(source.audio)
    spans, how = cut(source, audio, enc, options)
    done, arrays = {"pieces": [], "refused": [], "cut": how}, {}
    for k, (start, end, text) in enumerate(spans):
        piece_id = f"{source.id}#{k + 1:03d}" if how and not how.startswith(NOT_CUT) else source.id
        piece = audio[start:end]
        seconds = piece.shape[0] / SAMPLE_RATE
        why = refusal(piece, clipped, options)
        if why is None and text is None:
            text = enc.asr.transcribe(piece, SAMPLE_RATE, _asr_language(source)).text
        if why is None and not (text or "").strip():
            why = "transcript empty"
        if why is not None:
            done["refused"].append({"id": piece_id, "source": str(source.audio), "reason": why, "seconds": seconds})
            continue
        arrays[f"codes/{piece_id}"] = enc.codes(piece)
        arrays[f"vector/{piece_id}"] = enc.vector(source.ref_audio, piece)
        done["pieces"].append({"id": piece_id, "text": text.strip(), "language": source.language,
                               "speaker": source.speaker, "source": str(source.audio), "seconds": seconds})
    return done, arrays


# --- the whole run -------------------------------------------------------------------------------------------

def load_encoders(model, asr=None, aligner=None) -> Encoders:
    """The codec encoder and speaker encoder of a Base checkpoint (folder or hub id); `asr` a Qwen3-ASR folder or
    hub id, or an object with `transcribe(audio, sample_rate, language)`; `aligner` a Qwen3-ForcedAligner folder
    or hub id, or an `aligner.Aligner`."""
    from ..codec.speech_tokenizer import load_codec
    from ..model import checkpoint
    from ..model.layouts import SPEAKER_PREFIX, is_mlx_layout
    from ..model.speaker_encoder import SpeakerEncoder, sanitize

    folder = checkpoint.resolve(model)
    config = checkpoint.load_config(folder)
    if config.tts_model_type != "base" or config.speaker_encoder_config is None:
        raise DatasetError(f"{model} is a {config.tts_model_type} model; prepare needs a Base model's codec and "
                           f"speaker encoders (e.g. {EXAMPLE_MODEL}), which fine-tune any model of its size")
    files = checkpoint.safetensors_files(folder)
    weights = {k: v for k, v in checkpoint.load_weights(files).items() if k.startswith(SPEAKER_PREFIX)}
    if is_mlx_layout(files, config):
        weights = {k[len(SPEAKER_PREFIX):]: v.astype(mx.float32) for k, v in weights.items()}
    else:
        weights = sanitize(weights)
    speaker = SpeakerEncoder(config.speaker_encoder_config)
    checkpoint.apply_weights(speaker, weights, f"{folder} (speaker_encoder.*)")
    mx.eval(speaker.parameters())
    codec = load_codec(folder / "speech_tokenizer", decoder=False)
    if isinstance(asr, (str, os.PathLike)):
        from .. import asr as asr_module

        asr = asr_module.load(str(asr))
    if isinstance(aligner, (str, os.PathLike)):
        from .. import aligner as aligner_module

        aligner = aligner_module.load(str(aligner))
    return Encoders(codec, speaker, asr, aligner)


class PrepareStatus:
    """The progress line on stderr (`StatusLine`: redrawn on a terminal; elsewhere a line at every tenth of the
    recordings), and a line that stays for each refused clip."""

    def __init__(self, total: int, stream=None):
        from ..longform.progress import StatusLine

        self.total, self.status, self.start, self.shown = total, StatusLine(stream), time.monotonic(), -1

    def show(self, done: int, summary: Summary, resumed: int = 0):
        tenth = done * 10 // max(self.total, 1)
        if not self.status.tty and tenth == self.shown and done < self.total:
            return
        self.shown = tenth
        rate = (time.monotonic() - self.start) / max(done - resumed, 1)
        left = "" if done >= self.total or done == resumed else f", {rate * (self.total - done):.0f} s left"
        self.status.update(f"prepare: {done}/{self.total} recordings, {summary.kept} clips kept "
                           f"({summary.hours:.3f} h), {sum(summary.refused.values())} refused{left}")
        if done >= self.total:
            self.status.end()

    def note(self, line: str):
        self.status.line(line)


def _count(summary: Summary, done: dict) -> None:
    for p in done["pieces"]:
        summary.kept += 1
        summary.seconds += p["seconds"]
        lang = summary.languages.setdefault(p["language"], {"clips": 0, "seconds": 0.0})
        lang["clips"], lang["seconds"] = lang["clips"] + 1, lang["seconds"] + p["seconds"]
        summary.speakers[p["speaker"]] = summary.speakers.get(p["speaker"], 0) + 1
    for r in done["refused"]:
        reason = r["reason"].split(":")[0]
        summary.refused[reason] = summary.refused.get(reason, 0) + 1
    if done.get("cut"):
        summary.cut[done["cut"]] = summary.cut.get(done["cut"], 0) + 1


def _items(done: dict, arrays: dict) -> list:
    return [dataset.Item(id=p["id"], text=p["text"], language=p["language"], codes=arrays[f"codes/{p['id']}"],
                         speaker_vector=arrays[f"vector/{p['id']}"], speaker=p["speaker"], source=p["source"])
            for p in done["pieces"]]


def prepare(data, model, out, asr=None, language: Optional[str] = None, aligner=None, **options) -> Summary:
    """Prepare the recordings DATA names (a folder or an official JSONL) as the dataset folder `out` for the Base
    checkpoint `model` (its codec and speaker encoders); `asr` transcribes recordings without a transcript;
    `language` is declared for all that do not declare their own; `aligner` (a Qwen3-ForcedAligner) cuts long
    recordings at their words, given or heard (without it, only those without a transcript are cut, at their
    pauses). Options: min_seconds, max_seconds, progress
    (a stream for the progress line; False for none). Resumes an unfinished run into the same `out`. Returns the
    `Summary`; raises DatasetError (one line) for bad input, before anything is written."""
    options = {"min_seconds": MIN_SECONDS, "max_seconds": MAX_SECONDS, "progress": None, **options}
    sources = read_sources(data, language)
    check_sources(sources, asr)
    out = Path(out)
    if out.exists() and not _made_here(out / "dataset.json"):  # a complete one of ours is replaced, all at once
        raise DatasetError(f"{out} exists and is not a dataset prepare made; choose another {{out}}", others=("out",))
    enc = load_encoders(model, asr if any(s.text is None for s in sources) else None, aligner)
    for ref in dict.fromkeys(s.ref_audio for s in sources if s.ref_audio):
        enc.vector(ref, None)  # an unusable reference refused now, before anything is written
    plan = {"made_by": MADE_BY, "data": str(Path(data).resolve()), "model": str(model), "language": language,
            "asr": _named(asr), "min_seconds": options["min_seconds"], "max_seconds": options["max_seconds"]}
    if aligner is not None:  # a run without one resumes a partial folder made before there was this option
        plan["aligner"] = _named(aligner)
    work = work_folder(out, plan)
    summary, items = run(sources, enc, work, options)
    if not items:
        shutil.rmtree(work, ignore_errors=True)
        raise DatasetError(f"every clip of {data} was refused ({summary.lines()[0]}): nothing to train on")
    meta = {"made_by": MADE_BY, "model": str(model), "sample_rate": SAMPLE_RATE, "frame_rate": FRAME_RATE,
            "summary": {**asdict(summary), "hours": summary.hours}}
    dataset.write(out, items, meta, replace=True)  # an existing `out` was checked above to be ours
    shutil.rmtree(work, ignore_errors=True)
    return summary


def _named(model) -> Optional[str]:
    return None if model is None else str(model) if isinstance(model, (str, os.PathLike)) else type(model).__name__


def run(sources: list, enc: Encoders, work: Path, options: dict) -> tuple:
    """(Summary, dataset items) of every recording: each prepared and kept in `work`, or taken from it where an
    earlier run did it."""
    summary, items, resumed = Summary(recordings=len(sources)), [], 0
    progress = None if options["progress"] is False else PrepareStatus(len(sources), options["progress"])
    for n, source in enumerate(sources, 1):
        found = load_done(work, source)
        if found is None:
            found = prepare_one(source, enc, options)
            save_done(work, source, *found)
            if progress and found[0]["cut"] and found[0]["cut"] != WORDS:
                progress.note(f"{source.id} ({source.audio}): long, {found[0]['cut']}")
            for r in found[0]["refused"] if progress else ():
                progress.note(f"refused {r['id']} ({r['source']}): {r['reason']}")
        else:
            resumed += 1
        _count(summary, found[0])
        items += _items(*found)
        if progress:
            progress.show(n, summary, resumed)
    return summary, items
