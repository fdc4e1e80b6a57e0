#!/usr/bin/env bash
# A rank killed in the middle of a layer, then the same command again (issue 28): the job
# must stop with lines naming the rank (mpirun's) and the layer (rank 0's log), and the
# rerun must go on from the layers written to the table one process writes, file for file
# (the same MANIFEST.sha256, so the same value for every position). Needs OpenMPI
# (`apt-get install libopenmpi-dev openmpi-bin libclang-dev`) and builds with --features mpi.
#
#   scripts/mpi_kill_check.sh              5x5 with 4 walls on 3 ranks, rank 1 killed
#   CELL=4x7:4 RANKS=4 KILL=2 scripts/mpi_kill_check.sh
#   AFTER=2 ...                            kill once this many layers are written (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
cell=${CELL:-5x5:4}; ranks=${RANKS:-3}; victim=${KILL:-1}; after=${AFTER:-1}
board=${cell%%:*}; walls=${cell##*:}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cargo build --release --quiet --features mpi
bin=$PWD/target/release/quoridor-solver
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
solve=(solve "$board" --walls "$walls" --method retro)

echo "== $board with $walls walls, one process"
"$bin" "${solve[@]}" --scratch "$dir/one" -q >/dev/null

echo "== $ranks ranks; rank $victim killed (-9) once $after layers are written"
mpirun --oversubscribe -np "$ranks" "$bin" "${solve[@]}" --scratch "$dir/ranks" --distributed -v \
  >"$dir/out" 2>"$dir/err" &
job=$!
written() { grep -c " written to " "$dir/err" 2>/dev/null || true; }
until [ "$(written)" -ge "$after" ]; do
  kill -0 $job 2>/dev/null || { echo "the job ended before $after layers were written"; cat "$dir/err"; exit 1; }
  sleep 0.05
done
pid=""
for p in $(pgrep -f "$bin solve $board"); do
  if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$victim"; then pid=$p; fi
done
[ -n "$pid" ] || { echo "rank $victim not found"; exit 1; }
kill -9 "$pid"
status=0; wait $job || status=$?
echo "mpirun exited $status; the end of the job's log:"
grep -E "^layer [0-9]+: .* to solve" "$dir/err" | tail -1 | sed 's/^/  /'
grep -iE "rank $victim|signal 9|killed" "$dir/err" | head -3 | sed 's/^/  /'
[ "$status" -ne 0 ] || { echo "FAIL: the job did not fail"; exit 1; }
grep -q "rank $victim" "$dir/err" || { echo "FAIL: nothing names rank $victim"; exit 1; }

echo "== the same command again"
mpirun --oversubscribe -np "$ranks" "$bin" "${solve[@]}" --scratch "$dir/ranks" --distributed -v \
  >"$dir/out2" 2>"$dir/err2"
grep -E "going on|written to" "$dir/err2" | head -2 | sed 's/^/  /'
if cmp -s "$dir/one/MANIFEST.sha256" "$dir/ranks/MANIFEST.sha256"; then
  echo "the same table as one process, file for file: $(wc -l <"$dir/one/MANIFEST.sha256") files"
else
  echo "FAIL: THE TABLES DIFFER"; diff "$dir/one/MANIFEST.sha256" "$dir/ranks/MANIFEST.sha256" || true
  exit 1
fi
