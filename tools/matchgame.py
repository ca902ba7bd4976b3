"""One game of tools/match.py, played in a worker process: clocks kept by
the runner, adjudication, forfeits and the PGN record."""

import asyncio
import datetime
import logging
import signal
import time

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # match.py reports it
    chess = None

from matchengines import _start_engine, _stop_engine

# Loss kinds counted separately in the summary.
KIND_TIME = "time forfeit"
KIND_ILLEGAL = "illegal move"
KIND_CRASH = "crash/disconnect"
FORFEIT_KINDS = (KIND_TIME, KIND_ILLEGAL, KIND_CRASH)


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
    start_board = chess.Board(opening["fen"], chess960=spec.get("chess960", False))
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
    if start_board.fen() != chess.STARTING_FEN or start_board.chess960:
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


def _worker_init(debug):
    # The main process owns interruption: a Ctrl-C to the process group, or a
    # `pkill -f` that also matches the workers' command line, must not kill a
    # game half-way (the main process kills workers itself on a second one).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
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
