#!/usr/bin/env bash
# README command 1: install, build, and check the bundled racy example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
set +e
build/tools/crace/crace examples/racy_counter.c
rc=$?
echo "(crace exit code $rc: 0 race-free, 1 race, 2 possible race, 6 unknown)"
[ "$rc" -le 2 ]
