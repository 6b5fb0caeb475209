#!/usr/bin/env python3
"""Does explore run every goblint-bench program to its own bounds, or does a
call it cannot execute stop a thread? (issue 14, "explore runs to its own
bounds"). Runs `crace --engine=explore` with a small execution bound on
every C file of goblint-bench/{pthread,race-synthetic} and lists, per
program, the reasons that say explore could not execute something (those
start "the explore engine cannot execute:"), the calls it ran past with a
drawn result (functions without body or model: the runs through them are
not confirmations) and the bounds it reached.

CIL-combined programs get --data-model=ILP32, as they were produced; a file
that does not compile under either data model is listed as such.

  python3 bench/explore_reach.py [--crace BIN] [--executions N]
         [--timeout S] [--jobs J] [--md FILE] [--label TEXT]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import tempfile

from goblint_default import is_cil_combined

ROOT = "/work/shared/bench/realworld/goblint-bench"
HERE = os.path.dirname(os.path.abspath(__file__))
STOP = "the explore engine cannot execute: "


def run(crace, path, models, executions, timeout):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = tmp.name
    report = None
    try:
        for model in models:
            cmd = [crace, "--engine=explore", "--format=json", "-o", out,
                   "--data-model=" + model,
                   "--max-executions=%d" % executions,
                   "--timeout=%d" % timeout, path]
            try:
                subprocess.run(cmd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=timeout + 60)
            except subprocess.TimeoutExpired:
                continue
            try:
                with open(out) as f:
                    report = json.load(f)
            except (OSError, ValueError):
                report = None
            if report is not None and report.get("verdict") != "error":
                return model, report
        return None, report
    finally:
        if os.path.exists(out):
            os.unlink(out)


def stops(report):
    """What stopped explore's threads: the call, without its location."""
    found = []
    for r in report.get("reasons", []):
        if r.startswith(STOP):
            what = r[len(STOP):]
            what = re.sub(r" at /\S+", "", what)
            what = re.sub(r" \(that thread stops there.*\)$", "", what)
            found.append(what)
    return sorted(set(found))


PAST = "the explore engine ran past calls it cannot execute"


def ran_past(report):
    """The calls explore ran past (a drawn result, the run unconfirmed):
    the functions without body or model it names, and how many sites."""
    for r in report.get("reasons", []):
        if r.startswith(PAST):
            names = sorted(set(re.findall(r"'([^']+)' has no body", r)))
            more = re.search(r"; and (\d+) more\)", r)
            sites = len(re.findall(r", at /", r)) + (int(more.group(1)) if more else 0)
            return "%d call site(s)%s" % (sites, ": " + ", ".join(names) if names else "")
    return ""


def bounds(report):
    keys = ("bound", "budget", "time")
    return [r for r in report.get("reasons", [])
            if not r.startswith(STOP) and not r.startswith(PAST) and
            any(k in r for k in keys)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crace", default=os.path.join(
        HERE, "..", "build", "tools", "crace", "crace"))
    ap.add_argument("--executions", type=int, default=5000)
    ap.add_argument("--timeout", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--md")
    ap.add_argument("--label", default="")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(ROOT, "pthread", "*.c")) +
                   glob.glob(os.path.join(ROOT, "race-synthetic", "*.c")))

    def one(path):
        models = ["ILP32", "LP64"] if is_cil_combined(path) else ["LP64", "ILP32"]
        model, report = run(a.crace, path, models, a.executions, a.timeout)
        return path, model, report

    rows = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for path, model, report in pool.map(one, files):
            name = os.path.relpath(path, ROOT)
            if report is None or model is None:
                rows.append((name, "-", "does not compile", "", "", ""))
                continue
            s = stops(report)
            rows.append((name, model, report.get("verdict", "?"),
                         "; ".join(s) if s else "none",
                         ran_past(report), "; ".join(bounds(report))))
            print(name, rows[-1][2], "|", rows[-1][3], flush=True)
    ran = [r for r in rows if r[2] != "does not compile"]
    stopped = [r for r in ran if r[3] != "none"]
    summary = ("%d programs compile; explore runs %d of them to its own "
               "bounds; a call it cannot execute stops a thread in %d"
               % (len(ran), len(ran) - len(stopped), len(stopped)))
    print(summary)
    if a.md:
        with open(a.md, "a") as f:
            f.write("\n## %s\n\n%s (`--max-executions=%d --timeout=%d`).\n\n"
                    % (a.label or "run", summary, a.executions, a.timeout))
            f.write("| program | data model | verdict | explore could not "
                    "execute | ran past (result drawn, runs unconfirmed) | "
                    "bounds reached |\n|---|---|---|---|---|---|\n")
            for r in rows:
                f.write("| %s |\n" % " | ".join(x.replace("|", "\\|")
                                               for x in r))


if __name__ == "__main__":
    main()
