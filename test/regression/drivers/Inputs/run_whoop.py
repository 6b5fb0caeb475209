#!/usr/bin/env python3
"""Runs crace in driver mode on WHOOP's benchmarks, in place.

  run_whoop.py CRACE WHOOP_DIR tests    the 28 small tests: no crash, and no
                                        race-free verdict where
                                        testsuite_verdicts.csv expects a race
  run_whoop.py CRACE WHOOP_DIR drivers  the 19 Linux 4.0 drivers: no crash,
                                        they compile, a verdict is printed

Expectations are read from WHOOP_DIR/testsuite_verdicts.csv, never copied.
Exit status 0 when every check holds."""
import csv
import os
import subprocess
import sys

crace, whoop, mode = sys.argv[1], sys.argv[2], sys.argv[3]
engine = sys.argv[4] if len(sys.argv) > 4 else "lockset"
root = os.path.join(whoop, "pdeligia-whoop-HEAD")
model = os.path.join(root, "Model")


def run(path):
    cmd = [crace, "--driver", "--engine=" + engine, "--timeout=120", path,
           "--", "-I", model, "-I", os.path.dirname(path)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    verdict = None
    for line in p.stdout.splitlines():
        if line.startswith("crace: verdict: "):
            verdict = line.split()[2]
    return p.returncode, verdict, p.stdout + p.stderr


failures = 0
if mode == "tests":
    with open(os.path.join(whoop, "testsuite_verdicts.csv")) as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        path = os.path.join(whoop, row["test_relpath"])
        rc, verdict, out = run(path)
        expected = row["race_expected"]
        problem = ""
        if rc not in (0, 2) or verdict is None:
            problem = "crashed or did not compile (exit %d)" % rc
        elif expected == "yes" and verdict == "race-free":
            problem = "WRONG: race-free where a race is expected"
        print("%-4s expected-race=%-3s crace=%-13s %s%s" % (
            "FAIL" if problem else "ok", expected[:3], verdict,
            row["test_relpath"], "  <- " + problem if problem else ""))
        if problem:
            failures += 1
            sys.stdout.write(out)
elif mode == "drivers":
    drivers = []
    for dirpath, _, files in os.walk(os.path.join(root, "driversuite")):
        if "driver.c" in files:
            drivers.append(os.path.join(dirpath, "driver.c"))
    for path in sorted(drivers):
        rc, verdict, out = run(path)
        problem = ""
        if rc not in (0, 2) or verdict is None or "internal error" in out:
            problem = "crashed or did not compile (exit %d)" % rc
        print("%-4s crace=%-13s %s%s" % (
            "FAIL" if problem else "ok", verdict,
            os.path.relpath(path, root), "  <- " + problem if problem else ""))
        if problem:
            failures += 1
            sys.stdout.write(out[-3000:])
else:
    sys.exit("usage: run_whoop.py CRACE WHOOP_DIR tests|drivers [ENGINE]")
print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
