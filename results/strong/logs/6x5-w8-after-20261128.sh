#!/usr/bin/env bash
# 6x5 w8 after its analysis: verify the table in its scratch directory, then the search for
# the length from the checkpoint (binary of 403a18d with bc2bdd6 cherry-picked: it reads the
# layout-1 table the analysis wrote, and reads a line cut by a full store on).
bin=/work/ckpt/bin/qs-403a18d-pv
log=/work/ckpt/logs/6x5-w8-verify-403a18d-pv-$(date -u +%Y%m%dT%H%M)
echo "verify 6x5 w8 $(date -u)" >> /work/ckpt/logs/chain.log
nice -n 19 /usr/bin/time -v $bin verify /work/ckpt/strong/6x5-w8 -q > $log.out 2> $log.err
echo "end verify 6x5 w8 rc $? $(date -u)" >> /work/ckpt/logs/chain.log
bash /work/ckpt/w8-length.sh
