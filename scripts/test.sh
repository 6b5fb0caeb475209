#!/usr/bin/env bash
# README command 2: install, build, and run every test (unit + regression).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure
