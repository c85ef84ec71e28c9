"""Prometheus metrics of one server, served at GET /metrics in Prometheus' text format.

Each `Metrics` has its own `CollectorRegistry` (never the library's global one), so several apps in one
process (the tests) do not collide. Nothing is counted per frame: the engine keeps one integer of frames
made (added to once a step), read at scrape time with its active and queued rows; the rest is counted per
HTTP request, per audio chunk and per session.
"""

import time
from typing import Optional

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

PREFIX = "mlx_qwen3tts"
# Seconds: first audio comes in tens of milliseconds on a fast machine, whole long texts take minutes.
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
ROUTES = ("/", "/favicon.ico", "/health", "/metrics", "/v1/models", "/v1/audio/models", "/v1/audio/voices",
          "/v1/audio/speech", "/v1/audio/speech/batch")
REASONS = ("full", "bad_input", "auth")
RUNAWAY_RULES = ("duration", "silence", "loop", "retried")  # loop/runaway.py's rules; "retried": made again


def route_of(path: str) -> str:
    """The route a path took, as a label of few values (a voice id or a mistyped path is not one)."""
    if path in ROUTES:
        return path
    if path.startswith("/v1/audio/voices/"):
        return "/v1/audio/voices/{voice_id}"
    return "/static" if path.startswith("/static/") else "other"


def refusal(status: int) -> Optional[str]:
    """Why a request with this HTTP status was refused: auth (401), full (429), bad_input (another 4xx)."""
    if status == 401:
        return "auth"
    if status == 429:
        return "full"
    return "bad_input" if 400 <= status < 500 else None


def code_refusal(code: Optional[str]) -> Optional[str]:
    """Why a WebSocket or Wyoming request with this error code was refused (None: it failed inside)."""
    if code == "engine_full":
        return "full"
    return None if code in ("internal_error", "generation_failed") else "bad_input"


class Metrics:
    def __init__(self, engine, model_id: str):
        self.registry = registry = CollectorRegistry()
        self.model_id = model_id
        self.requests = Counter(f"{PREFIX}_requests", "HTTP requests answered, by route, status and model",
                                ["route", "status", "model"], registry=registry)
        self.request_seconds = Histogram(f"{PREFIX}_request_seconds", "HTTP requests from arrival to the last byte "
                                         "of the answer, by route", ["route"], buckets=LATENCY_BUCKETS,
                                         registry=registry)
        self.first_audio_seconds = Histogram(f"{PREFIX}_first_audio_seconds", "Syntheses (HTTP, WebSocket, "
                                             "Wyoming) from submission to the engine to their first audio",
                                             buckets=LATENCY_BUCKETS, registry=registry)
        self.audio_seconds = Counter(f"{PREFIX}_audio_seconds", "Seconds of audio produced", registry=registry)
        self.refused = Counter(f"{PREFIX}_refused_requests", "Requests refused, by reason: full (the engine's rows "
                               "and queue), bad_input, auth", ["reason"], registry=registry)
        self.sessions = Counter(f"{PREFIX}_sessions", "WebSocket and Wyoming sessions opened", ["protocol"],
                                registry=registry)
        self.open_sessions = Gauge(f"{PREFIX}_open_sessions", "WebSocket and Wyoming sessions open now",
                                   ["protocol"], registry=registry)
        self.refused_sessions = Counter(f"{PREFIX}_refused_sessions", "WebSocket sessions refused at the handshake: "
                                        "the server held its most (--ws-max-sessions)", ["protocol"], registry=registry)
        self.runaways = Counter(f"{PREFIX}_runaways", "Speech that ran away (the runaway guard fired), by rule: "
                                "duration, silence, loop, or retried (it was spoken again)", ["rule"],
                                registry=registry)
        self.retries = Counter(f"{PREFIX}_runaway_retries", "Whole-audio requests spoken again after a runaway",
                               registry=registry)
        for reason in REASONS:  # every reason shown from the start, at 0
            self.refused.labels(reason)
        for protocol in ("websocket", "wyoming"):
            self.sessions.labels(protocol)
            self.open_sessions.labels(protocol)
        self.refused_sessions.labels("websocket")
        for rule in RUNAWAY_RULES:
            self.runaways.labels(rule)
        registry.register(EngineCollector(engine))

    def answered(self, route: str, status: int, seconds: float):
        self.requests.labels(route, str(status), self.model_id).inc()
        self.request_seconds.labels(route).observe(seconds)
        reason = refusal(status)
        if reason is not None:
            self.refused.labels(reason).inc()

    def refused_code(self, code: Optional[str]):
        reason = code_refusal(code)
        if reason is not None:
            self.refused.labels(reason).inc()

    def ran_away(self, handle):
        """Count what the runaway guard did to a finished request: the runaway it was spoken again after, and
        the one that ended it."""
        if getattr(handle, "retried", False):
            self.runaways.labels("retried").inc()
            self.retries.inc()
        rule = getattr(handle, "runaway", None)
        if rule:
            self.runaways.labels(rule).inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)

    content_type = CONTENT_TYPE_LATEST


class EngineCollector:
    """The engine's gauges, read when scraped: active and queued requests, frames made (a counter), and
    frames per second since the previous scrape."""

    def __init__(self, engine):
        self.engine = engine
        self.last = (time.monotonic(), engine.frames_made)

    def collect(self):
        stats, frames, now = self.engine.stats(), self.engine.frames_made, time.monotonic()
        before, self.last = self.last, (now, frames)
        active = GaugeMetricFamily(f"{PREFIX}_active_requests", "Requests holding an engine row")
        active.add_metric([], stats.get("active", 0))
        queued = GaugeMetricFamily(f"{PREFIX}_queued_requests", "Requests waiting for an engine row")
        queued.add_metric([], stats.get("queued", 0))
        made = CounterMetricFamily(f"{PREFIX}_frames", "Codec frames generated (12.5 a second of audio)")
        made.add_metric([], frames)
        rate = GaugeMetricFamily(f"{PREFIX}_frames_per_second", "Codec frames generated a second, all rows "
                                 "together, since the previous scrape")
        rate.add_metric([], (frames - before[1]) / max(now - before[0], 1e-9))
        return [active, queued, made, rate]


class Metered:
    """An engine handle whose audio is counted: the time to its first chunk, the seconds it holds, and what the
    runaway guard did to it."""

    def __init__(self, handle, metrics: Metrics):
        self._handle, self._metrics, self._start = handle, metrics, time.monotonic()

    def __getattr__(self, name):
        return getattr(self._handle, name)

    def __iter__(self):
        first = True
        for chunk in self._handle:
            if first:
                self._metrics.first_audio_seconds.observe(time.monotonic() - self._start)
                first = False
            self._metrics.audio_seconds.inc(len(chunk.samples) / chunk.sample_rate)
            yield chunk
        self._metrics.ran_away(self._handle)


class Measured:
    """ASGI middleware: each HTTP request counted by route, status and model, and timed to its last byte."""

    def __init__(self, app, metrics: Metrics):
        self.app, self.metrics = app, metrics

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start, status = time.monotonic(), [500]

        async def sending(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            self.metrics.answered(route_of(scope["path"]), status[0], time.monotonic() - start)
