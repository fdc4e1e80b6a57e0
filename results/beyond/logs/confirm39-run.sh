#!/bin/bash
# 2026-11-27, from 649fadf: 7x5 w5's second method goes on from its checkpoint (format 4, spent 4,136 s
# over three runs) with the binary of 649fadf for the 6,600 s left of its 3 h (10,800 s).
BIN=/work/ckpt/bin/qs-649fadf
cd /work/main
for c in 7x5:5; do
  b=${c%%:*}; w=${c##*:}; n=$b-w$w
  echo "$(date -u +%H:%M:%S) start $n" >> /work/ckpt/confirm39/run.log
  /usr/bin/time -v $BIN table --campaign /work/ckpt/campaign --out results/beyond --boards $b --walls $w --max-seconds 10800 --confirm-seconds 6600 -v >> /work/ckpt/confirm39/$n-649fadf.out 2>> /work/ckpt/confirm39/$n-649fadf.err
  rc=$?
  echo "$(date -u +%H:%M:%S) end $n rc=$rc" >> /work/ckpt/confirm39/run.log
done
