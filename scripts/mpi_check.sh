#!/usr/bin/env bash
# The analysis across MPI ranks against one process (issue 28), on mid cells: each cell is
# solved once by one process through a scratch directory and once for each number of ranks
# (`mpirun --oversubscribe -np R ... --distributed`); every table must be the same files,
# byte for byte (the same MANIFEST.sha256, so the same value for every position). Prints per
# run: seconds, the largest peak of a rank (each rank measured by /usr/bin/time), that peak
# against one process's, and the bytes the ranks sent each other against the bytes the
# layers take on disk (largest ratio of a layer, and all layers together). Exits 1 when two
# tables differ. The ranks are not bound to cores (`--bind-to none`: by default mpirun binds
# one or two ranks to a core each, and one rank then runs on one core). Needs OpenMPI
# (`apt-get install libopenmpi-dev openmpi-bin libclang-dev`).
#
#   scripts/mpi_check.sh                          5x5:4 3x9:5 on 1 2 3 4 ranks
#   CELLS="5x5:5 3x9:6" RANKS="1 2 4" scripts/mpi_check.sh
#   PRECISION=compact scripts/mpi_check.sh        (default exact)
set -euo pipefail
cd "$(dirname "$0")/.."
cells=${CELLS:-"5x5:4 3x9:5"}; rank_counts=${RANKS:-"1 2 3 4"}; precision=${PRECISION:-exact}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cargo build --release --quiet --features mpi
bin=$PWD/target/release/quoridor-solver
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
echo "version: $($bin --version), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), precision $precision"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
printf '%-7s %-6s %9s %12s %9s %14s %15s %13s\n' cell ranks seconds 'rank peak' 'of one' 'sent' 'most a layer' 'all layers'
for cell in $cells; do
  board=${cell%%:*}; walls=${cell##*:}
  solve=(solve "$board" --walls "$walls" --method retro --precision "$precision" -v)
  one="$dir/one"; rm -rf "$one"
  /usr/bin/time -f "rank-peak %e %M" "$bin" "${solve[@]}" --scratch "$one" >/dev/null 2>"$dir/err"
  read -r s1 kib1 < <(awk '/^rank-peak/ {print $2, $3}' "$dir/err")
  printf '%-7s %-6s %9.2f %8.1f MiB %9s\n' "$cell" one "$s1" "$((kib1 / 1024))" 1
  same=1
  for r in $rank_counts; do
    many="$dir/many"; rm -rf "$many"
    start=$(date +%s.%N)
    mpirun --oversubscribe --bind-to none -np "$r" /usr/bin/time -f "rank-peak %e %M" \
      "$bin" "${solve[@]}" --scratch "$many" --distributed >/dev/null 2>"$dir/err"
    end=$(date +%s.%N)
    python3 - "$dir/err" "$cell" "$r" "$start" "$end" "$kib1" <<'PY'
import re, sys
err, cell, r, start, end, kib1 = sys.argv[1], sys.argv[2], sys.argv[3], *map(float, sys.argv[4:])
text = open(err).read()
peak = max(int(m) for m in re.findall(r"^rank-peak \S+ (\d+)$", text, re.M))
unit = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
size = lambda n, u: float(n) * unit[u]
disk = {int(k): size(n, u) for k, n, u in re.findall(r"^layer (\d+) written to .*?, ([\d.]+) (\w+) on disk", text, re.M)}
sent = {int(k): size(n, u) for k, n, u in re.findall(r"^layer (\d+): .* ([\d.]+) (\w+) exchanged", text, re.M)}
# Layer k's exchange carries layer k + 1's values: set it against that layer's bytes on disk.
ratios = [sent[k] / disk[k + 1] for k in sent if k + 1 in disk and disk[k + 1] > 0]
total = sum(sent.values()) / max(1, sum(disk[k + 1] for k in sent if k + 1 in disk))
print("%-7s %-6s %9.2f %8.1f MiB %9.3f %10.1f MiB %14.2fx %12.2fx" % (
    cell, r, end - start, peak / 1024, peak / kib1, sum(sent.values()) / 2**20,
    max(ratios, default=0), total))
PY
    if ! cmp -s "$one/MANIFEST.sha256" "$many/MANIFEST.sha256"; then
      echo "$cell on $r ranks: THE TABLES DIFFER"; fail=1; same=0
    fi
  done
  [ $same = 1 ] && echo "$cell: every table the same as one process's, byte for byte ($(wc -l <"$one/MANIFEST.sha256") files)"
done
exit $fail
