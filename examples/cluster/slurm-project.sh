#!/bin/bash
# mosaic project as a Slurm job array: each array task runs one shard of
# the project's units (mosaic reads SLURM_ARRAY_TASK_ID and
# SLURM_ARRAY_TASK_COUNT), and a last job that depends on the array merges
# the shards into one suite and one state.
#
#   sbatch --array=0-3 examples/cluster/slurm-project.sh BUILD_DIR OUT 2h [mosaic project flags...]
#   (then, once: sbatch --dependency=afterany:<array job id> \
#      --wrap "mosaic project --merge OUT/shard-0,OUT/shard-1,OUT/shard-2,OUT/shard-3 -o OUT/all")
#
# BUILD_DIR and OUT must be on a file system every node sees. The whole
# project's budget (2h) is split across the units by defect prediction,
# then the units across the tasks, so that every task searches for about
# the same time; each task runs its units two at a time (-j 2: one per
# core asked for below).
#SBATCH --job-name=mosaic-project
#SBATCH --cpus-per-task=2
#SBATCH --output=mosaic-project-%A_%a.log
set -euo pipefail
BUILD_DIR=${1:?the build folder of the project, with compile_commands.json}
OUT=${2:?where the shards write}
BUDGET=${3:-1h}
shift $(($# < 3 ? $# : 3))
exec mosaic project -p "$BUILD_DIR" -o "$OUT/shard-${SLURM_ARRAY_TASK_ID:?run me with sbatch --array}" \
  --budget "$BUDGET" -j "${SLURM_CPUS_PER_TASK:-1}" --no-progress "$@"
