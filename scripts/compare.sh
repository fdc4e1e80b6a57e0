#!/usr/bin/env bash
# Two binaries timed interleaved on the same commands: old, new, old, new, ... so that a
# change of the machine's speed during the run falls on both alike. Answers are compared
# too (outcome, length, positions; nodes with --threads 1): a change that alters them is not a speed change.
#
#   scripts/compare.sh OLD_BIN NEW_BIN [RUNS]      (RUNS each, default 3)
#   JOBS="solve 3x7 --walls 5 --method search" scripts/compare.sh OLD NEW
#       only these commands (one per line), instead of the default set below
#   JOBS="solve 5x5 --walls 4 --method retro --precision exact --memory 96M --scratch {scratch}"
#       {scratch} is a new empty directory for each run (an analysis in parts from nothing)
#
# Prints per command and binary: the median, the lowest and the highest seconds of the
# runs, the peak memory of the last run, and `same` or `DIFFER` for the answers.
# Run it with nothing else running: the machine has 2 cores.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,13p "$0"; exit 2; }
old=$1; new=$2; runs=${3:-3}
default_jobs="solve 3x7 --walls 5 --method search --threads 2
solve 5x5 --walls 4 --method search --threads 2
solve 5x5 --walls 4 --method retro --precision exact
solve 5x5 --walls 4 --method retro --precision compact
solve 6x6 --walls 2 --method retro --precision exact
solve 8x3 --walls 3 --method retro --precision exact"
jobs=${JOBS:-$default_jobs}
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
echo "old: $old ($($old --version)); new: $new ($($new --version)); $runs runs each, interleaved"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-58s %-4s %8s %8s %8s %10s %s\n' command bin median min max peak answers
while IFS= read -r job; do
  [ -n "$job" ] || continue
  for i in $(seq "$runs"); do
    for which in old new; do
      bin=$old; [ $which = new ] && bin=$new
      run=${job//\{scratch\}/$out/scratch}
      rm -rf "$out/scratch"
      # shellcheck disable=SC2086
      /usr/bin/time -f '%e %M' -o "$out/$which.$i.time" $bin $run --json > "$out/$which.$i.json" 2>/dev/null
      rm -rf "$out/scratch"
    done
  done
  python3 - "$out" "$runs" "$job" <<'PY'
import json, sys, statistics
out, runs, job = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# Node counts are deterministic with one thread only.
keys = ("outcome", "plies", "positions", "p1_wins", "p2_wins", "draws")
if "--threads 1" in job:
    keys += ("nodes",)
answers = {}
for which in ("old", "new"):
    secs, peak = [], 0
    for i in range(1, runs + 1):
        e, m = open(f"{out}/{which}.{i}.time").read().split()[-2:]
        secs.append(float(e)); peak = int(m)
        r = json.load(open(f"{out}/{which}.{i}.json"))
        answers.setdefault(which, set()).add(tuple(r.get(k) for k in keys))
    same = "same" if answers.get("old") == answers[which] and len(answers[which]) == 1 else "DIFFER"
    print(f"{job:<58} {which:<4} {statistics.median(secs):8.2f} {min(secs):8.2f} {max(secs):8.2f} {peak/1024:8.0f}Mi {same}")
PY
done <<< "$jobs"
