"""A streamed answer piece by piece (server/piece_timing.py over audio/joining.py): each piece's last chunk is
marked, `piece_audio` gives the pieces' samples as they were joined, and `PieceTexts` cuts a text, whole or
delta by delta, where the plan cuts it (`split_sentences`)."""

import numpy as np

from mlx_qwen3tts.audio.chunks import AudioChunk
from mlx_qwen3tts.audio.joining import PAUSE_S, JoinedChunks
from mlx_qwen3tts.server.audio_out import Usage
from mlx_qwen3tts.server.piece_timing import AUDIO, END, PieceTexts, piece_audio
from mlx_qwen3tts.text import split_sentences

SR = 24000


def piece(seed: int, sizes):
    rng = np.random.default_rng(seed)
    return [AudioChunk(rng.uniform(-0.5, 0.5, n).astype(np.float32), SR, i, i == len(sizes) - 1, 1)
            for i, n in enumerate(sizes)]


def test_each_pieces_last_chunk_is_marked_and_the_pause_opens_the_next():
    pieces = [piece(0, [1920, 3840, 960]), piece(1, [1920, 1920]), piece(2, [3840])]
    joined = list(JoinedChunks(iter(pieces), SR))
    ends = [i for i, c in enumerate(joined) if c.ends_piece]
    assert len(ends) == 3 and ends[-1] == len(joined) - 1 and joined[-1].is_final
    assert sum(c.is_final for c in joined) == 1
    sizes = [sum(c.samples.shape[0] for c in joined[a + 1:b + 1]) for a, b in zip([-1] + ends, ends)]
    pause = int(PAUSE_S * SR)
    assert sizes == [6720, 3840 + pause, 3840 + pause]  # every sample of each piece, the pause before the next


def test_piece_audio_gives_each_piece_after_its_audio():
    pieces = [piece(0, [1920, 3840]), piece(1, [1920])]
    usage = Usage()
    items = list(piece_audio(JoinedChunks(iter(pieces), SR), 1.0, SR, usage))
    kinds = [k for k, _ in items]
    assert kinds == [AUDIO] * kinds.index(END) + [END] + [AUDIO] * (len(kinds) - kinds.index(END) - 2) + [END]
    heard = np.concatenate([s for k, s in items if k == AUDIO])
    assert np.array_equal(np.concatenate([s for k, s in items if k == END]), heard)
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
