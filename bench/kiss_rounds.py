#!/usr/bin/env python3
"""KISS vs K-round (Lal-Reps) sequentialisation on SV-COMP data-race tasks.

Issue 5, item 6: runs `crace --engine=kiss` on each selected task with the
default (KISS's balanced executions) and with `--rounds=K` for each K of
`--rounds` (default 2,3), side by side in one run, and writes

  bench/results/kiss-rounds.csv  one row per (task, setting): label, answer,
                                 CPU seconds, reason
  bench/results/kiss-rounds.md   per task the answer and CPU s of every
                                 setting, and a summary: races found per
                                 setting (and by it only), wrong answers,
                                 unknown reasons, CPU time

Tasks, labels and the ILP32/LP64 data model come from svcomp.py's loader
(default ../shared/bench/svcomp/tasks.csv). Default selection: the tasks of
bench/ci_subset.txt (both labels: the racy ones measure what is found, the
race-free ones that nothing wrong is). Each run gets RLIMIT_CPU =
--cpu-limit (a run killed by it is TIMEOUT) and a wall-clock limit of 3x that
+ 10 s (crace's own --timeout just below it).

  python3 bench/kiss_rounds.py                       # ci subset, K = 2, 3
  python3 bench/kiss_rounds.py --filter 'pthread/' --rounds 2,3,4
"""
import argparse
import concurrent.futures
import csv
import datetime
import os
import platform
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svcomp  # noqa: E402

ROOT = svcomp.ROOT


def command(args, task, rounds):
    # The CPU limit is RLIMIT_CPU; crace's own --timeout is wall-clock time,
    # which on a loaded machine runs out long before the CPU time does, so
    # it is set to the runner's wall limit (a little below).
    timeout = max(1, int(3 * args.cpu_limit + 5))
    memlimit = max(64, int(args.mem_limit * 0.9))
    cmd = [args.crace, "--format=json", f"--data-model={task.data_model}", "--engine=kiss"]
    if rounds:
        cmd.append(f"--rounds={rounds}")
    cmd += [f"--timeout={timeout}", f"--memlimit={memlimit}", task.input_file]
    return cmd


def short_reason(reason):
    """A category for an UNKNOWN answer (for the summary)."""
    r = reason.lower()
    if "timeout" in r or "time limit" in r or "cancelled" in r:
        return "timeout"
    if "supports shared global variables only" in r:
        return "rounds: shared heap/stack/unknown memory"
    if "too large to copy" in r:
        return "rounds: shared state too large"
    if "no race in the executions kiss explores" in r:
        return "no race found (bounded)"
    if "no shared global variable is written" in r:
        return "no target"
    if "unwind" in r or "recursion" in r:
        return "bmc bound"
    if "unsupported" in r:
        return "bmc unsupported construct"
    return "other"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    svcomp.add_selection_args(ap)
    ap.set_defaults(subset=os.path.join(ROOT, "bench", "ci_subset.txt"))
    ap.add_argument("--crace", default=os.path.join(ROOT, "build", "tools", "crace", "crace"))
    ap.add_argument("--rounds", default="2,3", help="K values (default: %(default)s)")
    ap.add_argument("--cpu-limit", type=float, default=20.0)
    ap.add_argument("--mem-limit", type=float, default=3000.0)
    ap.add_argument("--name", default="kiss-rounds",
                    help="output file names <name>.csv/.md (default: %(default)s)")
    ap.add_argument("--render", action="store_true",
                    help="only rewrite the .md from the existing .csv")
    ap.add_argument("--labels", choices=["all", "false", "true"], default="all",
                    help="tasks by expected verdict (false = racy)")
    args = ap.parse_args(argv)
    tasks = svcomp.tasks_from_args(args)
    if args.labels != "all":
        want = args.labels == "true"
        tasks = [t for t in tasks if t.expected is want]
    ks = [int(k) for k in args.rounds.split(",") if k.strip()]
    settings = [0] + ks
    name = {0: "kiss"}
    name.update({k: f"rounds={k}" for k in ks})
    os.makedirs(args.out_dir, exist_ok=True)
    jobs = [(t, k) for t in tasks for k in settings]
    rows = {}

    def work(job):
        t, k = job
        res = svcomp.run_limited(command(args, t, k), args.cpu_limit,
                                 3 * args.cpu_limit + 10)
        answer, reason = svcomp.interpret(res, svcomp=False)
        if answer == "CRASH" and res.cpu_s >= args.cpu_limit:
            # SIGXCPU at the CPU limit, turned into an abort by LLVM's crash
            # handler (it prints a stack dump first).
            answer, reason = "TIMEOUT", "CPU-time limit (" + reason + ")"
        return t, k, answer, reason, res.cpu_s

    started = datetime.datetime.now()
    elapsed = None
    if args.render:
        with open(os.path.join(args.out_dir, args.name + ".csv"), newline="") as f:
            for r in csv.DictReader(f):
                k = 0 if r["setting"] == "kiss" else int(r["setting"].split("=")[1])
                if (r["answer"] == "CRASH" and float(r["cpu_s"]) >= args.cpu_limit):
                    r["answer"], r["reason"] = "TIMEOUT", "CPU-time limit (" + r["reason"] + ")"
                rows[(r["task"], k)] = r
        tasks = [t for t in tasks if all((t.name, k) in rows for k in settings)]
        jobs = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for n, (t, k, answer, reason, cpu) in enumerate(ex.map(work, jobs), 1):
            rows[(t.name, k)] = dict(task=t.name, expected=t.expected_str, setting=name[k],
                                     answer=answer,
                                     correct=svcomp.correctness(t.expected, answer),
                                     cpu_s=f"{cpu:.2f}", reason=reason)
            print(f"[{n}/{len(jobs)}] {t.name} {name[k]}: {answer} ({cpu:.1f} s)",
                  file=sys.stderr)
    if not args.render:
        elapsed = (datetime.datetime.now() - started).total_seconds()

    csv_path = os.path.join(args.out_dir, args.name + ".csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["task", "expected", "setting", "answer", "correct",
                                          "cpu_s", "reason"])
        w.writeheader()
        for t in tasks:
            for k in settings:
                w.writerow(rows[(t.name, k)])

    md = []
    md.append("# KISS vs K-round sequentialisation (`--rounds`) on SV-COMP data-race tasks\n")
    md.append(f"Generated by `python3 bench/kiss_rounds.py` on {started:%Y-%m-%d %H:%M} "
              f"({platform.node()}, {os.cpu_count()} CPUs, {args.jobs} jobs); "
              f"{len(tasks)} tasks ({'subset ' + os.path.relpath(args.subset, ROOT) if args.subset else 'all'}"
              f"{', filter ' + args.filter if args.filter else ''}, labels {args.labels}); "
              f"CPU limit {args.cpu_limit:g} s, memory {args.mem_limit:g} MB per run; "
              + (f"wall time of the whole run {elapsed:.0f} s. " if elapsed else "(re-rendered from the CSV). ")
              + f"crace: `{os.path.relpath(args.crace, ROOT)}`.\n")
    md.append("Answers: FALSE = race reported, TRUE = race-free (the kiss engine never "
              "answers TRUE), UNKNOWN. `correct` no = a wrong answer.\n")
    md.append("## Summary\n")
    md.append("| setting | FALSE (races found) | ... on racy tasks | found, not by the other side (kiss vs any --rounds) | "
              "wrong answers | UNKNOWN | TIMEOUT/ERROR/CRASH | CPU s total | CPU s median |")
    md.append("|---|---|---|---|---|---|---|---|---|")
    racy = [t for t in tasks if t.expected is False]
    for k in settings:
        rs = [rows[(t.name, k)] for t in tasks]
        found = {r["task"] for r in rs if r["answer"] == "FALSE"}
        # kiss: against every --rounds setting; --rounds=K: against kiss.
        others = set()
        for k2 in (ks if k == 0 else [0]):
            others |= {t.name for t in tasks if rows[(t.name, k2)]["answer"] == "FALSE"}
        cpus = sorted(float(r["cpu_s"]) for r in rs)
        med = cpus[len(cpus) // 2] if cpus else 0
        md.append(f"| {name[k]} | {len(found)} | {sum(1 for t in racy if t.name in found)} of "
                  f"{len(racy)} | {len(found - others)} | "
                  f"{sum(1 for r in rs if r['correct'] == 'no')} | "
                  f"{sum(1 for r in rs if r['answer'] == 'UNKNOWN')} | "
                  f"{sum(1 for r in rs if r['answer'] in ('TIMEOUT', 'ERROR', 'CRASH'))} | "
                  f"{sum(cpus):.1f} | {med:.2f} |")
    md.append("")
    md.append("UNKNOWN/TIMEOUT reasons per setting (categories):\n")
    for k in settings:
        c = Counter(short_reason(rows[(t.name, k)]["reason"]) if rows[(t.name, k)]["answer"] == "UNKNOWN"
                    else rows[(t.name, k)]["answer"]
                    for t in tasks if rows[(t.name, k)]["answer"] != "FALSE")
        md.append(f"- {name[k]}: " + ", ".join(f"{v} {n}" for n, v in c.most_common()))
    md.append("")
    md.append("## Per task\n")
    md.append("| task | label | " + " | ".join(f"{name[k]} answer | CPU s" for k in settings) + " |")
    md.append("|---|---|" + "---|---|" * len(settings))
    for t in tasks:
        cells = []
        for k in settings:
            r = rows[(t.name, k)]
            a = r["answer"] + (" (wrong)" if r["correct"] == "no" else "")
            cells += [a, r["cpu_s"]]
        md.append(f"| {t.name} | {t.expected_str} | " + " | ".join(cells) + " |")
    md.append("")
    with open(os.path.join(args.out_dir, args.name + ".md"), "w") as f:
        f.write("\n".join(md))
    print(f"wrote {csv_path} and {args.name}.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
