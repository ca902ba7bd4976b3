#!/usr/bin/env python3
"""Where a `datagen` run's positions go: by number of pieces, by score and by
fifty-move clock, and how many of them tighter adjudication would have saved.

Reads the 40-byte records of `shard-*.bin` (eval/src/learn/dataset.rs:
CCR, score in the network's units from White's view, flags, ep, halfmove
clock, result, full-move number). Games are rebuilt from the records' order
(a shard holds whole games, in order; a game starts where the ply count
falls). The adjudication estimates replay the recorded positions only (quiet
ones), so they count records, not searches; scores go back to the search's
units with `--search-pct` (the network's header: `tetrad net FILE`).

    python3 tools/analysis/shardstats.py ../data/gen11 --search-pct 45

Needs numpy.
"""

import argparse
import glob
import os

import numpy as np

RECORD = np.dtype(
    [("ccr", "u1", 32), ("score", "<i2"), ("flags", "u1"), ("ep", "u1"),
     ("halfmove", "u1"), ("result", "u1"), ("fullmove", "<u2")]
)
HEADER = 16
DRAW = 1  # GameResult: 0 Black won, 1 draw, 2 White won


def load(folder, limit):
    files = sorted(glob.glob(os.path.join(folder, "shard-*.bin")))[:limit]
    if not files:
        raise SystemExit(f"no shard-*.bin in {folder}")
    return np.concatenate([np.fromfile(f, dtype=RECORD, offset=HEADER) for f in files]), len(files)


def plies(recs):
    """Each record's ply from the game's start position's count (full moves and side)."""
    return recs["fullmove"].astype(np.int64) * 2 + (recs["flags"] & 1)


def game_starts(ply):
    """Indices where each game's records start, and the end."""
    return np.r_[0, np.nonzero(np.diff(ply) < 0)[0] + 1, len(ply)]


def first_run(cond, length):
    """Index of the record that completes the first run of `length` true values, or None."""
    run = 0
    for i, c in enumerate(cond):
        run = run + 1 if c else 0
        if run >= length:
            return i
    return None


def adjudication(recs, ply, starts, search, win_cp, win_plies, draw_cp, draw_plies, min_ply):
    """Records after a win (|search| >= win_cp for `plies` records) or a draw
    (|search| <= draw_cp for `draw_plies` records from `min_ply`) would have
    been called, and how many such calls the game's result contradicts."""
    saved = wrong = calls = 0
    for a, b in zip(starts[:-1], starts[1:]):
        s, result = search[a:b], recs["result"][a]
        win = first_run(np.abs(s) >= win_cp, win_plies) if win_cp else None
        draw = first_run((np.abs(s) <= draw_cp) & (ply[a:b] >= min_ply), draw_plies) if draw_cp else None
        ends = [i for i in (win, draw) if i is not None]
        if not ends:
            continue
        end = min(ends)
        calls += 1
        saved += b - a - end - 1
        if end == win:
            wrong += result != (2 if s[end] > 0 else 0)
        else:
            wrong += result != DRAW
    return saved, calls, wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--search-pct", type=float, default=45, help="the network's search percentage")
    ap.add_argument("--limit", type=int, default=100000, help="read at most this many shards")
    args = ap.parse_args()
    recs, n_files = load(args.folder, args.limit)
    ply = plies(recs)
    starts = game_starts(ply)
    score = recs["score"].astype(np.int64)
    search = score * args.search_pct / 100
    pieces = (np.stack([recs["ccr"] & 15, recs["ccr"] >> 4], -1).reshape(len(recs), 64) != 0).sum(1)
    hm = recs["halfmove"]
    print(f"{args.folder}: {n_files} shards, {len(starts) - 1} games, {len(recs)} positions")
    print("pieces  share  median |score|  |score| < 150  halfmove >= 20")
    for lo, hi in [(2, 5), (6, 9), (10, 15), (16, 21), (22, 27), (28, 32)]:
        m = (pieces >= lo) & (pieces <= hi)
        print(f"{lo:2}-{hi:2}  {m.mean():6.1%}  {np.median(np.abs(score[m])):14.0f}"
              f"  {(np.abs(score[m]) < 150).mean():13.1%}  {(hm[m] >= 20).mean():14.1%}")
    print(f"|score| > 1000: {(np.abs(score) > 1000).mean():.1%}, > 2000: {(np.abs(score) > 2000).mean():.1%}"
          f" (network units); halfmove >= 20: {(hm >= 20).mean():.1%}")
    n = len(recs)
    print("adjudication (search units, over the recorded positions) -> records saved, calls, calls the result contradicts")
    for win in (500, 700, 1000, 1500):
        saved, calls, wrong = adjudication(recs, ply, starts, search, win, 4, 0, 0, 0)
        print(f"  win at {win:4} for 4: {saved / n:5.1%} saved, {calls} calls, {wrong} wrong")
    for draw, length in ((20, 10), (30, 10), (50, 16)):
        saved, calls, wrong = adjudication(recs, ply, starts, search, 0, 0, draw, length, 80)
        print(f"  draw within {draw} for {length} from ply 80: {saved / n:5.1%} saved, {calls} calls, {wrong} wrong")


if __name__ == "__main__":
    main()
