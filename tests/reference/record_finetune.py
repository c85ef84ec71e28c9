"""Record the fine-tuning reference: one batch collated by the official script's `TTSDataset`, its loss computed
with qwen-tts 0.1.1's own modules under the corrected alignment, the gradients, and one torch AdamW step.

The official collate lives in the Qwen3-TTS repository (finetuning/dataset.py), not in the PyPI package: give the
folder holding it (a checkout of github.com/QwenLM/Qwen3-TTS, finetuning/) as --official; it is imported as is.
Run in the torch environment from the repository root:
    /work/venvs/ref/bin/python tests/reference/record_finetune.py --official QWEN3_TTS/finetuning
Writes tests/fixtures/finetune/<checkpoint>.npz for base-0b6 and base-1b7 (whose code predictor reads the talker
hidden through `small_to_mtp_projection`), and cases.json.

Corrected alignment (issue 64; QwenLM/Qwen3-TTS #179, #371, PR #278): the talker loss is the official
`talker(..., labels=codec_0_labels).loss` (HF's causal loss: logits at a position scored on the next label, once);
the code predictor reads the hidden of the position before each frame's input (`hidden[:, :-1][codec_mask[:, 1:]]`,
where the official script takes the frame's own) and its logits `code_predictor.forward_finetune(...).logits`,
head i, are scored on codebook i + 1 (the official loss shifts them once more). loss = talker + 0.3 x predictor.
The AdamW step: torch.optim.AdamW(lr 1e-3, weight_decay 0.01) over the talker's parameters but its text
embedding (which we keep frozen), no clipping; a few parameters' gradients and updated values are recorded (of
the large tables, some rows: `recorded_rows`).
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

import _torchaudio_stub  # noqa: F401  (before qwen_tts)
import numpy as np
import soundfile as sf
import torch
from transformers import AutoConfig

from qwen_tts.inference.qwen3_tts_model import Qwen3TTSModel

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from fixture_checkpoints import checkpoint_dir  # noqa: E402

OUT = HERE.parent / "fixtures" / "finetune"
CHECKPOINTS = ("base-0b6", "base-1b7")
CLIPS = [{"text": "Hello there, world.", "frames": 7, "f0": 140.0},
         {"text": "Fine-tuning, a second clip.", "frames": 11, "f0": 210.0}]
PREDICTOR_WEIGHT = 0.3
LR, WEIGHT_DECAY = 1e-3, 0.01
# The parameters whose gradient and updated value are recorded (names as in model.safetensors).
RECORDED = ("talker.model.layers.0.self_attn.q_proj.weight", "talker.model.layers.1.mlp.down_proj.weight",
            "talker.codec_head.weight", "talker.model.codec_embedding.weight",
            "talker.text_projection.linear_fc2.bias", "talker.code_predictor.lm_head.3.weight",
            "talker.code_predictor.model.layers.0.self_attn.k_norm.weight")
# the 1.7B's code predictor is narrower than its talker: the projection between them is recorded too
PROJECTION = ("talker.code_predictor.small_to_mtp_projection.weight",
              "talker.code_predictor.small_to_mtp_projection.bias")


def reference_audio(path: Path, f0: float, seconds: float = 1.0, rate: int = 24000):
    t = np.arange(int(rate * seconds)) / rate
    y = sum(np.sin(2 * np.pi * k * f0 * t) / k for k in range(1, 8)) * (0.5 + 0.5 * np.sin(np.pi * t / seconds))
    sf.write(str(path), (0.3 * y / np.abs(y).max()).astype(np.float32), rate)


def recorded_rows(grad, most: int = 32):
    """The rows of a parameter that are recorded: all of a small one; of a large table, up to 24 rows with a
    gradient and 8 without (only weight decay moves those)."""
    if grad.ndim < 2 or grad.shape[0] <= most:
        return np.arange(grad.shape[0])
    touched = grad.abs().sum(dim=tuple(range(1, grad.ndim))).numpy() > 0
    return np.concatenate([np.nonzero(touched)[0][:24], np.nonzero(~touched)[0][:8]])


def losses(model, batch):
    """(loss, talker CE, predictor CE, speaker vectors) of the collated batch, official modules, corrected."""
    talker = model.talker
    speaker = model.speaker_encoder(batch["ref_mels"].to(torch.float32)).detach()
    text = batch["input_ids"][:, :, 0]
    codec = batch["input_ids"][:, :, 1]
    embeds = talker.text_projection(talker.model.text_embedding(text)) * batch["text_embedding_mask"]
    codec_embeds = talker.model.codec_embedding(codec) * batch["codec_embedding_mask"]
    codec_embeds[:, 6, :] = speaker
    embeds = embeds + codec_embeds
    for i in range(1, 16):
        sub = talker.code_predictor.get_input_embeddings()[i - 1](batch["codec_ids"][:, :, i])
        embeds = embeds + sub * batch["codec_mask"].unsqueeze(-1)
    out = talker(inputs_embeds=embeds, attention_mask=batch["attention_mask"], labels=batch["codec_0_labels"],
                 output_hidden_states=True)
    hidden = out.hidden_states[0][-1]
    previous = hidden[:, :-1][batch["codec_mask"][:, 1:]]  # the position before each frame's input
    codes = batch["codec_ids"][batch["codec_mask"]]  # (N, 16)
    sub_inputs = [previous.unsqueeze(1), talker.get_input_embeddings()(codes[:, :1])]
    sub_inputs += [talker.code_predictor.get_input_embeddings()[i - 1](codes[:, i:i + 1]) for i in range(1, 15)]
    logits = talker.code_predictor.forward_finetune(inputs_embeds=torch.cat(sub_inputs, dim=1)).logits  # (N, 15, V)
    predictor = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), codes[:, 1:].reshape(-1))
    return out.loss + PREDICTOR_WEIGHT * predictor, out.loss, predictor, speaker


def record(name: str, TTSDataset, tmp: Path, out: Path) -> list:
    """Record `name`'s batch, losses, gradients and AdamW step as out/<name>.npz; the recorded parameter names."""
    folder = checkpoint_dir(name, tmp)
    tts = Qwen3TTSModel.from_pretrained(str(folder), device_map="cpu", dtype=torch.float32)
    config = AutoConfig.from_pretrained(str(folder))
    rng = np.random.default_rng(0)
    items = []
    for i, clip in enumerate(CLIPS):
        reference_audio(tmp / f"ref{i}.wav", clip["f0"])
        codes = rng.integers(0, 2048, (clip["frames"], 16))
        items.append({"audio": "", "text": clip["text"], "audio_codes": codes.tolist(), "ref_audio": str(tmp / f"ref{i}.wav")})
    data = TTSDataset(items, tts.processor, config)
    batch = data.collate_fn([data[i] for i in range(len(items))])
    model = tts.model
    model.train()
    loss, talker_ce, predictor_ce, speaker = losses(model, batch)
    params = {f"talker.{k}": p for k, p in model.talker.named_parameters() if not k.startswith("model.text_embedding")}
    recorded = RECORDED + tuple(k for k in PROJECTION if k in params)
    optimizer = torch.optim.AdamW(list(params.values()), lr=LR, weight_decay=WEIGHT_DECAY)
    optimizer.zero_grad()
    loss.backward()
    grads = {k: params[k].grad.detach().clone() for k in recorded}
    before = {k: params[k].detach().clone() for k in recorded}
    optimizer.step()
    rows = {k: recorded_rows(grads[k]) for k in recorded}
    arrays = {f"batch/{k}": v.numpy() for k, v in batch.items() if k != "ref_mels"}
    arrays.update({f"rows/{k}": v for k, v in rows.items()})
    arrays.update({f"codes/{i}": np.array(item["audio_codes"], np.int32) for i, item in enumerate(items)})
    arrays["speakers"] = speaker.numpy().astype(np.float32)
    arrays.update({f"grad/{k}": v.numpy()[rows[k]] for k, v in grads.items()})
    arrays.update({f"before/{k}": v.numpy()[rows[k]] for k, v in before.items()})
    arrays.update({f"after/{k}": params[k].detach().numpy()[rows[k]] for k in recorded})
    arrays["losses"] = np.array([loss.item(), talker_ce.item(), predictor_ce.item()], np.float64)
    np.savez_compressed(out / f"{name}.npz", **arrays)
    print(name, "losses", arrays["losses"])
    return list(recorded)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--official", type=Path, required=True, help="the folder of the official finetuning/dataset.py")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    sys.path.insert(0, str(args.official))
    from dataset import TTSDataset  # the official collate

    torch.manual_seed(0)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        recorded = {name: record(name, TTSDataset, Path(tmp), args.out) for name in CHECKPOINTS}
    cases = {"checkpoints": list(CHECKPOINTS), "texts": [c["text"] for c in CLIPS], "language": "auto",
             "predictor_weight": PREDICTOR_WEIGHT,
             "adamw": {"lr": LR, "weight_decay": WEIGHT_DECAY, "betas": [0.9, 0.999], "eps": 1e-8},
             "recorded": recorded, "qwen_tts": "0.1.1", "torch": torch.__version__}
    (args.out / "cases.json").write_text(json.dumps(cases, indent=1))


if __name__ == "__main__":
    main()
