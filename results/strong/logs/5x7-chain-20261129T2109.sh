#!/usr/bin/env bash
# 5x7 w4 exact (the bound, resumed from its layers), then 5x7 w5 compact with the bound.
BIN=${BIN:-/work/ckpt/bin/qs-afd38e8}
renice -n 19 -p $$ >/dev/null; echo 19 > /proc/self/autogroup
ts=$(date -u +%Y%m%dT%H%M)
tag=$(basename $BIN | sed 's/^qs-//')
log=/work/ckpt/logs/5x7-w4-exact-$tag-$ts
/usr/bin/time -v $BIN solve 5x7 --walls 4 --method retro --precision exact --memory 20G \
  --scratch /work/ckpt/strong/5x7-w4-exact -v --json > $log.json 2> $log.err || exit 1
BIN=$BIN bash /work/ckpt/run_5x7w5.sh
