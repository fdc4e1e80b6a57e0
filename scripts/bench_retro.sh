#!/usr/bin/env bash
# Benchmark of the retrograde analysis (release build, 2 threads); checks its own answers.
#
#   scripts/bench_retro.sh             each cell with --precision exact and compact
#   scripts/bench_retro.sh --record    write the answers to scripts/bench_retro_expected.csv
#   CELLS="5x5:4" PRECISIONS=compact scripts/bench_retro.sh   only these
#   PRECISIONS="compact unbounded" ... `compact` searches for the length bounded by the exact
#                                      analysis of one wall fewer where that fits (the
#                                      default; that analysis in the seconds); `unbounded`:
#                                      on the cell's outcomes alone (`--no-bound`)
#
# Prints per cell and precision: outcome, plies, positions, positions per second of the
# whole run, the proof-search nodes that found the length (compact only), seconds, peak
# memory. Exits 1 when an outcome, a length or a count of positions by outcome differs
# from the record (these are deterministic; the search's nodes with 2 threads are not).
set -euo pipefail
source "$(dirname "$0")/bench_setup.sh"
expected=scripts/bench_retro_expected.csv
cells=${CELLS:-"8x3:3 5x5:4 3x9:5 4x7:7"}
precisions=${PRECISIONS:-"exact compact"}

fail=0
[ $record = 1 ] && echo "width,height,walls,outcome,plies,positions,p1_wins,p2_wins,draws" > "$expected"
printf '%-7s %-8s %4s %5s %14s %11s %12s %8s %9s\n' cell store out plies positions pos/s search seconds peak
for cell in $cells; do
  board=${cell%%:*}; walls=${cell##*:}
  for precision in $precisions; do
    # 4x7 with 7 walls keeps two layers when exact (a byte each), as any cell too big.
    asked=(--precision "$precision")
    [ "$precision" = unbounded ] && asked=(--precision compact --no-bound)
    if ! json=$($bin solve "$board" --walls "$walls" --method retro "${asked[@]}" --stats --json 2>/dev/null); then
      echo "$cell $precision: refused or failed"; fail=1; continue
    fi
    line=$(python3 - "$json" "$precision" "$expected" "$record" <<'PY'
import json, sys, csv
r = json.loads(sys.argv[1]); precision = sys.argv[2]; path = sys.argv[3]; record = sys.argv[4] == "1"
cell = f"{r['width']}x{r['height']}:{r['walls']}"
key = ['outcome', 'plies', 'positions', 'p1_wins', 'p2_wins', 'draws']
got = [str(r[k]) if r[k] is not None else '' for k in key]
status = "ok"
if record and precision == "exact":
    with open(path, "a") as f:
        f.write(f"{r['width']},{r['height']},{r['walls']}," + ",".join(got) + "\n")
elif not record:
    rows = [x for x in csv.DictReader(open(path)) if (int(x['width']), int(x['height']), int(x['walls'])) == (r['width'], r['height'], r['walls'])]
    if not rows:
        status = "NO RECORD"
    else:
        want = [rows[0][k] for k in key]
        if want != got:
            status = f"DIFFERS (recorded {' '.join(want)}, got {' '.join(got)})"
rate = r['positions'] / max(r['seconds'], 1e-9)
search = r['nodes'] - r['positions']
plies = '-' if r['plies'] is None else r['plies']
print(f"{cell:7} {precision:8} {r['outcome']:>4} {plies:>5} {r['positions']:>14} {rate/1e6:>9.0f} M {search:>12} {r['seconds']:>8.1f} {r['peak_bytes']/2**30:>5.2f} GiB  {status}")
PY
)
    echo "$line"
    case "$line" in *" ok") ;; *) fail=1 ;; esac
  done
done
exit $fail
