#!/usr/bin/env python3
"""Library functions crace has no model for, over real multithreaded programs.

Issue 14, item 3: runs `crace --engine=lockset --max-findings=1
--format=json FILE` on every C file of the real-world corpora

  ../shared/bench/realworld/goblint-bench/{pthread,race-synthetic}/*.c
  ../shared/bench/realworld/sctbench/benchmarks/**/*.c

and collects the distinct function names of the "call to unknown external
function 'NAME'" reasons (ProgramModel::checkSoundness reports each unknown
external once per program). Prints the count and a table (name, number of
programs calling it); `--md FILE` also writes it as Markdown.

Data model: the goblint-bench files are CIL-combined for 32-bit Linux
(`typedef unsigned int size_t;`), so every file is first run with
`--data-model=ILP32`; a file that does not compile that way (exit code 4)
is run again with LP64. Files that compile under neither are listed.

  python3 bench/unmodelled.py                      # table on stdout
  python3 bench/unmodelled.py --crace /work/main/build/tools/crace/crace
  python3 bench/unmodelled.py --md bench/results/unmodelled.md --label after
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "realworld"))
REASON = re.compile(r"call to unknown external function '([^']+)'")


def corpus_files(corpus):
    files = []
    for sub in ("pthread", "race-synthetic"):
        files += sorted(glob.glob(os.path.join(corpus, "goblint-bench", sub, "*.c")))
    files += sorted(glob.glob(os.path.join(corpus, "sctbench", "benchmarks", "**", "*.c"),
                              recursive=True))
    return files


MARKER = re.compile(r'^#\s*(?:line\s+)?\d+\s+"([^"]*)"', re.M)
SYSTEM = ("/usr/include/", "/usr/lib/", "/usr/local/include/", "/System/", "/Developer/")
# Libraries other than the C library (by their header's path).
THIRD_PARTY = ("zlib.h", "bzlib.h", "gdbm.h", "id3tag.h", "openssl/", "/fuse/",
               "umem.h", "blowfish.h")


def libc_symbols():
    """Functions the system's C library exports (empty when nm or the library
    is missing): a name without a header line marker is the library's when
    libc.so has it."""
    for lib in ("/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6"):
        if os.path.exists(lib):
            try:
                out = subprocess.run(["nm", "-D", "--defined-only", lib],
                                     capture_output=True, text=True).stdout
            except OSError:
                return set()
            return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.split()}
    return set()


def declared_in(name, path):
    """The header (line marker) in force where `name` is declared (else
    first named) in the file, or None when there is no marker before it."""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return None
    m = None
    if "$" in name or name.startswith("_"):
        m = re.search(r'__asm__?\s*\(\s*"%s"' % re.escape(name), text)
    if not m:
        m = re.search(r"^[ \t]*extern\b[^;{}\n]*\b%s\s*\(" % re.escape(name), text, re.M)
    if not m:
        m = re.search(r"\b%s\s*\(" % re.escape(name), text)
    if not m:
        return None
    markers = list(MARKER.finditer(text, 0, m.start()))
    return markers[-1].group(1) if markers else None


def kind_of(name, path, libc):
    """'libc' (the C/POSIX library), 'library' (another library) or
    'program' (a function of the program whose body the file lacks)."""
    h = declared_in(name, path)
    if h is not None and any(t in h for t in THIRD_PARTY):
        return "library", h
    if h is not None and (h.startswith(SYSTEM) or h.startswith("<")):
        return "libc", h
    if name in libc:
        return "libc", h or "-"
    return "program", h or "-"


def run_one(crace, path, timeout):
    """(names, data model, status) of one file."""
    status = "ok"
    for dm in ("ILP32", "LP64"):
        cmd = [crace, "--engine=lockset", "--max-findings=1", "--format=json",
               f"--data-model={dm}", f"--timeout={timeout}", path]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 10)
        except subprocess.TimeoutExpired:
            return set(), dm, "timeout"
        if p.returncode == 4:
            status = "compile error"
            continue
        try:
            report = json.loads(p.stdout)
        except json.JSONDecodeError:
            return set(), dm, f"no JSON (exit {p.returncode})"
        names = set()
        if any("time limit of" in r for r in report.get("reasons", [])):
            return set(), dm, "timeout"
        for r in report.get("reasons", []):
            m = REASON.search(r)
            if m:
                names.add(m.group(1))
        return names, dm, "ok"
    return set(), "-", status


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crace", default=os.path.join(ROOT, "build", "tools", "crace", "crace"))
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per run")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--md", help="write the table as Markdown to this file")
    ap.add_argument("--label", default="", help="heading of the Markdown table")
    args = ap.parse_args()

    files = corpus_files(args.corpus)
    users = defaultdict(list)
    problems = []
    models = defaultdict(int)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {ex.submit(run_one, args.crace, f, args.timeout): f for f in files}
        for fut in concurrent.futures.as_completed(futs):
            f = futs[fut]
            names, dm, status = fut.result()
            models[dm] += 1
            if status != "ok":
                problems.append((os.path.relpath(f, args.corpus), status))
            for n in names:
                users[n].append(os.path.relpath(f, args.corpus))

    rows = sorted(users.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    libc = libc_symbols()
    kinds = {n: kind_of(n, os.path.join(args.corpus, sorted(p)[0]), libc) for n, p in rows}
    count = defaultdict(int)
    for n in kinds:
        count[kinds[n][0]] += 1
    summary = (f"{len(rows)} distinct unmodelled functions: {count['libc']} of the C/POSIX "
               f"library, {count['library']} of other libraries, {count['program']} "
               f"of the programs themselves (declared in their own headers, body not "
               f"in the file)")
    print(f"{len(files)} programs ({', '.join(f'{k}: {v}' for k, v in sorted(models.items()))}); "
          + summary)
    for name, progs in rows:
        print(f"  {name:32} {len(progs):3}  {kinds[name][0]:8} {kinds[name][1]}")
    for f, s in sorted(problems):
        print(f"  not analysed: {f}: {s}")

    if args.md:
        lines = [f"### {args.label or 'unmodelled functions'}", "",
                 f"{len(files)} programs, **{summary}**.", ""]
        if rows:
            lines += ["| function | programs | kind | declared in | e.g. |",
                      "|---|---:|---|---|---|"]
            for name, progs in sorted(rows, key=lambda r: (kinds[r[0]][0], -len(r[1]), r[0])):
                lines.append(f"| `{name}` | {len(progs)} | {kinds[name][0]} | "
                             f"{kinds[name][1]} | {sorted(progs)[0]} |")
        if problems:
            lines += ["", "Not analysed:", ""]
            lines += [f"- {f}: {s}" for f, s in sorted(problems)]
        with open(args.md, "w") as out:
            out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
