#!/bin/sh
# crace-shard.sh - one shard of crace's run over a compilation database, or
# the merge of the shards' reports, on whatever runs the shards: a GitLab
# parallel job, a Kubernetes Indexed Job, or by hand (docs/usage.md,
# "Splitting a run: --shard and crace merge"; slurm-shards.sh is the Slurm
# array script, github-actions-shards.yml the GitHub Actions workflow).
#
# Which shard this is, from the first that is set:
#   CRACE_SHARD=K/N                      by hand (K from 1)
#   CI_NODE_INDEX, CI_NODE_TOTAL         GitLab CI `parallel: N` (from 1)
#   JOB_COMPLETION_INDEX, CRACE_SHARDS   Kubernetes Indexed Job (from 0;
#                                        N = the Job's completions)
# Environment as in slurm-shards.sh:
#   CRACE        the crace binary (default: crace on PATH)
#   CRACE_BUILD  the directory of compile_commands.json (default: build)
#   CRACE_ARGS   more crace options (--engine=..., --timeout=S)
#   CRACE_OUT    where shard reports go and the merge reads them (default .)
#   CRACE_MERGE  set: merge $CRACE_OUT/shard-*.json into crace.sarif
# Exit: a shard 0 when it wrote its report (whatever the verdict), else
# crace's code; the merge crace's exit code of the whole run (0 race-free,
# 1 race, 2 possible race, 6 unknown; 3 when a shard is missing).
crace=${CRACE:-crace}
build=${CRACE_BUILD:-build}
out=${CRACE_OUT:-.}
if [ -n "${CRACE_MERGE:-}" ]; then
  "$crace" merge "$out"/shard-*.json --format=sarif -o crace.sarif
  exit $?
fi
if [ -n "${CRACE_SHARD:-}" ]; then
  K=${CRACE_SHARD%/*}
  N=${CRACE_SHARD#*/}
elif [ -n "${CI_NODE_INDEX:-}" ]; then
  K=$CI_NODE_INDEX
  N=${CI_NODE_TOTAL:?CI_NODE_INDEX is set but not CI_NODE_TOTAL}
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
  K=$((JOB_COMPLETION_INDEX + 1))
  N=${CRACE_SHARDS:?set CRACE_SHARDS to the number of completions of the Indexed Job}
else
  echo "crace-shard.sh: no shard: set CRACE_SHARD=K/N, or run as a GitLab parallel job or a Kubernetes Indexed Job" >&2
  exit 3
fi
mkdir -p "$out" || exit 3
# shellcheck disable=SC2086 # CRACE_ARGS is a list of options
"$crace" -p "$build" --shard="$K/$N" --format=json -o "$out/shard-$K.json" ${CRACE_ARGS:-}
code=$?
case $code in
  0|1|2|6) exit 0 ;; # a report was written: the merge gives the verdict
  *) exit "$code" ;;
esac
