#!/usr/bin/env bash
# crace-scan.sh SOURCE_DIR [BUILD_DIR] - the CI step of github-actions.yml.
#
# Makes a compilation database of a CMake project (unless BUILD_DIR has
# one), runs crace on every program in it, and writes crace.sarif (for code
# scanning) and crace.html (for people) in the working directory.
#
# Environment:
#   CRACE           the crace binary (default: crace on PATH)
#   CRACE_FAIL_ON   race (default): fail only on a confirmed race;
#                   possible: also on possible races; unknown: also when
#                   crace could not decide
#   CRACE_ARGS      more crace options (--suppressions=FILE, --timeout=S)
# Exit: 0 or crace's exit code when it is a failure under CRACE_FAIL_ON
# (1 race, 2 possible race, 6 unknown; 3, 4, 5 always fail).
set -uo pipefail
src=${1:?usage: crace-scan.sh SOURCE_DIR [BUILD_DIR]}
build=${2:-$src/build-crace}
crace=${CRACE:-crace}
fail_on=${CRACE_FAIL_ON:-race}
case $fail_on in race|possible|unknown) ;; *)
  echo "crace-scan.sh: CRACE_FAIL_ON must be race, possible or unknown" >&2; exit 3;;
esac
if [ ! -f "$build/compile_commands.json" ]; then
  cmake -S "$src" -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null || exit 3
fi
# shellcheck disable=SC2086 # CRACE_ARGS is a list of options
"$crace" -p "$build" --format=sarif -o crace.sarif ${CRACE_ARGS:-}
code=$?
# shellcheck disable=SC2086
"$crace" -p "$build" --format=html -o crace.html ${CRACE_ARGS:-} 2>/dev/null
case $code in
  0) exit 0 ;;
  1) exit 1 ;;
  2) [ "$fail_on" = race ] && exit 0; exit 2 ;;
  6) [ "$fail_on" = unknown ] && exit 6; exit 0 ;;
  *) exit "$code" ;;
esac
