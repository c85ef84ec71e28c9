"""The checks the issue-63 class tests share (tests/test_reading_*.py): sentences of our own read through Python
(`text.spoken` and `text.normalize.normalize`) and through the command line's dry run (`mlx_qwen3tts.generate
--dry-run`, the model path given does not exist, none is loaded), one paragraph a case, one line said a case.
What is said is compared after casefolding and keeping letters and digits."""

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from server_harness import env

REPO = Path(__file__).resolve().parent.parent


def folded(text: str) -> str:
    return "".join(ch for ch in text.casefold() if unicodedata.category(ch)[0] in "LN")


def said_together(said: str, must: list, must_not: list) -> bool:
    """The words of `must` said as one run; none of `must_not` left in what is said."""
    return folded(" ".join(must)) in folded(said) and not any(word in said for word in must_not)


def said_in_order(said: str, must: list, must_not: list) -> bool:
    """Each of `must` said, in this order; none of `must_not` left in what is said."""
    at = 0
    for words in must:
        at = folded(said).find(folded(words), at)
        if at < 0:
            return False
    return not any(word in said for word in must_not)


def read_in_python(language: str, written: str, must: list, must_not: list, holds=said_together):
    from mlx_qwen3tts.text import spoken
    from mlx_qwen3tts.text.normalize import normalize

    for said in (spoken(written, language), normalize(written, language)):
        assert holds(said, must, must_not), said


def read_each_on_the_command_line(tmp_path: Path, language: str, cases: list, holds=said_together):
    """`cases`: (written, must, must_not) of one language, each said on its own line by the dry run."""
    source = tmp_path / "cases.txt"  # one paragraph a case: a piece each
    source.write_text("\n\n".join(written for written, _, _ in cases) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mlx_qwen3tts.generate", "--dry-run", "--model", "/no/such/model",
                           "--text-file", str(source), "--language", language], capture_output=True, text=True,
                          env=env(), cwd=REPO, timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == len(cases), (lines, done.stderr)
    for said, (written, must, must_not) in zip(lines, cases):
        assert holds(said, must, must_not), (written, said)


def class_tests(cases: list, holds=said_together, language: str = None):
    """The two tests a tests/test_reading_*.py file makes of its cases: each case read in Python, and each
    language's cases through the dry run. A case is (kind, language, written, must, must_not), or
    (language, written, must, must_not); with `language` given, (kind, written, must, must_not).
    Use: `test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_in_order)`."""
    rows = [(language, *case[1:]) for case in cases] if language else [tuple(case[-4:]) for case in cases]

    @pytest.mark.parametrize("language, written, must, must_not", rows, ids=[f"{c[0]}:{c[-3][:30]}" for c in cases])
    def test_read_right_in_python(language, written, must, must_not):
        read_in_python(language, written, must, must_not, holds)

    @pytest.mark.parametrize("language", sorted({row[0] for row in rows}))
    def test_read_right_on_the_command_line(tmp_path, language):
        read_each_on_the_command_line(tmp_path, language, [row[1:] for row in rows if row[0] == language], holds)

    return test_read_right_in_python, test_read_right_on_the_command_line


def cutter_tests(goes_on: list, ends: list, next_sentence: str):
    """The three tests a tests/test_reading_*.py file makes of the sentence cutter: each text of `goes_on` is one
    sentence (and `next_sentence` after it a second), each of `ends` two, and all of them given in pieces of 1, 3
    and 11 characters are cut as the whole text is.
    Use: `test_goes_on, test_still_ends, test_in_deltas = cutter_tests(GOES_ON, ENDS, "Dann gehen wir.")`."""

    @pytest.mark.parametrize("text", goes_on)
    def test_goes_on(text):
        from mlx_qwen3tts.text import sentences

        assert sentences(text) == [text]
        assert sentences(f"{text} {next_sentence}") == [text, next_sentence]

    @pytest.mark.parametrize("text", ends)
    def test_still_ends(text):
        from mlx_qwen3tts.text import sentences

        assert len(sentences(text)) == 2, sentences(text)

    def test_in_deltas():
        from mlx_qwen3tts.text import CUT, PieceCutter, split_sentences

        text = " ".join(goes_on + ends)
        whole = split_sentences(text, 60)
        for size in (1, 3, 11):
            cutter, parts = PieceCutter(60), []
            for i in range(0, len(text), size):
                parts += cutter.add(text[i:i + size])
            parts += cutter.end()
            said = "".join("\n" if part is CUT else part for part in parts)
            assert said.split("\n") == whole

    return test_goes_on, test_still_ends, test_in_deltas
