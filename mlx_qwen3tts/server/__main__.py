"""Command line: `mlx_qwen3tts.server --model PATH_OR_REPO` (also `python -m mlx_qwen3tts.server`).

Serves one loaded model through the engine: the OpenAI-compatible speech API, the WebSocket
text-in stream and a page at /. Binds 127.0.0.1 unless told otherwise; another address needs
--api-key (or an explicit --insecure).
"""

import ipaddress
import logging
import os
import sys

import click

from ..errors import InputError, cli_errors
from ..generate import DEFAULT_MODEL


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, api_key, insecure: bool):
    if not is_loopback(host) and not api_key and not insecure:
        raise InputError(
            f"--host {host} makes the server reachable from other machines; give --api-key KEY "
            "(or the MLX_QWEN3TTS_API_KEY variable), or --insecure to serve without a key"
        )


def model_id(path_or_repo: str) -> str:
    return path_or_repo.rstrip("/").split("/")[-1] if os.path.isdir(path_or_repo) else path_or_repo


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--model", default=DEFAULT_MODEL, show_default=True, help="Local folder or Hugging Face repo id.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--api-key", envvar="MLX_QWEN3TTS_API_KEY", default=None,
              help="Require 'Authorization: Bearer KEY' (env MLX_QWEN3TTS_API_KEY).")
@click.option("--insecure", is_flag=True, help="Allow a non-loopback --host without --api-key.")
@click.option("--voices-dir", type=click.Path(file_okay=False), default=None,
              help="Folder of saved voices (default: ~/.local/share/mlx_qwen3tts/voices).")
@click.option("--max-active", type=click.IntRange(1, 256), default=8, show_default=True,
              help="Requests generated at once (one batch).")
@click.option("--max-queue", type=click.IntRange(0, 4096), default=32, show_default=True,
              help="Requests waiting beyond those; more get 429.")
@click.option("--cors", multiple=True, help="Allow this browser origin (repeatable; '*' for any). Default: none.")
@click.option("--max-input-chars", type=click.IntRange(1, 100_000), default=4096, show_default=True,
              help="Longest `input` text (also per WebSocket utterance).")
@click.option("--dtype", type=click.Choice(["bfloat16", "float16", "float32"]), default=None, help="Compute dtype.")
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="info", show_default=True)
def main(model, host, port, api_key, insecure, voices_dir, max_active, max_queue, cors, max_input_chars, dtype,
         log_level):
    """Serve Qwen3-TTS over HTTP (OpenAI's /v1/audio/speech) and WebSocket, with a page at /."""
    with cli_errors():
        check_exposure(host, api_key, insecure)
        try:
            import uvicorn

            from .app import LOOPBACK_NAMES, Server, create_app
        except ImportError as e:
            raise InputError(f"the server needs its extra: pip install 'mlx-qwen3tts[server]' ({e})") from None
        import mlx.core as mx

        from .. import load
        from ..engine import Engine
        from .limits import Limits
        from .voices import VoiceStore, default_voices_dir

        logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
        tts = load(model, dtype=getattr(mx, dtype) if dtype else None)
        limits = Limits(max_input_chars=max_input_chars)
        engine = Engine(tts, max_active=max_active, max_queue=max_queue)
        voices = VoiceStore(tts, voices_dir or default_voices_dir(), limits)
        server = Server(tts, engine, model_id(model), voices, limits, api_key, max_active, max_queue)
        app = create_app(server, cors=cors, trusted_hosts=LOOPBACK_NAMES if is_loopback(host) else None)
        shown = f"[{host}]" if ":" in host else host
        click.echo(f"mlx_qwen3tts server: {server.model_id} ({tts.variant}) on http://{shown}:{port}"
                   f"{'  (API key required)' if api_key else ''}", err=True)
        try:
            uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=limits.max_ws_message_bytes,
                        timeout_graceful_shutdown=5)
        finally:
            engine.close()


if __name__ == "__main__":
    sys.exit(main())
