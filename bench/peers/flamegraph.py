#!/usr/bin/env python3
"""A small flame graph renderer of our own (no third-party script): folds the stacks that
`perf script` prints and draws them as an SVG, root at the bottom, one box per frame, width
proportional to samples, the thread name as the first frame so hand-offs between threads show.

    perf script -i perf.data | bench/peers/flamegraph.py --title "send path" > out.svg
    bench/peers/flamegraph.py --folded < stacks.folded > out.svg   (one "a;b;c count" a line)
"""
import argparse
import hashlib
import html
import re
import sys
from collections import defaultdict

WIDTH = 1200
FRAME_H = 16
FONT = 11
MIN_FRACTION = 0.0005  # boxes narrower than this share of all samples are left out


def fold_perf_script(lines):
    stacks = defaultdict(int)
    header, frames = None, []

    def flush():
        if header is not None:
            path = [header] + list(reversed(frames))
            stacks[";".join(path)] += 1

    for raw in lines:
        line = raw.rstrip("\n")
        if not line.strip():
            flush()
            header, frames = None, []
            continue
        if not line.startswith((" ", "\t")):
            flush()
            frames = []
            # "comm  pid/tid [cpu] time: period event:" -> thread name
            header = re.split(r"\s+\d+(/\d+)?\s", line.strip(), maxsplit=1)[0] or "?"
            continue
        parts = line.strip().split(None, 1)
        if len(parts) < 2:
            continue
        sym = parts[1]
        sym = re.sub(r"\s+\(.*\)$", "", sym)          # drop " (dso)"
        sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)      # drop offset
        if sym in ("[unknown]", ""):
            dso = re.search(r"\(([^)]*)\)$", line)
            sym = "[" + (dso.group(1).rsplit("/", 1)[-1] if dso else "unknown") + "]"
        frames.append(sym)
    flush()
    return stacks


def read_folded(lines):
    stacks = defaultdict(int)
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            continue
        path, _, count = line.rpartition(" ")
        stacks[path] += int(count)
    return stacks


def build_tree(stacks):
    root = {"name": "all", "value": 0, "children": {}}
    for path, count in stacks.items():
        root["value"] += count
        node = root
        for name in path.split(";"):
            child = node["children"].get(name)
            if child is None:
                child = node["children"][name] = {"name": name, "value": 0, "children": {}}
            child["value"] += count
            node = child
    return root


def color(name):
    h = int(hashlib.md5(name.encode()).hexdigest()[:6], 16)
    if name.startswith("[") or "kernel" in name:
        return f"rgb({200 + h % 55},{120 + (h >> 8) % 60},{60 + (h >> 16) % 40})"
    return f"rgb({225 + h % 30},{80 + (h >> 8) % 120},{40 + (h >> 16) % 40})"


def depth_of(node):
    return 1 + max((depth_of(c) for c in node["children"].values()), default=0)


def render(root, title, out):
    total = root["value"] or 1
    depth = depth_of(root)
    height = (depth + 3) * FRAME_H + 20
    out.write(f'<?xml version="1.0" standalone="no"?>\n<svg version="1.1" width="{WIDTH}" height="{height}" '
              f'xmlns="http://www.w3.org/2000/svg" font-family="monospace" font-size="{FONT}">\n')
    out.write(f'<rect width="100%" height="100%" fill="#f8f8f8"/>\n')
    out.write(f'<text x="{WIDTH / 2}" y="16" text-anchor="middle" font-size="14">{html.escape(title)} '
              f'({total} samples)</text>\n')
    scale = (WIDTH - 20) / total

    def draw(node, x, level):
        w = node["value"] * scale
        if node["value"] / total < MIN_FRACTION:
            return
        y = height - (level + 1) * FRAME_H - 10
        pct = 100.0 * node["value"] / total
        label = html.escape(node["name"])
        out.write(f'<g><title>{label} ({node["value"]} samples, {pct:.2f}%)</title>'
                  f'<rect x="{x:.1f}" y="{y}" width="{max(w - 0.5, 0.1):.1f}" height="{FRAME_H - 1}" '
                  f'fill="{color(node["name"])}" rx="2"/>')
        chars = int(w / (FONT * 0.6))
        if chars >= 3:
            text = node["name"] if len(node["name"]) <= chars else node["name"][: chars - 2] + ".."
            out.write(f'<text x="{x + 3:.1f}" y="{y + FRAME_H - 4}">{html.escape(text)}</text>')
        out.write("</g>\n")
        cx = x
        for child in sorted(node["children"].values(), key=lambda c: c["name"]):
            draw(child, cx, level + 1)
            cx += child["value"] * scale

    draw(root, 10, 0)
    out.write("</svg>\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--title", default="flame graph")
    ap.add_argument("--folded", action="store_true", help="input is already folded")
    ap.add_argument("--fold-only", action="store_true", help="print folded stacks instead of SVG")
    a = ap.parse_args()
    stacks = read_folded(sys.stdin) if a.folded else fold_perf_script(sys.stdin)
    if a.fold_only:
        for path, count in sorted(stacks.items()):
            print(f"{path} {count}")
        return
    render(build_tree(stacks), a.title, sys.stdout)


if __name__ == "__main__":
    main()
