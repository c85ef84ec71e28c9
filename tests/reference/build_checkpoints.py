"""Build tiny random Qwen3-TTS checkpoints in the released layout with the reference code (qwen-tts 0.1.1).

Run in the reference (torch) environment. Every folder holds config.json, generation_config.json,
model.safetensors (bf16), the text tokenizer files and speech_tokenizer/ (fp32), like the released
repos, and loads with `qwen_tts.Qwen3TTSModel.from_pretrained`.

The init is spread (unit-scale embeddings, 1/sqrt(fan_in) projections, heads giving logits of std ~4)
so greedy choices are decided by clear margins. Values are quantized Gaussians (a few levels times a
power of two: exact in bf16) and the large tables (codec embeddings and heads) are blocks of rows drawn
from a few shared row pools, so a solid xz archive of all checkpoints stays small.
With `--pack DIR` the script also writes the committed archives (see README.md).
"""

import argparse
import json
import math
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _torchaudio_stub  # noqa: F401,E402  (must precede qwen_tts)
from tiny_configs import (  # noqa: E402
    CHECKPOINTS, GENERATION_CONFIG, SPEECH_TOKENIZER_CONFIG, TEXT_TOKENIZER_FILES, model_config)

from qwen_tts.core import Qwen3TTSTokenizerV2Config, Qwen3TTSTokenizerV2Model  # noqa: E402
from qwen_tts.core.models import Qwen3TTSConfig, Qwen3TTSForConditionalGeneration  # noqa: E402
from qwen_tts.core.models.configuration_qwen3_tts import Qwen3TTSSpeakerEncoderConfig  # noqa: E402

FIXTURE_CHECKPOINTS = Path(__file__).resolve().parents[1] / "fixtures" / "checkpoints"
PREPROCESSOR_CONFIG = {
    "chunk_length_s": None, "feature_extractor_type": "EncodecFeatureExtractor", "feature_size": 1,
    "overlap": None, "padding_side": "right", "padding_value": 0.0, "return_attention_mask": True,
    "sampling_rate": 24000,
}
POOL_ROWS = 3072
POOL_BLOCK = 8
HEAD_LOGIT_STD = 4.0
# Codec-head EOS row gain per checkpoint: >1 lets a greedy run end on EOS by itself.
EOS_GAIN = {"custom_voice-1b7": 2.0}


def pow2(x: float) -> float:
    return 2.0 ** round(math.log2(x))


class Init:
    """Deterministic quantized-Gaussian draws; one generator per tensor name so builds are reproducible."""

    def __init__(self, seed: int):
        self.seed = seed

    def gen(self, *key) -> torch.Generator:
        digest = 0
        for ch in "/".join(map(str, key)):
            digest = (digest * 131 + ord(ch)) % (2**61 - 1)
        return torch.Generator().manual_seed((self.seed * 1_000_003 + digest) % (2**63))

    def normal(self, shape, scale: float, *key, step: float = 0.25, clip: float = 3.0) -> torch.Tensor:
        """N(0,1) rounded to `step`, clipped, times `scale` (a power of two keeps values exact in bf16)."""
        z = torch.randn(shape, generator=self.gen(*key))
        return (torch.clamp(torch.round(z / step) * step, -clip, clip) * scale).float()

    def near_one(self, shape, *key) -> torch.Tensor:
        """1 + multiples of 1/32 within +-3/16: RMSNorm / LayerNorm gains."""
        return 1.0 + self.normal(shape, 1 / 16, *key, step=0.5, clip=3.0)


def pool(init: Init, width: int, role: str) -> torch.Tensor:
    """Rows shared by every table of this width and role, across checkpoints of the same seed."""
    scale = 1.0 if role == "emb" else pow2(HEAD_LOGIT_STD / math.sqrt(width))
    return init.normal((POOL_ROWS, width), scale, "pool", role, width)


def table_from_pool(init: Init, rows: torch.Tensor, n: int, *key) -> torch.Tensor:
    """n distinct pool rows, as a random selection of whole blocks, so no two rows of a head tie."""
    blocks = rows.view(-1, POOL_BLOCK, rows.shape[1])
    order = torch.randperm(blocks.shape[0], generator=init.gen("perm", *key))[: n // POOL_BLOCK]
    return blocks[order].reshape(n, rows.shape[1]).clone()


def spread_init(module: nn.Module, init: Init, prefix: str) -> None:
    """Unit-scale embeddings, 1/sqrt(fan_in) projections, norms near 1, every parameter drawn."""
    for name, sub in module.named_modules():
        key = f"{prefix}.{name}"
        cls = type(sub).__name__
        with torch.no_grad():
            if isinstance(sub, (nn.Linear, nn.Conv1d, nn.ConvTranspose1d)):
                w = sub.weight
                if isinstance(sub, nn.ConvTranspose1d):
                    fan_in = w.shape[0] * w.shape[2] / sub.stride[0]
                else:
                    fan_in = w[0].numel()
                w.copy_(init.normal(w.shape, pow2(1.0 / math.sqrt(fan_in)), key, "w"))
                if sub.bias is not None:
                    sub.bias.copy_(init.normal(sub.bias.shape, 1 / 8, key, "b"))
            elif isinstance(sub, nn.Embedding):
                sub.weight.copy_(init.normal(sub.weight.shape, 1.0, key, "w"))
            elif isinstance(sub, nn.LayerNorm):
                sub.weight.copy_(init.near_one(sub.weight.shape, key, "w"))
                sub.bias.copy_(init.normal(sub.bias.shape, 1 / 16, key, "b"))
            elif "RMSNorm" in cls:
                sub.weight.copy_(init.near_one(sub.weight.shape, key, "w"))
            elif "LayerScale" in cls:
                sub.scale.copy_(init.normal(sub.scale.shape, 1 / 8, key, "s").abs() + 0.25)
            elif cls == "SnakeBeta":
                sub.alpha.copy_(init.normal(sub.alpha.shape, 1 / 4, key, "a"))
                sub.beta.copy_(init.normal(sub.beta.shape, 1 / 4, key, "b"))
            elif "ConvNeXtBlock" in cls:
                sub.gamma.copy_(init.normal(sub.gamma.shape, 1 / 8, key, "g").abs() + 0.25)
            elif cls in ("EuclideanCodebook", "MimiEuclideanCodebook"):
                emb = sub.embedding_sum if hasattr(sub, "embedding_sum") else sub.embed_sum
                codebook_from_pool(init, emb, sub.cluster_usage, key)


def codebook_from_pool(init: Init, embedding_sum: torch.Tensor, cluster_usage: torch.Tensor, key: str) -> None:
    """Distinct pool rows (codeword times its usage count) with positive usage counts, as stored upstream."""
    dim = embedding_sum.shape[1]
    levels = torch.tensor([0.5, 0.75, 1.0, 1.5, 2.0])
    usage = levels[torch.randint(0, len(levels), (POOL_ROWS,), generator=init.gen("usage", dim))]
    rows = torch.cat([init.normal((POOL_ROWS, dim), 1.0, "codebook", dim) * usage[:, None], usage[:, None]], 1)
    table = table_from_pool(init, rows, embedding_sum.shape[0], key)
    embedding_sum.copy_(table[:, :dim])
    cluster_usage.copy_(table[:, dim])


def build_model(name: str, size: str, variant: str, init: Init, keep_text_rows) -> Qwen3TTSForConditionalGeneration:
    torch.manual_seed(init.seed)
    model = Qwen3TTSForConditionalGeneration(Qwen3TTSConfig(**model_config(size, variant))).eval()
    spread_init(model, init, name)
    talker = model.talker
    hidden = talker.config.hidden_size
    cp_hidden = talker.config.code_predictor_config.hidden_size
    emb_pool, head_pool, cp_head_pool = pool(init, hidden, "emb"), pool(init, hidden, "head"), pool(init, cp_hidden, "head")
    with torch.no_grad():
        codec_emb = talker.model.codec_embedding.weight
        codec_emb.copy_(table_from_pool(init, emb_pool, codec_emb.shape[0], name, "codec_embedding"))
        head = talker.codec_head.weight
        head.copy_(table_from_pool(init, head_pool, head.shape[0], name, "codec_head"))
        head[talker.config.codec_eos_token_id] *= EOS_GAIN.get(name, 1.0)
        cp = talker.code_predictor
        for i, emb in enumerate(cp.model.codec_embedding):
            emb.weight.copy_(table_from_pool(init, emb_pool, emb.weight.shape[0], name, "cp_embedding", i))
        for i, lm_head in enumerate(cp.lm_head):
            lm_head.weight.copy_(table_from_pool(init, cp_head_pool, lm_head.weight.shape[0], name, "cp_head", i))
        if keep_text_rows is not None:
            text = talker.model.text_embedding.weight
            keep = torch.zeros(text.shape[0], dtype=torch.bool)
            keep[torch.tensor(sorted(keep_text_rows), dtype=torch.long)] = True
            text[~keep] = 0.0
    return model


def build_speech_tokenizer(init: Init) -> Qwen3TTSTokenizerV2Model:
    torch.manual_seed(init.seed)
    codec = Qwen3TTSTokenizerV2Model(Qwen3TTSTokenizerV2Config(**SPEECH_TOKENIZER_CONFIG)).eval()
    spread_init(codec, init, "speech_tokenizer")
    decoder = codec.decoder
    # Scale the last conv (by a power of two) so the waveform sits mostly inside the +-1 clamp.
    codes = torch.randint(0, 2048, (1, 16, 40), generator=init.gen("probe"))
    with torch.no_grad():
        captured = {}
        handle = decoder.decoder[-1].register_forward_hook(lambda m, i, o: captured.update(out=o))
        decoder(codes)
        handle.remove()
        std = float(captured["out"].std())
        factor = pow2(0.3 / max(std, 1e-6))
        decoder.decoder[-1].conv.weight.mul_(factor)
        decoder.decoder[-1].conv.bias.mul_(factor)
    return codec


def write_checkpoint(out: Path, name: str, size: str, variant: str, init: Init, keep_text_rows,
                     speech_tokenizer_dir: Path, text_tokenizer_dir: Path) -> None:
    folder = out / name
    if folder.exists():
        shutil.rmtree(folder)
    model = build_model(name, size, variant, init, keep_text_rows)
    model.to(torch.bfloat16).save_pretrained(folder, safe_serialization=True)
    config_path = folder / "config.json"
    config = json.loads(config_path.read_text())
    fields = Qwen3TTSSpeakerEncoderConfig.__init__.__code__.co_varnames[1:Qwen3TTSSpeakerEncoderConfig.__init__.__code__.co_argcount]
    config["speaker_encoder_config"] = {k: v for k, v in config["speaker_encoder_config"].items() if k in fields}
    config_path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    (folder / "generation_config.json").write_text(json.dumps(GENERATION_CONFIG, indent=2) + "\n")
    for fname in TEXT_TOKENIZER_FILES:
        shutil.copy(text_tokenizer_dir / fname, folder / fname)
    shutil.copytree(speech_tokenizer_dir, folder / "speech_tokenizer")


def write_speech_tokenizer(folder: Path, init: Init) -> None:
    codec = build_speech_tokenizer(init)
    codec.save_pretrained(folder, safe_serialization=True)
    (folder / "preprocessor_config.json").write_text(json.dumps(PREPROCESSOR_CONFIG, indent=2) + "\n")


def verify(folder: Path) -> None:
    from qwen_tts import Qwen3TTSModel

    tts = Qwen3TTSModel.from_pretrained(str(folder), device_map="cpu", dtype=torch.float32)
    kwargs = dict(max_new_tokens=6, do_sample=False, subtalker_dosample=False)
    kind = tts.model.tts_model_type
    if kind == "custom_voice":
        wavs, sr = tts.generate_custom_voice("Hello there.", speaker="ryan", language="english", **kwargs)
    elif kind == "voice_design":
        wavs, sr = tts.generate_voice_design("Hello there.", instruct="A calm voice.", language="english", **kwargs)
    else:
        ids = tts._tokenize_texts([tts._build_assistant_text("Hello there.")])
        codes, _ = tts.model.generate(input_ids=ids, languages=["english"], **tts._merge_generate_kwargs(**kwargs))
        wavs, sr = tts.model.speech_tokenizer.decode([{"audio_codes": c} for c in codes])
    assert sr == 24000 and wavs[0].ndim == 1 and wavs[0].size > 0, (sr, wavs[0].shape)
    print(f"verified {folder.name}: {wavs[0].size} samples")


PACK_CHECKPOINTS = "checkpoints.tar.xz"
PACK_TOKENIZER = "text_tokenizer.tar.xz"
SHARED_TOKENIZER = Path(__file__).resolve().parents[1] / "fixtures" / "tokenizer" / "tokenizer.tar.xz"


def pack(out: Path, dest: Path, names) -> None:
    """One solid archive for all checkpoints (shared row pools compress once) plus one for the text tokenizer.

    checkpoints.tar.xz: <name>/{config.json, generation_config.json, model.safetensors} and a single
    speech_tokenizer/; text_tokenizer.tar.xz: vocab.json, merges.txt, tokenizer_config.json.
    """
    dest, out = dest.resolve(), out.resolve()
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        stage = Path(tmp)
        shutil.copytree(out / names[0] / "speech_tokenizer", stage / "speech_tokenizer")
        for name in names:
            (stage / name).mkdir()
            for fname in ("config.json", "generation_config.json", "model.safetensors"):
                shutil.copy(out / name / fname, stage / name / fname)
        members = ["speech_tokenizer", *names]
        xz = "xz --format=xz --lzma2=preset=9e,dict=256MiB --threads=1"
        subprocess.run(f"tar --sort=name --owner=0 --group=0 --mtime=@0 -cf - {' '.join(members)} | {xz} > "
                       f"{dest / PACK_CHECKPOINTS}", shell=True, check=True, cwd=stage)
    packed = [PACK_CHECKPOINTS]
    if dest != FIXTURE_CHECKPOINTS.resolve():  # the committed fixtures share tests/fixtures/tokenizer/
        files = " ".join(TEXT_TOKENIZER_FILES)
        subprocess.run(f"tar --sort=name --owner=0 --group=0 --mtime=@0 -cf - {files} | xz -9e --threads=1 > "
                       f"{dest / PACK_TOKENIZER}", shell=True, check=True, cwd=out / names[0])
        packed.append(PACK_TOKENIZER)
    for f in packed:
        print(f"{dest / f}: {(dest / f).stat().st_size / 1e6:.2f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder that receives one sub-folder per checkpoint")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="build only this checkpoint name")
    parser.add_argument("--sparse-text-rows", type=Path,
                        help="JSON list of text token ids to keep; every other text_embedding row is zeroed")
    parser.add_argument("--text-tokenizer", type=Path,
                        help="folder with vocab.json, merges.txt, tokenizer_config.json "
                             f"(default: unpack tests/fixtures/tokenizer/tokenizer.tar.xz)")
    parser.add_argument("--no-verify", action="store_true", help="skip loading each folder with qwen_tts")
    parser.add_argument("--pack", type=Path, help="also write the committed .tar.xz archives into this folder")
    args = parser.parse_args()

    keep = set(json.loads(args.sparse_text_rows.read_text())) if args.sparse_text_rows else None
    init = Init(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    speech_dir = args.out / "_speech_tokenizer"
    if speech_dir.exists():
        shutil.rmtree(speech_dir)
    write_speech_tokenizer(speech_dir, init)
    text_tokenizer = args.text_tokenizer
    if text_tokenizer is None:
        text_tokenizer = args.out / "_text_tokenizer"
        with tarfile.open(SHARED_TOKENIZER, "r:xz") as tar:
            tar.extractall(text_tokenizer, filter="data")
    names = []
    for name, size, variant in CHECKPOINTS:
        if args.only and name != args.only:
            continue
        write_checkpoint(args.out, name, size, variant, init, keep, speech_dir, text_tokenizer)
        names.append(name)
        if not args.no_verify:
            verify(args.out / name)
    shutil.rmtree(speech_dir)
    if args.text_tokenizer is None:
        shutil.rmtree(text_tokenizer)
    if args.pack:
        pack(args.out, args.pack, names)


if __name__ == "__main__":
    main()
