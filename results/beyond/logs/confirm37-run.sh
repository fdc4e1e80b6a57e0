#!/bin/bash
# 2026-11-27, from a61234a: the second method (proof search alone, the campaign's confirm pass) on the
# cells the analysis alone decided, cheapest first by the probes. Waits for the probes.
while [ ! -f /work/ckpt/probe/probe.done ]; do sleep 5; done
BIN=/work/ckpt/bin/qs-a61234a
cd /work/main
for c in "8x7 3" "8x5 4" "5x9 3" "6x9 3" "5x6 5" "5x11 3" "7x5 5" "4x9 4" "3x11 4"; do
  set -- $c
  n=$1-w$2
  echo "$(date -u +%H:%M:%S) start $n" >> /work/ckpt/confirm37/run.log
  /usr/bin/time -v $BIN table --campaign /work/ckpt/campaign --out results/beyond --boards $1 --walls $2 --max-seconds 10800 --confirm-seconds 10800 -v > /work/ckpt/confirm37/$n.out 2> /work/ckpt/confirm37/$n.err
  echo "$(date -u +%H:%M:%S) end $n rc=$?" >> /work/ckpt/confirm37/run.log
done
