#!/usr/bin/env python3
"""Tetrad match runner: one engine against another, in pure Python.

Plays games between two UCI and/or XBoard (CECP) engines with python-chess,
keeping the clocks itself, using openings from an EPD/FEN or PGN book (each
opening twice, colours swapped), and reports W/D/L, score, Elo with a 95 %
interval (trinomial and pentanomial) and an optional SPRT.

Kept for what fastchess and OpenBench do not do (tools/README.md): XBoard
engines, a UCI client no one here wrote (tests/python_client.rs), and a
runner that needs nothing built, which the tests use.  Matches, SPRTs and
SPSA runs are played with fastchess or tools/openbench/run.sh.

Elo model: LOGISTIC Elo (score s <-> elo = -400*log10(1/s - 1)).  The SPRT is
fishtest's generalised SPRT on the pentanomial distribution of game pairs
(H0: elo = elo0, H1: elo = elo1, logistic, maximum-likelihood LLR; see
tools/matchstats.py).

Example (an XBoard engine, which fastchess does not play):
  python3 tools/match.py \\
      --engine cmd=target/release/tetrad name=tetrad option.Hash=16 \\
      --engine cmd=/usr/games/phalanx "args=-b- -l-" proto=xboard name=phalanx \\
      --openings ../shared/data/book_8moves_v3.epd --order random --seed 1 \\
      --games 40 --tc 5+0.05 --concurrency 2 --pgn out.pgn

Requires python-chess (pip install chess).
"""

import argparse
import concurrent.futures
import json
import logging
import os
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matchstats as ms  # noqa: E402
from matchbook import OpeningBook  # noqa: E402
from matchengines import parse_bool, parse_engine, parse_kv, probe_engine  # noqa: E402,F401
from matchgame import (KIND_CRASH, KIND_ILLEGAL, KIND_TIME, _worker_init,  # noqa: E402,F401
                       parse_tc, run_game, tc_string)
from matchreport import Match, pairing_report, progress_line  # noqa: E402

try:
    import chess
except ImportError:  # reported in main()
    chess = None


DEFAULT_EPILOG = """\
engine spec (--engine, given twice, and --each take KEY=VALUE tokens):
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
(fishtest-style GSPRT) stops the match as soon as LLR <= ln(beta/(1-alpha))
(H0 accepted) or LLR >= ln((1-beta)/alpha) (H1 accepted); --games is then
the maximum number of games.
"""


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def build_parser():
    p = argparse.ArgumentParser(
        prog="match.py",
        description=("Play a match between two UCI / XBoard engines and report W/D/L, "
                     "logistic Elo with 95% intervals (trinomial and pentanomial) "
                     "and an optional fishtest-style GSPRT. Uses python-chess."),
        epilog=DEFAULT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE",
                   required=True, help="an engine (give exactly two), see below")
    p.add_argument("--each", nargs="+", default=[], metavar="KEY=VALUE",
                   help="defaults applied to every engine (e.g. option.Threads=1)")
    p.add_argument("--games", type=int, default=2,
                   help="games (maximum when --sprt is given); each "
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
    p.add_argument("--variant", choices=("standard", "chess960"), default="standard",
                   help="chess960: openings are Chess960 (FRC/DFRC) positions (Shredder- or "
                   "X-FEN castling); UCI engines get UCI_Chess960 and castle as king takes rook")
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
                   help="elo0=0 elo1=5 alpha=0.05 beta=0.05 (logistic Elo)")
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
    if len(cfgs) != 2:
        raise SystemExit("error: give exactly two --engine (fastchess plays tournaments)")

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

    book = None
    if args.openings:
        book = OpeningBook(args.openings, args.openings_format, args.order, args.seed,
                           args.start, args.plies, chess960=args.variant == "chess960")

    n = len(cfgs)
    pairings = [(0, 1)]

    if args.games < 1:
        raise SystemExit("error: --games must be >= 1")
    npairs = (args.games + 1) // 2

    site = socket.gethostname()
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
                        "chess960": args.variant == "chess960",
                    }

    total = len(pairings) * args.games
    m = Match(names, pairings, sprt)
    primary = pairings[0]
    tty = sys.stderr.isatty()
    pgn_file = None
    if args.pgn:
        pgn_file = open(args.pgn, "a" if args.pgn_append else "w", encoding="utf-8")

    sys.stderr.write("Match: %s; %d games; tc %s%s%s; concurrency %d\n"
                     % (" vs ".join(names), total, tc_tag,
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
                            proc.kill()
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
