"""Opening books for tools/match.py: EPD/FEN lines or PGN games, in order
or shuffled by a seed."""

import random

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # match.py reports it
    chess = None


def parse_epd_line(line, chess960=False):
    fields = line.split(";")[0].split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        board = chess.Board(" ".join(fields[:6]), chess960=chess960)
    else:
        board, _ = chess.Board.from_epd(line, chess960=chess960)
    return board


class OpeningBook:
    """Openings as (start FEN, [uci moves]) picked in order or at random."""

    def __init__(self, path, fmt="auto", order="sequential", seed=None,
                 start=1, plies=0, chess960=False):
        self.path = path
        self.chess960 = chess960
        if fmt == "auto":
            fmt = "pgn" if path.lower().endswith(".pgn") else "epd"
        self.fmt = fmt
        self.plies = plies
        self.skipped = 0
        if fmt == "epd":
            with open(path, encoding="utf-8", errors="replace") as f:
                self.items = [ln.strip() for ln in f
                              if ln.strip() and not ln.lstrip().startswith("#")]
        else:
            self.items = []
            with open(path, encoding="utf-8", errors="replace") as f:
                while True:
                    game = chess.pgn.read_game(f)
                    if game is None:
                        break
                    board = game.board()
                    moves = list(game.mainline_moves())
                    if plies:
                        moves = moves[:plies]
                    self.items.append((board.fen(), [m.uci() for m in moves]))
        if not self.items:
            raise SystemExit("error: no openings in %s" % path)
        self.order = list(range(len(self.items)))
        if order == "random":
            random.Random(seed).shuffle(self.order)
        self.pos = (start - 1) % len(self.order)

    def _parse(self, idx):
        item = self.items[idx]
        if self.fmt == "epd":
            board = parse_epd_line(item, self.chess960)
            moves = []
        else:
            board = chess.Board(item[0], chess960=self.chess960)
            moves = item[1]
        b = board.copy()
        for u in moves:
            b.push_uci(u)
        if not b.is_valid() or b.outcome(claim_draw=True) is not None:
            raise ValueError("opening position is invalid or already over")
        return {"fen": board.fen(shredder=self.chess960), "moves": list(moves), "index": idx + 1}

    def next(self):
        for _ in range(len(self.order)):
            idx = self.order[self.pos]
            self.pos = (self.pos + 1) % len(self.order)
            try:
                return self._parse(idx)
            except ValueError:
                self.skipped += 1
        raise SystemExit("error: no usable opening in %s" % self.path)
