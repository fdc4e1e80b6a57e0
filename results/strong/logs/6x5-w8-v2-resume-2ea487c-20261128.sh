#!/usr/bin/env bash
# 6x5 w8 again with the numbering by profile (layout version 2), resumed from layer 9 with the binary of 2ea487c (blocks decided a row at a time; layers 16-10 by 6040f64), so that the
# search for the length has the memory the old numbering took (18.24 GiB, now 388 KiB):
# the compact analysis through the disk at 16G, resumable from its layers, then the length's
# search with a checkpoint, in the same command.
bin=/work/ckpt/bin/qs-2ea487c
w=8
log=/work/ckpt/logs/6x5-w$w-v2-compact-2ea487c-$(date -u +%Y%m%dT%H%M)
echo "6x5 w$w v2 $(date -u)" >> /work/ckpt/logs/chain.log
nice -n 19 /usr/bin/time -v $bin solve 6x5 --walls $w --method retro --memory 16G --precision compact \
  --scratch /work/ckpt/strong/6x5-w$w-v2 --checkpoint /work/ckpt/strong/6x5-w$w-v2.checkpoint \
  --stats --json -v > $log.json 2> $log.err
echo "end 6x5 w$w v2 rc $? $(date -u)" >> /work/ckpt/logs/chain.log
