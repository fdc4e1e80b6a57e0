#!/usr/bin/env bash
# Benchmarks of the release build; each checks its own answers.
#
#   scripts/bench.sh            solve the benchmark cells with 1 thread (node counts are
#                               deterministic and checked) and with 2 threads (outcome and
#                               length checked), then build the tables of two big cells
#   scripts/bench.sh --record   write the 1-thread answers to scripts/bench_expected.csv
#   CELLS="3x7:5 5x5:4" scripts/bench.sh   only these cells
#
# Prints per cell: outcome, plies, nodes, seconds, nodes per second, peak memory.
# Exits 1 when an outcome, a length or a 1-thread node count differs from the record.
set -euo pipefail
source "$(dirname "$0")/bench_setup.sh"
expected=scripts/bench_expected.csv
cells=${CELLS:-"3x5:4 4x5:4 3x7:5 5x5:4 5x5:5"}

fail=0
[ $record = 1 ] && echo "width,height,walls,outcome,plies,nodes" > "$expected"
printf '%-8s %-7s %5s %6s %12s %9s %12s %10s\n' cell threads out plies nodes seconds nodes/s peak
for cell in $cells; do
  board=${cell%%:*}; walls=${cell##*:}
  for threads in 1 2; do
    json=$($bin solve "$board" --walls "$walls" --method search --threads $threads --json 2>/dev/null)
    line=$(python3 - "$json" "$threads" "$expected" "$record" <<'PY'
import json, sys, csv
r = json.loads(sys.argv[1]); threads = int(sys.argv[2]); path = sys.argv[3]; record = sys.argv[4] == "1"
cell = f"{r['width']}x{r['height']}:{r['walls']}"
rate = r['nodes'] / max(r['seconds'], 1e-9)
status = "ok"
if record and threads == 1:
    with open(path, "a") as f:
        f.write(f"{r['width']},{r['height']},{r['walls']},{r['outcome']},{r['plies']},{r['nodes']}\n")
elif not record:
    rows = [x for x in csv.DictReader(open(path)) if (int(x['width']), int(x['height']), int(x['walls'])) == (r['width'], r['height'], r['walls'])]
    if not rows:
        status = "NO RECORD"
    else:
        e = rows[0]
        if e['outcome'] != r['outcome'] or str(e['plies']) != str(r['plies']):
            status = f"WRONG (recorded {e['outcome']} {e['plies']})"
        elif threads == 1 and int(e['nodes']) != r['nodes']:
            status = f"NODES CHANGED (recorded {e['nodes']})"
print(f"{cell:8} {threads:<7} {r['outcome']:>5} {str(r['plies']):>6} {r['nodes']:>12} {r['seconds']:>9.2f} {rate:>12.0f} {r['peak_bytes']/2**30:>6.2f} GiB  {status}")
PY
)
    echo "$line"
    case "$line" in *" ok") ;; *) fail=1 ;; esac
  done
done
if [ -z "${CELLS:-}" ]; then
  echo "tables:"
  for cell in 5x5:10 4x7:7; do
    $bin configs "${cell%%:*}" --walls "${cell##*:}" --json 2>/dev/null | python3 -c "
import json,sys; r=json.load(sys.stdin)
print(f\"{r['width']}x{r['height']}:{r['walls']:<3} {r['configurations']:>10} configurations  {r['seconds']:6.2f} s  tables {r['table_bytes']/2**30:.2f} GiB  peak {r['peak_bytes']/2**30:.2f} GiB\")"
  done
fi
exit $fail
