#!/usr/bin/env python3
"""kiss on WHOOP's 19 Linux 4.0 drivers (issue 5: per-location query cost).

    python3 bench/kiss_drivers.py [--crace build/tools/crace/crace]
                                  [--timeout 600] [--query-timeout 60]
                                  [--only NAME ...]

Runs `crace --driver --engine=kiss` (the KISS paper's dispatch harness: two
threads, each calling one entry point chosen nondeterministically) on every
driver, read in place from ../shared/bench/whoop (never copied), and writes
bench/results/kiss-drivers.md and .csv: per driver its lines of code, entry
points, race targets (shared globals and heap objects: the harness's kernel
objects and the driver's allocations), target queries asked, their
answers (race / no race found / unknown), the slowest query, the total
time and the peak resident memory, and the verdict. The KISS paper reports
a budget of 20 minutes and 800 MB per field on drivers of up to 10 KLOC; the
summary puts crace's slowest query and peak memory next to it. A query
that hits --query-timeout (crace's --kiss-query-timeout) counts as unknown.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from whoop_drivers import REPO, WHOOP  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def drivers():
    out = []
    for dirpath, _, files in os.walk(os.path.join(WHOOP, "driversuite")):
        if "driver.c" in files:
            out.append(os.path.join(dirpath, "driver.c"))
    return sorted(out, key=lambda d: os.path.relpath(d, WHOOP))


def run_json(cmd, kill):
    """Runs a `crace --format=json` command, killed after `kill` seconds:
    (its report, or an error report; the wall seconds; the exit code, -1
    when killed)."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=kill)
        out, code = p.stdout, p.returncode
    except subprocess.TimeoutExpired:
        out, code = "", -1
    wall = time.monotonic() - start
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        report = {"verdict": "error (exit %d)" % code, "stats": {},
                  "findings": [], "reasons": []}
    return report, wall, code


def write_csv(path, rows):
    """Writes rows (dicts with the same keys) as CSV, floats to 2 places."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for r in rows:
            w.writerow({k: ("%.2f" % v if isinstance(v, float) else v)
                        for k, v in r.items()})


def run(crace, driver, timeout, query_timeout):
    flags = ["--", "-I", os.path.join(WHOOP, "Model"), "-I",
             os.path.dirname(driver)]
    listing = subprocess.run([crace, "--driver", "--engine=kiss",
                              "--list-entry-points", driver] + flags,
                             capture_output=True, text=True).stdout
    entries = sum(1 for l in listing.splitlines()
                  if l.startswith("entry point "))
    cmd = [crace, "--driver", "--engine=kiss", "--format=json", "--stats",
           "--timeout=%d" % timeout,
           "--kiss-query-timeout=%d" % query_timeout, driver] + flags
    report, wall, _ = run_json(cmd, timeout + 60)
    st = report.get("stats", {})
    status = {k[len("kiss_query_status."):]: v for k, v in st.items()
              if k.startswith("kiss_query_status.")}
    secs = {k[len("kiss_query_seconds."):]: v for k, v in st.items()
            if k.startswith("kiss_query_seconds.")}
    slowest = max(secs.items(), key=lambda kv: kv[1], default=("", 0.0))
    return {
        "entry_points": entries,
        "targets": int(st.get("kiss_targets", 0)),
        "queries": len(status),
        "race": sum(1 for v in status.values() if v == 1),
        "no_race_found": sum(1 for v in status.values() if v == 0),
        "unknown": sum(1 for v in status.values() if v == 2),
        "max_query_s": slowest[1],
        "slowest_target": slowest[0],
        "encode_s": st.get("kiss_encode_seconds", 0.0),
        "seconds": wall,
        "peak_rss_mb": st.get("peak_rss_mb", 0.0),
        "verdict": report.get("verdict", "?"),
        "findings": sum(1 for f in report.get("findings", [])
                        if f.get("kind") == "data-race"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crace", default=os.path.join(REPO, "build", "tools",
                                                     "crace", "crace"))
    ap.add_argument("--timeout", type=int, default=600,
                    help="crace --timeout per driver (s)")
    ap.add_argument("--query-timeout", type=int, default=60,
                    help="crace --kiss-query-timeout per target (s)")
    ap.add_argument("--only", nargs="*", help="driver directory names")
    ap.add_argument("--out", default=os.path.join(HERE, "results",
                                                  "kiss-drivers"))
    args = ap.parse_args()
    if not os.path.isdir(WHOOP):
        sys.exit("no WHOOP benchmarks at " + WHOOP)
    rows = []
    t0 = time.monotonic()
    for d in drivers():
        name = os.path.relpath(os.path.dirname(d),
                               os.path.join(WHOOP, "driversuite"))
        if args.only and os.path.basename(name) not in args.only:
            continue
        with open(d, errors="replace") as f:
            loc = sum(1 for _ in f)
        r = run(args.crace, d, args.timeout, args.query_timeout)
        r = {"driver": name, "loc": loc, **r}
        rows.append(r)
        print("%-28s %5d LOC %3d targets %3d queries race=%d none=%d "
              "unknown=%d max query %.1f s, %.1f s, %.0f MB, %s" %
              (name, loc, r["targets"], r["queries"], r["race"],
               r["no_race_found"], r["unknown"], r["max_query_s"],
               r["seconds"], r["peak_rss_mb"], r["verdict"]), flush=True)
    wall = time.monotonic() - t0
    if not rows:
        sys.exit("no driver selected")
    write_csv(args.out + ".csv", rows)
    cmd = "python3 bench/kiss_drivers.py --timeout %d --query-timeout %d" % (
        args.timeout, args.query_timeout)
    if args.only:
        cmd += " --only " + " ".join(args.only)
    with open(args.out + ".md", "w") as f:
        f.write("# kiss on WHOOP's 19 Linux 4.0 drivers\n\n")
        f.write("Command: `%s` (driver mode, the KISS paper's dispatch "
                "harness; drivers read in place from `../shared/bench/whoop`"
                "; %.0f s in all). One bmc query per race target (a shared "
                "global, or a heap object: the harness's kernel objects and "
                "the driver's allocations); a query answers race, no race "
                "found (in the balanced, bounded executions KISS explores: "
                "never a proof) or unknown (a bound, an unmodelled function, "
                "an over-approximated value, or the per-query time limit). "
                "The KISS paper's budget was 20 min and 800 MB per field on "
                "drivers of up to 10 KLOC.\n\n" % (cmd, wall))
        head = ["driver", "LOC", "entry points", "targets", "queries", "race",
                "no race found", "unknown", "slowest query (s)",
                "encoding (s)", "total (s)", "peak RSS (MB)", "verdict",
                "races reported"]
        f.write("| " + " | ".join(head) + " |\n")
        f.write("|" + "---|" * len(head) + "\n")
        for r in rows:
            f.write("| " + " | ".join([
                r["driver"], str(r["loc"]), str(r["entry_points"]),
                str(r["targets"]), str(r["queries"]), str(r["race"]),
                str(r["no_race_found"]), str(r["unknown"]),
                "%.1f" % r["max_query_s"], "%.1f" % r["encode_s"],
                "%.1f" % r["seconds"], "%.0f" % r["peak_rss_mb"],
                r["verdict"], str(r["findings"])]) + " |\n")
        slow = max(rows, key=lambda r: r["max_query_s"])
        mem = max(rows, key=lambda r: r["peak_rss_mb"])
        f.write("\nSlowest query: %.1f s (%s, target %s), against the paper's "
                "20 min budget per field; peak memory %.0f MB (%s), against "
                "800 MB. Drivers with a race confirmed: %d of %d; queries "
                "answered race %d, no race found %d, unknown %d.\n" % (
                    slow["max_query_s"], slow["driver"],
                    slow["slowest_target"] or "-", mem["peak_rss_mb"],
                    mem["driver"], sum(1 for r in rows if r["race"]),
                    len(rows), sum(r["race"] for r in rows),
                    sum(r["no_race_found"] for r in rows),
                    sum(r["unknown"] for r in rows)))
    print("wrote %s.md and .csv" % args.out)


if __name__ == "__main__":
    main()
