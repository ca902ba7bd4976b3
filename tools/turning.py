#!/usr/bin/env python3
"""Where an engine's lost games turned: for each game it lost, the first move
after which the winner's own score reached a threshold, with the number of
pieces then on the board and the loser's last score before it.

Reads the `{score/depth time}` comments that cutechess-cli and fastchess
write (scores in pawns from the mover's view; a mate score counts as won).

    python3 tools/turning.py --engine tetrad --threshold 1.5 games.pgn

Needs python-chess.
"""

import argparse
import re
import statistics

import chess.pgn

SCORE = re.compile(r"^([+-]?(?:M\d+|[\d.]+))/")


def score_of(comment):
    """The mover's score in pawns from a move comment, or None."""
    m = SCORE.match(comment)
    if not m:
        return None
    s = m.group(1)
    if "M" in s:
        return -100.0 if s.startswith("-") else 100.0
    return float(s)


def turning_points(path, engine, threshold):
    """(full-move number, pieces, loser's last score) for each lost game."""
    points = []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            white = game.headers.get("White", "").lower() == engine
            black = game.headers.get("Black", "").lower() == engine
            result = game.headers.get("Result")
            if not (white and result == "0-1") and not (black and result == "1-0"):
                continue
            board, ours = game.board(), None
            for node in game.mainline():
                mover_is_us = (board.turn == chess.WHITE) == white
                board.push(node.move)
                s = score_of(node.comment)
                if s is None:
                    continue
                if mover_is_us:
                    ours = s
                elif s >= threshold:
                    points.append((board.fullmove_number, len(board.piece_map()), ours))
                    break
    return points


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", required=True, help="the player name of the engine whose losses to read")
    ap.add_argument("--threshold", type=float, default=1.5, help="the winner's score in pawns")
    args = ap.parse_args()
    points = [p for path in args.pgn for p in turning_points(path, args.engine.lower(), args.threshold)]
    if len(points) < 2:
        raise SystemExit(f"{len(points)} lost games with a turning point: too few to summarise")
    moves = [p[0] for p in points]
    pieces = [p[1] for p in points]
    ours = [p[2] for p in points if p[2] is not None]
    q = statistics.quantiles(moves, n=4)
    print(f"{len(points)} lost games where the winner reached {args.threshold:+.2f}")
    print(f"move: median {statistics.median(moves)}, quartiles {q[0]} and {q[2]}")
    print(f"pieces then: median {statistics.median(pieces)}, 20 or more in {sum(p >= 20 for p in pieces) / len(pieces):.0%}")
    if ours:
        print(f"{args.engine}'s last score before it: median {statistics.median(ours):+.2f}")


if __name__ == "__main__":
    main()
