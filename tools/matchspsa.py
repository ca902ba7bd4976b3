"""SPSA tuning for tools/match.py --spsa: OpenBench's algorithm, run locally.

Input: the parameters in OpenBench's SPSA form, one per line,
``NAME, int|float, value, min, max, c_end, r_end`` (what ``tetrad
tune-params`` prints).  Each iteration, as in OpenBench
(spsa_utils.py and the client's worker.py in the OpenBench repository):

  c_k = max(c_end * N^gamma / k^gamma, 0.5 for integers)
  r_k = r_end * c_end^2 * (A + N)^alpha / (A + k)^alpha / c_k^2,  A = A_ratio * N
  every parameter is flipped by +-1 at random; the "dev" engine plays with
  value + flip * c_k, the "base" engine with value - flip * c_k (integers
  rounded at random, both the same way; both clipped to [min, max]);
  they play a game pair (one opening, colours swapped), and
  value += r_k * c_k * (dev wins - dev losses) * flip, clipped.

N is the planned number of iterations (``--spsa-iterations``): the step
sizes shrink towards c_end and r_end over the run.  Iterations run
``--concurrency`` at a time, each with its own perturbation, and update the
values as they finish (OpenBench's workers do the same).
"""

import json
import math
import os
import random


def parse_spsa_input(text):
    """OpenBench SPSA input lines -> list of parameter dicts (blank lines
    and # comments skipped)."""
    params = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7:
            raise ValueError("line %d: want NAME, int|float, value, min, max, c_end, r_end; got %r"
                             % (lineno, line))
        name, kind = fields[0], fields[1]
        if kind not in ("int", "float"):
            raise ValueError("line %d: type must be int or float, got %r" % (lineno, kind))
        value, lo, hi, c_end, r_end = map(float, fields[2:])
        if not lo <= value <= hi or c_end <= 0 or r_end <= 0:
            raise ValueError("line %d: need min <= value <= max and c_end, r_end > 0" % lineno)
        params.append({"name": name, "float": kind == "float", "value": value, "start": value,
                       "min": lo, "max": hi, "c_end": c_end, "r_end": r_end})
    if not params:
        raise ValueError("no parameters")
    return params


class Spsa:
    """The state of one SPSA run: parameter values and the schedule."""

    def __init__(self, params, iterations, alpha=0.602, gamma=0.101, a_ratio=0.1, seed=None):
        if iterations < 1:
            raise ValueError("iterations must be >= 1")
        self.params = params
        self.iterations = iterations
        self.alpha, self.gamma, self.a_ratio = alpha, gamma, a_ratio
        self.rng = random.Random(seed)
        self.done = 0  # iterations whose result has been applied
        for p in params:
            p["c_value"] = p["c_end"] * iterations ** gamma
            a_end = p["r_end"] * p["c_end"] ** 2
            p["a_value"] = a_end * (a_ratio * iterations + iterations) ** alpha

    def schedule(self, k):
        """(c_k, r_k) of every parameter at iteration k (1-based)."""
        out = []
        for p in self.params:
            c = max(p["c_value"] / k ** self.gamma, 0.0 if p["float"] else 0.5)
            r = p["a_value"] / (self.a_ratio * self.iterations + k) ** self.alpha / c ** 2
            out.append((c, r))
        return out

    def perturb(self, k):
        """The two engines' values for iteration k: {"dev", "base"} name ->
        value dicts, with the flips and step sizes to update with."""
        sched = self.schedule(k)
        dev, base, flips = {}, {}, []
        for p, (c, _) in zip(self.params, sched):
            flip = self.rng.choice((-1, 1))
            d, b = p["value"] + flip * c, p["value"] - flip * c
            if not p["float"]:
                # Probabilistic rounding, the same draw for both engines.
                u = self.rng.random()
                d, b = math.floor(d + u), math.floor(b + u)
            d, b = min(max(d, p["min"]), p["max"]), min(max(b, p["min"]), p["max"])
            if not p["float"]:
                d, b = int(d), int(b)
            dev[p["name"]], base[p["name"]] = d, b
            flips.append(flip)
        return {"k": k, "dev": dev, "base": base, "flips": flips, "sched": sched}

    def update(self, pert, result):
        """Applies a finished iteration: result = dev's wins - losses."""
        for p, flip, (c, r) in zip(self.params, pert["flips"], pert["sched"]):
            p["value"] = min(max(p["value"] + r * c * result * flip, p["min"]), p["max"])
        self.done += 1

    def values(self):
        """Current values, rounded for integers (what an engine would use)."""
        return {p["name"]: (p["value"] if p["float"] else int(round(p["value"]))) for p in self.params}

    def report(self):
        """One line per parameter: name, value now, start, and the change."""
        lines = []
        for p in self.params:
            fmt = "%.4f" if p["float"] else "%d"
            now = p["value"] if p["float"] else int(round(p["value"]))
            lines.append(("%-26s " + fmt + "  (start " + fmt + ", %+.2f)")
                         % (p["name"], now, p["start"], p["value"] - p["start"]))
        return lines

    def state(self):
        return {"iterations": self.iterations, "done": self.done, "alpha": self.alpha,
                "gamma": self.gamma, "a_ratio": self.a_ratio,
                "params": [{k: p[k] for k in ("name", "float", "value", "start", "min", "max",
                                               "c_end", "r_end")} for p in self.params]}

    def save(self, path):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.state(), f, indent=1)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path, seed=None):
        with open(path) as f:
            st = json.load(f)
        s = cls(st["params"], st["iterations"], st["alpha"], st["gamma"], st["a_ratio"], seed)
        s.done = st["done"]
        return s


def _result_for(res, dev_idx):
    """+1 / 0 / -1 for the dev engine in one finished game."""
    r = res["result"]
    if r == "1-0":
        return 1 if res["white"] == dev_idx else -1
    if r == "0-1":
        return 1 if res["black"] == dev_idx else -1
    return 0


def run_spsa(args, cfg, tcd, tc_tag, adj, book, site, run_game, worker_init, out=None):
    """The SPSA loop of match.py --spsa: tunes the one engine `cfg` (probed,
    with every parameter among its options) against itself.  Returns the
    Spsa state at the end."""
    import concurrent.futures
    import sys
    out = out or sys.stdout
    with open(args.spsa) as f:
        params = parse_spsa_input(f.read())
    state = getattr(args, "spsa_state", None)
    if state and os.path.exists(state):
        spsa = Spsa.load(state, args.spsa_seed)
        out.write("SPSA: resuming %s at iteration %d of %d\n" % (state, spsa.done + 1, spsa.iterations))
    else:
        spsa = Spsa(params, args.spsa_iterations, args.spsa_alpha, args.spsa_gamma,
                    args.spsa_a_ratio, args.spsa_seed)
    # The engine's own spelling of each option (UCI names are case-insensitive).
    spelled = {k.lower(): k for k in cfg.get("valid_options", {})}
    missing = [p["name"] for p in spsa.params if p["name"].lower() not in spelled]
    if missing:
        raise SystemExit("error: the engine does not offer option(s) %s (build it with --features tune)"
                         % ", ".join(missing))

    def engine_with(values, name):
        c = dict(cfg)
        c["name"] = name
        c["valid_options"] = dict(cfg["valid_options"])
        for k, v in values.items():
            c["valid_options"][spelled[k.lower()]] = v
        return c

    chess960 = getattr(args, "variant", "standard") == "chess960"
    next_k = spsa.done + 1
    running = {}  # future -> (iteration, game number in the pair)
    pairs = {}    # iteration -> {"pert", "results"}
    games = 0
    score = [0, 0, 0]  # dev's wins, draws, losses over the run
    interrupted = False
    executor = concurrent.futures.ProcessPoolExecutor(
        max_workers=max(1, args.concurrency), initializer=worker_init, initargs=(False,))
    try:
        while True:
            # Each iteration is one game pair: two games with one perturbation.
            while not interrupted and next_k <= spsa.iterations and len(running) < max(2, args.concurrency):
                pert = spsa.perturb(next_k)
                dev, base = engine_with(pert["dev"], "dev"), engine_with(pert["base"], "base")
                opening = book.next() if book else {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                                    "moves": [], "index": 0}
                pairs[next_k] = {"pert": pert, "results": []}
                for g in range(2):
                    white, black = (dev, base) if g == 0 else (base, dev)
                    spec = {"id": 2 * next_k - 1 + g, "round": 2 * next_k - 1 + g, "pairing": (0, 1),
                            "pair": next_k, "white_idx": 0 if g == 0 else 1, "black_idx": 1 if g == 0 else 0,
                            "white": white, "black": black, "opening": opening, "tc": tcd,
                            "tc_tag": tc_tag, "adjudication": adj, "time_margin": args.time_margin,
                            "hang_timeout": args.hang_timeout, "event": "Tetrad SPSA", "site": site,
                            "chess960": chess960}
                    running[executor.submit(run_game, spec)] = next_k
                next_k += 1
            if not running:
                break
            try:
                done, _ = concurrent.futures.wait(list(running), timeout=1.0,
                                                  return_when=concurrent.futures.FIRST_COMPLETED)
            except KeyboardInterrupt:
                interrupted = True
                out.write("SPSA: interrupted; finishing the running game pairs\n")
                continue
            for fut in done:
                k = running.pop(fut)
                res = fut.result()
                games += 1
                r = _result_for(res, 0)
                score[0 if r > 0 else 1 if r == 0 else 2] += 1
                pairs[k]["results"].append(r)
                if len(pairs[k]["results"]) == 2:
                    entry = pairs.pop(k)
                    result = sum(entry["results"])
                    spsa.update(entry["pert"], result)
                    if state:
                        spsa.save(state)
                    if not args.quiet:
                        out.write("SPSA iteration %d/%d: dev %+d (pair %s), run +%d =%d -%d\n"
                                  % (spsa.done, spsa.iterations, result,
                                     " ".join("%+d" % x for x in entry["results"]), *score))
                    if args.spsa_report and spsa.done % args.spsa_report == 0:
                        out.write("\n".join(spsa.report()) + "\n")
                    out.flush()
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    out.write("SPSA: %d iterations (%d games, dev +%d =%d -%d)\n" % (spsa.done, games, *score))
    out.write("\n".join(spsa.report()) + "\n")
    out.write("Values (OpenBench form):\n")
    out.write("\n".join("%s, %s" % kv for kv in spsa.values().items()) + "\n")
    out.flush()
    return spsa
