#!/usr/bin/env bash
# Installs what is missing, then configures and builds crace (release preset).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ ! -f build/CMakeCache.txt ]; then
  cmake --preset release >/dev/null
fi
cmake --build build -j "$(nproc)"
