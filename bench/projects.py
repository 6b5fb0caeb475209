#!/usr/bin/env python3
"""`crace -p` on the whole projects of ../shared/bench/realworld/projects,
built with their own build (see that folder's README): wall time, peak
memory, exit code, the programs found and their verdicts, and whether the
SARIF log validates against a SARIF 2.1.0 schema (--sarif-schema: the
official schema file; the test suite's subset schema otherwise).

  python3 bench/projects.py [--crace BIN] --project NAME=BUILD_DIR ...
         [--sarif-schema FILE] [--out bench/results/projects.md]

e.g. --project xz=/tmp/xz/build --project memcached=/tmp/memcached (copies
of the projects built outside ../shared).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHECK = os.path.join(ROOT, "test", "regression", "sarif", "Inputs",
                     "check_sarif.py")


def run(crace, build, fmt, out):
    cmd = [crace, "-p", build, "--format=" + fmt, "-o", out]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=build, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    rss = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return p.returncode, wall, rss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crace", default=os.path.join(ROOT, "build", "tools",
                                                    "crace", "crace"))
    ap.add_argument("--project", action="append", required=True,
                    metavar="NAME=BUILD_DIR")
    ap.add_argument("--sarif-schema")
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    rows = []
    for spec in a.project:
        name, _, build = spec.partition("=")
        build = os.path.abspath(build)
        with tempfile.TemporaryDirectory() as tmp:
            js, sarif = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.sarif")
            code, wall, rss = run(a.crace, build, "json", js)
            with open(js) as f:
                rep = json.load(f)
            progs = rep.get("programs") or [{"name": name,
                                             "verdict": rep["verdict"],
                                             "findings": len(rep["findings"])}]
            run(a.crace, build, "sarif", sarif)
            env = dict(os.environ)
            if a.sarif_schema:
                env["CRACE_SARIF_SCHEMA"] = os.path.abspath(a.sarif_schema)
            chk = subprocess.run([sys.executable, CHECK, sarif], env=env,
                                 capture_output=True, text=True)
            valid = "valid" if chk.returncode == 0 else \
                "INVALID: " + (chk.stdout + chk.stderr).strip().splitlines()[-1]
        verdicts = {}
        for p in progs:
            verdicts[p["verdict"]] = verdicts.get(p["verdict"], 0) + 1
        rows.append((name, len(progs), rep["verdict"], code, wall, rss,
                     ", ".join("%d %s" % (n, v) for v, n in sorted(verdicts.items())),
                     valid))
        print("%s: %d programs, %s (exit %d), %.1f s, %.0f MB, SARIF %s"
              % (name, len(progs), rep["verdict"], code, wall, rss, valid),
              file=sys.stderr)
    lines = ["| project | programs | verdict (exit) | wall s | peak MB | per-program verdicts | SARIF 2.1.0 |",
             "|---|---:|---|---:|---:|---|---|"]
    for r in rows:
        lines.append("| %s | %d | %s (%d) | %.1f | %.0f | %s | %s |"
                     % (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]))
    text = "\n".join(lines) + "\n"
    if a.out == "-":
        sys.stdout.write(text)
    else:
        with open(a.out, "a") as f:
            f.write(text)


if __name__ == "__main__":
    main()
