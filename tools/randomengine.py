#!/usr/bin/env python3
"""A tiny UCI engine that plays uniformly random legal moves (python-chess).

Used by tools/test_match.py to exercise tools/match.py without any real
engine.  It also has a few UCI options to misbehave on purpose, so the
runner's adjudication can be tested:

  option Mode    combo normal|illegal|crash|hang|slow
                 what to do from its FailAt-th own move on
                 (illegal: send an illegal move; crash: exit(1) without a
                 move; hang: never answer; slow: sleep 2 s before answering)
  option FailAt  spin  own move number (1-based) at which Mode kicks in
  option Score   spin  centipawn score reported in 'info' for every move
                       (from the engine's point of view), for testing
                       draw/resign adjudication
  option Seed    spin  0 = seed from the OS, otherwise a fixed seed

Usage: python3 tools/randomengine.py
"""

import random
import sys
import time

import chess


def main():
    board = chess.Board()
    opts = {"mode": "normal", "failat": 1, "score": 0, "seed": 0}
    rng = random.Random()
    own_moves = 0

    def out(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        tokens = line.split()
        cmd = tokens[0]
        if cmd == "uci":
            out("id name RandomMover")
            out("id author Tetrad tools")
            out("option name Mode type combo default normal var normal var illegal "
                "var crash var hang var slow")
            out("option name FailAt type spin default 1 min 1 max 10000")
            out("option name Score type spin default 0 min -100000 max 100000")
            out("option name Seed type spin default 0 min 0 max 2147483647")
            out("option name Hash type spin default 1 min 1 max 1024")
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "setoption":
            # setoption name <name...> value <value...>
            try:
                vi = tokens.index("value")
                name = " ".join(tokens[2:vi]).lower()
                value = " ".join(tokens[vi + 1:])
            except ValueError:
                name, value = " ".join(tokens[2:]).lower(), ""
            if name in ("failat", "score", "seed"):
                opts[name] = int(value)
                if name == "seed" and opts["seed"]:
                    rng.seed(opts["seed"])
            elif name == "mode":
                opts["mode"] = value
        elif cmd == "ucinewgame":
            own_moves = 0
        elif cmd == "position":
            if len(tokens) > 1 and tokens[1] == "startpos":
                board = chess.Board()
                rest = tokens[2:]
            else:
                try:
                    mi = tokens.index("moves")
                except ValueError:
                    mi = len(tokens)
                board = chess.Board(" ".join(tokens[2:mi]))
                rest = tokens[mi:]
            if rest and rest[0] == "moves":
                for mv in rest[1:]:
                    board.push_uci(mv)
        elif cmd == "go":
            own_moves += 1
            failing = opts["mode"] != "normal" and own_moves >= opts["failat"]
            if failing and opts["mode"] == "crash":
                sys.exit(1)
            if failing and opts["mode"] == "hang":
                continue
            if failing and opts["mode"] == "slow":
                time.sleep(2.0)
            moves = list(board.legal_moves)
            if failing and opts["mode"] == "illegal":
                out("info depth 1 score cp %d nodes 1" % opts["score"])
                # moving the opponent's king is never legal
                ksq = board.king(not board.turn)
                to = ksq + 8 if ksq < 56 else ksq - 8
                out("bestmove " + chess.Move(ksq, to).uci())
                continue
            if not moves:
                out("bestmove (none)")
                continue
            out("info depth 1 score cp %d nodes %d pv %s"
                % (opts["score"], len(moves), moves[0].uci()))
            out("bestmove " + rng.choice(moves).uci())
        elif cmd == "stop":
            pass
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
