#!/usr/bin/env bash
# The explorer in a real browser: starts `serve` on a free port, then drives headless
# Chromium with playwright-core (scripts/browser_check.mjs): loads the page, plays moves by
# clicking, by keys and by taps in a touch window, steps back and forward, reopens its link,
# places a wall from the overlay of every wall, pastes a line and a record, checks the
# chart and the best line, plays against the computer with the values hidden, opens the map
# (/map) and a cell from it, and writes a screenshot per step.
#
#   scripts/browser_check.sh [TABLE_DIR]
#
# TABLE_DIR: a saved table to serve (e.g. `solve 5x5 --walls 4 --method retro --save
# /tmp/t54`, as for README's screenshot); by default 4x4 with 2 walls is saved first into
# target/browser-check/table. Screenshots go to target/browser-check/shots/.
#
# Needs (installs none of them): Debian's chromium (`apt-get install chromium`), Node.js
# and npm. playwright-core is fetched once from npm into target/browser-check/node (ignored
# by git); it drives /usr/bin/chromium, never a browser of its own.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in /usr/bin/chromium node npm; do
    if ! command -v "$tool" > /dev/null; then
        echo "browser_check: $tool is missing (apt-get install chromium; Node.js and npm)" >&2
        exit 2
    fi
done

work=target/browser-check
mkdir -p "$work/shots"
if [ ! -d "$work/node/node_modules/playwright-core" ]; then
    mkdir -p "$work/node"
    (cd "$work/node" && npm init -y > /dev/null && npm install --silent playwright-core@1)
fi
cp scripts/browser_check.mjs "$work/node/"

cargo build --release -q
bin=target/release/quoridor-solver
table=${1:-}
if [ -z "$table" ]; then
    table="$work/table"
    if [ ! -d "$table" ]; then
        "$bin" solve 4x4 --walls 2 --method retro --save "$table" -q > /dev/null
    fi
fi

# The last run's output removed first: the wait below could otherwise read its old line
# before the new server's redirection empties the file (a race seen once: an empty URL).
rm -f "$work/serve.out"
"$bin" serve --table "$table" --addr 127.0.0.1:0 > "$work/serve.out" 2> "$work/serve.err" &
server=$!
trap 'kill $server 2> /dev/null || true' EXIT
for _ in $(seq 1 200); do
    grep -q '^serving ' "$work/serve.out" 2> /dev/null && break
    kill -0 $server 2> /dev/null || { cat "$work/serve.err" >&2; exit 1; }
    sleep 0.05
done
url=$(sed -n 's/^serving //p' "$work/serve.out")
echo "server at $url"
node "$work/node/browser_check.mjs" "$url" "$PWD/$work/shots"
