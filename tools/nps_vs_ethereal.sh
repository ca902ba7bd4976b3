#!/bin/bash
# Tetrad's bench nps against Ethereal 12's, two ways, in alternating rounds:
#  - as each bench prints it: `tetrad bench` times its searches alone (since 2026-12-04; before, the
#    2 ms table and history clears before each of its 50 positions were inside its time, ~11% of it on
#    the Xeon); Ethereal's `NPS` line times its searches and its 16 MiB table clears (~3% of its 3 s);
#  - searches only: `tetrad bench --threads 1` (the pool's bench, one thread, same nodes) against
#    Ethereal's own per-position times (the last `info` line of each position): like for like.
# Prints each round, then the median and range of both ratios.
# usage: tools/nps_vs_ethereal.sh ROUNDS [TETRAD] [ETHEREAL]
set -eu
rounds=${1:-8}
tetrad=${2:-target/release/tetrad}
ethereal=${3:-/usr/games/ethereal-chess}
out=$(mktemp)
for _ in $(seq "$rounds"); do
  a=$("$tetrad" bench | tail -1 | awk '{print $3}')
  b=$("$tetrad" bench --threads 1 | tail -1 | awk '{print $3}')
  e=$("$ethereal" bench 2>&1 | awk '
    /^Position #/ { if (have) { n += nodes; t += time } have = 0 }
    /^info depth/ { for (i = 1; i < NF; i++) { if ($i == "time") time = $(i + 1); if ($i == "nodes") nodes = $(i + 1) } have = 1 }
    /^NPS/ { nps = $3 }
    END { if (have) { n += nodes; t += time } printf "%d %d", nps, n / (t / 1000) }')
  echo "$a $b $e" | tee -a "$out"
done
python3 - "$out" <<'PY'
import statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
for name, i, j in [("as printed (bench / NPS)", 0, 2), ("searches only", 1, 3)]:
    r = sorted(row[i] / row[j] for row in rows)
    print(f"{name}: Tetrad / Ethereal 12 median {st.median(r):.3f} ({r[0]:.3f}-{r[-1]:.3f}, {len(r)} rounds)")
PY
rm -f "$out"
