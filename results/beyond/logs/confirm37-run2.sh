#!/bin/bash
# 2026-11-27, from a61234a, second part: 3x11 w4 put first (its probe's iterations grew slowly), then
# 5x6 w5 going on from its checkpoint, then the rest. Output appended to each cell's logs.
BIN=/work/ckpt/bin/qs-a61234a
cd /work/main
for c in 3x11:4 5x6:5 5x11:3 7x5:5 4x9:4; do
  b=${c%%:*}; w=${c##*:}; n=$b-w$w
  echo "$(date -u +%H:%M:%S) start $n" >> /work/ckpt/confirm37/run.log
  /usr/bin/time -v $BIN table --campaign /work/ckpt/campaign --out results/beyond --boards $b --walls $w --max-seconds 10800 --confirm-seconds 10800 -v >> /work/ckpt/confirm37/$n.out 2>> /work/ckpt/confirm37/$n.err
  echo "$(date -u +%H:%M:%S) end $n rc=$?" >> /work/ckpt/confirm37/run.log
done
