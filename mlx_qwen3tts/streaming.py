"""Old import path (kept for one release): audio chunks are in `mlx_qwen3tts.audio.chunks`, text fed
as it is written in `mlx_qwen3tts.loop.text_track`."""

from .audio.chunks import AudioChunk, ChunkDecoder, decode_chunks, join_audio, stream_audio  # noqa: F401
from .loop.text_track import TextFeed, feed_from  # noqa: F401
