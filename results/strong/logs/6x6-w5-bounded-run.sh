#!/usr/bin/env bash
# 6x6 w5 by the proof search bounded on both sides by 6x6 w4's exact analysis (issue 52).
BIN=${BIN:-/work/ckpt/bin/qs-dce172b}
renice -n 19 -p $$ >/dev/null; echo 19 > /proc/self/autogroup
ts=$(date -u +%Y%m%dT%H%M)
tag=$(basename $BIN | sed 's/^qs-//')
log=/work/ckpt/logs/6x6-w5-bounded-$tag-$ts
/usr/bin/time -v $BIN solve 6x6 --walls 5 --method search --fewer-walls 4 \
  --precision exact --scratch /work/ckpt/strong/6x6-w4-exact \
  --checkpoint /work/ckpt/strong/6x6-w5-bounded.checkpoint --memory 20G -v --json \
  > $log.json 2> $log.err &
pid=$!
# Resident memory every 20 s, split anonymous / file-backed, to find what passes the budget.
sleep 2; qs=$(pgrep -P $pid)
while kill -0 $pid 2>/dev/null; do
  echo "$(date -u +%T) $(grep -E '^(VmRSS|VmHWM|RssAnon|RssFile)' /proc/$qs/status 2>/dev/null | tr -s ' ' | tr '\n' ' ')" >> $log.rss
  sleep 20
done
wait $pid
