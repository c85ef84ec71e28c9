"""Speech quality by round trip, as the peers publish it: each model (or recipe: bf16, 8-, 6-, 4-bit, mixed) speaks
a fixed list of sentences (benchmarks/data/quality_sentences.json: 30 a language, in every language it speaks), a
speech recognizer hears them back, and the table gives, per model:

- wer: the word error rate of what was heard against the text (edits over the text's words, all sentences of the
  languages written with spaces together), cer: the character error rate of Chinese, Japanese and Korean (words
  are not spaced there), both compared as `mlx_qwen3tts.hearing.comparable` compares (case, punctuation and
  spacing aside);
- similarity: the cosine of the speaker encoder's x-vectors between the reference voice and each output, averaged
  (a Base model cloning `--ref-audio`), and `similarity_between_outputs`: between consecutive outputs of the same
  voice (every model); `similarity` is the first where there is a reference, else the second;
- runaways: the outputs the runaway guard ended (loop/runaway.py).

    python -m benchmarks.quality --model Qwen/Qwen3-TTS-12Hz-0.6B-Base --model ./base-4bit \\
        --asr Qwen/Qwen3-ASR-0.6B --ref-audio me.wav --ref-text "What I say in me.wav." --out results/quality

writes DIR/quality.json and DIR/quality.md. On random weights (the tests' tiny checkpoints) the numbers mean
nothing; the harness is what runs on the released weights. A model without a speaker encoder (CustomVoice,
VoiceDesign) is measured with the first Base model's among `--model` (or `--speaker-encoder`).
"""

import argparse
import json
import unicodedata
from pathlib import Path
from typing import Optional

import numpy as np

import mlx_qwen3tts  # noqa: F401  (before mlx.core: the package sets up its BLAS first)

SENTENCES = Path(__file__).resolve().parent / "data" / "quality_sentences.json"
CHARACTER_LANGUAGES = ("chinese", "japanese", "korean")  # scored by characters (CER)
DESIGNED = "A clear, calm adult voice speaking at an even pace"  # a VoiceDesign model's voice


def sentences() -> dict:
    return json.loads(SENTENCES.read_text(encoding="utf-8"))["sentences"]


def words(text: str) -> list:
    """The words of `text` as they are compared: NFC, casefolded, punctuation removed, split at spaces."""
    text = unicodedata.normalize("NFC", text).casefold()
    return "".join(" " if unicodedata.category(c)[0] in "PZ" else c for c in text).split()


def edits(text: str, heard: str, language: str) -> tuple:
    """(edits, length of the text) in characters for the CER languages, in words for the others."""
    from mlx_qwen3tts.hearing import comparable, levenshtein

    if language in CHARACTER_LANGUAGES:
        want = comparable(text)
        return levenshtein(want, comparable(heard)), len(want)
    want = words(text)
    return levenshtein(want, words(heard)), len(want)


def cosine(a, b) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-12))


def voice_of(tts, ref_audio: Optional[str], ref_text: Optional[str], speaker: Optional[str]) -> dict:
    """The keywords of the voice a model speaks in: a clone of --ref-audio (Base), a preset (CustomVoice), a
    described voice (VoiceDesign), else the model's default."""
    if tts.variant == "base" and ref_audio is not None:
        return {"voice": tts.clone(ref_audio, ref_text, x_vector_only=ref_text is None)}
    if tts.variant == "custom_voice":
        return {"speaker": speaker or tts.facts.speakers[0]}
    if tts.variant == "voice_design":
        return {"instruct": DESIGNED}
    return {}


def measure(tts, name: str, recognizer, texts: dict, encoder=None, reference=None, seed: int = 0,
            max_tokens: Optional[int] = None, voice: Optional[dict] = None) -> dict:
    """One model's row: every sentence of `texts` ({language: [sentences]}) spoken, heard, scored."""
    from mlx_qwen3tts.hearing import heard
    from mlx_qwen3tts.model.speaker_encoder import extract_xvector

    counts = {"words": [0, 0], "characters": [0, 0]}  # [edits, length]
    per_language, vectors, runaways, spoken = {}, [], 0, 0
    for language, lines in texts.items():
        language_edits = [0, 0]
        for i, text in enumerate(lines):
            result = tts.generate(text, language=language, seed=seed + i, max_tokens=max_tokens, **(voice or {}))
            spoken += 1
            runaways += bool(result.runaway)
            said = heard(recognizer, result.audio, result.sample_rate, language) if result.audio.shape[0] else ""
            n, length = edits(text, said, language)
            kind = "characters" if language in CHARACTER_LANGUAGES else "words"
            counts[kind][0] += n
            counts[kind][1] += length
            language_edits[0] += n
            language_edits[1] += length
            if encoder is not None and result.audio.shape[0]:
                vectors.append(np.array(extract_xvector(encoder, result.audio)))
        per_language[language] = round(language_edits[0] / max(language_edits[1], 1), 4)
    to_reference = (round(float(np.mean([cosine(v, reference) for v in vectors])), 4)
                    if reference is not None and vectors else None)
    between = round(float(np.mean([cosine(a, b) for a, b in zip(vectors, vectors[1:])])), 4) \
        if len(vectors) > 1 else None
    rate = lambda kind: round(counts[kind][0] / counts[kind][1], 4) if counts[kind][1] else None  # noqa: E731
    return {"name": name, "wer": rate("words"), "cer": rate("characters"),
            "similarity": to_reference if to_reference is not None else between,
            "similarity_to_reference": to_reference, "similarity_between_outputs": between, "runaways": runaways,
            "sentences": spoken, "error_rate_by_language": per_language}


def table(rows: list) -> str:
    """The rows as a markdown table."""
    shown = lambda v: "-" if v is None else f"{v:.4f}" if isinstance(v, float) else str(v)  # noqa: E731
    lines = ["| model | WER | CER (zh, ja, ko) | similarity | runaways | sentences |", "|---|---|---|---|---|---|"]
    lines += [f"| {r['name']} | {shown(r['wer'])} | {shown(r['cer'])} | {shown(r['similarity'])} | {r['runaways']} | "
              f"{r['sentences']} |" for r in rows]
    return "\n".join(lines) + "\n"


def run(models: list, recognizer, out: Path, languages: Optional[list] = None, per_language: int = 30,
        ref_audio: Optional[str] = None, ref_text: Optional[str] = None, speaker: Optional[str] = None,
        seed: int = 0, max_tokens: Optional[int] = None, speaker_encoder: Optional[str] = None) -> list:
    """Every model of `models` measured with `recognizer` (loaded once; an object with `transcribe`), the table
    written to `out`/quality.json and `out`/quality.md; the rows."""
    from mlx_qwen3tts import load
    from mlx_qwen3tts.audio.reference import load_reference_audio
    from mlx_qwen3tts.model.speaker_encoder import extract_xvector
    from mlx_qwen3tts.outputs import write_all, resolve

    listed = sentences()
    loaded = [(name, load(name)) for name in models]
    encoder = next((t.voices.speaker_encoder for _, t in loaded if t.voices.speaker_encoder is not None), None)
    if speaker_encoder is not None:
        encoder = load(speaker_encoder).voices.speaker_encoder
    rows = []
    for name, tts in loaded:
        own = tts.voices.speaker_encoder or encoder
        reference = None
        if ref_audio is not None and own is not None:
            reference = np.array(extract_xvector(own, load_reference_audio(ref_audio)))
        spoken = [lang for lang in tts.facts.languages if lang in listed and (not languages or lang in languages)]
        texts = {lang: listed[lang][:per_language] for lang in spoken}
        rows.append(measure(tts, name, recognizer, texts, own, reference, seed, max_tokens,
                            voice_of(tts, ref_audio, ref_text, speaker)))
    out.mkdir(parents=True, exist_ok=True)
    report = {"sentences": str(SENTENCES.name), "per_language": per_language, "models": rows}
    write_all([(resolve(out / "quality.json", "quality.json"), json.dumps(report, indent=1).encode() + b"\n"),
               (resolve(out / "quality.md", "quality.md"), table(rows).encode())])
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--model", action="append", required=True, help="A model or recipe (folder or hub id); "
                        "repeat for each.")
    parser.add_argument("--asr", required=True, help="The speech recognizer: Qwen3-ASR's folder or hub id.")
    parser.add_argument("--out", required=True, type=Path, help="Folder for quality.json and quality.md.")
    parser.add_argument("--languages", help="Comma-separated language names (default: every one a model speaks).")
    parser.add_argument("--per-language", type=int, default=30, help="Sentences per language (at most 30).")
    parser.add_argument("--ref-audio", help="A Base model's voice: this clip, cloned (and the similarity's reference).")
    parser.add_argument("--ref-text", help="The clip's transcript (in-context cloning; default: the x-vector alone).")
    parser.add_argument("--speaker", help="A CustomVoice model's preset (default: its first).")
    parser.add_argument("--speaker-encoder", help="A Base checkpoint whose speaker encoder measures similarity.")
    parser.add_argument("--seed", type=int, default=0, help="Sentence i is spoken with seed + i.")
    parser.add_argument("--max-tokens", type=int, help="A frame cap per sentence (default: from its length).")
    args = parser.parse_args(argv)
    from mlx_qwen3tts.hearing import recognizer

    languages = [lang.strip().lower() for lang in args.languages.split(",")] if args.languages else None
    rows = run(args.model, recognizer(args.asr), args.out, languages, args.per_language, args.ref_audio, args.ref_text,
               args.speaker, args.seed, args.max_tokens, args.speaker_encoder)
    print(table(rows), end="")


if __name__ == "__main__":
    main()
