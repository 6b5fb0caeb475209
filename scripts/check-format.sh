#!/usr/bin/env bash
# Fails when a C++ source of crace is not formatted as .clang-format says
# (LLVM style, clang-format 19; scripts/install-deps.sh installs it), or when
# a .cpp/.h under src/ or tools/ has more than 800 lines. Run by ctest as the
# test 'format'. To fix the formatting: scripts/check-format.sh --fix
set -uo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-19 || true)
if [ -z "$cf" ]; then
  echo "check-format: clang-format-19 is missing (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
# Tracked files and new ones not yet added (--others: a file created since
# the last commit is formatted and checked too; .gitignore'd ones are not).
mapfile -t files < <(git ls-files --cached --others --exclude-standard \
                     'src/*.cpp' 'src/*.h' 'tools/*.cpp' 'tools/*.h' \
                     'test/unittests/*.cpp' 'test/unittests/*.h' 2>/dev/null ||
                     find src tools test/unittests \( -name '*.cpp' -o -name '*.h' \))
if [ "${1:-}" = --fix ]; then
  "$cf" -i "${files[@]}"
  exit 0
fi
# No source of crace itself (src/, tools/) may grow over 800 lines (issue 15):
# a longer file is split along a seam, as PointsTo.cpp was into
# PointsToSolve.cpp and PointsToEscape.cpp. --fix cannot do that.
long=0
for f in "${files[@]}"; do
  case "$f" in src/* | tools/*) ;; *) continue ;; esac
  [ -f "$f" ] || continue
  n=$(wc -l <"$f")
  if [ "$n" -gt 800 ]; then
    echo "check-format: $f has $n lines (the limit is 800; split it along a seam)" >&2
    long=1
  fi
done
if ! "$cf" --dry-run --Werror "${files[@]}" 2>/tmp/check-format.$$; then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' /tmp/check-format.$$ | cut -d: -f1 | sort -u |
    sed 's/^/check-format: not formatted: /' >&2
  echo "check-format: run scripts/check-format.sh --fix" >&2
  rm -f /tmp/check-format.$$
  exit 1
fi
rm -f /tmp/check-format.$$
[ "$long" = 0 ] || exit 1
echo "check-format: ${#files[@]} files formatted"
