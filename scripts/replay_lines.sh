#!/usr/bin/env bash
# Replays the principal line of every decided cell with `show`, and checks that it is legal,
# that it ends with the stated winner on their goal row, and that it has exactly the stated
# number of plies. The lines come from results tables (`table.csv`, `confirm.csv`) and from
# saved `solve` outputs: `solve --json` files (`.json`) and its text (any other file, e.g. a
# log `logs/confirm-search-*.out`; one that says "unknown" is passed over).
#
# A row whose run kept no line (a table written before the `line` column, an analysis that
# keeps none) is counted apart ("without a line"), never as replayed. At the end, every
# decided cell that no replayed line covers, with the same winner and plies, is named; two
# sources that give one cell different results fail.
#
#   scripts/replay_lines.sh [FILE ...]          (default: every source committed: the
#                                                tables of results/beyond, its solve logs
#                                                and the solve JSON of results/strong)
#   BIN=path/to/quoridor-solver                 (default: target/release/quoridor-solver)
#
# Exit status: 0 when every line found replays and the sources agree; 1 otherwise (each
# failure is printed with its cell); 2 on bad input.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/quoridor-solver}
[[ -x $bin ]] || { echo "error: no binary at $bin (cargo build --release, or set BIN)" >&2; exit 2; }
if (($# == 0)); then
  shopt -s nullglob
  for f in results/beyond/table.csv results/beyond/confirm.csv results/beyond/lines-*.csv \
    results/beyond/logs/confirm-search-*.out results/beyond/logs/solve-*.out results/strong/*.json; do
    [[ $f == *.header.json ]] || set -- "$@" "$f"
  done
  shopt -u nullglob
fi

replayed=0 without=0 failed=0
declare -A result covered # "WxH:N" -> "P:plies" (the first source's), and those replayed

# check WIDTH HEIGHT WALLS OUTCOME PLIES LINE SOURCE: one decided result and its line.
check() {
  local width=$1 height=$2 walls=$3 outcome=$4 plies=$5 line=$6 source=$7
  local key="${width}x${height}:$walls" cell="${width}x${height} with $walls walls ($source)"
  if [[ -n ${result[$key]:-} && ${result[$key]} != "$outcome:$plies" ]]; then
    failed=$((failed + 1))
    echo "FAILED: $cell: Player $outcome in $plies, another source says Player ${result[$key]/:/ in }"
    return
  fi
  result[$key]="$outcome:$plies"
  if [[ -z $line ]]; then
    without=$((without + 1))
    return
  fi
  # The plies are the line's actions: every token but the move numbers (`3.`, `3...`).
  local actions out
  actions=$(tr ' ' '\n' <<<"$line" | grep -cv '^[0-9]*\.\+$' || true)
  if [[ $actions != "$plies" ]]; then
    failed=$((failed + 1))
    echo "FAILED: $cell: the line has $actions plies, the source says $plies"
    return
  fi
  if ! out=$("$bin" show "${width}x${height}" --walls "$walls" --moves "$line" 2>&1); then
    failed=$((failed + 1))
    echo "FAILED: $cell: show refused the line: $(tail -n 1 <<<"$out")"
    return
  fi
  if ! grep -qx "Player $outcome has won" <<<"$out"; then
    failed=$((failed + 1))
    echo "FAILED: $cell: after the line, not 'Player $outcome has won'"
    return
  fi
  replayed=$((replayed + 1))
  covered[$key]=1
}

# A results table: width,height,walls,outcome,plies,...,line (the line holds no comma).
from_table() {
  local table=$1 header has_line=0 width height walls outcome plies rest line
  header=$(head -n 1 "$table")
  [[ $header == *,line ]] && has_line=1
  while IFS=, read -r width height walls outcome plies rest; do
    [[ $outcome == 1 || $outcome == 2 ]] || continue
    line=""
    ((has_line)) && line=${rest##*,}
    check "$width" "$height" "$walls" "$outcome" "$plies" "$line" "$table"
  done < <(tail -n +2 "$table")
}

# `solve --json`: one object; the line is `pv`, a list of moves.
from_json() {
  local file=$1 text field
  text=$(tr -d ' \n' <"$file")
  field() { grep -o "\"$1\":\"\?[^\",]*" <<<"$text" | head -n 1 | sed 's/.*:"\?//'; }
  local width height walls outcome plies line
  width=$(field width) height=$(field height) walls=$(field walls)
  outcome=$(field outcome) plies=$(field plies)
  [[ -n $width && -n $height && -n $walls ]] ||
    { echo "error: $file is not the JSON of solve --json" >&2; exit 2; }
  [[ $outcome == 1 || $outcome == 2 ]] || return 0
  line=$(grep -o '"pv":\[[^]]*\]' <<<"$text" | sed 's/"pv":\[//; s/\]$//; s/"//g; s/,/ /g' || true)
  check "$width" "$height" "$walls" "$outcome" "$plies" "$line" "$file"
}

# `solve`'s text: "WxH with N walls per player: Player P wins in K plies", then rows, one
# of them `line  1. d2 d4 ...`.
from_text() {
  local file=$1 first re='^([0-9]+)x([0-9]+) with ([0-9]+) walls? per player: (.*)$'
  first=$(head -n 1 "$file")
  [[ $first =~ $re ]] ||
    { echo "error: $file is neither a results table nor the output of solve" >&2; exit 2; }
  local width=${BASH_REMATCH[1]} height=${BASH_REMATCH[2]} walls=${BASH_REMATCH[3]}
  local said=${BASH_REMATCH[4]} line
  [[ $said =~ ^Player\ ([12])\ wins\ in\ ([0-9]+)\ plies ]] || return 0
  line=$(sed -n 's/^line  *//p' "$file" | head -n 1)
  check "$width" "$height" "$walls" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "$line" "$file"
}

for file in "$@"; do
  [[ -f $file ]] || { echo "error: no file at $file" >&2; exit 2; }
  case $file in
    *.csv)
      [[ $(head -n 1 "$file") == width,height,walls,outcome,plies,* ]] ||
        { echo "error: $file is not a results table (header: $(head -n 1 "$file"))" >&2; exit 2; }
      from_table "$file" ;;
    *.json) from_json "$file" ;;
    *) from_text "$file" ;;
  esac
done

uncovered=0
for key in $(printf '%s\n' "${!result[@]}" | sort -V); do
  [[ -n ${covered[$key]:-} ]] && continue
  uncovered=$((uncovered + 1))
  echo "no line: ${key%%:*} with ${key##*:} walls, Player ${result[$key]/:/ in }"
done
echo "$replayed lines replayed to the winner's goal in the stated plies, $without decided rows without a line, $failed failed"
echo "$((${#result[@]} - uncovered)) decided cells with a line replayed, $uncovered without one"
((failed == 0))
