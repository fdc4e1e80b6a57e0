#!/usr/bin/env bash
# 6x5 w8: the analysis is whole in its scratch directory (403a18d's binary wrote it, layout
# version 1); the search for the length goes on with a checkpoint, binary of 403a18d with
# bc2bdd6 cherry-picked (a line cut by a full store is read on, not proven again).
bin=/work/ckpt/bin/qs-403a18d-pv
w=8
log=/work/ckpt/logs/6x5-w$w-length-403a18d-pv-$(date -u +%Y%m%dT%H%M)
echo "length 6x5 w$w $(date -u)" >> /work/ckpt/logs/chain.log
nice -n 19 /usr/bin/time -v $bin solve 6x5 --walls $w --method retro --memory 21G --precision compact \
  --scratch /work/ckpt/strong/6x5-w$w --checkpoint /work/ckpt/strong/6x5-w$w.checkpoint \
  --stats --json -v > $log.json 2> $log.err
echo "end 6x5 w$w rc $? $(date -u)" >> /work/ckpt/logs/chain.log
