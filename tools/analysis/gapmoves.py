#!/usr/bin/env python3
"""What Tetrad's move cost where an opponent's judgement ran ahead, from match PGNs.

`pgngap.py` finds, in each game, the first move after which the opponent
scores its side at +1.00 or more while Tetrad, a move earlier, still called
the game level (its own score at -0.30 or better). This tool takes a sample of
those positions (Tetrad to move) and asks, at fixed nodes and with fresh
tables:

- the opponent at `--nodes` (its best move and score), then restricted to
  Tetrad's game move: the difference is what that move cost, in the
  opponent's judgement at a depth well past the game's;
- Tetrad at `--nodes` and at `--deep` nodes: which move it then prefers.

A cost under half a pawn is inside the opponent's own noise; a cost of a pawn
or more that Tetrad's deeper search avoids is a tactic missed for depth. If
most costs are small and the opponent already scored the position before the
move against Tetrad, the deficit grew move by move: judgement.

    python3 tools/analysis/gapmoves.py --pgn sf11.pgn --engine tetrad \\
        --tetrad target/release/tetrad --opponent /path/to/stockfish --sample 40 --seed 1

Needs python-chess. Node-limited, so other jobs on the machine change only
how long it takes.
"""

import argparse
import os
import random
import re
import statistics as st
import sys

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgngap import score as pawns  # noqa: E402  (a comment's score in pawns, mates ±100)

# A move's `score/depth` comment, as python-chess hands it over (without braces).
COMMENT = re.compile(r"([+-]?M?[\d.]+)/(\d+)")


def gap_positions(path, engine):
    """Per game: the position before Tetrad's move after which the opponent
    first claims +1.00, where Tetrad had scored it -0.30 or better."""
    found = []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            tetrad_white = game.headers.get("White") == engine
            result = game.headers.get("Result")
            points = {"1-0": float(tetrad_white), "0-1": float(not tetrad_white)}.get(result, 0.5)
            board = game.board()
            last = None
            for node in game.mainline():
                ours = (board.turn == chess.WHITE) == tetrad_white
                fen, move = board.fen(), node.move
                board.push(move)
                m = COMMENT.search(node.comment or "")
                if not m:
                    continue
                score = pawns(m.group(1))
                if ours:
                    last = (fen, move, score)
                elif score >= 1.0:
                    if last and last[2] >= -0.30:
                        found.append({"fen": last[0], "move": last[1], "tetrad": last[2], "points": points})
                    break
    return found


def analyse(engine, board, nodes, root_moves=None):
    """Score (side to move, pawns) and best move at `nodes`, tables fresh."""
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes), root_moves=root_moves, game=object())
    score = info["score"].pov(board.turn).score(mate_score=10000) / 100.0
    return score, info["pv"][0] if info.get("pv") else None


def by_depth(engine, board, move, nodes):
    """The move searched alone to `nodes`: its score (side to move) at each completed depth."""
    scores, last = [], None
    with engine.analysis(board, chess.engine.Limit(nodes=nodes), root_moves=[move], game=object()) as search:
        for info in search:
            bounded = "upperbound" in info or "lowerbound" in info
            if "score" in info and info.get("depth") not in (None, last) and not bounded:
                last = info["depth"]
                scores.append(f"{last}:{info['score'].pov(board.turn).score(mate_score=10000) / 100:+.2f}")
    return " ".join(scores[-14:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--engine", default="tetrad", help="Tetrad's name in the PGN")
    ap.add_argument("--tetrad", required=True, help="Tetrad's command")
    ap.add_argument("--opponent", required=True, help="the opponent's command")
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=1_000_000, help="Tetrad's first look")
    ap.add_argument("--deep", type=int, default=8_000_000, help="Tetrad's deeper look and the opponent's")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--by-depth", type=int, default=0, metavar="NODES",
                    help="then search each move that cost a pawn or more alone to NODES with both engines, "
                    "printing its score by depth: a tactic found late, or judgement from the first depths?")
    args = ap.parse_args()

    found = gap_positions(args.pgn, args.engine)
    random.seed(args.seed)
    sample = random.sample(found, min(args.sample, len(found)))
    print(f"{len(found)} games with a gap; {len(sample)} sampled (seed {args.seed})")
    tetrad = chess.engine.SimpleEngine.popen_uci(args.tetrad.split())
    opponent = chess.engine.SimpleEngine.popen_uci(args.opponent.split())
    for e in (tetrad, opponent):
        e.configure({"Hash": args.hash})
    rows = []
    try:
        for x in sample:
            board = chess.Board(x["fen"])
            best, best_move = analyse(opponent, board, args.deep)
            played, _ = analyse(opponent, board, args.deep, root_moves=[x["move"]])
            _, first = analyse(tetrad, board, args.nodes)
            _, deep = analyse(tetrad, board, args.deep)
            san = lambda m: board.san(m) if m else "-"
            row = {
                "fen": x["fen"],
                "cost": best - played,
                "before": best,
                "game": x["move"],
                "first": first,
                "deep": deep,
                "best": best_move,
            }
            rows.append(row)
            print(
                f"{board.fen()}  played {san(x['move'])} cost {row['cost']:+.2f} "
                f"(opponent: {san(best_move)} {best:+.2f}); Tetrad {args.nodes} nodes {san(first)}, "
                f"{args.deep} nodes {san(deep)}; points {x['points']}",
                flush=True,
            )
        if args.by_depth:
            print(f"\nmoves that cost a pawn or more, each searched alone to {args.by_depth} nodes (last 14 depths):")
            for r in (r for r in rows if r["cost"] >= 1.0):
                board = chess.Board(r["fen"])
                print(f"{r['fen']} {board.san(r['game'])}")
                for name, engine in (("tetrad", tetrad), ("opponent", opponent)):
                    print(f"   {name} {by_depth(engine, board, r['game'], args.by_depth)}", flush=True)
    finally:
        tetrad.quit()
        opponent.quit()
    costs = [r["cost"] for r in rows]
    big = [r for r in rows if r["cost"] >= 1.0]
    print(f"\ncost of Tetrad's move (opponent at {args.deep} nodes): median {st.median(costs):+.2f}, mean {st.mean(costs):+.2f}")
    print(
        f"cost >= 1.00: {len(big)}, 0.50-0.99: {sum(0.5 <= c < 1.0 for c in costs)}, "
        f"below 0.50: {sum(c < 0.5 for c in costs)}; of the >= 1.00, Tetrad at {args.deep} nodes avoids "
        f"{sum(r['deep'] != r['game'] for r in big)}"
    )
    print(f"opponent's score of the position before the move (Tetrad's side): median {st.median(r['before'] for r in rows):+.2f}")
    print(
        f"Tetrad's move = the opponent's best: at {args.nodes} nodes {sum(r['first'] == r['best'] for r in rows)}, "
        f"at {args.deep} nodes {sum(r['deep'] == r['best'] for r in rows)} of {len(rows)}"
    )


if __name__ == "__main__":
    main()
