#!/usr/bin/env python3
"""Copies datagen shards with a one-step temporal-difference label: each record's
score (White's view, the network's units) becomes the mean of its own and the
next ply's, where `datagen` kept the next ply of the same game (71% of gen11's
records); the others keep their own. An experiment on the label (README,
"the label"): gen11td, trained on it, scored -3.5 +- 22.4 against gen11u.

usage: python3 tools/td_relabel.py SRC_SHARDS_DIR DST_DIR
"""
import os
import sys

import numpy as np

from shardstats import HEADER, RECORD, plies


def next_ply_kept(r):
    """Whether record i + 1 is the position one ply after record i in the same game."""
    ply = plies(r)
    x = r["ccr"][:-1] ^ r["ccr"][1:]
    squares = ((x & 0x0F) != 0).sum(1) + ((x & 0xF0) != 0).sum(1)  # a move changes 2 to 4 squares
    return (ply[1:] == ply[:-1] + 1) & (squares <= 4) & (r["result"][1:] == r["result"][:-1])


def main():
    src, dst = sys.argv[1], sys.argv[2]
    assert RECORD.itemsize == 40
    os.makedirs(dst, exist_ok=True)
    total = smoothed = 0
    for name in sorted(n for n in os.listdir(src) if n.endswith(".bin")):
        raw = open(os.path.join(src, name), "rb").read()
        r = np.frombuffer(raw[HEADER:], dtype=RECORD).copy()
        nxt = next_ply_kept(r)
        s = r["score"].astype(np.int32)
        s[:-1] = np.where(nxt, (s[:-1] + s[1:]) // 2, s[:-1])
        r["score"] = s.astype(np.int16)
        open(os.path.join(dst, name), "wb").write(raw[:HEADER] + r.tobytes())
        total, smoothed = total + len(r), smoothed + int(nxt.sum())
    print(f"{total} records, {smoothed} ({100 * smoothed / max(total, 1):.1f}%) given the next ply's mean")


if __name__ == "__main__":
    main()
