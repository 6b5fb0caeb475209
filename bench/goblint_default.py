#!/usr/bin/env python3
"""A default `crace` run (portfolio, default budget) on every goblint-bench
pthread program: wall time, exit code, verdict and finding count, twice, and
whether the two reports agree (findings, their order and reasons; the
timing figures in "stats" are left out of the comparison).

CIL-combined programs (`typedef unsigned int size_t;`, made for 32-bit
x86) get --data-model=ILP32, the way they were produced.

  python3 bench/goblint_default.py [--crace BIN] [--runs N] [--kill SECONDS]
         [--out bench/results/goblint-default-run.md] [--only NAME ...]
"""
import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

CORPUS = "/work/shared/bench/realworld/goblint-bench/pthread"
HERE = os.path.dirname(os.path.abspath(__file__))


def is_cil_combined(path):
    with open(path, errors="replace") as f:
        head = f.read(200000)
    return "typedef unsigned int size_t;" in head


def run_once(crace, path, extra, kill):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = tmp.name
    cmd = [crace, "--format=json", "-o", out] + extra + [path]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=kill)
        code = p.returncode
        err = p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        code, err = "killed", ""
    wall = time.monotonic() - start
    report = None
    try:
        with open(out) as f:
            report = json.load(f)
    except (OSError, ValueError):
        pass
    os.unlink(out)
    return {"code": code, "wall": wall, "report": report, "stderr": err}


def digest(report):
    if report is None:
        return None
    r = dict(report)
    r.pop("stats", None)
    return hashlib.sha256(json.dumps(r, sort_keys=True).encode()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crace", default=os.path.join(
        HERE, "..", "build", "tools", "crace", "crace"))
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--kill", type=float, default=600,
                    help="kill a run after this many seconds")
    ap.add_argument("--out", default=os.path.join(
        HERE, "results", "goblint-default-run.md"))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--extra", default="", help="more crace options")
    ap.add_argument("--keep-differing", metavar="DIR",
                    help="write the reports of runs that differ to DIR")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(CORPUS, "*.c")))
    if a.only:
        files = [f for f in files if os.path.basename(f) in a.only]
    rows = []
    for path in files:
        name = os.path.basename(path)
        extra = a.extra.split()
        if is_cil_combined(path):
            extra.append("--data-model=ILP32")
        runs = [run_once(a.crace, path, extra, a.kill) for _ in range(a.runs)]
        r0 = runs[0]
        rep = r0["report"]
        if r0["code"] == 4:
            verdict, n, why = "does not compile", "", ""
        elif rep is None:
            verdict, n, why = "no report (exit %s)" % r0["code"], "", ""
        else:
            verdict, n = rep["verdict"], len(rep["findings"])
            why = next((x for x in rep["reasons"]
                        if "ran out" in x or "time limit" in x
                        or "limit of" in x), "")
        same = len({digest(r["report"]) for r in runs}) == 1
        if not same and a.keep_differing:
            os.makedirs(a.keep_differing, exist_ok=True)
            for i, r in enumerate(runs):
                with open(os.path.join(a.keep_differing,
                                       "%s.%d.json" % (name, i + 1)), "w") as f:
                    json.dump(r["report"], f, indent=1, sort_keys=True)
        row = {"name": name, "dm": "ILP32" if "--data-model=ILP32" in extra
               else "LP64", "walls": [r["wall"] for r in runs],
               "codes": [r["code"] for r in runs], "verdict": verdict,
               "findings": n, "engine": rep["engine"] if rep else "",
               "same": same, "stopped": why}
        rows.append(row)
        print("%-28s %-5s %s exit %s %s %s %s %s" % (
            name, row["dm"], " ".join("%.1f" % w for w in row["walls"]),
            row["codes"], verdict, n, "identical" if same else "DIFFER",
            why), flush=True)
    with open(a.out, "w") as f:
        f.write("# Default crace run on goblint-bench (pthread)\n\n")
        f.write("Corpus: `%s/*.c`. Command per program (run %d times):\n\n"
                % (CORPUS, a.runs))
        f.write("    crace --format=json -o REPORT [--data-model=ILP32] %s"
                "PROGRAM.c\n\n" % (a.extra + " " if a.extra else ""))
        f.write("(ILP32 for the CIL-combined programs, which declare "
                "`typedef unsigned int size_t;`.) Produced by "
                "`python3 bench/goblint_default.py`. Wall times are on a "
                "2-core machine shared with other jobs. 'identical' compares "
                "the JSON reports without their timing statistics.\n\n")
        f.write("| program | data model | wall (s) | exit | verdict | "
                "findings | engine | runs identical | stopped by |\n")
        f.write("|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
                r["name"], r["dm"], " / ".join("%.1f" % w for w in r["walls"]),
                " / ".join(str(c) for c in r["codes"]), r["verdict"],
                r["findings"], r["engine"], "yes" if r["same"] else "**no**",
                r["stopped"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
