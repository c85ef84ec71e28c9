"""Record reference outputs of the official Qwen3-TTS (qwen-tts 0.1.1) on the tiny checkpoints.

Run in the reference (torch) environment, float32 on CPU, greedy (do_sample=False,
subtalker_dosample=False). Writes one <case>.npz per case, decode_long.npz, cases.json (the case
settings and a summary) and token_ids.json (every text token id the cases use, for
`build_checkpoints.py --sparse-text-rows`). Schema: README.md.

The talker's prefill embeddings, trailing text track and raw logits are captured by wrapping
`model.talker.generate` (and `talker.code_predictor.generate`) and asking HF generate for
`output_logits` / `output_scores`; the decode loop itself is the reference's, untouched.
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _torchaudio_stub  # noqa: F401,E402  (must precede qwen_tts)

from qwen_tts import Qwen3TTSModel  # noqa: E402

CP_LOGIT_FRAMES = 2
DECODE_LONG_FRAMES = 100

# entry: how the reference is driven. "base" = Base default voice (no speaker, no clone prompt):
# `model.model.generate` called as the wrappers call it, since no wrapper exposes it.
CASES = [
    dict(name="base_0b6_english_streaming", checkpoint="base-0b6", entry="base",
         text="Hello world, how are you today?", language="english", non_streaming_mode=False, max_new_tokens=20),
    dict(name="base_1b7_auto_nonstreaming", checkpoint="base-1b7", entry="base",
         text="Guten Morgen, wie geht es dir?", language="auto", non_streaming_mode=True, max_new_tokens=20),
    dict(name="custom_voice_0b6_ryan_english_instruct_dropped", checkpoint="custom_voice-0b6", entry="custom_voice",
         text="The weather is lovely.", language="english", speaker="ryan",
         instruct="Speak slowly and calmly.", non_streaming_mode=True, max_new_tokens=20),
    dict(name="custom_voice_1b7_vivian_chinese_instruct", checkpoint="custom_voice-1b7", entry="custom_voice",
         text="今天天气很好。", language="chinese", speaker="vivian",
         instruct="用温柔的语气说。", non_streaming_mode=True, max_new_tokens=20),
    dict(name="custom_voice_1b7_dylan_auto_streaming_dialect", checkpoint="custom_voice-1b7", entry="custom_voice",
         text="我们一起去吃饭吧。", language="auto", speaker="dylan", non_streaming_mode=False, max_new_tokens=20),
    dict(name="custom_voice_0b6_eric_chinese_streaming_dialect", checkpoint="custom_voice-0b6", entry="custom_voice",
         text="你好，欢迎光临。", language="chinese", speaker="eric", non_streaming_mode=False, max_new_tokens=20),
    dict(name="voice_design_1b7_english_instruct", checkpoint="voice_design-1b7", entry="voice_design",
         text="The quick brown fox jumps.", language="english",
         instruct="A deep, warm male voice.", non_streaming_mode=True, max_new_tokens=20),
    dict(name="voice_design_1b7_auto_streaming", checkpoint="voice_design-1b7", entry="voice_design",
         text="こんにちは、元気ですか。", language="auto", instruct="", non_streaming_mode=False, max_new_tokens=20),
    dict(name="base_0b6_italian_long", checkpoint="base-0b6", entry="base",
         text="Buongiorno a tutti, benvenuti.", language="italian", non_streaming_mode=False, max_new_tokens=92,
         waveform=False),
]
CASE_DEFAULTS = dict(speaker=None, instruct=None, repetition_penalty=1.05, waveform=True)


class Capture:
    """Wraps the talker's and code predictor's HF `generate` to keep their inputs and raw logits."""

    def __init__(self, model):
        self.talker_calls, self.cp_calls = [], []
        talker, cp = model.talker, model.talker.code_predictor
        talker_generate, cp_generate = talker.generate, cp.generate

        def wrapped_talker(**kwargs):
            result = talker_generate(**kwargs, output_logits=True, output_scores=True)
            self.talker_calls.append(dict(kwargs=kwargs, result=result))
            return result

        def wrapped_cp(**kwargs):
            result = cp_generate(**kwargs, output_logits=True, output_scores=True)
            self.cp_calls.append(dict(inputs_embeds=kwargs["inputs_embeds"], result=result))
            return result

        talker.generate, cp.generate = wrapped_talker, wrapped_cp
        self.model_calls = []
        model_generate = model.generate

        def wrapped_model(**kwargs):
            self.model_calls.append(kwargs)
            return model_generate(**kwargs)

        model.generate = wrapped_model

    def reset(self):
        self.talker_calls.clear(), self.cp_calls.clear(), self.model_calls.clear()


def margin(scores: torch.Tensor) -> float:
    top = torch.topk(scores.float(), 2, dim=-1).values
    return float(top[..., 0] - top[..., 1])


def run_case(tts: Qwen3TTSModel, capture: Capture, case: dict) -> dict:
    kwargs = dict(do_sample=False, subtalker_dosample=False, max_new_tokens=case["max_new_tokens"],
                  repetition_penalty=case["repetition_penalty"])
    capture.reset()
    if case["entry"] == "custom_voice":
        wavs, sr = tts.generate_custom_voice(case["text"], speaker=case["speaker"], language=case["language"],
                                             instruct=case["instruct"], non_streaming_mode=case["non_streaming_mode"],
                                             **kwargs)
    elif case["entry"] == "voice_design":
        wavs, sr = tts.generate_voice_design(case["text"], instruct=case["instruct"], language=case["language"],
                                             non_streaming_mode=case["non_streaming_mode"], **kwargs)
    else:
        input_ids = tts._tokenize_texts([tts._build_assistant_text(case["text"])])
        codes, _ = tts.model.generate(input_ids=input_ids, languages=[case["language"]],
                                      non_streaming_mode=case["non_streaming_mode"],
                                      **tts._merge_generate_kwargs(**kwargs))
        wavs, sr = tts.model.speech_tokenizer.decode([{"audio_codes": c} for c in codes])
    assert sr == 24000 and len(capture.model_calls) == 1 and len(capture.talker_calls) == 1

    call = capture.model_calls[0]
    talker = capture.talker_calls[0]
    result = talker["result"]
    eos = tts.model.config.talker_config.codec_eos_token_id
    c0_sequence = result.sequences[0].to(torch.int32)  # every sampled codebook-0 id, the last included
    codes = torch.stack([h[-1][0] for h in result.hidden_states if h[-1] is not None]).to(torch.int32)
    frames = codes.shape[0]
    hidden = talker["kwargs"]["inputs_embeds"].shape[-1]
    assert len(capture.cp_calls) == frames and len(result.logits) == frames + 1 == len(c0_sequence)
    assert torch.equal(codes[:, 0], c0_sequence[:frames])

    cp_scores = [torch.stack([s[0] for s in c["result"].scores]) for c in capture.cp_calls]  # 15 x (2048,)
    record = {
        "input_ids": call["input_ids"][0][0].numpy().astype(np.int32),
        "prefill_embeds": talker["kwargs"]["inputs_embeds"][0].float().numpy(),
        "trailing_text": talker["kwargs"]["trailing_text_hidden"][0].float().numpy(),
        "tts_pad_embed": talker["kwargs"]["tts_pad_embed"].reshape(-1).float().numpy(),
        "codes": codes.numpy(),
        "c0_sequence": c0_sequence.numpy(),
        "stopped_on_eos": np.array(bool(c0_sequence[-1] == eos)),
        "talker_logits": torch.stack([l[0] for l in result.logits]).float().numpy(),
        "c0_margin": np.array([margin(s[0]) for s in result.scores], dtype=np.float32),
        "cp_logits": np.stack([torch.stack([l[0] for l in c["result"].logits]).float().numpy()
                               for c in capture.cp_calls[:CP_LOGIT_FRAMES]]).reshape(-1, 15, 2048),
        "talker_hidden": np.stack([c["inputs_embeds"][0, 0].float().numpy()
                                   for c in capture.cp_calls[:CP_LOGIT_FRAMES]]).reshape(-1, hidden),
        "cp_margin": np.array([[margin(s) for s in scores] for scores in cp_scores], dtype=np.float32).reshape(-1, 15),
    }
    if case["waveform"]:
        record["waveform"] = np.asarray(wavs[0], dtype=np.float32)
    instruct_ids = (call.get("instruct_ids") or [None])[0]
    if instruct_ids is not None:
        record["instruct_ids"] = instruct_ids[0].numpy().astype(np.int32)
    return record


def penalty_flips(record: dict, cfg) -> int:
    """Steps whose greedy codebook-0 choice differs from the argmax of the suppressed raw logits."""
    logits = record["talker_logits"].copy()
    eos = cfg.codec_eos_token_id
    allowed = np.zeros(logits.shape[1], dtype=bool)
    allowed[: cfg.vocab_size - 1024] = True
    allowed[eos] = True
    logits[:, ~allowed] = -np.inf
    logits[:2, eos] = -np.inf
    return int((logits.argmax(1) != record["c0_sequence"]).sum())


def summary(case: dict, record: dict, tts: Qwen3TTSModel) -> dict:
    out = {k: case[k] for k in ("name", "checkpoint", "entry", "text", "language", "speaker", "instruct",
                                "non_streaming_mode", "max_new_tokens", "repetition_penalty")}
    out.update(
        instruct_used="instruct_ids" in record,
        frames=int(record["codes"].shape[0]),
        stopped_on_eos=bool(record["stopped_on_eos"]),
        prefill_length=int(record["prefill_embeds"].shape[0]),
        trailing_length=int(record["trailing_text"].shape[0]),
        repetition_penalty_flips=penalty_flips(record, tts.model.config.talker_config),
        min_c0_margin=float(record["c0_margin"].min()),
        min_cp_margin=float(record["cp_margin"].min()) if record["cp_margin"].size else None,
        waveform_samples=int(record["waveform"].size) if "waveform" in record else None,
        npz=f"{case['name']}.npz",
    )
    return out


def record_decode_long(tts: Qwen3TTSModel, out: Path, seed: int) -> dict:
    gen = torch.Generator().manual_seed(seed)
    codes = torch.randint(0, 2048, (DECODE_LONG_FRAMES, 16), generator=gen)
    wavs, _ = tts.model.speech_tokenizer.decode([{"audio_codes": codes}])
    np.savez_compressed(out / "decode_long.npz", codes=codes.numpy().astype(np.int32),
                        waveform=np.asarray(wavs[0], dtype=np.float32))
    return {"frames": DECODE_LONG_FRAMES, "waveform_samples": int(wavs[0].size), "seed": seed, "npz": "decode_long.npz"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkpoints", type=Path, required=True, help="folder made by build_checkpoints.py")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--only", help="record only cases whose name contains this")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random codes in decode_long.npz")
    parser.add_argument("--cases", type=Path, help="JSON list of cases (same fields as CASES) to record instead")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(2)

    chosen = json.loads(args.cases.read_text()) if args.cases else CASES
    cases = [dict(CASE_DEFAULTS, **c) for c in chosen if not args.only or args.only in c["name"]]
    loaded, summaries, token_ids = {}, [], set()
    for case in cases:
        if case["checkpoint"] not in loaded:
            tts = Qwen3TTSModel.from_pretrained(str(args.checkpoints / case["checkpoint"]),
                                                device_map="cpu", dtype=torch.float32)
            loaded = {case["checkpoint"]: (tts, Capture(tts.model))}
        tts, capture = loaded[case["checkpoint"]]
        with torch.no_grad():
            record = run_case(tts, capture, case)
        np.savez_compressed(args.out / f"{case['name']}.npz", **record)
        summaries.append(summary(case, record, tts))
        cfg = tts.model.config
        token_ids.update(record["input_ids"].tolist(), record.get("instruct_ids", np.zeros(0, int)).tolist(),
                         [cfg.tts_bos_token_id, cfg.tts_eos_token_id, cfg.tts_pad_token_id])
        s = summaries[-1]
        print(f"{case['name']}: frames={s['frames']} eos={s['stopped_on_eos']} "
              f"penalty flips={s['repetition_penalty_flips']} "
              f"min margins c0={s['min_c0_margin']:.4f} cp={s['min_cp_margin']:.4f}")
    meta = {"reference": "qwen-tts 0.1.1, transformers 4.57.3, torch float32 CPU, greedy", "cases": summaries}
    if not args.only:
        meta["decode_long"] = record_decode_long(tts, args.out, args.seed)
        (args.out / "token_ids.json").write_text(json.dumps(sorted(token_ids)) + "\n")
    (args.out / "cases.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
