"""Load test of a running server: N clients for T seconds, streaming POST /v1/audio/speech.

    python benchmarks/load.py --url http://127.0.0.1:8000 --clients 8 --seconds 60
    python benchmarks/load.py --model PATH --clients 8 --seconds 60   # starts its own server

Each client sends one request after the other (streamed pcm) until the time is up; reported:
requests, errors (by status), throughput (requests/s and seconds of audio per second), latency
p50/p95 to the first audio byte and to the end. Only loopback addresses are accepted, and both
the clients and the duration are bounded.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx

MAX_CLIENTS, MAX_SECONDS = 64, 900
TEXTS = [
    "The quick brown fox jumps over the lazy dog.",
    "Local speech synthesis keeps your words on your own machine.",
    "Please remember to water the plants before you leave on Friday.",
    "Streaming audio starts playing while the rest is still being generated.",
]


def percentile(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def client_loop(url, key, body, deadline, results, lock):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    with httpx.Client(base_url=url, headers=headers, timeout=120) as http:
        i = 0
        while time.monotonic() < deadline:
            start = time.monotonic()
            first, size, status = None, 0, None
            try:
                with http.stream("POST", "/v1/audio/speech", json={**body, "input": TEXTS[i % len(TEXTS)]}) as r:
                    status = r.status_code
                    for chunk in r.iter_bytes():
                        if first is None:
                            first = time.monotonic() - start
                        size += len(chunk)
            except httpx.HTTPError as e:
                status = type(e).__name__
            with lock:
                results.append({"status": status, "first": first, "total": time.monotonic() - start,
                                "audio_s": size / 2 / 24000})
            i += 1
            if status == 429:
                time.sleep(0.5)


def start_server(model, port):
    cmd = [sys.executable, "-m", "mlx_qwen3tts.server", "--model", model, "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.5)
    proc.terminate()
    raise SystemExit("the server did not start")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--model", help="start a server for this model on --port (stopped at the end)")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--api-key", default=os.environ.get("MLX_QWEN3TTS_API_KEY"))
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--voice", default=None)
    p.add_argument("--max-new-tokens", type=int, default=None, help="cap each request (frames)")
    p.add_argument("--temperature", type=float, default=None)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = p.parse_args()
    if not 1 <= args.clients <= MAX_CLIENTS or not 0 < args.seconds <= MAX_SECONDS:
        raise SystemExit(f"--clients must be 1-{MAX_CLIENTS} and --seconds at most {MAX_SECONDS}")
    proc = None
    if args.model:
        proc, url = start_server(args.model, args.port)
    else:
        url = args.url.rstrip("/")
    host = urlparse(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("load tests only target this machine (127.0.0.1 / localhost)")
    body = {"model": "tts-1", "response_format": "pcm", "stream_format": "audio"}
    body.update({k: v for k, v in (("voice", args.voice), ("max_new_tokens", args.max_new_tokens),
                                   ("temperature", args.temperature)) if v is not None})
    results, lock = [], threading.Lock()
    try:
        start = time.monotonic()
        deadline = start + args.seconds
        threads = [threading.Thread(target=client_loop, args=(url, args.api_key, body, deadline, results, lock))
                   for _ in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.seconds + 300)
        wall = time.monotonic() - start
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(30)
    ok = [r for r in results if r["status"] == 200]
    errors = {}
    for r in results:
        if r["status"] != 200:
            errors[str(r["status"])] = errors.get(str(r["status"]), 0) + 1
    summary = {
        "clients": args.clients, "seconds": round(wall, 1), "requests": len(results), "ok": len(ok), "errors": errors,
        "requests_per_s": round(len(ok) / wall, 3),
        "audio_s_per_s": round(sum(r["audio_s"] for r in ok) / wall, 3),
        "first_byte_p50_s": round(percentile([r["first"] for r in ok if r["first"] is not None], 0.5), 3),
        "first_byte_p95_s": round(percentile([r["first"] for r in ok if r["first"] is not None], 0.95), 3),
        "latency_p50_s": round(percentile([r["total"] for r in ok], 0.5), 3),
        "latency_p95_s": round(percentile([r["total"] for r in ok], 0.95), 3),
        "mean_audio_s": round(statistics.mean([r["audio_s"] for r in ok]), 3) if ok else 0.0,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:>18}: {value}")


if __name__ == "__main__":
    main()
