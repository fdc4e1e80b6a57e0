#!/usr/bin/env bash
# The proof search over configurations built on demand against the full tables, on middle
# cells too large for CI: outcome, plies and line length must be equal (the lines may
# differ: several wins can be shortest).
#
#   scripts/on_demand_check.sh                 the default cells
#   CELLS="5x5:4 3x9:3" scripts/on_demand_check.sh
#
# Prints per cell and store: outcome, plies, nodes, seconds, peak memory. Exits 1 when the
# stores disagree on a cell.
set -euo pipefail
source "$(dirname "$0")/bench_setup.sh"
cells=${CELLS:-"5x5:3 5x5:4 3x9:3 4x7:3 6x5:3 7x5:2"}

fail=0
printf '%-8s %-10s %5s %6s %12s %9s %10s\n' cell store out plies nodes seconds peak
for cell in $cells; do
  board=${cell%%:*}; walls=${cell##*:}
  answers=()
  for store in full on-demand; do
    json=$($bin solve "$board" --walls "$walls" --method search --store $store --json 2>/dev/null)
    read -r answer row < <(python3 - "$json" "$cell" "$store" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
answer = f"{r['outcome']}/{r['plies']}"
print(answer, f"{sys.argv[2]:<8} {sys.argv[3]:<10} {r['outcome']:>5} {str(r['plies']):>6} "
      f"{r['nodes']:>12} {r['seconds']:>9.2f} {r['peak_bytes'] / 2**30:>8.2f}G")
PY
)
    echo "$row"
    answers+=("$answer")
  done
  if [ "${answers[0]}" != "${answers[1]}" ]; then
    echo "DIFFERS $cell: full ${answers[0]}, on demand ${answers[1]}"
    fail=1
  fi
done
exit $fail
