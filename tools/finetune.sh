#!/bin/bash
# One generation's fine-tune, as gen15l was made: INIT fine-tuned on shards 0..N-1 of DATA with the
# gentle recipe (lr 0.00005, 10% warm-up, 4 epochs, batch 4096, wdl 0.1), then INIT and the new
# network scored on the next ten shards, N..N+9, which neither has trained on (the trainer's own
# validation shards are every 32nd shard read, so a network's held-out loss is not comparable
# across data sets; the unseen shards are). A new network is worth playing only when its loss on
# them is below INIT's (the pilots in README's network table: gen16 A–F, gen16k8, gen16k8c–d and gen16f, gen15a–i).
#
# usage: [LR=..] [EPOCHS=..] [UNSEEN=..] tools/finetune.sh TETRAD DATA N INIT OUT [more `tetrad train` arguments]
#   e.g. tools/finetune.sh target/release/tetrad ../data/gen16 500 builtin gen16a.tnn
#   LR (default 0.00005) and EPOCHS (default 4) change the recipe (the trainer refuses an argument
#   given twice); below ~4 M positions half the rate overfits less (README: gen16 pilot D).
#   UNSEEN (default 10) is how many shards after the training range score the networks (25 halve
#   the noise of ten). INIT is a network file or `builtin`; DATA must hold shards 0..N+UNSEEN-1 (a
#   running datagen may go on writing later ones). The training log goes to OUT.log; its last line
#   is the summary. More `--data DIR[:A..B]` arguments pool older generations into the training
#   (each with its own shard range; the unseen shards stay DATA's).
set -euo pipefail
if [ $# -lt 5 ]; then
  sed -n '2,17p' "$0" >&2
  exit 2
fi
tetrad=$1 data=$2 n=$3 init=$4 out=$5
lr=${LR:-0.00005} epochs=${EPOCHS:-4} unseen=${UNSEEN:-10}
wdl=0.1   # the training's target, which the scoring must share
shift 5
# A network's loss over every position of the unseen shards (`--epochs 0` trains nothing and writes
# nothing), with the training's target (the trainer's default `--wdl`, 0.3, gives about twice the
# loss of 0.1). Only stdout goes to awk: the trainer's errors (a missing shard) stay on stderr.
loss() {
  "$tetrad" train --data "$data" --shards "$n..$((n + unseen))" --epochs 0 --init "$1" --wdl "$wdl" \
    --out /dev/null --threads 2 | awk '/^loss/ { print $2, $4 }'
}
# INIT first: a missing unseen shard stops the script before the training's minutes are spent
# (the trainer checks shards 0..N-1 itself).
read -r before positions < <(loss "$init")
"$tetrad" train --data "$data" --shards "0..$n" --out "$out" --init "$init" \
  --epochs "$epochs" --batch 4096 --lr "$lr" --warmup 0.1 --wdl "$wdl" --threads 2 "$@" 2>&1 | tee "$out.log"
read -r after _ < <(loss "$out")
echo "unseen shards $n..$((n + unseen - 1)) ($positions positions): $init $before, $out $after" \
  "($(awk -v a="$after" -v b="$before" 'BEGIN { printf "%+.2f%%", 100 * (a / b - 1) }'))" | tee -a "$out.log"
