#!/usr/bin/env python3
"""crace on WHOOP's 19 Linux 4.0 drivers (issue 7), in driver mode.

    python3 bench/whoop_drivers.py [--crace build/tools/crace/crace]
                                   [--engine lockset] [--timeout 300]

Reads the drivers in place from ../shared/bench/whoop (never copied) and
writes bench/results/whoop-drivers.csv and .md: per driver its lines of
code, entry points (all / running concurrently), entry-point pairs checked
(concurrent ones, each also with itself), wall time, peak resident memory,
verdict, possible races (findings, with --max-findings=0), racy entry-point
pairs, and the kernel functions crace has no model for. For context, the
WHOOP paper's figures (its Tables I and II: #pairs, #racy pairs, WHOOP time)
are parsed from ../shared/papers/whoop-symbolic-pairwise-lockset.txt.
One column per engine: --engine is repeatable (default: lockset and whoop,
side by side in one run). For the last engine, the remaining possible
races are split by what they point at: an access in the generated harness
or the kernel models (the environment), no lock on either side, a lock on
one side only, and different locks on the two sides. The summary lists
the drivers where the engines' race counts differ.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared"))
WHOOP = os.path.join(SHARED, "bench", "whoop", "pdeligia-whoop-HEAD")
PAPER = os.path.join(SHARED, "papers", "whoop-symbolic-pairwise-lockset.txt")
# Paper names that differ from the driver directories.
PAPER_NAMES = {"intel_scu_watchdog": "intel_scu_wd", "nfcsim": "intel_nfcsim"}


def paper_figures():
    """{driver: (pairs, racy_pairs, whoop_seconds)} from the paper's tables."""
    table1, table2 = {}, {}
    try:
        with open(PAPER, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    for line in lines:
        cols = line.split("\t")
        if len(cols) >= 7 and re.fullmatch(r"\d+", cols[1] or "") and \
                re.fullmatch(r"\d+", cols[2] or ""):
            table1[cols[0]] = (cols[2], cols[4])
        elif len(cols) >= 3 and re.fullmatch(r"[\d.]+", cols[1] or "") and \
                re.fullmatch(r"\d+", cols[2] or "") and "." in cols[1]:
            table2[cols[0]] = cols[1]
    out = {}
    for name in set(table1) | set(table2):
        pairs, racy = table1.get(name, ("", ""))
        racy = {"X": "0", "×": "0"}.get(racy, racy)
        out[name] = (pairs, racy, table2.get(name, ""))
    return out


def run_crace(crace, engine, driver, timeout):
    flags = ["--", "-I", os.path.join(WHOOP, "Model"), "-I",
             os.path.dirname(driver)]
    listing = subprocess.run([crace, "--list-entry-points", driver] + flags,
                             capture_output=True, text=True).stdout
    entries = [l for l in listing.splitlines() if l.startswith("entry point ")]
    m = re.search(r"harness: (\d+) concurrent", listing)
    concurrent = int(m.group(1)) if m else 0
    start = time.monotonic()
    p = subprocess.run([crace, "--driver", "--engine=" + engine,
                        "--format=json", "--max-findings=0",
                        "--timeout=%d" % timeout, driver] + flags,
                       capture_output=True, text=True)
    wall = time.monotonic() - start
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        report = {"verdict": "error (exit %d)" % p.returncode, "findings": [],
                  "reasons": [p.stderr.strip()[-200:]], "stats": {}}
    racy_pairs = set()
    causes = {"environment": 0, "no lock": 0, "one side locked": 0,
              "different locks": 0}
    for f in report.get("findings", []):
        acc = f.get("accesses", [])
        if f.get("kind") == "data-race" and len(acc) == 2:
            racy_pairs.add(tuple(sorted((acc[0]["thread"], acc[1]["thread"]))))
            files = [str(a.get("file", a.get("location", ""))) for a in acc]
            locked = [bool(a.get("locks")) for a in acc]
            if any("crace-harness" in x or "/models/" in x for x in files):
                causes["environment"] += 1
            elif not any(locked):
                causes["no lock"] += 1
            elif not all(locked):
                causes["one side locked"] += 1
            else:
                causes["different locks"] += 1
    unknown = sorted({m.group(1) for r in report.get("reasons", [])
                      for m in [re.search(r"unknown external function '([^']+)'", r)]
                      if m})
    return {
        "entry_points": len(entries),
        "concurrent": concurrent,
        "pairs": concurrent * (concurrent + 1) // 2,
        "seconds": wall,
        "peak_rss_mb": report.get("stats", {}).get("peak_rss_mb", 0.0),
        "verdict": report.get("verdict", "?"),
        "possible_races": sum(1 for f in report.get("findings", [])
                              if f.get("kind") == "data-race"),
        "racy_pairs": len(racy_pairs),
        # The lockset engine stops pairing at a cap: the count is a lower
        # bound then (whoop refines the capped set).
        "capped": any("search for further pairs stopped" in r
                      for r in report.get("reasons", [])),
        "unmodelled": unknown,
        "causes": causes,
        "exit": p.returncode,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crace", default=os.path.join(REPO, "build", "tools",
                                                     "crace", "crace"))
    ap.add_argument("--engine", action="append")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--out", default=os.path.join(HERE, "results",
                                                  "whoop-drivers"))
    args = ap.parse_args()
    engines = args.engine or ["lockset", "whoop"]
    if not os.path.isdir(WHOOP):
        sys.exit("no WHOOP benchmarks at " + WHOOP)
    drivers = []
    for dirpath, _, files in os.walk(os.path.join(WHOOP, "driversuite")):
        if "driver.c" in files:
            drivers.append(os.path.join(dirpath, "driver.c"))
    drivers.sort(key=lambda d: os.path.relpath(d, WHOOP))
    paper = paper_figures()
    rows = []
    for d in drivers:
        name = os.path.basename(os.path.dirname(d))
        with open(d, errors="replace") as f:
            loc = sum(1 for _ in f)
        row = {"driver": os.path.relpath(os.path.dirname(d),
                                         os.path.join(WHOOP, "driversuite")),
               "loc": loc}
        pp = paper.get(PAPER_NAMES.get(name, name), ("", "", ""))
        row["paper_pairs"], row["paper_racy_pairs"], row["paper_whoop_s"] = pp
        for e in engines:
            r = run_crace(args.crace, e, d, args.timeout)
            row["entry_points"] = r["entry_points"]
            row["concurrent"] = r["concurrent"]
            row["pairs"] = r["pairs"]
            for k in ("seconds", "peak_rss_mb", "verdict", "possible_races",
                      "racy_pairs", "capped"):
                row["%s_%s" % (e, k)] = r[k]
            row["%s_unmodelled" % e] = " ".join(r["unmodelled"])
            row["causes"] = " / ".join(str(v) for v in r["causes"].values())
            print("%-28s %-9s %6.2f s %6.0f MB %-13s races=%-4d racy pairs=%-3d "
                  "unmodelled=%d" % (row["driver"], e, r["seconds"],
                                     r["peak_rss_mb"], r["verdict"],
                                     r["possible_races"], r["racy_pairs"],
                                     len(r["unmodelled"])), flush=True)
        rows.append(row)

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    fields = list(rows[0].keys())
    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow({k: ("%.2f" % v if isinstance(v, float) else v)
                        for k, v in r.items()})
    with open(args.out + ".md", "w") as f:
        f.write("# crace on WHOOP's 19 Linux 4.0 drivers\n\n")
        f.write("Command: `python3 bench/whoop_drivers.py %s` (driver mode, "
                "`--max-findings=0`; drivers read in place from "
                "`../shared/bench/whoop`). Pairs: entry points that run "
                "concurrently, each with every other and with itself. "
                "Races: possible races reported; racy pairs: distinct "
                "entry-point pairs among them. Unmodelled: kernel functions "
                "without a model (each makes the verdict `unknown` at best). "
                "Paper: WHOOP's #pairs, #racy pairs and time (its Tables I "
                "and II, another machine). ≥N: the lockset engine stopped "
                "pairing after 20000 findings (pairs of source locations), so N is "
                "a lower bound (whoop refines that capped set).\n\n" %
                " ".join("--engine " + e for e in engines))
        head = ["driver", "LOC", "entry points", "pairs"]
        for e in engines:
            head += ["%s time (s)" % e, "%s peak RSS (MB)" % e,
                     "%s verdict" % e, "%s races" % e, "%s racy pairs" % e,
                     "%s unmodelled" % e]
        head += ["%s races: environment / no lock / one side locked / "
                 "different locks" % engines[-1]]
        head += ["paper pairs", "paper racy pairs", "paper WHOOP time (s)"]
        f.write("| " + " | ".join(head) + " |\n")
        f.write("|" + "---|" * len(head) + "\n")
        for r in rows:
            cells = [r["driver"], str(r["loc"]),
                     "%d (%d concurrent)" % (r["entry_points"], r["concurrent"]),
                     str(r["pairs"])]
            for e in engines:
                n = len(r["%s_unmodelled" % e].split())
                cells += ["%.2f" % r["%s_seconds" % e],
                          "%.0f" % r["%s_peak_rss_mb" % e],
                          r["%s_verdict" % e],
                          ("≥%d" if r["%s_capped" % e] else "%d") %
                          r["%s_possible_races" % e],
                          str(r["%s_racy_pairs" % e]), str(n)]
            cells += [r["causes"]]
            cells += [r["paper_pairs"], r["paper_racy_pairs"],
                      r["paper_whoop_s"]]
            f.write("| " + " | ".join(cells) + " |\n")
        for e in engines:
            total = sum(r["%s_seconds" % e] for r in rows)
            slowest = max(rows, key=lambda r: r["%s_seconds" % e])
            f.write("\n%s: %d drivers in %.1f s, slowest %s (%.2f s); "
                    "verdicts: %s.\n" % (
                        e, len(rows), total, slowest["driver"],
                        slowest["%s_seconds" % e],
                        ", ".join("%s %d" % (v, sum(1 for r in rows
                                                    if r["%s_verdict" % e] == v))
                                  for v in sorted({r["%s_verdict" % e]
                                                   for r in rows}))))
        if len(engines) > 1:
            a, b = engines[0], engines[-1]
            diff = [r for r in rows if r["%s_possible_races" % a] !=
                    r["%s_possible_races" % b]]
            more = [r["driver"] for r in diff if r["%s_possible_races" % b] >
                    r["%s_possible_races" % a]]
            f.write("\n%s vs %s: the race counts differ on %d drivers (%s); "
                    "%s reports more on %s.\n" % (
                        a, b, len(diff),
                        ", ".join("%s %d -> %d" % (
                            r["driver"], r["%s_possible_races" % a],
                            r["%s_possible_races" % b]) for r in diff) or "none",
                        b, ", ".join(more) if more else "none"))
    print("wrote %s.csv and %s.md" % (args.out, args.out))


if __name__ == "__main__":
    main()
