"""Word timings of long-form segments: each segment's audio aligned with what it spoke as soon as it is finished,
its words given as written (what the captions show) with the times their spoken forms took (`aligner.written`),
and kept beside its audio in the work folder so a resumed run keeps them. Times are seconds from the segment's first sample; `in_samples` places them in the output."""

from dataclasses import dataclass


@dataclass
class WordTimer:
    aligner: object  # mlx_qwen3tts.aligner.Aligner
    name: str  # the aligner's model id or folder: word files made by another are made again
    language: str = "auto"

    def __post_init__(self):
        check = getattr(self.aligner, "check_language", None)  # an aligner of the caller's may have none
        if check is not None:
            self.language = check(self.language)  # refused before any audio is made

    def times(self, audio, rate: int, segment) -> list:
        """[[word, start_s, end_s], ...] of `segment.shown` (as written), its spoken form (`segment.text`) in `audio`
        (mono, at `rate`)."""
        from ..aligner.written import as_written  # here: the aligner's package loads MLX (--help must not)

        if not audio.shape[0] or not any(ch.isalnum() for ch in segment.text):
            return []
        words = as_written(segment.shown, self.aligner.align(audio, rate, segment.text, self.language), self.language)
        return [[w.text, w.start, w.end] for w in words]


def in_samples(words, start: int, speech_end: int, rate: int) -> tuple:
    """(text, start, end) in output samples of a segment's word times (seconds from `start`), each within
    the segment's speech: the aligner's 80 ms steps may reach past the last sample."""
    out = []
    for text, s, e in words:
        a = min(start + int(round(s * rate)), speech_end)
        out.append((text, a, max(a, min(start + int(round(e * rate)), speech_end))))
    return tuple(out)
