#!/usr/bin/env bash
# serve's start-up and query times from a saved table (docs/SERVE.md): starts the server
# three times (the time to its `serving` line), then 1,000 queries of random reachable
# positions (scripts/bench_serve.py). Run on a quiet machine, with no build running.
#
#   scripts/bench_serve.sh [TABLE_DIR] [BOARD WALLS]
#
# TABLE_DIR defaults to /tmp/t54, saved first if missing (`solve 5x5 --walls 4 --method
# retro --save`, about 15 s).
set -euo pipefail
cd "$(dirname "$0")/.."
table=${1:-/tmp/t54}
board=${2:-5x5}
walls=${3:-4}
cargo build --release -q
bin=target/release/quoridor-solver
if [ ! -d "$table" ]; then
    "$bin" solve "$board" --walls "$walls" --method retro --save "$table" -q
fi
out=$(mktemp -d)
trap 'kill $server 2> /dev/null || true; rm -rf "$out"' EXIT
for run in 1 2 3; do
    start=$(date +%s.%N)
    "$bin" serve --table "$table" --addr 127.0.0.1:0 > "$out/serve.out" 2> "$out/serve.err" &
    server=$!
    until grep -q '^serving ' "$out/serve.out" 2> /dev/null; do
        kill -0 $server 2> /dev/null || { cat "$out/serve.err" >&2; exit 1; }
        sleep 0.01
    done
    echo "start-up $run: $(echo "$(date +%s.%N) - $start" | bc) s; $(tr '\n' ' ' < "$out/serve.err")"
    if [ $run -lt 3 ]; then
        kill $server
        wait $server 2> /dev/null || true
        rm -f "$out/serve.out"
    fi
done
url=$(sed -n 's/^serving //p' "$out/serve.out")
python3 scripts/bench_serve.py "$url" "$board" "$walls" 1000
