#!/usr/bin/env bash
# Replays the principal line of every decided cell of results tables with `show`, and checks
# that it is legal, that it ends with the stated winner on their goal row, and that it has
# exactly the stated number of plies. A table written before the `line` column, or a row
# whose run found no line, is counted apart ("without a line"), never as replayed.
#
#   scripts/replay_lines.sh [TABLE.csv ...]     (default: results/beyond/table.csv and,
#                                                if present, results/beyond/confirm.csv)
#   BIN=path/to/quoridor-solver                 (default: target/release/quoridor-solver)
#
# Exit status: 0 when every line found replays; 1 when one does not (each failure is printed
# with its cell); 2 on bad input.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/quoridor-solver}
[[ -x $bin ]] || { echo "error: no binary at $bin (cargo build --release, or set BIN)" >&2; exit 2; }
if (($# == 0)); then
  set -- results/beyond/table.csv
  [[ -f results/beyond/confirm.csv ]] && set -- "$@" results/beyond/confirm.csv
fi

replayed=0 without=0 failed=0
for table in "$@"; do
  [[ -f $table ]] || { echo "error: no table at $table" >&2; exit 2; }
  header=$(head -n 1 "$table")
  [[ $header == width,height,walls,outcome,plies,* ]] ||
    { echo "error: $table is not a results table (header: $header)" >&2; exit 2; }
  has_line=0
  [[ $header == *,line ]] && has_line=1
  # Fields: width,height,walls,outcome,plies,...,line (the line holds no comma).
  while IFS=, read -r width height walls outcome plies rest; do
    [[ $outcome == 1 || $outcome == 2 ]] || continue
    cell="${width}x${height} with $walls walls ($table)"
    line=""
    ((has_line)) && line=${rest##*,}
    if [[ -z $line ]]; then
      without=$((without + 1))
      echo "no line: $cell, Player $outcome in $plies"
      continue
    fi
    # The plies are the line's actions: every token but the move numbers (`3.`, `3...`).
    actions=$(tr ' ' '\n' <<<"$line" | grep -cv '^[0-9]*\.\+$' || true)
    if [[ $actions != "$plies" ]]; then
      failed=$((failed + 1))
      echo "FAILED: $cell: the line has $actions plies, the table says $plies"
      continue
    fi
    if ! out=$("$bin" show "${width}x${height}" --walls "$walls" --moves "$line" 2>&1); then
      failed=$((failed + 1))
      echo "FAILED: $cell: show refused the line: $(tail -n 1 <<<"$out")"
      continue
    fi
    if ! grep -qx "Player $outcome has won" <<<"$out"; then
      failed=$((failed + 1))
      echo "FAILED: $cell: after the line, not 'Player $outcome has won'"
      continue
    fi
    replayed=$((replayed + 1))
  done < <(tail -n +2 "$table")
done
echo "$replayed lines replayed to the winner's goal in the stated plies, $without decided rows without a line, $failed failed"
((failed == 0))
