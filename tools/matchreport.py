"""Match bookkeeping and reports for tools/match.py: per-pairing W/D/L and
pentanomial counts, the summary block and the progress line."""

import matchstats as ms
from matchgame import FORFEIT_KINDS


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
        self.sprt = sprt
        self.aborted = 0
        self.games = 0

    def add(self, res):
        if res["result"] == "*":
            self.aborted += 1
            return False
        self.games += 1
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


def progress_line(m, total, running, primary):
    s = "Games %d/%d" % (m.games, total)
    if running:
        s += " (%d running)" % running
    ps = m.stats[primary]
    w, d, l, label = ps.w, ps.d, ps.l, "%s vs %s" % (m.names[ps.a], m.names[ps.b])
    tri = ms.trinomial_stats(w, d, l)
    if tri:
        s += " | %s: +%d =%d -%d %.1f%% Elo %s" % (
            label, w, d, l, 100 * tri["score"], ms.fmt_elo(tri))
    if m.sprt is not None:
        s += " | LLR %.2f [%.2f, %.2f]" % (m.sprt.llr, m.sprt.lower, m.sprt.upper)
    return s
