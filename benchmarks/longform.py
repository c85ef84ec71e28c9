"""Long-form throughput: a text of N sentences narrated through `mlx_qwen3tts.longform` in batches
of segments and one segment at a time; prints chars/s, real-time factor and the batched/sequential
ratio (greedy, so both produce the same audio).

    python -m benchmarks.longform                      # the tiny test checkpoint (CustomVoice 0.6B)
    python -m benchmarks.longform --model Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice --sentences 48
"""

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import mlx_qwen3tts  # noqa: E402  (before mlx: it loads OpenBLAS ahead of MLX's reference BLAS)
import mlx.core as mx  # noqa: E402
import numpy as np  # noqa: E402

WORDS = ("the morning light fell across the quiet harbour while boats rocked gently and gulls called over "
         "water that shone like glass under a pale sky").split()


def text_of(sentences: int) -> str:
    rng = np.random.default_rng(0)
    said = [" ".join(rng.choice(WORDS, 7)).capitalize() + "." for _ in range(sentences)]
    return "\n\n".join(" ".join(said[i:i + 4]) for i in range(0, sentences, 4))


def measure(tts, document, batch_size: int, max_tokens) -> dict:
    from mlx_qwen3tts import longform

    start, samples, audio = time.perf_counter(), 0, []
    for spoken in longform.narrate(tts, document, batch_size=batch_size, temperature=0, max_tokens=max_tokens):
        samples += spoken.audio.shape[0]
        audio.append(spoken.audio)
    seconds = time.perf_counter() - start
    return {"batch_size": batch_size, "seconds": seconds, "audio_s": samples / tts.sample_rate,
            "chars_per_s": document.chars / seconds, "rtf": seconds / (samples / tts.sample_rate),
            "audio": audio}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="checkpoint folder or hub id (default: the tiny test checkpoint)")
    parser.add_argument("--sentences", type=int, default=24)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, help="frames per segment at most (default: its budget)")
    args = parser.parse_args()
    from mlx_qwen3tts import longform

    model = args.model
    if model is None:
        from fixture_checkpoints import checkpoint_dir

        model = str(checkpoint_dir("custom_voice-0b6", Path(tempfile.gettempdir()) / "mlx_qwen3tts_bench"))
    tts = mlx_qwen3tts.load(model)
    document = longform.document(text_of(args.sentences))
    measure(tts, longform.document("Warm up the compiled graphs."), args.batch_size, 4)
    batched = measure(tts, document, args.batch_size, args.max_tokens)
    sequential = measure(tts, document, 1, args.max_tokens)
    same = all(np.array_equal(a, b) for a, b in zip(batched.pop("audio"), sequential.pop("audio")))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    report = {"model": model, "segments": len(document.segments), "chars": document.chars,
              "machine": f"{platform.machine()} {platform.system()}, {mx.default_device()}", "commit": commit,
              "batched": batched, "sequential": sequential, "same_audio": same,
              "batched_vs_sequential": sequential["seconds"] / batched["seconds"]}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
