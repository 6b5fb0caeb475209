#!/usr/bin/env python3
"""The cache (--cache-dir): cold against warm runs, and after touching a file.

On each project, with a fresh cache directory: a cold run, a warm run (the
same command again), then a run after one source file of the program was
changed (a comment line appended; the file is restored afterwards), each
`crace ENGINE --stats --format=json -p DIR --cache-dir=TMP`. Writes
bench/results/cache.md: the wall time, the time compiling the database's
units (`database_compile_seconds`), the front end's own time
(`frontend_seconds`), the units reused and compiled and whether the
analysis result was reused (the statistics `cache_*`), and whether the
report (JSON without its stats), stderr and exit code are those of the
cold run.

  python3 bench/cache.py --crace build/tools/crace/crace \\
      --project memcached=/tmp/memcached:thread.c \\
      --project xz=/tmp/xz/build@xz:../src/liblzma/common/stream_encoder_mt.c
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(crace, engine, db, program, cache, out):
    cmd = [crace, "--engine=" + engine, "--stats", "--format=json", "-o", out,
           "-p", db, "--cache-dir=" + cache] + (["--program=" + program] if program else [])
    start = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    wall = time.monotonic() - start
    with open(out) as f:
        report = json.load(f)
    stats = report.pop("stats", {})

    def total(key):
        return sum(v for k, v in stats.items() if k == key or k.endswith("." + key))
    return {"code": p.returncode, "wall": wall, "stderr": p.stderr,
            "compile": stats.get("database_compile_seconds", 0.0),
            "frontend": total("frontend_seconds"),
            "reused": int(stats.get("cache_units_reused", 0)),
            "compiled": int(stats.get("cache_units_compiled", 0)),
            "result": int(total("cache_result_reused")),
            "programs": max(1, len(report.get("programs", []))),
            "report": json.dumps(report, sort_keys=True)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crace", default=os.path.join(HERE, "..", "build", "tools", "crace", "crace"))
    ap.add_argument("--project", action="append", required=True,
                    help="NAME=BUILD_DIR[@PROGRAM]:FILE (a directory with "
                    "compile_commands.json; PROGRAM: --program; FILE, relative to "
                    "BUILD_DIR: the source file touched)")
    ap.add_argument("--engine", default="lockset")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "cache.md"))
    args = ap.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.project:
            name, rest = spec.split("=", 1)
            rest, _, touch = rest.partition(":")
            db, _, program = rest.partition("@")
            touch = os.path.normpath(os.path.join(db, touch))
            with open(os.path.join(db, "compile_commands.json")) as f:
                units = len(json.load(f))
            cache = os.path.join(tmp, name + "-cache")
            results = {}
            for step in ("cold", "warm", "touched"):
                original = None
                if step == "touched":
                    with open(touch) as f:
                        original = f.read()
                    with open(touch, "a") as f:
                        f.write("/* touched by bench/cache.py */\n")
                try:
                    res = run(args.crace, args.engine, db, program, cache,
                              os.path.join(tmp, f"{name}-{step}.json"))
                finally:
                    if original is not None:
                        with open(touch, "w") as f:
                            f.write(original)
                results[step] = res
                print(f"{name} {step}: {res['wall']:.1f} s wall, "
                      f"{res['reused']} units reused, {res['compiled']} compiled, "
                      f"result reused {res['result']}, exit {res['code']}",
                      file=sys.stderr)
            ref = results["cold"]
            for step, res in results.items():
                same = (res["report"] == ref["report"] and res["code"] == ref["code"]
                        and res["stderr"] == ref["stderr"])
                rows.append((name, units, step, res, same,
                             os.path.relpath(touch, db) if step == "touched" else ""))

    cmdline = "python3 bench/cache.py " + " ".join(
        f"--project {p}" for p in args.project) + f" --engine {args.engine}"
    version = subprocess.run([args.crace, "--version"], capture_output=True,
                             text=True).stdout.strip().replace("\n", " ")
    lines = [
        "# The cache: cold and warm runs, and after touching one file",
        "",
        f"Generated by `{cmdline}` on {datetime.date.today()}, "
        f"machine with {os.cpu_count()} hardware threads, crace `{version}`.",
        "",
        f"Each run: `crace --engine={args.engine} --stats --format=json -p BUILD_DIR "
        "--cache-dir=TMP` (`--program=P` for NAME=DIR@P), one after the other on a "
        "fresh cache directory: `cold` (empty cache), `warm` (the same command "
        "again), `touched` (a comment line appended to FILE, then restored).",
        "`compile s` is `database_compile_seconds` (every unit of the database),",
        "`front end s` the programs' `frontend_seconds` (linking, models, cleanup),",
        "`wall s` the whole run; `units reused`/`compiled` and `result reused`",
        "are the statistics `cache_units_reused`, `cache_units_compiled` and",
        "`cache_result_reused` (programs whose analysis was reused, of those",
        "analysed). `identical`: the report (JSON without stats), stderr and",
        "exit code equal to the cold run's.",
        "",
        "| project | units | run | wall s | compile s | front end s | units reused | units compiled | result reused | identical | exit |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, units, step, r, same, touched in rows:
        label = f"{step} ({touched})" if touched else step
        lines.append(f"| {name} | {units} | {label} | {r['wall']:.1f} | {r['compile']:.1f} | "
                     f"{r['frontend']:.1f} | {r['reused']} | {r['compiled']} | "
                     f"{r['result']} of {r['programs']} | {'yes' if same else 'NO'} | {r['code']} |")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
