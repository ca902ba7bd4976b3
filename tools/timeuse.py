#!/usr/bin/env python3
"""How each engine spends its clock, from match PGNs.

Reads the `{score/depth time}` comments fastchess and cutechess write after
each move (through `games` of tools/analysis/pgngap.py) and the `TimeControl`
tag (`base+inc` in seconds). For every engine, prints the mean thinking time
of its 1st-10th, 11th-20th, ... move after the opening, and the mean clock it
had left when a game of 40 moves or more (its own) ended. An engine that ends
long games with much of its clock unused, while its opponent spends more
early, plans too little per move.

    python3 tools/timeuse.py eth_noob.pgn

Pure Python, no python-chess needed.
"""

import argparse
import os
import statistics as st
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analysis.pgngap import games  # noqa: E402  (tools/analysis/pgngap.py: the comment parser)

BUCKET = 10
LAST_BUCKET = 6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--min-moves", type=int, default=40, help="games of at least this many own moves count for the clock left")
    args = ap.parse_args()
    per_move = defaultdict(lambda: defaultdict(list))
    left = defaultdict(list)
    text = "".join(open(f, encoding="utf-8", errors="replace").read() for f in args.pgn)
    for tags, moves in games(text):
        names = [tags["White"] or "?", tags["Black"] or "?"]
        base, _, inc = (tags["TimeControl"] or "0+0").partition("+")
        try:
            base, inc = float(base), float(inc or 0)
        except ValueError:
            base, inc = 0.0, 0.0
        for side in (0, 1):
            own = [t for mover, _, _, t in moves if mover == side]
            name = names[side]
            for i, t in enumerate(own):
                per_move[name][min(i // BUCKET, LAST_BUCKET)].append(t)
            if base > 0 and len(own) >= args.min_moves:
                left[name].append(base + inc * len(own) - sum(own))
    for name in sorted(per_move):
        cols = []
        for b, ts in sorted(per_move[name].items()):
            label = f"{b * BUCKET + 1}-{b * BUCKET + BUCKET}" if b < LAST_BUCKET else f"{b * BUCKET + 1}+"
            cols.append(f"{label}: {st.mean(ts):.3f}s")
        print(f"{name}: mean seconds per move by its move number after the opening")
        print("  " + ", ".join(cols))
        if left[name]:
            n, ls = len(left[name]), left[name]
            print(f"  clock left at the end of {n} games of {args.min_moves}+ moves: mean {st.mean(ls):.2f}s, median {st.median(ls):.2f}s")


if __name__ == "__main__":
    main()
