#!/bin/bash
# 2026-11-27, third part (binary of cf6e195): the analysis alone as the second method of 17x3 with 3 walls (the
# proof search alone decided it in the first pass; estimated 11 min in memory), binary of
# cf6e195 (its code is 464aee5's).
BIN=/work/ckpt/bin/qs-cf6e195
cd /work/main
echo "$(date -u +%H:%M:%S) start" >> /work/ckpt/confirm39/run3.log
/usr/bin/time -v $BIN table --campaign /work/ckpt/campaign --out results/beyond --boards 17x3 --walls 3 --max-seconds 10800 --confirm-seconds 1500 -v >> /work/ckpt/confirm39/w3-17x3.out 2>> /work/ckpt/confirm39/w3-17x3.err
echo "$(date -u +%H:%M:%S) end rc=$?" >> /work/ckpt/confirm39/run3.log
