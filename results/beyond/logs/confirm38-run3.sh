#!/bin/bash
# 2026-11-27, third part: 7x5 w5's second method goes on from its checkpoint (format 3,
# read with no record of its 2,253 s before) with the binary of 5473c53 until that work ended (before 95d2b0d, 08:49 UTC).
BIN=/work/ckpt/bin/qs-5473c53
cd /work/main
for c in 7x5:5; do
  b=${c%%:*}; w=${c##*:}; n=$b-w$w
  echo "$(date -u +%H:%M:%S) start $n" >> /work/ckpt/confirm38/run.log
  /usr/bin/time -v $BIN table --campaign /work/ckpt/campaign --out results/beyond --boards $b --walls $w --max-seconds 10800 --confirm-seconds 10800 -v >> /work/ckpt/confirm38/$n-5473c53.out 2>> /work/ckpt/confirm38/$n-5473c53.err
  rc=$?
  echo "$(date -u +%H:%M:%S) end $n rc=$rc" >> /work/ckpt/confirm38/run.log
done
