#!/usr/bin/env bash
# Resume 6x5 w7 (compact, through the disk, 16G, niced) on 0ea85c7's binary from its scratch.
bin=/work/ckpt/bin/qs-0ea85c7
w=7
log=/work/ckpt/logs/6x5-w$w-compact-0ea85c7-resume-$(date -u +%Y%m%dT%H%M)
echo "resume 6x5 w$w $(date -u)" >> /work/ckpt/logs/chain.log
nice -n 19 /usr/bin/time -v $bin solve 6x5 --walls $w --method retro --memory 16G --precision compact \
  --scratch /work/ckpt/strong/6x5-w$w --stats --json -v > $log.json 2> $log.err
echo "end 6x5 w$w rc $? $(date -u)" >> /work/ckpt/logs/chain.log
