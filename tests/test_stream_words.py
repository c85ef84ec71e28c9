"""Word timings in a Python stream (`TTS.stream(..., aligner=...)`, issue 50): each piece's words come right
after its audio, aligned on a worker as soon as the piece is complete, in seconds of the whole answer; the
frames never wait for the aligner. The tiny checkpoint and the tiny aligner, and fake aligners whose times
are known."""

import threading

import numpy as np
import pytest

from fixture_checkpoints import aligner_dir
from mlx_qwen3tts import aligner as aligner_api
from mlx_qwen3tts.aligner import Word
from mlx_qwen3tts.aligner.piece_words import Words
from mlx_qwen3tts.aligner.words import split_words
from mlx_qwen3tts.audio.joining import PAUSE_S
from mlx_qwen3tts.errors import InputError
from mlx_qwen3tts.request import sampling_settings
from mlx_qwen3tts.text import split_sentences

CHECKPOINT = "custom_voice-0b6"  # the conftest `tts` fixture loads it
RATE = 24000
FIRST = ("The first sentence is a long one, and it runs on with clauses about rivers, hills and 42 small towns "
         "along the coast until it finally ends here.")
SECOND = ("A second sentence follows it, just as long, telling of boats, nets and the 7 fishermen who sailed at "
          "dawn each day of that long summer.")
THIRD = "Then a short third one, said slowly by the old man at the door."
TEXT = " ".join([FIRST, SECOND, THIRD])  # over 300 characters: spoken in two pieces
PIECES = split_sentences(TEXT, 300)


@pytest.fixture(scope="module")
def greedy(tts):
    # normalize=False: the words timed are the text's as written (its "42" and "7"), whole or in pieces
    return {"speaker": "serena", "sampling": sampling_settings(tts.sampling, temperature=0), "normalize": False}


@pytest.fixture(scope="module")
def aligner(tmp_path_factory):
    return aligner_api.load(str(aligner_dir(tmp_path_factory.getbasetemp())))


@pytest.fixture(scope="module")
def streamed(tts, greedy, aligner):
    return list(tts.stream(TEXT, aligner=aligner, **greedy))


class Known:
    """A fake aligner whose times are known: word i of a text (split as the aligner splits words) from 0.01 * i to
    0.01 * i + 0.005 s. `gate`: each alignment waits for it (a slow aligner)."""

    def __init__(self, gate: threading.Event = None):
        self.gate, self.texts, self.windows = gate, [], []

    def align(self, audio, rate, text, language):
        self.texts.append(text)
        self.windows.append(audio.shape[0])
        if self.gate is not None:
            assert self.gate.wait(120)
        return [Word(w, 0.01 * i, 0.01 * i + 0.005) for i, w in enumerate(split_words(text, language))]


def test_the_stream_is_its_audio_with_each_pieces_words_after_it(tts, greedy, streamed):
    chunks = [item for item in streamed if not isinstance(item, Words)]
    words = [item for item in streamed if isinstance(item, Words)]
    whole = tts.generate(TEXT, **greedy)
    np.testing.assert_array_equal(np.concatenate([c.samples for c in chunks]), whole.audio)  # the same audio
    assert len(PIECES) == 2 and [w.piece for w in words] == [0, 1]
    ends = [i for i, item in enumerate(streamed) if not isinstance(item, Words) and item.said is not None]
    assert [streamed[i].said for i in ends] == PIECES
    at = {id(item): i for i, item in enumerate(streamed)}
    for end, piece_words in zip(ends, words):  # after its piece's last chunk
        assert at[id(piece_words)] > end
    assert [w.text for piece in words for w in piece.words] == split_words(TEXT, "auto")  # the answer's words


def test_each_pieces_words_are_the_aligners_over_its_own_window(tts, greedy, aligner, streamed):
    """The stated difference from the answer aligned whole: a piece's window runs from the end of the one before
    (the pause between them included) to its last sample; its words are the aligner's over that window, shifted
    by its start, and kept inside it. A one-piece answer's window is the whole audio."""
    audio = np.concatenate([c.samples for c in streamed if not isinstance(c, Words)])
    alone = [tts.generate(piece, **greedy).audio.shape[0] for piece in PIECES]  # each piece spoken by itself
    bounds = [0, alone[0], alone[0] + int(PAUSE_S * RATE) + alone[1]]
    assert bounds[-1] == audio.shape[0]
    words = [item for item in streamed if isinstance(item, Words)]
    for k, (piece, got) in enumerate(zip(PIECES, words)):
        a, b = bounds[k], bounds[k + 1]
        assert (got.start, got.end) == (round(a / RATE, 3), round(b / RATE, 3))
        seconds = (b - a) / RATE
        expected = [(w.text, round(a / RATE + min(w.start, seconds), 3), round(a / RATE + min(w.end, seconds), 3))
                    for w in aligner.align(audio[a:b], RATE, piece, "auto")]
        assert [(w.text, w.start, w.end) for w in got.words] == expected


def test_a_one_piece_answer_has_the_words_of_the_answer_aligned_whole(tts, greedy, aligner):
    items = list(tts.stream(THIRD, aligner=aligner, max_tokens=30, **greedy))
    audio = np.concatenate([c.samples for c in items if not isinstance(c, Words)])
    (words,) = [item for item in items if isinstance(item, Words)]
    assert items[-1] is words
    seconds = audio.shape[0] / RATE
    whole = [(w.text, round(min(w.start, seconds), 3), round(min(w.end, seconds), 3))
             for w in aligner.align(audio, RATE, THIRD, "auto")]
    assert [(w.text, w.start, w.end) for w in words.words] == whole


def test_a_slow_aligner_holds_up_no_frame(tts, greedy):
    """While the first piece is being aligned (the aligner blocked), the second piece's frames keep coming."""
    gate = threading.Event()
    known = Known(gate)
    items, blocked = [], []
    for item in tts.stream(TEXT, aligner=known, **greedy):
        items.append(item)
        if isinstance(item, Words):
            continue
        if known.texts and not gate.is_set():
            blocked.append(item)  # audio given out while an alignment was waiting
        if item.is_final:
            gate.set()
    ends = [i for i, item in enumerate(items) if not isinstance(item, Words) and item.said is not None]
    at = {id(item): i for i, item in enumerate(items)}
    assert len(blocked) > 3 and all(at[id(c)] >= ends[0] for c in blocked)
    assert blocked[-1].is_final  # the whole second piece came while the first piece's alignment was held
    words = [item for item in items if isinstance(item, Words)]
    assert all(isinstance(item, Words) for item in items[-2:]) and known.texts == PIECES
    # Known times, shifted by each window's start: word i at start + 0.01 i.
    assert words[1].start == words[0].end == round(known.windows[0] / RATE, 3)
    for piece in words:
        assert [(w.start, w.end) for w in piece.words] == [
            (round(piece.start + 0.01 * i, 3), round(piece.start + 0.01 * i + 0.005, 3)) for i in range(len(piece.words))]


def test_text_given_as_deltas_is_timed_piece_by_piece(tts, greedy):
    known = Known()
    deltas = [TEXT[i:i + 7] for i in range(0, len(TEXT), 7)]
    # guard off: the tiny random checkpoint never ends its speech, and a stream ends where a runaway is seen
    items = list(tts.stream_text(iter(deltas), aligner=known, guard=False, **greedy))
    assert known.texts == PIECES  # what each piece spoke
    assert [w.text for item in items if isinstance(item, Words) for w in item.words] == split_words(TEXT, "auto")


def test_an_aligner_that_cannot_time_the_language_refuses_before_any_audio(tts, greedy):
    class Refusing(Known):
        def check_language(self, language):
            raise InputError(f"the aligner does not know the language {language!r}", field="language")

    with pytest.raises(InputError, match="does not know the language 'auto'"):
        tts.stream(THIRD, aligner=Refusing(), **greedy)


def test_closing_the_stream_midway_stops_it_and_its_worker(tts, greedy):
    gate = threading.Event()
    stream = tts.stream(TEXT, aligner=Known(gate), **greedy)
    for item in stream:
        if getattr(item, "said", None) is not None:  # the first piece ended: its alignment is waiting
            break
    gate.set()
    stream.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("mlx_qwen3tts-words")]  # the worker is gone
    assert stream.frames > 0 and next(iter(stream), None) is None


def test_a_written_word_gets_the_time_its_spoken_form_took(tts, greedy):
    """Issue 65: "12,50 €" is spoken "zwölf Euro fünfzig"; the words timed are the written ones, "1250" from the start
    of "zwölf" to the end of "fünfzig" (a fake aligner whose times are known), whole text or deltas alike."""
    text = "Das kostet 12,50 € heute."
    said = {**greedy, "normalize": True, "language": "German"}
    deltas = [text[i:i + 4] for i in range(0, len(text), 4)]
    for items in (list(tts.stream(text, aligner=Known(), max_tokens=30, **said)),
                  list(tts.stream_text(iter(deltas), aligner=Known(), max_tokens=30, guard=False, **said))):
        (words,) = [item for item in items if isinstance(item, Words)]
        assert [(w.text, w.start, w.end) for w in words.words] == [
            ("Das", 0.0, 0.005), ("kostet", 0.01, 0.015), ("1250", 0.02, 0.045), ("heute", 0.05, 0.055)]
