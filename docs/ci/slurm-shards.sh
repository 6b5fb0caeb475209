#!/bin/sh
# slurm-shards.sh - crace over a compilation database as a Slurm array job,
# one shard of the programs per array task, and the merge of the shards'
# reports (docs/usage.md, "Splitting a run: --shard and crace merge").
#
#   sbatch --array=1-4 slurm-shards.sh                  # shards 1/4 .. 4/4
#   sbatch --dependency=afterok:JOBID --export=ALL,CRACE_MERGE=1 slurm-shards.sh
#
# Run both from the directory that holds BUILD_DIR (the shards write
# shard-K.json there, the merge crace.sarif). crace's own tests run this
# script with the SLURM_ variables set by hand
# (test/regression/ci/slurm_shards.test).
#
# Environment:
#   CRACE        the crace binary (default: crace on PATH)
#   CRACE_BUILD  the directory of compile_commands.json (default: build)
#   CRACE_ARGS   more crace options (--engine=..., --timeout=S)
#   CRACE_MERGE  set: merge shard-*.json into crace.sarif instead
# Exit: a shard 0 when it wrote its report (whatever the verdict), else
# crace's code; the merge crace's exit code of the whole run (0 race-free,
# 1 race, 2 possible race, 6 unknown; 3 when a shard is missing).
#SBATCH --job-name=crace
#SBATCH --time=01:00:00
crace=${CRACE:-crace}
build=${CRACE_BUILD:-build}
if [ -n "${CRACE_MERGE:-}" ]; then
  "$crace" merge shard-*.json --format=sarif -o crace.sarif
  exit $?
fi
K=${SLURM_ARRAY_TASK_ID:?run as an array job: sbatch --array=1-N slurm-shards.sh}
N=${SLURM_ARRAY_TASK_COUNT:?run as an array job: sbatch --array=1-N slurm-shards.sh}
# shellcheck disable=SC2086 # CRACE_ARGS is a list of options
"$crace" -p "$build" --shard="$K/$N" --format=json -o "shard-$K.json" ${CRACE_ARGS:-}
code=$?
case $code in
  0|1|2|6) exit 0 ;; # a report was written: the merge gives the verdict
  *) exit "$code" ;;
esac
