"""The HTTP/WebSocket server: OpenAI's speech API, text streamed in over a WebSocket, a page at /.

Start it with `mlx_qwen3tts.server --model PATH_OR_REPO` (needs the `server` extra: `pip install -e ".[server]"` in a checkout).
"""
