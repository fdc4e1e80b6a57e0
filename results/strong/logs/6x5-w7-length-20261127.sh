#!/usr/bin/env bash
# 6x5 w7: the analysis is whole in its scratch directory (0ea85c7's binary wrote it); the
# search for the length goes on with a checkpoint (binary of 309065a), so that it survives
# the end of a period of work.
bin=/work/ckpt/bin/qs-309065a
w=7
log=/work/ckpt/logs/6x5-w$w-length-309065a-$(date -u +%Y%m%dT%H%M)
echo "length 6x5 w$w $(date -u)" >> /work/ckpt/logs/chain.log
nice -n 19 /usr/bin/time -v $bin solve 6x5 --walls $w --method retro --memory 16G --precision compact \
  --scratch /work/ckpt/strong/6x5-w$w --checkpoint /work/ckpt/strong/6x5-w$w.checkpoint \
  --stats --json -v > $log.json 2> $log.err
echo "end 6x5 w$w rc $? $(date -u)" >> /work/ckpt/logs/chain.log
