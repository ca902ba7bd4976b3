"""Match statistics for tools/match.py: Elo, confidence intervals, LOS,
pentanomial statistics and the GSPRT log-likelihood ratio.

Pure Python (no python-chess, no scipy), so it can be imported and unit
tested anywhere.

Elo model: *logistic* Elo everywhere, i.e. an expected score ``s`` maps to
``elo = -400 * log10(1/s - 1)`` and back with ``s = 1 / (1 + 10**(-elo/400))``.

SPRT: the generalised SPRT (GSPRT) of fishtest: H0: E[score] = L(elo0)
against H1: E[score] = L(elo1).  For each hypothesis the maximum-likelihood
multinomial (pentanomial for game pairs, trinomial for single games) with
that expectation is found (the "secular equation", solved here by
bisection) and the log-likelihood ratio of the observed counts under the
two ML distributions is the LLR.  ``llr_logistic_approx`` is the
closed-form Brownian approximation ``N (s1-s0)(2 s - s0 - s1) / (2 var)``
that fishtest also documents; the two agree closely once a few dozen pairs
are in.  Bounds are Wald's: lower = ln(beta/(1-alpha)),
upper = ln((1-beta)/alpha).

Normalized Elo (the model of fastchess's and OpenBench's SPRTs, and of the
project's records since 2026-12-06): the t-value (mean - 1/2) / sd of the
per-game score, times 800 / ln 10; for pentanomial counts the per-game sd
is sqrt(2) times the sd of a pair's average score.  Its SPRT is the
generalised one on that t-value (M. Van den Bergh, "Normalized Elo", the
maximum-likelihood distribution with a given t-value found by iterating
the secular equation).

Run as a script it reads counts and prints both models and the LLR:
    python3 tools/matchstats.py --penta 9,105,322,124,9 --bounds 0,5
    python3 tools/matchstats.py --fastchess sprt.json       # a fastchess state
"""

import argparse
import json
import math
import sys

# Quantile of the standard normal distribution at 0.975 (two-sided 95 %).
Z_975 = 1.959963984540054

PENTA_LABELS = ("LL", "LD", "DD/WL", "WD", "WW")

# Normalized Elo per unit of t-value: 800 / ln 10.
NELO_PER_T = 800.0 / math.log(10.0)


def logistic_score(elo):
    """Expected score for a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def logistic_elo(score, clamp=1e-3):
    """Logistic Elo for an expected score (clamped like fishtest so that a
    100 % or 0 % score gives a large finite number rather than infinity)."""
    score = min(max(score, clamp), 1.0 - clamp)
    return -400.0 * math.log10(1.0 / score - 1.0)


def phi(x):
    """Standard normal CDF."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _moments(values, counts):
    n = float(sum(counts))
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    return n, mean, var


def _elo_block(n_samples, mean, var, games):
    """Common part of trinomial/pentanomial Elo: mean and variance are per
    sample (a game, or a pair's average score); n_samples samples."""
    stderr = math.sqrt(var / n_samples) if n_samples > 0 else float("inf")
    lo_s = mean - Z_975 * stderr
    hi_s = mean + Z_975 * stderr
    elo = logistic_elo(mean)
    elo_lo = logistic_elo(lo_s)
    elo_hi = logistic_elo(hi_s)
    if stderr > 0:
        los = phi((mean - 0.5) / stderr)
    else:
        los = 1.0 if mean > 0.5 else (0.0 if mean < 0.5 else 0.5)
    return {
        "games": games,
        "score": mean,
        "var": var,
        "stderr": stderr,
        "elo": elo,
        "elo_lo": elo_lo,
        "elo_hi": elo_hi,
        # symmetric half-width, as fishtest prints it: (hi - lo) / 2
        "elo_pm": (elo_hi - elo_lo) / 2.0,
        "los": los,
    }


def trinomial_stats(wins, draws, losses):
    """Elo and 95 % interval from W/D/L (games treated as independent).

    Returns None for zero games."""
    games = wins + draws + losses
    if games == 0:
        return None
    n, mean, var = _moments((1.0, 0.5, 0.0), (wins, draws, losses))
    res = _elo_block(n, mean, var, games)
    res.update(wins=wins, draws=draws, losses=losses,
               points=wins + 0.5 * draws, draw_ratio=draws / games)
    return res


def pentanomial_stats(penta):
    """Elo and 95 % interval from pentanomial counts [LL, LD, DD+WL, WD, WW]
    of game pairs.  The sample is a pair's average score (0, .25, .5, .75, 1),
    so the interval accounts for the correlation inside a pair.

    Returns None for zero pairs."""
    pairs = sum(penta)
    if pairs == 0:
        return None
    n, mean, var = _moments((0.0, 0.25, 0.5, 0.75, 1.0), penta)
    res = _elo_block(n, mean, var, 2 * pairs)
    res.update(pairs=pairs, penta=list(penta))
    return res


def normalized_stats(counts):
    """Normalized Elo and its 95 % half-width from trinomial [L, D, W] or
    pentanomial [LL..WW] counts: {"nelo", "nelo_pm", "t"}, or None when
    nothing was played or every sample scored the same."""
    samples = sum(counts)
    if samples == 0:
        return None
    k = len(counts) - 1
    n, mean, var = _moments([i / k for i in range(k + 1)], counts)
    if var <= 0:
        return None
    t = (mean - 0.5) / (math.sqrt(var) * _per_sample_scale(counts))
    games = samples * (2 if k == 4 else 1)
    return {"t": t, "nelo": NELO_PER_T * t,
            "nelo_pm": NELO_PER_T * Z_975 / math.sqrt(games)}


def _per_sample_scale(counts):
    """Per-game sd over a sample's sd: sqrt(2) for pentanomial counts (a
    pair's average has half a game's variance when its games are
    independent; the model takes the factor either way), 1 for games."""
    return math.sqrt(2.0) if len(counts) == 5 else 1.0


def pair_index(score_a, score_b):
    """Pentanomial bucket of a game pair, given the first player's score
    (1, 0.5 or 0) in each of the two games: 0=LL 1=LD 2=DD/WL 3=WD 4=WW."""
    return int(round(2 * (score_a + score_b)))


# --------------------------------------------------------------------------
# GSPRT


def regularize(counts, eps=1e-3):
    """Replace empty buckets by a tiny count (fishtest does the same) so that
    the ML problem is well posed."""
    return [c if c > 0 else eps for c in counts]


def results_to_pdf(counts):
    """counts of length 3 (L, D, W) or 5 (pentanomial) -> (N, pdf) where pdf
    is a list of (per-game score value, probability)."""
    counts = regularize(list(counts))
    n = float(sum(counts))
    k = len(counts) - 1
    return n, [(i / k, c / n) for i, c in enumerate(counts)]


def _secular(pdf):
    """Solve sum_i p_i a_i / (1 + x a_i) = 0 for x by bisection (the
    function is strictly decreasing between its poles -1/max(a), -1/min(a))."""
    vals = [a for a, _ in pdf]
    v, w = min(vals), max(vals)
    if not (v < 0 < w):
        raise ValueError("expectation outside the support")

    def f(x):
        return sum(p * a / (1.0 + x * a) for a, p in pdf)

    lo = -1.0 / w
    hi = -1.0 / v
    span = hi - lo
    lo += 1e-12 * span
    hi -= 1e-12 * span
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15 * max(1.0, abs(mid)):
            break
    return 0.5 * (lo + hi)


def mle_expected(pdf, s):
    """Maximum-likelihood distribution on the same support with mean s."""
    x = _secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def llr_logistic(elo0, elo1, counts):
    """Generalised log-likelihood ratio of H1 (elo1) versus H0 (elo0), both in
    logistic Elo, for trinomial [L, D, W] or pentanomial [LL..WW] counts."""
    if sum(counts) == 0:
        return 0.0
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    n, pdf = results_to_pdf(counts)
    return _gllr(n, pdf, mle_expected(pdf, s0), mle_expected(pdf, s1))


def _gllr(n, pdf, q0, q1):
    """Log-likelihood ratio of n samples distributed as pdf under the
    maximum-likelihood distributions q1 (H1) and q0 (H0)."""
    return n * sum(p * (math.log(b) - math.log(a))
                   for (_, p), (_, a), (_, b) in zip(pdf, q0, q1))


def mle_tvalue(pdf, ref, t):
    """Maximum-likelihood distribution on pdf's support whose t-value
    (mean - ref) / sd equals t: the secular equation solved again with the
    moments of the last estimate until the estimate settles."""
    est = [(a, 1.0 / len(pdf)) for a, _ in pdf]
    for _ in range(100):
        mean = sum(a * q for a, q in est)
        sd = math.sqrt(sum(q * (a - mean) ** 2 for a, q in est))
        shifted = [(a - ref - t * sd * (1.0 + ((a - mean) / sd) ** 2) / 2.0, p)
                   for a, p in pdf]
        x = _secular(shifted)
        new = [(a, p / (1.0 + x * b)) for (a, p), (b, _) in zip(pdf, shifted)]
        settled = max(abs(q - r) for (_, q), (_, r) in zip(est, new)) < 1e-12
        est = new
        if settled:
            break
    return est


def llr_normalized(nelo0, nelo1, counts):
    """Generalised log-likelihood ratio of H1 (nelo1) versus H0 (nelo0), both
    in normalized Elo, for trinomial [L, D, W] or pentanomial [LL..WW]
    counts (a pair's t-value is sqrt(2) times the per-game one)."""
    if sum(counts) == 0:
        return 0.0
    n, pdf = results_to_pdf(counts)
    scale = _per_sample_scale(counts)
    return _gllr(n, pdf, mle_tvalue(pdf, 0.5, scale * nelo0 / NELO_PER_T),
                 mle_tvalue(pdf, 0.5, scale * nelo1 / NELO_PER_T))


def llr_logistic_approx(elo0, elo1, counts):
    """Brownian (normal) approximation of the GSPRT LLR:
    N * (s1 - s0) * (2*s - s0 - s1) / (2 * var), with s and var the sample
    mean and variance of the per-sample score."""
    if sum(counts) == 0:
        return 0.0
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    n, pdf = results_to_pdf(counts)
    mean = sum(a * p for a, p in pdf)
    var = sum(p * (a - mean) ** 2 for a, p in pdf)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2.0 * var)


def sprt_bounds(alpha, beta):
    """Wald's bounds (lower, upper) on the LLR."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


class Sprt:
    """SPRT state for one pairing, fed with pentanomial counts; the bounds
    in logistic Elo (`model="logistic"`) or normalized Elo ("normalized")."""

    def __init__(self, elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05, model="logistic"):
        if not elo1 > elo0:
            raise ValueError("SPRT needs elo1 > elo0")
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError("SPRT needs 0 < alpha, beta < 1")
        if model not in ("logistic", "normalized"):
            raise ValueError("SPRT model is logistic or normalized, not %r" % model)
        self.model = model
        self.elo0, self.elo1 = float(elo0), float(elo1)
        self.alpha, self.beta = float(alpha), float(beta)
        self.lower, self.upper = sprt_bounds(self.alpha, self.beta)
        self.llr = 0.0
        self.state = ""  # "", "H0 accepted", "H1 accepted"

    def update(self, counts):
        llr = llr_normalized if self.model == "normalized" else llr_logistic
        self.llr = llr(self.elo0, self.elo1, counts) if sum(counts) else 0.0
        if self.llr <= self.lower:
            self.state = "H0 accepted"
        elif self.llr >= self.upper:
            self.state = "H1 accepted"
        else:
            self.state = ""
        return self.state

    def describe(self):
        text = "elo0=%g elo1=%g alpha=%g beta=%g" % (self.elo0, self.elo1, self.alpha, self.beta)
        return text + (" model=normalized" if self.model == "normalized" else "")


def fmt_elo(res):
    """'+147.2 +/- 66.0' (or 'n/a')."""
    if res is None:
        return "n/a"
    return "%+.1f +/- %.1f" % (res["elo"] + 0.0, res["elo_pm"] + 0.0)


# --------------------------------------------------------------------------
# Command line


def fastchess_penta(path):
    """The first pairing's pentanomial counts [LL, LD, DD+WL, WD, WW] in a
    fastchess state file (`-config outname=...`), and the pairing's name."""
    with open(path) as f:
        stats = json.load(f).get("stats") or {}
    if not stats:
        raise ValueError("%s holds no results (no \"stats\")" % path)
    name, st = next(iter(stats.items()))
    keys = ("penta_LL", "penta_LD", "penta_DD", "penta_WL", "penta_WD", "penta_WW")
    if any(k not in st for k in keys):
        raise ValueError("%s: %s has no pentanomial counts (-repeat -games 2?)" % (path, name))
    return name, [st["penta_LL"], st["penta_LD"], st["penta_DD"] + st["penta_WL"],
                  st["penta_WD"], st["penta_WW"]]


def _numbers(text, count, what):
    try:
        vals = [float(v) for v in text.split(",")]
    except ValueError:
        vals = []
    if len(vals) != count:
        raise argparse.ArgumentTypeError("%s takes %d comma-separated numbers, got %r"
                                         % (what, count, text))
    return vals


def report(penta, elo0, elo1, alpha, beta, model):
    """The lines the command line prints for pentanomial counts."""
    pent = pentanomial_stats(penta)
    norm = normalized_stats(penta)
    sprt = Sprt(elo0, elo1, alpha, beta, model)
    state = sprt.update(penta) or "continue"
    lines = ["pairs %d (%d games), pentanomial [%s]" % (
        pent["pairs"], pent["games"], ", ".join("%g" % c for c in penta))]
    nelo = "n/a" if norm is None else "%+.1f +/- %.1f" % (norm["nelo"], norm["nelo_pm"])
    lines.append("Elo %s, nElo %s, LOS %.1f %%" % (fmt_elo(pent), nelo, 100.0 * pent["los"]))
    lines.append("LLR %.2f (%.2f, %.2f) [%g, %g] %s: %s" % (
        sprt.llr, sprt.lower, sprt.upper, elo0, elo1, model, state))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Elo, normalized Elo and the SPRT's LLR of pentanomial counts.")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--penta", type=lambda t: _numbers(t, 5, "--penta"),
                     help="LL,LD,DD+WL,WD,WW (game pairs)")
    src.add_argument("--fastchess", metavar="JSON", help="a fastchess state file")
    ap.add_argument("--bounds", type=lambda t: _numbers(t, 2, "--bounds"), default=[0.0, 5.0],
                    help="elo0,elo1 (default 0,5)")
    ap.add_argument("--model", choices=("normalized", "logistic"), default="normalized",
                    help="the Elo of the bounds (default normalized, as fastchess and OpenBench)")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args(argv)
    try:
        if args.fastchess:
            name, penta = fastchess_penta(args.fastchess)
            print(name)
        else:
            penta = args.penta
        if any(c < 0 for c in penta) or sum(penta) == 0:
            raise ValueError("the counts must be non-negative and not all zero")
        for line in report(penta, args.bounds[0], args.bounds[1], args.alpha, args.beta,
                           args.model):
            print(line)
    except (OSError, ValueError) as e:
        print("matchstats: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
