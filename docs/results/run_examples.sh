#!/bin/sh
# Re-run the two example matches in docs/results/ (from the repository root).
# Needs: apt-get install toga2 glaurung phalanx; pip install chess
set -e
BOOK=${BOOK:-../shared/data/book_8moves_v3.epd}
python3 tools/match.py \
  --engine cmd=/usr/games/toga2 name=toga2 \
  --engine cmd=/usr/games/glaurung name=glaurung \
  --each option.Threads=1 option.OwnBook=false \
  --openings "$BOOK" --order random --seed 42 \
  --games 20 --tc 5+0.05 --concurrency 2 \
  --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=600 \
  --pgn docs/results/toga2_vs_glaurung.pgn --json docs/results/toga2_vs_glaurung.json \
  >docs/results/toga2_vs_glaurung.txt 2>docs/results/toga2_vs_glaurung.log
python3 tools/match.py \
  --engine cmd=/usr/games/phalanx args="-b- -l-" proto=xboard name=phalanx \
  --engine cmd=/usr/games/glaurung name=glaurung option.Threads=1 option.OwnBook=false \
  --openings "$BOOK" --order random --seed 43 \
  --games 20 --tc 5+0.05 --concurrency 2 \
  --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=600 \
  --pgn docs/results/phalanx_vs_glaurung.pgn --json docs/results/phalanx_vs_glaurung.json \
  >docs/results/phalanx_vs_glaurung.txt 2>docs/results/phalanx_vs_glaurung.log
