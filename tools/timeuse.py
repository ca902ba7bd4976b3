#!/usr/bin/env python3
"""How each engine spends its clock, from match PGNs.

Reads the `{score/depth time}` comments fastchess and cutechess write after
each move and the `TimeControl` tag (`base+inc` in seconds). For every
engine, prints the mean thinking time of its 1st-10th, 11th-20th, ... move
after the opening, and the mean clock it had left when a game of 40 moves or
more (its own) ended. An engine that ends long games with much of its clock
unused, while its opponent spends more early, plans too little per move.

    python3 tools/timeuse.py eth_noob.pgn

Pure Python, no python-chess needed.
"""

import argparse
import re
import statistics as st
from collections import defaultdict

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
TIME = re.compile(r"\{[^}]*?([\d.]+)s[ }]")
BUCKET = 10
LAST_BUCKET = 6


def games(paths):
    """Yields (tags, [seconds of each move, in order]) per game."""
    for path in paths:
        tags, moves = {}, []
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = TAG.match(line)
                if m:
                    if moves:
                        yield tags, moves
                        tags, moves = {}, []
                    tags[m.group(1)] = m.group(2)
                else:
                    moves += [float(t) for t in TIME.findall(line)]
        if moves:
            yield tags, moves


def first_mover(tags):
    """Which side made the first move of the game text (a FEN may start with black)."""
    fen = tags.get("FEN", "")
    return 1 if fen.split(" ")[1:2] == ["b"] else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    per_move = defaultdict(lambda: defaultdict(list))
    left = defaultdict(list)
    for tags, moves in games(args.pgn):
        names = [tags.get("White", "?"), tags.get("Black", "?")]
        base, _, inc = tags.get("TimeControl", "0+0").partition("+")
        try:
            base, inc = float(base), float(inc or 0)
        except ValueError:
            base, inc = 0.0, 0.0
        start = first_mover(tags)
        for side in (0, 1):
            own = moves[(side - start) % 2 :: 2]
            name = names[side]
            for i, t in enumerate(own):
                per_move[name][min(i // BUCKET, LAST_BUCKET)].append(t)
            if base > 0 and len(own) >= 40:
                left[name].append(base + inc * len(own) - sum(own))
    for name in sorted(per_move):
        cols = []
        for b, ts in sorted(per_move[name].items()):
            label = f"{b * BUCKET + 1}-{b * BUCKET + BUCKET}" if b < LAST_BUCKET else f"{b * BUCKET + 1}+"
            cols.append(f"{label}: {st.mean(ts):.3f}s")
        print(f"{name}: mean seconds per move by its move number after the opening")
        print("  " + ", ".join(cols))
        if left[name]:
            print(f"  clock left at the end of {len(left[name])} games of 40+ moves: mean {st.mean(left[name]):.2f}s")


if __name__ == "__main__":
    main()
