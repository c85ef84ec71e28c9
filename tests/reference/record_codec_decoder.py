"""Record reference audio of the codec decoder (16 codebooks at 12.5 Hz -> 24 kHz).

Run in the torch environment from the repository root:
    /work/venvs/ref/bin/python tests/reference/record_codec_decoder.py
writes tests/fixtures/codec_decoder/{config.json, model.safetensors, reference.npz}.

The model is the tiny speech tokenizer of `build_checkpoints.build_speech_tokenizer` (spread init,
`SPEECH_TOKENIZER_CONFIG`), with a few codewords per codebook given a cluster usage below the 1e-5
clamp so the clamp in `embedding_sum / clamp(cluster_usage)` matters, and with the upsampling
blocks rescaled (`calibrate`) so that float32 rounding is not amplified into the audio. model.safetensors holds only
the `decoder.*` tensors, in the released torch layout (the encoder's codebooks alone would exceed
the fixture budget); config.json is the full speech tokenizer config.

Reference paths (qwen_tts 0.1.1): `Qwen3TTSTokenizerV2Model.decode` for codes of 5, 40 and 100
frames (100 > the 72-frame attention window) and for a batch of two with -1 padding at the end of
the shorter one; `Qwen3TTSTokenizerV2Decoder.chunked_decode` with 40-frame chunks and 25 frames of
left context on the 100-frame codes (upstream's long-input behaviour, with its 300-frame chunks
scaled down). To stay within budget the audio is stored at every STRIDE-th sample; STRIDE is prime
to the 1920 samples of a frame, so every sample phase of a frame is checked.
"""

import sys
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import save_file

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _torchaudio_stub  # noqa: F401,E402  (must precede qwen_tts)
from build_checkpoints import Init, build_speech_tokenizer, pow2  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "codec_decoder"
SEED = 0
STRIDE = 7
TINY_USAGE_CODES = (7, 1000, 2047)
LENGTHS = (5, 40, 100)
PAD_BATCH = (27, 36)  # valid frames of each item; the first is padded with -1 to the second's length
CHUNKED = (40, 25)  # chunk size, left context


def clamp_matters(codec) -> None:
    """Usage 1e-7 (< the 1e-5 clamp) on a few codewords; their clamped codeword keeps unit scale."""
    with torch.no_grad():
        for name, p in codec.decoder.quantizer.named_parameters():
            if name.endswith("cluster_usage"):
                p[list(TINY_USAGE_CODES)] = 1e-7
            elif name.endswith("embedding_sum"):
                rows = p[list(TINY_USAGE_CODES)]
                p[list(TINY_USAGE_CODES)] = rows / rows.norm(dim=1, keepdim=True) * 1e-5 * rows.shape[1] ** 0.5


def calibrate(decoder) -> None:
    """Power-of-two rescaling that keeps the upsampling blocks' activations of order 1.

    With the plain spread init they grow to ~1e3, where sin(x * alpha) in SnakeBeta turns float32
    rounding (1e-7 relative) into 1e-4 differences in the audio between two correct implementations.
    Each block's transposed conv is scaled to unit output std, each residual branch to half its
    input's std, and the last conv to an output std of 0.3 (mostly inside the +-1 clamp).
    """
    codes = torch.randint(0, 2048, (1, 16, 40), generator=torch.Generator().manual_seed(SEED + 2))

    def std_of(module, target):
        captured = {}
        handles = [m.register_forward_hook(lambda m, i, o, key=key: captured.update({key: (i[0], o)}))
                   for key, m in (("module", module), ("target", target))]
        decoder(codes)
        for h in handles:
            h.remove()
        return float(captured["module"][0].std()), float(captured["target"][1].std())

    def scale(conv, factor):
        conv.weight.mul_(factor)
        conv.bias.mul_(factor)

    with torch.no_grad():
        for block in decoder.decoder[1:-2]:
            upsample, *units = block.block[1:]
            scale(upsample.conv, pow2(1.0 / std_of(upsample, upsample)[1]))
            for unit in units:
                in_std, out_std = std_of(unit, unit.conv2)
                scale(unit.conv2.conv, pow2(0.5 * in_std / out_std))
        last = decoder.decoder[-1]
        scale(last.conv, pow2(0.3 / std_of(last, last)[1]))


def random_codes(frames: int, gen: torch.Generator) -> torch.Tensor:
    codes = torch.randint(0, 2048, (frames, 16), generator=gen)
    hits = torch.randint(0, frames, (max(1, frames // 10),), generator=gen)
    codes[hits] = torch.tensor(TINY_USAGE_CODES)[torch.randint(0, 3, (len(hits), 16), generator=gen)]
    return codes


def main() -> None:
    codec = build_speech_tokenizer(Init(SEED)).float().eval()
    clamp_matters(codec)
    calibrate(codec.decoder)
    OUT.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.contiguous() for k, v in codec.state_dict().items() if k.startswith("decoder.")}
    save_file(tensors, str(OUT / "model.safetensors"), metadata={"format": "pt"})
    codec.config.to_json_file(OUT / "config.json")

    gen = torch.Generator().manual_seed(SEED + 1)
    arrays = {"stride": np.array(STRIDE)}
    with torch.no_grad():
        for frames in LENGTHS:
            codes = random_codes(frames, gen)
            (audio,) = codec.decode(codes[None], return_dict=False)
            assert audio[0].shape == (frames * 1920,)
            arrays[f"codes_{frames}"] = codes.numpy().astype(np.int32)
            arrays[f"audio_{frames}"] = audio[0].numpy()[::STRIDE]

        short, long = PAD_BATCH
        batch = torch.stack([random_codes(long, gen), random_codes(long, gen)])
        batch[0, short:] = -1
        audio = codec.decode(batch, return_dict=False)[0]
        assert [a.shape[0] for a in audio] == [short * 1920, long * 1920]
        arrays["codes_pad"] = batch.numpy().astype(np.int32)
        arrays["audio_pad_0"] = audio[0].numpy()[::STRIDE]
        arrays["audio_pad_1"] = audio[1].numpy()[::STRIDE]

        chunk, context = CHUNKED
        codes = torch.from_numpy(arrays["codes_100"]).long()
        audio = codec.decoder.chunked_decode(codes.T[None], chunk_size=chunk, left_context_size=context)[0, 0]
        one_shot = codec.decoder(codes.T[None])[0, 0]
        assert not torch.allclose(audio, one_shot, atol=1e-3), "chunking should change the output"
        arrays["chunked_size"] = np.array(chunk)
        arrays["chunked_context"] = np.array(context)
        arrays["audio_100_chunked"] = audio.numpy()[::STRIDE]

    np.savez(OUT / "reference.npz", **arrays)
    for f in sorted(OUT.iterdir()):
        print(f"{f}: {f.stat().st_size / 1e6:.3f} MB")


if __name__ == "__main__":
    main()
