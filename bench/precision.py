#!/usr/bin/env python3
"""How many possible races does the static stage report on real programs?

Runs one static engine (lockset by default, or whoop) with every finding
kept (--max-findings=0) on the goblint-bench programs (pthread/ and
race-synthetic/) and counts, per program: findings, distinct source-line
pairs (an unordered pair of file:line, the unit a user reads), distinct
variables, whether the pair search hit its cap (then the counts are lower
bounds), the verdict and the seconds. With --project NAME=DIR it also runs
`crace -p DIR` on a project's compile_commands.json (e.g. memcached built
with bear: see ../shared/bench/realworld/projects/README.md).

  python3 bench/precision.py [--crace BIN] [--engine lockset|whoop]
         [--only NAME ...] [--project memcached=/tmp/memcached]
         [--max-pairs 0]
         [--md bench/results/precision.md --label LABEL] [--json OUT.json]

--md appends one section (the table and the totals) under LABEL, so runs of
two binaries (before/after a change) sit side by side in one file.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from goblint_default import is_cil_combined  # noqa: E402

CORPUS = "/work/shared/bench/realworld/goblint-bench"
CAP_REASON = "the search for further pairs stopped"


def programs(only):
    files = sorted(glob.glob(os.path.join(CORPUS, "pthread", "*.c")) +
                   glob.glob(os.path.join(CORPUS, "race-synthetic", "*.c")))
    out = []
    for f in files:
        name = os.path.relpath(f, CORPUS)
        if only and not any(o in name for o in only):
            continue
        out.append((name, f))
    return out


def line_pairs(rep):
    """The report's data-race findings as unordered (file, line) pairs, and
    the variables they name."""
    pairs, variables = set(), set()
    for f in rep.get("findings", []):
        acc = f.get("accesses", [])
        if f.get("kind") != "data-race" or len(acc) != 2:
            continue
        a = (acc[0]["file"], acc[0]["line"])
        b = (acc[1]["file"], acc[1]["line"])
        pairs.add((min(a, b), max(a, b)))
        variables.add(f.get("variable", ""))
    return pairs, variables


def capped(rep):
    """The lockset pair search stopped at its cap (counts are lower bounds)."""
    return any(CAP_REASON in r for r in rep.get("reasons", []))


def analyse(crace, engine, args, kill, max_pairs=None):
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    cmd = [crace, "--engine=" + engine, "--max-findings=0", "--format=json",
           "-o", out] + args
    if max_pairs is not None:
        cmd.append("--max-pairs=%d" % max_pairs)
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=kill)
        code = p.returncode
    except subprocess.TimeoutExpired:
        code = None
    secs = time.monotonic() - start
    try:
        with open(out) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        rep = None
    finally:
        os.unlink(out)
    row = {"exit": code, "seconds": round(secs, 1)}
    if rep is None:
        row.update(verdict="(no report)" if code is not None else "(killed)",
                   findings=0, line_pairs=0, variables=0, cap=False)
        return row
    pairs, variables = line_pairs(rep)
    row.update(verdict=rep.get("verdict"),
               findings=len(rep.get("findings", [])),
               line_pairs=len(pairs), variables=len(variables),
               cap=capped(rep))
    return row


def table(rows, label, engine, max_pairs):
    cap = "" if max_pairs is None else ", `--max-pairs=%d`" % max_pairs
    lines = ["## " + label, "",
             "engine `%s`, every finding kept (`--max-findings=0`%s)" % (
                 engine, cap),
             "",
             "| program | verdict | findings | source-line pairs | variables "
             "| pair cap hit | s |",
             "|---|---|---|---|---|---|---|"]
    tot = {"findings": 0, "line_pairs": 0, "cap": 0}
    for name, r in rows:
        lines.append("| %s | %s | %d | %d | %d | %s | %.1f |" % (
            name, r["verdict"], r["findings"], r["line_pairs"],
            r["variables"], "yes" if r["cap"] else "", r["seconds"]))
        tot["findings"] += r["findings"]
        tot["line_pairs"] += r["line_pairs"]
        tot["cap"] += r["cap"]
    lines += ["", "Total: %d findings, %d source-line pairs, pair cap hit on "
              "%d of %d programs." % (tot["findings"], tot["line_pairs"],
                                      tot["cap"], len(rows)), ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--crace", default=os.path.join(
        HERE, "..", "build", "tools", "crace", "crace"))
    ap.add_argument("--engine", default="lockset",
                    choices=["lockset", "whoop"])
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--project", action="append", default=[],
                    help="NAME=DIR: also run crace -p DIR")
    ap.add_argument("--kill", type=float, default=600)
    ap.add_argument("--max-pairs", type=int,
                    help="pass --max-pairs=N to crace (0: no cap, so the "
                    "counts are exact)")
    ap.add_argument("--md")
    ap.add_argument("--label", default="run")
    ap.add_argument("--json")
    a = ap.parse_args()
    if not os.path.exists(a.crace):
        sys.exit("precision.py: no crace binary at %s" % a.crace)
    rows = []
    for name, path in programs(a.only):
        extra = ["--data-model=ILP32"] if is_cil_combined(path) else []
        r = analyse(a.crace, a.engine, extra + [path], a.kill, a.max_pairs)
        rows.append((name, r))
        print("%-45s %-14s %6d findings %6d line pairs%s %6.1f s" % (
            name, r["verdict"], r["findings"], r["line_pairs"],
            " (cap)" if r["cap"] else "", r["seconds"]), flush=True)
    for spec in a.project:
        name, _, d = spec.partition("=")
        if not os.path.exists(os.path.join(d, "compile_commands.json")):
            sys.exit("precision.py: no compile_commands.json in %s" % d)
        r = analyse(a.crace, a.engine, ["-p", d], a.kill, a.max_pairs)
        rows.append(("project " + name, r))
        print("%-45s %-14s %6d findings %6d line pairs%s %6.1f s" % (
            "project " + name, r["verdict"], r["findings"], r["line_pairs"],
            " (cap)" if r["cap"] else "", r["seconds"]), flush=True)
    text = table(rows, a.label, a.engine, a.max_pairs)
    print(text)
    if a.md:
        new = not os.path.exists(a.md)
        with open(a.md, "a") as f:
            if new:
                f.write("# Possible races the static stage reports on real "
                        "programs\n\nCorpus: ../shared/bench/realworld/"
                        "goblint-bench (pthread/ and race-synthetic/), "
                        "CIL-combined files as ILP32. Command: "
                        "`python3 bench/precision.py` (see its header).\n\n")
            f.write(text + "\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(rows), f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
