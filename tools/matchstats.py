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
"""

import math

# Quantile of the standard normal distribution at 0.975 (two-sided 95 %).
Z_975 = 1.959963984540054

PENTA_LABELS = ("LL", "LD", "DD/WL", "WD", "WW")


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
    q0 = mle_expected(pdf, s0)
    q1 = mle_expected(pdf, s1)
    return n * sum(p * (math.log(b) - math.log(a))
                   for (_, p), (_, a), (_, b) in zip(pdf, q0, q1))


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
    """SPRT state for one pairing, fed with pentanomial counts."""

    def __init__(self, elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05):
        if not elo1 > elo0:
            raise ValueError("SPRT needs elo1 > elo0")
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError("SPRT needs 0 < alpha, beta < 1")
        self.elo0, self.elo1 = float(elo0), float(elo1)
        self.alpha, self.beta = float(alpha), float(beta)
        self.lower, self.upper = sprt_bounds(self.alpha, self.beta)
        self.llr = 0.0
        self.state = ""  # "", "H0 accepted", "H1 accepted"

    def update(self, counts):
        self.llr = llr_logistic(self.elo0, self.elo1, counts) if sum(counts) else 0.0
        if self.llr <= self.lower:
            self.state = "H0 accepted"
        elif self.llr >= self.upper:
            self.state = "H1 accepted"
        else:
            self.state = ""
        return self.state

    def describe(self):
        return "elo0=%g elo1=%g alpha=%g beta=%g" % (
            self.elo0, self.elo1, self.alpha, self.beta)


def fmt_elo(res):
    """'+147.2 +/- 66.0' (or 'n/a')."""
    if res is None:
        return "n/a"
    return "%+.1f +/- %.1f" % (res["elo"] + 0.0, res["elo_pm"] + 0.0)
