"""Text tokenizer: Qwen2's byte-level BPE as upstream's processor builds it, and an incremental encoder.

Reference: qwen_tts 0.1.1 `Qwen3TTSModel.from_pretrained` loads the text tokenizer with
`AutoProcessor.from_pretrained(path, fix_mistral_regex=True)`: transformers 4.57.3's
`Qwen2TokenizerFast` converted from vocab.json + merges.txt (`Qwen2Converter`): NFC normalizer,
regex Split + ByteLevel pre-tokenizer, BPE, ByteLevel decoder, plus the added tokens of
tokenizer_config.json. With `fix_mistral_regex=True`, transformers swaps the Split regex for a
case-aware variant whenever its check on the folder's config.json fires, which it does for the
released checkpoints; `_fixed_regex_applies` repeats that check.
"""

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from packaging.version import InvalidVersion, Version
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from .errors import ModelLoadError

QWEN2_SPLIT = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
    r"""|\s+(?!\S)|\s+"""
)
FIXED_SPLIT = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
    r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_MISTRAL_MODEL_TYPES = ("mistral", "mistral3", "voxtral", "ministral", "pixtral")
# Upstream's chat templates: the target text, the reference transcript (ICL) and the instruction.
ASSISTANT, USER = "<|im_start|>assistant\n", "<|im_start|>user\n"
TARGET_SUFFIX, END = "<|im_end|>\n<|im_start|>assistant\n", "<|im_end|>\n"


@dataclass(frozen=True)
class TemplateIds:
    """Token ids of a templated text by part: the whole string is encoded at once, as upstream does,
    and cut where its role header and suffix end (upstream slices e.g. `input_ids[:, 3:-5]`)."""

    role: tuple
    body: tuple
    suffix: tuple

    @property
    def ids(self) -> list:
        return [*self.role, *self.body, *self.suffix]


def _fixed_regex_applies(folder: Path, base_vocab_size: int) -> bool:
    """transformers 4.57.3 `_patch_mistral_regex` with fix_mistral_regex=True on a local folder."""
    config_path = folder / "config.json"
    if base_vocab_size <= 100_000 or not config_path.exists():
        return False
    config = json.loads(config_path.read_text(encoding="utf-8"))
    try:
        version = Version(config.get("transformers_version") or "")
    except InvalidVersion:  # missing or unreadable: transformers applies the fix
        return True
    if version <= Version("4.57.2"):
        return config.get("model_type") in (None, *_MISTRAL_MODEL_TYPES)
    return version < Version("5.0.0")


def _split(pattern: str):
    return pre_tokenizers.Split(Regex(pattern), behavior="isolated", invert=False)


def _from_vocab_and_merges(folder: Path) -> Tokenizer:
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    entries = sorted((int(i), entry) for i, entry in config.get("added_tokens_decoder", {}).items())
    vocab, merges = models.BPE.read_file(str(folder / "vocab.json"), str(folder / "merges.txt"))
    fixed = _fixed_regex_applies(folder, len(vocab))
    # Added tokens already in the model's vocabulary keep that id: placing each at its declared id
    # lets ids skip numbers, as transformers allows.
    for token_id, entry in entries:
        vocab.setdefault(entry["content"], token_id)
    tokenizer = Tokenizer(models.BPE(vocab, merges, dropout=None, unk_token=None, continuing_subword_prefix="",
                                     end_of_word_suffix="", fuse_unk=False, byte_fallback=False))
    tokenizer.normalizer = normalizers.NFC()
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        _split(FIXED_SPLIT if fixed else QWEN2_SPLIT),
        pre_tokenizers.ByteLevel(add_prefix_space=config.get("add_prefix_space", False), use_regex=False),
    ])
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=False)

    # transformers marks a token special when its entry says so or when it is a named special token.
    named = [config.get(key) for key in ("bos_token", "eos_token", "pad_token", "unk_token")]
    named += config.get("additional_special_tokens") or []
    named = {t["content"] if isinstance(t, dict) else t for t in named}
    tokenizer.add_tokens([
        AddedToken(
            entry["content"], single_word=entry.get("single_word", False), lstrip=entry.get("lstrip", False),
            rstrip=entry.get("rstrip", False), normalized=entry.get("normalized", True),
            special=entry.get("special", False) or entry["content"] in named,
        )
        for _, entry in entries
    ])
    for token_id, entry in entries:
        if tokenizer.token_to_id(entry["content"]) != token_id:
            raise ValueError(f"{folder / 'tokenizer_config.json'}: added token {entry['content']!r} is declared as "
                             f"id {token_id} but vocab.json has it as id {tokenizer.token_to_id(entry['content'])}")
    return tokenizer


def _from_tokenizer_json(folder: Path) -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    pre = json.loads(tokenizer.pre_tokenizer.__getstate__()) if tokenizer.pre_tokenizer is not None else {}
    steps = pre.get("pretokenizers") if pre.get("type") == "Sequence" else None
    base_vocab_size = tokenizer.get_vocab_size(with_added_tokens=False)
    if steps and steps[0].get("type") == "Split" and _fixed_regex_applies(folder, base_vocab_size):
        tokenizer.pre_tokenizer[0] = _split(FIXED_SPLIT)
    return tokenizer


class TextTokenizer:
    """Qwen2 byte-level BPE text tokenizer with the prompt templates upstream wraps text in."""

    def __init__(self, tokenizer: Tokenizer):
        self.tokenizer = tokenizer

    @classmethod
    def from_folder(cls, path) -> "TextTokenizer":
        """Loads tokenizer.json if the folder has one, else vocab.json + merges.txt + tokenizer_config.json."""
        folder = Path(path)
        if (folder / "tokenizer.json").exists():
            return cls(_from_tokenizer_json(folder))
        names = ("vocab.json", "merges.txt", "tokenizer_config.json")
        missing = [name for name in names if not (folder / name).exists()]
        if missing:
            raise ModelLoadError(f"{folder} has no tokenizer.json and lacks {', '.join(missing)}")
        try:
            return cls(_from_vocab_and_merges(folder))
        except Exception as e:  # tokenizers raises plain Exception; also ValueError, KeyError, OSError
            raise ModelLoadError(f"cannot read the text tokenizer files in {folder}: {e}") from None

    def encode(self, text: str) -> list[int]:
        """Token ids of `text`; added tokens written in the text become their ids, no BOS/EOS is added."""
        return self.tokenizer.encode(text, add_special_tokens=False).ids

    def decode(self, ids) -> str:
        return self.tokenizer.decode(list(ids), skip_special_tokens=False)

    def token_to_id(self, token: str) -> int:
        token_id = self.tokenizer.token_to_id(token)
        if token_id is None:
            raise KeyError(f"{token!r} is not a token of this vocabulary.")
        return token_id

    def template(self, role: str, text: str, suffix: str) -> TemplateIds:
        ids = self.encode(role + text + suffix)
        head, tail = len(self.encode(role)), len(ids) - len(self.encode(suffix))
        return TemplateIds(tuple(ids[:head]), tuple(ids[head:tail]), tuple(ids[tail:]))

    def assistant(self, text: str) -> TemplateIds:
        """The text to speak: `<|im_start|>assistant\\n{text}<|im_end|>\\n<|im_start|>assistant\\n`."""
        return self.template(ASSISTANT, text, TARGET_SUFFIX)

    def reference(self, text: str) -> TemplateIds:
        """The reference transcript for in-context cloning: `<|im_start|>assistant\\n{text}<|im_end|>\\n`."""
        return self.template(ASSISTANT, text, END)

    def instruction(self, text: str) -> TemplateIds:
        return self.template(USER, text, END)

    def incremental(self) -> "IncrementalTokenizer":
        return IncrementalTokenizer(self)


_WORD, _SPACE = 1, 2
_FORMER_SPACE = frozenset("\u180e\u200b")  # White_Space in older Unicode versions


@lru_cache(maxsize=65536)
def _classes(ch: str) -> int:
    """Which runs the regex scans (letters and marks; whitespace) `ch` can extend.

    Characters the regex engine might class differently (unassigned in Python's Unicode tables,
    whitespace to Python but not to Unicode) extend both runs, which only holds text back longer.
    """
    category = unicodedata.category(ch)
    if category == "Cn":
        return _WORD | _SPACE
    if category[0] in "LM":
        return _WORD
    if ch.isspace() or ch in _FORMER_SPACE:  # isspace: Unicode White_Space (the regex's \s) and \x1c-\x1f
        return _SPACE
    return 0


def _run_end(text: str, start: int, kind: int) -> int:
    end = start
    while end < len(text) and _classes(text[end]) & kind:
        end += 1
    return end


def _examined_end(text: str, start: int, end: int) -> int:
    r"""Bound on the last index the pre-tokenizer regex reads to decide its match text[start:end].

    Holds for both Qwen2 patterns. Every alternative reads the character after what it consumed
    (index `end`); the letter alternatives may first scan an optional prefix character and the whole
    run of letters and marks after it before backtracking ("日A" is one piece before "b", two before
    " "), and the whitespace alternatives the whole whitespace run ("\n\n" is one piece before " ",
    part of one before " \n"). A match is final once the character at the returned index exists.
    """
    ends = [end, _run_end(text, start, _SPACE)]
    if text[start] not in "\r\n":
        ends.append(_run_end(text, start + 1, _WORD))
    return max(ends)


@lru_cache(maxsize=65536)
def _starts_nfc_block(ch: str) -> bool:
    """True when NFC never merges `ch` with what precedes it (ccc 0, NFC_QC Yes).

    Characters that compose with a preceding starter are combining marks (every such ccc-0 one is
    a spacing or non-spacing mark) or Hangul medial/final jamo.
    """
    category = unicodedata.category(ch)
    if category[0] == "M" or category in ("Cn", "Cs") or unicodedata.combining(ch):
        return False
    if "\u1160" <= ch <= "\u11ff" or "\ud7b0" <= ch <= "\ud7ff":
        return False
    return unicodedata.normalize("NFC", ch) == ch


def _nfc_stable_length(text: str, limit: int) -> int:
    """Length of the longest prefix of text[:limit] whose NFC form no later text changes."""
    for i in range(min(limit, len(text) - 1), 0, -1):
        if _starts_nfc_block(text[i]):
            return i
    return 0


class IncrementalTokenizer:
    """Encodes text that arrives in pieces; every id it returns is final.

    For any split of a text into deltas, the concatenation of all `feed` results and `finish()`
    equals `TextTokenizer.encode` of the whole text. Text is held back while later characters could
    still change its ids: a possible start of an added token (`<|im_`), characters NFC could still
    compose with what follows, and pre-tokenizer pieces whose regex match read up to the end of the
    text seen so far (a word, a run of whitespace, a run of punctuation).
    """

    def __init__(self, tokenizer: TextTokenizer):
        backend = tokenizer.tokenizer
        if not isinstance(backend.normalizer, (normalizers.NFC, type(None))):
            raise ValueError(f"incremental encoding needs an NFC normalizer or none, not {backend.normalizer}.")
        split = json.loads(backend.pre_tokenizer.__getstate__())
        patterns = [s.get("pattern", {}).get("Regex") for s in split.get("pretokenizers", [])]
        if not patterns or patterns[0] not in (QWEN2_SPLIT, FIXED_SPLIT):
            raise ValueError("incremental encoding needs the Qwen2 pre-tokenizer (its regex Split first).")
        added = backend.get_added_tokens_decoder()
        if any(t.lstrip or t.rstrip or t.single_word or t.normalized for t in added.values()):
            raise ValueError("incremental encoding supports added tokens matched verbatim only.")
        self._backend = backend
        self._added_ids = {t.content: i for i, t in added.items()}
        # Longest first, so the leftmost match is also the longest, as the tokenizers library matches.
        contents = sorted(self._added_ids, key=len, reverse=True)
        self._added_pattern = re.compile("|".join(map(re.escape, contents))) if contents else None
        self._added_prefixes = {c[:k] for c in contents for k in range(1, len(c))}
        self._longest_prefix = max(map(len, self._added_prefixes), default=0)
        self._normalized = ""  # settled NFC text of the current segment, from a piece boundary on
        self._raw = ""  # the text after it, not normalized yet

    def feed(self, delta: str) -> list[int]:
        """Ids that no continuation of the text can change any more."""
        self._raw += delta
        return self._drain(final=False)

    def finish(self) -> list[int]:
        """Ids of the text held back so far; the tokenizer is then ready for a new text."""
        ids = self._drain(final=True)
        self._normalized = self._raw = ""
        return ids

    def _normalize(self, text: str) -> str:
        normalizer = self._backend.normalizer
        return normalizer.normalize_str(text) if normalizer is not None and text else text

    def _segment_ids(self, normalized: str, limit=None) -> tuple[int, list[int]]:
        """Ids of the pieces of `normalized` (text between added tokens) and the length they cover.

        With `limit`, only the leading pieces whose regex match read no further than `limit` - 1.
        """
        covered, ids = 0, []
        for piece, (start, end) in self._backend.pre_tokenizer.pre_tokenize_str(normalized):
            if limit is not None and _examined_end(normalized, start, end) >= limit:
                break
            ids.extend(token.id for token in self._backend.model.tokenize(piece))
            covered = end
        return covered, ids

    def _added_token_hold(self) -> int:
        """Start of the earliest suffix of the raw text that later text could complete to an added token."""
        for length in range(min(self._longest_prefix, len(self._raw)), 0, -1):
            if self._raw[-length:] in self._added_prefixes:
                return len(self._raw) - length
        return len(self._raw)

    def _drain(self, final: bool) -> list[int]:
        ids, done = [], 0
        hold = len(self._raw) if final else self._added_token_hold()
        # Every added token before `hold` is final: the text before it is encoded whole, then its id.
        for match in self._added_pattern.finditer(self._raw, 0, hold) if self._added_pattern else ():
            ids += self._segment_ids(self._normalized + self._normalize(self._raw[done : match.start()]))[1]
            ids.append(self._added_ids[match.group()])
            self._normalized, done = "", match.end()
        self._raw, hold = self._raw[done:], hold - done
        if final:
            return ids + self._segment_ids(self._normalized + self._normalize(self._raw))[1]
        stable = _nfc_stable_length(self._raw, hold)
        self._normalized += self._normalize(self._raw[:stable])
        self._raw = self._raw[stable:]
        covered, piece_ids = self._segment_ids(self._normalized, limit=len(self._normalized))
        self._normalized = self._normalized[covered:]
        return ids + piece_ids
