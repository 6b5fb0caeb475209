#!/usr/bin/env bash
# Installs what the peer baselines need (bench/tsan_baseline.py): clang-19's
# sanitizer runtimes (ThreadSanitizer) and valgrind (Helgrind, DRD). Not
# needed to build or test crace, so not part of scripts/install-deps.sh.
set -euo pipefail
need=()
for p in libclang-rt-19-dev valgrind; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}"
fi
echo "peer baselines: installed (${need[*]:-nothing new})"
