"""The SPSA schedule of a run cut into pieces (ob.py; docs/search.md, "Tuning the search").

OpenBench's schedule (the form's defaults): at iteration k of N the perturbation is
c_end * (N / k)^GAMMA and the step a_end * ((A + N) / (A + k))^ALPHA, A = A_RATIO * N,
a_end = r_end * c_end^2; a parameter moves by (a / c) * (wins - losses) per batch.
OpenBench starts every workload at iteration 1, so a resumed piece would play the
schedule's first, largest steps again; instead it is sent each parameter's c and r of
the whole run's schedule at its next iteration, held constant (the form's alpha and
gamma next to 0), and spsa-last.txt's `# total:` line says how far the run has come.
"""

import re

ALPHA, GAMMA, A_RATIO = 0.602, 0.101, 0.1
# What a resumed piece sends as alpha and gamma: the server wants them above 0, and
# 1e-9 moves the gains by under 1e-8 in 2,500 iterations.
HELD = 1e-9

TOTAL = re.compile(r'# total: (\d+) games, (\d+) iterations, in (\d+) pieces?')


def gains(c_end, r_end, k, iterations):
    """A parameter's perturbation c and rate r (step a = r * c^2) at iteration k of the schedule."""
    big_a = A_RATIO * iterations
    c = c_end * (iterations / k) ** GAMMA
    a = r_end * c_end ** 2 * ((big_a + iterations) / (big_a + k)) ** ALPHA
    return c, a / c ** 2


def piece_lines(lines, done, iterations):
    """OpenBench input lines for a piece entering the schedule after `done` iterations: the
    whole run's lines with c_end and r_end replaced by the gains of iteration done + 1."""
    out = []
    for line in lines:
        name, dtype, value, lo, hi, c_end, r_end = [f.strip() for f in line.split(',')]
        c, r = gains(float(c_end), float(r_end), done + 1, iterations)
        out.append(', '.join([name, dtype, value, lo, hi, '%.6g' % c, '%.6g' % r]))
    return out


def read_totals(path):
    """(games, iterations, pieces) the values of an spsa-last.txt took; zeros if it says none."""
    with open(path) as f:
        for line in f:
            m = TOTAL.match(line)
            if m:
                return tuple(int(g) for g in m.groups())
    return 0, 0, 0


def book_start(games, openings):
    """Where a piece starts in the book (OpenBench's 1-based Test.book_index) after the run's
    first `games` games. A fresh database gives every test the same book seed (its id, 1)
    and start 1, so each piece would replay the first openings of one shuffle; it goes on
    after the pairs already played instead (a pair per opening), wrapping over `openings`."""
    return 1 + (games // 2) % openings


def total_line(games, done, pieces, iterations):
    """The `# total:` line of spsa-last.txt (read back by read_totals)."""
    return '# total: %d games, %d iterations, in %d piece%s of a %d-iteration schedule; the values ' \
        'below are their result.\n' % (games, done, pieces, 's' * (pieces > 1), iterations)
