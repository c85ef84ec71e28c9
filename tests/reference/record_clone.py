"""Record greedy voice-cloning outputs of the official Qwen3-TTS (qwen-tts 0.1.1) on the tiny Base checkpoints.

Run in the reference (torch) environment from the repository root:
    /work/venvs/ref/bin/python tests/reference/record_clone.py [--checkpoints DIR] [--out DIR] [--seed N]
--checkpoints: a folder with complete base-0b6/ and base-1b7/ checkpoints (default: the committed
archives, unpacked by tests/fixture_checkpoints.py). --out: default <fixtures>/clone. --seed: of the
reference audio. Re-run it whenever the checkpoint archives are rebuilt (test_clone.py checks hashes).

Writes the reference audio files (speech-like synthetic signals: 16 kHz mono WAV, 44.1 kHz stereo
FLAC, a short 24 kHz WAV), one <case>.npz per case and cases.json (settings, a summary, and the
sha256 of every checkpoint's weights, which the tests check against the checkpoints they load).

Each case is one call of the official wrapper `Qwen3TTSModel.generate_voice_clone(text, language,
ref_audio=path, ref_text=..., x_vector_only_mode=..., non_streaming_mode=..., do_sample=False,
subtalker_dosample=False)`, float32 on CPU. Wrapping `create_voice_clone_prompt`, `model.generate`
and `talker.generate` keeps the reference codes and x-vector, the generated codes, the prefill
embeddings and trailing text track; the waveform is what the wrapper returns (reference codes
decoded in front and their share cut). npz keys: xvector (H,), ref_codes (T, 16) int32 (ICL),
input_ids, ref_ids (ICL), prefill_embeds (L, H), trailing_text (N, H), codes (F, 16) int32,
c0_sequence, stopped_on_eos, c0_margin (F + 1,), cp_margin (F, 15) (top-2 logit gaps of the greedy
choices), waveform (float32).
"""

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf
import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import _torchaudio_stub  # noqa: F401,E402  (must precede qwen_tts)
import fixture_checkpoints  # noqa: E402

from qwen_tts import Qwen3TTSModel  # noqa: E402

SEED = 20260322
# name: (rate, channels, seconds, f0, subtype). Written as WAV or FLAC by the file name.
AUDIO = {
    "ref_16k.wav": (16000, 1, 2.4, 125.0, "PCM_16"),
    "ref_44k_stereo.flac": (44100, 2, 2.0, 190.0, "PCM_16"),
    "ref_24k_short.wav": (24000, 1, 0.9, 150.0, "PCM_16"),
}
# Texts use only tokens whose text-embedding rows the packed checkpoints keep (checked below), and
# were picked so that the greedy choices win by margins well above float noise (see cases.json).
SHORT_REF = "Hello world, how are you today?"
# The streaming ICL overlay lays reference text + text + eos over bos + reference frames: cases cover
# text shorter than the frames, longer, and the reference text alone longer (22 tokens > 12 frames + bos).
LONG_REF = "Hello world, how are you today? a deep warm male voice is lovely, a quick brown fox jumps."
CASES = [
    dict(name="clone_0b6_icl_streaming", checkpoint="base-0b6", audio="ref_16k.wav", ref_text=SHORT_REF,
         text="The weather is lovely.", language="english", x_vector_only=False, non_streaming_mode=False),
    dict(name="clone_0b6_icl_nonstreaming", checkpoint="base-0b6", audio="ref_44k_stereo.flac",
         ref_text="The quick brown fox jumps.", text="Guten Morgen, wie geht es dir?", language="german",
         x_vector_only=False, non_streaming_mode=True),
    dict(name="clone_0b6_xvector", checkpoint="base-0b6", audio="ref_44k_stereo.flac", ref_text=None,
         text="Hello world, how are you today?", language="english", x_vector_only=True, non_streaming_mode=False),
    dict(name="clone_0b6_icl_streaming_long_ref_text", checkpoint="base-0b6", audio="ref_24k_short.wav",
         ref_text=LONG_REF, text="Buongiorno a tutti, benvenuti.", language="auto", x_vector_only=False,
         non_streaming_mode=False),
    dict(name="clone_1b7_icl_streaming", checkpoint="base-1b7", audio="ref_44k_stereo.flac",
         ref_text="The weather is lovely.", text="The quick brown fox jumps.", language="auto",
         x_vector_only=False, non_streaming_mode=False),
    dict(name="clone_1b7_icl_nonstreaming", checkpoint="base-1b7", audio="ref_16k.wav", ref_text=SHORT_REF,
         text="Buongiorno a tutti, benvenuti.", language="italian", x_vector_only=False, non_streaming_mode=True),
    dict(name="clone_1b7_icl_streaming_text_overflows", checkpoint="base-1b7", audio="ref_24k_short.wav",
         ref_text="The weather is lovely.", text="Guten Morgen, wie geht es dir? a quick brown fox jumps.",
         language="english", x_vector_only=False, non_streaming_mode=False),
    dict(name="clone_1b7_xvector_nonstreaming", checkpoint="base-1b7", audio="ref_16k.wav", ref_text=None,
         text="The weather is lovely.", language="auto", x_vector_only=True, non_streaming_mode=True),
]
MAX_NEW_TOKENS = 16


def syllables(rate: int, seconds: float, f0: float, rng) -> np.ndarray:
    """Speech-like audio: voiced syllables (harmonics of a gliding f0 under moving formants) with
    short noisy onsets and pauses between them."""
    n = int(rate * seconds)
    t = np.arange(n) / rate
    vowels = [(700, 1220, 2600), (300, 2300, 3000), (500, 900, 2400), (400, 2000, 2550), (650, 1700, 2500)]
    out = np.zeros(n)
    start = 0.05
    while start < seconds - 0.15:
        stop = min(start + rng.uniform(0.18, 0.32), seconds - 0.03)
        mask = (t >= start) & (t < stop)
        ts, span = t[mask] - start, stop - start
        pitch = f0 * (1 + 0.12 * np.sin(np.pi * ts / span + rng.uniform(0, np.pi))) * (1 + 0.02 * np.sin(2 * np.pi * 5.5 * ts))
        phase = 2 * np.pi * np.cumsum(pitch) / rate
        formants = vowels[rng.integers(len(vowels))]
        y = np.zeros(ts.size)
        for k in range(1, int(0.45 * rate / f0)):
            gain = sum(np.exp(-((k * f0 - f) / (80 + 0.06 * f)) ** 2) for f in formants) + 0.015
            y += gain / k**0.7 * np.sin(k * phase)
        envelope = np.sin(np.pi * ts / span) ** 0.6
        onset = np.exp(-ts / 0.02) * rng.standard_normal(ts.size) * 0.3
        out[mask] = envelope * y / (np.max(np.abs(y)) + 1e-9) + onset
        start = stop + rng.uniform(0.03, 0.09)
    return 0.5 * out / np.max(np.abs(out))


def write_audio(out: Path, rng) -> None:
    for fname, (rate, channels, seconds, f0, subtype) in AUDIO.items():
        mono = syllables(rate, seconds, f0, rng)
        if channels == 2:
            data = np.stack([mono, 0.7 * np.roll(mono, 11) + 0.004 * rng.standard_normal(mono.size)], axis=1)
        else:
            data = mono
        sf.write(out / fname, data.astype(np.float32), rate, subtype=subtype)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Capture:
    """Keeps what the wrapper computes on the way: the clone prompt, the model call, the talker call."""

    def __init__(self, tts: Qwen3TTSModel):
        self.items, self.model_calls, self.talker_calls, self.cp_margins = [], [], [], []
        make_prompt, model_generate, talker_generate = (
            tts.create_voice_clone_prompt, tts.model.generate, tts.model.talker.generate)
        cp = tts.model.talker.code_predictor
        cp_generate = cp.generate

        def wrapped_prompt(**kwargs):
            items = make_prompt(**kwargs)
            self.items.append(items)
            return items

        def wrapped_model(**kwargs):
            result = model_generate(**kwargs)
            self.model_calls.append(dict(kwargs=kwargs, codes=result[0]))
            return result

        def wrapped_talker(**kwargs):
            result = talker_generate(**kwargs, output_scores=True)
            self.talker_calls.append(dict(kwargs=kwargs, result=result))
            return result

        def wrapped_cp(**kwargs):
            result = cp_generate(**kwargs, output_scores=True)
            self.cp_margins.append([margin(s[0]) for s in result.scores])
            return result

        tts.create_voice_clone_prompt = wrapped_prompt
        cp.generate = wrapped_cp
        tts.model.generate = wrapped_model
        tts.model.talker.generate = wrapped_talker

    def reset(self):
        self.items.clear(), self.model_calls.clear(), self.talker_calls.clear(), self.cp_margins.clear()


def margin(scores: torch.Tensor) -> float:
    top = torch.topk(scores.float(), 2, dim=-1).values
    return float(top[..., 0] - top[..., 1])


def run_case(tts: Qwen3TTSModel, capture: Capture, case: dict, audio_dir: Path) -> dict:
    capture.reset()
    wavs, sr = tts.generate_voice_clone(
        case["text"], language=case["language"], ref_audio=str(audio_dir / case["audio"]), ref_text=case["ref_text"],
        x_vector_only_mode=case["x_vector_only"], non_streaming_mode=case["non_streaming_mode"],
        max_new_tokens=MAX_NEW_TOKENS, do_sample=False, subtalker_dosample=False,
    )
    assert sr == 24000 and len(capture.items) == len(capture.model_calls) == len(capture.talker_calls) == 1
    [item] = capture.items[0]
    call, talker = capture.model_calls[0], capture.talker_calls[0]
    result = talker["result"]
    eos = tts.model.config.talker_config.codec_eos_token_id
    codes = call["codes"][0].to(torch.int32)
    c0_sequence = result.sequences[0].to(torch.int32)
    assert torch.equal(codes[:, 0], c0_sequence[: codes.shape[0]])
    record = {
        "xvector": item.ref_spk_embedding.float().numpy(),
        "input_ids": call["kwargs"]["input_ids"][0][0].numpy().astype(np.int32),
        "prefill_embeds": talker["kwargs"]["inputs_embeds"][0].float().numpy(),
        "trailing_text": talker["kwargs"]["trailing_text_hidden"][0].float().numpy(),
        "codes": codes.numpy(),
        "c0_sequence": c0_sequence.numpy(),
        "stopped_on_eos": np.array(bool(c0_sequence[-1] == eos)),
        "c0_margin": np.array([margin(s[0]) for s in result.scores], dtype=np.float32),
        "cp_margin": np.array(capture.cp_margins[: codes.shape[0]], dtype=np.float32),  # (F, 15)
        "waveform": np.asarray(wavs[0], dtype=np.float32),
    }
    if not case["x_vector_only"]:
        record["ref_codes"] = item.ref_code.to(torch.int32).numpy()
        record["ref_ids"] = call["kwargs"]["ref_ids"][0][0].numpy().astype(np.int32)
    return record


def check_text_rows(tts: Qwen3TTSModel, record: dict, case: dict) -> None:
    """Texts must use tokens with non-zero text embeddings (packed checkpoints zero unused rows)."""
    table = tts.model.talker.model.text_embedding.weight
    ids = np.concatenate([record["input_ids"], record.get("ref_ids", np.zeros(0, np.int32))])
    zero = sorted({int(i) for i in ids if not torch.any(table[int(i)] != 0)})
    if zero:
        raise SystemExit(f"{case['name']}: token ids {zero} have all-zero text embeddings in this checkpoint; "
                         "use other words or rebuild the checkpoints with these ids kept")


def summary(case: dict, record: dict) -> dict:
    out = dict(case)
    n_ref = int(record["ref_codes"].shape[0]) if "ref_codes" in record else None
    if n_ref is not None and not case["non_streaming_mode"]:
        n_ref_text = len(record["ref_ids"]) - 5
        n_text = n_ref_text + len(record["input_ids"]) - 8 + 1
        out["icl_overlay"] = ("reference text alone longer than codec" if n_ref_text > n_ref + 1 else
                              "text longer than codec" if n_text > n_ref + 1 else "text shorter than codec")
    out.update(
        max_new_tokens=MAX_NEW_TOKENS,
        ref_frames=n_ref,
        frames=int(record["codes"].shape[0]),
        stopped_on_eos=bool(record["stopped_on_eos"]),
        prefill_length=int(record["prefill_embeds"].shape[0]),
        trailing_length=int(record["trailing_text"].shape[0]),
        min_c0_margin=float(record["c0_margin"].min()),
        min_cp_margin=float(record["cp_margin"].min()),
        waveform_samples=int(record["waveform"].size),
        npz=f"{case['name']}.npz",
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkpoints", type=Path, help="folder with complete base-0b6/ and base-1b7/ "
                        "(default: the committed archives)")
    parser.add_argument("--out", type=Path, default=fixture_checkpoints.FIXTURES / "clone")
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the synthetic reference audio")
    parser.add_argument("--cases", type=Path, help="JSON object {case name: {field: value}} overriding texts, "
                        "languages, ... of the cases (e.g. unseen_clone_cases.json)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(2)
    write_audio(args.out, np.random.default_rng(args.seed))

    with tempfile.TemporaryDirectory() as tmp:
        def folder(name):
            return args.checkpoints / name if args.checkpoints else fixture_checkpoints.checkpoint_dir(name, Path(tmp))

        summaries, hashes, loaded = [], {}, {}
        overrides = json.loads(args.cases.read_text()) if args.cases else {}
        for case in [dict(c, **overrides.get(c["name"], {})) for c in CASES]:
            name = case["checkpoint"]
            if name not in loaded:
                path = folder(name)
                hashes[name] = {"model.safetensors": sha256(path / "model.safetensors"),
                                "speech_tokenizer/model.safetensors": sha256(path / "speech_tokenizer" / "model.safetensors")}
                tts = Qwen3TTSModel.from_pretrained(str(path), device_map="cpu", dtype=torch.float32)
                loaded = {name: (tts, Capture(tts))}
            tts, capture = loaded[name]
            with torch.no_grad():
                record = run_case(tts, capture, case, args.out)
            check_text_rows(tts, record, case)
            np.savez_compressed(args.out / f"{case['name']}.npz", **record)
            summaries.append(summary(case, record))
            s = summaries[-1]
            print(f"{case['name']}: ref frames={s['ref_frames']} frames={s['frames']} eos={s['stopped_on_eos']} "
                  f"prefill={s['prefill_length']} trailing={s['trailing_length']} {s.get('icl_overlay', '')} "
                  f"min margins c0={s['min_c0_margin']:.4f} cp={s['min_cp_margin']:.4f}")
    meta = {
        "reference": "qwen-tts 0.1.1 generate_voice_clone, transformers 4.57.3, torch float32 CPU, greedy",
        "audio_seed": args.seed,
        "checkpoint_sha256": hashes,
        "audio": {f: {"sha256": sha256(args.out / f), "sample_rate": a[0], "channels": a[1]} for f, a in AUDIO.items()},
        "cases": summaries,
    }
    (args.out / "cases.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    for f in sorted(args.out.iterdir()):
        print(f"{f.name}: {f.stat().st_size / 1024:.0f} KiB")
    print(f"total {sum(f.stat().st_size for f in args.out.iterdir()) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
