#!/bin/bash
# Speed of builds on a noisy machine: each round runs every build's `tetrad bench [DEPTH]` in turn,
# the order rotated by one build each round (on a shared Zen 3 the first run of a round was favoured by
# ~3%: rotating spreads that over every build); prints, for each build after the first, the median (and
# spread) of its per-round nps ratio to the first.
# usage: DEPTH=15 tools/nps_rounds.sh ROUNDS BASE_BINARY OTHER_BINARY...
set -eu
rounds=$1; shift
builds=("$@")
n=${#builds[@]}
out=$(mktemp)
for round in $(seq 0 $((rounds - 1))); do
  nps=()
  for k in $(seq 0 $((n - 1))); do
    j=$(( (k + round) % n ))
    nps[j]=$("${builds[j]}" bench ${DEPTH:-} 2>/dev/null | tail -1 | awk '{print $3}')
  done
  echo "${nps[*]}" >> "$out"
done
python3 - "$out" "$@" <<'PY'
import statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
names = sys.argv[2:]
for j in range(1, len(names)):
    r = sorted(row[j] / row[0] for row in rows)
    print(f"{names[j]} / {names[0]}: median {st.median(r):.3f} ({r[0]:.3f}-{r[-1]:.3f}, "
          f"{sum(x > 1 for x in r)} of {len(r)} faster), geometric mean {st.geometric_mean(r):.3f}")
print("median nps:", [int(st.median(row[j] for row in rows)) for j in range(len(names))])
PY
rm -f "$out"
