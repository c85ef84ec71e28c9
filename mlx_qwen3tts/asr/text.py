"""What Qwen3-ASR is told and what it says, as qwen-asr 0.0.6 handles both (`qwen_asr/inference/utils.py`).

- `LANGUAGES`: the 30 languages it transcribes and names (its `SUPPORTED_LANGUAGES`).
- `split_audio`: a clip longer than `max_seconds` cut near every `max_seconds` at the quietest 100 ms within
  5 s of the cut (its `split_audio_into_chunks`): no gap, no overlap; a piece under 0.5 s is zero-padded.
- `parse_output`: "language X<asr_text>text" to (language, text) (its `parse_asr_output`), after long runs
  of one character or of a short pattern are cut to one (its `detect_and_fix_repetitions`).
- `merge_languages`: the languages of a clip's pieces, joined by "," without repeats in a row.
"""

import numpy as np

LANGUAGES = ("Chinese", "English", "Cantonese", "Arabic", "German", "French", "Spanish", "Portuguese", "Indonesian",
             "Italian", "Korean", "Russian", "Thai", "Vietnamese", "Japanese", "Turkish", "Hindi", "Malay", "Dutch",
             "Swedish", "Danish", "Finnish", "Polish", "Czech", "Filipino", "Persian", "Greek", "Romanian",
             "Hungarian", "Macedonian")
MIN_SECONDS = 0.5
ASR_TEXT = "<asr_text>"
REPEATS = 20  # a character or pattern repeated more than this many times in a row is kept once


def canonical(language: str) -> str:
    """qwen-asr's spelling of a language name: first letter upper case, the rest lower ('cHINese' -> 'Chinese')."""
    s = str(language).strip()
    return s[:1].upper() + s[1:].lower()


def split_audio(wav: np.ndarray, rate: int, max_seconds: float, search_seconds: float = 5.0,
                window_ms: float = 100.0) -> list:
    """[(piece, offset in seconds)] of mono `wav`: the whole clip when it is at most `max_seconds` long."""
    total = int(wav.shape[0])
    if total / float(rate) <= max_seconds:
        return [(wav, 0.0)]
    longest, expand = int(max_seconds * rate), int(search_seconds * rate)
    window = max(4, int(window_ms / 1000.0 * rate))
    pieces, start, offset = [], 0, 0.0
    while total - start > longest:
        cut = start + longest
        left, right = max(start, cut - expand), min(total, cut + expand)
        if right - left <= window:
            boundary = cut
        else:
            loudness = np.abs(wav[left:right])
            sums = np.convolve(loudness, np.ones(window, dtype=np.float32), mode="valid")
            quiet = int(np.argmin(sums))  # the quietest window; its quietest sample is the boundary
            boundary = left + quiet + int(np.argmin(loudness[quiet:quiet + window]))
        boundary = min(max(boundary, start + 1), total)
        pieces.append((wav[start:boundary], offset))
        offset += (boundary - start) / float(rate)
        start = boundary
    pieces.append((wav[start:total], offset))
    shortest = int(MIN_SECONDS * rate)
    return [(np.pad(p, (0, shortest - p.shape[0])).astype(np.float32) if p.shape[0] < shortest else p, o)
            for p, o in pieces]


def _fix_character_runs(s: str, limit: int) -> str:
    out, i = [], 0
    while i < len(s):
        run = 1
        while i + run < len(s) and s[i + run] == s[i]:
            run += 1
        out.append(s[i] if run > limit else s[i:i + run])
        i += run
    return "".join(out)


def _fix_pattern_runs(s: str, limit: int, longest: int = 20) -> str:
    """The first pattern (1 to `longest` characters, shortest first) that repeats `limit` times in a row is
    kept once, with every further repeat, and the rest fixed the same way; the text before it stays."""
    n = len(s)
    if n < limit * 2:
        return s
    out, i = [], 0
    while i <= n - limit * 2:
        for k in range(1, longest + 1):
            if i + k * limit > n:
                break
            pattern = s[i:i + k]
            if all(s[i + r * k:i + r * k + k] == pattern for r in range(1, limit)):
                end = i + limit * k
                while end + k <= n and s[end:end + k] == pattern:
                    end += k
                return "".join(out) + pattern + _fix_pattern_runs(s[end:], limit, longest)
        out.append(s[i])
        i += 1
    return "".join(out) + s[i:]


def fix_repetitions(text: str, limit: int = REPEATS) -> str:
    return _fix_pattern_runs(_fix_character_runs(text, limit), limit)


def parse_output(raw: str, language=None) -> tuple:
    """(language, text) of the model's decoded output. With `language` given (canonical), the whole output is
    the text. Otherwise the language is read from the first line "language X" before `<asr_text>` ("" for "None");
    without the tag the whole output is text and the language is ""."""
    s = (raw or "").strip()
    if not s:
        return "", ""
    s = fix_repetitions(s)
    if language:
        return language, s
    if ASR_TEXT not in s:
        return "", s.strip()
    meta, text = s.split(ASR_TEXT, 1)
    if "language none" in meta.lower():
        return "", text.strip()
    for line in (line.strip() for line in meta.splitlines()):
        if line.lower().startswith("language "):  # the first such line names it
            name = line[len("language "):].strip()
            return (canonical(name) if name else ""), text.strip()
    return "", text.strip()


def merge_languages(languages) -> str:
    out = []
    for name in ((x or "").strip() for x in languages):
        if name and (not out or out[-1] != name):
            out.append(name)
    return ",".join(out)
