#!/usr/bin/env bash
# A cell by the proof search bounded by the exact analysis of the same board with fewer
# walls (`solve --fewer-walls`, issue 54), in runs that each go on from what the last one
# wrote:
#   1. the exact analysis of M walls through DIR/<board>-wM-bound at the whole budget,
#      keeping on disk only the layers a search reads back (`--bound-layers-only`: each
#      layer above them deleted once the layer below it is written), so that the disk holds
#      two layers at a time, not the whole analysis;
#   2. the search of N walls bounded by it (the layers from the start that fit half of the
#      budget read back), its table in DIR/<board>-wN-bounded.checkpoint, saved every 10
#      minutes and when the run is stopped with SIGINT.
#
#   CELL=7x5:6 FEWER=5 scripts/bounded_search.sh DIR      7x5 with 6 walls, bounded by 5
#   MEMORY=20G NICE=19 ...                               the budget, and yield the cores
#                                                        (scripts/yield_cores.sh)
#   MAX_SECONDS=600 ...                                  stop the search after this long
#                                                        (its table saved as at a SIGINT)
#   CELLS="7x5:7 7x5:8" ...                              several cells, one after the other
#   TT=8G ...                                            the search's table (`--tt`; it grows to
#                                                        this from a smaller checkpoint once
#                                                        half full)
#   WINNER=1 ...                                         search Player 1's wins only
#                                                        (`solve --winner`: a guess that
#                                                        spares Player 2's iterations)
#
# Output: results/beyond/logs/<board>-w<N>-bounded-<commit>-<time>.{json,err}, with the
# command's time and peak memory. Run the same command again after a stop: the analysis's
# layers are checked and kept (a finished one is read back), the search goes on from its
# checkpoint.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/yield_cores.sh
dir=${1:?"give the directory the bound and the checkpoint go to (outside the repository: they are gigabytes)"}
cells=${CELLS:-${CELL:?"give the cell, e.g. CELL=7x5:6"}}
fewer=${FEWER:?"give the walls of the bound, e.g. FEWER=5"}
mkdir -p "$dir" results/beyond/logs
cargo build --release --quiet
timer=(); [ -x /usr/bin/time ] && timer=(/usr/bin/time -v)
for cell in $cells; do
  board=${cell%%:*}; walls=${cell##*:}
  bound="$dir/${board}-w${fewer}-bound"
  log=results/beyond/logs/${board}-w${walls}-bounded-$(git rev-parse --short HEAD)-$(date -u +%Y%m%dT%H%M)
  echo "bound in $bound; output in $log.{json,err}"
  status=0
  {
    "${timer[@]}" target/release/quoridor-solver solve "$board" --walls "$fewer" --method retro \
      --precision exact ${MEMORY:+--memory "$MEMORY"} --scratch "$bound" --bound-layers-only -v >&2 &&
    "${timer[@]}" target/release/quoridor-solver solve "$board" --walls "$walls" --method search \
      --fewer-walls "$fewer" --precision exact --scratch "$bound" --bound-layers-only \
      ${MEMORY:+--memory "$MEMORY"} --checkpoint "$dir/${board}-w${walls}-bounded.checkpoint" \
      ${MAX_SECONDS:+--max-seconds "$MAX_SECONDS"} ${WINNER:+--winner "$WINNER"} \
      ${TT:+--tt "$TT"} --json -v >"$log.json"
  } 2>"$log.err" || status=$?
  tail -n 3 "$log.err"
  # A cell that failed or was stopped (130: SIGINT) leaves the cells after it to the next run.
  if [ "$status" -ne 0 ]; then exit "$status"; fi
done
