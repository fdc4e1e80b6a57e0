#!/usr/bin/env bash
# 6x5 w6 then w7, compact, through the disk, at 16G, niced: issue 52's long cells on 0ea85c7's binary.
bin=/work/ckpt/bin/qs-0ea85c7
for w in 6 7; do
  log=/work/ckpt/logs/6x5-w$w-compact-0ea85c7-$(date -u +%Y%m%dT%H%M)
  echo "start 6x5 w$w $(date -u)" >> /work/ckpt/logs/chain.log
  nice -n 19 /usr/bin/time -v $bin solve 6x5 --walls $w --method retro --memory 16G --precision compact \
    --scratch /work/ckpt/strong/6x5-w$w --stats --json -v > $log.json 2> $log.err
  echo "end 6x5 w$w rc $? $(date -u)" >> /work/ckpt/logs/chain.log
done
