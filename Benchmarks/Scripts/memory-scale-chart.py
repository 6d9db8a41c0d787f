#!/usr/bin/env python3
"""Draws the `memory.scale.get` rows as an SVG chart: ns per get hit (p50, log
scale) against the number of stored keys (log scale), one line per subject, one
panel per access pattern and key type.

    chrt -f 50 swift package --package-path Benchmarks benchmark --no-progress \\
        --filter 'memory\\.scale\\.get.*' > /tmp/scale1.txt      # as many runs as you like
    python3 Benchmarks/Scripts/memory-scale-chart.py Benchmarks/memory-scale.svg /tmp/scale*.txt

Reads the benchmark tool's text output with summarize.py's parser (each row keeps
its best run); needs nothing but Python.
"""

import math
import os
import re
import sys
from xml.sax.saxutils import escape

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import parse  # noqa: E402

GROUP = re.compile(r"^memory\.scale\.get\.(\d+)([kM])\.(uniform|zipf)\.(Int|String)$")
SUBJECTS = [  # subject, label, colour, dash pattern
    ("baseline Dictionary+Mutex", "Dictionary+Mutex", "#555555", "4 3"),
    ("baseline sharded Dictionary+Mutex", "sharded Dictionary+Mutex", "#999999", "2 2"),
    ("baseline LRU Dictionary+Mutex", "LRU Dictionary+Mutex", "#1f77b4", "6 2"),
    ("Carlos MemoryCacheLevel adaptive", "MemoryCacheLevel adaptive", "#2ca02c", ""),
    ("Carlos MemoryCacheLevel lru", "MemoryCacheLevel .lru", "#d62728", ""),
]
PANELS = [("uniform", "Int"), ("zipf", "Int"), ("uniform", "String"), ("zipf", "String")]
PANEL_W, PANEL_H = 250, 180
MARGIN_L, MARGIN_T, MARGIN_B, GAP = 46, 28, 34, 24
Y_MIN, Y_MAX = 10, 2000
X_MIN, X_MAX = 1_000, 1_000_000


def collect(paths):
    """{(access, key type): {subject: {stored keys: ns}}}, best p50 of the runs."""
    best = {}
    for path in paths:
        with open(path) as text:
            for name, figures in parse(text).items():
                if "p50" in figures and (name not in best or figures["p50"] < best[name]):
                    best[name] = figures["p50"]
    panels = {}
    for name, ns in best.items():
        group, subject = name.split(" · ", 1)
        match = GROUP.match(group)
        if not match:
            continue
        size = int(match.group(1)) * (1_000 if match.group(2) == "k" else 1_000_000)
        panels.setdefault((match.group(3), match.group(4)), {}).setdefault(subject, {})[size] = ns
    return panels


def x_of(size, left):
    span = math.log10(X_MAX) - math.log10(X_MIN)
    return left + (math.log10(size) - math.log10(X_MIN)) / span * PANEL_W


def y_of(ns, top):
    span = math.log10(Y_MAX) - math.log10(Y_MIN)
    clamped = min(max(ns, Y_MIN), Y_MAX)
    return top + PANEL_H - (math.log10(clamped) - math.log10(Y_MIN)) / span * PANEL_H


def draw(panels):
    width = MARGIN_L + 2 * (PANEL_W + MARGIN_L) + GAP
    legend_rows = (len(SUBJECTS) + 1) // 2
    height = MARGIN_T + 2 * (PANEL_H + MARGIN_T + MARGIN_B) + 18 + 16 * legend_rows
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for index, (access, key) in enumerate(PANELS):
        left = MARGIN_L + (index % 2) * (PANEL_W + MARGIN_L + GAP)
        top = MARGIN_T + (index // 2) * (PANEL_H + MARGIN_T + MARGIN_B)
        title = f"get hit, {'Zipf 0.99' if access == 'zipf' else 'uniform'}, {key} keys"
        out.append(f'<text x="{left}" y="{top - 8}" font-weight="bold">{escape(title)}</text>')
        out.append(
            f'<rect x="{left}" y="{top}" width="{PANEL_W}" height="{PANEL_H}" '
            'fill="none" stroke="#ccc"/>'
        )
        for ns in (10, 30, 100, 300, 1000):
            y = y_of(ns, top)
            out.append(f'<line x1="{left}" x2="{left + PANEL_W}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>')
            out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">{ns}</text>')
        for size, label in ((1_000, "1,000"), (10_000, "10,000"), (100_000, "100,000"), (1_000_000, "1,000,000")):
            x = x_of(size, left)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + PANEL_H}" stroke="#eee"/>')
            out.append(f'<text x="{x:.1f}" y="{top + PANEL_H + 14}" text-anchor="middle">{label}</text>')
        out.append(
            f'<text x="{left + PANEL_W / 2}" y="{top + PANEL_H + 28}" text-anchor="middle">'
            "stored keys</text>"
        )
        out.append(
            f'<text x="{left - 34}" y="{top + PANEL_H / 2}" text-anchor="middle" '
            f'transform="rotate(-90 {left - 34} {top + PANEL_H / 2})">ns per get</text>'
        )
        for subject, _, colour, dash in SUBJECTS:
            points = sorted(panels.get((access, key), {}).get(subject, {}).items())
            if not points:
                continue
            path = " ".join(f"{x_of(s, left):.1f},{y_of(ns, top):.1f}" for s, ns in points)
            dashing = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dashing}/>'
            )
            for s, ns in points:
                out.append(f'<circle cx="{x_of(s, left):.1f}" cy="{y_of(ns, top):.1f}" r="2.5" fill="{colour}"/>')
    for index, (_, label, colour, dash) in enumerate(SUBJECTS):
        x = MARGIN_L + (index % 2) * (PANEL_W + MARGIN_L + GAP)
        legend_y = height - 2 - 16 * legend_rows + (index // 2) * 16
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{x}" x2="{x + 24}" y1="{legend_y}" y2="{legend_y}" stroke="{colour}" stroke-width="2"{dashing}/>')
        out.append(f'<text x="{x + 30}" y="{legend_y + 4}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    panels = collect(sys.argv[2:])
    if not panels:
        sys.exit("no memory.scale.get rows in the input")
    with open(sys.argv[1], "w") as svg:
        svg.write(draw(panels))


if __name__ == "__main__":
    main()
