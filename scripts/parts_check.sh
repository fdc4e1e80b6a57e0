#!/usr/bin/env bash
# The analysis in parts through the disk against the analysis in memory, on mid cells:
# each cell is saved twice, once with the default memory budget (its layers in memory) and
# once with --memory at a quarter of that run's peak (every layer in parts through the
# scratch directory); the two tables must be the same files, byte for byte (so the same
# value for every position). Prints per run: seconds, peak memory, stored positions per
# second, bytes on disk per position; exits 1 when two tables differ.
#
#   scripts/parts_check.sh                  5x5:4 3x9:5 4x7:7
#   CELLS="5x5:4" scripts/parts_check.sh    only these cells
#   DIR=/work/ckpt/parts scripts/parts_check.sh   where the tables go (default: a temporary
#                                                 directory, removed at the end)
set -euo pipefail
source "$(dirname "$0")/bench_setup.sh"
cells=${CELLS:-"5x5:4 3x9:5 4x7:7"}
dir=${DIR:-$(mktemp -d)}
mkdir -p "$dir"
fail=0
printf '%-7s %-9s %9s %12s %14s %12s %9s %s\n' cell memory seconds peak 'positions/s' 'disk bytes' 'B/pos' layers
for cell in $cells; do
  board=${cell%%:*}; walls=${cell##*:}
  whole="$dir/$board-w$walls-memory"; parts="$dir/$board-w$walls-parts"
  rm -rf "$whole" "$parts"
  run() { # $1: the table's directory, then the flags; prints "seconds peak positions how"
    local out=$1; shift
    local log="$dir/log"
    $bin solve "$board" --walls "$walls" --method retro --save "$out" --json -v "$@" 2>"$log" |
      python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["seconds"], r["peak_bytes"], r["nodes"], end=" ")'
    if grep -q "in parts of at most" "$log"; then echo "parts"; else echo "memory"; fi
  }
  report() { # $1 label, $2 "seconds peak positions how", $3 table
    read -r s peak positions how <<<"$2"
    disk=$(du -sb "$3" | cut -f1)
    python3 -c "
s,peak,pos,disk=$s,$peak,$positions,$disk
print('%-7s %-9s %9.2f %8.1f MiB %14.3g %12d %9.4f %s' % ('$cell','$1',s,peak/2**20,pos/s,disk,disk/pos,'$how'))"
  }
  a=$(run "$whole"); report default "$a" "$whole"
  read -r _ peak _ <<<"$a"
  quarter=$(( peak / 4 ))
  b=$(run "$parts" --memory "$quarter"); report "$(( quarter >> 20 ))M" "$b" "$parts"
  if cmp -s "$whole/MANIFEST.sha256" "$parts/MANIFEST.sha256"; then
    echo "$cell: the same table, byte for byte"
  else
    echo "$cell: THE TABLES DIFFER"; fail=1
  fi
  rm -rf "$whole" "$parts"
done
[ -z "${DIR:-}" ] && rm -rf "$dir"
exit $fail
