"""Quality report of the conversion recipes: size, load time, logit error, greedy-code agreement.

    python convert/quantization_report.py            # random weights of the released 0.6B shapes
    python convert/quantization_report.py --tiny     # seconds: the tiny test shapes
    python convert/quantization_report.py --model Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice \
        --asr-command 'my-asr {wav}'                 # released weights, plus intelligibility

Each recipe is converted from the source with mlx_qwen3tts.convert. The reference is the source
computed in float32. Under teacher forcing (the reference's own greedy codes fed to every model)
we compare the talker's codebook-0 logits and the code predictor's 15 logit vectors per frame:
relative error ||q - f|| / ||f|| over all positions, and the share of positions whose greedy
choice (codebook 0: ids 0..2047 and EOS) is the reference's. Sizes count the talker, code
predictor and speaker encoder (model*.safetensors), not the codec; load time covers those only.
Random weights are spread (unit embeddings, 1/sqrt(fan_in) layers, heads with logits of std ~4)
so greedy choices have clear margins; their numbers rank recipes but are not the released
model's. On the CPU backend, where MLX's quantized matmul is ~20x slower than a dense one, the
logits are computed from the dequantized weights: the same numbers up to summation order.
With --asr-command (released weights only) each recipe also speaks fixed sentences and
the command, given a WAV path, must print its transcript; the word error rate is reported.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mlx.core as mx
import numpy as np
from mlx_lm.utils import dequantize_model

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reference")]

import tiny_configs  # noqa: E402
from mlx_qwen3tts.model import layouts  # noqa: E402
from mlx_qwen3tts.model.checkpoint import load_config, resolve  # noqa: E402
from mlx_qwen3tts.model.config import ModelConfig  # noqa: E402
from mlx_qwen3tts.convert import convert  # noqa: E402
from mlx_qwen3tts.loop.decode_loop import generate_frames  # noqa: E402
from teacher_forcing import teacher_forced_logits  # noqa: E402
from mlx_qwen3tts.loop.graphs import LoopGraphs  # noqa: E402
from mlx_qwen3tts.loop.prompt import build_prompt  # noqa: E402
from mlx_qwen3tts.loop.sampling import SamplingConfig  # noqa: E402
from mlx_qwen3tts.model.talker import Qwen3TTSModel  # noqa: E402
from mlx_qwen3tts.tokenizer import TemplateIds  # noqa: E402
from mlx_qwen3tts.voices import Voice  # noqa: E402

RECIPES = [("bf16", None, None), ("uniform-8", "uniform", 8), ("uniform-6", "uniform", 6), ("all8", "all8", None),
           ("talker4-cp8", "talker4-cp8", None), ("uniform-4", "uniform", 4), ("linear-only-4", "linear-only", 4)]
SENTENCES = ["The quick brown fox jumps over the lazy dog.", "Please call Stella and ask her to bring these things."]


def released_config(size: str, variant: str) -> dict:
    """config.json of a released checkpoint: the tiny configs' ids and tables, released widths."""
    cfg = tiny_configs.model_config(size, variant)
    hidden = 1024 if size == "0b6" else 2048
    cfg["talker_config"].update(hidden_size=hidden, intermediate_size=3 * hidden, num_hidden_layers=28,
                                num_attention_heads=16, num_key_value_heads=8, head_dim=128, text_hidden_size=2048)
    cfg["talker_config"]["code_predictor_config"].update(
        hidden_size=1024, intermediate_size=3072, num_hidden_layers=5, num_attention_heads=16,
        num_key_value_heads=8, head_dim=128)
    cfg["speaker_encoder_config"] = {"enc_dim": hidden, "sample_rate": 24000}
    return cfg


def write_random_checkpoint(folder: Path, config: dict, seed: int = 0):
    """A released-layout folder with random bf16 weights. Its speech_tokenizer/ is a placeholder that
    only satisfies the folder check: this benchmark never decodes audio from random weights."""
    from mlx.utils import tree_flatten

    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config, indent=2))
    (folder / "generation_config.json").write_text(json.dumps({"max_new_tokens": 8192}))
    model = Qwen3TTSModel(ModelConfig.from_json_dict(config))
    rng = np.random.default_rng(seed)
    weights = {}
    for key, value in tree_flatten(model.parameters()):
        shape = value.shape
        if key.endswith("norm.weight") or key.endswith("layernorm.weight"):
            w = np.ones(shape, np.float32)
        elif "embedding" in key:
            w = rng.standard_normal(shape, dtype=np.float32)
        elif "codec_head" in key or "lm_head" in key:
            w = rng.standard_normal(shape, dtype=np.float32) * (4.0 / np.sqrt(shape[-1]))
        elif key.endswith(".bias"):
            w = np.zeros(shape, np.float32)
        else:
            fan_in = int(np.prod(shape[1:]))
            w = rng.standard_normal(shape, dtype=np.float32) / np.sqrt(fan_in)
        w = mx.array(w).astype(mx.bfloat16)
        if key.startswith("speaker_encoder.") and key.endswith(".weight"):
            w = w.transpose(0, 2, 1)  # released Conv1d kernels are torch (out, in, kernel)
        weights[key] = w
        mx.eval(w)
    mx.save_safetensors(str(folder / "model.safetensors"), dict(sorted(weights.items())), metadata={"format": "pt"})
    codec = folder / "speech_tokenizer"
    codec.mkdir()
    (codec / "config.json").write_text(json.dumps(tiny_configs.SPEECH_TOKENIZER_CONFIG))
    mx.save_safetensors(str(codec / "model.safetensors"), {"placeholder": mx.zeros((1,))})


def load_main(folder: Path, dtype=None) -> Qwen3TTSModel:
    """Talker, code predictor and speaker encoder of a folder, as tts.load builds them."""
    model = layouts.load_model(folder, load_config(folder), dtype)
    mx.eval(model.parameters())
    return model


def prompt_ids(config: ModelConfig, n_text: int, seed: int) -> TemplateIds:
    """A templated assistant turn with random text ids (no tokenizer needed)."""
    rng = np.random.default_rng(seed)
    start, end, assistant, newline = config.im_start_token_id, config.im_end_token_id, 77091, 198
    text = rng.integers(1000, 100_000, n_text).tolist()
    return TemplateIds((start, assistant, newline), tuple(text), (end, newline, start, assistant, newline))


def reference_codes(model: Qwen3TTSModel, prompt, frames: int) -> mx.array:
    """Greedy (frames, 16) codes from the package's decode loop, EOS held off so all frames exist."""
    greedy = SamplingConfig(temperature=0.0, repetition_penalty=1.0, cp_temperature=0.0)
    eos = model.config.talker_config.codec_eos_token_id
    graphs = LoopGraphs(model.talker, eos)
    graphs.process.min_frames = frames  # read when the graphs are traced (on their first call)
    return mx.array(np.concatenate([f.codes for f in generate_frames(graphs, prompt, greedy, frames)]))


def forced_logits(model: Qwen3TTSModel, prompt, codes: mx.array):
    """(talker logits (T, V), code-predictor logits (T, 15, V')) in float32 under teacher forcing."""
    talker, cp = teacher_forced_logits(model.talker, prompt, codes)
    return np.array(talker[:-1].astype(mx.float32)), np.array(cp.astype(mx.float32))


def compare(ref, got, eos_id: int) -> dict:
    (rt, rc), (gt, gc) = ref, got
    allowed = np.r_[np.arange(2048), eos_id]
    rel = lambda a, b: float(np.linalg.norm(b - a) / np.linalg.norm(a))  # noqa: E731
    return {
        "talker_rel_err": rel(rt, gt),
        "cp_rel_err": rel(rc, gc),
        "c0_agree": float(np.mean(allowed[rt[:, allowed].argmax(-1)] == allowed[gt[:, allowed].argmax(-1)])),
        "cp_agree": float(np.mean(rc.argmax(-1) == gc.argmax(-1))),
    }


def folder_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.glob("model*.safetensors"))


def word_error_rate(ref: str, hyp: str) -> float:
    r, h = ref.lower().split(), hyp.lower().split()
    d = list(range(len(h) + 1))
    for i, rw in enumerate(r, 1):
        prev, d[0] = d[0], i
        for j, hw in enumerate(h, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (rw != hw))
    return d[len(h)] / max(len(r), 1)


def intelligibility(folder: Path, command: str, workdir: Path) -> float:
    """Mean WER of SENTENCES spoken greedily by the converted folder, transcribed by `command`."""
    import soundfile as sf

    from mlx_qwen3tts.tts import load as load_tts

    tts = load_tts(str(folder))
    errors = []
    for i, text in enumerate(SENTENCES):
        result = tts.generate(text, language="english", temperature=0.0, max_tokens=600)
        wav = workdir / f"{folder.name}-{i}.wav"
        sf.write(wav, result.audio, result.sample_rate)
        hyp = subprocess.run(command.format(wav=wav), shell=True, capture_output=True, text=True, check=True).stdout
        errors.append(word_error_rate(text, hyp))
    return float(np.mean(errors))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="Released checkpoint (folder or hub id); default: random weights.")
    ap.add_argument("--size", choices=["0b6", "1b7"], default="0b6", help="Random weights: released size.")
    ap.add_argument("--tiny", action="store_true", help="Random weights of the tiny test shapes (seconds).")
    ap.add_argument("--frames", type=int, default=24, help="Teacher-forced frames.")
    ap.add_argument("--group-size", type=int, default=None, help="Default 64 (32 with --tiny).")
    ap.add_argument("--recipes", nargs="*", default=[r[0] for r in RECIPES], help="Rows to run.")
    ap.add_argument("--asr-command", help="Transcriber printing the text of {wav} (released weights only).")
    ap.add_argument("--json", type=Path, help="Also write the rows here.")
    args = ap.parse_args(argv)
    group_size = args.group_size or (32 if args.tiny else 64)
    work = Path(tempfile.mkdtemp(prefix="qwen3tts-quant-"))
    try:
        if args.model:
            source = str(resolve(args.model))
        else:
            if args.tiny:
                config = tiny_configs.model_config("0b6", "custom_voice")
            else:
                config = released_config(args.size, "custom_voice")
            source = str(work / "source")
            write_random_checkpoint(Path(source), config)
        reference = load_main(Path(source), mx.float32)
        ids = prompt_ids(reference.config, 12, seed=1)
        prompt = lambda m: build_prompt(m.talker, m.config, ids, Voice(), language="english", streaming=False)  # noqa: E731
        codes = reference_codes(reference, prompt(reference), args.frames)
        ref_logits = forced_logits(reference, prompt(reference), codes)
        eos = reference.config.talker_config.codec_eos_token_id
        del reference
        rows, bf16_bytes = [], None
        for name, recipe, bits in RECIPES:
            if name not in args.recipes:
                continue
            out = work / name
            convert(source, str(out), dtype="bfloat16", bits=bits, group_size=group_size, recipe=recipe)
            size = folder_bytes(out)
            bf16_bytes = bf16_bytes or (size if name == "bf16" else None)
            times = []
            for _ in range(3):
                tic = time.perf_counter()
                model = load_main(out)
                times.append(time.perf_counter() - tic)
            if mx.default_device() == mx.cpu:
                model = dequantize_model(model)
            errors = compare(ref_logits, forced_logits(model, prompt(model), codes), eos)
            row = {"recipe": name, "size_mb": size / 1e6, "ratio_bf16": size / bf16_bytes if bf16_bytes else None,
                   "load_s": float(np.median(times)), **errors}
            del model
            if args.asr_command and args.model:
                row["wer"] = intelligibility(out, args.asr_command, work)
            rows.append(row)
            shutil.rmtree(out)
            print_row(row, header=len(rows) == 1)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=2) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def print_row(row: dict, header: bool):
    if header:
        print("| recipe | size MB | × bf16 | load s | talker rel err | CP rel err | c0 agree | c1-15 agree |"
              + (" WER |" if "wer" in row else ""))
        print("|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if "wer" in row else ""))
    ratio = f"{row['ratio_bf16']:.3f}" if row["ratio_bf16"] else "-"
    cells = [row["recipe"], f"{row['size_mb']:.1f}", ratio, f"{row['load_s']:.2f}", f"{row['talker_rel_err']:.4f}",
             f"{row['cp_rel_err']:.4f}", f"{row['c0_agree']:.3f}", f"{row['cp_agree']:.3f}"]
    if "wer" in row:
        cells.append(f"{row['wer']:.3f}")
    print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
