"""Speak an LLM's answer while it is being written: mlx-lm's stream_generate -> TTS.stream_text.

    python examples/llm_to_speech.py --llm mlx-community/Qwen3-0.6B-4bit \
        --tts Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice --prompt "Tell me about the sea." --play

Speech starts after the LLM's first words: the streaming text layout consumes one text token per
audio frame, so nothing waits for a sentence to end.
"""

import argparse
import time

import numpy as np
import soundfile as sf
from mlx_lm import load as load_llm
from mlx_lm import stream_generate

import mlx_qwen3tts


def llm_deltas(model, tokenizer, prompt, max_tokens, marks):
    messages = [{"role": "user", "content": prompt}]
    # Thinking models (Qwen3) would otherwise speak their reasoning first.
    text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False, enable_thinking=False)
    for response in stream_generate(model, tokenizer, text, max_tokens=max_tokens):
        if response.text:
            marks.setdefault("first_delta", time.perf_counter())
            yield response.text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llm", default="mlx-community/Qwen3-0.6B-4bit")
    parser.add_argument("--tts", default="Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice")
    parser.add_argument("--speaker", default=None)
    parser.add_argument("--prompt", default="Describe a quiet morning by the sea in three sentences.")
    parser.add_argument("--max-tokens", type=int, default=200)
    parser.add_argument("--output", default="llm_speech.wav")
    parser.add_argument("--play", action="store_true")
    args = parser.parse_args()

    model, tokenizer = load_llm(args.llm)
    tts = mlx_qwen3tts.load(args.tts)
    marks, pieces, player = {}, [], None
    if args.play:
        from mlx_qwen3tts.audio.playback import Player

        player = Player(tts.sample_rate)
    deltas = llm_deltas(model, tokenizer, args.prompt, args.max_tokens, marks)
    for chunk in tts.stream_text(deltas, speaker=args.speaker):
        if chunk.index == 0:
            print(f"first audio {1000 * (time.perf_counter() - marks['first_delta']):.0f} ms after the first text delta")
        pieces.append(chunk.samples)
        if player is not None:
            player.add(chunk.samples)
    if player is not None:
        player.close()
    if pieces:
        sf.write(args.output, np.concatenate(pieces), tts.sample_rate)
        print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
