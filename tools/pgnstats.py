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
from types import SimpleNamespace

from matchreport import PairingStats, pairing_report

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
RESULTS = ("1-0", "0-1", "1/2-1/2")


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


def collect(paths, engine):
    """Feed the games of complete pairs into match.py's own bookkeeping
    (``PairingStats``, engine = index 0, its opponents = index 1).

    Returns (stats, opponent names, list of (file, round, result) of the
    engine's games left out because their partner game is missing)."""
    stats, opponents, unpaired = PairingStats(0, 1), set(), []
    for fileno, path in enumerate(paths):
        by_pair = {}
        for tags in read_games(path):
            white, black = tags.get("White"), tags.get("Black")
            rnd, result = tags.get("Round", ""), tags.get("Result")
            if engine not in (white, black) or result not in RESULTS or not rnd.isdigit():
                continue
            opponents.add(black if white == engine else white)
            res = {"white": 0 if white == engine else 1, "result": result,
                   "reason": tags.get("Termination", "unknown"),
                   "pair": (fileno, (int(rnd) + 1) // 2)}
            by_pair.setdefault(res["pair"], []).append((int(rnd), res))
        for _, games in sorted(by_pair.items()):
            if len(games) == 2:
                for _, res in sorted(games, key=lambda g: g[0]):
                    stats.add(res)
            else:
                unpaired += [(path, r, res["result"]) for r, res in games]
    return stats, sorted(opponents), unpaired


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", required=True, help="engine name as in the PGN tags")
    p.add_argument("pgn", nargs="+", help="PGN files written by tools/match.py")
    args = p.parse_args(argv)

    stats, opponents, unpaired = collect(args.pgn, args.engine)
    if stats.games == 0:
        print("no complete game pairs for %s" % args.engine)
        return 1
    names = SimpleNamespace(names=[args.engine, " + ".join(opponents)])
    print("%d file(s), %d games in %d complete pairs (Endings: PGN Termination tags)"
          % (len(args.pgn), stats.games, sum(stats.penta)))
    print("\n".join(pairing_report(names, stats)))
    for path, r, result in unpaired:
        print("  left out (partner game missing): %s round %d, %s" % (path, r, result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
