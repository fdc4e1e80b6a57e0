#!/usr/bin/env bash
# Waits for the 6x5 w8 analysis (chain5.sh) to write its layer 0, stops that run (its search
# for the length would not read a line cut by a full store on), then runs w8-after.sh.
err=$(ls -t /work/ckpt/logs/6x5-w8-compact-403a18d-*.err | head -1)
until grep -q "^layer 0 solved" "$err"; do
  pgrep -f "qs-403a18d solve 6x5" > /dev/null || break
  sleep 20
done
sleep 5
pkill -INT -f "^/work/ckpt/bin/qs-403a18d solve 6x5" ; sleep 20
pkill -KILL -f "^/work/ckpt/bin/qs-403a18d solve 6x5"
echo "analysis stopped after layer 0 $(date -u)" >> /work/ckpt/logs/chain.log
bash /work/ckpt/w8-after.sh
