#!/usr/bin/env bash
# The figures docs/SERVE.md owes (scripts/bench_serve_figures.py says what each is and how
# its answers are checked): queries of a saved table; a click on a cell solved on request,
# before it is kept and after; the server's memory; normal requests while bursts of 500
# requests are in flight and while 1000 idle connections are held. Run on a quiet machine,
# with no build running; prints a small table.
#
#   scripts/bench_serve_figures.sh [TABLE_DIR [BOARD WALLS]]
#
# TABLE_DIR defaults to /tmp/t54, saved first if missing (`solve 5x5 --walls 4 --method
# retro --save`, about 15 s). The cell solved on request is CELL (default "8x3 3"), with
# --max-seconds MAX_SECONDS (default 60); QUERIES (1000), CLICKS (100), BURST (500), IDLE
# (1000) and MEASURE_SECONDS (4: each measure of normal requests) may be set too, e.g. a
# quick check: CELL="4x4 2" QUERIES=100 CLICKS=20 MEASURE_SECONDS=1
# scripts/bench_serve_figures.sh /tmp/t42 4x4 2.
set -euo pipefail
cd "$(dirname "$0")/.."
table=${1:-/tmp/t54}
board=${2:-5x5}
walls=${3:-4}
read -r cell_board cell_walls <<< "${CELL:-8x3 3}"
cargo build --release -q
bin=target/release/quoridor-solver
if [ ! -d "$table" ]; then
    "$bin" solve "$board" --walls "$walls" --method retro --save "$table" -q
fi
out=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill $server 2> /dev/null; rm -rf "$out"' EXIT
"$bin" serve --table "$table" --addr 127.0.0.1:0 --max-seconds "${MAX_SECONDS:-60}" \
    > "$out/serve.out" 2> "$out/serve.err" &
server=$!
until grep -q '^serving ' "$out/serve.out" 2> /dev/null; do
    kill -0 $server 2> /dev/null || { cat "$out/serve.err" >&2; exit 1; }
    sleep 0.01
done
url=$(sed -n 's/^serving //p' "$out/serve.out")
python3 scripts/bench_serve_figures.py "$url" "$server" "$bin" "$table" "$board" "$walls" \
    "$cell_board" "$cell_walls" --queries "${QUERIES:-1000}" --clicks "${CLICKS:-100}" \
    --burst "${BURST:-500}" --idle "${IDLE:-1000}" --seconds "${MEASURE_SECONDS:-4}"
