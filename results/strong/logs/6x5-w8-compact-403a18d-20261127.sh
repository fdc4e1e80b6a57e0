#!/usr/bin/env bash
# 6x5 w8: the compact analysis through the disk at 21G (the ranked numbering alone takes
# 18.24 GiB, so 16G does not fit), resumable from the layers it writes in its scratch
# directory; then the length's search with a checkpoint. Binary of 403a18d (the run begun with 30d6f8c was lost with its machine on 2026-11-27 at about 23:00 UTC, in layer 10).
bin=/work/ckpt/bin/qs-403a18d
w=8
log=/work/ckpt/logs/6x5-w$w-compact-403a18d-$(date -u +%Y%m%dT%H%M)
echo "6x5 w$w $(date -u)" >> /work/ckpt/logs/chain.log
nice -n 19 /usr/bin/time -v $bin solve 6x5 --walls $w --method retro --memory 21G --precision compact \
  --scratch /work/ckpt/strong/6x5-w$w --checkpoint /work/ckpt/strong/6x5-w$w.checkpoint \
  --stats --json -v > $log.json 2> $log.err
echo "end 6x5 w$w rc $? $(date -u)" >> /work/ckpt/logs/chain.log
