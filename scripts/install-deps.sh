#!/usr/bin/env bash
# Installs the Debian packages crace needs to build and test. Idempotent: does
# nothing (and needs no network) when everything is already installed.
set -euo pipefail
PKGS=(cmake ninja-build g++ python3
      llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 llvm-19-tools
      libz3-dev libgtest-dev
      clang-format-19     # the 'format' test (scripts/check-format.sh)
      clang-tidy-19       # scripts/tidy.sh (by hand, not in ctest)
      python3-jsonschema)  # the SARIF tests validate crace's logs with it
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "crace: installing missing packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
