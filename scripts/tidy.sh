#!/usr/bin/env bash
# Runs clang-tidy 19 (.clang-tidy; scripts/install-deps.sh installs it) over
# crace's C++ sources. Not part of ctest or CI: it takes minutes per dozen
# files on two cores. docs/testing.md describes it.
#
# usage: scripts/tidy.sh [-p BUILD_DIR] [-j N] [--fix] [--all | FILES...]
#   (no files)  the .cpp files under src/, tools/ and test/unittests/ changed
#               since `git merge-base HEAD origin/main` (or main), committed
#               or not, and those that include a changed header
#   --all       every .cpp file there
#   -p DIR      the build directory with compile_commands.json (build/)
#   -j N        clang-tidy processes at once (1)
#   --fix       apply the fixes clang-tidy offers (review them)
# Exits 1 when clang-tidy reports anything.
set -uo pipefail
cd "$(dirname "$0")/.."
ct=$(command -v clang-tidy-19 || true)
if [ -z "$ct" ]; then
  echo "tidy: clang-tidy-19 is missing (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
build=build all=0 jobs=1 fix=()
files=()
while [ $# -gt 0 ]; do
  case "$1" in
  -p) build=$2; shift 2 ;;
  -p*) build=${1#-p}; shift ;;
  -j) jobs=$2; shift 2 ;;
  -j*) jobs=${1#-j}; shift ;;
  --all) all=1; shift ;;
  --fix) fix=(--fix); shift ;;
  -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) files+=("$1"); shift ;;
  esac
done
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy: no $build/compile_commands.json (configure a build there, or -p DIR)" >&2
  exit 1
fi
dirs=('src/*.cpp' 'tools/*.cpp' 'test/unittests/*.cpp')
if [ "$all" = 1 ]; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard "${dirs[@]}")
elif [ ${#files[@]} -eq 0 ]; then
  base=$(git merge-base HEAD origin/main 2>/dev/null || git merge-base HEAD main 2>/dev/null || true)
  if [ -z "$base" ]; then
    echo "tidy: no merge base with origin/main or main; name files or use --all" >&2
    exit 1
  fi
  mapfile -t changed < <({ git diff --name-only "$base" -- 'src' 'tools' 'test/unittests'
                            git ls-files --others --exclude-standard src tools test/unittests; } |
                          grep -E '\.(cpp|h)$' | sort -u)
  for f in "${changed[@]}"; do
    [ -f "$f" ] || continue
    case "$f" in
    *.cpp) files+=("$f") ;;
    *.h) # the sources that include the header (by its path under src/)
      inc=${f#src/}
      mapfile -t users < <(git grep -l -F "#include \"$inc\"" -- "${dirs[@]}" 2>/dev/null)
      files+=("${users[@]}") ;;
    esac
  done
  mapfile -t files < <(printf '%s\n' "${files[@]}" | grep . | sort -u)
  if [ ${#files[@]} -eq 0 ]; then
    echo "tidy: no C++ file changed since $(git rev-parse --short "$base")"
    exit 0
  fi
fi
echo "tidy: ${#files[@]} files, $jobs at a time, with $build/compile_commands.json" >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Each file's report to a file of its own (parallel runs would interleave).
printf '%s\n' "${files[@]}" | nl -ba -w1 -s' ' |
  xargs -P "$jobs" -L1 sh -c '"$0" -p "$1" --quiet $2 "$5" >"$3/$4.out" 2>/dev/null' \
    "$ct" "$build" "${fix[*]:-}" "$out"
# "$0".."$3" above are clang-tidy, the build dir, --fix and the output
# directory; xargs appends the line number ($4) and the file ($5).
# One line per finding, in file order (several files share headers).
cat "$out"/*.out 2>/dev/null |
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' |
  sort -u -t: -k1,1 -k2,2n -k3,3n >"$out/all"
if [ -s "$out/all" ]; then
  cat "$out/all"
  echo "tidy: $(wc -l <"$out/all") findings" >&2
  exit 1
fi
echo "tidy: no findings" >&2
