"""A tiny random Qwen3-ASR in the released layout, and what qwen-asr 0.0.6 transcribes with it (issue 58).

Runs in the oracle venv of record_aligner.py (torch CPU, transformers 4.57.6, `pip install --no-deps
qwen-asr==0.0.6`; nagisa may be missing or broken: a placeholder stands in). Writes into --out (tests/fixtures/asr/):

  checkpoint.tar.xz  config.json, generation_config.json, model.safetensors (bf16), preprocessor_config.json,
                     tokenizer_config.json, chat_template.json: the released file names, built and saved with
                     qwen-asr's own classes (vocab.json and merges.txt come from fixtures/tokenizer/tokenizer.tar.xz)
  cases.json         per case: sample rate, channels, the language given (or null: detected), the chunk length
                     used, and the official result (`Qwen3ASRModel.transcribe`): language and text; per chunk its
                     offset, samples, raw decoded output and parsed language and text
  <case>.npz         pcm (int16, (samples,) or (samples, channels), the audio given as pcm / 32768), and per chunk
                     (`_k` suffix): input_ids, the generated ids (EOS included where chosen), the top-1 minus
                     top-2 margin of every greedy step, the 8 largest logits of the first step (values, ids),
                     its mel frames (the batch's attention mask) and the last MEL_TAIL of them
  parse.json         the official `parse_asr_output` (and `merge_languages`) on crafted raw outputs

Sizes are small; the token ids, the 100-frame mel chunks, the prompt and the layout are the released ones.
The released chat template is not in the package: chat_template.json here renders the prompt the released
Qwen3-ASR checkpoints give (system turn with the context, user turn holding the audio, the assistant's turn
opened: the ids independent ports list), which is what `Qwen3ASRModel._build_text_prompt` asks it for.

Weights: random (record_aligner's quantized draws), with the head spread wide (logits of std ~64 over a
hundred tokens of several languages; every other row zero) so that greedy choices are decided by clear
margins; the head is the first of a series of draws whose every greedy step in every case wins by
MIN_MARGIN. A small "bigram" part makes detection look like the released model's output: the embedding of
the token just read carries a direction that the head's row of the wanted next token reads, for
"\\n" -> "language", "language" -> a language name, a name -> "<asr_text>". Which name follows depends on
the audio (the random part of the head decides among them).
The long case cuts its clip as `transcribe` cuts one of over 20 minutes, with the chunk length set to 6 s
(`qwen_asr.inference.qwen3_asr.MAX_ASR_INPUT_SECONDS`; the tests set the recognizer's `chunk_seconds` alike):
longer than the 5 s the cut is searched around, as the released 1200 s is (with less, the quietest spot can be
the piece's first sample, and the pieces one sample long).
"""

import argparse
import json
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

import numpy as np
import torch


def _nagisa_placeholder() -> None:
    """qwen-asr imports nagisa (Japanese word splitting, the aligner's) at the top; transcribing never uses it.
    Where it does not import (it needs DyNet), a placeholder module stands in."""
    import importlib.machinery
    import sys
    import types

    try:
        import nagisa  # noqa: F401
    except Exception:
        module = types.ModuleType("nagisa")
        module.__spec__ = importlib.machinery.ModuleSpec("nagisa", loader=None)
        sys.modules["nagisa"] = module


_nagisa_placeholder()

import qwen_asr.inference.qwen3_asr as qwen3_asr
from qwen_asr import Qwen3ASRModel
from qwen_asr.core.transformers_backend import Qwen3ASRConfig, Qwen3ASRForConditionalGeneration
from qwen_asr.inference.utils import (SAMPLE_RATE, merge_languages, normalize_audios, parse_asr_output,
                                      split_audio_into_chunks)
from record_aligner import PREPROCESSOR, TOKENIZER_ARCHIVE, added_tokens, as_float, draw, init_weights, signal

HERE = Path(__file__).resolve().parent
SEED = 0
MIN_MARGIN = 0.05
MAX_NEW_TOKENS = 40
MEL_TAIL = 4  # the last mel frames of each piece: in a batch they see the zeros it is padded with
AUDIO_START, AUDIO_END, AUDIO_PAD, ASR_TEXT = 151669, 151670, 151676, 151704
IM_END, NEWLINE, LANGUAGE = 151645, 198, 11528

CONFIG = {
    "architectures": ["Qwen3ASRForConditionalGeneration"],
    "model_type": "qwen3_asr",
    "support_languages": ["Chinese", "English", "Cantonese", "Arabic", "German", "French", "Spanish", "Portuguese",
                          "Indonesian", "Italian", "Korean", "Russian", "Thai", "Vietnamese", "Japanese", "Turkish",
                          "Hindi", "Malay", "Dutch", "Swedish", "Danish", "Finnish", "Polish", "Czech", "Filipino",
                          "Persian", "Greek", "Romanian", "Hungarian", "Macedonian"],
    "thinker_config": {
        "model_type": "qwen3_asr_thinker",
        "audio_token_id": AUDIO_PAD,
        "audio_start_token_id": AUDIO_START,
        "audio_end_token_id": AUDIO_END,
        "audio_config": {"num_mel_bins": 128, "encoder_layers": 2, "encoder_attention_heads": 4,
                         "encoder_ffn_dim": 64, "d_model": 32, "max_source_positions": 1500,
                         "n_window": 50, "n_window_infer": 200, "output_dim": 64,
                         "downsample_hidden_size": 8, "conv_chunksize": 500, "scale_embedding": False,
                         "activation_function": "gelu"},
        "text_config": {"vocab_size": 151936, "hidden_size": 64, "intermediate_size": 128,
                        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                        "head_dim": 16, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0,
                        "rope_scaling": {"rope_type": "default", "mrope_section": [4, 2, 2],
                                         "mrope_interleaved": True, "interleaved": True},
                        "tie_word_embeddings": False, "hidden_act": "silu", "attention_bias": False},
    },
}

# Rendered by transformers with trim_blocks and lstrip_blocks: every newline is written as an expression.
CHAT_TEMPLATE = (
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' }}"
    "{% if m['content'] is string %}{{ m['content'] }}{% else %}{% for c in m['content'] %}"
    "{% if c['type'] == 'audio' %}{{ '<|audio_start|><|audio_pad|><|audio_end|>' }}"
    "{% elif c['type'] == 'text' %}{{ c['text'] }}{% endif %}{% endfor %}{% endif %}"
    "{{ '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)

# The texts whose tokens the head may choose (several languages and scripts), and the language names.
VOCABULARY = [
    "The quick brown fox jumps over the lazy dog while seven ships sail home.",
    "今天天气很好，我们去公园散步，然后一起吃饭。",
    "Le petit chat dort près de la fenêtre ouverte.",
    "Der alte Mann liest jeden Morgen die Zeitung.",
    "El niño come manzanas en el jardín.",
]
NAMES = [" English", " Chinese", " French", " German"]

CASES = [
    # name, sample rate, channels, seconds, language given (None: detected), chunk seconds (None: released)
    ("english_16k", 16000, 1, 2.2, None, None),
    ("english_16k_given", 16000, 1, 2.2, "English", None),
    ("stereo_44k", 44100, 2, 1.3, None, None),
    ("stereo_44k_french", 44100, 2, 1.3, "french", None),
    ("chinese_24k", 24000, 1, 1.7, "Chinese", None),
    ("long_8k", 8000, 1, 13.0, None, 6.0),
]

# Raw outputs for parse_asr_output (with the language forced or not) and merge_languages.
PARSE_INPUTS = [
    ("language English<asr_text>Hello there.", None),
    ("language Chinese<asr_text>你好。", None),
    ("  language fRENCH <asr_text>  Bonjour  ", None),
    ("language None<asr_text>", None),
    ("language None<asr_text>stray words", None),
    ("language English\nsomething\n<asr_text>text after lines", None),
    ("no tag at all", None),
    ("language <asr_text>empty name", None),
    ("meta first\nlanguage German<asr_text>Hallo", None),
    ("", None),
    ("   ", None),
    ("Forced text, kept whole<asr_text>even with a tag", "English"),
    ("a" * 30 + "b", None),
    ("language English<asr_text>" + "ha" * 25 + " end", None),
    ("language English<asr_text>" + "xyz " * 22, None),
    ("language English<asr_text>" + "哈" * 21 + "好", None),
    ("ok" * 19 + "!", "English"),
]
MERGE_INPUTS = [["Chinese", "English", "English"], ["", "English", "", "English"], [], ["", ""],
                ["French", "French", "German", "French"]]


def write_tokenizer(folder: Path) -> None:
    with tarfile.open(TOKENIZER_ARCHIVE, "r:xz") as tar:
        for member in ("vocab.json", "merges.txt"):
            folder.joinpath(member).write_bytes(tar.extractfile(member).read())
    decoder = {str(i): {"content": c, "lstrip": False, "normalized": False, "rstrip": False, "single_word": False,
                        "special": i != ASR_TEXT} for i, c in sorted(added_tokens().items())}
    config = {
        "add_bos_token": False, "add_prefix_space": False, "added_tokens_decoder": decoder,
        "additional_special_tokens": ["<|im_start|>", "<|im_end|>", "<|audio_start|>", "<|audio_end|>",
                                      "<|audio_pad|>"],
        "audio_bos_token": "<|audio_start|>", "audio_eos_token": "<|audio_end|>", "audio_token": "<|audio_pad|>",
        "extra_special_tokens": {"audio_bos_token": "<|audio_start|>", "audio_eos_token": "<|audio_end|>",
                                 "audio_token": "<|audio_pad|>"},
        "bos_token": None, "clean_up_tokenization_spaces": False, "eos_token": "<|im_end|>", "errors": "replace",
        "model_max_length": 131072, "pad_token": "<|endoftext|>", "split_special_tokens": False,
        "tokenizer_class": "Qwen2Tokenizer", "unk_token": None, "processor_class": "Qwen3ASRProcessor",
    }
    folder.joinpath("tokenizer_config.json").write_text(json.dumps(config, indent=2, ensure_ascii=False))
    folder.joinpath("chat_template.json").write_text(json.dumps({"chat_template": CHAT_TEMPLATE}, indent=2))


def pcm_of(name: str, rate: int, channels: int, seconds: float) -> np.ndarray:
    """int16 (samples,) or (samples, channels): record_aligner's syllable-like bursts, a channel each."""
    if channels == 1:
        return signal(name, rate, seconds)
    return np.stack([signal(f"{name}.{c}", rate, seconds) for c in range(channels)], axis=1)


def head_tokens(tokenizer) -> list:
    ids = {IM_END}
    for text in VOCABULARY:
        ids.update(tokenizer(text)["input_ids"])
    return sorted(ids - {NEWLINE, LANGUAGE, ASR_TEXT} - {tokenizer(n)["input_ids"][0] for n in NAMES})


def build(folder: Path, head_seed: int) -> None:
    from transformers import AutoTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    write_tokenizer(folder)
    folder.joinpath("preprocessor_config.json").write_text(json.dumps(PREPROCESSOR, indent=2))
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    names = [tokenizer(n)["input_ids"][0] for n in NAMES]
    assert all(len(tokenizer(n)["input_ids"]) == 1 for n in NAMES)
    chosen = head_tokens(tokenizer)
    keep = set(range(151643, ASR_TEXT + 1)) | set(chosen) | set(names) | {NEWLINE, LANGUAGE}
    keep |= set(tokenizer("<|im_start|>system\n<|im_end|>\n<|im_start|>user\nassistant language")["input_ids"])
    torch.manual_seed(SEED)
    config = Qwen3ASRConfig(**{k: v for k, v in CONFIG.items() if k not in ("architectures", "model_type")})
    model = Qwen3ASRForConditionalGeneration(config).eval()
    thinker = model.thinker
    vocab, hidden = thinker.lm_head.weight.shape
    assert vocab == 151936
    init_weights(model, keep)
    with torch.no_grad():
        embed = thinker.model.embed_tokens.weight
        # Three orthonormal directions for the bigram part (see the module docstring).
        q, _ = torch.linalg.qr(draw((hidden, 3), 1.0, "bigram.directions", step=1 / 64))
        u = (q.T * 8.0).round(decimals=2)  # rows of norm ~8 (an embedding row's)
        head = torch.zeros(vocab, hidden)
        rows = chosen + names
        head[rows] = draw((len(rows), hidden), 8.0, f"asr.head.{head_seed}")
        # The names' random rows without the bigram directions: what decides among them is the context (the
        # audio), not a fixed preference along the direction "language" writes.
        head[names] -= (head[names] @ q) @ q.T
        for reads, then, d in (([NEWLINE], [LANGUAGE], 0), ([LANGUAGE], names, 1), (names, [ASR_TEXT], 2)):
            embed[reads] += 3.0 * u[d]
            head[then] += 6.0 * u[d]
        thinker.lm_head.weight.copy_(head)
    model.to(torch.bfloat16).save_pretrained(str(folder), safe_serialization=True)


def run_case(asr, processor, name, rate, channels, seconds, language, chunk_seconds):
    """The official result, and the same run chunk by chunk with its tensors."""
    pcm = pcm_of(name, rate, channels, seconds)
    audio = pcm.astype(np.float32) / 32768.0
    released = qwen3_asr.MAX_ASR_INPUT_SECONDS
    wav = normalize_audios([(audio, rate)])[0]
    forced = qwen3_asr.normalize_language_name(language) if language else None
    chunks, arrays, min_margin = [], {"pcm": pcm}, float("inf")
    pieces = split_audio_into_chunks(wav, SAMPLE_RATE, chunk_seconds or released)
    # All pieces in one batch, as `_infer_asr_transformers` hears them (left-padded prompts, mels of the
    # pieces zero-padded to the longest).
    prompt = asr._build_text_prompt(context="", force_language=forced)
    inputs = processor(text=[prompt] * len(pieces), audio=[p for p, _ in pieces], return_tensors="pt",
                       padding=True).to(torch.float32)
    out = asr.model.generate(**inputs, max_new_tokens=MAX_NEW_TOKENS, output_scores=True)
    scores = torch.stack(out.scores)  # (steps, pieces, vocab)
    for k, (piece, offset) in enumerate(pieces):
        ids = out.sequences[k, inputs["input_ids"].shape[1]:]
        ends = torch.nonzero((ids == IM_END) | (ids == 151643))
        ids = ids[:int(ends[0, 0]) + 1] if len(ends) else ids
        top2 = torch.topk(scores[:len(ids), k], 2, dim=-1).values
        top8 = torch.topk(scores[0, k], 8)
        raw = processor.batch_decode(ids[None], skip_special_tokens=True, clean_up_tokenization_spaces=False)[0]
        lang, text = parse_asr_output(raw, user_language=forced)
        margins = (top2[:, 0] - top2[:, 1]).numpy().astype(np.float32)
        min_margin = min(min_margin, float(margins.min()))
        prompt_ids = inputs["input_ids"][k][inputs["attention_mask"][k].bool()]
        frames = int(inputs["feature_attention_mask"][k].sum())
        arrays.update({f"frames_{k}": np.int32(frames),
                       f"mel_tail_{k}": inputs["input_features"][k, :, frames - MEL_TAIL:frames].numpy()})
        arrays.update({f"input_ids_{k}": prompt_ids.numpy().astype(np.int32),
                       f"generated_{k}": ids.numpy().astype(np.int32), f"margin_{k}": margins,
                       f"first_top_values_{k}": top8.values.numpy().astype(np.float32),
                       f"first_top_ids_{k}": top8.indices.numpy().astype(np.int32)})
        chunks.append({"offset": offset, "samples": int(piece.size), "raw": raw, "language": lang, "text": text,
                       "stopped_on_eos": bool(len(ends))})
    case = {"name": name, "sample_rate": rate, "channels": channels, "language": language,
            "chunk_seconds": chunk_seconds, "max_new_tokens": MAX_NEW_TOKENS, "chunks": chunks,
            "min_margin": min_margin}
    return case, arrays


def official_result(asr, case: dict, pcm: np.ndarray) -> dict:
    """What `Qwen3ASRModel.transcribe` itself gives (with the case's chunk length), checked against the pieces."""
    released = qwen3_asr.MAX_ASR_INPUT_SECONDS
    qwen3_asr.MAX_ASR_INPUT_SECONDS = case["chunk_seconds"] or released
    try:
        result = asr.transcribe(audio=(pcm.astype(np.float32) / 32768.0, case["sample_rate"]),
                                language=case["language"])[0]
    finally:
        qwen3_asr.MAX_ASR_INPUT_SECONDS = released
    chunks = case["chunks"]
    assert "".join(c["text"] for c in chunks) == result.text, (case["name"], chunks, result)
    assert merge_languages([c["language"] for c in chunks]) == result.language
    return {"language": result.language, "text": result.text}


def load(folder: Path):
    return Qwen3ASRModel.from_pretrained(str(folder), dtype=torch.float32, device_map="cpu",
                                         max_new_tokens=MAX_NEW_TOKENS)


def record(asr):
    return [run_case(asr, asr.processor, *case) for case in CASES]


def parse_table() -> dict:
    return {"parse": [{"raw": raw, "language": forced, "parsed": list(parse_asr_output(raw, user_language=forced))}
                      for raw, forced in PARSE_INPUTS],
            "merge": [{"languages": langs, "merged": merge_languages(langs)} for langs in MERGE_INPUTS]}


def pack(folder: Path, out: Path) -> None:
    members = ("chat_template.json config.json generation_config.json model.safetensors preprocessor_config.json "
               "tokenizer_config.json")
    subprocess.run(f"tar --sort=name --owner=0 --group=0 --mtime=@0 -cf - {members} | xz -9e --threads=1 > "
                   f"{out / 'checkpoint.tar.xz'}", shell=True, check=True, cwd=folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE.parent / "fixtures" / "asr")
    parser.add_argument("--checkpoint", type=Path, help="keep the built folder here (default: a temp dir)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    folder = args.checkpoint or Path(tempfile.mkdtemp(prefix="asr-"))
    for head_seed in range(100):
        if folder.exists():
            shutil.rmtree(folder)
        build(folder, head_seed)
        asr = load(folder)
        runs = record(asr)
        margin = min(case["min_margin"] for case, _ in runs)
        detected = [c["chunks"][0]["raw"][:40] for c, _ in runs if not c["language"]]
        print("head seed", head_seed, "min margin", round(margin, 4), detected)
        if margin >= MIN_MARGIN:
            break
    else:
        raise SystemExit("no head seed gives clear margins")
    for case, arrays in runs:
        case["result"] = official_result(asr, case, arrays["pcm"])
        np.savez_compressed(args.out / f"{case['name']}.npz", **arrays)
        print(case["name"], json.dumps(case["result"], ensure_ascii=False)[:150])
    args.out.joinpath("cases.json").write_text(json.dumps(
        {"reference": "qwen-asr 0.0.6, transformers 4.57.6, torch CPU float32", "head_seed": head_seed,
         "cases": [case for case, _ in runs]}, indent=1, ensure_ascii=False) + "\n")
    args.out.joinpath("parse.json").write_text(json.dumps(parse_table(), indent=1, ensure_ascii=False) + "\n")
    pack(folder, args.out)


if __name__ == "__main__":
    main()
