"""The benchmark's outputs: results.md (tables with the machine they came from), results.json, and a
plot (plot.png with matplotlib when it is installed, always plot.svg, drawn here without it).

`python -m benchmarks.report [FOLDER]` redraws results.md and the plots from FOLDER/results.json.
"""

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import mlx.core as mx

ROOT = Path(__file__).resolve().parents[1]
PARTS = [("talker", "#4e79a7"), ("code predictor", "#f28e2b"), ("other loop work", "#bab0ac")]
PEER_COLOR = "#e15759"


def commit() -> str:
    """The short hash of the checkout's HEAD ("?" outside a git checkout)."""
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    return out.stdout.strip() or "?"


def machine() -> dict:
    """Platform, chip, MLX version and device of this run."""
    chip = platform.processor() or platform.machine()
    if sys.platform == "darwin":
        out = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True)
        chip = out.stdout.strip() or chip
    elif Path("/proc/cpuinfo").exists():
        names = [l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                 if l.startswith("model name")]
        chip = names[0] if names else chip
    from mlx_qwen3tts import backend

    return {
        "platform": platform.platform(),
        "chip": chip,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "mlx": mx.__version__,
        "device": str(mx.default_device()),
        "blas": f"OpenBLAS {backend.status}" if backend.status not in (None, "not needed") else "as MLX ships",
        "gemm_gflops": round(backend.gemm_gflops(), 1),
        "commit": commit(),
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }


def _f(value, digits=1, unit=""):
    if value is None:
        return "n/a"
    return f"{value:,.{digits}f}{unit}"


def _first_chunk(row: dict) -> dict:
    """{frames: ms}; keys come back from results.json as strings."""
    return {int(k): v for k, v in row["first_chunk_ms"].items()}


def markdown(info: dict, rows: list, peers: Optional[dict], synths: Optional[list], frames: int) -> str:
    """rows: Figures dicts; peers: {label: mlx-audio dict (or {"error"})}; peers and synths None: not run
    (--no-peers), so neither their rows nor their tables are shown."""
    lines = [
        "# mlx-qwen3tts benchmark",
        "",
        f"Machine: {info['platform']}, {info['chip']} ({info['cores']} cores), MLX {info['mlx']} on "
        f"{info['device']}; BLAS: {info.get('blas', '?')} (float32 GEMM {info.get('gemm_gflops', '?')} GFLOP/s "
        f"at 256x256x256); Python {info['python']}; latest run at commit {info['commit']}, {info['date']} (each "
        "row's commit is listed: `--append` keeps earlier rows).",
        "Random weights in the released layouts (see benchmarks/checkpoints.py); sampling as released "
        "(temperature 0.9, top-k 50); frames per timed run as listed.",
        "",
        "## Generation",
        "",
        "| model | compute dtype | commit | frames | prefill ms | talker ms/frame | code predictor ms/frame | loop ms/frame "
        "| decode ms/frame | RTF | first chunk ms (1 / 4 frames) | first delta to audio ms | peak GB "
        "| host syncs/frame |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        first = _first_chunk(r)
        lines.append(
            f"| {r['label']} | {r.get('dtype') or '?'} | {r.get('commit', info['commit'])} | {r['frames']} | {_f(r['prefill_ms'])} | {_f(r['talker_ms'])} | {_f(r['cp_ms'])} "
            f"| {_f(r['loop_ms'])} | {_f(r['decode_ms'])} | {_f(r['rtf'], 2)} "
            f"| {_f(first.get(1), 0)} / {_f(first.get(4), 0)} "
            f"| {_f(r['delta_to_audio_ms'], 0)} | {_f(r['peak_gb'], 2)} | {_f(r['syncs_per_frame'], 2)} |")
    lines += [
        "",
        "talker and code predictor: one step each, run eagerly with an eval barrier (medians). loop: "
        "`TTS.frames` end to end in steady state, everything included. RTF = generation time / audio "
        "time, generation = prefill + all frames + decoding (below 1 is faster than real time). First "
        "chunk: from the `TTS.stream` call to the first audio in hand. First delta to audio: "
        "`TTS.stream_text` fed word by word. Host syncs: blocking calls (`mx.eval`, `.item()`, numpy "
        "conversions, ...) per frame in the loop's steady state, counted by wrapping them "
        "(benchmarks/syncs.py); `mx.async_eval` is not a sync.",
        "",
        "## Batch (aggregate frames per second, codes only)",
        "",
    ]
    sizes = sorted({int(b) for r in rows for b in (r["batch_fps"] or {})}) or [1, 2, 4, 8]
    lines += ["| model | frames | " + " | ".join(f"batch {b}" for b in sizes) + f" | batch {sizes[-1]} / batch 1 |",
              "|---|---|" + "---|" * (len(sizes) + 1)]
    for r in rows:
        fps = {int(k): v for k, v in (r["batch_fps"] or {}).items()}
        ratio = fps[sizes[-1]] / fps[1] if fps.get(1) and fps.get(sizes[-1]) else None
        cells = [_f(fps.get(b), 2) for b in sizes] + [_f(ratio, 2, "x")]
        lines.append(f"| {r['label']} | {r.get('batch_frames') or r['frames']} | " + " | ".join(cells) + " |")
    lines += ["", "## Side by side", "",
              "| model | system | loop ms/frame | ours vs peer | decode ms/frame | decode ours vs peer | RTF "
              "| first chunk ms | host syncs/frame | peak GB |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['label']} | mlx-qwen3tts | {_f(r['loop_ms'])} | | {_f(r['decode_ms'])} | "
                     f"| {_f(r['rtf'], 2)} | {_f(_first_chunk(r).get(1), 0)} | {_f(r['syncs_per_frame'], 2)} "
                     f"| {_f(r['peak_gb'], 2)} |")
        peer = (peers or {}).get(r["label"])
        if peer is None:
            continue
        if "error" in peer:
            lines.append(f"| {r['label']} | mlx-audio | did not run: {peer['error']} | | | | | | | |")
            continue
        ratio = r["loop_ms"] / peer["loop_ms"] if peer.get("loop_ms") else None
        decode_ratio = r["decode_ms"] / peer["decode_ms"] if peer.get("decode_ms") else None
        blas = " + OpenBLAS" if peer.get("openblas") else ""
        lines.append(f"| {r['label']} | mlx-audio {peer.get('version', '')}{blas} | {_f(peer['loop_ms'])} "
                     f"| {_f(ratio, 2, 'x')} | {_f(peer['decode_ms'])} | {_f(decode_ratio, 3, 'x')} | {_f(peer['rtf'], 2)} "
                     f"| {_f(peer['first_chunk_ms'], 0)} | {_f(peer['syncs_per_frame'], 2)} "
                     f"| {_f(peer['peak_gb'], 2)} |")
    if peers is None:
        lines += ["", "Peers were not run (--no-peers): mlx-audio, espeak-ng and Apple's synthesizer are left out."]
    else:
        lines += _peer_notes(peers, synths or [])
    notes = sorted({n for r in rows for n in r.get("notes", [])})
    if notes:
        lines += [""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def _peer_notes(peers: dict, synths: list) -> list:
    lines = []
    if not peers:
        lines.append("| | mlx-audio | not installed in this run (see --mlx-audio-python) | | | | | | | |")
    lines += ["", "mlx-audio: steady ms/frame by differencing two runs of different lengths, its decoder time "
              "subtracted (benchmarks/mlx_audio_driver.py); 'ours vs peer' = our loop ms/frame / theirs, "
              "'decode ours vs peer' = our decode ms/frame / theirs (mlx-audio runs the checkpoint's stored dtype, "
              "in its own process with MLX as shipped).",
              "", "| system | RTF | first audio ms | how |", "|---|---|---|---|"]
    for s in synths:
        lines.append(f"| {s['system']} | {_f(s['rtf'], 3)} | {_f(s['first_audio_ms'], 0)} | {s['note']} |")
    return lines


def _segments(row: dict, peer) -> list:
    """[(name, [(part, ms, color)], decode ms)] bars for one model: our loop stacked, mlx-audio's beside
    it. Decoding is left out of the bars (on a CPU it dwarfs the loop) and written beside them."""
    alone = row["talker_ms"] + row["cp_ms"]
    shrink = min(row["loop_ms"] / alone, 1.0) if alone else 1.0  # pipelining overlaps the two
    colors = dict(PARTS)
    ours = [("talker", row["talker_ms"] * shrink), ("code predictor", row["cp_ms"] * shrink),
            ("other loop work", max(row["loop_ms"] - alone, 0.0))]
    bars = [("mlx-qwen3tts", [(p, v, colors[p]) for p, v in ours], row["decode_ms"])]
    if peer and "loop_ms" in peer:
        bars.append(("mlx-audio", [("mlx-audio loop", peer["loop_ms"], PEER_COLOR)], peer["decode_ms"]))
    return bars


def svg(rows: list, peers: dict, title: str) -> str:
    """Horizontal stacked bars of loop ms per frame, one group per model, each group on its own scale."""
    width, left, right, bar_h, gap = 900, 130, 260, 18, 6
    groups = [(r["label"], _segments(r, peers.get(r["label"]))) for r in rows]
    height = 70 + sum(len(bars) * (bar_h + gap) + 28 for _, bars in groups) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="12"><rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="22" font-size="15" font-weight="bold">{_escape(title)}</text>',
           '<text x="10" y="40" fill="#555">decode loop, ms per frame (one frame = 80 ms of audio; dashed line = '
           'real time); each model on its own scale;</text>',
           '<text x="10" y="55" fill="#555">talker and code predictor in proportion to their times alone, "other" '
           '= the rest of the loop (none when pipelining overlaps them)</text>']
    y = 72
    for label, bars in groups:
        out.append(f'<text x="10" y="{y + 12}" font-weight="bold">{_escape(label)}</text>')
        y += 18
        scale_max = max(max(sum(v for _, v, _ in parts) for _, parts, _ in bars), 80.0)
        scale = (width - left - right) / scale_max
        top = y
        for name, parts, decode_ms in bars:
            out.append(f'<text x="20" y="{y + 13}">{name}</text>')
            x = left
            for part, value, color in parts:
                w = value * scale
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{color}">'
                           f'<title>{part}: {value:.1f} ms</title></rect>')
                x += w
            total = sum(v for _, v, _ in parts)
            out.append(f'<text x="{x + 5:.1f}" y="{y + 13}">{total:,.1f} ms (+ decode {decode_ms:,.0f} ms)</text>')
            y += bar_h + gap
        rt = left + 80.0 * scale
        out.append(f'<line x1="{rt:.1f}" x2="{rt:.1f}" y1="{top - 2}" y2="{y - gap + 2}" stroke="black" '
                   'stroke-dasharray="4,3"/>')
        y += 10
    x = 10
    for part, color in PARTS + [("mlx-audio loop", PEER_COLOR)]:
        out.append(f'<rect x="{x}" y="{y}" width="12" height="12" fill="{color}"/>'
                   f'<text x="{x + 16}" y="{y + 11}">{part}</text>')
        x += 30 + 7 * len(part)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def png(rows: list, peers: dict, title: str, path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    groups = [(r["label"], _segments(r, peers.get(r["label"]))) for r in rows]
    fig, axes = plt.subplots(len(groups), 1, figsize=(9, 1.2 + 1.1 * sum(len(b) for _, b in groups)), squeeze=False)
    for ax, (label, bars) in zip(axes[:, 0], groups):
        for i, (name, parts, decode_ms) in enumerate(bars):
            start = 0.0
            for part, value, color in parts:
                ax.barh(i, value, left=start, color=color, label=part)
                start += value
            ax.text(start, i, f" {start:,.1f} ms (+ decode {decode_ms:,.0f} ms)", va="center")
        ax.axvline(80.0, color="black", linestyle="--", linewidth=0.8)
        ax.set_yticks(range(len(bars)), [name for name, _, _ in bars])
        ax.invert_yaxis()
        ax.set_title(label, loc="left", fontsize=10)
    legend = {}
    for ax in axes[:, 0]:
        handles, labels = ax.get_legend_handles_labels()
        legend.update(zip(labels, handles))
    fig.legend(legend.values(), legend.keys(), loc="lower center", ncol=5, fontsize=8)
    fig.suptitle(title + " (decode loop, ms per frame; dashed = real time)")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def write(out: Path, info: dict, rows: list, peers: Optional[dict], synths: Optional[list], frames: int) -> list:
    out.mkdir(parents=True, exist_ok=True)
    title = f"mlx-qwen3tts, {info['chip']}, MLX {info['mlx']} ({info['device']})"
    (out / "results.md").write_text(markdown(info, rows, peers, synths, frames))
    (out / "results.json").write_text(json.dumps(
        {"machine": info, "frames": frames, "models": rows, "mlx_audio": peers, "synthesizers": synths}, indent=2))
    (out / "plot.svg").write_text(svg(rows, peers or {}, title))
    written = [out / "results.md", out / "results.json", out / "plot.svg"]
    if png(rows, peers or {}, title, out / "plot.png"):
        written.append(out / "plot.png")
    return written


def read(out: Path) -> dict:
    return json.loads((out / "results.json").read_text())


def rewrite(out: Path) -> list:
    """Redraw results.md and the plots of a results folder from its results.json."""
    data = read(out)
    return write(out, data["machine"], data["models"], data["mlx_audio"], data["synthesizers"], data["frames"])


if __name__ == "__main__":
    for path in rewrite(Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/results")):
        print(path)
