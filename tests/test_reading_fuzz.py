"""Never worse than the text (issue 63): no input makes the reading raise, hang or take seconds, in any of the ten
languages. Random text built from every class's characters (digits, separators, currency and unit symbols,
fractions, abbreviations, dates, addresses, quotes and brackets, several scripts) and pathological text (runs
of thousands of digits or digit groups, nested punctuation, a sentence of thousands of words) goes through
`normalize`, `text.spoken` and the sentence cutter in a child process, each case timed: the child reports the
first case that raised or took too long, and the parent bounds the whole run."""

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "ru", "zh", "ja", "ko")
ENV = dict(os.environ, PYTHONPATH=str(REPO))
CASE_SECONDS = 3.0  # one case, on a loaded 2-core machine; a sentence takes about a millisecond
PIECES = ["0", "1", "7", "12", "007", "1960", "2024", "3.5", "3,5", "1.234", "1 234", "1\u00a0234", "12:30", "2:1",
          "3-1", "1/2", "3⁄4", "½", "¼", "¾", "1½", "%", "‰", "€", "$", "£", "¥", "₽", "₩", "R$", "°", "°C", "º", "ª",
          "²", "³", "+", "−", "-", "–", "—", "×", "x", "~", "=", "/", ".", ",", ";", ":", "!", "?", "…", "'", "’", '"',
          "«", "»", "„", "“", "(", ")", "[", "]", "{", "}", "<", ">", "#", "@", "&", "§", "№", "_", "^", "*", " ",
          "  ", "\n", "\n\n", "\t", "\u202f", "km", "kg", "in", "min", "h", "s", "m²", "km/h", "kcal", "Mio.",
          "z. B.", "p. P.", "p. ex.", "e.g.", "Nr.", "No.", "St.", "Dr.", "т. е.", "г.", "шт", "см.", "XIV", "IV",
          "Mr.", "1st", "3rd", "2e", "3.º", "5-й", "https://example.org/a-1?b=2", "www.x.de", "a@b.co",
          "U+0041", "GPT-4o", "fp16", "v1.2.3", "2024-03-05", "05.03.2024", "03/07/2025", "+49 30 1234567",
          "555-1234", "Apfel", "Äpfel", "the", "und", "le", "el", "и", "яблоко", "三", "日本", "ひらがな", "カタカナ",
          "한국어", "２０２４", "㎞", "㎡", "🙂", "\u0301", "\ufe0f", "ß", "İ", "ǅ"]


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) + rng.choice(["", " ", ""]) for _ in range(rng.randint(1, 40)))


def pathological() -> list:
    return ["1" * 5000, "0." + "1" * 5000, " ".join(["123"] * 1500), "1 " + " ".join(["234"] * 1500),
            "1," + ",".join(["234"] * 1500), "1." + ".".join(["234"] * 1500), "１" * 5000, "-" * 3000 + "1",
            "(" * 2000 + "1" + ")" * 2000, "«" * 500 + "„" * 500 + "1" + "“" * 500, "." * 5000, "z. B. " * 800,
            "1. " * 2000, "Nr. " * 1000 + "5", " ".join(["Wort"] * 3000) + ".", "1/" * 2000, "1:" * 2000,
            "1-" * 2000, "$" * 1000 + "1", "a" * 20000, "1 in " * 1000, ", ".join(["ab"] * 2000),
            "\n".join(["1 234"] * 1000), "€1" * 2000, "1e" * 2000 + "r"]


def main(seed: int, count: int):
    from mlx_qwen3tts.text import spoken, split_sentences
    from mlx_qwen3tts.text.normalize import normalize

    rng = random.Random(seed)
    cases = pathological() + [random_text(rng) for _ in range(count)]
    slowest = 0.0
    for text in cases:
        for language in LANGUAGES:
            start = time.perf_counter()
            try:
                normalize(text, language)
                spoken(text, language)
                split_sentences(text)
            except Exception as e:  # noqa: BLE001 - any exception is the failure reported
                print(json.dumps({"language": language, "text": text[:200], "error": repr(e)[:300]}))
                return
            took = time.perf_counter() - start
            slowest = max(slowest, took)
            if took > CASE_SECONDS:
                print(json.dumps({"language": language, "text": text[:200], "seconds": round(took, 2)}))
                return
    print(json.dumps({"cases": len(cases) * len(LANGUAGES), "slowest": round(slowest, 3)}))


def _run(seed: int, count: int) -> dict:
    done = subprocess.run([sys.executable, __file__, str(seed), str(count)], capture_output=True, text=True,
                          cwd=REPO, env=ENV, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_no_input_raises_or_hangs_in_any_language():
    report = _run(seed=63, count=150)
    assert "cases" in report, report


def test_a_run_of_thousands_of_digits_is_read_from_the_command_line():
    for text in ("7" * 4400, " ".join(["456"] * 1500)):
        done = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--dry-run", "--model", "/no/such/model",
                               "--text", text, "--language", "de"], capture_output=True, text=True, cwd=REPO,
                              env=ENV, timeout=300)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
        assert "sieben" in done.stdout or "vierhundert" in done.stdout


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
