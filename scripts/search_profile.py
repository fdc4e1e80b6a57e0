#!/usr/bin/env python3
"""The proof search's iterations, one row each, from the log that `solve ... -v` writes on
stderr (issue 54: where the nodes and the seconds go by depth, how the count grows per
iteration, how often the configuration store is emptied).

    scripts/search_profile.py LOG [LOG ...]     several logs: runs of one search resumed
                                                from its checkpoint, in order
    solve 4x5 --walls 4 --method search -v 2>&1 >/dev/null | scripts/search_profile.py -

Prints CSV: depth, player, verdict (fails / wins / stopped), the iteration's nodes and
seconds (the log's counts are cumulative within a run), how many times the store was emptied
during it, and the growth of the nodes over the same player's iteration before (None for
the first). The last line estimates the next iteration of the player still asked from that
growth (the mean of the last two), and says it is an estimate.
"""

import csv
import re
import sys

DEPTH = re.compile(
    r"^depth (\d+): Player ([12]) (cannot win|wins) within \d+ pl(?:y|ies) "
    r"\(([\d,]+) nodes?, ([\d.]+) s\)"
)
EMPTIED = re.compile(r"^depth (\d+): the configuration store is full; emptied it")


def rows(lines):
    """Yields one dict per finished iteration; counts restart with each run's first line."""
    last_nodes = last_seconds = 0
    emptied = {}
    for line in lines:
        line = line.strip()
        if line.endswith(": proof search") or "compact retrograde analysis" in line:
            last_nodes = last_seconds = 0  # a new run: its counts start again
            continue
        m = EMPTIED.match(line)
        if m:
            depth = int(m.group(1))
            emptied[depth] = emptied.get(depth, 0) + 1
            continue
        m = DEPTH.match(line)
        if not m:
            continue
        depth, player = int(m.group(1)), int(m.group(2))
        nodes, seconds = int(m.group(4).replace(",", "")), float(m.group(5))
        if nodes < last_nodes:
            last_nodes = last_seconds = 0  # a run without a header line
        yield {
            "depth": depth,
            "player": player,
            "verdict": "wins" if m.group(3) == "wins" else "fails",
            "nodes": nodes - last_nodes,
            "seconds": round(seconds - last_seconds, 2),
            "emptied": emptied.pop(depth, 0),
        }
        last_nodes, last_seconds = nodes, seconds


def main():
    paths = sys.argv[1:] or ["-"]
    lines = []
    for path in paths:
        lines += (sys.stdin if path == "-" else open(path, encoding="utf-8")).readlines()
    table = list(rows(lines))
    out = csv.writer(sys.stdout)
    out.writerow(["depth", "player", "verdict", "nodes", "seconds", "emptied", "growth"])
    before = {}
    growths = {1: [], 2: []}
    for r in table:
        prev = before.get(r["player"])
        growth = None
        if prev and prev["nodes"] > 0 and r["depth"] > prev["depth"]:
            growth = round(r["nodes"] / prev["nodes"], 2)
            growths[r["player"]].append(growth)
        before[r["player"]] = r
        out.writerow([r[k] for k in ("depth", "player", "verdict", "nodes", "seconds", "emptied")] + [growth])
    if not table:
        sys.exit("no iteration in the log (run solve with -v and give its stderr)")
    last = table[-1]
    player = last["player"]
    g = growths[player][-2:]
    if last["verdict"] == "fails" and g:
        mean = sum(g) / len(g)
        print(
            f"# estimate, not a measurement: Player {player}'s next iteration (depth "
            f"{last['depth'] + 2}) about {last['nodes'] * mean:.3g} nodes and "
            f"{last['seconds'] * mean:.3g} s, at the mean growth of its last {len(g)} ({mean:.2f})"
        )


if __name__ == "__main__":
    main()
