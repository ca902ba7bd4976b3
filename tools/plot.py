#!/usr/bin/env python3
"""Pictures for Tetrad's record, as SVG, with nothing but the Python 3 standard library.

Usage (from anywhere; relative paths are taken from the current directory):

    python3 tools/plot.py strength [INDEX.csv [OUT.svg]]
        Elo by network generation against Ethereal 12 and against Stockfish 11, with
        95% error bars, from the results index (default docs/results/index.csv) into
        OUT (default docs/strength.svg). A point is a network measured at 10+0.1 on
        book_noob_3moves (the noob6k sample or the whole file); where a network was
        measured more than once against an opponent, its latest row counts.

    python3 tools/plot.py loss LOSS.csv OUT.svg
        A training loss log, CSV with the header `epoch,batch,train_loss,val_loss`
        (val_loss may be empty on rows where it was not measured): the training loss
        as a line and the validation loss as points joined by a line, against the
        batch count, with the epochs marked. `batch` may count from the start of the
        run or from the start of each epoch; both are drawn on one running axis.

Nothing is installed: open the SVG in a browser, or turn it into PNG with, for
example, `rsvg-convert -o strength.png docs/strength.svg`.
"""

import csv
import math
import os
import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_INDEX = ROOT / "docs" / "results" / "index.csv"
DEFAULT_STRENGTH = ROOT / "docs" / "strength.svg"

# The strength picture's selection of index rows.
OPPONENTS = [("Ethereal 12", "#1f6fb4", "circle"), ("Stockfish 11", "#c8322b", "square")]
TIME_CONTROL = "10+0.1"
BOOKS = {"noob6k", "book_noob_3moves"}
NETWORK = re.compile(r"^gen(\d+)([a-z0-9]*)$")

FONT = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""


def nice_ticks(lo, hi, count=6):
    """Round tick values covering [lo, hi], about `count` of them."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(count - 1, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    last = math.ceil(hi / step) * step
    ticks = []
    t = first
    while t <= last + step / 1000:
        ticks.append(round(t, 10))
        t += step
    return ticks


def fmt_tick(v):
    if abs(v - round(v)) < 1e-9:
        return f"{int(round(v)):+d}" if v else "0"
    return f"{v:g}"


class Svg:
    """A little SVG writer: shapes appended as text, written at the end."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.parts = []

    def add(self, s):
        self.parts.append(s)

    def text(self, x, y, s, size=13, anchor="start", weight="normal", fill="#222", rotate=None):
        tr = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate is not None else ""
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}" {FONT}{tr}>{escape(s)}</text>'
        )

    def line(self, x1, y1, x2, y2, stroke="#222", width=1.0, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" stroke-width="{width}"{d}/>'
        )

    def polyline(self, pts, stroke, width=1.5, dash=None):
        if len(pts) < 2:
            return
        d = f' stroke-dasharray="{dash}"' if dash else ""
        p = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        self.add(f'<polyline points="{p}" fill="none" stroke="{stroke}" stroke-width="{width}"{d}/>')

    def marker(self, x, y, shape, fill, r=5.0):
        if shape == "square":
            self.add(
                f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" fill="{fill}" '
                f'stroke="white" stroke-width="1"/>'
            )
        else:
            self.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="white" stroke-width="1"/>')

    def write(self, path):
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}">\n'
            f'<rect width="{self.width}" height="{self.height}" fill="white"/>\n'
        )
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(head + "\n".join(self.parts) + "\n</svg>\n", encoding="utf-8")


class Frame:
    """The plotting area inside an Svg, with linear scales."""

    def __init__(self, svg, left, top, right, bottom, xlo, xhi, ylo, yhi):
        self.svg = svg
        self.x0, self.y0 = left, top
        self.x1, self.y1 = svg.width - right, svg.height - bottom
        self.xlo, self.xhi, self.ylo, self.yhi = xlo, xhi, ylo, yhi

    def x(self, v):
        return self.x0 + (v - self.xlo) / (self.xhi - self.xlo) * (self.x1 - self.x0)

    def y(self, v):
        return self.y1 - (v - self.ylo) / (self.yhi - self.ylo) * (self.y1 - self.y0)

    def y_axis(self, ticks, label, fmt=fmt_tick):
        s = self.svg
        for t in ticks:
            yy = self.y(t)
            s.line(self.x0, yy, self.x1, yy, stroke="#e3e3e3")
            s.line(self.x0 - 5, yy, self.x0, yy)
            s.text(self.x0 - 8, yy + 4, fmt(t), size=12, anchor="end")
        s.line(self.x0, self.y0, self.x0, self.y1)
        s.text(18, (self.y0 + self.y1) / 2, label, size=13, anchor="middle", rotate=-90)

    def box(self):
        s = self.svg
        s.line(self.x0, self.y1, self.x1, self.y1)
        s.line(self.x1, self.y0, self.x1, self.y1, stroke="#bbb")
        s.line(self.x0, self.y0, self.x1, self.y0, stroke="#bbb")


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def strength(index=DEFAULT_INDEX, out=DEFAULT_STRENGTH):
    rows = read_csv(index)
    points = {}  # (opponent, network) -> (date, row number, elo, error, games)
    for n, r in enumerate(rows):
        if r["tc"] != TIME_CONTROL or r["book"] not in BOOKS or not r["elo"] or not r["error"]:
            continue
        if r["opponent"] not in dict((o, c) for o, c, _ in OPPONENTS) or not NETWORK.match(r["network"]):
            continue
        key = (r["opponent"], r["network"])
        cand = (r["date"], n, float(r["elo"]), float(r["error"]), r["games"], r["build"])
        if key not in points or cand[:2] > points[key][:2]:
            points[key] = cand
    if not points:
        sys.exit(f"plot.py: no rows at {TIME_CONTROL} on {sorted(BOOKS)} against {[o for o, _, _ in OPPONENTS]} in {index}")

    def gen_key(net):
        m = NETWORK.match(net)
        return (int(m.group(1)), m.group(2))

    nets = sorted({net for _, net in points}, key=gen_key)
    lo = min(p[2] - p[3] for p in points.values())
    hi = max(p[2] + p[3] for p in points.values())
    ticks = nice_ticks(min(lo, 0.0), max(hi, 0.0), 9)

    svg = Svg(960, 560)
    fr = Frame(svg, 78, 70, 30, 92, -0.6, len(nets) - 0.4, ticks[0], ticks[-1])
    svg.text(svg.width / 2, 28, "Tetrad by network generation", size=18, anchor="middle", weight="bold")
    svg.text(
        svg.width / 2,
        50,
        f"Elo with 95% error bars; {TIME_CONTROL}, one thread, 16 MiB, book_noob_3moves openings; "
        "the latest build with each network",
        size=12,
        anchor="middle",
        fill="#555",
    )
    fr.y_axis(ticks, "Elo against the opponent")
    svg.line(fr.x0, fr.y(0), fr.x1, fr.y(0), stroke="#888", width=1.2, dash="5,4")
    for i, net in enumerate(nets):
        xx = fr.x(i)
        svg.line(xx, fr.y1, xx, fr.y1 + 5)
        svg.text(xx, fr.y1 + 20, net, size=12, anchor="middle")
    svg.text((fr.x0 + fr.x1) / 2, fr.y1 + 44, "network generation (the built-in network of the build played)", size=13,
             anchor="middle")
    fr.box()

    offset = {o: (k - (len(OPPONENTS) - 1) / 2) * 0.12 for k, (o, _, _) in enumerate(OPPONENTS)}
    for opp, colour, shape in OPPONENTS:
        series = [(i, points[(opp, net)]) for i, net in enumerate(nets) if (opp, net) in points]
        pts = [(fr.x(i + offset[opp]), fr.y(p[2])) for i, p in series]
        svg.polyline(pts, colour, width=1.3, dash="2,3")
        for (i, p), (xx, yy) in zip(series, pts):
            top, bot = fr.y(p[2] + p[3]), fr.y(p[2] - p[3])
            svg.line(xx, top, xx, bot, stroke=colour, width=1.4)
            svg.line(xx - 4, top, xx + 4, top, stroke=colour, width=1.4)
            svg.line(xx - 4, bot, xx + 4, bot, stroke=colour, width=1.4)
            svg.marker(xx, yy, shape, colour)
            label = f"{p[2]:+.0f}" if round(p[2]) else "0"
            svg.text(xx + 7, yy - 7, label, size=11, fill=colour)

    # Legend, top left, clear of the points (the first networks score lowest against both).
    lx, ly = fr.x0 + 16, fr.y0 + 22
    svg.add(
        f'<rect x="{lx - 8:.1f}" y="{ly - 16:.1f}" width="250" height="{22 * len(OPPONENTS) + 8}" fill="white" '
        f'stroke="#ccc"/>'
    )
    for k, (opp, colour, shape) in enumerate(OPPONENTS):
        yy = ly + 22 * k
        svg.line(lx, yy - 4, lx + 26, yy - 4, stroke=colour, width=1.4)
        svg.marker(lx + 13, yy - 4, shape, colour, r=4.5)
        n = sum(1 for o, _ in points if o == opp)
        svg.text(lx + 36, yy, f"against {opp} ({n} networks)", size=12)
    svg.text(fr.x0, svg.height - 12, f"Drawn by tools/plot.py from {Path(index).name}: rows with tc {TIME_CONTROL}, "
             "book noob6k or book_noob_3moves.", size=10, fill="#777")
    svg.write(out)
    return len(points)


def loss(path, out):
    rows = read_csv(path)
    need = {"epoch", "batch", "train_loss", "val_loss"}
    if not rows or not need <= set(rows[0]):
        sys.exit(f"plot.py: {path} needs the header epoch,batch,train_loss,val_loss")
    # One running x axis: where `batch` starts again with each epoch, add the epochs before it.
    xs, offset, prev_epoch, prev_batch, epoch_max = [], 0.0, None, None, 0.0
    starts = []
    for r in rows:
        ep, b = r["epoch"].strip(), float(r["batch"])
        if ep != prev_epoch:
            if prev_epoch is not None and prev_batch is not None and b < prev_batch:
                offset += epoch_max
            starts.append((ep, offset + b))
            epoch_max, prev_epoch = 0.0, ep
        epoch_max = max(epoch_max, b)
        prev_batch = b
        xs.append(offset + b)
    train = [(x, float(r["train_loss"])) for x, r in zip(xs, rows) if r["train_loss"].strip()]
    val = [(x, float(r["val_loss"])) for x, r in zip(xs, rows) if r["val_loss"].strip()]
    ys = [y for _, y in train + val]
    if not ys:
        sys.exit(f"plot.py: no loss values in {path}")
    yt = nice_ticks(min(ys), max(ys), 7)
    xt = nice_ticks(min(xs), max(xs), 8)

    svg = Svg(960, 540)
    fr = Frame(svg, 96, 60, 30, 80, xt[0], xt[-1], yt[0], yt[-1])
    svg.text(svg.width / 2, 30, f"Training loss: {Path(path).name}", size=17, anchor="middle", weight="bold")
    fr.y_axis(yt, "loss", fmt=lambda v: f"{v:.6g}")
    for t in xt:
        xx = fr.x(t)
        svg.line(xx, fr.y1, xx, fr.y1 + 5)
        svg.text(xx, fr.y1 + 20, f"{t:g}", size=12, anchor="middle")
    svg.text((fr.x0 + fr.x1) / 2, fr.y1 + 46, "batch (running count; dotted lines: epoch starts)", size=13,
             anchor="middle")
    for ep, x in starts:
        if fr.xlo <= x <= fr.xhi:
            svg.line(fr.x(x), fr.y0, fr.x(x), fr.y1, stroke="#bbb", dash="2,3")
            svg.text(fr.x(x) + 3, fr.y1 - 6, f"epoch {ep}", size=10, fill="#777")
    fr.box()
    svg.polyline([(fr.x(x), fr.y(y)) for x, y in train], "#1f6fb4", width=1.4)
    svg.polyline([(fr.x(x), fr.y(y)) for x, y in val], "#c8322b", width=1.6)
    for x, y in val:
        svg.marker(fr.x(x), fr.y(y), "circle", "#c8322b", r=4)
    lx, ly = fr.x1 - 190, fr.y0 + 22
    svg.add(f'<rect x="{lx - 8:.1f}" y="{ly - 16:.1f}" width="180" height="52" fill="white" stroke="#ccc"/>')
    svg.line(lx, ly - 4, lx + 26, ly - 4, stroke="#1f6fb4", width=1.6)
    svg.text(lx + 34, ly, f"training loss ({len(train)})", size=12)
    svg.line(lx, ly + 18, lx + 26, ly + 18, stroke="#c8322b", width=1.6)
    svg.marker(lx + 13, ly + 18, "circle", "#c8322b", r=4)
    svg.text(lx + 34, ly + 22, f"validation loss ({len(val)})", size=12)
    svg.write(out)
    return len(train), len(val)


def main(argv):
    if len(argv) >= 2 and argv[1] == "strength" and len(argv) <= 4:
        index = Path(argv[2]) if len(argv) > 2 else DEFAULT_INDEX
        out = Path(argv[3]) if len(argv) > 3 else DEFAULT_STRENGTH
        n = strength(index, out)
        print(f"{os.path.relpath(out)}: {n} points")
    elif len(argv) == 4 and argv[1] == "loss":
        t, v = loss(argv[2], argv[3])
        print(f"{os.path.relpath(argv[3])}: {t} training and {v} validation points")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
