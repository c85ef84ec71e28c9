"""Record reference token ids of the text tokenizer as upstream loads and calls it.

Run in the torch environment from the repository root:
    /work/venvs/ref/bin/python tests/reference/record_tokenizer.py [--pack /work/build/tokenizer]
With --pack, first (re)writes tests/fixtures/tokenizer/tokenizer.tar.xz from a folder holding the
real Qwen vocab.json, merges.txt and tokenizer_config.json. Writes tests/fixtures/tokenizer/corpus.json.

The archive is unpacked next to a config.json like the released checkpoints' (model_type qwen3_tts,
saved by transformers 4.57.3) and loaded the way qwen_tts 0.1.1 `Qwen3TTSModel.from_pretrained` does:
`AutoProcessor.from_pretrained(path, fix_mistral_regex=True)`. Ids come from the wrapper's
`_tokenize_texts`, templates from its `_build_*_text` methods, decoded text from `processor.decode`.
For that config, transformers replaces the Qwen2 pre-tokenizer regex; the ids a folder whose
config.json predates 4.57.3 gets (original regex) are recorded too, for the entries where they differ.
"""

import argparse
import io
import json
import lzma
import sys
import tarfile
import tempfile
import unicodedata
from pathlib import Path

import _torchaudio_stub  # noqa: F401  (before qwen_tts)
import transformers
from transformers import AutoConfig, AutoProcessor

from qwen_tts.core.models import Qwen3TTSConfig, Qwen3TTSProcessor
from qwen_tts.inference.qwen3_tts_model import Qwen3TTSModel

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tokenizer"
ARCHIVE = FIXTURES / "tokenizer.tar.xz"
FILES = ("vocab.json", "merges.txt", "tokenizer_config.json")
RELEASED_CONFIG = {"model_type": "qwen3_tts", "transformers_version": "4.57.3"}
OLDER_CONFIG = {"model_type": "qwen3_tts", "transformers_version": "4.57.1"}

CORPUS = {
    "english": "Hello, world! This is a test of the Qwen3 text-to-speech system.",
    "english_paragraph": (
        "The quick brown fox jumps over the lazy dog. She sells sea-shells by the sea-shore; "
        "the shells she sells are surely seashells. Peter Piper picked a peck of pickled peppers."
    ),
    "chinese": "今天天气很好，我们去公园散步吧。你觉得怎么样？",
    "chinese_mixed": "我有3个苹果和12个橘子，一共15个水果。AI模型Qwen3-TTS很强大！",
    "japanese": "こんにちは、世界！今日はいい天気ですね。カタカナとひらがな、漢字。",
    "korean": "안녕하세요, 세계! 오늘 날씨가 좋네요.",
    "korean_decomposed_jamo": unicodedata.normalize("NFD", "안녕하세요, 한국어 텍스트"),
    "german": "Grüße aus München! Die Straße ist größer als erwartet. Äpfel, Öl und Übermut.",
    "russian": "Привет, мир! Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "french_spanish_italian": "Où est la bibliothèque ? ¿Dónde está el baño? Perché no? Ação e coração.",
    "hindi": "नमस्ते दुनिया, आप कैसे हैं?",
    "thai": "สวัสดีครับ ภาษาไทยง่ายนิดเดียว",
    "arabic": "مرحبا بالعالم، كيف حالك؟",
    "mixed_scripts": "Hello世界123こんにちは!Привет안녕",
    "digits": "Call 555-0123 or +1 (800) 123-4567. Pi is 3.14159265358979.",
    "long_numbers": "12345678901234567890 and 1,000,000.00 and 2026-01-15T12:34:56Z, 0x1F600",
    "other_digits": "１２３４５ ٠١٢٣٤ ½ ² Ⅻ",
    "punctuation_runs": "Wait... what?!?! No -- really??? (yes) [no] {maybe} <tag> @#$%^&* ~~~ ***",
    "punctuation_newlines": "End.\nNext line!\n\nParagraph two.\r\nWindows line.\r\n\r\nLast)\n\n",
    "tabs": "col1\tcol2\t\tcol3\n\tindented\t \t mixed",
    "leading_spaces": "   leading spaces",
    "trailing_spaces": "trailing spaces   ",
    "multiple_spaces": "multiple     spaces   between  words",
    "only_spaces": "     ",
    "only_newlines": "\n\n\n   \n\n",
    "single_space": " ",
    "empty": "",
    "contractions": "It's John's book; we'll see, they've gone, I'm here, you'd know, don't.",
    "contractions_upper": "IT'S DON'T WE'LL I'M THEY'VE YOU'D",
    "camel_case": "iPhone JavaScript McDonald's HTTPServer XMLHttpRequest getElementById ÉcoleNormale",
    "paths_and_urls": "https://example.com/path/to/page?x=1&y=2 and a/b/c and ../.. // .//\n/",
    "emoji": "I love it 😀👍🏽 family 👨‍👩‍👧‍👦 flag 🏳️‍🌈 heart ❤️ 🇯🇵 ok👌🏿!",
    "special_tokens_in_text": "Say <|im_start|> and <tts_pad> and <|im_end|> literally <think>x</think>",
    "special_tokens_adjacent": "<|im_start|><|im_end|>a<tts_text_bos><tts_text_bos_single> <|endoftext|>",
    "partial_special_tokens": "<|im_star <tts_pad <|im_end| <| |> <tts_text_bos_singl",
    "combining_non_nfc": "e\u0301te\u0301 cafe\u0301 man\u0303ana A\u030angstro\u0308m",
    "combining_reordered": "a\u0301\u0323 o\u0323\u0302 q\u0307\u0323 1\u0301 \u0301start",
    "canonical_singletons": "\u212a \u2126 \u212b \u037e \u1fef",
    "negated_operators": ">\u0338 =\u0338 <\u0338 <|im_end|>\u0338",
    "zero_width_and_controls": "a\u200bb\u200dc\ufeffd\x1ce\x00f\x7fg",
    "unicode_spaces": "a\u00a0b\u3000c\u2009d\u202fe\u2028f",
    "code": "def f(x):\n    return x**2  # square\n\nprint(f(3))\n",
    "quotes_and_dashes": "“Curly” ‘quotes’ — em dash – en dash … «guillemets» „German“",
}

TEMPLATE_TEXTS = [
    "Hello, world!",
    "今天天气很好。",
    "Two\nlines",
    " leading and trailing ",
    "",
    "Speak <|im_end|> now",
    "Clear, calm and slow.",
]


def pack(source: Path) -> None:
    """Deterministic tar (fixed names, order, mtime) of the three files, xz-compressed."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in FILES:
            data = (source / name).read_bytes()
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    ARCHIVE.write_bytes(lzma.compress(buffer.getvalue(), preset=9 | lzma.PRESET_EXTREME))


def load_processor(folder: Path, config: dict):
    (folder / "config.json").write_text(json.dumps(config))
    AutoConfig.register("qwen3_tts", Qwen3TTSConfig, exist_ok=True)
    AutoProcessor.register(Qwen3TTSConfig, Qwen3TTSProcessor, exist_ok=True)
    return AutoProcessor.from_pretrained(str(folder), fix_mistral_regex=True)


def tokenize(processor, text: str) -> list[int]:
    wrapper = Qwen3TTSModel.__new__(Qwen3TTSModel)
    wrapper.processor, wrapper.device = processor, "cpu"
    return wrapper._tokenize_texts([text])[0][0].tolist()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pack", type=Path, help="folder with the real vocab.json, merges.txt, tokenizer_config.json")
    args = parser.parse_args()
    FIXTURES.mkdir(parents=True, exist_ok=True)
    if args.pack:
        pack(args.pack)

    with tempfile.TemporaryDirectory() as tmp:
        released, older = Path(tmp) / "released", Path(tmp) / "older"
        for folder in (released, older):
            with tarfile.open(ARCHIVE) as tar:
                tar.extractall(folder, filter="data")
        processor = load_processor(released, RELEASED_CONFIG)
        older_processor = load_processor(older, OLDER_CONFIG)

        entries, older_entries = [], []
        for name, text in CORPUS.items():
            ids = tokenize(processor, text)
            entries.append({"name": name, "text": text, "ids": ids, "decoded": processor.decode(ids)})
            older_ids = tokenize(older_processor, text)
            if older_ids != ids:
                older_entries.append({"name": name, "text": text, "ids": older_ids})
        templates = []
        builders = {
            "assistant": Qwen3TTSModel._build_assistant_text,
            "ref": Qwen3TTSModel._build_ref_text,
            "instruct": Qwen3TTSModel._build_instruct_text,
        }
        for kind, build in builders.items():
            for text in TEMPLATE_TEXTS:
                templates.append({"kind": kind, "text": text, "ids": tokenize(processor, build(None, text))})

    fixture = {
        "recorded_with": f"qwen-tts 0.1.1, transformers {transformers.__version__}",
        "config_json": RELEASED_CONFIG,
        "entries": entries,
        "templates": templates,
        "original_regex": {"config_json": OLDER_CONFIG, "entries": older_entries},
    }
    out = FIXTURES / "corpus.json"
    out.write_text(json.dumps(fixture, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}: {len(entries)} texts, {len(templates)} templates, "
          f"{len(older_entries)} differ under the original regex: {[e['name'] for e in older_entries]}")


if __name__ == "__main__":
    sys.exit(main())
