"""Prints the 24 random won KQvKR positions of tests/syzygy.rs's KQKR_WINS.

White to move, legal, Black not in check, a White win by the tables with at
least 20 plies to the next zeroing move (so the evaluation's choice among the
winning moves matters). Seeded: the same list on every machine.

    python3 tools/gen_kqkr.py [SYZYGY_DIR]   # default ../shared/data/syzygy
"""
import random, sys, chess, chess.syzygy
rng = random.Random(32)
tb = chess.syzygy.open_tablebase(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/syzygy")
out = []
while len(out) < 24:
    sq = rng.sample(range(64), 4)
    b = chess.Board(None)
    b.set_piece_at(sq[0], chess.Piece(chess.KING, chess.WHITE))
    b.set_piece_at(sq[1], chess.Piece(chess.QUEEN, chess.WHITE))
    b.set_piece_at(sq[2], chess.Piece(chess.KING, chess.BLACK))
    b.set_piece_at(sq[3], chess.Piece(chess.ROOK, chess.BLACK))
    b.turn = chess.WHITE
    if not b.is_valid() or b.is_check():
        continue
    if tb.probe_wdl(b) != 2 or tb.probe_dtz(b) < 20:
        continue
    out.append(b.fen())
for f in out: print(f)
