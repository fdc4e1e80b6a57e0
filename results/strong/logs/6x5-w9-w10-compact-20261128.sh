#!/usr/bin/env bash
# 6x5 with 9, then 10 walls: the compact analysis through the disk at 12G (the numbering by
# profile takes under 1 MiB, so 12G leaves room beside it; planned 2.3 h and 2.7 h), each
# resumable from the layers it writes, then the length's search with a checkpoint. Binary:
# BIN (built from main after 3345ae9; layout version 2).
bin=${BIN:?the binary to run}
for w in 9 10; do
  log=/work/ckpt/logs/6x5-w$w-compact-$(basename "$bin")-$(date -u +%Y%m%dT%H%M)
  echo "6x5 w$w $(date -u)" >> /work/ckpt/logs/chain.log
  nice -n 19 /usr/bin/time -v "$bin" solve 6x5 --walls $w --method retro --memory 12G --precision compact \
    --scratch /work/ckpt/strong/6x5-w$w --checkpoint /work/ckpt/strong/6x5-w$w.checkpoint \
    --stats --json -v > $log.json 2> $log.err
  echo "end 6x5 w$w rc $? $(date -u)" >> /work/ckpt/logs/chain.log
done
