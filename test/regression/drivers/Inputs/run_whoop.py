#!/usr/bin/env python3
"""Runs crace in driver mode on WHOOP's benchmarks, in place.

  run_whoop.py CRACE WHOOP_DIR tests    the 28 small tests: no crash, and no
                                        race-free verdict where
                                        testsuite_verdicts.csv expects a race
  run_whoop.py CRACE WHOOP_DIR drivers  the 19 Linux 4.0 drivers: no crash,
                                        they compile, a verdict is printed
  run_whoop.py CRACE WHOOP_DIR compare  the 19 drivers with the lockset and
                                        the whoop engine: whoop never
                                        reports a race lockset does not

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


def run(path, engine=engine, extra=()):
    cmd = [crace, "--driver", "--engine=" + engine, "--timeout=120",
           "--group=none"] + \
        list(extra) + [path, "--", "-I", model, "-I", os.path.dirname(path)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    verdict = None
    for line in p.stdout.splitlines():
        if line.startswith("crace: verdict: "):
            verdict = line.split()[2]
    return p.returncode, verdict, p.stdout + p.stderr


def drivers():
    found = []
    for dirpath, _, files in os.walk(os.path.join(root, "driversuite")):
        if "driver.c" in files:
            found.append(os.path.join(dirpath, "driver.c"))
    return sorted(found)


def races(out):
    """The reported races, as (first location, second location) lines."""
    found = set()
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if "warning: possible data race" in line or \
                "warning: data race" in line:
            loc = line.split(": warning:")[0]
            other = ""
            for follow in lines[i + 1:i + 8]:
                if "note: conflicting" in follow:
                    other = follow.split(": note:")[0]
                    break
            found.add((loc, other, line.split("(")[1] if "(" in line else ""))
    return found


failures = 0
proved = expected_free = 0
if mode == "tests":
    with open(os.path.join(whoop, "testsuite_verdicts.csv")) as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        path = os.path.join(whoop, row["test_relpath"])
        rc, verdict, out = run(path)
        expected = row["race_expected"]
        problem = ""
        if rc not in (0, 2, 6) or verdict is None:
            problem = "crashed or did not compile (exit %d)" % rc
        elif expected == "yes" and verdict == "race-free":
            problem = "WRONG: race-free where a race is expected"
        if expected == "no":
            expected_free += 1
            proved += verdict == "race-free"
        print("%-4s expected-race=%-3s crace=%-13s %s%s" % (
            "FAIL" if problem else "ok", expected[:3], verdict,
            row["test_relpath"], "  <- " + problem if problem else ""))
        if problem:
            failures += 1
            sys.stdout.write(out)
    print("%d race-free of %d expected race-free" % (proved, expected_free))
elif mode == "compare":
    for path in drivers():
        _, v1, out1 = run(path, "lockset", ["--max-findings=0"])
        rc, v2, out2 = run(path, "whoop", ["--max-findings=0"])
        r1, r2 = races(out1), races(out2)
        problem = ""
        if rc not in (0, 2, 6) or v2 is None or "internal error" in out2:
            problem = "whoop crashed (exit %d)" % rc
        elif r2 - r1 and "time limit of" not in out1 + out2:
            # (A run cut by --timeout reports the findings made until
            # then, so two cut runs need not be subsets of each other.)
            problem = "whoop reports %d race(s) lockset does not" % len(r2 - r1)
        elif v2 == "race-free" and v1 != "race-free" and r1 and \
                "whoop_" not in out2:
            problem = "race-free without whoop statistics"
        print("%-4s lockset=%-5d whoop=%-5d %s%s" % (
            "FAIL" if problem else "ok", len(r1), len(r2),
            os.path.relpath(path, root), "  <- " + problem if problem else ""))
        if problem:
            failures += 1
            for r in sorted(r2 - r1)[:10]:
                print("   ", r)
elif mode == "drivers":
    for path in drivers():
        rc, verdict, out = run(path)
        problem = ""
        if rc not in (0, 2, 6) or verdict is None or "internal error" in out:
            problem = "crashed or did not compile (exit %d)" % rc
        print("%-4s crace=%-13s %s%s" % (
            "FAIL" if problem else "ok", verdict,
            os.path.relpath(path, root), "  <- " + problem if problem else ""))
        if problem:
            failures += 1
            sys.stdout.write(out[-3000:])
else:
    sys.exit("usage: run_whoop.py CRACE WHOOP_DIR tests|drivers|compare [ENGINE]")
print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
