"""Record reference outputs of the speaker-encoder path (x-vectors for voice cloning).

Run in the torch environment from the repository root:
    /work/venvs/ref/bin/python tests/reference/record_speaker.py
Writes tests/fixtures/speaker/:
  speaker_encoder-{0b6,1b7}.safetensors  random tiny `Qwen3TTSSpeakerEncoder` weights, torch layout,
                                         keys prefixed `speaker_encoder.`, bf16 as released
  mel_filterbank.npz                     librosa.filters.mel(sr=24000, n_fft=1024, n_mels=128, fmax=12000)
  vowel_44k_stereo.flac                  input read through the wrapper's file path (librosa.load)
  signals.npz                            per signal: array inputs, the 24 kHz audio the wrapper feeds
                                         the encoder, its log-mel, and the x-vector of each model

Every reference value comes from qwen_tts 0.1.1 code: `Qwen3TTSModel._normalize_audio_inputs`, the
`librosa.resample` call of `create_voice_clone_prompt`, and
`Qwen3TTSForConditionalGeneration.extract_speaker_embedding` (whose `mel_spectrogram` it records too).
"""

import sys
from pathlib import Path
from types import SimpleNamespace

import _torchaudio_stub  # noqa: F401  (before qwen_tts)
import librosa
import numpy as np
import soundfile as sf
import torch
from safetensors.torch import save_file

from qwen_tts.core.models.configuration_qwen3_tts import Qwen3TTSSpeakerEncoderConfig
from qwen_tts.core.models.modeling_qwen3_tts import (
    Qwen3TTSForConditionalGeneration, Qwen3TTSSpeakerEncoder, mel_spectrogram,
)
from qwen_tts.inference.qwen3_tts_model import Qwen3TTSModel

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tiny_configs import speaker_encoder_config  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "speaker"
SIZES = ("0b6", "1b7")


def chirp_with_noise(rng, rate=16000, seconds=1.3):
    t = np.arange(int(rate * seconds)) / rate
    f0, f1 = 120.0, 6500.0
    phase = 2 * np.pi * (f0 * t + (f1 - f0) * t**2 / (2 * seconds))
    envelope = 0.2 + 0.6 * np.abs(np.sin(2 * np.pi * 2.5 * t))
    return (0.45 * envelope * np.sin(phase) + 0.04 * rng.standard_normal(t.size)).astype(np.float32)


def vowel(rate, seconds, f0, formants, rng):
    """Glottal-like harmonic series with vibrato, shaped by formant resonances."""
    t = np.arange(int(rate * seconds)) / rate
    pitch = f0 * (1 + 0.03 * np.sin(2 * np.pi * 5.0 * t))
    phase = 2 * np.pi * np.cumsum(pitch) / rate
    y = np.zeros_like(t)
    for k in range(1, int(0.45 * rate / f0)):
        gain = sum(np.exp(-((k * f0 - f) / bw) ** 2) for f, bw in formants) + 0.02
        y += gain / k**0.5 * np.sin(k * phase + rng.uniform(0, 2 * np.pi))
    y *= 0.5 + 0.5 * np.sin(np.pi * t / seconds) ** 0.5
    return 0.6 * y / np.max(np.abs(y))


def spread_init(model, seed):
    """Wide random weights so every layer's activations stay O(1) and inputs are told apart."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("weight"):
                fan_in = p.shape[1] * p.shape[2]
                p.copy_(torch.randn(p.shape, generator=gen) * (1.6 / fan_in**0.5))
            else:
                p.copy_(torch.randn(p.shape, generator=gen) * 0.2)
            # Released checkpoints are bf16: keep the values exactly representable.
            p.copy_(p.to(torch.bfloat16).to(torch.float32))
    assert not list(model.buffers()), "the speaker encoder has buffers (BatchNorm?) to record"


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20260301)

    filterbank = librosa.filters.mel(sr=24000, n_fft=1024, n_mels=128, fmin=0, fmax=12000)
    np.savez_compressed(OUT / "mel_filterbank.npz", mel=filterbank.astype(np.float32))

    encoders = {}
    for i, size in enumerate(SIZES):
        model = Qwen3TTSSpeakerEncoder(Qwen3TTSSpeakerEncoderConfig(**speaker_encoder_config(size))).eval()
        spread_init(model, seed=100 + i)
        weights = {f"speaker_encoder.{k}": v.to(torch.bfloat16).contiguous() for k, v in model.state_dict().items()}
        save_file(weights, str(OUT / f"speaker_encoder-{size}.safetensors"))
        encoders[size] = SimpleNamespace(speaker_encoder=model, device=torch.device("cpu"), dtype=torch.float32)

    # Stereo 44.1 kHz goes through a file: the wrapper's (array, sr) path cannot take stereo
    # (it assigns into a tuple), while its file path reads with librosa.load(mono=True).
    left = vowel(44100, 1.2, 135.0, [(700, 130), (1220, 150), (2600, 250)], rng)
    right = 0.8 * np.roll(left, 7) + 0.02 * rng.standard_normal(left.size)
    flac = OUT / "vowel_44k_stereo.flac"
    sf.write(flac, np.stack([left, right], axis=1), 44100, subtype="PCM_16")

    speechlike = vowel(24000, 1.0, 210.0, [(400, 100), (2300, 200), (3000, 300)], rng)
    bursts = (np.sin(2 * np.pi * 3.0 * np.arange(speechlike.size) / 24000) > 0.3)
    speechlike = (speechlike + 0.08 * bursts * rng.standard_normal(speechlike.size)).astype(np.float32)

    inputs = {
        "chirp_16k": (chirp_with_noise(rng), 16000),
        "vowel_44k_stereo": str(flac),
        "speech_24k": (speechlike, 24000),
    }
    wrapper = object.__new__(Qwen3TTSModel)
    record = {}
    for name, audio in inputs.items():
        [(wav, sr)] = wrapper._normalize_audio_inputs([audio])
        if isinstance(audio, tuple):
            record[f"{name}/input"] = audio[0]
            record[f"{name}/input_rate"] = np.array(audio[1])
        # As create_voice_clone_prompt resamples for the speaker encoder.
        wav_resample = wav
        if sr != 24000:
            wav_resample = librosa.resample(y=wav_resample.astype(np.float32), orig_sr=int(sr), target_sr=24000)
        record[f"{name}/audio_24k"] = wav_resample
        mel = mel_spectrogram(torch.from_numpy(wav_resample).unsqueeze(0), n_fft=1024, num_mels=128,
                              sampling_rate=24000, hop_size=256, win_size=1024, fmin=0, fmax=12000)
        record[f"{name}/mel"] = mel[0].T.numpy()  # (frames, 128)
        for size, shim in encoders.items():
            xvec = Qwen3TTSForConditionalGeneration.extract_speaker_embedding(shim, audio=wav_resample, sr=24000)
            record[f"{name}/xvector_{size}"] = xvec.float().numpy()
        print(name, sr, wav.shape, "->", wav_resample.shape, "mel", tuple(record[f"{name}/mel"].shape),
              "x-vector 0b6 [:4]", record[f"{name}/xvector_0b6"][:4])

    np.savez_compressed(OUT / "signals.npz", **record)
    xs = {n: record[f"{n}/xvector_0b6"] for n in inputs}
    names = list(xs)
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            u, v = xs[names[a]], xs[names[b]]
            print(f"cosine {names[a]} vs {names[b]}: {u @ v / np.linalg.norm(u) / np.linalg.norm(v):.4f}")
    for f in sorted(OUT.iterdir()):
        print(f"{f.name}: {f.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
