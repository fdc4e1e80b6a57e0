#!/bin/bash
# 2026-11-27, second part (after 06:51 UTC): 7x5 w5 stopped (depth 31 thrashing its store: 2,253 s in all
# over two runs), its checkpoint kept; 4x9 w4's second method (proof search alone) in
# its place, with the binary of 5473c53 (checkpoints count every run's work).
BIN=/work/ckpt/bin/qs-5473c53
cd /work/main
for c in 4x9:4; do
  b=${c%%:*}; w=${c##*:}; n=$b-w$w
  echo "$(date -u +%H:%M:%S) start $n" >> /work/ckpt/confirm38/run.log
  /usr/bin/time -v $BIN table --campaign /work/ckpt/campaign --out results/beyond --boards $b --walls $w --max-seconds 10800 --confirm-seconds 10800 -v >> /work/ckpt/confirm38/$n.out 2>> /work/ckpt/confirm38/$n.err
  rc=$?
  echo "$(date -u +%H:%M:%S) end $n rc=$rc" >> /work/ckpt/confirm38/run.log
done
