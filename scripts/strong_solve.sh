#!/usr/bin/env bash
# A strong solution of hours: the retrograde analysis of a cell through a scratch directory
# (`solve --method retro --scratch`), in runs that each go on from the layers the last one
# wrote. Every position's value (or outcome, with PRECISION=compact) ends in the directory
# as a saved table, which `verify` checks.
#
#   scripts/strong_solve.sh DIR                       7x5 with 5 walls, compact, into DIR/7x5-w5
#   CELL=6x6:4 PRECISION=exact scripts/strong_solve.sh /data/tables
#   CELL="6x5:10 5x7:5 6x6:5" scripts/strong_solve.sh DIR   several cells, one after the other
#   MEMORY=16G scripts/strong_solve.sh DIR           a budget below the default (80% of the
#                                                     memory available), to leave room for
#                                                     other work beside the run
#   FEWER=4 CELL=5x7:5 scripts/strong_solve.sh DIR   the compact analysis's search for the
#                                                     length also bounded by the exact
#                                                     analysis of 4 walls per player, run
#                                                     after the cell's through DIR/5x7-w4-exact
#                                                     (`solve --fewer-walls --fewer-scratch`)
#   MAX_SECONDS=120 scripts/strong_solve.sh DIR     bound the compact analysis's search for
#                                                     the length (`--max-seconds`), for a
#                                                     cell whose length is known and whose
#                                                     table is wanted (to verify it)
#   NICE=19 scripts/strong_solve.sh DIR              yield the cores to other work
#                                                     (scripts/yield_cores.sh says why
#                                                     `nice` alone is not enough)
#
# The run's output goes to results/strong/logs/<cell>-<precision>-<commit>-<time>.{json,err},
# with the command's time and peak memory; when a run finishes, the JSON holds the start's
# value, its length and the counts by outcome (commit them, with DIR's header.json and
# MANIFEST.sha256; never the table). Killed or stopped at the end of a session, run the
# same command again: the layers written are checked against their SHA-256 and kept, and a
# compact analysis's search for the length goes on from DIR/<cell>.checkpoint, its table
# saved every 10 minutes and when the run is stopped (stop it with SIGINT, `kill -INT`, so
# that it saves; a second run of a finished cell reads its answer back at once).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/yield_cores.sh
dir=${1:?"give the directory the tables go to (outside the repository: they are gigabytes)"}
precision=${PRECISION:-compact}
mkdir -p "$dir" results/strong/logs
cargo build --release --quiet
timer=(); [ -x /usr/bin/time ] && timer=(/usr/bin/time -v)
for cell in ${CELL:-7x5:5}; do
  board=${cell%%:*}; walls=${cell##*:}
  log=results/strong/logs/${board}-w${walls}-${precision}-$(git rev-parse --short HEAD)-$(date -u +%Y%m%dT%H%M)
  echo "tables in $dir/${board}-w${walls}; output in $log.{json,err}"
  checkpoint=(); [ "$precision" = compact ] && checkpoint=(--checkpoint "$dir/${board}-w${walls}.checkpoint")
  bound=(); [ -n "${FEWER:-}" ] && bound=(--fewer-walls "$FEWER" --fewer-scratch "$dir/${board}-w${FEWER}-exact")
  status=0
  "${timer[@]}" target/release/quoridor-solver solve "$board" --walls "$walls" --method retro \
    ${MEMORY:+--memory "$MEMORY"} --precision "$precision" --scratch "$dir/${board}-w${walls}" \
    "${checkpoint[@]}" "${bound[@]}" ${MAX_SECONDS:+--max-seconds "$MAX_SECONDS"} \
    --stats --json -v >"$log.json" 2>"$log.err" || status=$?
  tail -n 3 "$log.err"
  # Stopped by a signal (130: SIGINT, 143: SIGTERM): the cells after it wait for the next run.
  if [ "$status" -ge 128 ]; then exit "$status"; fi
done
