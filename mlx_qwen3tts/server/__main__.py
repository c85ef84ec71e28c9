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
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import click

from .. import __version__
from ..cli.console import OneLineErrors, cli_errors
from ..errors import InputError
from ..cli.flags import DEFAULT_MODEL


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


def session_option(flag: str, kind, default, help: str):
    """An option of the WebSocket sessions, also read from the environment (`--ws-pause`: MLX_QWEN3TTS_WS_PAUSE)."""
    env = "MLX_QWEN3TTS_" + flag.lstrip("-").upper().replace("-", "_")
    return click.option(flag, type=kind, default=default, show_default=default is not None, envvar=env,
                        help=f"{help} (env {env}).")


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
@session_option("--ws-pause", click.FloatRange(0.05, 30), 0.5,
                "Seconds without new text after which what a WebSocket utterance holds is spoken, however short")
@session_option("--ws-idle-timeout", click.FloatRange(0.1, 3600), 30.0, "Seconds without a message after which an "
                "open WebSocket utterance ends as its end message would end it: its audio, then its done event")
@session_option("--ws-session-idle-timeout", click.FloatRange(0.1, 86400), 300.0, "Seconds without a message after "
                "which a WebSocket session with nothing open or left to speak is closed")
@session_option("--ws-max-sessions", click.IntRange(1, 100_000), None, "WebSocket sessions open at once; the next is "
                "refused with HTTP 503. Default: --max-active + --max-queue, what the engine holds")
@click.option("--dtype", type=click.Choice(["bfloat16", "float16", "float32"]), default=None, help="Compute dtype.")
@click.option("--wyoming-port", type=click.IntRange(1, 65535), default=None,
              help="Also serve the Wyoming protocol (Home Assistant) on this TCP port. Default: off.")
@click.option("--wyoming-host", default="127.0.0.1", show_default=True, help="Address for Wyoming.")
@click.option("--no-http", is_flag=True, help="Serve only Wyoming (needs --wyoming-port).")
@click.option("--wyoming-temperature", type=click.FloatRange(0), default=None,
              help="Sampling temperature of Wyoming requests, which carry none (0 = greedy). Default: the model's.")
@click.option("--wyoming-max-new-tokens", type=click.IntRange(1), default=None,
              help="Frame cap of Wyoming requests (12 per second). Default: from the text's length.")
@click.option("--wyoming-no-guard", is_flag=True, help="Turn the runaway guard off for Wyoming requests, which "
              "carry no settings (HTTP and WebSocket requests send guard false). See docs/server.md#runaway-guard.")
@click.option("--wyoming-normalize/--wyoming-no-normalize", default=True, show_default=True,
              help="Numbers, dates and symbols of Wyoming texts said as words; off: read as written (Wyoming requests "
                   "carry no settings; HTTP and WebSocket send normalize false).")
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
@click.option("--asr", default=None, help="A speech recognizer (Qwen3-ASR: hub id, e.g. Qwen/Qwen3-ASR-0.6B, or "
              "folder): a clip to clone without ref_text is transcribed; requests may ask for \"check\". Default: none.")
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="info", show_default=True)
@click.version_option(__version__, "-V", "--version", prog_name="mlx_qwen3tts.server")
def main(**params):
    """Serve Qwen3-TTS over HTTP (OpenAI's /v1/audio/speech) and WebSocket, with a page at /."""
    with cli_errors():
        serve(Startup.from_click(params))


@dataclass(frozen=True)
class Http:
    """Where and for whom HTTP is served: the address, the key, the browser origins and Host names allowed,
    and what is open without the key."""

    served: bool  # not --no-http
    host: str
    port: int
    api_key: Optional[str]
    insecure: bool
    cors: tuple
    allow_host: tuple
    public_listings: bool
    public_metrics: bool


@dataclass(frozen=True)
class Capacity:
    """How much the engine takes: requests at once, waiting, in one batch POST; prefill per step; text length;
    and the WebSocket sessions: how many, and how long their text may pause before what is held is spoken, an
    utterance ends, a session closes."""

    max_active: int
    max_queue: int
    max_batch: int
    prefill_budget: Optional[int]
    max_input_chars: int
    ws_max_sessions: int = 40
    ws_pause: float = 0.5
    ws_idle: float = 30.0
    ws_session_idle: float = 300.0


@dataclass(frozen=True)
class Wyoming:
    """The Wyoming server beside HTTP: its address, the settings its requests cannot carry, and the name
    announced by zeroconf (None: not announced)."""

    host: str
    port: int
    temperature: Optional[float]
    max_new_tokens: Optional[int]
    idle_timeout: float
    announced: Optional[str]
    guard: bool = True  # the runaway guard on its requests (--wyoming-no-guard: off)
    normalize: bool = True  # numbers and symbols said as words (--wyoming-no-normalize: off)


@dataclass(frozen=True)
class Startup:
    """The server's start-up as the command line asked for it, checked before anything loads."""

    model: str
    dtype: Optional[str]
    voices_dir: Optional[str]
    lexicon: Optional[str]
    log_level: str
    http: Http
    capacity: Capacity
    wyoming: Optional[Wyoming]  # None: no --wyoming-port
    aligner: Optional[str] = None  # word timestamps from this Qwen3-ForcedAligner (None: none)
    aligner_bits: Optional[int] = None  # its decoder quantized as it loads (None: as stored)
    asr: Optional[str] = None  # a speech recognizer (Qwen3-ASR): clips cloned without transcripts, "check"

    @classmethod
    def from_click(cls, p: dict) -> "Startup":
        max_batch = p["max_batch"]
        if max_batch is None:
            max_batch = min(DEFAULT_MAX_BATCH, p["max_active"] + p["max_queue"])
        if max_batch > p["max_active"] + p["max_queue"]:  # such a batch could never be taken
            raise InputError(f"--max-batch {max_batch} is more than the engine holds (--max-active {p['max_active']} "
                             f"+ --max-queue {p['max_queue']}); lower it or raise those")
        if p["no_http"] and p["wyoming_port"] is None:
            raise InputError("--no-http leaves nothing to serve: give --wyoming-port PORT")
        if p["aligner_bits"] is not None and p["aligner"] is None:
            raise InputError("--aligner-bits applies to --aligner; give --aligner MODEL")
        if not p["no_http"]:
            check_exposure(p["host"], p["api_key"], p["insecure"])
        wyoming = None
        if p["wyoming_port"] is not None:
            check_wyoming_exposure(p["wyoming_host"], p["insecure"])
            wyoming = Wyoming(p["wyoming_host"], p["wyoming_port"], p["wyoming_temperature"],
                              p["wyoming_max_new_tokens"], p["wyoming_idle_timeout"],
                              announced_name(p["wyoming_host"], p["no_zeroconf"], p["zeroconf_name"]),
                              not p["wyoming_no_guard"], p["wyoming_normalize"])
        http = Http(not p["no_http"], p["host"], p["port"], p["api_key"], p["insecure"], p["cors"], p["allow_host"],
                    p["public_listings"], p["public_metrics"])
        capacity = Capacity(p["max_active"], p["max_queue"], max_batch, p["prefill_budget"], p["max_input_chars"],
                            p["ws_max_sessions"] or p["max_active"] + p["max_queue"], p["ws_pause"],
                            p["ws_idle_timeout"], p["ws_session_idle_timeout"])
        return cls(p["model"], p["dtype"], p["voices_dir"], p["lexicon"], p["log_level"], http, capacity, wyoming,
                   p["aligner"], int(p["aligner_bits"]) if p["aligner_bits"] else None, p["asr"])


def serve(startup: Startup):
    """What can fail at once does first, each failure one line: the server's modules, the lexicon, the ports;
    then the model loads, and the server runs until stopped."""
    try:
        import uvicorn

        from . import app

        if startup.wyoming is not None:
            from . import wyoming
    except ImportError as e:
        raise InputError(f"the server needs its extra: pip install -e '.[server]' in the checkout, or the wheel with [server] ({e})") from None
    respellings = None
    if startup.lexicon is not None:  # read before anything loads: a bad file is one line naming its line
        from ..text.lexicon import read_lexicon

        respellings = read_lexicon(Path(startup.lexicon).expanduser())
    http, w = startup.http, startup.wyoming
    listener = bind(http.host, http.port) if http.served else None
    if w is not None:  # only a probe: wyoming.py binds its own; a taken port is said here, at once
        bind(w.host, w.port, "--wyoming-port").close()
    logging.basicConfig(level=startup.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    tts, engine, server = _loaded(startup, respellings, app.Server)
    wyoming_server = None
    if w is not None:  # with --no-http, it serves here until stopped
        wyoming_server = wyoming.start(server, w.host, w.port, alone=not http.served, temperature=w.temperature,
                                       max_new_tokens=w.max_new_tokens, idle_seconds=w.idle_timeout,
                                       zeroconf_name=w.announced, guard=w.guard, normalize=w.normalize)
    names = [*app.LOOPBACK_NAMES, *app.CONTAINER_HOST_NAMES, *http.allow_host]
    served = app.create_app(server, cors=http.cors, trusted_hosts=names if is_loopback(http.host) else None,
                            public_listings=http.public_listings, public_metrics=http.public_metrics)
    shown = f"[{http.host}]" if ":" in http.host else http.host
    port = listener.getsockname()[1] if listener is not None else http.port  # --port 0: the one the system chose
    click.echo(f"mlx_qwen3tts server: {server.model_id} ({tts.facts.name}) on http://{shown}:{port}"
               f"{'  (API key required)' if http.api_key else ''}", err=True)
    try:
        # The protocol takes messages past the sessions' limit, so a session answers one with an error event.
        size = 4 * server.limits.max_ws_message_bytes
        config = uvicorn.Config(served, log_level=startup.log_level, ws_max_size=size, timeout_graceful_shutdown=5)
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        if wyoming_server is not None:
            wyoming_server.close()
        engine.close()
        server.close()


def _loaded(startup: Startup, respellings, server_class):
    """The model, its engine and the server's state over them."""
    import mlx.core as mx

    from .. import load
    from ..tts import warm_up
    from .limits import Limits
    from .voice_store import VoiceStore, default_voices_dir

    capacity = startup.capacity
    tts = load(startup.model, dtype=getattr(mx, startup.dtype) if startup.dtype else None, asr=startup.asr)
    aligner = None
    if startup.aligner is not None:
        from ..aligner import load as load_aligner

        aligner = load_aligner(startup.aligner, bits=startup.aligner_bits)
    limits = Limits(max_input_chars=capacity.max_input_chars, max_ws_sessions=capacity.ws_max_sessions,
                    ws_pause_seconds=capacity.ws_pause, ws_idle_seconds=capacity.ws_idle,
                    ws_session_idle_seconds=capacity.ws_session_idle)
    engine = tts.engine(max_active=capacity.max_active, max_queue=capacity.max_queue,
                        prefill_budget=capacity.prefill_budget)
    folder = Path(startup.voices_dir).expanduser() if startup.voices_dir else default_voices_dir()
    voices = VoiceStore(tts.facts, tts.tokenizer, folder, limits)
    server = server_class(tts, engine, model_id(startup.model), voices, limits, startup.http.api_key,
                          capacity.max_active, capacity.max_queue, capacity.max_batch, lexicon=respellings,
                          aligner=aligner)
    # Before the server listens (and /health answers): on the thread that clones uploaded and ref_audio voices.
    server.mlx_thread.submit(warm_up, tts, engine).result()
    return tts, engine, server


if __name__ == "__main__":
    sys.exit(main())
