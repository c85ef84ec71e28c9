"""What the aligner times, and how its picks become times: word splitting, the prompt, the repair.

Reference: qwen-asr 0.0.6 `Qwen3ForceAlignProcessor` (qwen_asr/inference/qwen3_forced_aligner.py).
- Words: the text split on whitespace; each piece keeps only letters, digits (Unicode categories L*,
  N*) and the apostrophe; a piece with CJK ideographs is cut before and after each ideograph, so
  Chinese is timed per character and "我爱Python" gives 我, 爱, Python. Every language but Japanese
  and Korean is split so. Japanese: nagisa's words, cleaned the same way (nagisa is an optional
  extra). Korean: soynlp with Qwen's own dictionary, which this package does not ship: refused.
- Prompt: `<|audio_start|><|audio_pad|><|audio_end|>` then each word followed by two `<timestamp>`
  slots (its start and its end); the audio pad is repeated once per audio-encoder output.
- Repair (`fix_timestamp`): the picks that form the longest non-decreasing subsequence (the earliest
  such on ties) stay; a run of at most two others takes the nearer kept neighbour's value (the left
  one at equal distance), a longer run is filled linearly between its kept neighbours (or copies the
  one it has); values are truncated to whole milliseconds.
"""

import unicodedata

from ..errors import InputError
from ..languages import language_key

AUDIO_PROMPT = "<|audio_start|><|audio_pad|><|audio_end|>"
SLOT = "<timestamp>"
_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
        (0x2B820, 0x2CEAF), (0xF900, 0xFAFF))


def kept(ch: str) -> bool:
    """Whether the aligner keeps `ch` in a word: letters, digits, the apostrophe."""
    return ch == "'" or unicodedata.category(ch)[0] in "LN"


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in _CJK)


def _clean(token: str) -> str:
    return "".join(ch for ch in token if kept(ch))


def _cut_ideographs(piece: str) -> list:
    out, run = [], ""
    for ch in piece:
        if _is_cjk(ch):
            if run:
                out.append(run)
            out.append(ch)
            run = ""
        else:
            run += ch
    return out + ([run] if run else [])


def split_words(text: str, language: str) -> list:
    """The units the aligner times, as the official processor splits `text` in `language` (a name or an
    ISO 639-1 code)."""
    language = language_key(language)
    if language == "korean":
        raise InputError("word timing for Korean needs soynlp and Qwen's Korean dictionary (qwen-asr), "
                         "which this package does not ship; align Korean with the qwen-asr package",
                         field="language", code="unsupported_language")
    if language == "japanese":
        try:
            import nagisa
        except ImportError:
            raise InputError("word timing for Japanese needs nagisa (the aligner-ja extra): pip install nagisa",
                             field="language", code="unsupported_language") from None
        return [w for w in (_clean(w) for w in nagisa.tagging(text).words) if w]
    words = []
    for piece in text.split():
        piece = _clean(piece)
        if piece:
            words.extend(_cut_ideographs(piece))
    return words


def prompt(words: list, audio_tokens: int) -> str:
    """The aligner's input text for `words` and `audio_tokens` audio-encoder outputs."""
    audio = AUDIO_PROMPT.replace("<|audio_pad|>", "<|audio_pad|>" * audio_tokens)
    return audio + "".join(w + SLOT + SLOT for w in words)


def repair(picks) -> list:
    """Monotonic whole-millisecond times from the picks (ms) at the slots, as the official repair."""
    data = [float(p) for p in picks]
    n = len(data)
    if n == 0:
        return []
    length, parent = [1] * n, [-1] * n
    for i in range(1, n):
        for j in range(i):
            if data[j] <= data[i] and length[j] + 1 > length[i]:
                length[i], parent[i] = length[j] + 1, j
    kept = [False] * n
    i = length.index(max(length))
    while i != -1:
        kept[i], i = True, parent[i]
    out = list(data)
    i = 0
    while i < n:
        if kept[i]:
            i += 1
            continue
        j = i
        while j < n and not kept[j]:
            j += 1
        left = next((out[k] for k in range(i - 1, -1, -1) if kept[k]), None)
        right = next((out[k] for k in range(j, n) if kept[k]), None)
        for k in range(i, j):
            if left is None or right is None:
                out[k] = right if left is None else left
            elif j - i <= 2:
                out[k] = left if k - (i - 1) <= j - k else right
            else:
                out[k] = left + (right - left) / (j - i + 1) * (k - i + 1)
        i = j
    return [int(v) for v in out]
