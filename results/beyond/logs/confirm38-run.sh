#!/bin/bash
# 2026-11-27, 06:23 UTC: the second method (proof search alone, the campaign's confirm pass) for 7x5 w5,
# going on from its checkpoint saved before 06:16 (5e09dd9).
BIN=/work/ckpt/bin/qs-a61234a
cd /work/main
for c in 7x5:5; do
  b=${c%%:*}; w=${c##*:}; n=$b-w$w
  echo "$(date -u +%H:%M:%S) start $n" >> /work/ckpt/confirm38/run.log
  /usr/bin/time -v $BIN table --campaign /work/ckpt/campaign --out results/beyond --boards $b --walls $w --max-seconds 10800 --confirm-seconds 10800 -v >> /work/ckpt/confirm38/$n.out 2>> /work/ckpt/confirm38/$n.err
  rc=$?
  echo "$(date -u +%H:%M:%S) end $n rc=$rc" >> /work/ckpt/confirm38/run.log
done
