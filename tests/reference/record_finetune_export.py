"""Record what qwen-tts 0.1.1 speaks with a checkpoint our fine-tuning exported (issue 64, "It learns").

The checkpoints are tests/finetuned.py's (the base-0b6 fixture trained on one utterance and exported as speaker
"alice", merged). qwen-tts loads each as a CustomVoice model with `Qwen3TTSModel.from_pretrained` and generates
the utterance greedily (do_sample=False, subtalker_dosample=False) with the new speaker; the codes it gives, the
utterance's own codes, the speaker vector qwen-tts reads for "alice", and the sha256 of the export's config.json and model.safetensors go to
tests/fixtures/finetune/export.json.
From the repository root:
    PYTHONPATH=. .venv/bin/python tests/finetuned.py /tmp/finetuned       # our package builds the exports
    /work/oracle-venv/bin/python tests/reference/record_finetune_export.py /tmp/finetuned
"""

import argparse
import hashlib
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _torchaudio_stub  # noqa: F401,E402  (must precede qwen_tts)

from qwen_tts import Qwen3TTSModel  # noqa: E402
from safetensors.numpy import load_file  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "finetune" / "export.json"
RECIPES = ("full", "lora-merged")
MAX_NEW_TOKENS = 30


def spoken(ckpt: Path, speaker: str, text: str, language: str) -> tuple:
    """(the codes qwen-tts generates greedily with `speaker`, captured from the model's generate; the speaker
    vector it reads for that name: its `spk_id` row of the talker's codec embedding)."""
    tts = Qwen3TTSModel.from_pretrained(str(ckpt), device_map="cpu", dtype=torch.float32)
    assert tts.model.tts_model_type == "custom_voice" and speaker in tts.get_supported_speakers()
    row = tts.model.config.talker_config.spk_id[speaker]
    vector = tts.model.talker.get_input_embeddings().weight[row].detach().tolist()
    generate, captured = tts.model.generate, []

    def wrapped(**kwargs):
        codes, hidden = generate(**kwargs)
        captured.extend(codes)
        return codes, hidden

    tts.model.generate = wrapped
    tts.generate_custom_voice(text, speaker=speaker, language=language, do_sample=False,
                              subtalker_dosample=False, max_new_tokens=MAX_NEW_TOKENS)
    return captured[0].to(torch.int32).tolist(), vector


def record(folder: Path) -> dict:
    """One exported checkpoint: its sha256, the trained utterance, and what qwen-tts speaks with it."""
    ckpt, data = folder / "ckpt", folder / "one"
    speaker = next(iter(json.loads((ckpt / "config.json").read_text())["talker_config"]["spk_id"]))
    item = json.loads((data / "items.jsonl").read_text().splitlines()[0])
    trained = load_file(str(data / "codes.safetensors"))[item["id"]]
    codes, vector = spoken(ckpt, speaker, item["text"], item["language"])
    digest = hashlib.sha256()
    for name in ("config.json", "model.safetensors"):  # as tests/finetuned.py's weights_sha256
        digest.update((ckpt / name).read_bytes())
    return {"sha256": digest.hexdigest(), "speaker": speaker,
            "text": item["text"], "language": item["language"], "trained_codes": trained.tolist(),
            "codes": codes, "speaker_vector": vector}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("built", type=Path, help="the folder tests/finetuned.py wrote")
    args = parser.parse_args()
    torch.manual_seed(0)
    out = {"reference": "qwen-tts 0.1.1, transformers 4.57.3, torch float32 CPU, greedy", "cases": {}}
    for name in RECIPES:
        case = record(args.built / name)
        out["cases"][name] = case
    OUT.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
