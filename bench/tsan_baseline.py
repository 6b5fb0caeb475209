#!/usr/bin/env python3
"""Dynamic race detectors as a peer baseline on the SV-COMP NoDataRace tasks.

Each task is compiled natively with bench/tsan/svcomp_rt.c (the
__VERIFIER_* functions: seeded random nondet values, atomic sections as one
global recursive mutex, assumptions that exit quietly) and executed:

  tsan      clang-19 -fsanitize=thread -g -O1 -w, --runs times (default 10), one
            random seed per run (SVCOMP_SEED=1..R); a run that prints
            "WARNING: ThreadSanitizer: data race" makes the answer FALSE.
  helgrind  valgrind --tool=helgrind on a build without -fsanitize
            ("Possible data race"), --vg-runs times (default 1).
  drd       valgrind --tool=drd ("Conflicting load/store"), --vg-runs times.

A detector that saw no race answers UNKNOWN: testing cannot prove the absence
of races, so these tools never answer TRUE. A task that does not compile is an
ERROR. ThreadSanitizer does not support i386, so ILP32 tasks are compiled as
64-bit programs (LP64) for every tool; the summary says so.

Functions named __VERIFIER_atomic_* (executed atomically by SV-COMP
convention) get their bodies wrapped in the runtime's atomic section by a
small source rewrite into the build directory; the task files are not changed.

Outputs (in --out-dir, default bench/results/): tsan-baseline.csv (one row
per task and tool, appended as tasks finish; a restart resumes unless
--fresh) and tsan-baseline.md (per tool: races found on false tasks, false
alarms on true tasks, unknown, errors, time; per folder).

  python3 bench/tsan_baseline.py --filter '^(pthread|pthread-ext)/' --runs 3
  python3 bench/tsan_baseline.py --subset bench/ci_subset.txt --tools tsan
Needs clang-19 with its sanitizer runtime (Debian: libclang-rt-19-dev; gcc's
-fsanitize=thread is used if that is missing) and valgrind for helgrind/drd.
"""
import argparse
import concurrent.futures
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svcomp  # noqa: E402  (task loading, limits, results file, machine info)
from svcomp import Task  # noqa: E402

RUNTIME = os.path.join(svcomp.ROOT, "bench", "tsan", "svcomp_rt.c")
TOOLS = ("tsan", "helgrind", "drd")
# What each tool prints for a data race.
RACE_PATTERN = {
    "tsan": re.compile(r"WARNING: ThreadSanitizer: data race"),
    "helgrind": re.compile(r"Possible data race"),
    "drd": re.compile(r"Conflicting (load|store) by thread"),
}
COLUMNS = ["task", "folder", "expected", "tool", "answer", "correct", "runs", "racy_runs",
           "timeouts", "compile_s", "cpu_s", "wall_s", "peak_rss_mb", "reason"]
# gcc-compatible leniency, as crace's front end and compile_vs_lockset.py apply.
LENIENT = ["-Wno-error=implicit-function-declaration", "-Wno-error=int-conversion",
           "-Wno-error=incompatible-function-pointer-types", "-Wno-error=incompatible-pointer-types",
           "-Wno-error=return-type", "-Wno-error=implicit-int"]
# -gdwarf-4: the Valgrind of Debian 12 (3.19) cannot read clang-19's DWARF 5.
# -fgnu89-inline: tasks written for gcc use plain `inline` functions and expect
# an external definition (C99 inline would leave them undefined at -O1).
BUILD_FLAGS = ["-g", "-gdwarf-4", "-O1", "-w", "-fgnu89-inline"]
TSAN_OPTIONS = "report_thread_leaks=0:report_signal_unsafe=0:halt_on_error=0"
VALGRIND = ["valgrind", "--fair-sched=try", "--error-limit=no"]

# A definition `... __VERIFIER_atomic_NAME(params) {` (not begin/end, not a call).
ATOMIC_DEF = re.compile(r"^([^\n;=(]*\b__VERIFIER_atomic_(?!begin\b|end\b)\w+\s*\([^;{)]*\)\s*)\{",
                        re.MULTILINE)
ATOMIC_GUARD = ("{ __attribute__((cleanup(__svrt_atomic_leave))) int __svrt_guard "
                "= (__svrt_atomic_enter(), 0); (void)__svrt_guard;")
ATOMIC_PROTOS = "void __svrt_atomic_enter(void); void __svrt_atomic_leave(int *);\n"


def rewrite_atomic_functions(source: str) -> Tuple[str, int]:
    """Makes the bodies of __VERIFIER_atomic_* functions atomic sections.
    Returns the new source and the number of functions wrapped."""
    new, n = ATOMIC_DEF.subn(lambda m: m.group(1) + ATOMIC_GUARD, source)
    if n:
        new = ATOMIC_PROTOS + new  # a #line would be nicer; one extra line is harmless
    return new, n


def compiler_works(cc: List[str], flags: List[str], workdir: str) -> bool:
    """Whether cc can build and link a trivial program with these flags."""
    src = os.path.join(workdir, "probe.c")
    with open(src, "w", encoding="utf-8") as f:
        f.write("int main(void) { return 0; }\n")
    p = subprocess.run(cc + flags + [src, "-o", os.path.join(workdir, "probe")],
                       capture_output=True, text=True)
    return p.returncode == 0


class Builder:
    """Compiles tasks for one flavour ('tsan' or 'plain') with the runtime."""

    def __init__(self, flavour: str, cc: List[str], workdir: str):
        self.flavour, self.cc, self.workdir = flavour, cc, workdir
        self.flags = list(BUILD_FLAGS) + (["-fsanitize=thread"] if flavour == "tsan" else [])
        self.runtime = os.path.join(workdir, f"svcomp_rt.{flavour}.o")
        p = subprocess.run(self.cc + self.flags + ["-c", RUNTIME, "-o", self.runtime],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"error: cannot compile {RUNTIME}:\n{p.stderr}")

    def build(self, task: Task, source: str) -> Tuple[Optional[str], float, str]:
        """Compiles one (rewritten) task source; returns (exe or None, seconds, error)."""
        base = os.path.join(self.workdir, task.name[:-4].replace("/", "__"))
        exe = f"{base}.{self.flavour}"
        start = time.monotonic()
        lenient = LENIENT if "clang" in os.path.basename(self.cc[0]) else []
        p = subprocess.run(self.cc + self.flags + lenient + [source, self.runtime, "-o", exe,
                                                             "-lpthread", "-lm"],
                           capture_output=True, text=True)
        secs = time.monotonic() - start
        if p.returncode != 0:
            lines = [l for l in p.stderr.splitlines() if "linker command failed" not in l]
            errs = [l for l in lines if "error" in l or "undefined reference" in l] or lines[-1:]
            return None, secs, (errs[0] if errs else f"exit {p.returncode}")[:300]
        return exe, secs, ""


def run_tool(tool: str, exe: str, runs: int, args) -> dict:
    """Runs exe under one tool `runs` times; counts racy runs and timeouts."""
    racy = timeouts = 0
    cpu = wall = rss = 0.0
    statuses: Dict[str, int] = {}
    done = 0
    for i in range(runs):
        env = dict(os.environ, SVCOMP_SEED=str(args.seed + i), TSAN_OPTIONS=TSAN_OPTIONS)
        cmd = [exe] if tool == "tsan" else VALGRIND + [f"--tool={tool}", exe]
        res = svcomp.run_limited(cmd, args.run_timeout, 1.5 * args.run_timeout + 5, env=env,
                                 cwd=os.path.dirname(exe))
        done += 1
        cpu += res.cpu_s
        wall += res.wall_s
        rss = max(rss, res.peak_rss_mb)
        found = bool(RACE_PATTERN[tool].search(res.stderr))
        racy += found
        if res.wall_killed or res.cpu_exceeded:
            timeouts += 1
            status = "timeout"
        elif res.signal is not None:
            status = f"signal {res.signal}"
        elif "[svcomp_rt] assertion failed" in res.stderr or "[svcomp_rt] reach_error" in res.stderr:
            status = "assertion failed"
        else:
            status = f"exit {res.exit_code}"
        statuses[status] = statuses.get(status, 0) + 1
        if found and args.stop_at_first:
            break
    return {"runs": done, "racy_runs": racy, "timeouts": timeouts, "cpu_s": cpu, "wall_s": wall,
            "peak_rss_mb": rss, "statuses": statuses}


def check_task(task: Task, tools: List[str], builders: Dict[str, Builder], args) -> List[dict]:
    """Compiles one task (per flavour needed) and runs every tool on it."""
    with open(task.input_file, encoding="utf-8", errors="replace") as f:
        source, wrapped = rewrite_atomic_functions(f.read())
    src = os.path.join(args.workdir, task.name[:-4].replace("/", "__") + ".i")
    with open(src, "w", encoding="utf-8") as f:
        f.write(source)
    notes = []
    if task.data_model == "ILP32":
        notes.append("ILP32 task compiled as LP64")
    if wrapped:
        notes.append(f"{wrapped} __VERIFIER_atomic_ function(s) wrapped")
    exes = {}
    rows = []
    for tool in tools:
        flavour = "tsan" if tool == "tsan" else "plain"
        if flavour not in exes:
            exes[flavour] = builders[flavour].build(task, src)
        exe, compile_s, error = exes[flavour]
        row = {"task": task.name, "folder": task.folder, "expected": task.expected_str,
               "tool": tool, "compile_s": f"{compile_s:.2f}", "runs": 0, "racy_runs": 0,
               "timeouts": 0, "cpu_s": "0.00", "wall_s": "0.00", "peak_rss_mb": "0.0"}
        if exe is None:
            row.update(answer="ERROR", correct="-", reason="; ".join(notes + ["compile: " + error]))
        else:
            r = run_tool(tool, exe, args.runs if tool == "tsan" else args.vg_runs, args)
            answer = "FALSE" if r["racy_runs"] else "UNKNOWN"
            status = ", ".join(f"{n}x {s}" for s, n in sorted(r["statuses"].items()))
            row.update(answer=answer, correct=svcomp.correctness(task.expected, answer),
                       runs=r["runs"], racy_runs=r["racy_runs"], timeouts=r["timeouts"],
                       cpu_s=f"{r['cpu_s']:.2f}", wall_s=f"{r['wall_s']:.2f}",
                       peak_rss_mb=f"{r['peak_rss_mb']:.1f}",
                       reason="; ".join(notes + [f"runs: {status}"]))
        rows.append(row)
    for flavour, (exe, _, _) in exes.items():
        if exe and os.path.exists(exe):
            os.remove(exe)
    os.remove(src)
    return rows


def write_summary(path: str, tasks: List[Task], rows: Dict[Tuple[str, str], dict], tools: List[str],
                  args, compiler: str):
    """Per tool and per folder: races found, false alarms, unknown, errors, time."""
    n_false = sum(t.expected is False for t in tasks)
    n_true = sum(t.expected is True for t in tasks)
    ilp32 = sum(t.data_model == "ILP32" for t in tasks)
    out = ["# Dynamic race detectors on SV-COMP NoDataRace (peer baseline)", "",
           f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
           f"- machine: {svcomp.machine_description()}",
           f"- tasks: {len(tasks)} ({n_false} with a race, {n_true} race-free) from "
           f"`{os.path.relpath(args.tasks, svcomp.ROOT)}`"
           + (f", subset `{os.path.relpath(args.subset, svcomp.ROOT)}`" if args.subset else "")
           + (f", filter `{args.filter}`" if args.filter else ""),
           f"- tsan: `{compiler} -fsanitize=thread {' '.join(BUILD_FLAGS)}`, {args.runs} run(s) per task"
           f"{' (stop at the first race)' if args.stop_at_first else ''}; "
           f"helgrind/drd: valgrind {valgrind_version()}, build without -fsanitize, "
           f"{args.vg_runs} run(s) per task; per-run limit {args.run_timeout:g} s CPU",
           f"- **{ilp32} of the {len(tasks)} tasks are ILP32 (i386); ThreadSanitizer does not support "
           "i386, so every task was compiled as a 64-bit (LP64) program for every tool.**",
           "- nondet values: seeded random (SVCOMP_SEED = run number), mostly 0..15; "
           "atomic sections: one recursive mutex; an assumption that fails ends the run quietly.",
           "- FALSE = a race report in at least one run. A dynamic tool cannot prove absence, so "
           "it never answers TRUE; score: +1 per race found, -16 per false alarm.",
           "",
           "| tool | races found (FALSE on false tasks) | false alarms (FALSE on true tasks) "
           "| unknown | errors (compile) | score | racy runs / runs on found races "
           "| runs timed out | CPU s | wall s |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for tool in tools:
        found = alarms = unknown = errors = timeouts = 0
        racy_runs = runs_on_found = 0
        cpu = wall = 0.0
        for t in tasks:
            r = rows.get((t.name, tool))
            if r is None:
                continue
            cpu += float(r["cpu_s"]) + float(r["compile_s"])
            wall += float(r["wall_s"])
            timeouts += int(r["timeouts"])
            if r["answer"] == "ERROR":
                errors += 1
            elif r["answer"] == "FALSE" and r["expected"] == "false":
                found += 1
                racy_runs += int(r["racy_runs"])
                runs_on_found += int(r["runs"])
            elif r["answer"] == "FALSE" and r["expected"] == "true":
                alarms += 1
            else:
                unknown += 1
        out.append(f"| {tool} | {found} / {n_false} | {alarms} / {n_true} | {unknown} | {errors} "
                   f"| {found - 16 * alarms} | {racy_runs} / {runs_on_found} | {timeouts} "
                   f"| {cpu:.1f} | {wall:.1f} |")
    out += ["", "## Per folder: races found / false tasks, false alarms / true tasks", "",
            "| folder | " + " | ".join(tools) + " |", "|---" * (len(tools) + 1) + "|"]
    for folder in sorted({t.folder for t in tasks}):
        ft = [t for t in tasks if t.folder == folder]
        nf = sum(t.expected is False for t in ft)
        nt = sum(t.expected is True for t in ft)
        cells = []
        for tool in tools:
            rs = [rows.get((t.name, tool)) for t in ft]
            rs = [r for r in rs if r]
            f_ = sum(r["answer"] == "FALSE" and r["expected"] == "false" for r in rs)
            a_ = sum(r["answer"] == "FALSE" and r["expected"] == "true" for r in rs)
            e_ = sum(r["answer"] == "ERROR" for r in rs)
            cells.append(f"{f_}/{nf} found, {a_}/{nt} false alarms" + (f", {e_} errors" if e_ else ""))
        out.append(f"| {folder} | " + " | ".join(cells) + " |")
    alarms = [r for r in rows.values() if r["answer"] == "FALSE" and r["expected"] == "true"
              and r["tool"] in tools and any(t.name == r["task"] for t in tasks)]
    if alarms:
        out += ["", "## False alarms", ""]
        out += [f"- {r['tool']}: `{r['task']}` ({r['racy_runs']}/{r['runs']} runs)"
                for r in sorted(alarms, key=lambda r: (r["tool"], r["task"]))]
    errors = [r for r in rows.values() if r["answer"] == "ERROR" and r["tool"] in tools
              and any(t.name == r["task"] for t in tasks)]
    if errors:
        out += ["", "## Errors", ""]
        out += [f"- {r['tool']}: `{r['task']}`: {r['reason']}"
                for r in sorted(errors, key=lambda r: (r["tool"], r["task"]))]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def valgrind_version() -> str:
    try:
        return subprocess.run(["valgrind", "--version"], capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return "(not installed)"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="See bench/README.md.")
    svcomp.add_selection_args(ap)
    ap.add_argument("--tools", default="tsan,helgrind,drd",
                    help="comma list of tsan, helgrind, drd (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=10,
                    help="ThreadSanitizer runs per task, one seed each (default: %(default)s)")
    ap.add_argument("--vg-runs", type=int, default=1,
                    help="Helgrind/DRD runs per task (default: %(default)s)")
    ap.add_argument("--run-timeout", type=float, default=10.0,
                    help="CPU seconds per run (wall: 1.5x + 5 s) (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first run (default: %(default)s)")
    ap.add_argument("--stop-at-first", action="store_true",
                    help="stop running a task under a tool once a race is reported")
    ap.add_argument("--cc", default="clang-19", help="C compiler (default: %(default)s)")
    args = ap.parse_args(argv)

    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    bad = [t for t in tools if t not in TOOLS]
    if bad:
        ap.error(f"unknown tool(s): {', '.join(bad)}")
    if any(t != "tsan" for t in tools) and not shutil.which("valgrind"):
        print("note: valgrind is not installed; helgrind and drd are skipped", file=sys.stderr)
        tools = [t for t in tools if t == "tsan"]
    if not tools:
        sys.exit("error: no tool to run")
    tasks = svcomp.tasks_from_args(args)
    os.makedirs(args.out_dir, exist_ok=True)

    args.workdir = tempfile.mkdtemp(prefix="crace-tsan-")
    try:
        cc = [args.cc]
        if "tsan" in tools and not compiler_works(cc, ["-fsanitize=thread"], args.workdir):
            if compiler_works(["gcc"], ["-fsanitize=thread"], args.workdir):
                print(f"note: {args.cc} cannot link -fsanitize=thread (Debian: install "
                      "libclang-rt-19-dev); using gcc", file=sys.stderr)
                cc = ["gcc"]
            else:
                sys.exit(f"error: {args.cc} cannot link -fsanitize=thread "
                         "(Debian: apt-get install libclang-rt-19-dev)")
        builders = {}
        if "tsan" in tools:
            builders["tsan"] = Builder("tsan", cc, args.workdir)
        if any(t != "tsan" for t in tools):
            builders["plain"] = Builder("plain", cc, args.workdir)

        meta = {"tools": tools, "runs": args.runs, "vg_runs": args.vg_runs, "cc": cc[0],
                "run_timeout": args.run_timeout, "seed": args.seed,
                "stop_at_first": args.stop_at_first, "flags": BUILD_FLAGS,
                "runtime_sha256": svcomp.file_digest(RUNTIME)}
        results = svcomp.ResultFile(os.path.join(args.out_dir, "tsan-baseline.csv"), meta,
                                    args.fresh, COLUMNS, key=lambda r: (r["task"], r["tool"]))
        todo = [t for t in tasks if any((t.name, tool) not in results.rows for tool in tools)]
        if len(todo) < len(tasks):
            print(f"resuming: {len(tasks) - len(todo)} task(s) already done (--fresh to redo)",
                  file=sys.stderr)
        lock = threading.Lock()
        done = [0]

        def work(task: Task):
            missing = [tool for tool in tools if (task.name, tool) not in results.rows]
            for row in check_task(task, missing, builders, args):
                results.add(row)
                with lock:
                    print(f"[{done[0] + 1}/{len(todo)}] {row['tool']} {task.name} "
                          f"(expected {task.expected_str}) {row['answer']} "
                          f"{row['racy_runs']}/{row['runs']} racy {row['cpu_s']}s",
                          file=sys.stderr, flush=True)
            with lock:
                done[0] += 1

        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for f in concurrent.futures.as_completed([pool.submit(work, t) for t in todo]):
                f.result()
        md = os.path.join(args.out_dir, "tsan-baseline.md")
        write_summary(md, tasks, results.rows, tools, args, cc[0])
        print(f"wall time {time.monotonic() - start:.1f} s -> {os.path.relpath(md)}",
              file=sys.stderr)
    finally:
        shutil.rmtree(args.workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
