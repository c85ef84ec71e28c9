"""Segments to speech, several at a time: the iterator every long-form front end consumes.

Segments are independent given their voice, so they run as rows of one batch (`TTS.generate_batch`'s
path), in order, `batch_size` at a time; with greedy decoding each one's audio equals that text spoken
alone. Each segment's seed is derived from the run's seed and its index, so a resumed run and a
segment re-run alone give the same audio as the whole run.
"""

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Dict, Iterator, Optional

import numpy as np

from ..seeds import check_seed, derived_seed
from .segments import Document, Segment

if TYPE_CHECKING:
    from ..tts import TTS


@dataclass
class Spoken:
    segment: Segment
    audio: np.ndarray  # (samples,) float32 at the model's rate: the speech, without the pause after it
    pause: int  # samples of silence that follow it in the output
    start: int  # the output sample where its speech starts
    stopped_on_eos: bool  # False: it ran to its frame limit, or ran away, without an end-of-speech token
    retried: bool = False  # spoken a second time after its speech ran away (see `TTS.run`)
    runaway: Optional[str] = None  # the runaway guard's rule that ended it (the second time, when retried)
    check: Optional[object] = None  # with `check`: how the recognizer heard it (`hearing.PieceCheck`)


def segment_seed(run_seed: int, index: int, attempt: int = 0) -> int:
    """A segment's seed: `seeds.derived_seed`, the one rule for everything spoken from one seed."""
    return derived_seed(run_seed, index, attempt)


def new_run_seed() -> int:
    return random.getrandbits(63)


def narrate(tts: "TTS", document: Document, *, voices: Optional[Dict[Optional[str], object]] = None, batch_size: int = 8,
            seed: Optional[int] = None, first: int = 0, start: int = 0, check=None,
            **request_kwargs) -> Iterator[Spoken]:
    """Finished segments of `document` in order, from segment `first` (whose speech starts at output
    sample `start`; earlier ones are taken as done).

    voices: a script's speaker name -> voice (a Voice, or what `TTS.request` takes as `voice`); the
    voice for None (and for every segment without a speaker) is the narrator's, else `request_kwargs`
    decide. request_kwargs: as `TTS.request` (language, speaker, instruct, temperature, ...);
    `max_tokens` caps each segment. A segment whose speech runs away is, when sampling, spoken once more
    with a seed derived from its own (`TTS.run`; the runaway guard, loop/runaway.py).

    check: a `hearing.Check` with its recognizer: each segment is heard once made and, sampled and heard too far from
    its text, made again alone with `seeds.check_seed` of its seed, the best kept (`Spoken.check` tells how).
    """
    seed = new_run_seed() if seed is None else seed
    voices = voices or {}
    todo = document.segments[first:]
    for at in range(0, len(todo), batch_size):
        group = todo[at : at + batch_size]
        requests = [_request(tts, s, voices, seed, request_kwargs) for s in group]
        for segment, request, result in zip(group, requests, _speak(tts, requests)):
            heard = None
            if check is not None:
                result, heard = _checked(tts, check, segment, request, result)
            pause = int(round(segment.pause_s * tts.sample_rate))
            yield Spoken(segment, result.audio, pause, start, result.stopped_on_eos, result.retried, result.runaway,
                         heard)
            start += result.audio.shape[0] + pause


def _request(tts: "TTS", segment: Segment, voices: dict, seed: int, kwargs: dict):
    voice = voices.get(segment.speaker, voices.get(None))
    extra = dict(voice=voice, speaker=None) if voice is not None else {}
    return tts.request(segment.text, seed=segment_seed(seed, segment.index), **{**kwargs, **extra})


def _checked(tts: "TTS", check, segment: Segment, request, result):
    """The best of a segment's result and its makings again, and its check (`hearing.Check.best`)."""
    def again(attempt: int):
        (_, made), = tts.run([replace(request, seed=check_seed(request.seed, attempt))], decode=True)
        return made

    return check.best(segment.text, result, lambda r: r.audio, tts.sample_rate, request.language,
                      again if request.sampling.sampled else None)


def _speak(tts: "TTS", requests) -> list:
    """The Results of `requests`, in order: one batch, a row each (`TTS.run`)."""
    return [result for _, result in sorted(tts.run(requests, decode=True), key=lambda item: item[0])]

