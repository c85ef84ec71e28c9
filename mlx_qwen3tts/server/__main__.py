"""Command line: `mlx_qwen3tts.server --model PATH_OR_REPO` (also `python -m mlx_qwen3tts.server`).

Serves one loaded model through the engine: the OpenAI-compatible speech API, the WebSocket
text-in stream and a page at /; with --wyoming-port, also the Wyoming protocol for Home Assistant
(wyoming.py), on the same engine. Binds 127.0.0.1 unless told otherwise; another address needs
--api-key (or an explicit --insecure); Wyoming has no keys, so another address for it needs --insecure.
"""

import errno
import ipaddress
import logging
import os
import socket
import sys
from pathlib import Path

import click

from .. import __version__
from ..cli.console import OneLineErrors, cli_errors
from ..errors import InputError
from ..cli.generate import DEFAULT_MODEL


DEFAULT_MAX_BATCH = 16


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


def check_wyoming_exposure(host: str, insecure: bool):
    if not is_loopback(host) and not insecure:
        raise InputError(
            f"--wyoming-host {host} makes the Wyoming server reachable from other machines, and the Wyoming "
            "protocol has no keys: give --insecure to allow it (and limit the port to Home Assistant's address)"
        )


def announced_name(wyoming_host: str, no_zeroconf: bool, name):
    """The zeroconf name for Wyoming, or None: a loopback bind is unreachable from Home Assistant,
    so it is never announced."""
    if no_zeroconf or is_loopback(wyoming_host):
        return None
    from .discovery import check_name, default_name

    try:
        return check_name(name if name is not None else default_name())
    except ValueError as e:
        raise InputError(str(e)) from None


def bind(host: str, port: int, what: str = "--port") -> socket.socket:
    """The listening socket, bound before the model loads so a taken port is one line at once."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as e:
        raise InputError(f"cannot serve on {host}: {e.strerror}; give an address of this machine with --host") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: restarts need no wait
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        hint = "; stop what uses it or choose another " + what if e.errno == errno.EADDRINUSE else ""
        raise InputError(f"cannot listen on {host} port {port}: {e.strerror}{hint}") from None
    sock.set_inheritable(True)
    return sock


def model_id(path_or_repo: str) -> str:
    return path_or_repo.rstrip("/").split("/")[-1] if os.path.isdir(path_or_repo) else path_or_repo


@click.command(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
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
@click.option("--max-batch", type=click.IntRange(1, 4352), default=None,
              help="Speech requests in one POST /v1/audio/speech/batch, at most --max-active + --max-queue. "
                   "Default: 16, or that sum where it is less.")
@click.option("--prefill-budget", type=click.IntRange(1, 100_000), default=None,
              help="Prompt cost units prefilled per frame step while others speak (about a position each). "
                   "Larger: joiners speak sooner; smaller: running streams stay steadier. "
                   "Default: measured, about one frame step's work.")
@click.option("--cors", multiple=True, help="Allow this browser origin (repeatable; '*' for any). Default: none.")
@click.option("--max-input-chars", type=click.IntRange(1, 100_000), default=4096, show_default=True,
              help="Longest `input` text (also per WebSocket utterance).")
@click.option("--dtype", type=click.Choice(["bfloat16", "float16", "float32"]), default=None, help="Compute dtype.")
@click.option("--wyoming-port", type=click.IntRange(1, 65535), default=None,
              help="Also serve the Wyoming protocol (Home Assistant) on this TCP port. Default: off.")
@click.option("--wyoming-host", default="127.0.0.1", show_default=True, help="Address for Wyoming.")
@click.option("--no-http", is_flag=True, help="Serve only Wyoming (needs --wyoming-port).")
@click.option("--wyoming-temperature", type=click.FloatRange(0), default=None,
              help="Sampling temperature of Wyoming requests, which carry none (0 = greedy). Default: the model's.")
@click.option("--wyoming-max-new-tokens", type=click.IntRange(1), default=None,
              help="Frame cap of Wyoming requests (12 per second). Default: from the text's length.")
@click.option("--wyoming-idle-timeout", type=click.FloatRange(0.1, 3600), default=300.0, show_default=True,
              help="Seconds a streamed Wyoming reply may pause between chunks (an LLM calling tools); then it ends.")
@click.option("--no-zeroconf", is_flag=True,
              help="Do not announce Wyoming by zeroconf (announced when --wyoming-host is beyond loopback).")
@click.option("--zeroconf-name", default=None, help="Name announced by zeroconf. Default: mlx-qwen3tts-HOSTNAME.")
@click.option("--allow-host", multiple=True,
              help="Also accept this Host header on a loopback bind (repeatable; host.docker.internal and the "
                   "other container names of the machine are accepted already).")
@click.option("--public-listings", is_flag=True,
              help="Serve GET /v1/models, /v1/audio/models and /v1/audio/voices without the API key "
                   "(Open WebUI fetches them with none).")
@click.option("--public-metrics", is_flag=True,
              help="Serve GET /metrics (Prometheus) without the API key, for a scraper that sends none.")
@click.option("--lexicon", type=click.Path(dir_okay=False), default=None,
              help="TSV of 'word<TAB>how to say it' applied to every whole text (HTTP, Wyoming).")
@click.option("--aligner", default=None, help="Word timestamps ('timestamps' on /v1/audio/speech) from this "
              "Qwen3-ForcedAligner (hub id, e.g. Qwen/Qwen3-ForcedAligner-0.6B, or folder). Default: none.")
@click.option("--aligner-bits", type=click.Choice(["4", "6", "8"]), default=None,
              help="With --aligner: quantize its decoder as it loads (default: as stored).")
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="info", show_default=True)
@click.version_option(__version__, "-V", "--version", prog_name="mlx_qwen3tts.server")
def main(model, host, port, api_key, insecure, voices_dir, max_active, max_queue, max_batch, prefill_budget, cors,
         max_input_chars, dtype, wyoming_port, wyoming_host, no_http, wyoming_temperature, wyoming_max_new_tokens,
         wyoming_idle_timeout, no_zeroconf, zeroconf_name, allow_host, public_listings, public_metrics, lexicon,
         aligner, aligner_bits,
         log_level):
    """Serve Qwen3-TTS over HTTP (OpenAI's /v1/audio/speech) and WebSocket, with a page at /."""
    with cli_errors():
        if max_batch is None:
            max_batch = min(DEFAULT_MAX_BATCH, max_active + max_queue)
        if max_batch > max_active + max_queue:  # such a batch could never be taken
            raise InputError(f"--max-batch {max_batch} is more than the engine holds (--max-active {max_active} + "
                             f"--max-queue {max_queue}); lower it or raise those")
        if no_http and wyoming_port is None:
            raise InputError("--no-http leaves nothing to serve: give --wyoming-port PORT")
        if aligner_bits is not None and aligner is None:
            raise InputError("--aligner-bits applies to --aligner; give --aligner MODEL")
        if not no_http:
            check_exposure(host, api_key, insecure)
        if wyoming_port is not None:
            check_wyoming_exposure(wyoming_host, insecure)
        announce = announced_name(wyoming_host, no_zeroconf, zeroconf_name) if wyoming_port is not None else None
        try:
            import uvicorn

            from .app import CONTAINER_HOST_NAMES, LOOPBACK_NAMES, Server, create_app

            if wyoming_port is not None:
                from .wyoming import start as start_wyoming
        except ImportError as e:
            raise InputError(f"the server needs its extra: pip install 'mlx-qwen3tts[server]' ({e})") from None
        respellings = None
        if lexicon is not None:  # read before anything loads: a bad file is one line naming its line
            from ..text.lexicon import read_lexicon

            respellings = read_lexicon(Path(lexicon).expanduser())
        listener = None if no_http else bind(host, port)
        if wyoming_port is not None:  # only a probe: wyoming.py binds its own; a taken port is said here, at once
            bind(wyoming_host, wyoming_port, "--wyoming-port").close()
        import mlx.core as mx

        from .. import load
        from .limits import Limits
        from .voice_store import VoiceStore, default_voices_dir

        logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
        tts = load(model, dtype=getattr(mx, dtype) if dtype else None)
        if aligner is not None:
            from ..aligner import load as load_aligner

            aligner = load_aligner(aligner, bits=int(aligner_bits) if aligner_bits else None)
        limits = Limits(max_input_chars=max_input_chars)
        engine = tts.engine(max_active=max_active, max_queue=max_queue, prefill_budget=prefill_budget)
        engine.warm()  # every batch size compiled before the server listens (and /health answers)
        voices = VoiceStore(tts.facts, tts.tokenizer, Path(voices_dir).expanduser() if voices_dir else default_voices_dir(),
                            limits)
        server = Server(tts, engine, model_id(model), voices, limits, api_key, max_active, max_queue, max_batch,
                        lexicon=respellings, aligner=aligner)
        wyoming = None
        if wyoming_port is not None:  # with --no-http, it serves here until stopped
            wyoming = start_wyoming(server, wyoming_host, wyoming_port, alone=no_http,
                                    temperature=wyoming_temperature, max_new_tokens=wyoming_max_new_tokens,
                                    idle_seconds=wyoming_idle_timeout, zeroconf_name=announce)
        names = [*LOOPBACK_NAMES, *CONTAINER_HOST_NAMES, *allow_host]
        app = create_app(server, cors=cors, trusted_hosts=names if is_loopback(host) else None,
                         public_listings=public_listings, public_metrics=public_metrics)
        shown = f"[{host}]" if ":" in host else host
        port = listener.getsockname()[1] if listener is not None else port  # --port 0: the one the system chose
        click.echo(f"mlx_qwen3tts server: {server.model_id} ({tts.facts.name}) on http://{shown}:{port}"
                   f"{'  (API key required)' if api_key else ''}", err=True)
        try:
            config = uvicorn.Config(app, log_level=log_level, ws_max_size=limits.max_ws_message_bytes,
                                    timeout_graceful_shutdown=5)
            uvicorn.Server(config).run(sockets=[listener])
        finally:
            if wyoming is not None:
                wyoming.close()
            engine.close()
            server.close()


if __name__ == "__main__":
    sys.exit(main())
