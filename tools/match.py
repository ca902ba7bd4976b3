#!/usr/bin/env python3
"""Tetrad match runner: play engine matches for strength testing.

Plays games between UCI and/or XBoard (CECP) engines with python-chess,
keeping the clocks itself, using openings from an EPD/FEN or PGN book (each
opening twice, colours swapped), and reports W/D/L, score, Elo with a 95 %
interval (trinomial and pentanomial), an optional SPRT and a cross-table.

Elo model: LOGISTIC Elo (score s <-> elo = -400*log10(1/s - 1)).  The SPRT is
fishtest's generalised SPRT on the pentanomial distribution of game pairs
(H0: elo = elo0, H1: elo = elo1, logistic, maximum-likelihood LLR; see
tools/matchstats.py).

Example:
  python3 tools/match.py \\
      --engine cmd=target/release/tetrad name=new option.Hash=16 \\
      --engine cmd=/usr/games/glaurung name=glaurung \\
      --each option.Threads=1 option.OwnBook=false \\
      --openings /work/shared/data/book_8moves_v3.epd --order random --seed 1 \\
      --games 200 --tc 5+0.05 --concurrency 2 --pgn out.pgn \\
      --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05

Requires python-chess (pip install chess).
"""

import argparse
import asyncio
import concurrent.futures
import datetime
import json
import logging
import math
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matchstats as ms  # noqa: E402

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # reported in main()
    chess = None

STARTUP_TIMEOUT = 30.0
QUIT_TIMEOUT = 3.0

# Loss kinds counted separately in the summary.
KIND_TIME = "time forfeit"
KIND_ILLEGAL = "illegal move"
KIND_CRASH = "crash/disconnect"
FORFEIT_KINDS = (KIND_TIME, KIND_ILLEGAL, KIND_CRASH)

DEFAULT_EPILOG = """\
engine spec (--engine / --each take KEY=VALUE tokens):
  cmd=PATH           engine executable (if it is not an existing file it is
                     split like a shell command line, e.g. cmd="python3 x.py")
  args="A B"         extra command line arguments (shell-split)
  name=NAME          display/PGN name (default: the engine's id name)
  proto=uci|xboard   protocol (default uci; cecp = xboard)
  dir=DIR            working directory
  option.NAME=VALUE  engine option; only options the engine advertises are
                     set, others are skipped with a warning
  stderr=FILE        append the engine's stderr to FILE (default: discarded)

time control (clocks kept by the runner; wall time is measured around each
engine call; a move that leaves the clock below -MARGIN loses on time):
  --tc 5+0.05        5 s base + 0.05 s increment per move
  --tc 40/60+0       40 moves in 60 s, repeating
  --movetime 0.1     fixed time per move (loss if it takes > movetime+MARGIN)
  --nodes N / --depth N   search limit (with no clock an engine that does not
                     answer within --hang-timeout loses on time)

adjudication (scores are the engines' own, in centipawns, from their side):
  --draw movenumber=40 movecount=8 score=10
        draw once the full-move number is >= 40 and both engines reported
        |score| <= 10 for the last 8 moves each (16 plies in a row)
  --resign movecount=3 score=600 [twosided=true]
        an engine loses when its score was <= -600 for 3 of its moves in a
        row (twosided: the opponent must also report >= +600 as many times)
  --maxmoves 400     draw after 400 full moves played by the engines

statistics: logistic Elo.  The "trinomial" interval treats games as
independent; the "pentanomial" one uses the game pairs (same opening, colours
swapped: LL, LD, DD/WL, WD, WW) and is the one the SPRT uses.  The SPRT
(fishtest-style GSPRT) needs exactly two engines; the match stops as soon
as LLR <= ln(beta/(1-alpha)) (H0 accepted) or LLR >= ln((1-beta)/alpha)
(H1 accepted); --games is then the maximum number of games.
"""


# --------------------------------------------------------------------------
# Argument parsing helpers


def parse_kv(tokens, what):
    out = {}
    for tok in tokens:
        if "=" not in tok:
            raise SystemExit("error: %s: expected KEY=VALUE, got %r" % (what, tok))
        k, v = tok.split("=", 1)
        out[k.strip()] = v
    return out


def parse_engine(tokens, each_tokens):
    """--engine tokens (+ --each tokens as defaults) -> engine config dict."""
    kv = {}
    options = {}
    for source in (each_tokens, tokens):
        for k, v in parse_kv(source, "--engine").items():
            if k.startswith("option."):
                options[k[len("option."):]] = v
            else:
                kv[k] = v
    unknown = set(kv) - {"cmd", "args", "name", "proto", "dir", "stderr"}
    if unknown:
        raise SystemExit("error: unknown engine key(s): %s" % ", ".join(sorted(unknown)))
    if "cmd" not in kv:
        raise SystemExit("error: --engine needs cmd=...")
    cmd = kv["cmd"]
    if os.path.exists(cmd) or not any(c.isspace() for c in cmd):
        argv = [cmd]
    else:
        argv = shlex.split(cmd)
    if kv.get("args"):
        argv += shlex.split(kv["args"])
    proto = kv.get("proto", "uci").lower()
    if proto == "cecp":
        proto = "xboard"
    if proto not in ("uci", "xboard"):
        raise SystemExit("error: proto must be uci or xboard, got %r" % proto)
    return {
        "argv": argv,
        "name": kv.get("name"),
        "proto": proto,
        "dir": kv.get("dir"),
        "stderr": kv.get("stderr"),
        "options": options,
    }


def parse_tc(text):
    """'[moves/]base[+inc]' in seconds -> (moves, base, inc)."""
    moves = 0
    t = text.strip()
    if "/" in t:
        m, t = t.split("/", 1)
        moves = int(m)
    if "+" in t:
        b, i = t.split("+", 1)
        base, inc = float(b), float(i)
    else:
        base, inc = float(t), 0.0
    if base <= 0 or inc < 0 or moves < 0:
        raise ValueError(text)
    return moves, base, inc


def tc_string(moves, base, inc):
    def num(x):
        return ("%g" % x)
    s = num(base) if not inc else "%s+%s" % (num(base), num(inc))
    return ("%d/%s" % (moves, s)) if moves else s


def parse_bool(v):
    return str(v).strip().lower() in ("1", "true", "yes", "on")


# --------------------------------------------------------------------------
# Openings


def parse_epd_line(line):
    fields = line.split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].rstrip(";").isdigit():
        board = chess.Board(" ".join(fields[:4] + [fields[4], fields[5].rstrip(";")]))
    else:
        board, _ = chess.Board.from_epd(line)
    return board


class OpeningBook:
    """Openings as (start FEN, [uci moves]) picked in order or at random."""

    def __init__(self, path, fmt="auto", order="sequential", seed=None,
                 start=1, plies=0):
        self.path = path
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
            board = parse_epd_line(item)
            moves = []
        else:
            board = chess.Board(item[0])
            moves = item[1]
        b = board.copy()
        for u in moves:
            b.push_uci(u)
        if not b.is_valid() or b.outcome(claim_draw=True) is not None:
            raise ValueError("opening position is invalid or already over")
        return {"fen": board.fen(), "moves": list(moves), "index": idx + 1}

    def next(self):
        for _ in range(len(self.order)):
            idx = self.order[self.pos]
            self.pos = (self.pos + 1) % len(self.order)
            try:
                return self._parse(idx)
            except ValueError:
                self.skipped += 1
        raise SystemExit("error: no usable opening in %s" % self.path)


# --------------------------------------------------------------------------
# Engine probing (main process) and game playing (worker processes)


def _popen_kwargs(cfg):
    kw = {"setpgrp": True}
    if cfg.get("dir"):
        kw["cwd"] = cfg["dir"]
    if cfg.get("stderr"):
        kw["stderr"] = open(cfg["stderr"], "ab")
    else:
        kw["stderr"] = subprocess.DEVNULL
    return kw


def convert_option(opt, value):
    """Validate VALUE for python-chess Option OPT; returns the typed value."""
    if opt.type == "check":
        return parse_bool(value)
    if opt.type in ("button", "reset", "save"):
        return None
    return opt.parse(value)


def probe_engine(cfg, warn):
    """Start the engine once: learn its id name and options, validate the
    requested options.  Returns the updated cfg."""
    popen = (chess.engine.SimpleEngine.popen_xboard if cfg["proto"] == "xboard"
             else chess.engine.SimpleEngine.popen_uci)
    kw = _popen_kwargs(cfg)
    try:
        eng = popen(cfg["argv"], timeout=STARTUP_TIMEOUT, **kw)
    except Exception as exc:
        raise SystemExit("error: cannot start engine %s: %s: %s"
                         % (" ".join(cfg["argv"]), type(exc).__name__, exc))
    try:
        idname = eng.id.get("name") or os.path.basename(cfg["argv"][0])
        label = cfg.get("name") or idname
        valid = {}
        for name, value in cfg["options"].items():
            opt = eng.options.get(name)
            if opt is None:
                warn("engine %s does not advertise option %r: not set" % (label, name))
                continue
            if opt.is_managed():
                warn("engine %s: option %r is managed by the runner: not set" % (label, name))
                continue
            try:
                valid[opt.name] = convert_option(opt, value)
            except Exception as exc:
                warn("engine %s: bad value for option %r: %s: not set" % (label, name, exc))
        cfg = dict(cfg)
        cfg["idname"] = idname
        cfg["name"] = label
        cfg["valid_options"] = valid
        return cfg
    finally:
        try:
            eng.quit()
        except Exception:
            try:
                eng.close()
            except Exception:
                pass


async def _start_engine(cfg):
    popen = chess.engine.popen_xboard if cfg["proto"] == "xboard" else chess.engine.popen_uci
    transport, proto = await asyncio.wait_for(popen(cfg["argv"], **_popen_kwargs(cfg)),
                                              STARTUP_TIMEOUT)
    try:
        if cfg.get("valid_options"):
            await proto.configure(cfg["valid_options"])
        if cfg["proto"] == "uci":
            # Send ucinewgame + isready now, so that it (hash clearing etc.)
            # is not counted against the first move's clock.
            if hasattr(proto, "_ucinewgame"):
                proto._ucinewgame()
            await asyncio.wait_for(proto.ping(), STARTUP_TIMEOUT)
    except BaseException:
        try:
            transport.kill()
        except Exception:
            pass
        raise
    return transport, proto


async def _stop_engine(transport, proto):
    try:
        await asyncio.wait_for(proto.quit(), QUIT_TIMEOUT)
    except BaseException:
        pass
    try:
        if transport.get_returncode() is None:
            transport.kill()
    except Exception:
        pass
    try:
        transport.close()
    except Exception:
        pass


def _fmt_score(score):
    if score is None:
        return None
    if score.is_mate():
        m = score.mate()
        return ("+M%d" % m) if m > 0 else ("-M%d" % -m)
    return "%+.2f" % (score.score() / 100.0)


COLOR_NAME = {True: "White", False: "Black"}


async def _play_game(spec):
    W, B = chess.WHITE, chess.BLACK
    cfgs = {W: spec["white"], B: spec["black"]}
    opening = spec["opening"]
    tcs = spec["tc"]
    adj = spec["adjudication"]
    margin = spec["time_margin"]
    start_board = chess.Board(opening["fen"])
    board = start_board.copy()
    for u in opening["moves"]:
        board.push_uci(u)
    comments = ["book"] * len(opening["moves"])

    result = None          # "1-0", "0-1", "1/2-1/2"
    termination = None     # PGN Termination tag value
    reason = None          # human readable
    forfeit = None         # (color, kind) when a game is lost by forfeit
    engines = {}

    def lose(color, kind, text, term):
        nonlocal result, termination, reason, forfeit
        result = "0-1" if color == W else "1-0"
        termination = term
        reason = text
        if kind:
            forfeit = (color, kind)

    # Start both engines.
    started = await asyncio.gather(*[_start_engine(cfgs[c]) for c in (W, B)],
                                   return_exceptions=True)
    failed = []
    for c, res in zip((W, B), started):
        if isinstance(res, BaseException):
            failed.append((c, res))
        else:
            engines[c] = res
    if failed:
        for c in engines:
            await _stop_engine(*engines[c])
        if len(failed) == 2:
            raise RuntimeError("both engines failed to start: %s" % failed[0][1])
        c, exc = failed[0]
        lose(c, KIND_CRASH, "%s fails to start (%s)" % (COLOR_NAME[c], type(exc).__name__),
             "abandoned")
        engines = {}

    moves_tc, base, inc = tcs.get("moves", 0), tcs.get("base"), tcs.get("inc", 0.0)
    clocks = {W: base, B: base} if base else None
    period_moves = {W: 0, B: 0}
    movetime = tcs.get("movetime")
    nodes = tcs.get("nodes")
    depth = tcs.get("depth")
    hang_timeout = spec["hang_timeout"]
    game_key = "g%d" % spec["id"]
    engine_plies = 0
    draw_count = 0
    resign_count = {W: 0, B: 0}
    winning_count = {W: 0, B: 0}
    info_sel = chess.engine.INFO_SCORE | chess.engine.INFO_BASIC
    t_game = time.time()

    while result is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = outcome.result()
            termination = "normal"
            t = outcome.termination
            T = chess.Termination
            if t == T.CHECKMATE:
                reason = "%s mates" % COLOR_NAME[outcome.winner]
            elif t == T.STALEMATE:
                reason = "Draw by stalemate"
            elif t == T.INSUFFICIENT_MATERIAL:
                reason = "Draw by insufficient mating material"
            elif t in (T.THREEFOLD_REPETITION, T.FIVEFOLD_REPETITION):
                reason = "Draw by 3-fold repetition"
            elif t in (T.FIFTY_MOVES, T.SEVENTYFIVE_MOVES):
                reason = "Draw by fifty moves rule"
            else:
                reason = "Game over (%s)" % t.name.lower()
            break
        if adj.get("maxmoves") and engine_plies >= 2 * adj["maxmoves"]:
            result, termination = "1/2-1/2", "adjudication"
            reason = "Draw by adjudication: max moves (%d)" % adj["maxmoves"]
            break

        side = board.turn
        transport, proto = engines[side]
        kw = {}
        if clocks is not None:
            kw.update(white_clock=max(clocks[W], 0.001), black_clock=max(clocks[B], 0.001),
                      white_inc=inc, black_inc=inc, clock_id=game_key)
            if moves_tc:
                kw["remaining_moves"] = moves_tc - period_moves[side]
            timeout = clocks[side] + margin + 0.25
        elif movetime:
            kw["time"] = movetime
            timeout = movetime + margin + 0.25
        else:
            timeout = hang_timeout
        if nodes:
            kw["nodes"] = nodes
        if depth:
            kw["depth"] = depth
        limit = chess.engine.Limit(**kw)

        t0 = time.perf_counter()
        try:
            play = await asyncio.wait_for(
                proto.play(board, limit, info=info_sel, game=game_key), timeout)
        except asyncio.TimeoutError:
            lose(side, KIND_TIME, "%s loses on time (no move after %.3fs)"
                 % (COLOR_NAME[side], time.perf_counter() - t0), "time forfeit")
            break
        except chess.engine.EngineTerminatedError as exc:
            lose(side, KIND_CRASH, "%s's engine crashed or disconnected (%s)"
                 % (COLOR_NAME[side], exc), "rules infraction")
            break
        except chess.engine.EngineError as exc:
            msg = str(exc)
            if "illegal" in msg.lower() or "invalid" in msg.lower():
                lose(side, KIND_ILLEGAL, "%s makes an illegal move (%s)"
                     % (COLOR_NAME[side], msg.split(" in ")[0]), "rules infraction")
            else:
                lose(side, KIND_CRASH, "%s's engine protocol error (%s)"
                     % (COLOR_NAME[side], msg), "rules infraction")
            break
        elapsed = time.perf_counter() - t0

        if play.resigned:
            lose(side, None, "%s resigns" % COLOR_NAME[side], "normal")
            break
        move = play.move
        if move is None or move not in board.legal_moves:
            lose(side, KIND_ILLEGAL, "%s makes an illegal move (%s)"
                 % (COLOR_NAME[side], move.uci() if move else "no move"), "rules infraction")
            break

        # Clocks.
        flagged = False
        if clocks is not None:
            clocks[side] -= elapsed
            if clocks[side] < -margin:
                flagged = True
            else:
                clocks[side] += inc
                if moves_tc:
                    period_moves[side] += 1
                    if period_moves[side] >= moves_tc:
                        period_moves[side] = 0
                        clocks[side] += base
        elif movetime and elapsed > movetime + margin:
            flagged = True
        if flagged:
            if board.has_insufficient_material(not side):
                result, termination = "1/2-1/2", "time forfeit"
                reason = ("%s loses on time but %s cannot mate: draw"
                          % (COLOR_NAME[side], COLOR_NAME[not side]))
                forfeit = (side, KIND_TIME)
            else:
                lose(side, KIND_TIME, "%s loses on time (%.3fs over)"
                     % (COLOR_NAME[side], (-clocks[side]) if clocks else elapsed - movetime),
                     "time forfeit")
            break

        info = play.info or {}
        pov = info.get("score")
        rel = pov.relative if pov is not None else None
        score_cp = rel.score(mate_score=100000) if rel is not None else None
        parts = []
        s = _fmt_score(rel)
        if s is not None:
            parts.append(s + ("/%d" % info["depth"] if "depth" in info else ""))
        parts.append("%.3fs" % elapsed)
        comments.append(" ".join(parts))
        board.push(move)
        engine_plies += 1

        # Adjudication (natural endings first: checked at the loop top).
        if board.outcome(claim_draw=True) is not None:
            continue
        if adj.get("draw"):
            d = adj["draw"]
            if score_cp is not None and abs(score_cp) <= d["score"]:
                draw_count += 1
            else:
                draw_count = 0
            if board.fullmove_number >= d["movenumber"] and draw_count >= 2 * d["movecount"]:
                result, termination = "1/2-1/2", "adjudication"
                reason = "Draw by adjudication"
                break
        if adj.get("resign"):
            r = adj["resign"]
            if score_cp is not None and score_cp <= -r["score"]:
                resign_count[side] += 1
            else:
                resign_count[side] = 0
            if score_cp is not None and score_cp >= r["score"]:
                winning_count[side] += 1
            else:
                winning_count[side] = 0
            if resign_count[side] >= r["movecount"] and (
                    not r.get("twosided") or winning_count[not side] >= r["movecount"]):
                lose(side, None, "%s wins by adjudication" % COLOR_NAME[not side],
                     "adjudication")
                break

    # Tell xboard engines the result, then shut everything down.
    winner = {"1-0": W, "0-1": B}.get(result)
    for c in list(engines):
        transport, proto = engines[c]
        if cfgs[c]["proto"] == "xboard" and transport.get_returncode() is None:
            try:
                await asyncio.wait_for(proto.send_game_result(board, winner, reason), 2.0)
            except BaseException:
                pass
    await asyncio.gather(*[_stop_engine(*engines[c]) for c in engines])

    # PGN.
    game = chess.pgn.Game()
    h = game.headers
    h["Event"] = spec["event"]
    h["Site"] = spec["site"]
    h["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    h["Round"] = str(spec["round"])
    h["White"] = cfgs[W]["name"]
    h["Black"] = cfgs[B]["name"]
    h["Result"] = result
    if start_board.fen() != chess.STARTING_FEN:
        game.setup(start_board)
    h["TimeControl"] = spec["tc_tag"]
    h["Termination"] = termination
    h["PlyCount"] = str(len(board.move_stack))
    h["Opening"] = "book #%d" % opening["index"] if opening.get("index") else "startpos"
    node = game
    for mv, com in zip(board.move_stack, comments):
        node = node.add_variation(mv, comment=com)
    if node is game:
        game.comment = reason
    else:
        node.comment = (node.comment + ", " + reason) if node.comment else reason
    pgn = game.accept(chess.pgn.StringExporter(headers=True, variations=True,
                                               comments=True, columns=80))

    return {
        "id": spec["id"],
        "pairing": spec["pairing"],
        "pair": spec["pair"],
        "white": spec["white_idx"],
        "black": spec["black_idx"],
        "result": result,
        "termination": termination,
        "reason": reason,
        "forfeit": ([spec["white_idx"] if forfeit[0] == W else spec["black_idx"], forfeit[1]]
                    if forfeit else None),
        "plies": engine_plies,
        "duration": time.time() - t_game,
        "pgn": pgn,
    }


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _worker_init(debug):
    # The main process owns interruption; workers finish or are terminated.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    logging.basicConfig(level=logging.DEBUG if debug else logging.CRITICAL)
    logging.getLogger("chess.engine").setLevel(logging.DEBUG if debug else logging.CRITICAL)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)


def run_game(spec):
    """Worker entry point: plays one game, returns a picklable dict."""
    try:
        return asyncio.run(_play_game(spec))
    except Exception as exc:  # unexpected runner-side failure
        return {"id": spec["id"], "pairing": spec["pairing"], "pair": spec["pair"],
                "white": spec["white_idx"], "black": spec["black_idx"],
                "result": "*", "termination": "abandoned",
                "reason": "game aborted: %s: %s" % (type(exc).__name__, exc),
                "forfeit": None, "plies": 0, "duration": 0.0, "pgn": None}


# --------------------------------------------------------------------------
# Match bookkeeping


class PairingStats:
    """Results of engine a vs engine b, from a's point of view."""

    def __init__(self, a, b):
        self.a, self.b = a, b
        self.w = self.d = self.l = 0
        self.by_color = {"white": [0, 0, 0], "black": [0, 0, 0]}  # a's W/D/L
        self.pairs = {}          # pair index -> list of a's scores
        self.penta = [0, 0, 0, 0, 0]
        self.reasons = {}

    def add(self, res):
        a_white = res["white"] == self.a
        r = res["result"]
        if r == "1/2-1/2":
            s = 0.5
        elif r == "1-0":
            s = 1.0 if a_white else 0.0
        else:
            s = 0.0 if a_white else 1.0
        idx = {1.0: 0, 0.5: 1, 0.0: 2}[s]
        if idx == 0:
            self.w += 1
        elif idx == 1:
            self.d += 1
        else:
            self.l += 1
        self.by_color["white" if a_white else "black"][idx] += 1
        self.reasons[res["reason"]] = self.reasons.get(res["reason"], 0) + 1
        lst = self.pairs.setdefault(res["pair"], [])
        lst.append(s)
        if len(lst) == 2:
            self.penta[ms.pair_index(lst[0], lst[1])] += 1
            return True  # a pair was completed
        return False

    @property
    def games(self):
        return self.w + self.d + self.l


class Match:
    def __init__(self, names, pairings, sprt=None):
        self.names = names
        self.stats = {p: PairingStats(*p) for p in pairings}
        self.forfeits = {i: {k: 0 for k in FORFEIT_KINDS} for i in range(len(names))}
        self.points = [[0.0] * len(names) for _ in names]
        self.played = [[0] * len(names) for _ in names]
        self.sprt = sprt
        self.aborted = 0
        self.games = 0

    def add(self, res):
        if res["result"] == "*":
            self.aborted += 1
            return False
        self.games += 1
        w, b = res["white"], res["black"]
        sw = {"1-0": 1.0, "0-1": 0.0}.get(res["result"], 0.5)
        self.points[w][b] += sw
        self.points[b][w] += 1.0 - sw
        self.played[w][b] += 1
        self.played[b][w] += 1
        if res["forfeit"]:
            who, kind = res["forfeit"]
            self.forfeits[who][kind] += 1
        ps = self.stats[res["pairing"]]
        pair_done = ps.add(res)
        if pair_done and self.sprt is not None:
            self.sprt.update(ps.penta)
        return pair_done


# --------------------------------------------------------------------------
# Reporting


def pairing_report(m, ps, sprt=None):
    A, Bn = m.names[ps.a], m.names[ps.b]
    out = []
    out.append("%s vs %s" % (A, Bn))
    tri = ms.trinomial_stats(ps.w, ps.d, ps.l)
    if tri is None:
        out.append("  no games")
        return out
    wc, bc = ps.by_color["white"], ps.by_color["black"]
    out.append("  Games %d: +%d =%d -%d  (%s as white +%d =%d -%d, as black +%d =%d -%d)"
               % (ps.games, ps.w, ps.d, ps.l, A, wc[0], wc[1], wc[2], bc[0], bc[1], bc[2]))
    out.append("  Score of %s: %.1f/%d = %.1f%%   draw ratio %.1f%%"
               % (A, tri["points"], ps.games, 100 * tri["score"], 100 * tri["draw_ratio"]))
    out.append("  Elo (logistic, trinomial):   %s (95%%)  [%+.1f, %+.1f]  LOS %.1f%%"
               % (ms.fmt_elo(tri), tri["elo_lo"], tri["elo_hi"], 100 * tri["los"]))
    pen = ms.pentanomial_stats(ps.penta)
    out.append("  Pentanomial [LL, LD, DD/WL, WD, WW]: [%s]  (%d pairs)"
               % (", ".join(str(x) for x in ps.penta), sum(ps.penta)))
    if pen is not None:
        out.append("  Elo (logistic, pentanomial): %s (95%%)  [%+.1f, %+.1f]  LOS %.1f%%"
                   % (ms.fmt_elo(pen), pen["elo_lo"], pen["elo_hi"], 100 * pen["los"]))
    if sprt is not None:
        out.append("  SPRT (%s): LLR %.3f  bounds [%.3f, %.3f]  -> %s"
                   % (sprt.describe(), sprt.llr, sprt.lower, sprt.upper,
                      sprt.state or "no decision"))
    out.append("  Endings:")
    for r, n in sorted(ps.reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append("    %4d  %s" % (n, r))
    return out


def crosstable(m):
    n = len(m.names)
    width = max(len(x) for x in m.names) + 2
    cw = max(7, max(len("%g/%d" % (m.points[i][j], m.played[i][j]))
                    for i in range(n) for j in range(n)) + 2)
    lines = []
    hdr = "%-*s" % (width + 4, "Engine") + "".join(
        "%*s" % (cw, (m.names[j][:cw - 2])) for j in range(n)) + "%10s%8s%8s" % ("Points", "Games", "Score")
    lines.append(hdr)
    order = sorted(range(n), key=lambda i: -sum(m.points[i]))
    for rank, i in enumerate(order, 1):
        row = "%2d. %-*s" % (rank, width, m.names[i])
        for j in range(n):
            if i == j:
                row += "%*s" % (cw, "-")
            elif m.played[i][j] == 0:
                row += "%*s" % (cw, ".")
            else:
                row += "%*s" % (cw, "%g/%d" % (m.points[i][j], m.played[i][j]))
        pts, g = sum(m.points[i]), sum(m.played[i])
        row += "%10g%8d%7.1f%%" % (pts, g, 100.0 * pts / g if g else 0.0)
        lines.append(row)
    return lines


def progress_line(m, total, running, primary):
    s = "Games %d/%d" % (m.games, total)
    if running:
        s += " (%d running)" % running
    if len(m.stats) == 1:
        ps = m.stats[primary]
        w, d, l, label = ps.w, ps.d, ps.l, "%s vs %s" % (m.names[ps.a], m.names[ps.b])
    else:
        # several pairings: the first engine against everybody it meets
        w = d = l = 0
        for ps in m.stats.values():
            if ps.a == 0:
                w, d, l = w + ps.w, d + ps.d, l + ps.l
        label = "%s vs others" % m.names[0]
    tri = ms.trinomial_stats(w, d, l)
    if tri:
        s += " | %s: +%d =%d -%d %.1f%% Elo %s" % (
            label, w, d, l, 100 * tri["score"], ms.fmt_elo(tri))
    if m.sprt is not None:
        s += " | LLR %.2f [%.2f, %.2f]" % (m.sprt.llr, m.sprt.lower, m.sprt.upper)
    return s


# --------------------------------------------------------------------------
# Main


def build_parser():
    p = argparse.ArgumentParser(
        prog="match.py",
        description=("Play matches between UCI / XBoard engines and report W/D/L, "
                     "logistic Elo with 95%% intervals (trinomial and pentanomial), "
                     "an optional fishtest-style GSPRT and a cross-table. "
                     "Uses python-chess."),
        epilog=DEFAULT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE",
                   required=True, help="an engine (give at least two), see below")
    p.add_argument("--each", nargs="+", default=[], metavar="KEY=VALUE",
                   help="defaults applied to every engine (e.g. option.Threads=1)")
    p.add_argument("--tournament", choices=("round-robin", "gauntlet"), default="round-robin",
                   help="round-robin: every pair plays; gauntlet: the first engine "
                   "plays each other engine (default round-robin)")
    p.add_argument("--games", type=int, default=2,
                   help="games per pairing (maximum when --sprt is given); each "
                   "opening is played twice with colours swapped (default 2)")
    p.add_argument("--openings", metavar="FILE",
                   help="opening book: EPD/FEN (one position per line, 4-field EPD "
                   "with ops or full 6-field FEN) or PGN (.pgn); default: start position")
    p.add_argument("--openings-format", choices=("auto", "epd", "pgn"), default="auto")
    p.add_argument("--order", choices=("sequential", "random"), default="sequential",
                   help="opening order (random uses --seed)")
    p.add_argument("--seed", type=int, default=None, help="seed for --order random")
    p.add_argument("--start", type=int, default=1, help="first opening (1-based) to use")
    p.add_argument("--plies", type=int, default=0,
                   help="PGN openings: use at most this many plies (0 = all)")
    tc = p.add_argument_group("time control")
    tc.add_argument("--tc", help="[moves/]base[+inc] in seconds, e.g. 5+0.05")
    tc.add_argument("--movetime", type=float, help="seconds per move")
    tc.add_argument("--nodes", type=int, help="node limit per move")
    tc.add_argument("--depth", type=int, help="depth limit per move")
    tc.add_argument("--time-margin", type=float, default=0.1,
                    help="seconds an engine may overstep its clock/movetime before "
                    "losing on time (default 0.1)")
    tc.add_argument("--hang-timeout", type=float, default=60.0,
                    help="without a clock/movetime: seconds before a silent engine "
                    "loses on time (default 60)")
    ad = p.add_argument_group("adjudication")
    ad.add_argument("--draw", nargs="+", metavar="KEY=VALUE",
                    help="movenumber=N movecount=N score=CP")
    ad.add_argument("--resign", nargs="+", metavar="KEY=VALUE",
                    help="movecount=N score=CP [twosided=true]")
    ad.add_argument("--maxmoves", type=int, default=400,
                    help="draw after this many full moves by the engines (0 = off; default 400)")
    p.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                   help="elo0=0 elo1=5 alpha=0.05 beta=0.05 (logistic Elo, two engines only)")
    p.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--pgn", metavar="FILE", help="write all games to this PGN file")
    p.add_argument("--pgn-append", action="store_true", help="append to --pgn instead of overwriting")
    p.add_argument("--json", metavar="FILE", help="write a JSON summary here")
    p.add_argument("--event", default="Tetrad match", help="PGN Event tag")
    p.add_argument("--quiet", action="store_true", help="no per-game lines on stderr")
    p.add_argument("--debug", action="store_true", help="log engine I/O (python-chess debug)")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    if chess is None:
        raise SystemExit("error: python-chess is required: pip install chess")

    def warn(msg):
        sys.stderr.write("warning: %s\n" % msg)

    logging.basicConfig(level=logging.DEBUG if args.debug else logging.CRITICAL)
    logging.getLogger("chess.engine").setLevel(logging.DEBUG if args.debug else logging.CRITICAL)

    cfgs = [parse_engine(toks, args.each) for toks in args.engine]
    if len(cfgs) < 2:
        raise SystemExit("error: need at least two --engine")

    # Time control.
    tcd = {}
    if args.tc:
        try:
            tcd["moves"], tcd["base"], tcd["inc"] = parse_tc(args.tc)
        except ValueError:
            raise SystemExit("error: bad --tc %r (want [moves/]base[+inc])" % args.tc)
    if args.movetime:
        if args.tc:
            raise SystemExit("error: --tc and --movetime are exclusive")
        tcd["movetime"] = args.movetime
    if args.nodes:
        tcd["nodes"] = args.nodes
    if args.depth:
        tcd["depth"] = args.depth
    if not tcd:
        raise SystemExit("error: give --tc, --movetime, --nodes or --depth")
    if args.tc:
        tc_tag = tc_string(tcd["moves"], tcd["base"], tcd["inc"])
    elif args.movetime:
        tc_tag = "1/%g" % args.movetime
    else:
        tc_tag = "-"
    for c in cfgs:
        if c["proto"] == "xboard" and args.nodes and (args.tc or args.movetime):
            raise SystemExit("error: xboard engines cannot mix --nodes with a time limit")

    # Adjudication.
    adj = {"maxmoves": args.maxmoves}
    if args.draw:
        d = parse_kv(args.draw, "--draw")
        try:
            adj["draw"] = {"movenumber": int(d.get("movenumber", 0)),
                           "movecount": int(d["movecount"]), "score": int(d["score"])}
        except (KeyError, ValueError):
            raise SystemExit("error: --draw needs movenumber=N movecount=N score=CP")
    if args.resign:
        r = parse_kv(args.resign, "--resign")
        try:
            adj["resign"] = {"movecount": int(r["movecount"]), "score": int(r["score"]),
                             "twosided": parse_bool(r.get("twosided", "false"))}
        except (KeyError, ValueError):
            raise SystemExit("error: --resign needs movecount=N score=CP [twosided=true]")

    sprt = None
    if args.sprt:
        if len(cfgs) != 2:
            raise SystemExit("error: --sprt needs exactly two engines")
        s = parse_kv(args.sprt, "--sprt")
        try:
            sprt = ms.Sprt(float(s.get("elo0", 0)), float(s.get("elo1", 5)),
                           float(s.get("alpha", 0.05)), float(s.get("beta", 0.05)))
        except ValueError as exc:
            raise SystemExit("error: --sprt: %s" % exc)

    # Probe engines (names, options).
    cfgs = [probe_engine(c, warn) for c in cfgs]
    seen = {}
    for c in cfgs:
        n = c["name"]
        if n in seen:
            seen[n] += 1
            c["name"] = "%s#%d" % (n, seen[n])
        else:
            seen[n] = 1
    names = [c["name"] for c in cfgs]

    n = len(cfgs)
    if args.tournament == "gauntlet":
        pairings = [(0, j) for j in range(1, n)]
    else:
        pairings = [(i, j) for i in range(n) for j in range(i + 1, n)]

    book = None
    if args.openings:
        book = OpeningBook(args.openings, args.openings_format, args.order, args.seed,
                           args.start, args.plies)
    if args.games < 1:
        raise SystemExit("error: --games must be >= 1")
    npairs = (args.games + 1) // 2

    site = socket.gethostname()
    schedule = []
    rnd = 0

    def gen_schedule():
        nonlocal rnd
        for k in range(npairs):
            opening = book.next() if book else {"fen": chess.STARTING_FEN, "moves": [],
                                               "index": 0}
            for (a, b) in pairings:
                for g in range(2):
                    if 2 * k + g >= args.games:
                        continue
                    wi, bi = (a, b) if g == 0 else (b, a)
                    rnd += 1
                    yield {
                        "id": rnd, "round": rnd, "pairing": (a, b), "pair": k,
                        "white_idx": wi, "black_idx": bi,
                        "white": cfgs[wi], "black": cfgs[bi],
                        "opening": opening, "tc": tcd, "tc_tag": tc_tag,
                        "adjudication": adj, "time_margin": args.time_margin,
                        "hang_timeout": args.hang_timeout,
                        "event": args.event, "site": site,
                    }

    total = len(pairings) * args.games
    m = Match(names, pairings, sprt)
    primary = pairings[0]
    tty = sys.stderr.isatty()
    pgn_file = None
    if args.pgn:
        pgn_file = open(args.pgn, "a" if args.pgn_append else "w", encoding="utf-8")

    sys.stderr.write("Match: %s; %s; %d games per pairing (%d total); tc %s%s%s; concurrency %d\n"
                     % (" vs ".join(names) if n == 2 else ", ".join(names), args.tournament,
                        args.games, total, tc_tag,
                        ("; nodes %d" % args.nodes) if args.nodes else "",
                        ("; depth %d" % args.depth) if args.depth else "",
                        args.concurrency))

    def show_progress(running, final=False):
        line = progress_line(m, total, running, primary)
        if tty:
            sys.stderr.write("\r\033[K" + line + ("\n" if final else ""))
        elif not final:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def game_line(res):
        if args.quiet:
            return
        if tty:
            sys.stderr.write("\r\033[K")
        sys.stderr.write("Game %d: %s vs %s: %s {%s} (%d plies, %.1fs)\n"
                         % (res["id"], names[res["white"]], names[res["black"]],
                            res["result"], res["reason"], res["plies"], res["duration"]))

    gen = gen_schedule()
    pending = set()
    stop_reason = None
    interrupted = 0
    # SIGTERM, and SIGINT even where the shell started us with it ignored (a
    # background job of a non-interactive shell), stop the match like Ctrl-C:
    # running games finish and the summary is still printed.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    executor = concurrent.futures.ProcessPoolExecutor(
        max_workers=max(1, args.concurrency), initializer=_worker_init,
        initargs=(args.debug,))
    t_start = time.time()
    try:
        while True:
            try:
                while stop_reason is None and len(pending) < max(1, args.concurrency):
                    spec = next(gen, None)
                    if spec is None:
                        break
                    pending.add(executor.submit(run_game, spec))
                if not pending:
                    break
                done, pending = concurrent.futures.wait(
                    pending, timeout=1.0, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in done:
                    res = fut.result()
                    m.add(res)
                    game_line(res)
                    if pgn_file and res["pgn"]:
                        pgn_file.write(res["pgn"] + "\n\n")
                        pgn_file.flush()
                    if sprt is not None and sprt.state and stop_reason is None:
                        stop_reason = "SPRT: %s" % sprt.state
                        if pending:
                            sys.stderr.write("%s; finishing %d running game(s)\n"
                                             % (stop_reason, len(pending)))
                    if not args.quiet and not tty:
                        show_progress(len(pending))
                if tty:
                    show_progress(len(pending))
            except KeyboardInterrupt:
                interrupted += 1
                if interrupted == 1:
                    stop_reason = "interrupted"
                    sys.stderr.write("\ninterrupted: finishing %d running game(s); "
                                     "Ctrl-C again to abort them\n" % len(pending))
                else:
                    for f in pending:
                        f.cancel()
                    for proc in list(getattr(executor, "_processes", {}).values()):
                        try:
                            proc.terminate()
                        except Exception:
                            pass
                    pending = set()
                    break
    finally:
        executor.shutdown(wait=interrupted < 2, cancel_futures=True)
        if pgn_file:
            pgn_file.close()
    show_progress(0, final=True)
    elapsed = time.time() - t_start

    # Summary.
    out = []
    out.append("=" * 72)
    out.append("Finished %d game(s) in %.0fs%s%s" % (
        m.games, elapsed, (" (%d aborted by the runner)" % m.aborted) if m.aborted else "",
        ("; stopped early: %s" % stop_reason) if stop_reason else ""))
    out.append("Time control %s%s%s; openings: %s" % (
        tc_tag, ("; nodes %d" % args.nodes) if args.nodes else "",
        ("; depth %d" % args.depth) if args.depth else "",
        ("%s (%s%s, %d skipped)" % (args.openings, args.order,
                                    (" seed %s" % args.seed) if args.order == "random" else "",
                                    book.skipped)) if book else "start position"))
    out.append("Elo model: logistic; 95% intervals; SPRT = GSPRT on game pairs (pentanomial)")
    out.append("")
    for p in pairings:
        out.extend(pairing_report(m, m.stats[p], sprt if p == primary else None))
        out.append("")
    if n > 2:
        out.append("Cross-table (points/games, row engine's score):")
        out.extend(crosstable(m))
        out.append("")
    out.append("Losses by forfeit (time forfeit / illegal move / crash or disconnect):")
    for i, nm in enumerate(names):
        f = m.forfeits[i]
        out.append("  %-24s %d / %d / %d" % (nm, f[KIND_TIME], f[KIND_ILLEGAL], f[KIND_CRASH]))
    text = "\n".join(out)
    print(text)
    sys.stdout.flush()

    if args.json:
        js = {
            "engines": names,
            "games": m.games,
            "aborted": m.aborted,
            "stopped": stop_reason,
            "tc": tc_tag,
            "pairings": [],
            "forfeits": {names[i]: m.forfeits[i] for i in range(n)},
        }
        for p in pairings:
            ps = m.stats[p]
            tri = ms.trinomial_stats(ps.w, ps.d, ps.l)
            pen = ms.pentanomial_stats(ps.penta)
            entry = {"a": names[p[0]], "b": names[p[1]], "wins": ps.w, "draws": ps.d,
                     "losses": ps.l, "pentanomial": ps.penta, "reasons": ps.reasons,
                     "trinomial": tri, "pentanomial_stats": pen}
            if sprt is not None and p == primary:
                entry["sprt"] = {"llr": sprt.llr, "lower": sprt.lower, "upper": sprt.upper,
                                 "state": sprt.state, "elo0": sprt.elo0, "elo1": sprt.elo1,
                                 "alpha": sprt.alpha, "beta": sprt.beta}
            js["pairings"].append(entry)
        with open(args.json, "w") as f:
            json.dump(js, f, indent=2)
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
