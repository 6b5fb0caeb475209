#!/usr/bin/env python3
"""kiss with WHOOP's yield placements: Yield-ALL against Yield-MR (issue 19).

    python3 bench/kiss_yields.py [--crace build/tools/crace/crace]
                                 [--timeout 60] [--skip-drivers]
                                 [--skip-svcomp] [--only NAME ...]

The WHOOP paper (section 5) speeds up a precise bug finder by letting it
switch threads only where the lockset analysis could not prove an access
safe. crace's kiss engine has both placements (`--kiss-yields`):

  all   schedule points (and KISS's RAISE) before every visible operation
  racy  only before synchronisation, atomic accesses and the plain
        accesses of the lockset analysis's candidate pairs; the objects it
        proves race-free are no targets

This script runs both, side by side (the two runs of one program at the
same time, one per core, so they see the same load), on

  * WHOOP's 19 Linux drivers (`crace --driver --engine=kiss`, read in place
    from ../shared/bench/whoop), and
  * the racy (expected false) tasks of the SV-COMP CI subset
    (bench/ci_subset.txt; `crace --engine=kiss`, ILP32 where the task says),

and writes bench/results/kiss-yields.md and .csv: per program and setting
the verdict, the races reported, targets, schedule points, the encoding and
solving seconds and the wall time; the summary gives the speed-up per
program where both settings finished, and every program where the two
disagree on the races found.
"""
import argparse
import concurrent.futures
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kiss_drivers import drivers, run_json, write_csv  # noqa: E402
from svcomp import load_tasks, read_subset, DEFAULT_TASKS  # noqa: E402
from whoop_drivers import REPO, WHOOP  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SETTINGS = ("all", "racy")


def run(crace, args, timeout):
    cmd = [crace, "--format=json", "--stats", "--timeout=%d" % timeout] + args
    report, wall, code = run_json(cmd, timeout + 60)
    st = report.get("stats", {})
    races = sorted({
        tuple(sorted("%s:%s" % (os.path.basename(a.get("file", "")),
                                a.get("line", 0))
                     for a in f.get("accesses", [])))
        for f in report.get("findings", [])
        if f.get("kind") == "data-race" and f.get("verdict") == "race"})
    timed_out = any("time limit" in r for r in report.get("reasons", []))
    return {
        "verdict": report.get("verdict", "?"),
        "races": len(races),
        "race_lines": ";".join("/".join(r) for r in races),
        "targets": int(st.get("kiss_targets", 0)),
        "schedule_points": int(st.get("kiss_schedule_points", 0)),
        "encode_s": st.get("kiss_encode_seconds", 0.0),
        "solve_s": st.get("kiss_solve_seconds", 0.0),
        "seconds": wall,
        "timed_out": timed_out or code == -1,
    }


def programs(args):
    out = []
    if not args.skip_drivers:
        for d in drivers():
            name = os.path.relpath(os.path.dirname(d),
                                   os.path.join(WHOOP, "driversuite"))
            if args.only and os.path.basename(name) not in args.only:
                continue
            flags = ["--", "-I", os.path.join(WHOOP, "Model"), "-I",
                     os.path.dirname(d)]
            out.append(("driver", name,
                        ["--driver", "--engine=kiss", d] + flags))
    if not args.skip_svcomp:
        subset = set(read_subset(os.path.join(HERE, "ci_subset.txt")))
        for t in load_tasks(DEFAULT_TASKS):
            if t.name not in subset or t.expected is not False:
                continue
            if args.only and not any(o in t.name for o in args.only):
                continue
            out.append(("svcomp", t.name,
                        ["--engine=kiss", "--data-model=" + t.data_model,
                         t.input_file]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crace", default=os.path.join(REPO, "build", "tools",
                                                     "crace", "crace"))
    ap.add_argument("--timeout", type=int, default=60,
                    help="crace --timeout per run (s)")
    ap.add_argument("--skip-drivers", action="store_true")
    ap.add_argument("--skip-svcomp", action="store_true")
    ap.add_argument("--only", nargs="*", help="driver names or task "
                    "substrings")
    ap.add_argument("--out", default=os.path.join(HERE, "results",
                                                  "kiss-yields"))
    args = ap.parse_args()
    progs = programs(args)
    if not progs:
        sys.exit("no program selected")
    rows = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for kind, name, cargs in progs:
            futs = {s: pool.submit(run, args.crace,
                                   ["--kiss-yields=" + s] + cargs,
                                   args.timeout) for s in SETTINGS}
            res = {s: f.result() for s, f in futs.items()}
            row = {"corpus": kind, "program": name}
            for s in SETTINGS:
                for k, v in res[s].items():
                    row["%s_%s" % (s, k)] = v
            rows.append(row)
            print("%-7s %-60s all: %-13s %2d races %6.1f s | racy: %-13s "
                  "%2d races %6.1f s" % (
                      kind, name[:60], res["all"]["verdict"],
                      res["all"]["races"], res["all"]["seconds"],
                      res["racy"]["verdict"], res["racy"]["races"],
                      res["racy"]["seconds"]), flush=True)
    wall = time.monotonic() - t0
    write_csv(args.out + ".csv", rows)
    write_md(args, rows, wall)
    print("wrote %s.md and .csv" % args.out)


def write_md(args, rows, wall):
    cmd = "python3 bench/kiss_yields.py --timeout %d" % args.timeout
    for flag in ("skip_drivers", "skip_svcomp"):
        if getattr(args, flag):
            cmd += " --" + flag.replace("_", "-")
    if args.only:
        cmd += " --only " + " ".join(args.only)
    with open(args.out + ".md", "w") as f:
        f.write("# kiss: Yield-ALL against Yield-MR (`--kiss-yields`)\n\n")
        f.write("Command: `%s` (%.0f s in all; %s). Both settings of a "
                "program ran at the same time, one per core. Drivers: "
                "WHOOP's 19 Linux drivers in driver mode (`../shared/bench/"
                "whoop`); SV-COMP: the racy (expected false) tasks of "
                "`bench/ci_subset.txt` with `--engine=kiss`. `all` = a "
                "schedule point before every visible operation; `racy` = "
                "only before synchronisation, atomic accesses and the "
                "accesses of the lockset analysis's candidate pairs. Time "
                "= wall seconds of the whole crace run; `*` = stopped by "
                "the time limit.\n\n" % (cmd, wall, time.strftime(
                    "%Y-%m-%d %H:%M UTC", time.gmtime())))
        head = ["corpus", "program"]
        for s in SETTINGS:
            head += ["%s verdict" % s, "%s races" % s, "%s targets" % s,
                     "%s sched. points" % s, "%s encode s" % s,
                     "%s solve s" % s, "%s s" % s]
        head.append("speed-up")
        f.write("| " + " | ".join(head) + " |\n")
        f.write("|" + "---|" * len(head) + "\n")
        ups = {"driver": [], "svcomp": []}
        differ = []
        for r in rows:
            cells = [r["corpus"], r["program"]]
            for s in SETTINGS:
                cells += [r[s + "_verdict"], str(r[s + "_races"]),
                          str(r[s + "_targets"]),
                          str(r[s + "_schedule_points"]),
                          "%.1f" % r[s + "_encode_s"],
                          "%.1f" % r[s + "_solve_s"],
                          "%.1f%s" % (r[s + "_seconds"],
                                      "*" if r[s + "_timed_out"] else "")]
            up = ""
            if not r["all_timed_out"] and not r["racy_timed_out"]:
                ratio = r["all_seconds"] / max(r["racy_seconds"], 0.01)
                ups[r["corpus"]].append(ratio)
                up = "%.2f" % ratio
            elif r["all_timed_out"] and not r["racy_timed_out"]:
                up = "> %.1f" % (r["all_seconds"] /
                                 max(r["racy_seconds"], 0.01))
            cells.append(up)
            if r["all_race_lines"] != r["racy_race_lines"]:
                differ.append(r)
            f.write("| " + " | ".join(cells) + " |\n")
        f.write("\n## Summary\n\n")
        for corpus, vals in ups.items():
            sel = [r for r in rows if r["corpus"] == corpus]
            if not sel:
                continue
            f.write("- %s: %d programs; races confirmed: all %d, racy %d "
                    "(programs with a race: all %d, racy %d); stopped by "
                    "the time limit: all %d, racy %d; speed-up where both "
                    "finished: %s.\n" % (
                        corpus, len(sel),
                        sum(r["all_races"] for r in sel),
                        sum(r["racy_races"] for r in sel),
                        sum(1 for r in sel if r["all_races"]),
                        sum(1 for r in sel if r["racy_races"]),
                        sum(1 for r in sel if r["all_timed_out"]),
                        sum(1 for r in sel if r["racy_timed_out"]),
                        ("median %.2f, min %.2f, max %.2f over %d" % (
                            statistics.median(vals), min(vals), max(vals),
                            len(vals))) if vals else "none"))
        if differ:
            f.write("- The two settings report different races on: %s.\n" %
                    ", ".join("%s (all: %s; racy: %s)" % (
                        r["program"], r["all_race_lines"] or "none",
                        r["racy_race_lines"] or "none") for r in differ))
        else:
            f.write("- Both settings report the same races on every "
                    "program.\n")


if __name__ == "__main__":
    main()
