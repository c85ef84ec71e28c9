"""Text normalization measured: the upstream corpus (tests/fixtures/text_normalization/<code>.tsv: every row of the
published test files it cites, disputed rows read as we hold right, and our own rows) and the real-sentence corpus
(tests/fixtures/text_sentences/<code>.tsv), each per language and per class, with the disputed rows and the
held-out third (tests/corpus_rows.py) counted apart; then the time to normalize one sentence (p50/p95 over the
real sentences, else the corpus' written forms) and a book of N words made of them, per language. Only counts:
no row is printed, so nothing here tunes the code on the held-out third.

    python -m benchmarks.text                      # a 100,000-word book per language
    python -m benchmarks.text --words 5000 --json  # a smaller book; one JSON line
    python -m benchmarks.text --floors             # no timing: the floor tables of tests/test_normalize_corpus.py
"""

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from mlx_qwen3tts.text.normalize import normalize  # noqa: E402
from corpus_rows import LANGUAGES, right, sentence_rows, upstream_rows  # noqa: E402

CORPORA = {"upstream": upstream_rows, "sentences": sentence_rows}


def count(rows: list, lang: str, upstream: bool) -> dict:
    """right/total over all rows, and apart: held-out and the rest; for upstream rows also undisputed, disputed
    and own; per class."""
    groups, classes = defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0])
    for row in rows:
        ok = right(row, normalize(row.written, lang))
        names = ["all", "held-out" if row.held_out else "not held out"]
        if upstream:
            names.append("own" if row.origin == "own" else "disputed" if row.disputed else "undisputed")
        for name in names:
            groups[name][0] += ok
            groups[name][1] += 1
        classes[row.cls][0] += ok
        classes[row.cls][1] += 1
        if row.disputed:
            classes[f"{row.cls} disputed"][1] += 1
    return {"groups": dict(groups), "classes": dict(sorted(classes.items()))}


def speed(lang: str, words: int) -> dict:
    """p50/p95 ms of one sentence (each normalized alone, three rounds), and the seconds to normalize a book of
    `words` words made of those sentences in paragraphs of five."""
    sentences = [r.written for r in sentence_rows(lang)] or [r.written for r in upstream_rows(lang)]
    normalize(sentences[0], lang)  # the language's reader imported and its patterns compiled
    times = []
    for sentence in sentences * 3:
        start = time.perf_counter()
        normalize(sentence, lang)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    rng, book, total = random.Random(0), [], 0
    while total < words:
        paragraph = " ".join(rng.choice(sentences) for _ in range(5))
        book.append(paragraph)
        total += len(paragraph.split())
    start = time.perf_counter()
    for paragraph in book:
        normalize(paragraph, lang)
    return {"timed_on": "sentences" if sentence_rows(lang) else "upstream", "p50_ms": round(times[len(times) // 2], 3),
            "p95_ms": round(times[int(len(times) * 0.95)], 3), "book_words": total,
            "book_s": round(time.perf_counter() - start, 2)}


def fraction(pair) -> str:
    right_, total = pair
    return f"{right_}/{total} {right_ / total:.1%}" if total else "-"


def report(results: dict) -> None:
    for corpus in CORPORA:
        print(f"\n{corpus} corpus: right / rows (all rows; apart: " + ("undisputed upstream, disputed as we read them, "
              "own, " if corpus == "upstream" else "") + "held-out third, the other two thirds)")
        for lang, r in results.items():
            if corpus not in r:
                print(f"  {lang}: no corpus yet")
                continue
            g = r[corpus]["groups"]
            apart = ", ".join(f"{name} {fraction(g[name])}" for name in
                              ("undisputed", "disputed", "own", "held-out", "not held out") if name in g)
            print(f"  {lang}: {fraction(g['all'])}  ({apart})")
            print("      " + ", ".join(f"{c} {fraction(v)}" if "disputed" not in c else f"{c} {v[1]}"
                                       for c, v in r[corpus]["classes"].items()))
    print("\nspeed (one sentence alone; a book of paragraphs of five)")
    for lang, r in results.items():
        s = r["speed"]
        print(f"  {lang}: p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms a sentence ({s['timed_on']}); "
              f"{s['book_words']} words in {s['book_s']} s")


def floors(results: dict) -> None:
    """FLOORS and CLASS_FLOORS as tests/test_normalize_corpus.py keeps them: today's fractions rounded down."""
    down = lambda pair: math.floor(pair[0] / pair[1] * 100 + 1e-9) / 100  # noqa: E731
    print("FLOORS = {  # language: (upstream corpus, real-sentence corpus)")
    for lang, r in results.items():
        print(f'    "{lang}": (' + ", ".join(f"{down(r[c]['groups']['all']):.2f}" if c in r else "0.00"
                                       for c in CORPORA) + "),")
    print("}\nCLASS_FLOORS = {")
    for corpus in CORPORA:
        for lang, r in results.items():
            if corpus in r:
                classes = ", ".join(f'"{c}": {down(v):.2f}' for c, v in r[corpus]["classes"].items()
                                    if "disputed" not in c)
                print(f'    ("{corpus}", "{lang}"): {{{classes}}},')
    print("}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=100_000, help="words in the book timed per language")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--floors", action="store_true", help="print the test's floor tables, no timing")
    args = parser.parse_args()
    results = {}
    for lang in LANGUAGES:
        results[lang] = {name: count(rows(lang), lang, name == "upstream") for name, rows in CORPORA.items()
                         if rows(lang)}
        if not args.floors:
            results[lang]["speed"] = speed(lang, args.words)
    if args.floors:
        floors(results)
    elif args.json:
        print(json.dumps(results))
    else:
        report(results)


if __name__ == "__main__":
    main()
