#!/usr/bin/env bash
# A strong solution on a cluster: the retrograde analysis of one cell across MPI ranks
# (`solve --distributed`, the `mpi` feature), as a Slurm batch job (docs/CLUSTER.md).
# Every rank solves a share of every layer; the table ends in SCRATCH, a directory every
# node reaches (a shared file system), as the table one process writes.
#
#   CELL=7x5:5 SCRATCH=/shared/quoridor/7x5-w5 sbatch --nodes=8 scripts/slurm_solve.sh
#
# Resuming: submit the same command again (after a time limit, a node's failure or a
# cancel). The layers every rank finished are checked against their SHA-256 and kept; the
# run goes on below them, with the same number of ranks or another.
#
# Settings (environment): CELL (WxH:walls), SCRATCH (the shared directory), PRECISION
# (compact by default: 2 bits a position; exact: a byte, every position's length), MEMORY
# (each rank's budget; default 80 % of its node's available memory), BIN (the solver,
# default target/release/quoridor-solver built with `cargo build --release --features
# mpi`), MAP (mpirun's --map-by; default one rank a node with its cores), MPIRUN_FLAGS
# (more flags for mpirun). To try it on one machine without Slurm:
#   SLURM_NTASKS=3 SLURM_CPUS_PER_TASK=1 MAP=slot MPIRUN_FLAGS=--oversubscribe \
#     CELL=4x5:3 SCRATCH=/tmp/t bash scripts/slurm_solve.sh
#
#SBATCH --job-name=quoridor-retro
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=16
#SBATCH --exclusive
#SBATCH --time=24:00:00
#SBATCH --output=quoridor-retro-%j.log
#SBATCH --open-mode=append
set -euo pipefail
cell=${CELL:?"CELL=WxH:walls, e.g. CELL=7x5:5"}
scratch=${SCRATCH:?"SCRATCH=a directory every node reaches, e.g. on the cluster's shared file system"}
board=${cell%%:*}; walls=${cell##*:}
ranks=${SLURM_NTASKS:?"run under Slurm (sbatch), or set SLURM_NTASKS to try it on one machine"}
threads=${SLURM_CPUS_PER_TASK:-$(nproc)}
bin=${BIN:-${SLURM_SUBMIT_DIR:-$PWD}/target/release/quoridor-solver}
[ -x "$bin" ] || { echo "no solver at $bin: cargo build --release --features mpi" >&2; exit 2; }
mkdir -p "$scratch"
echo "$(date -u +%FT%TZ) $board with $walls walls on $ranks ranks of $threads threads, into $scratch"
# The plan first: each rank's memory, the disk, the bytes exchanged, the time.
"$bin" solve "$board" --walls "$walls" --method retro --precision "${PRECISION:-compact}" \
  --plan --ranks "$ranks"
# One rank a node (ppr:1:node), each with every core of its node for its threads.
# shellcheck disable=SC2086
mpirun -np "$ranks" --map-by "${MAP:-ppr:1:node:pe=$threads}" ${MPIRUN_FLAGS:-} \
  "$bin" solve "$board" --walls "$walls" --method retro --precision "${PRECISION:-compact}" \
  --scratch "$scratch" --distributed --threads "$threads" ${MEMORY:+--memory "$MEMORY"} \
  --stats -v
echo "$(date -u +%FT%TZ) done: verify it with $bin verify $scratch"
