"""Old import path (kept for one release): the engine is `mlx_qwen3tts.loop.engine`."""

from .loop.engine import Engine, EngineClosed, EngineFull, Handle, TextFeed  # noqa: F401
