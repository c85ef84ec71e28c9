"""A tiny random Qwen3-ForcedAligner in the released layout, and what qwen-asr makes of it (issue 44).

Runs in the oracle venv (torch CPU, transformers 4.57.6, `pip install --no-deps qwen-asr==0.0.6`,
nagisa for its import; see tests/reference/README.md). Writes into --out (tests/fixtures/aligner/):

  checkpoint.tar.xz  config.json, model.safetensors (bf16), preprocessor_config.json,
                     tokenizer_config.json: the released file names, built and saved with qwen-asr's
                     own classes (vocab.json and merges.txt come from fixtures/tokenizer/tokenizer.tar.xz)
  cases.json         per case: text, language, sample rate, the official word list and word times
  <case>.npz         pcm (int16, the audio given as pcm / 32768 at the case's rate), input_ids,
                     input_features (mel; MEL_CASES only), audio_features (encoder output), slot
                     positions, argmax, top-2 margin and the 8 largest logits (values, classes) at every
                     slot, the raw logits of the first SLOT_LOGITS slots, the picks in ms, the repaired ms
  repair.json        the official repair (`fix_timestamp`) on crafted non-monotonic picks

Sizes are small but the token ids, the 5,000 classes of 80 ms, the 100-frame mel chunks and the
layout are the released ones (`n_window_infer` is 200, released 800: the oracle's CPU attention, SDPA,
ignores those windows, which only its flash-attention-2 path applies). The English and Chinese clips
span three and two mel chunks of 100 frames (the last one zero-padded), the mixed one a single short
chunk. Embedding rows that no case uses are zero; the `<timestamp>` row is small (see init_weights);
the timestamp head is the first of a series of draws whose argmax wins by MIN_MARGIN at every slot of
every case.
"""

import argparse
import json
import math
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

import numpy as np
import torch
from torch import nn

from qwen_asr import Qwen3ForcedAligner
from qwen_asr.core.transformers_backend import Qwen3ASRConfig, Qwen3ASRForConditionalGeneration, Qwen3ASRProcessor
from qwen_asr.inference.qwen3_forced_aligner import Qwen3ForceAlignProcessor
from qwen_asr.inference.utils import normalize_audios

HERE = Path(__file__).resolve().parent
TOKENIZER_ARCHIVE = HERE.parent / "fixtures" / "tokenizer" / "tokenizer.tar.xz"
SLOT_LOGITS = 1
MEL_CASES = ("mixed",)
MIN_MARGIN = 0.1
SEED = 0

# Released ids (Qwen/Qwen3-ForcedAligner-0.6B config.json and tokenizer_config.json). transformers numbers
# added tokens in order, so every id from 151643 to <timestamp> is declared: the Qwen ones the TTS
# tokenizer fixture names, the aligner's own, and placeholders for the rest (no text here spells them).
AUDIO_START, AUDIO_END, AUDIO_PAD, TIMESTAMP = 151669, 151670, 151676, 151705


def added_tokens() -> dict:
    with tarfile.open(TOKENIZER_ARCHIVE, "r:xz") as tar:
        tts = json.loads(tar.extractfile("tokenizer_config.json").read())["added_tokens_decoder"]
    names = {int(i): e["content"] for i, e in tts.items() if int(i) <= 151668}
    names.update({AUDIO_START: "<|audio_start|>", AUDIO_END: "<|audio_end|>", AUDIO_PAD: "<|audio_pad|>",
                  151704: "<asr_text>", TIMESTAMP: "<timestamp>"})
    return {i: names.get(i, f"<|reserved_{i}|>") for i in range(151643, TIMESTAMP + 1)}

CONFIG = {
    "architectures": ["Qwen3ASRForConditionalGeneration"],
    "model_type": "qwen3_asr",
    "timestamp_token_id": TIMESTAMP,
    "timestamp_segment_time": 80,
    "support_languages": ["Chinese", "English", "Cantonese", "French", "German", "Italian", "Japanese",
                          "Korean", "Portuguese", "Russian", "Spanish"],
    "thinker_config": {
        "model_type": "qwen3_forced_aligner",
        "classify_num": 5000,
        "audio_token_id": AUDIO_PAD,
        "audio_start_token_id": AUDIO_START,
        "audio_end_token_id": AUDIO_END,
        "audio_config": {"num_mel_bins": 128, "encoder_layers": 2, "encoder_attention_heads": 4,
                         "encoder_ffn_dim": 64, "d_model": 32, "max_source_positions": 1500,
                         "n_window": 50, "n_window_infer": 200, "output_dim": 32,
                         "downsample_hidden_size": 8, "conv_chunksize": 500, "scale_embedding": False,
                         "activation_function": "gelu"},
        "text_config": {"vocab_size": 152064, "hidden_size": 32, "intermediate_size": 64,
                        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                        "head_dim": 16, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0,
                        "rope_scaling": {"rope_type": "default", "mrope_section": [4, 2, 2],
                                         "mrope_interleaved": True, "interleaved": True},
                        "tie_word_embeddings": False, "hidden_act": "silu", "attention_bias": False},
    },
}

PREPROCESSOR = {
    "feature_extractor_type": "WhisperFeatureExtractor", "processor_class": "Qwen3ASRProcessor",
    "feature_size": 128, "sampling_rate": 16000, "hop_length": 160, "n_fft": 400, "chunk_length": 30,
    "n_samples": 480000, "nb_max_frames": 3000, "padding_side": "right", "padding_value": 0.0,
    "return_attention_mask": True, "dither": 0.0,
}

CASES = [
    # name, text, language, sample rate, seconds
    ("english", "Hello world, it's a test: don't stop at 42 cafés!", "English", 24000, 2.6),
    ("chinese", "今天天气很好，我们去公园散步。", "Chinese", 16000, 2.37),
    ("mixed", "我爱 Python 和MLX框架 (v2.0)", "Chinese", 16000, 0.83),
]

# Picks (ms) that the repair must mend: single outliers, runs of 2 (nearest side) and of 3+ (linear
# fill), anomalies at either end, ties, all equal, descending, and an empty list.
REPAIR_INPUTS = [
    [80, 160, 240],
    [80, 4000, 160, 240],
    [80, 160, 0, 400],
    [500, 80, 160],
    [80, 160, 240, 320, 0, 0, 0, 800, 880, 960, 1040],
    [0, 80, 80, 160, 160, 160, 240, 40, 320],
    [400, 320, 240, 160, 80],
    [160, 160, 160, 160],
    [80, 900, 880, 160, 240, 10, 20, 30, 400],
    [240, 80, 160, 4000, 3920, 320, 400, 0, 480, 560],
    [1000, 80, 160, 240, 320, 400, 50, 60, 70, 480],
    [80, 160, 10, 20, 30, 40, 240, 320],
    [90, 10],
    [7],
]


def pow2(x: float) -> float:
    return 2.0 ** round(math.log2(x))


def draw(shape, scale: float, key: str, step: float = 0.25, clip: float = 3.0) -> torch.Tensor:
    """N(0,1) rounded to `step`, clipped, times a power of two: exact in bf16."""
    seed = sum(ord(c) * 131**i for i, c in enumerate(key)) % (2**61 - 1)
    z = torch.randn(shape, generator=torch.Generator().manual_seed(SEED * 1_000_003 + seed))
    return (torch.clamp(torch.round(z / step) * step, -clip, clip) * scale).float()


def init_weights(model: nn.Module, keep_rows) -> None:
    with torch.no_grad():
        for name, sub in model.named_modules():
            if isinstance(sub, (nn.Linear, nn.Conv2d)) and not name.endswith("lm_head"):
                sub.weight.copy_(draw(sub.weight.shape, pow2(1.0 / math.sqrt(sub.weight[0].numel())), name))
                if sub.bias is not None:
                    sub.bias.copy_(draw(sub.bias.shape, 1 / 8, name + ".b"))
            elif isinstance(sub, nn.Embedding):
                w = draw(sub.weight.shape, 1.0, name)
                mask = torch.zeros(sub.weight.shape[0], dtype=torch.bool)
                mask[sorted(keep_rows)] = True
                # A small <timestamp> row: every slot holds the same token, so its context must
                # outweigh it in the residual stream for the picks to differ from slot to slot.
                w[TIMESTAMP] /= 16
                sub.weight.copy_(torch.where(mask[:, None], w, torch.zeros_like(w)))
            elif isinstance(sub, nn.LayerNorm):
                sub.weight.copy_(1.0 + draw(sub.weight.shape, 1 / 16, name, step=0.5))
                sub.bias.copy_(draw(sub.bias.shape, 1 / 16, name + ".b"))
            elif "RMSNorm" in type(sub).__name__:
                sub.weight.copy_(1.0 + draw(sub.weight.shape, 1 / 16, name, step=0.5))


def head_rows(n: int, h: int, seed: int) -> torch.Tensor:
    """(n, h) timestamp-head rows of logits of std ~8 (quantized draws: the archive stays small)."""
    return draw((n, h), pow2(8.0 / math.sqrt(h)), f"head.{seed}")


def choose_head(model, processor, words) -> int:
    """The first head seed whose argmax at every slot of every case wins by MIN_MARGIN: random weights
    give near ties, and a pick decided by float noise is no test of parity."""
    hidden = []
    for name, text, language, rate, seconds in CASES:
        audio16 = normalize_audios([(as_float(signal(name, rate, seconds)), rate)])[0]
        _, prompt = words.encode_timestamp(text, language)
        inputs = processor(text=[prompt], audio=[audio16], return_tensors="pt", padding=True)
        hidden.append(_final_hidden(model, inputs)[inputs["input_ids"][0] == TIMESTAMP])
    hidden = torch.cat(hidden)
    n, h = model.thinker.lm_head.weight.shape
    for seed in range(1000):
        top2 = torch.topk(hidden @ head_rows(n, h, seed).T, 2, dim=-1).values
        if float((top2[:, 0] - top2[:, 1]).min()) >= MIN_MARGIN:
            return seed
    raise SystemExit("no head seed gives clear margins")


def _final_hidden(model, inputs) -> torch.Tensor:
    """The decoder's output after its final norm (what the head reads), through a forward hook."""
    seen = []
    handle = model.thinker.model.norm.register_forward_hook(lambda m, i, o: seen.append(o))
    with torch.inference_mode():
        model.thinker(**inputs)
    handle.remove()
    return seen[-1][0]


def signal(name: str, rate: int, seconds: float) -> np.ndarray:
    """Syllable-like bursts: tones with a few harmonics and a little noise under a raised-cosine envelope."""
    rng = np.random.default_rng(sum(map(ord, name)))
    t = np.arange(int(round(rate * seconds))) / rate
    out = np.zeros_like(t)
    start = 0.1
    while start < seconds - 0.15:
        length = rng.uniform(0.12, 0.3)
        f0 = rng.uniform(110, 260)
        inside = (t >= start) & (t < start + length)
        phase = (t[inside] - start) / length
        env = 0.5 - 0.5 * np.cos(2 * np.pi * phase)
        tone = sum(np.sin(2 * np.pi * f0 * k * t[inside]) / k for k in (1, 2, 3))
        out[inside] += 0.3 * env * (tone + 0.2 * rng.standard_normal(inside.sum()))
        start += length + rng.uniform(0.03, 0.12)
    return np.round(out * 32767).astype(np.int16)


def as_float(pcm: np.ndarray) -> np.ndarray:
    return (pcm.astype(np.float32) / 32768.0).astype(np.float32)


def write_tokenizer(folder: Path) -> None:
    with tarfile.open(TOKENIZER_ARCHIVE, "r:xz") as tar:
        for member in ("vocab.json", "merges.txt"):
            folder.joinpath(member).write_bytes(tar.extractfile(member).read())
    decoder = {str(i): {"content": c, "lstrip": False, "normalized": False, "rstrip": False, "single_word": False,
                        "special": True} for i, c in sorted(added_tokens().items())}
    config = {
        "add_bos_token": False, "add_prefix_space": False, "added_tokens_decoder": decoder,
        "additional_special_tokens": ["<|im_start|>", "<|im_end|>", "<|audio_start|>", "<|audio_end|>",
                                      "<|audio_pad|>", "<timestamp>"],
        "audio_bos_token": "<|audio_start|>", "audio_eos_token": "<|audio_end|>", "audio_token": "<|audio_pad|>",
        "extra_special_tokens": {"audio_bos_token": "<|audio_start|>", "audio_eos_token": "<|audio_end|>",
                                 "audio_token": "<|audio_pad|>"},
        "bos_token": None, "clean_up_tokenization_spaces": False, "eos_token": "<|im_end|>", "errors": "replace",
        "model_max_length": 131072, "pad_token": "<|endoftext|>", "split_special_tokens": False,
        "tokenizer_class": "Qwen2Tokenizer", "unk_token": None, "processor_class": "Qwen3ASRProcessor",
    }
    folder.joinpath("tokenizer_config.json").write_text(json.dumps(config, indent=2, ensure_ascii=False))


def build(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    write_tokenizer(folder)
    folder.joinpath("preprocessor_config.json").write_text(json.dumps(PREPROCESSOR, indent=2))
    # The token ids every case uses, through the official processor (any weights do for that).
    folder.joinpath("config.json").write_text(json.dumps(CONFIG, indent=2))
    processor = Qwen3ASRProcessor.from_pretrained(str(folder), fix_mistral_regex=True)
    words = Qwen3ForceAlignProcessor()
    keep = set(range(151643, TIMESTAMP + 1))
    for _, text, language, _, _ in CASES:
        _, prompt = words.encode_timestamp(text, language)
        keep.update(processor.tokenizer(prompt)["input_ids"])
    torch.manual_seed(SEED)
    config = Qwen3ASRConfig(**{k: v for k, v in CONFIG.items() if k not in ("architectures", "model_type")})
    model = Qwen3ASRForConditionalGeneration(config).eval()
    assert model.thinker.lm_head.out_features == 5000
    init_weights(model, keep)
    model.thinker.lm_head.weight.data.zero_()
    seed = choose_head(model, processor, words)
    with torch.no_grad():
        model.thinker.lm_head.weight.copy_(head_rows(*model.thinker.lm_head.weight.shape, seed))
    print("head seed", seed)
    model.to(torch.bfloat16).save_pretrained(str(folder), safe_serialization=True)
    # save_pretrained writes the class's model_type for the thinker; the release says qwen3_forced_aligner,
    # which is what makes qwen-asr build the 5,000-class head.
    saved = json.loads(folder.joinpath("config.json").read_text())
    saved["thinker_config"]["model_type"] = "qwen3_forced_aligner"
    folder.joinpath("config.json").write_text(json.dumps(saved, indent=2))


def record(folder: Path, out: Path) -> None:
    aligner = Qwen3ForcedAligner.from_pretrained(str(folder), dtype=torch.float32, device_map="cpu")
    thinker = aligner.model.thinker
    assert thinker.lm_head.out_features == 5000
    cases = []
    for name, text, language, rate, seconds in CASES:
        pcm = signal(name, rate, seconds)
        audio = as_float(pcm)
        result = aligner.align(audio=(audio, rate), text=text, language=language)[0]
        # The same pass, step by step, for the intermediate tensors.
        audio16 = normalize_audios([(audio, rate)])[0]
        word_list, prompt = aligner.aligner_processor.encode_timestamp(text, language)
        inputs = aligner.processor(text=[prompt], audio=[audio16], return_tensors="pt", padding=True)
        with torch.inference_mode():
            features = thinker.get_audio_features(inputs["input_features"],
                                                  feature_attention_mask=inputs["feature_attention_mask"])
            logits = thinker(**inputs).logits[0]
        ids = inputs["input_ids"][0]
        slots = torch.nonzero(ids == TIMESTAMP)[:, 0]
        slot_logits = logits[slots]
        top2 = torch.topk(slot_logits, 2, dim=-1).values
        top8 = torch.topk(slot_logits, 8, dim=-1)
        picks_ms = (slot_logits.argmax(-1) * aligner.timestamp_segment_time).numpy()
        repaired = aligner.aligner_processor.fix_timestamp(picks_ms)
        np.savez_compressed(
            out / f"{name}.npz", pcm=pcm, input_ids=ids.numpy().astype(np.int32),
            **({"input_features": inputs["input_features"][0].numpy().astype(np.float32)} if name in MEL_CASES else {}),
            audio_features=features.numpy().astype(np.float32), slots=slots.numpy().astype(np.int32),
            slot_argmax=slot_logits.argmax(-1).numpy().astype(np.int32),
            slot_margin=(top2[:, 0] - top2[:, 1]).numpy().astype(np.float32),
            slot_logits=slot_logits[:SLOT_LOGITS].numpy().astype(np.float32),
            slot_top_values=top8.values.numpy().astype(np.float32),
            slot_top_classes=top8.indices.numpy().astype(np.int32),
            picks_ms=picks_ms.astype(np.float32), repaired_ms=np.asarray(repaired, np.int64))
        words = [{"text": it.text, "start": it.start_time, "end": it.end_time} for it in result]
        assert [w["text"] for w in words] == word_list
        cases.append({"name": name, "text": text, "language": language, "sample_rate": rate,
                      "samples": int(audio.size), "words": words,
                      "min_slot_margin": float((top2[:, 0] - top2[:, 1]).min())})
        print(name, len(word_list), "words, min slot margin", cases[-1]["min_slot_margin"])
    out.joinpath("cases.json").write_text(json.dumps(
        {"reference": "qwen-asr 0.0.6, transformers 4.57.6, torch CPU float32", "cases": cases},
        indent=1, ensure_ascii=False) + "\n")
    repair = [{"picks_ms": p, "repaired_ms": aligner.aligner_processor.fix_timestamp(np.asarray(p, np.float32))}
              for p in REPAIR_INPUTS]
    out.joinpath("repair.json").write_text(json.dumps(repair, indent=1) + "\n")


def pack(folder: Path, out: Path) -> None:
    members = "config.json model.safetensors preprocessor_config.json tokenizer_config.json"
    subprocess.run(f"tar --sort=name --owner=0 --group=0 --mtime=@0 -cf - {members} | xz -9e --threads=1 > "
                   f"{out / 'checkpoint.tar.xz'}", shell=True, check=True, cwd=folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE.parent / "fixtures" / "aligner")
    parser.add_argument("--checkpoint", type=Path, help="keep the built folder here (default: a temp dir)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    folder = args.checkpoint or Path(tempfile.mkdtemp(prefix="aligner-"))
    if folder.exists():
        shutil.rmtree(folder)
    build(folder)
    record(folder, args.out)
    pack(folder, args.out)


if __name__ == "__main__":
    main()
