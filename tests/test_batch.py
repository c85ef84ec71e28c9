"""Batches equal the same texts one by one (greedy); long text is split and joined smoothly."""

import random
import warnings

import numpy as np
import pytest

import mlx_qwen3tts
from mlx_qwen3tts.audio.chunks import join_audio
from mlx_qwen3tts.loop.decode_loop import frame_budget
from mlx_qwen3tts.text import CUT, PieceCutter, StreamedPieces, split_sentences

TEXTS = ["Hello world.", "今天天气很好。我们去公园吧。", "A much longer sentence, with quite a few more tokens in it."]


CHECKPOINT = "custom_voice-1b7"  # the conftest `tts` fixture loads it


@pytest.mark.parametrize("mode", ["non-streaming", "streaming"])
def test_batch_equals_one_by_one(tts, mode):
    speakers = ["ryan", "vivian", "dylan"]
    batch = tts.generate_batch(TEXTS, speaker=speakers, temperature=0, max_tokens=18, text_mode=mode)
    assert len(batch) == 3
    for text, speaker, result in zip(TEXTS, speakers, batch):
        alone = tts.generate(text, speaker=speaker, temperature=0, max_tokens=18, text_mode=mode)
        np.testing.assert_array_equal(result.codes, alone.codes)
        assert result.stopped_on_eos == alone.stopped_on_eos
        assert np.abs(result.audio - alone.audio).max() <= 1e-4


def test_batch_rows_stop_at_their_own_eos(tts):
    # dylan's Chinese line in this checkpoint ends on EOS well before the frame limit (see the
    # reference fixtures); the other row runs on to the limit.
    batch = tts.generate_batch(["我们一起去吃饭吧。", "Keep talking for a while please."], speaker=["dylan", "ryan"],
                               language="auto", text_mode="streaming", temperature=0, max_tokens=30)
    assert batch[0].stopped_on_eos and batch[0].codes.shape[0] < 30
    assert batch[1].codes.shape[0] == 30 and not batch[1].stopped_on_eos


def test_batch_argument_lengths_must_match(tts):
    with pytest.raises(mlx_qwen3tts.InputError, match="entries for 3 texts"):
        tts.generate_batch(TEXTS, speaker=["ryan", "vivian"], temperature=0, max_tokens=2)


def test_split_sentences():
    assert split_sentences("One. Two? Three!", 6) == ["One.", "Two?", "Three!"]
    assert split_sentences("One. Two? Three!", 300) == ["One. Two? Three!"]
    assert split_sentences("你好。再见！", 3) == ["你好。", "再见！"]
    pieces = split_sentences("word " * 200, 50)
    assert all(len(p) <= 50 for p in pieces) and " ".join(pieces).split() == ["word"] * 200


def test_a_numbered_heading_is_cut_at_once():
    """'3. Installation' (a numbered heading, a capital word after a number's dot) went through every
    abbreviation's two ways to match: 2^n tries, 12 s for '3. IIII' and never ending for a real heading. In a
    child process with a time limit, so that a return of it fails this test instead of hanging the run."""
    import subprocess
    import sys

    code = ("from mlx_qwen3tts.text.cutting import sentences\n"
            "print(sentences('3. Installationsanleitung für Einsteiger.') == ['3.', 'Installationsanleitung für "
            "Einsteiger.'], ' '.join(sentences('Kapitel 12. Netzwerkkonfiguration')) == 'Kapitel 12. "
            "Netzwerkkonfiguration')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["True", "True"], out.stderr[-2000:]


def pieces_of(parts: list) -> list:
    """The pieces a PieceCutter's output spells: its strings joined, a CUT ending each piece."""
    pieces, current = [], ""
    for part in parts:
        if part is CUT:
            pieces.append(current)
            current = ""
        else:
            current += part
    return pieces + ([current] if current else [])


def _cut_in_deltas(text, max_chars, rng):
    """(pieces, what was given before each delta's successor arrived) of `text` fed in random deltas."""
    cutter, parts = PieceCutter(max_chars), []
    i = 0
    while i < len(text):
        j = i + rng.randint(1, 12)
        parts += cutter.add(text[i:j])
        i = j
    return pieces_of(parts + cutter.end())


def test_text_given_in_deltas_is_cut_where_the_whole_text_is():
    """One text path (issue 35, item 1): streamed text is cut at the places the whole text is, whatever the
    delta boundaries, in Latin and CJK, with abbreviations, decimals, paragraphs and over-long sentences."""
    words = ["the", "cat", "sat,", "on", "a", "mat.", "3.5", "Mr.", "hello!", "why?", "ok;", "yes...", "“quoted.”",
             "(aside.)", "你好。", "再见！", "长句子，", "词、", "averyveryverylongwordwithoutanyspaces", "\n", "\n\n"]
    rng = random.Random(0)
    for _ in range(400):
        text = "".join(rng.choice(words) + rng.choice([" ", " ", "", "  ", "\n"]) for _ in range(rng.randint(1, 90)))
        max_chars = rng.choice([12, 25, 60, 300])
        whole = split_sentences(text, max_chars)
        assert _cut_in_deltas(text, max_chars, rng) == whole, (text, max_chars)
        assert all(piece and piece == piece.strip() and piece in text for piece in whole)
        assert all(len(piece) <= max_chars for piece in whole if " " in piece[:max_chars])


def test_a_piece_is_given_as_early_as_its_cut_allows():
    """A piece's first sentence word by word; a later one once it has ended (it might not fit); the cut as
    soon as the next sentence is too long to fit beside the ones before."""
    cutter = PieceCutter(30)
    assert cutter.add("Hello ") == ["Hello"]
    assert cutter.add("there big") == [" there"]  # "big" may go on
    assert cutter.add(" world. Second") == [" big world."]  # "Second" might not fit: held
    assert cutter.add(" one here. Third sentence") == [CUT, "Second one here.", CUT, "Third"]
    assert cutter.add(" ends.") == [" sentence"]
    assert cutter.end() == [" ends."]


def test_streamed_pieces_are_made_one_after_the_other_and_close_their_source():
    closed = []

    def source():
        try:
            yield from ["One two. ", "Three four five. ", "Six."]
        finally:
            closed.append(True)

    pieces = StreamedPieces(source(), 12)
    read = [list(deltas) for deltas in pieces]
    assert ["".join(r) for r in read] == split_sentences("One two. Three four five. Six.", 12) == [
        "One two.", "Three four", "five. Six."]
    pieces = StreamedPieces(source(), 12)
    first = next(iter(pieces))
    assert next(first) == "One two."  # the whole first delta: a sentence
    pieces.close()
    assert closed == [True, True]


def test_join_audio_has_no_steps():
    rate = 24000
    loud = [np.full(2400, 0.8, np.float32), np.full(2400, -0.8, np.float32)]
    joined = join_audio(loud, rate)
    assert joined.shape[0] == 4800 + int(0.12 * rate)
    assert np.abs(np.diff(joined)).max() < 0.02  # faded edges (5 ms): no click-size jump (0.8) anywhere


def test_long_text_in_sequence_and_batch(tts):
    text = " ".join(f"Sentence number {i} is here." for i in range(24))  # > 300 characters, as written
    assert len(split_sentences(text)) >= 2
    pieces = split_sentences(text)
    alone = lambda piece, frames: tts.generate(piece, speaker="ryan", normalize=False, temperature=0, max_tokens=frames,  # noqa: E731
                                               split="none").codes
    # max_tokens is for the whole text. One after the other, the first piece can use all of it.
    seq = tts.generate(text, speaker="ryan", normalize=False, temperature=0, max_tokens=8, split="sequence")
    np.testing.assert_array_equal(seq.codes, alone(pieces[0], 8))
    # As a batch, the pieces share it by length; each row equals its piece alone.
    bat = tts.generate(text, speaker="ryan", normalize=False, temperature=0, max_tokens=8, split="batch")
    shares = [8 * len(p) // len("".join(pieces)) for p in pieces]
    np.testing.assert_array_equal(bat.codes, np.concatenate([alone(p, n) for p, n in zip(pieces, shares) if n]))
    assert bat.codes.shape[0] <= 8 and not seq.stopped_on_eos and not bat.stopped_on_eos
    whole = tts.generate(text, speaker="ryan", normalize=False, temperature=0, max_tokens=4, split="none")
    assert whole.codes.shape[0] == 4


def test_default_frame_budget_follows_text_length(tts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tts.generate("Hi.", speaker="ryan", temperature=0)
    body = tts.tokenizer.assistant("Hi.").body
    assert result.max_frames == frame_budget(len(body)) < 8192
    assert result.codes.shape[0] <= result.max_frames
