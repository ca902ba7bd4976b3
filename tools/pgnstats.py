#!/usr/bin/env python3
"""W/D/L, pentanomial counts and Elo for one engine from PGN files that
tools/match.py wrote, so that runs of one match continued with ``--start``
can be reported together.

match.py plays each opening twice with colours swapped as rounds 2k-1 and
2k of one file. Game pairs are rebuilt from those Round tags, per file; a
game whose partner is missing (a run stopped between the two games of a
pair) is left out of every figure and listed, so a stitched result never
counts half a pair.

    python3 tools/pgnstats.py --engine tetrad run1.pgn run2.pgn

Pure Python (reads only the PGN tag pairs), no python-chess needed.
"""

import argparse
import re
import sys

import matchstats as ms

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def read_games(path):
    """Yield the tag dict of each game in a PGN file."""
    tags = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            elif tags and line.strip() and not line.startswith("["):
                # first movetext line ends the tag section of this game
                yield tags
                tags = {}
    if tags:
        yield tags


def engine_score(tags, engine):
    """The engine's score in one game, or None if it did not play or the
    game has no result."""
    res = SCORES.get(tags.get("Result"))
    if res is None:
        return None
    if tags.get("White") == engine:
        return res[0]
    if tags.get("Black") == engine:
        return res[1]
    return None


def collect(paths, engine):
    """Return (scores of games in complete pairs, pentanomial counts,
    list of (file, round, score) of unpaired games)."""
    scores, penta, unpaired = [], [0] * 5, []
    for path in paths:
        by_pair = {}
        for tags in read_games(path):
            s = engine_score(tags, engine)
            rnd = tags.get("Round", "")
            if s is None or not rnd.isdigit():
                continue
            r = int(rnd)
            by_pair.setdefault((r + 1) // 2, []).append((r, s))
        for pair, games in sorted(by_pair.items()):
            if len(games) == 2:
                a, b = sorted(games)
                scores += [a[1], b[1]]
                penta[ms.pair_index(a[1], b[1])] += 1
            else:
                unpaired += [(path, r, s) for r, s in games]
    return scores, penta, unpaired


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", required=True, help="engine name as in the PGN tags")
    p.add_argument("pgn", nargs="+", help="PGN files written by tools/match.py")
    args = p.parse_args(argv)

    scores, penta, unpaired = collect(args.pgn, args.engine)
    w = sum(1 for s in scores if s == 1.0)
    d = sum(1 for s in scores if s == 0.5)
    l = len(scores) - w - d
    if not scores:
        print("no complete game pairs for %s" % args.engine)
        return 1
    tri = ms.trinomial_stats(w, d, l)
    pen = ms.pentanomial_stats(penta)
    print("%s in %d file(s): %d games in %d complete pairs" % (
        args.engine, len(args.pgn), len(scores), len(scores) // 2))
    print("  Games %d: +%d =%d -%d  score %.1f/%d = %.1f%%" % (
        len(scores), w, d, l, tri["points"], len(scores), 100.0 * tri["points"] / len(scores)))
    print("  Elo (logistic, trinomial):   %+.1f +/- %.1f (95%%)  [%+.1f, %+.1f]" % (
        tri["elo"], tri["elo_pm"], tri["elo_lo"], tri["elo_hi"]))
    print("  Pentanomial [LL, LD, DD/WL, WD, WW]: %s  (%d pairs)" % (penta, sum(penta)))
    print("  Elo (logistic, pentanomial): %+.1f +/- %.1f (95%%)  [%+.1f, %+.1f]" % (
        pen["elo"], pen["elo_pm"], pen["elo_lo"], pen["elo_hi"]))
    for path, r, s in unpaired:
        print("  left out (partner game missing): %s round %d, score %s" % (path, r, s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
