#!/usr/bin/env python3
"""Run a UCI engine over an EPD test suite (bm/am operations) at a fixed time
per position and report the solved count and the misses.

Example:
    python3 tools/epdtest.py --engine target/release/tetrad \
        --epd ../shared/data/wac.epd --movetime 1.0 --option Threads=1 --option Hash=16

A position counts as solved when the engine's best move is one of the `bm`
moves (or, with `am`, is none of the avoided moves). Uses python-chess.
"""

import argparse
import sys
import time

import chess
import chess.engine


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", required=True, help="engine command")
    p.add_argument("--epd", required=True, help="EPD file with bm/am operations")
    p.add_argument("--movetime", type=float, default=1.0, help="seconds per position (default 1.0)")
    p.add_argument("--option", action="append", default=[], help="UCI option NAME=VALUE (repeatable)")
    p.add_argument("--limit", type=int, default=0, help="only the first N positions")
    p.add_argument("--quiet", action="store_true", help="print only misses and the summary")
    return p.parse_args()


def main():
    args = parse_args()
    options = {}
    for o in args.option:
        name, _, value = o.partition("=")
        options[name] = value
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({k: v for k, v in options.items() if k in engine.options})
    solved, total, misses = 0, 0, []
    start = time.time()
    with open(args.epd) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            board, ops = chess.Board.from_epd(line)
            total += 1
            if args.limit and total > args.limit:
                total -= 1
                break
            result = engine.play(board, chess.engine.Limit(time=args.movetime), game=object())
            move = result.move
            bm = ops.get("bm", [])
            am = ops.get("am", [])
            ok = (not bm or move in bm) and (move not in am)
            ident = ops.get("id", f"#{total}")
            if ok:
                solved += 1
            else:
                want = " ".join(board.san(m) for m in bm) if bm else "not " + " ".join(board.san(m) for m in am)
                misses.append(f"{ident}: played {board.san(move) if move else 'none'}, wanted {want}")
            if not args.quiet or not ok:
                print(f"{ident:>10} {'ok  ' if ok else 'MISS'} {board.san(move) if move else '-'}", flush=True)
    engine.quit()
    print(f"solved {solved}/{total} at {args.movetime}s per position ({time.time() - start:.0f}s)")
    if misses:
        print("misses:")
        for m in misses:
            print("  " + m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
