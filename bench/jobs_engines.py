#!/usr/bin/env python3
"""--jobs 1 against --jobs N inside the engines, side by side in one run.

whoop checks its template pairs, and circ its locations, as tasks on --jobs
threads (src/smt/BudgetedTasks.h). This runs crace with --jobs 1 and
--jobs N on each program of three corpora, the two runs of a program one
right after the other (alternating which goes first), and writes
bench/results/jobs-engines.md (and .csv):
  - svcomp: the SV-COMP CI subset (bench/ci_subset.txt), --engine=auto;
  - whoop: WHOOP's 19 Linux drivers, --driver, --engine=auto and whoop;
  - goblint: goblint-bench's pthread programs, --engine=auto.
Per corpus: wall and CPU time (user + system, all threads) of each setting,
the speed-up, and whether the reports are identical (JSON without times
and jobs_* statistics; a run a wall clock stopped -- --timeout, explore's
share of the time left -- is not compared: the machine's speed decides
where it stops). The parallel part of a run is the
whoop pair phase (whoop_pairs_seconds) and circ (circ_seconds); the
largest task bounds it (whoop_pair_max_units of whoop_work_units). From
the --jobs 1 runs the script models the speed-up on P cores (Amdahl with
that bound): T(P) = serial + parallel * max(1/P, largest task share).

  python3 bench/jobs_engines.py --crace build/tools/crace/crace --jobs 2
"""
import argparse
import csv
import datetime
import glob
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "bench"))
sys.path.insert(0, HERE)
import svcomp  # noqa: E402

WHOOP = os.path.join(SHARED, "whoop", "pdeligia-whoop-HEAD")
GOBLINT = os.path.join(SHARED, "realworld", "goblint-bench", "pthread")
TIMING = ("_seconds", "peak_rss_mb")


def comparable(report):
    stats = report.get("stats", {})
    report["stats"] = {k: v for k, v in stats.items()
                       if not k.endswith(TIMING) and "_seconds." not in k
                       and not k.split(".")[-1].startswith(("jobs_", "cache_"))}
    return json.dumps(report, sort_keys=True)


def run(cmd, timeout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
        out, code = p.stdout, p.returncode
    except subprocess.TimeoutExpired:
        out, code = "", -1
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        report = {"verdict": "error (exit %d)" % code, "stats": {}, "reasons": []}
    stats = report.get("stats", {})
    # A wall clock decided where the run stopped (--timeout, explore's
    # share of the time left, a wall-clock safety limit): not compared.
    timed_out = any(w in str(r) for r in report.get("reasons", [])
                    for w in ("time limit", "share of the time budget", "wall-clock"))
    return {"wall": wall, "cpu": cpu, "code": code, "verdict": report.get("verdict"),
            "timed_out": timed_out, "stats": stats, "report": comparable(report)}


def programs(corpus, args):
    """(corpus, engine, name, command without --jobs)"""
    base = [args.crace, "--format=json", "--stats", "--timeout=%d" % args.timeout]
    if corpus == "svcomp":
        tasks = svcomp.select_tasks(svcomp.load_tasks(svcomp.DEFAULT_TASKS),
                                    subset=os.path.join(HERE, "ci_subset.txt"))
        for t in tasks:
            yield ("auto", t.name, base + ["--data-model=" + t.data_model, t.input_file])
    elif corpus == "whoop":
        for d in sorted(glob.glob(os.path.join(WHOOP, "driversuite", "**", "driver.c"),
                                  recursive=True)):
            name = os.path.relpath(os.path.dirname(d), os.path.join(WHOOP, "driversuite"))
            flags = ["--", "-I", os.path.join(WHOOP, "Model"), "-I", os.path.dirname(d)]
            for engine in ("auto", "whoop"):
                yield (engine, name, base + ["--driver", "--engine=" + engine, d] + flags)
    else:
        for c in sorted(glob.glob(os.path.join(GOBLINT, "*.c"))):
            with open(c, errors="replace") as f:
                ilp32 = "typedef unsigned int size_t;" in f.read()
            yield ("auto", os.path.basename(c),
                   base + ["--data-model=" + ("ILP32" if ilp32 else "LP64"), c])


def parallel_part(s):
    """Seconds of the run that split into tasks, and the largest task's share."""
    whoop = s.get("whoop_pairs_seconds", 0.0)
    share = 0.0
    if s.get("whoop_pair_units"):
        share = s.get("whoop_pair_max_units", 0) / s["whoop_pair_units"]
    circ = s.get("circ_seconds", 0.0)
    cshare = 0.0
    if s.get("circ_work_units"):
        cshare = s.get("circ_location_max_units", 0) / s["circ_work_units"]
    return whoop, share, circ, cshare


def modelled(rows, p):
    total = 0.0
    for r in rows:
        t = r["wall1"]
        w, ws, c, cs = parallel_part(r["stats1"])
        w, c = min(w, t), min(c, max(0.0, t - w))
        total += t - w - c + w * max(1.0 / p, ws) + c * max(1.0 / p, cs)
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crace", default=os.path.join(HERE, "..", "build", "tools", "crace", "crace"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60, help="crace --timeout per run")
    ap.add_argument("--corpus", action="append", choices=["svcomp", "whoop", "goblint"])
    ap.add_argument("--out", default=os.path.join(HERE, "results", "jobs-engines"))
    args = ap.parse_args()
    corpora = args.corpus or ["svcomp", "whoop", "goblint"]
    version = subprocess.run([args.crace, "--version"], capture_output=True, text=True).stdout.strip()

    rows = []
    for corpus in corpora:
        for i, (engine, name, cmd) in enumerate(programs(corpus, args)):
            order = [1, args.jobs] if i % 2 == 0 else [args.jobs, 1]
            res = {}
            for j in order:
                res[j] = run(cmd[:1] + ["--jobs=%d" % j] + cmd[1:], args.timeout)
            a, b = res[1], res[args.jobs]
            cut = a["timed_out"] or b["timed_out"]
            same = "cut" if cut else ("yes" if a["report"] == b["report"] else "NO")
            rows.append({"corpus": corpus, "engine": engine, "program": name,
                         "wall1": a["wall"], "wallN": b["wall"], "cpu1": a["cpu"], "cpuN": b["cpu"],
                         "verdict": a["verdict"], "identical": same, "stats1": a["stats"]})
            print("%-8s %-6s %-50s %7.2f %7.2f  %s" % (corpus, engine, name[:50], a["wall"],
                                                        b["wall"], same), flush=True)

    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["corpus", "engine", "program", "verdict", "wall_1", "wall_%d" % args.jobs,
                    "cpu_1", "cpu_%d" % args.jobs, "identical", "parallel_seconds",
                    "largest_task_share"])
        for r in rows:
            pw, ps, pc, pcs = parallel_part(r["stats1"])
            w.writerow([r["corpus"], r["engine"], r["program"], r["verdict"],
                        "%.2f" % r["wall1"], "%.2f" % r["wallN"], "%.2f" % r["cpu1"],
                        "%.2f" % r["cpuN"], r["identical"], "%.2f" % (pw + pc),
                        "%.3f" % max(ps, pcs)])

    with open(args.out + ".md", "w") as f:
        f.write("# --jobs inside the engines: whoop's template pairs and circ's locations\n\n")
        f.write("Generated by `python3 bench/jobs_engines.py --jobs %d --timeout %d` on %s, "
                "%d hardware threads, crace `%s`. Each program ran with `--jobs=1` and "
                "`--jobs=%d` one right after the other (the order alternating). Per-program "
                "figures: `%s.csv`.\n\n"
                % (args.jobs, args.timeout, datetime.date.today().isoformat(), os.cpu_count(),
                   version, args.jobs, os.path.basename(args.out)))
        f.write("| corpus | engine | programs | wall s, --jobs 1 | wall s, --jobs %d | speed-up | "
                "CPU s, --jobs 1 | CPU s, --jobs %d | identical reports | parallel part "
                "(of --jobs 1 wall) | modelled speed-up, 2 / 16 / 64 cores |\n"
                % (args.jobs, args.jobs))
        f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
        groups = {}
        for r in rows:
            groups.setdefault((r["corpus"], r["engine"]), []).append(r)
        for (corpus, engine), rs in groups.items():
            w1 = sum(r["wall1"] for r in rs)
            wn = sum(r["wallN"] for r in rs)
            c1 = sum(r["cpu1"] for r in rs)
            cn = sum(r["cpuN"] for r in rs)
            ident = sum(r["identical"] == "yes" for r in rs)
            cut = sum(r["identical"] == "cut" for r in rs)
            diff = sum(r["identical"] == "NO" for r in rs)
            par = sum(min(r["wall1"], sum(parallel_part(r["stats1"])[0::2])) for r in rs)
            f.write("| %s | %s | %d | %.1f | %.1f | %.2fx | %.1f | %.1f | %d yes, %d differ, "
                    "%d cut by a wall clock | %.0f %% | %s |\n"
                    % (corpus, engine, len(rs), w1, wn, w1 / wn if wn else 0, c1, cn, ident, diff,
                       cut, 100 * par / w1 if w1 else 0,
                       " / ".join("%.2fx" % (w1 / modelled(rs, p)) for p in (2, 16, 64))))
        f.write("\nThe programs where the engines' tasks took the most time (--jobs 1):\n\n")
        f.write("| corpus | engine | program | wall s, --jobs 1 | wall s, --jobs %d | speed-up | "
                "parallel part | largest task |\n|---|---|---|---|---|---|---|---|\n" % args.jobs)
        top = sorted(rows, key=lambda r: -sum(parallel_part(r["stats1"])[0::2]))[:10]
        for r in top:
            pw, ps, pc, pcs = parallel_part(r["stats1"])
            f.write("| %s | %s | %s | %.1f | %.1f | %.2fx | %.1f s | %.0f %% |\n"
                    % (r["corpus"], r["engine"], r["program"], r["wall1"], r["wallN"],
                       r["wall1"] / r["wallN"] if r["wallN"] else 0, pw + pc,
                       100 * max(ps, pcs)))
    print("wrote %s.md and %s.csv" % (args.out, args.out))


if __name__ == "__main__":
    main()
