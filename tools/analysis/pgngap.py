#!/usr/bin/env python3
"""Where an opponent's judgement runs ahead of Tetrad's, from match PGNs.

Reads the `{score/depth time}` comments fastchess and cutechess write after
each move. For every game, finds the first move at which the opponent scores
its side at +1.00 or more and reports Tetrad's own score (turned to the
opponent's side) of the move before: if Tetrad still calls such games level,
the gap is judgement, not depth or time. Also prints each side's mean depth
and thinking time per move. `--lost` keeps only the games Tetrad lost;
`--pieces` also counts the pieces on the board at that move (python-chess).

    python3 tools/analysis/pgngap.py --engine tetrad sf11_noob.pgn
    python3 tools/analysis/pgngap.py --engine tetrad --gap 1.5 --lost --pieces sf11_noob.pgn

A score scale differs between engines (Ethereal's +1.00 is not Stockfish's),
so compare one opponent's figures with the same opponent's.
Pure Python; python-chess only for `--pieces`.
"""

import argparse
import itertools
import re
import statistics as st

COMMENT = re.compile(r"\{([+-]?M?[\d.]+)/(\d+) ([\d.]+)s")


def score(text):
    """A comment's score in pawns; mates count as ±100."""
    if "M" in text:
        return -100.0 if text.startswith("-") else 100.0
    return float(text)


def games(text):
    """Per game in `text` (one or more PGNs): its White, Black and TimeControl
    tags (None where missing), and each commented move as (mover, score text,
    depth, seconds), the mover 0 for White and 1 for Black (a FEN may start
    with Black to move)."""
    for g in text.split("[Event ")[1:]:
        tags = {}
        for name in ("White", "Black", "TimeControl", "Result"):
            m = re.search(rf'\[{name} "([^"]*)"\]', g)
            tags[name] = m.group(1) if m else None
        fen = re.search(r'\[FEN "[^"]+ ([wb]) ', g)
        first = 1 if fen is not None and fen.group(1) == "b" else 0
        body = g.split("\n\n", 1)[1] if "\n\n" in g else ""
        yield tags, [((i + first) % 2, s, int(d), float(t)) for i, (s, d, t) in enumerate(COMMENT.findall(body))]


def boards(text):
    """Per game in `text`, in the order of `games`: a function from a move's
    index (as `games` counts them) to the number of pieces on the board after it."""
    import io

    import chess.pgn

    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        moves = list(game.mainline_moves())

        def pieces_after(i, game=game, moves=moves):
            board = game.board()
            for m in moves[: i + 1]:
                board.push(m)
            return len(board.piece_map())

        yield pieces_after


def analyse(text, engine="tetrad", gap=1.0, lost_only=False, pieces=False):
    """The figures for the games in `text` (one or more PGNs; with
    `lost_only`, those `engine` lost): a dict of games, per-side depths and
    times (keyed True for `engine`), and per game where the opponent reached
    `gap`: the move index after the book, `engine`'s score of the move
    before, from the opponent's side, and (with `pieces`) the pieces then on
    the board."""
    depth, time = {True: [], False: []}, {True: [], False: []}
    first, ours_before, on_board = [], [], []
    n = 0
    counters = boards(text) if pieces else itertools.repeat(None)
    for (tags, moves), pieces_after in zip(games(text), counters):
        ours_side = 0 if tags["White"] == engine else 1
        if lost_only and tags["Result"] != ("0-1" if ours_side == 0 else "1-0"):
            continue
        n += 1
        last_ours, found = None, False
        for i, (mover, s, d, t) in enumerate(moves):
            ours = mover == ours_side
            depth[ours].append(d)
            time[ours].append(t)
            if ours:
                last_ours = score(s)
            elif not found and last_ours is not None and score(s) >= gap:
                found = True
                first.append(i // 2)
                ours_before.append(-last_ours)
                if pieces_after is not None:
                    on_board.append(pieces_after(i))
    return {"games": n, "depth": depth, "time": time, "first": first, "ours_before": ours_before, "pieces": on_board}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="tetrad", help="Tetrad's name in the White/Black tags")
    ap.add_argument("--gap", type=float, default=1.0, help="the opponent's score that counts (pawns)")
    ap.add_argument("--lost", action="store_true", help="only the games the engine lost")
    ap.add_argument("--pieces", action="store_true", help="count the pieces on the board there (python-chess)")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    text = "".join(open(f, encoding="utf-8").read() for f in args.pgn)
    r = analyse(text, args.engine, args.gap, args.lost, args.pieces)
    depth, time, first, ours_before = r["depth"], r["time"], r["first"], r["ours_before"]
    print(f"games {r['games']}")
    for ours, name in ((True, args.engine), (False, "opponent")):
        if depth[ours]:
            print(f"{name}: mean depth {st.mean(depth[ours]):.1f}, mean time {st.mean(time[ours]):.3f} s a move")
    if first:
        low = sum(1 for x in ours_before if x < args.gap / 2)
        quartiles = st.quantiles(first, n=4) if len(first) > 1 else [first[0]] * 3
        print(f"games where the opponent reached +{args.gap:.2f}: {len(first)}, "
              f"median {st.median(first)} moves after the book (quartiles {quartiles[0]:g} and {quartiles[2]:g})")
        if r["pieces"]:
            many = sum(1 for p in r["pieces"] if p >= 20)
            print(f"pieces on the board then: median {st.median(r['pieces'])}, 20 or more in "
                  f"{100 * many / len(first):.0f}%")
        print(f"{args.engine}'s score (opponent's side) the move before: median {st.median(ours_before):+.2f}, "
              f"below +{args.gap / 2:.2f} in {100 * low / len(first):.0f}%")


if __name__ == "__main__":
    main()
