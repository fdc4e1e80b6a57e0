#!/usr/bin/env bash
# 6x5 with 9 walls again (its layers and checkpoint were lost with /work/ckpt): the compact
# analysis through the disk at 14G (the rest of the 23.5 GiB left to other work beside it),
# resumable from the layers it writes, then the length's search with a checkpoint. Run the
# same script again to go on. Binary: BIN (built from main at c634e1d).
bin=${BIN:?the binary to run}
w=9
log=/work/ckpt/logs/6x5-w$w-compact-$(basename "$bin")-$(date -u +%Y%m%dT%H%M)
echo "6x5 w$w $(date -u)" >> /work/ckpt/logs/chain.log
nice -n 19 /usr/bin/time -v "$bin" solve 6x5 --walls $w --method retro --memory ${MEM:-14G} --tt ${TT:-1G} --precision compact \
  --scratch /work/ckpt/strong/6x5-w$w --checkpoint /work/ckpt/strong/6x5-w$w.checkpoint \
  --stats --json -v > $log.json 2> $log.err
echo "end 6x5 w$w rc $? $(date -u)" >> /work/ckpt/logs/chain.log
# Started 2026-11-28 14:56 UTC with `BIN=/work/ckpt/bin/qs-c634e1d setsid nohup <this script>`;
# its session's group was set to nice 19 at 15:12 (`echo 19 > /proc/PID/autogroup`; see
# scripts/yield_cores.sh): until then `nice -n 19` alone left it half the cores.
# Again 2026-11-28 17:58 UTC, `MEM=19G BIN=/work/ckpt/bin/qs-79976ec` (main at 0d94af5): the
# length's search from the checkpoint, with more room for its configuration store.
# Stopped 18:09 UTC (SIGINT, checkpoint saved) and started again at once with `TT=4G` as well:
# the transposition table, not the store, is what the search's node count depends on
# (5x5 w5 on demand: an emptied store cost nothing measurable, a table 16 times smaller
# 62 % more nodes; docs/PERFORMANCE.md).
# That run refuted depth 27 (584,668,478 nodes, 1,064 s) and was stopped (SIGINT) at 18:30
# UTC: its table had grown to 2 GiB only (the checkpoint it saved), since the old rule gave it at most a quarter of what the
# layers leave. Started again at once on the binary of 7aa3d4c, which gives it half:
# `MEM=19.5G TT=8G BIN=/work/ckpt/bin/qs-7aa3d4c`, a table of 4 GiB.
# Stopped (SIGINT, inside depth 29, checkpoint saved) at 18:42 UTC and started again at once on
# the binary of 8ba1bba, which ranks each configuration once for the oracle:
# `MEM=19.5G TT=8G BIN=/work/ckpt/bin/qs-8ba1bba`.
# That run ended at 20:23 UTC (exit 0): no win within 29 plies, a win within 31, the line
# read whole: Player 1 in 31 (`../6x5-w9-compact.json`).
