"""What character error rate typical faults give on the quality benchmark's sentences: the arithmetic behind
`--check`'s default threshold (`hearing.DEFAULT_THRESHOLD`), measured with the package's own `error_rate`.

No model runs: each fault is made in the text itself, at every place it can go in each of the 30 sentences of
each language (benchmarks/data/quality_sentences.json), and the text so changed is scored against the text as
the check scores what it heard. A "word" is what spaces separate, or two characters in Chinese and Japanese
(written without spaces; a common word length there).

- a character: one character wrong (a letter or syllable misheard)
- a word: one word dropped (a word replaced by another as long, or said twice, makes as many edits)
- three words: a phrase of three words said twice (or dropped)
- half: the sentence stopped halfway
- other language: the same sentence of another language of the list (they are translations of each other)

    python -m benchmarks.check_threshold                    # the table, for the default threshold
    python -m benchmarks.check_threshold --threshold 0.2 0.25 0.3
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SENTENCES = ROOT / "benchmarks" / "data" / "quality_sentences.json"
UNSPACED = ("chinese", "japanese")
FAULTS = ("a character", "a word", "three words", "half", "other language")


def _words(language: str, text: str) -> tuple:
    """(the text's words, what joins them)."""
    if language in UNSPACED:
        return [text[i:i + 2] for i in range(0, len(text), 2)], ""
    return text.split(" "), " "


def _changed(fault: str, language: str, text: str, others: list) -> list:
    """Every text that `fault` makes of `text` (`others`: the same sentence in the other languages)."""
    words, joint = _words(language, text)
    if fault == "a character":
        return [text[:i] + ("x" if text[i] != "x" else "y") + text[i + 1:] for i in range(len(text))
                if text[i].isalnum()]
    if fault == "a word":
        return [joint.join(words[:i] + words[i + 1:]) for i in range(len(words))]
    if fault == "three words":
        return [joint.join(words[:i + 3] + words[i:]) for i in range(len(words) - 2)]
    if fault == "half":
        return [text[:len(text) // 2]]
    return list(others)


def rates(sentences: dict) -> dict:
    """{language: {fault: [error rates]}} of every fault at every place in every sentence."""
    sys.path.insert(0, str(ROOT))
    from mlx_qwen3tts.hearing import error_rate

    found = {}
    for language, texts in sentences.items():
        found[language] = {}
        for fault in FAULTS:
            found[language][fault] = [
                error_rate(text, heard) for i, text in enumerate(texts)
                for heard in _changed(fault, language, text, [s[i] for k, s in sentences.items() if k != language])]
    return found


def table(found: dict, threshold: float) -> str:
    """Markdown: per language and fault, the median error rate and the share of cases over `threshold`."""
    lines = ["| language | " + " | ".join(FAULTS) + " |", "|---|" + "---:|" * len(FAULTS)]
    for language, faults in found.items():
        cells = [f"{statistics.median(r):.2f} ({100 * sum(x > threshold for x in r) / len(r):.0f}%)"
                 for r in (faults[f] for f in FAULTS)]
        lines.append(f"| {language} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    sys.path.insert(0, str(ROOT))
    from mlx_qwen3tts.hearing import DEFAULT_THRESHOLD

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threshold", type=float, nargs="+", default=[DEFAULT_THRESHOLD])
    args = parser.parse_args()
    found = rates(json.loads(SENTENCES.read_text(encoding="utf-8"))["sentences"])
    for threshold in args.threshold:
        print(f"Median character error rate of each fault (share of cases over {threshold}, which the check makes "
              "again):\n")
        print(table(found, threshold) + "\n")


if __name__ == "__main__":
    main()
