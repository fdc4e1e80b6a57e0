#!/usr/bin/env bash
# Runs every test CI leaves out (`#[ignore]`: minutes each, too long for CI), release
# build, with their figures on stderr:
# - tests/retro.rs *_matches_the_table_*: the analysis's rate and memory on mid-size cells, each
#   cell's value checked against results/table.csv (5x5 and 3x9 with 10 walls: minutes);
# - tests/reference_engine.rs generate_fixtures: the naive engine writes
#   tests/data/perft.csv and reachable.csv again; they must come out unchanged;
# - src/retro/mod.rs bitvec_packing_for_callgrind: the two 2-bit packings agree.
# Exits non-zero if any test fails or a fixture changed. Usage: scripts/ignored_tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# One test at a time: the measurements must not share the cores.
cargo test --release -- --ignored --nocapture --test-threads=1
if ! git diff --quiet -- tests/data; then
    echo "the fixtures in tests/data changed: the naive engine and the committed counts disagree" >&2
    git diff --stat -- tests/data >&2
    exit 1
fi
echo "every ignored test passed; tests/data unchanged"
