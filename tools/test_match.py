"""Tests for tools/match.py, tools/matchstats.py, tools/pgnstats.py and
tools/analysis/pgngap.py.

Run from the repository root:
    python3 -m unittest discover -s tools -p 'test_*.py'

The statistics tests are pure Python.  The real-match tests need python-chess
(pip install chess) and are skipped without it; they use tools/randomengine.py
only (no Rust engine, no Debian packages) and take a few seconds.
"""

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import matchstats as ms  # noqa: E402

try:
    import chess  # noqa: F401
    import chess.pgn
    HAVE_CHESS = True
except ImportError:
    HAVE_CHESS = False


class TestElo(unittest.TestCase):
    def test_logistic_roundtrip(self):
        for elo in (-600, -100, -3, 0, 5, 147.19, 400):
            self.assertAlmostEqual(ms.logistic_elo(ms.logistic_score(elo)), elo, places=6)
        # 75 % score: -400*log10(1/0.75 - 1) = -400*log10(1/3) = 190.85
        self.assertAlmostEqual(ms.logistic_elo(0.75), 190.85, places=2)

    def test_trinomial_60_20_20(self):
        # W=60 D=20 L=20, 100 games.
        # score s = (60 + 0.5*20)/100 = 0.70
        # Elo = -400*log10(1/0.7 - 1) = -400*log10(0.428571) = 147.19
        # per-game variance = (60*(1-.7)^2 + 20*(.5-.7)^2 + 20*(0-.7)^2)/100
        #                   = (5.4 + 0.8 + 9.8)/100 = 0.16
        # std error of s = sqrt(0.16/100) = 0.04
        # 95 %: s -/+ 1.959964*0.04 = 0.621601 .. 0.778399
        #   Elo(0.621601) = -400*log10(0.608750) =  86.22
        #   Elo(0.778399) = -400*log10(0.284688) = 218.25
        # +/- = (218.25 - 86.22)/2 = 66.01
        # LOS = Phi((0.7-0.5)/0.04) = Phi(5) = 0.9999997
        r = ms.trinomial_stats(60, 20, 20)
        self.assertEqual(r["games"], 100)
        self.assertAlmostEqual(r["score"], 0.70, places=12)
        self.assertAlmostEqual(r["var"], 0.16, places=12)
        self.assertAlmostEqual(r["stderr"], 0.04, places=12)
        self.assertAlmostEqual(r["elo"], 147.19, delta=0.01)
        self.assertAlmostEqual(r["elo_lo"], 86.22, delta=0.01)
        self.assertAlmostEqual(r["elo_hi"], 218.25, delta=0.01)
        self.assertAlmostEqual(r["elo_pm"], 66.01, delta=0.01)
        self.assertAlmostEqual(r["los"], 0.9999997, places=6)
        self.assertEqual(ms.fmt_elo(r), "+147.2 +/- 66.0")

    def test_trinomial_even(self):
        # W=D=L=10: s = 0.5, Elo 0.
        # var = (10*.25 + 10*0 + 10*.25)/30 = 1/6; stderr = sqrt(1/180) = 0.0745356
        # 95 %: 0.5 +/- 0.146089 -> Elo(0.646089) = -400*log10(0.547775) = 104.56
        r = ms.trinomial_stats(10, 10, 10)
        self.assertAlmostEqual(r["elo"], 0.0, places=9)
        self.assertAlmostEqual(r["elo_pm"], 104.56, delta=0.01)
        self.assertAlmostEqual(r["los"], 0.5, places=9)
        self.assertEqual(ms.fmt_elo(r), "+0.0 +/- 104.6")

    def test_no_games(self):
        self.assertIsNone(ms.trinomial_stats(0, 0, 0))
        self.assertIsNone(ms.pentanomial_stats([0, 0, 0, 0, 0]))

    def test_pentanomial(self):
        # 100 pairs: [LL, LD, DD/WL, WD, WW] = [5, 20, 40, 25, 10]
        # pair average scores 0, .25, .5, .75, 1 with probabilities
        # .05, .20, .40, .25, .10
        # mean = .2*.25 + .4*.5 + .25*.75 + .1*1 = .05 + .2 + .1875 + .1 = .5375
        # var  = .05*.5375^2 + .2*.2875^2 + .4*.0375^2 + .25*.2125^2 + .1*.4625^2
        #      = .01444531 + .01653125 + .0005625 + .01128906 + .02139063 = .06421875
        # stderr = sqrt(.06421875/100) = .0253414
        # Elo = -400*log10(1/.5375 - 1) = -400*log10(.860465) = 26.11
        # 95 %: .5375 -/+ .0496682 = .4878318 .. .5871682
        #   Elo: -8.46 .. 61.20, +/- 34.83
        r = ms.pentanomial_stats([5, 20, 40, 25, 10])
        self.assertEqual(r["pairs"], 100)
        self.assertEqual(r["games"], 200)
        self.assertAlmostEqual(r["score"], 0.5375, places=12)
        self.assertAlmostEqual(r["var"], 0.06421875, places=12)
        self.assertAlmostEqual(r["elo"], 26.11, delta=0.01)
        self.assertAlmostEqual(r["elo_lo"], -8.46, delta=0.01)
        self.assertAlmostEqual(r["elo_hi"], 61.20, delta=0.01)
        self.assertAlmostEqual(r["elo_pm"], 34.83, delta=0.01)

    def test_pair_index(self):
        self.assertEqual(ms.pair_index(0, 0), 0)      # LL
        self.assertEqual(ms.pair_index(0.5, 0), 1)    # DL
        self.assertEqual(ms.pair_index(0, 0.5), 1)    # LD
        self.assertEqual(ms.pair_index(0.5, 0.5), 2)  # DD
        self.assertEqual(ms.pair_index(1, 0), 2)      # WL
        self.assertEqual(ms.pair_index(1, 0.5), 3)    # WD
        self.assertEqual(ms.pair_index(1, 1), 4)      # WW


def _golden_max(f, lo, hi, iters=300):
    """Maximum of a concave function on [lo, hi] by golden-section search."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iters):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return max(fc, fd)


def independent_gllr(counts, s0, s1):
    """Independent computation of the GSPRT LLR via the dual problem:
    the ML distribution with mean s is p_i/(1 + x(a_i - s)) where x maximises
    the concave g_s(x) = sum_i p_i log(1 + x (a_i - s)); the per-sample
    log-likelihood of the data under it is sum p_i log p_i - max_x g_s(x), so
    LLR = N * (max g_s0 - max g_s1).  Here the maximum is found by golden
    section search (matchstats solves the first-order condition by bisection)."""
    counts = [c if c > 0 else 1e-3 for c in counts]
    n = float(sum(counts))
    k = len(counts) - 1
    pdf = [(i / k, c / n) for i, c in enumerate(counts)]

    def gmax(s):
        lo, hi = -1.0 / (1.0 - s), 1.0 / s   # poles of log(1 + x(a - s))
        eps = 1e-12 * (hi - lo)
        return _golden_max(lambda x: sum(p * math.log(1 + x * (a - s)) for a, p in pdf),
                           lo + eps, hi - eps)

    return n * (gmax(s0) - gmax(s1))


class TestSprt(unittest.TestCase):
    def test_bounds(self):
        # lower = ln(beta/(1-alpha)), upper = ln((1-beta)/alpha)
        # alpha = beta = 0.05: ln(0.05/0.95) = ln(1/19) = -2.944439, +2.944439
        lo, hi = ms.sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(lo, -2.944439, places=6)
        self.assertAlmostEqual(hi, 2.944439, places=6)
        # alpha = 0.05, beta = 0.10: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = ln 18 = 2.890372
        lo, hi = ms.sprt_bounds(0.05, 0.10)
        self.assertAlmostEqual(lo, -2.251292, places=6)
        self.assertAlmostEqual(hi, 2.890372, places=6)
        self.assertAlmostEqual(lo, math.log(0.1 / 0.95), places=12)
        self.assertAlmostEqual(hi, math.log(0.9 / 0.05), places=12)

    def test_llr_approx_hand(self):
        # Pentanomial [5, 20, 40, 25, 10] (100 pairs), elo0 = 0, elo1 = 5.
        # s0 = 0.5; s1 = 1/(1 + 10^(-5/400)) = 1/(1 + 0.9716280) = 0.5071951
        # sample mean s = 0.5375, variance = 0.06421875 (see test_pentanomial)
        # LLR ~ N (s1 - s0)(2 s - s0 - s1) / (2 var)
        #     = 100 * 0.0071951 * (1.075 - 1.0071951) / 0.1284375
        #     = 100 * 0.0071951 * 0.0678049 / 0.1284375
        #     = 100 * 0.00048786 / 0.1284375 = 0.37984
        self.assertAlmostEqual(ms.logistic_score(5), 0.5071951, places=7)
        llr = ms.llr_logistic_approx(0, 5, [5, 20, 40, 25, 10])
        self.assertAlmostEqual(llr, 0.37984, places=4)
        # The exact GSPRT is close to the approximation (within 2 %).
        exact = ms.llr_logistic(0, 5, [5, 20, 40, 25, 10])
        self.assertLess(abs(exact - llr) / llr, 0.02)

    def test_llr_exact_independent(self):
        cases = [
            ([5, 20, 40, 25, 10], 0, 5),
            ([10789, 19328, 33806, 19402, 10543], -3, 1),
            ([3, 7, 20, 9, 1], 0, 10),
            ([0, 2, 7, 4, 0], 0, 5),      # empty buckets are regularised
            ([20, 30, 50], 0, 5),          # trinomial [L, D, W]
        ]
        for counts, e0, e1 in cases:
            s0, s1 = ms.logistic_score(e0), ms.logistic_score(e1)
            mine = ms.llr_logistic(e0, e1, counts)
            ref = independent_gllr(counts, s0, s1)
            self.assertAlmostEqual(mine, ref, places=6, msg=str(counts))

    def test_llr_sign_and_symmetry(self):
        self.assertEqual(ms.llr_logistic(0, 5, [0, 0, 0, 0, 0]), 0.0)
        # mirrored results, mirrored hypotheses -> same LLR
        a = ms.llr_logistic(0, 5, [1, 4, 10, 6, 2])
        b = ms.llr_logistic(-5, 0, [2, 6, 10, 4, 1])
        self.assertAlmostEqual(a, -b, places=9)

    def test_sprt_decisions(self):
        s = ms.Sprt(0, 5, 0.05, 0.05)
        # about +28 Elo over 2240 games: LLR ~ 3.5 > 2.944
        self.assertEqual(s.update([100, 200, 400, 260, 160]), "H1 accepted")
        self.assertGreaterEqual(s.llr, s.upper)
        # about -24 Elo over 2200 games: LLR ~ -3.6 < -2.944
        self.assertEqual(s.update([150, 250, 400, 200, 100]), "H0 accepted")
        self.assertLessEqual(s.llr, s.lower)
        self.assertEqual(s.update([1, 2, 4, 2, 1]), "")
        with self.assertRaises(ValueError):
            ms.Sprt(5, 0)


class TestNormalized(unittest.TestCase):
    # check_ext_see's SPRT at 1,138 games (docs/results/check_ext_see_10s.txt)
    PENTA = [9, 105, 322, 124, 9]

    def test_nelo_hand(self):
        # pair mean 289.25/569 = 0.508348, pair variance 0.032993, sd 0.181639;
        # per-game sd sqrt(2) * 0.181639 = 0.256876; t = 0.008348/0.256876 = 0.032498
        # nElo = 347.436 * t = 11.291; +/- 1.96 * 347.436 / sqrt(1138) = 20.19
        st = ms.normalized_stats(self.PENTA)
        self.assertAlmostEqual(st["t"], 0.032498, places=5)
        self.assertAlmostEqual(st["nelo"], 11.291, places=2)
        self.assertAlmostEqual(st["nelo_pm"], 20.19, places=2)
        self.assertIsNone(ms.normalized_stats([0, 0, 4, 0, 0]))
        self.assertIsNone(ms.normalized_stats([0, 0, 0, 0, 0]))

    def test_llr_against_brownian(self):
        # Brownian approximation for pairs: N (t1 - t0)(2 t - t0 - t1) / 2 with
        # the pair t-values (sqrt(2) times the per-game ones)
        for counts, e0, e1 in ((self.PENTA, 0, 5), ([10789, 19328, 33806, 19402, 10543], -3, 1),
                               ([120, 900, 2600, 1000, 110], 0, 5)):
            n = sum(counts)
            t = math.sqrt(2) * ms.normalized_stats(counts)["t"]
            t0, t1 = (math.sqrt(2) * e / ms.NELO_PER_T for e in (e0, e1))
            approx = n * (t1 - t0) * (2 * t - t0 - t1) / 2
            exact = ms.llr_normalized(e0, e1, counts)
            self.assertLess(abs(exact - approx), 0.02 * abs(approx) + 0.01, msg=str(counts))
        # the value OpenBench's stats.py and fastchess print for these counts
        self.assertAlmostEqual(ms.llr_normalized(0, 5, self.PENTA), 0.41325, places=4)

    def test_llr_symmetry_and_sprt(self):
        a = ms.llr_normalized(0, 5, [1, 4, 10, 6, 2])
        b = ms.llr_normalized(-5, 0, [2, 6, 10, 4, 1])
        self.assertAlmostEqual(a, -b, places=9)
        s = ms.Sprt(0, 5, model="normalized")
        # about +20 nElo over 4,200 games: LLR ~ 3.0; about -20 nElo: LLR ~ -3.8
        self.assertEqual(s.update([40, 300, 1300, 420, 40]), "H1 accepted")
        self.assertEqual(s.update([50, 400, 1300, 300, 40]), "H0 accepted")
        # the same counts pass the logistic [0, 5] SPRT (+28 Elo) but not the
        # normalized one: a wide pair distribution carries less per game
        self.assertEqual(s.update([100, 200, 400, 260, 160]), "")
        with self.assertRaises(ValueError):
            ms.Sprt(0, 5, model="bayes")

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sprt.json")
            with open(path, "w") as f:
                json.dump({"stats": {"new vs old": {
                    "wins": 168, "losses": 149, "draws": 821, "penta_WW": 9, "penta_WD": 124,
                    "penta_WL": 26, "penta_DD": 296, "penta_LD": 105, "penta_LL": 9}}}, f)
            self.assertEqual(ms.fastchess_penta(path), ("new vs old", self.PENTA))
            out = subprocess.run([sys.executable, os.path.join(HERE, "matchstats.py"),
                                  "--fastchess", path], capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("nElo +11.3 +/- 20.2", out.stdout)
            self.assertIn("LLR 0.41 (-2.94, 2.94) [0, 5] normalized: continue", out.stdout)
            with open(path, "w") as f:
                json.dump({"stats": {}}, f)
            for args in (["--fastchess", path], ["--penta", "1,2"], ["--penta", "0,0,0,0,0"],
                         ["--fastchess", os.path.join(d, "missing.json")]):
                out = subprocess.run([sys.executable, os.path.join(HERE, "matchstats.py")] + args,
                                     capture_output=True, text=True)
                self.assertEqual(out.returncode, 2, args)
                self.assertIn("matchstats", out.stderr)


class TestParsing(unittest.TestCase):
    def setUp(self):
        import match
        self.match = match

    def test_parse_tc(self):
        self.assertEqual(self.match.parse_tc("5+0.05"), (0, 5.0, 0.05))
        self.assertEqual(self.match.parse_tc("40/60"), (40, 60.0, 0.0))
        self.assertEqual(self.match.parse_tc("40/60+0.6"), (40, 60.0, 0.6))
        self.assertEqual(self.match.tc_string(0, 5.0, 0.05), "5+0.05")
        with self.assertRaises(ValueError):
            self.match.parse_tc("0+1")

    def test_parse_engine(self):
        cfg = self.match.parse_engine(
            ["cmd=/usr/games/phalanx", "args=-b- -l-", "proto=xboard", "name=phalanx",
             "option.memory=32"], ["option.Threads=1"])
        self.assertEqual(cfg["argv"], ["/usr/games/phalanx", "-b-", "-l-"])
        self.assertEqual(cfg["proto"], "xboard")
        self.assertEqual(cfg["options"], {"Threads": "1", "memory": "32"})
        cfg = self.match.parse_engine(["cmd=python3 tools/randomengine.py"], [])
        self.assertEqual(cfg["argv"], ["python3", "tools/randomengine.py"])
        self.assertEqual(cfg["proto"], "uci")


class TestPgnStats(unittest.TestCase):
    """tools/pgnstats.py: pairs rebuilt from Round tags, per file; a game
    without its partner is left out."""

    GAME = ('[Event "m"]\n[Round "%d"]\n[White "%s"]\n[Black "%s"]\n'
            '[Result "%s"]\n\n1. e4 e5 %s\n\n')

    def write(self, games):
        f = tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False)
        for rnd, white, black, result in games:
            f.write(self.GAME % (rnd, white, black, result, result))
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_pairs_across_files(self):
        import pgnstats
        a = self.write([(2, "y", "x", "0-1"), (1, "x", "y", "1/2-1/2"),
                        (3, "x", "y", "0-1")])               # round 3: no partner
        b = self.write([(1, "x", "y", "1-0"), (2, "y", "x", "1-0")])
        stats, opponents, unpaired = pgnstats.collect([a, b], "x")
        self.assertEqual((stats.w, stats.d, stats.l), (2, 1, 1))
        self.assertEqual(stats.penta, [0, 0, 1, 1, 0])  # (1,0) -> WL; (0.5,1) -> WD
        self.assertEqual(opponents, ["y"])
        self.assertEqual(unpaired, [(a, 3, "0-1")])


class TestPgnGap(unittest.TestCase):
    def test_first_gap_and_sides(self):
        from analysis import pgngap
        pgn = (
            '[Event "x"]\n[White "sf"]\n[Black "tetrad"]\n[Result "1-0"]\n[FEN "8/8/8/8/8/8/8/K6k b - - 0 1"]\n\n'
            '1... Kg1 {+0.10/12 0.300s} 2. Kb1 {+0.40/20 0.200s} Kg2 {+0.05/13 0.300s} '
            '3. Kc1 {+1.20/21 0.200s} Kg3 {-1.50/13 0.300s} 4. Kd1 {+M5/30 0.100s} 1-0\n'
        )
        r = pgngap.analyse(pgn, "tetrad", 1.0)
        self.assertEqual(r["games"], 1)
        # Black (tetrad) moved first; the opponent first reaches +1.00 at comment 3.
        self.assertEqual(r["first"], [1])
        self.assertAlmostEqual(r["ours_before"][0], -0.05)
        self.assertEqual(r["depth"][True], [12, 13, 13])
        self.assertEqual(r["depth"][False], [20, 21, 30])
        self.assertEqual(pgngap.score("-M3"), -100.0)
        # Tetrad lost this game: `lost_only` keeps it, and drops it once Black wins.
        self.assertEqual(pgngap.analyse(pgn, "tetrad", 1.0, lost_only=True)["first"], [1])
        won = pgngap.analyse(pgn.replace("1-0", "0-1"), "tetrad", 1.0, lost_only=True)
        self.assertEqual((won["games"], won["first"]), (0, []))
        if HAVE_CHESS:
            # Two kings on the board after the opponent's +1.20 (the fourth move).
            self.assertEqual(pgngap.analyse(pgn, "tetrad", 1.0, pieces=True)["pieces"], [2])


@unittest.skipUnless(HAVE_CHESS, "python-chess is not installed (pip install chess)")
class TestRealMatch(unittest.TestCase):
    MATCH = os.path.join(HERE, "match.py")
    ENGINE = os.path.join(HERE, "randomengine.py")

    def run_match(self, extra, tmp):
        pgn = os.path.join(tmp, "games.pgn")
        js = os.path.join(tmp, "summary.json")
        cmd = [sys.executable, self.MATCH, "--pgn", pgn, "--json", js] + extra
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        with open(js) as f:
            summary = json.load(f)
        games = []
        with open(pgn) as f:
            while True:
                g = chess.pgn.read_game(f)
                if g is None:
                    break
                self.assertEqual(g.errors, [])
                games.append(g)
        return proc, summary, games

    def engine(self, name, *opts):
        return ["--engine", "cmd=" + sys.executable, "args=" + self.ENGINE,
                "name=" + name] + list(opts)

    def test_openings_loader(self):
        import match
        with tempfile.TemporaryDirectory() as tmp:
            epd = os.path.join(tmp, "book.epd")
            with open(epd, "w") as f:
                f.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
                f.write("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 0; fmvn 2;\n")
            book = match.OpeningBook(epd)
            a, b, c = book.next(), book.next(), book.next()
            self.assertTrue(a["fen"].endswith(" b KQkq - 0 1"))
            self.assertTrue(b["fen"].endswith(" w KQkq - 0 2"))
            self.assertEqual(a, c)  # cycles
            pgnf = os.path.join(tmp, "book.pgn")
            with open(pgnf, "w") as f:
                f.write('[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event "y"]\n\n1. d4 d5 *\n')
            book = match.OpeningBook(pgnf, plies=3, order="random", seed=1)
            ops = sorted([tuple(book.next()["moves"]) for _ in range(2)])
            self.assertEqual(ops, [("d2d4", "d7d5"), ("e2e4", "e7e5", "g1f3")])

    def test_short_match(self):
        # 4 random-mover games, 2 openings each played with both colours.
        with tempfile.TemporaryDirectory() as tmp:
            epd = os.path.join(tmp, "book.epd")
            with open(epd, "w") as f:
                f.write("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n")
                f.write("rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2\n")
            proc, summary, games = self.run_match(
                self.engine("rand1") + self.engine("rand2") +
                ["--games", "4", "--movetime", "0.02", "--time-margin", "1", "--concurrency", "2",
                 "--openings", epd, "--maxmoves", "80", "--sprt", "elo0=0", "elo1=5"], tmp)
            self.assertEqual(summary["games"], 4)
            self.assertEqual(len(games), 4)
            p = summary["pairings"][0]
            self.assertEqual(p["wins"] + p["draws"] + p["losses"], 4)
            self.assertEqual(sum(p["pentanomial"]), 2)
            self.assertIn("Elo (logistic, trinomial)", proc.stdout)
            self.assertIn("Pentanomial [LL, LD, DD/WL, WD, WW]", proc.stdout)
            self.assertIn("SPRT (elo0=0 elo1=5 alpha=0.05 beta=0.05): LLR", proc.stdout)
            fens = {}
            for g in games:
                self.assertEqual(g.headers["SetUp"], "1")
                self.assertEqual(g.headers["TimeControl"], "1/0.02")
                self.assertIn(g.headers["Result"], ("1-0", "0-1", "1/2-1/2"))
                board = g.end().board()
                if g.headers["Termination"] == "normal":
                    self.assertEqual(board.outcome(claim_draw=True).result(), g.headers["Result"])
                else:
                    self.assertEqual(g.headers["Termination"], "adjudication")
                    self.assertEqual(g.headers["Result"], "1/2-1/2")  # max moves
                fens.setdefault(g.headers["FEN"], set()).add(g.headers["White"])
            # each opening played once with each engine as white
            self.assertEqual(sorted(len(v) for v in fens.values()), [2, 2])

    @staticmethod
    def children(pid):
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
        return [int(x) for x in out.split()]

    def test_sigterm_prints_summary(self):
        # A runner started as a background job (SIGINT ignored) and stopped
        # with SIGTERM still finishes its running game and prints the summary.
        with tempfile.TemporaryDirectory() as tmp:
            pgn = os.path.join(tmp, "games.pgn")
            cmd = [sys.executable, self.MATCH, "--pgn", pgn, "--games", "1000", "--movetime", "0.01",
                   "--maxmoves", "40"] + self.engine("rand1") + self.engine("rand2")
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
            deadline = time.time() + 60
            while time.time() < deadline and (not os.path.exists(pgn) or os.path.getsize(pgn) == 0):
                time.sleep(0.1)
            # Like `pkill -f`: the workers (same command line) get it too.
            for pid in [proc.pid] + self.children(proc.pid):
                os.kill(pid, signal.SIGTERM)
            out, err = proc.communicate(timeout=120)
            self.assertEqual(proc.returncode, 130, err)
            self.assertIn("stopped early: interrupted", out)
            self.assertIn("Elo (logistic, trinomial)", out)

    def test_forfeits(self):
        with tempfile.TemporaryDirectory() as tmp:
            # Only the hang needs a short clock; the others get a long one, so
            # that a loaded machine cannot turn their forfeit into a time loss.
            for mode, kind, term, tc in (("illegal", "illegal move", "rules infraction", "30+0.1"),
                                         ("crash", "crash/disconnect", "rules infraction", "30+0.1"),
                                         ("hang", "time forfeit", "time forfeit", "0.5+0.01")):
                proc, summary, games = self.run_match(
                    self.engine("good") +
                    self.engine("bad", "option.Mode=" + mode, "option.FailAt=2") +
                    ["--games", "2", "--tc", tc, "--time-margin", "0.05"], tmp)
                self.assertEqual(summary["forfeits"]["bad"][kind], 2, mode)
                self.assertEqual(summary["forfeits"]["good"][kind], 0, mode)
                p = summary["pairings"][0]
                self.assertEqual((p["wins"], p["draws"], p["losses"]), (2, 0, 0), mode)
                for g in games:
                    self.assertEqual(g.headers["Termination"], term)
                    self.assertEqual(g.headers["Result"],
                                     "1-0" if g.headers["White"] == "good" else "0-1")

    def test_adjudication(self):
        with tempfile.TemporaryDirectory() as tmp:
            # both report -700 / +700 for themselves: 'loser' resigns after 3 moves
            proc, summary, games = self.run_match(
                self.engine("loser", "option.Score=-700") +
                self.engine("winner", "option.Score=700") +
                ["--games", "2", "--nodes", "1", "--resign", "movecount=3", "score=600"], tmp)
            p = summary["pairings"][0]
            self.assertEqual((p["wins"], p["draws"], p["losses"]), (0, 0, 2))
            for g in games:
                self.assertEqual(g.headers["Termination"], "adjudication")
            # scores within 10 cp: draw once full move 10 is reached and 2 moves each (fixed
            # seeds: random movers with the OS's seed now and then mate before move 10)
            proc, summary, games = self.run_match(
                self.engine("a", "option.Score=3", "option.Seed=1") +
                self.engine("b", "option.Score=-3", "option.Seed=2") +
                ["--games", "2", "--nodes", "1",
                 "--draw", "movenumber=10", "movecount=2", "score=10"], tmp)
            for g in games:
                self.assertEqual(g.headers["Result"], "1/2-1/2")
                self.assertEqual(g.headers["Termination"], "adjudication")
                self.assertEqual(int(g.headers["PlyCount"]), 18)

    def test_help(self):
        proc = subprocess.run([sys.executable, self.MATCH, "--help"],
                              capture_output=True, text=True, timeout=30)
        self.assertEqual(proc.returncode, 0)
        self.assertIn("logistic", proc.stdout.lower())
        self.assertIn("--sprt", proc.stdout)
        self.assertNotIn("--spsa", proc.stdout)  # OpenBench's SPSA: tools/openbench/run.sh spsa

    def test_two_engines_only(self):
        # Tournaments of more engines are fastchess's (-tournament gauntlet|roundrobin).
        proc = subprocess.run([sys.executable, self.MATCH, "--nodes", "1"] + self.engine("a") +
                              self.engine("b") + self.engine("c"),
                              capture_output=True, text=True, timeout=30)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("exactly two --engine", proc.stderr)


if __name__ == "__main__":
    unittest.main()
