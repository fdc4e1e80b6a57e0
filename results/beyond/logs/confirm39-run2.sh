#!/bin/bash
# 2026-11-27, second part (binary of cf6e195): the analysis alone as the second method of four cells the proof
# search alone decided in the first pass (8x5, 15x3, 16x3 and 9x5 with 3 walls; estimated
# 3 to 8 min each in memory), binary of cf6e195 (its code is 464aee5's).
BIN=/work/ckpt/bin/qs-cf6e195
cd /work/main
echo "$(date -u +%H:%M:%S) start" >> /work/ckpt/confirm39/run2.log
/usr/bin/time -v $BIN table --campaign /work/ckpt/campaign --out results/beyond --boards 8x5,15x3,16x3,9x5 --walls 3 --max-seconds 10800 --confirm-seconds 1500 -v >> /work/ckpt/confirm39/w3.out 2>> /work/ckpt/confirm39/w3.err
echo "$(date -u +%H:%M:%S) end rc=$?" >> /work/ckpt/confirm39/run2.log
