#!/usr/bin/env bash
# A second method for the table beyond the published one: its cells on boards of at most
# 64 cells solved again by the exact retrograde analysis alone (no proof search), then
# compared with results/beyond/table.csv (found by proof search) on every cell both decided.
#
#   scripts/confirm_beyond.sh                        the default cells
#   CELLS="10x3:0..=3 6x5:0..=2" scripts/confirm_beyond.sh
#   OUT=/tmp/retro scripts/confirm_beyond.sh          elsewhere than results/beyond/retro
#
# CELLS lists BOARD:WALLS, WALLS as `table --walls` reads it. The analysis's table goes to
# $OUT (table.csv, .md, .json, .svg; `table --resume`, so cells already there are kept).
# Exits 1 when the two tables differ on a cell's outcome or length.
set -euo pipefail
source "$(dirname "$0")/bench_setup.sh"
out=${OUT:-results/beyond/retro}
# The default: every cell of results/beyond decided by the search, of at most 64 cells,
# whose analysis the table run estimated at 150 s or less (118 cells: 31 min at 5cb96e3).
cells=${CELLS:-"10x3:0..=4 10x5:0..=2 11x3:0..=4 11x5:0..=2 12x3:0..=3 12x5:0..=2 13x3:0..=3
  14x3:0..=3 15x3:0..=2 16x3:0..=2 17x3:0..=2 18x3:0..=2 19x3:0..=2 20x3:0..=2 21x3:0..=2
  3x11:0..=3 4x8:0..=3 4x9:0..=3 5x11:0..=2 5x6:0..=3 5x7:0..=3 5x9:0..=2 6x5:0..=4 6x6:0..=3
  6x7:0..=2 6x9:0..=2 7x5:0..=3 7x7:0..=2 7x9:0..=2 8x5:0..=2 8x7:0..=2 8x8:0..=2 9x5:0..=2
  9x7:0..=2"}

mkdir -p "$out"
for cell in $cells; do
  board=${cell%%:*}; walls=${cell##*:}
  resume=(); [ -f "$out/table.csv" ] && resume=(--resume)
  $bin table --boards "$board" --walls "$walls" --method retro --out "$out" "${resume[@]}"
done

python3 - "$out/table.csv" results/beyond/table.csv <<'PY'
import csv, sys
retro = {(r['width'], r['height'], r['walls']): r for r in csv.DictReader(open(sys.argv[1]))}
search = {(r['width'], r['height'], r['walls']): r for r in csv.DictReader(open(sys.argv[2]))}
same = differ = only_retro = 0
for key, r in sorted(retro.items(), key=lambda kv: tuple(int(x) for x in kv[0])):
    s = search.get(key)
    cell = f"{key[0]}x{key[1]} with {key[2]} walls"
    if s is None or 'unknown' in (s['outcome'], r['outcome']):
        only_retro += 1
        print(f"{cell}: analysis {r['outcome']} {r['plies']}, search "
              f"{'not tried' if s is None else s['outcome']}")
    elif (r['outcome'], r['plies']) == (s['outcome'], s['plies']):
        same += 1
    else:
        differ += 1
        print(f"{cell}: DIFFER: analysis {r['outcome']} {r['plies']}, search {s['outcome']} {s['plies']}")
print(f"retrograde analysis against proof search: {same} the same, {differ} differ, "
      f"{only_retro} decided by one of them only")
sys.exit(1 if differ else 0)
PY
