#!/usr/bin/env python3
"""kiss before/after on the kiss and driver regression programs.

Issue 19, item 3: the ts-size-1 pass after a ts-size-0 pass that finds no
race. Runs `crace --engine=kiss` of two builds (--base, --new) on every C
file of test/regression/kiss and test/regression/drivers, with the program
options of the file's first `%crace` RUN line (--driver, --entry, -m32,
--args, the compiler arguments after `--`, and kiss's own --kiss-max,
--rounds, --unwind, --kiss-target; not --verify, the engine or output
options), and writes a Markdown table: verdict, wall and CPU seconds per
file and build, and whether the verdict changed.

  python3 bench/kiss_ts1_pass.py --base /tmp/kiss-base-crace \\
      --new build/tools/crace/crace --out bench/results/kiss-ts1-pass.md
"""
import argparse
import os
import re
import resource
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ["test/regression/kiss", "test/regression/drivers"]
# Options of a RUN line that are not the program's or kiss's.
DROP = re.compile(r"^--(verify|stats|all-races|list-entry-points|engine=|"
                  r"format=|emit-sequential|timeout=|group=)")


def options(path):
    """The program options of path's first %crace RUN line (None: none)."""
    with open(path) as f:
        for line in f:
            m = re.search(r"RUN:.*?%crace (.*)", line)
            if not m:
                continue
            cmd = m.group(1).split("|")[0]
            cmd = cmd.replace("%S", os.path.dirname(path))
            words = shlex.split(cmd)
            out, skip = [], False
            for w in words:
                if skip:
                    skip = False
                    continue
                if w in ("--emit-sequential", ">"):
                    skip = True
                    continue
                if DROP.match(w) or w.startswith("%t"):
                    continue
                out.append(path if w == "%s" else w)
            if path not in out:
                out.append(path)
            return out
    return None


def run(crace, opts, limit):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    try:
        p = subprocess.run([crace, "--engine=kiss", f"--timeout={limit}"] +
                           opts, capture_output=True, text=True,
                           timeout=limit + 30)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        out = ""
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                 before.ru_stime)
    m = re.search(r"verdict: (\S+)", out)
    verdict = m.group(1) if m else "TIMEOUT/ERROR"
    if "timeout" in out.lower() and verdict == "unknown":
        verdict = "unknown (timeout)"
    return verdict, wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--out", default="")
    ap.add_argument("--limit", type=int, default=120,
                    help="crace --timeout per run (seconds)")
    ap.add_argument("--only", default="",
                    help="regular expression: run the files it matches")
    args = ap.parse_args()
    rows = []
    for d in DIRS:
        for name in sorted(os.listdir(os.path.join(ROOT, d))):
            if not name.endswith(".c"):
                continue
            path = os.path.join(ROOT, d, name)
            if args.only and not re.search(args.only, name):
                continue
            opts = options(path)
            if opts is None:
                continue
            b = run(args.base, opts, args.limit)
            n = run(args.new, opts, args.limit)
            rel = os.path.relpath(path, ROOT)
            shown = " ".join(o if o != path else "FILE" for o in opts)
            rows.append((rel, shown, b, n))
            print(f"{rel}: {b[0]} {b[1]:.2f}s -> {n[0]} {n[1]:.2f}s",
                  file=sys.stderr)
    lines = [
        "| file | options | verdict before | s before (wall/CPU) | "
        "verdict after | s after (wall/CPU) | changed |",
        "|---|---|---|---|---|---|---|",
    ]
    for rel, shown, b, n in rows:
        changed = "" if b[0] == n[0] else "**yes**"
        lines.append(f"| {rel} | `{shown}` | {b[0]} | {b[1]:.2f} / "
                     f"{b[2]:.2f} | {n[0]} | {n[1]:.2f} / {n[2]:.2f} | "
                     f"{changed} |")
    tb = sum(r[2][1] for r in rows)
    tn = sum(r[3][1] for r in rows)
    cb = sum(r[2][2] for r in rows)
    cn = sum(r[3][2] for r in rows)
    lines.append(f"| total ({len(rows)} files) | | | {tb:.1f} / {cb:.1f} | "
                 f"| {tn:.1f} / {cn:.1f} | |")
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
