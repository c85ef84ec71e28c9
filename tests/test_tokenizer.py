"""Text tokenizer against transformers' Qwen2TokenizerFast as qwen_tts 0.1.1 loads it.

Fixtures: tests/fixtures/tokenizer/tokenizer.tar.xz (real Qwen vocabulary) and corpus.json, written by
tests/reference/record_tokenizer.py.
"""

import json
import random
import tarfile
import unicodedata
from pathlib import Path

import pytest

from mlx_qwen3tts.tokenizer import (
    FIXED_SPLIT,
    QWEN2_SPLIT,
    IncrementalTokenizer,
    TemplateIds,
    TextTokenizer,
    _examined_end,
    _fixed_regex_applies,
)

FIXTURES = Path(__file__).parent / "fixtures" / "tokenizer"
CORPUS = json.loads((FIXTURES / "corpus.json").read_text(encoding="utf-8"))
ENTRIES = {e["name"]: e for e in CORPUS["entries"]}
TEMPLATE_METHODS = {"assistant": "assistant", "ref": "reference", "instruct": "instruction"}


def _unpacked_folder(root: Path, config: dict) -> Path:
    root.mkdir()
    with tarfile.open(FIXTURES / "tokenizer.tar.xz") as tar:
        tar.extractall(root, filter="data")
    (root / "config.json").write_text(json.dumps(config))
    return root


@pytest.fixture(scope="session")
def released_folder(tmp_path_factory) -> Path:
    return _unpacked_folder(tmp_path_factory.mktemp("tokenizer") / "released", CORPUS["config_json"])


@pytest.fixture(scope="session")
def tok(released_folder) -> TextTokenizer:
    return TextTokenizer.from_folder(released_folder)


@pytest.mark.parametrize("name", list(ENTRIES))
def test_ids_match_reference(tok, name):
    entry = ENTRIES[name]
    assert tok.encode(entry["text"]) == entry["ids"]


@pytest.mark.parametrize("name", list(ENTRIES))
def test_decode_matches_reference(tok, name):
    entry = ENTRIES[name]
    assert tok.decode(entry["ids"]) == entry["decoded"]
    if "<" not in entry["text"]:  # byte-level BPE is lossless up to the NFC normalizer
        assert tok.decode(tok.encode(entry["text"])) == unicodedata.normalize("NFC", entry["text"])


def test_templates_match_reference(tok):
    for template in CORPUS["templates"]:
        parts = getattr(tok, TEMPLATE_METHODS[template["kind"]])(template["text"])
        assert parts.ids == template["ids"], template


def test_template_framing(tok):
    im_start, im_end = tok.token_to_id("<|im_start|>"), tok.token_to_id("<|im_end|>")
    newline, assistant = tok.encode("\n"), tok.encode("assistant")
    assert assistant == [77091] and (im_start, im_end) == (151644, 151645)
    text = tok.encode("Hello there.")
    role = (im_start, *assistant, *newline)
    target = tok.assistant("Hello there.")
    assert (target.role, target.body, target.suffix) == (role, tuple(text), (im_end, *newline, *role))
    assert tok.reference("Hello there.") == TemplateIds(role, tuple(text), (im_end, *newline))
    instruction = tok.instruction("Hi")
    assert instruction.role == (im_start, *tok.encode("user"), *newline) and instruction.suffix == (im_end, *newline)


def test_token_to_id(tok):
    assert tok.token_to_id("<tts_pad>") == 151671
    assert tok.token_to_id("<tts_text_eod>") == 151673
    with pytest.raises(KeyError):
        tok.token_to_id("<not a token>")


def test_original_regex_for_folders_saved_before_4_57_3(tmp_path):
    """The corpus holds texts the two pre-tokenizer regexes split differently, so picking one matters."""
    differing = CORPUS["original_regex"]["entries"]
    assert differing, "the corpus must hold texts on which the regex fix changes the ids"
    folder = _unpacked_folder(tmp_path / "older", CORPUS["original_regex"]["config_json"])
    older = TextTokenizer.from_folder(folder)
    for entry in differing:
        assert older.encode(entry["text"]) == entry["ids"] != ENTRIES[entry["name"]]["ids"]


@pytest.mark.parametrize(
    "config, expected",
    [
        (None, False),
        ({"model_type": "qwen3_tts", "transformers_version": "4.57.3"}, True),
        ({"model_type": "qwen3_tts", "transformers_version": "4.57.2"}, False),
        ({"model_type": "qwen3_tts", "transformers_version": "4.57.2.dev0"}, False),
        ({"model_type": "qwen3_tts"}, True),
        ({"transformers_version": "4.50.0"}, True),
        ({"model_type": "mistral", "transformers_version": "4.50.0"}, True),
        ({"model_type": "qwen3_tts", "transformers_version": "5.0.0"}, False),
        ({"model_type": "qwen3_tts", "transformers_version": "5.0.0rc1"}, True),
    ],
)
def test_fixed_regex_decision(tmp_path, config, expected):
    if config is not None:
        (tmp_path / "config.json").write_text(json.dumps(config))
    assert _fixed_regex_applies(tmp_path, 151_643) is expected
    assert _fixed_regex_applies(tmp_path, 50_000) is False


def test_tokenizer_json_is_used_and_patched_like_upstream(tok, tmp_path):
    """A tokenizer.json with the original regex, next to a released-style config.json, gets the fix."""
    split = json.loads(tok.tokenizer.pre_tokenizer.__getstate__())["pretokenizers"][0]
    assert split["pattern"]["Regex"] == FIXED_SPLIT
    tok.tokenizer.save(str(tmp_path / "tokenizer.json"))
    spec = (tmp_path / "tokenizer.json").read_text(encoding="utf-8")
    escaped = json.dumps(FIXED_SPLIT)
    assert escaped in spec
    (tmp_path / "tokenizer.json").write_text(spec.replace(escaped, json.dumps(QWEN2_SPLIT)), encoding="utf-8")
    (tmp_path / "config.json").write_text(json.dumps(CORPUS["config_json"]))
    loaded = TextTokenizer.from_folder(tmp_path)
    for name in ("camel_case", "special_tokens_in_text", "thai"):
        assert loaded.encode(ENTRIES[name]["text"]) == ENTRIES[name]["ids"]


def _incremental_ids(tok: TextTokenizer, deltas) -> list[int]:
    stream = IncrementalTokenizer(tok)
    ids = []
    for delta in deltas:
        ids += stream.feed(delta)
    return ids + stream.finish()


def _random_split(text: str, rng: random.Random, max_len: int) -> list[str]:
    deltas, i = [], 0
    while i < len(text):
        n = rng.randint(0, max_len)
        deltas.append(text[i:i + n])
        i += n
    return deltas


STREAM_TEXTS = [e["text"] for e in CORPUS["entries"]] + [t["text"] for t in CORPUS["templates"]] + [
    "\n\n  \n x", "a  \n\n \t\n", "日A", "日Ab", "ABCdef", "'ll", "x'S", ". \r\n\r\n/", "1\u0301\u0323",
    "<|im_end|>\u0338", "<tts_text_bos><tts_text_bos_single><tts_text_bos_", "가\u11a8", "\u1100\u1161\u11a8",
    "ｷﾞ", "e\u0323\u0301\u0302", "x" + "\u0301" * 20, "  <|im_start|>  ", "!!a!!", "a/b//c\n/\n",
]


def test_incremental_matches_encode_for_random_splits(tok):
    rng = random.Random(1234)
    for text in STREAM_TEXTS:
        expected = tok.encode(text)
        assert _incremental_ids(tok, list(text)) == expected, text
        for _ in range(10):
            deltas = _random_split(text, rng, rng.choice([1, 2, 3, 5, 12]))
            assert _incremental_ids(tok, deltas) == expected, deltas


def test_incremental_matches_encode_for_every_split_of_short_texts(tok):
    for text in ["a  \nb", "日Ab!", "x<|im_end|>", "e\u0301 1\u0301", "IT'S", "\r\n \r\n", "가\u11a8a"]:
        expected = tok.encode(text)
        for mask in range(2 ** (len(text) - 1)):
            cuts = [0] + [i + 1 for i in range(len(text) - 1) if mask >> i & 1] + [len(text)]
            deltas = [text[a:b] for a, b in zip(cuts, cuts[1:])]
            assert _incremental_ids(tok, deltas) == expected, deltas


def test_incremental_matches_encode_for_random_texts(tok):
    alphabet = list(
        "aZé日本ｱ가\u1100\u1161\u11a8 \t\n\r/.,!?'s\"0123456789😀👍🏽\u200d\u0301\u0323\u0338>=<|_"
        "\u00a0\u3000\u212a\u0e31"
    ) + ["<|im_start|>", "<|im_end|>", "<tts_pad>", "<|im_", "'ll", "Ab", "\r\n"]
    rng = random.Random(99)
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 24)))
        expected = tok.encode(text)
        for _ in range(4):
            deltas = _random_split(text, rng, rng.choice([1, 2, 4]))
            assert _incremental_ids(tok, deltas) == expected, deltas


def test_incremental_emits_settled_text_early(tok):
    stream = IncrementalTokenizer(tok)
    assert tok.decode(stream.feed("Hello world, this is a te")) == "Hello world, this is a"
    assert tok.decode(stream.feed("st")) == ""
    assert tok.decode(stream.feed(".\n")) == " test"
    assert tok.decode(stream.finish()) == ".\n"

    stream = IncrementalTokenizer(tok)
    assert tok.decode(stream.feed("今天天气很好，我们去公")) == "今天天气很好"
    assert tok.decode(stream.feed("园。<|im_")) == "，我们去公园"
    assert stream.feed("end|>") == [*tok.encode("。"), tok.token_to_id("<|im_end|>")]
    assert stream.finish() == []


def test_incremental_holds_back_about_a_word(tok):
    text = ENTRIES["english_paragraph"]["text"] * 3
    stream, ids, lag = tok.incremental(), [], 0
    for i, ch in enumerate(text):
        ids += stream.feed(ch)
        lag = max(lag, i + 1 - len(tok.decode(ids)))
    assert ids + stream.finish() == tok.encode(text)
    assert lag <= max(len(word) for word in text.split()) + 2  # a word, the space before it, one more character


def test_pieces_judged_final_are_pieces_of_the_whole_text(tok):
    """The finality rule checked on pre-tokenizer pieces, where BPE cannot mask a wrong boundary."""
    pre_tokenize = tok.tokenizer.pre_tokenizer.pre_tokenize_str
    alphabet = list("aAbZsé日ｱ가ªー々\u0301 \t\n\r/.,!?'-09😀")
    alphabet += ["ll", "\r\n", "  ", "AB", "Hello", "日本"]
    rng = random.Random(7)
    for _ in range(1500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        text = unicodedata.normalize("NFC", text)
        whole = [offsets for _, offsets in pre_tokenize(text)]
        for k in range(1, len(text)):
            final = []
            for _, (start, end) in pre_tokenize(text[:k]):
                if _examined_end(text[:k], start, end) >= k:
                    break
                final.append((start, end))
            assert final == whole[: len(final)], (text, k)
