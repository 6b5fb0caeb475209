#!/usr/bin/env python3
"""Two crace binaries side by side on the goblint-bench programs, with clang.

Each program runs under both binaries (`--engine=lockset --format=json`), the
order alternating over --rounds rounds, and once more per round under
`clang-19 -c -O0 -w -m32` (nan: clang rejects it for -m32, the program is
LP64). Prints a Markdown table: clang's and each binary's minimum wall
seconds, the speed-up and whether the two JSON reports (without statistics)
are equal.

  python3 bench/side_by_side.py --before OLD_BIN --after NEW_BIN [--rounds 3]
"""
import argparse
import json
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOBLINT = os.path.join(os.path.dirname(ROOT), "shared", "bench", "realworld", "goblint-bench", "pthread")


def run(binary, path, timeout):
    start = time.perf_counter()
    p = subprocess.run([binary, "--engine=lockset", "--format=json", f"--timeout={timeout}", path],
                       capture_output=True, text=True)
    wall = time.perf_counter() - start
    try:
        doc = json.loads(p.stdout)
        doc.pop("stats", None)
    except ValueError:
        doc = p.stdout
    return wall, doc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--dir", default=GOBLINT)
    args = ap.parse_args()
    bins = {"before": args.before, "after": args.after}
    print("| program | clang -m32 s | before s | after s | speed-up | same report |")
    print("|---|---|---|---|---|---|")
    for f in sorted(os.listdir(args.dir)):
        if not f.endswith(".c"):
            continue
        path = os.path.join(args.dir, f)
        best, report = {}, {}
        for r in range(args.rounds):
            for name in (["before", "after"] if r % 2 == 0 else ["after", "before"]):
                wall, doc = run(bins[name], path, args.timeout)
                best[name] = min(best.get(name, float("inf")), wall)
                report[name] = doc
        clang = float("inf")
        for _ in range(args.rounds):
            start = time.perf_counter()
            rc = subprocess.run(["clang-19", "-c", "-O0", "-w", "-m32", path, "-o", os.devnull],
                                capture_output=True).returncode
            clang = min(clang, time.perf_counter() - start) if rc == 0 else float("nan")
        same = "yes" if report["before"] == report["after"] else "no"
        print(f"| {f} | {clang:.3f} | {best['before']:.3f} | {best['after']:.3f} | "
              f"{best['before'] / best['after']:.2f}x | {same} |", flush=True)


if __name__ == "__main__":
    main()
