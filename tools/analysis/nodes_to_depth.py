#!/usr/bin/env python3
"""Geometric mean of the nodes an engine needs to reach a fixed depth, over
positions taken from games: a load-independent view of how fast a search's
tree grows with depth (node counts at `go depth` are deterministic on one
thread, so this can run beside a match).

    python3 tools/analysis/nodes_to_depth.py --pgn games.pgn --ply 36 --count 48 \\
        --depth 10 --depth 16 ./tetrad-old ./tetrad-new

Each position is searched after `ucinewgame` (tables cleared).
"""

import argparse
import math
import subprocess

import chess.pgn


def positions(pgn, ply, count):
    """FENs of the first `count` games that last `ply` plies, at that ply."""
    out = []
    with open(pgn) as fh:
        while len(out) < count:
            game = chess.pgn.read_game(fh)
            if game is None:
                break
            board = game.board()
            for i, mv in enumerate(game.mainline_moves(), 1):
                board.push(mv)
                if i == ply:
                    out.append(board.fen())
                    break
    return out


def geomean_nodes(exe, fens, depth):
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    logs = []
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go depth {depth}")
        nodes = 1
        while True:
            words = p.stdout.readline().split()
            if not words:
                continue
            if words[0] == "info" and "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
            if words[0] == "bestmove":
                break
        logs.append(math.log(max(nodes, 1)))
    send("quit")
    p.wait()
    return math.exp(sum(logs) / len(logs))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--ply", type=int, default=36)
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--depth", type=int, action="append", required=True)
    ap.add_argument("engines", nargs="+")
    args = ap.parse_args()
    fens = positions(args.pgn, args.ply, args.count)
    print(f"{len(fens)} positions at ply {args.ply} of {args.pgn}")
    for exe in args.engines:
        row = "  ".join(f"depth {d}: {geomean_nodes(exe, fens, d):,.0f}" for d in args.depth)
        print(f"{exe}: {row}")


if __name__ == "__main__":
    main()
