#!/usr/bin/env python3
"""Engines keep each other honest (issue 15, item 6): every regression
program is analysed by each engine (lockset, whoop, explore, kiss, circ) with the
options of its first `%crace --verify` RUN line, and the answers are
compared:

  1. no program gets `race` from one engine and `race-free` from another;
  2. every race an engine confirms (explore, kiss: verdict `race`) is among
     the lockset engine's candidate pairs (the same two source lines), so
     the static stage never drops a real race;
  3. every pair whoop or circ reports is a lockset pair (they only refine).

Exit 0 when all hold, 1 with the differences listed otherwise.

  python3 scripts/differential.py [--crace BIN] [--jobs N] [--timeout S]
         [--options "OPTS" (for files without a RUN line)] [FILE...]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
ENGINES = ["lockset", "whoop", "explore", "kiss", "circ"]
# circ's default budget (10 s of work) on every program doubled the test's
# time; 2 s decides the regression programs it can prove.
ENGINE_OPTIONS = {"circ": ["--circ-budget=2"]}
# Options that choose or tune one engine; the rest (data model, driver
# mode, entry points, inputs) describe the program and are kept.
ENGINE_OPTS = re.compile(
    r"^--(engine|verify|all-races|no-pdp|seed|kiss-|rounds|unwind|"
    r"max-|whoop-|stats|color|format|enumerate)")


def program_options(path):
    """Options of the first `%crace --verify` RUN line, or None."""
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"//\s*RUN:\s*%crace\s+(.*)", line)
            if not m or "--verify" not in m.group(1) or "|" in m.group(1):
                continue
            words = shlex.split(m.group(1).replace("%s", ""))
            if any(w.startswith("%") for w in words):
                return None
            return [w for w in words if not ENGINE_OPTS.match(w)]
    return None


def analyse(crace, path, opts, engine, timeout):
    cmd = [crace, "--engine=" + engine, "--format=json", "--max-findings=0",
           "--timeout=%d" % timeout] + opts + ENGINE_OPTIONS.get(engine, []) + [
               path]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=timeout + 30,
                           cwd=os.path.dirname(path))
        return json.loads(p.stdout.decode(errors="replace"))
    except (subprocess.TimeoutExpired, ValueError):
        return None


def pairs(report, confirmed_only=False):
    out = set()
    for f in report.get("findings", []):
        if f.get("kind") != "data-race" or len(f.get("accesses", [])) != 2:
            continue
        if confirmed_only and f.get("verdict") != "race":
            continue
        a, b = f["accesses"]
        out.add(tuple(sorted([(os.path.basename(a["file"]), a["line"]),
                              (os.path.basename(b["file"]), b["line"])])))
    return out


def covered_without_line(p, cands):
    """A lockset pair whose other access has no line (code without debug
    information called from several places, such as the memcmp model:
    reported as "memcmp()", line 0) covers a confirmed pair that shares
    one access with it: explore names the call that ran it."""
    for c in cands:
        for i in (0, 1):
            if c[i] in p and c[1 - i][1] == 0:
                return True
    return False


VA_LIST_READER = re.compile(r"\bv(s|sn|f|d)?printf\s*\(|\bvsyslog\s*\(")


def covered_at_wrapper_call(p, cands, path):
    """explore names the read a v*printf call makes inside a variadic
    wrapper (a logging function) at that call; the static engines record
    it at each call of the wrapper (ProgramModel::accessesOf), a line the
    confirmed pair does not name. A lockset pair sharing the pair's other
    access covers it."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return False
    base = os.path.basename(path)
    for i in (0, 1):
        name, line = p[i]
        if name != base or not 0 < line <= len(lines):
            continue
        if not VA_LIST_READER.search(lines[line - 1]):
            continue
        if any(p[1 - i] in c for c in cands):
            return True
    return False


def complete(report):
    """Did the engine list every pair it found (no cap, no cut)?"""
    text = " ".join(report.get("reasons", []))
    return not re.search(r"cap|limit of|--max-findings|budget|timed? ?out",
                         text)


def check(crace, path, timeout, default_opts=None):
    opts = program_options(path)
    if opts is None and default_opts is not None:
        opts = default_opts
    counts = {"confirmed": 0, "whoop": 0}
    if opts is None:
        return path, None, [], counts
    reports = {e: analyse(crace, path, opts, e, timeout) for e in ENGINES}
    problems = []
    verdicts = {e: r.get("verdict") for e, r in reports.items() if r}
    racy = [e for e, v in verdicts.items() if v == "race"]
    free = [e for e, v in verdicts.items() if v == "race-free"]
    if racy and free:
        problems.append("race from %s, race-free from %s"
                        % (", ".join(racy), ", ".join(free)))
    lock = reports.get("lockset")
    if lock and lock.get("verdict") not in ("error", None):
        cands = pairs(lock)
        for e in ("explore", "kiss"):
            r = reports.get(e)
            if not r:
                continue
            counts["confirmed"] += len(pairs(r, confirmed_only=True))
            for p in sorted(pairs(r, confirmed_only=True) - cands):
                if (covered_without_line(p, cands) or
                        covered_at_wrapper_call(p, cands, path)):
                    continue
                problems.append("%s confirms %s:%d / %s:%d, not a lockset "
                                "pair" % (e, p[0][0], p[0][1], p[1][0],
                                          p[1][1]))
        for e in ("whoop", "circ"):
            w = reports.get(e)
            if not w or not complete(lock):
                continue
            if e == "whoop":
                counts["whoop"] += len(pairs(w))
            for p in sorted(pairs(w) - cands):
                problems.append("%s reports %s:%d / %s:%d, not a "
                                "lockset pair" % (e, p[0][0], p[0][1],
                                                  p[1][0], p[1][1]))
    return path, verdicts, problems, counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crace", default=os.path.join(
        ROOT, "build", "tools", "crace", "crace"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--options", help="program options for files without "
                    "a RUN line (e.g. SV-COMP tasks: --data-model=ILP32)")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or sorted(
        glob.glob(os.path.join(ROOT, "test", "regression", "**", "*.c"),
                  recursive=True))
    files = [os.path.abspath(f) for f in files if "/Inputs/" not in f]
    checked = failed = confirmed = whoop = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for path, verdicts, problems, counts in pool.map(
                lambda f: check(a.crace, f, a.timeout,
                               shlex.split(a.options) if a.options
                               else None), files):
            if verdicts is None:
                continue
            checked += 1
            confirmed += counts["confirmed"]
            whoop += counts["whoop"]
            if problems:
                failed += 1
                rel = os.path.relpath(path, ROOT)
                print("%s: %s" % (rel, " ".join(
                    "%s=%s" % kv for kv in sorted(verdicts.items()))))
                for p in problems:
                    print("  - " + p)
    print("differential: %d programs (%d confirmed races and %d whoop pairs "
          "compared with lockset's pairs), %d with a difference"
          % (checked, confirmed, whoop, failed))
    # Nothing compared means the reports were not read: a failure too.
    return 1 if failed or not checked or not confirmed else 0


if __name__ == "__main__":
    sys.exit(main())
