#!/usr/bin/env bash
# The cluster plan of docs/CLUSTER.md, from `solve --plan --ranks R` (estimates only: the
# configuration counts, the rate measured in parts on this machine, compact precision):
# per cell and number of ranks, each rank's memory (and what of it every rank holds whole), the shared directory's disk, the most a
# layer sends between ranks, the hours without the exchanges. Prints a Markdown table.
#
#   scripts/cluster_plan.sh                         7x5 w5-w7, w10 and 6x6 w5 on 8, 16, 32, 64 ranks
#   CELLS="7x5:5" RANKS="4 8" scripts/cluster_plan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cells=${CELLS:-"7x5:5 6x6:5 7x5:6 7x5:7 7x5:10"}; rank_counts=${RANKS:-"8 16 32 64"}
cargo build --release --quiet
bin=target/release/quoridor-solver
echo "| cell | positions | ranks | RAM a rank (compact) | of which numbering + indices | share of the largest layer | disk (compact) | most sent for a layer | hours |"
echo "|---|---|---|---|---|---|---|---|---|"
for cell in $cells; do
  board=${cell%%:*}; walls=${cell##*:}
  for r in $rank_counts; do
    "$bin" solve "$board" --walls "$walls" --method retro --precision compact --plan --ranks "$r" |
      python3 -c '
import re, sys
text = sys.stdin.read()
positions = re.search(r"^positions: (\S+)", text, re.M).group(1)
per_rank = re.search(r"or (\S+ \S+) compact$", text, re.M).group(1)
numbering, index, setup = re.search(r"ranked numbering (\S+ \S+) and the layout.s indices (\S+ \S+) \((\S+ \S+) while it builds them", text).groups()
disk = re.search(r"or (\S+ \S+) compact on disk", text).group(1)
sent = re.search(r"or (\S+ \S+) compact for one layer", text).group(1)
t = re.search(r"time: about (\S+ \S+) with", text).group(1)
units = {"B": 0, "KiB": 1, "MiB": 2, "GiB": 3, "TiB": 4}
size = lambda t: float(t.split()[0]) * 1024 ** units[t.split()[1]]
share = (size(per_rank) - size(numbering) - size(index)) / 2**30
# Where building the layout sets the peak, the share is below what is left of it.
share = "%.1f GiB" % share if size(per_rank) > size(numbering) + size(setup) else "less (the layout built: %s)" % setup
print("| %s w%s | %s | %s | %s | %s + %s | %s | %s | %s | %s |" % (sys.argv[1], sys.argv[2], positions, sys.argv[3], per_rank, numbering, index, share, disk, sent, t))
' "$board" "$walls" "$r"
  done
done
