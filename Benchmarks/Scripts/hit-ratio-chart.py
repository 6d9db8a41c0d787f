#!/usr/bin/env python3
"""Draws the hit-ratio table as an SVG chart: one panel per trace, hit ratio
against cache size for LRU, W-TinyLFU (1 % window), adaptive W-TinyLFU and OPT.

    Benchmarks/hit-ratio-table.sh --synthetic /tmp/syn ../shared/traces > /tmp/table.md
    python3 Benchmarks/Scripts/hit-ratio-chart.py /tmp/table.md Benchmarks/hit-ratios.svg

Reads the Markdown that hit-ratio-table.sh prints (seed 0); needs nothing but Python.
The picture stays outside the package's target folders (SwiftPM refuses unknown files there).
"""

import sys
from collections import OrderedDict
from xml.sax.saxutils import escape

SERIES = [  # column in the table, label, colour, dash pattern
    (2, "LRU", "#d62728", ""),
    (3, "W-TinyLFU (1 % window)", "#1f77b4", ""),
    (4, "adaptive W-TinyLFU", "#2ca02c", ""),
    (5, "OPT", "#555555", "4 3"),
]
PANEL_W, PANEL_H = 230, 150
MARGIN_L, MARGIN_T, MARGIN_B = 38, 26, 30
COLUMNS = 4


def parse(path):
    """Returns {(section, trace): [(size, [values...])]} in table order."""
    panels = OrderedDict()
    section = "shared"
    with open(path, encoding="utf-8") as table:
        for line in table:
            line = line.strip()
            if line.startswith("### "):
                section = "unseen" if "synthetic" in line else "shared"
                continue
            if not line.startswith("|") or line.startswith("|---") or "LRU %" in line:
                continue
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            try:
                size = int(cells[1])
                values = [float(cells[column]) for column, _, _, _ in SERIES]
            except (IndexError, ValueError):
                continue
            panels.setdefault((section, cells[0]), []).append((size, values))
    return panels


def panel(x0, y0, title, rows):
    """The SVG of one panel whose top-left corner is (x0, y0)."""
    width = PANEL_W - MARGIN_L - 22
    height = PANEL_H - MARGIN_T - MARGIN_B
    left, top = x0 + MARGIN_L, y0 + MARGIN_T
    rows = sorted(rows)
    count = len(rows)

    def x(index):
        return left + (width * index / (count - 1) if count > 1 else width / 2)

    def y(percent):
        return top + height * (1 - percent / 100)

    parts = [
        f'<text x="{left + width / 2}" y="{y0 + 16}" text-anchor="middle" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" '
        'fill="none" stroke="#bbbbbb"/>',
    ]
    for percent in (0, 50, 100):
        parts.append(
            f'<text x="{left - 4}" y="{y(percent) + 4}" text-anchor="end" '
            f'fill="#666666">{percent}</text>')
        if percent == 50:
            parts.append(
                f'<line x1="{left}" y1="{y(50)}" x2="{left + width}" y2="{y(50)}" '
                'stroke="#eeeeee"/>')
    for index, (size, _) in enumerate(rows):
        parts.append(
            f'<text x="{x(index)}" y="{top + height + 14}" text-anchor="middle" '
            f'fill="#666666">{size}</text>')
    for series, (_, _, colour, dash) in enumerate(SERIES):
        points = [(x(index), y(values[series])) for index, (_, values) in enumerate(rows)]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" '
                f'stroke-width="1.6"{dashes}/>')
        for px, py in points:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="2.2" fill="{colour}"/>')
    return parts


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: hit-ratio-chart.py TABLE.md OUT.svg")
    panels = parse(sys.argv[1])
    if not panels:
        sys.exit(f"hit-ratio-chart.py: no rows in {sys.argv[1]}")
    rows_of_panels = (len(panels) + COLUMNS - 1) // COLUMNS
    legend_h = 34
    total_w = COLUMNS * PANEL_W
    total_h = rows_of_panels * PANEL_H + legend_h + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
        f'viewBox="0 0 {total_w} {total_h}" font-family="sans-serif" font-size="10">',
        f'<rect width="{total_w}" height="{total_h}" fill="white"/>',
    ]
    x = 10
    for _, label, colour, dash in SERIES:
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<line x1="{x}" y1="16" x2="{x + 22}" y2="16" stroke="{colour}" '
            f'stroke-width="2"{dashes}/>')
        parts.append(f'<text x="{x + 27}" y="20">{escape(label)}</text>')
        x += 40 + 6 * len(label)
    parts.append(
        f'<text x="{total_w - 10}" y="20" text-anchor="end" fill="#666666">'
        'hit ratio % against cache size (entries); unseen = synthetic traces</text>')
    for index, ((section, trace), rows) in enumerate(panels.items()):
        column, row = index % COLUMNS, index // COLUMNS
        title = trace if section == "shared" else f"{trace} (unseen)"
        parts.extend(panel(column * PANEL_W, legend_h + row * PANEL_H, title, rows))
    parts.append("</svg>")
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write("\n".join(parts) + "\n")
    print(f"{sys.argv[2]}: {len(panels)} panels")


if __name__ == "__main__":
    main()
