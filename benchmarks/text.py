"""Text normalization: accuracy on the golden corpus (tests/fixtures/text_normalization/*.tsv, every
language there) per language and per class, split by where the cases come from (our own cases and the
published test data of NeMo text processing); the time to normalize one sentence (p50/p95) and a book of
N words made from the corpus sentences, per language.

    python -m benchmarks.text                      # a 100,000-word book per language
    python -m benchmarks.text --words 5000 --json  # a smaller book; one JSON line
"""

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from mlx_qwen3tts.text.normalize import normalize  # noqa: E402
from test_normalize_corpus import FILES, cases, key  # noqa: E402


def accuracy(path: Path) -> dict:
    per_class, per_source, right = defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0]), 0
    rows = cases(path)
    for cls, written, spoken, source in rows:
        ok = key(normalize(written, path.stem)) == key(spoken)
        right += ok
        for table, name in ((per_class, cls), (per_source, "own" if source == "own" else "NeMo")):
            table[name][0] += ok
            table[name][1] += 1
    return {"cases": len(rows), "accuracy": right / len(rows),
            "classes": {c: round(r / n, 3) for c, (r, n) in sorted(per_class.items())},
            "sources": {s: f"{r}/{n}" for s, (r, n) in sorted(per_source.items())}}


def speed(path: Path, words: int) -> dict:
    """p50/p95 ms of one sentence (the corpus' written column, each normalized alone), and the seconds to
    normalize a book of `words` words made of those sentences in paragraphs of five."""
    sentences = [written for _, written, _, _ in cases(path)]
    normalize(sentences[0], path.stem)  # the language's reader imported and its patterns compiled
    times = []
    for sentence in sentences * 3:
        start = time.perf_counter()
        normalize(sentence, path.stem)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    rng, book, count = random.Random(0), [], 0
    while count < words:
        paragraph = " ".join(rng.choice(sentences) for _ in range(5))
        book.append(paragraph)
        count += len(paragraph.split())
    start = time.perf_counter()
    for paragraph in book:
        normalize(paragraph, path.stem)
    return {"p50_ms": round(times[len(times) // 2], 3), "p95_ms": round(times[int(len(times) * 0.95)], 3),
            "book_words": count, "book_s": round(time.perf_counter() - start, 2)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=100_000, help="words in the book timed per language")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    results = {path.stem: {**accuracy(path), **speed(path, args.words)} for path in FILES}
    if args.json:
        print(json.dumps(results))
        return
    for lang, r in results.items():
        sources = ", ".join(f"{s} {v}" for s, v in r["sources"].items())
        print(f"{lang}: {r['accuracy']:.1%} of {r['cases']} cases ({sources})"
              f"; sentence p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms; {r['book_words']} words in {r['book_s']} s")
        print("    " + ", ".join(f"{c} {v:.0%}" for c, v in r["classes"].items()))


if __name__ == "__main__":
    main()
