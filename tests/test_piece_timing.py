"""A streamed answer piece by piece (server/piece_timing.py over audio/joining.py): each piece's last chunk
tells what it said through the joining, `piece_audio` gives each piece's end after its audio with the words of
its window as joined, and `PieceTexts` cuts a text, whole or delta by delta, where the plan cuts it
(`split_sentences`)."""

import numpy as np

from mlx_qwen3tts.audio.chunks import AudioChunk
from mlx_qwen3tts.audio.joining import PAUSE_S, JoinedChunks
from mlx_qwen3tts.server.audio_out import Usage
from mlx_qwen3tts.aligner import Word
from mlx_qwen3tts.aligner.piece_words import PieceWords
from mlx_qwen3tts.server.piece_timing import AUDIO, END, PieceTexts, piece_audio
from mlx_qwen3tts.text import split_sentences

SR = 24000


def piece(seed: int, sizes, said=None):
    rng = np.random.default_rng(seed)
    return [AudioChunk(rng.uniform(-0.5, 0.5, n).astype(np.float32), SR, i, i == len(sizes) - 1, 1,
                       said=said if i == len(sizes) - 1 else None) for i, n in enumerate(sizes)]


class Recorder:
    """An aligner that gives one word per piece spanning its window, and keeps what it was given."""

    def __init__(self):
        self.given = []

    def align(self, audio, rate, text, language):
        self.given.append((audio, text))
        return [Word(text, 0.0, audio.shape[0] / rate)]


def test_each_pieces_last_chunk_tells_what_it_said_and_the_pause_opens_the_next():
    pieces = [piece(0, [1920, 3840, 960], "One."), piece(1, [1920, 1920], "Two."), piece(2, [3840], "Three.")]
    joined = list(JoinedChunks(iter(pieces), SR))
    ends = [i for i, c in enumerate(joined) if c.said is not None]
    assert [joined[i].said for i in ends] == ["One.", "Two.", "Three."]
    assert len(ends) == 3 and ends[-1] == len(joined) - 1 and joined[-1].is_final
    assert sum(c.is_final for c in joined) == 1
    sizes = [sum(c.samples.shape[0] for c in joined[a + 1:b + 1]) for a, b in zip([-1] + ends, ends)]
    pause = int(PAUSE_S * SR)
    assert sizes == [6720, 3840 + pause, 3840 + pause]  # every sample of each piece, the pause before the next


def test_piece_audio_gives_each_piece_after_its_audio_with_its_words():
    pieces = [piece(0, [1920, 3840], "One."), piece(1, [1920], "Two.")]
    usage, aligner = Usage(), Recorder()
    words = PieceWords(aligner, sample_rate=SR)
    items = list(piece_audio(JoinedChunks(iter(pieces), SR), 1.0, SR, usage, words))
    kinds = [k for k, _ in items]
    first = kinds.index(END)
    assert kinds == [AUDIO] * first + [END] + [AUDIO] * (len(kinds) - first - 2) + [END]
    heard = np.concatenate([s for k, s in items if k == AUDIO])
    # Each piece's window, given to the aligner with what it said, is the audio heard up to its end.
    before = np.concatenate([s for k, s in items[:first] if k == AUDIO])
    assert [t for _, t in aligner.given] == ["One.", "Two."]
    assert np.array_equal(aligner.given[0][0], before)
    assert np.array_equal(np.concatenate([a for a, _ in aligner.given]), heard)
    ends = [w for k, w in items if k == END]
    assert [w.piece for w in ends] == [0, 1] and [w.words[0].text for w in ends] == ["One.", "Two."]
    assert ends[0].start == 0.0 and ends[0].end == ends[1].start == round(before.shape[0] / SR, 3)
    assert ends[1].end == round(heard.shape[0] / SR, 3)
    assert usage.samples == heard.shape[0] and usage.frames == 3


def test_piece_texts_cut_where_the_plan_cuts_whole_or_streamed():
    text = " ".join(["Alpha bravo charlie delta."] * 30) + " Echo."
    whole = PieceTexts()
    whole.add(text)
    whole.end()
    streamed = PieceTexts()
    for i in range(0, len(text), 7):
        streamed.add(text[i:i + 7])
    streamed.end()
    want = split_sentences(text, 300)
    assert len(want) > 1
    assert [whole[i] for i in range(len(want))] == [streamed[i] for i in range(len(want))] == want
    assert whole[len(want)] == ""
