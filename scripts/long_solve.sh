#!/usr/bin/env bash
# A proof search of hours, in runs that each go on from the last one's checkpoint
# (`solve --checkpoint`): 9x9 with 3 walls by default.
#
#   scripts/long_solve.sh [SECONDS [DIR]]      run for at most SECONDS (default 3600)
#   CELL=7x7:3 scripts/long_solve.sh 600 /data/ckpt
#   WINNER=2 scripts/long_solve.sh 3600         search only Player 2's wins (`solve --winner`)
#   NICE=19 scripts/long_solve.sh 3600          yield the cores to other work
#                                               (scripts/yield_cores.sh says why)
#
# The checkpoint (a 4 GiB table for 9x9) is DIR/<cell>.qsc, DIR by default checkpoints/ in
# the repository (ignored by git); DIR is created if need be, and the script says where the
# checkpoint is. CHECKPOINT=/path/f.qsc names the file itself instead. Ctrl-C saves it and
# stops. The run's output goes to results/beyond/logs/solve-<cell>-<commit>-<time>.{out,err},
# with the command's time and peak memory; commit the logs when a run decides the cell.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/yield_cores.sh
seconds=${1:-3600}
dir=${2:-checkpoints}
cell=${CELL:-9x9:3}
board=${cell%%:*}; walls=${cell##*:}
checkpoint=${CHECKPOINT:-$dir/${board}-w${walls}.qsc}
created=""
[ -d "$(dirname "$checkpoint")" ] || created=" (directory created now)"
mkdir -p "$(dirname "$checkpoint")" results/beyond/logs
cargo build --release --quiet
log=results/beyond/logs/solve-${board}-w${walls}-$(git rev-parse --short HEAD)-$(date -u +%Y%m%dT%H%M)
echo "checkpoint $checkpoint$created; output in $log.{out,err}"
timer=(); [ -x /usr/bin/time ] && timer=(/usr/bin/time -v)
"${timer[@]}" target/release/quoridor-solver solve "$board" --walls "$walls" \
  --method search --store on-demand --tt 4G --max-seconds "$seconds" \
  --checkpoint "$checkpoint" ${WINNER:+--winner "$WINNER"} -v >"$log.out" 2>"$log.err" || true
cat "$log.out"
