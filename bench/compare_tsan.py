#!/usr/bin/env python3
"""crace against ThreadSanitizer (and Helgrind/DRD) on the same SV-COMP tasks.

Reads the results of the two runners — `bench/svcomp.py` (crace, one engine:
default `auto`, the portfolio) and `bench/tsan_baseline.py` — and writes
`bench/results/crace-vs-tsan.md`: for every dynamic tool, the races it found
(FALSE on a task whose expected verdict is false) that crace found too, the
ones crace missed (with crace's answer and reason), and the ones only crace
found; plus false alarms of either side. Checks the target of issue 6:
"every race TSan finds, crace finds too".

  python3 bench/compare_tsan.py
  python3 bench/compare_tsan.py --crace-csv bench/results/svcomp-lockset.csv

Both CSVs must cover the same tasks (rows missing on one side are listed).
"""
import argparse
import csv
import datetime
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crace-csv", default=os.path.join(HERE, "results", "svcomp-auto.csv"))
    ap.add_argument("--tsan-csv", default=os.path.join(HERE, "results", "tsan-baseline.csv"))
    ap.add_argument("--out", default=os.path.join(HERE, "results", "crace-vs-tsan.md"))
    args = ap.parse_args()

    crace = {r["task"]: r for r in load(args.crace_csv)}
    peers = {}
    for r in load(args.tsan_csv):
        peers.setdefault(r["tool"], {})[r["task"]] = r

    out = ["# crace against dynamic race detectors (SV-COMP NoDataRace)", "",
           f"- generated: {datetime.datetime.now():%Y-%m-%d %H:%M} by `python3 bench/compare_tsan.py`",
           f"- crace: `{os.path.relpath(args.crace_csv, os.path.dirname(HERE))}` "
           f"(engine {next(iter(crace.values()))['engine'] if crace else '?'}); "
           f"peers: `{os.path.relpath(args.tsan_csv, os.path.dirname(HERE))}` "
           "(see the headers of svcomp-*.md and tsan-baseline.md for limits, machine and date)",
           "- a race found = answer FALSE on a task whose expected verdict is false; "
           "a false alarm = FALSE on a task whose expected verdict is true", ""]
    out += ["| tool | races it found | crace found them too | crace missed | "
            "races only crace found | its false alarms | crace's false alarms |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    details = []
    ok = True
    for tool, rows in sorted(peers.items()):
        common = [t for t in rows if t in crace]
        missing = sorted(t for t in rows if t not in crace)
        found = [t for t in common if rows[t]["answer"] == "FALSE" and rows[t]["expected"] == "false"]
        both = [t for t in found if crace[t]["answer"] == "FALSE"]
        missed = [t for t in found if crace[t]["answer"] != "FALSE"]
        only = [t for t in common if crace[t]["answer"] == "FALSE" and crace[t]["expected"] == "false"
                and rows[t]["answer"] != "FALSE"]
        fa_peer = [t for t in common if rows[t]["answer"] == "FALSE" and rows[t]["expected"] == "true"]
        fa_crace = [t for t in common if crace[t]["answer"] == "FALSE" and crace[t]["expected"] == "true"]
        out.append(f"| {tool} | {len(found)} | {len(both)} | {len(missed)} | {len(only)} | "
                   f"{len(fa_peer)} | {len(fa_crace)} |")
        if tool == "tsan" and missed:
            ok = False
        if missed:
            details += [f"## Races {tool} found and crace did not", "",
                        "| task | crace answer | crace's reason |", "|---|---|---|"]
            details += [f"| {t} | {crace[t]['answer']} | {crace[t]['reason'][:160]} |" for t in missed]
            details.append("")
        if fa_crace:
            details += [f"## crace FALSE on tasks labelled true (vs {tool}'s answer)", "",
                        "| task | " + tool + " |", "|---|---|"]
            details += [f"| {t} | {rows[t]['answer']} |" for t in fa_crace]
            details.append("")
        if missing:
            details += [f"- {len(missing)} task(s) of {tool} not in the crace CSV: "
                        + ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else ""), ""]
    out.append("")
    out.append("Target (issue 6) — every race TSan finds, crace finds too: **"
               + ("holds" if ok else "does not hold") + "**.")
    out.append("")
    out += details
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
