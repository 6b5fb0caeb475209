#!/usr/bin/env python3
"""kiss vs explore on SV-COMP NoDataRace tasks, side by side in one run.

Runs `crace --engine=kiss` and `crace --engine=explore` on each task, one after
the other (the engine that goes first alternates from task to task, so neither
always meets a cold or a warm file cache), under the same limits: RLIMIT_CPU on
the child (`--cpu-limit`, crace's own `--timeout` a little below it), crace's
`--memlimit` a little below `--mem-limit`, and a wall-clock limit of 1.5 x CPU
limit + 10 s. CPU time and peak RSS come from the child's rusage (os.wait4).
Tasks, their .yml verdicts and data models (ILP32 / LP64) are found the way
bench/svcomp.py finds them; its helpers are imported.

Answers: crace's JSON verdict race -> FALSE, race-free -> TRUE, anything else
-> UNKNOWN (the kiss engine never answers TRUE: KISS covers only balanced
executions). Correct / incorrect is against the task's expected verdict.

The kiss run's JSON `stats` give the cost per target (the KISS paper's "per
field" check): `kiss_query_seconds.<global>` is one bmc query on the shared
encoding (`kiss_encode_seconds`). The paper's budget was 20 min and 800 MB per
field; the summary compares the largest query time with it, and the peak RSS
of the whole run (an upper bound on any one query's memory) with 800 MB.

Task selection: default bench/ci_subset.txt (the CI gate's 87 tasks from all 18
folders, fixed, both verdicts, small and medium sizes; ~10 min on 2 cores with
the default limits); `--tasks FILE` a subset file of task yml relpaths (one a
line, `#` comments), `--all` every task, `--filter REGEX` on top.

Output: `--out` (default bench/results/kiss-vs-explore) .csv (one row per task,
both engines) and .md (command, setting, summary, per-task table).

  python3 bench/kiss_vs_explore.py --crace build/tools/crace/crace
  python3 bench/kiss_vs_explore.py --all --cpu-limit 60 --jobs 2
"""
import argparse
import concurrent.futures
import csv
import datetime
import json
import os
import shlex
import sys
import threading
import time
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svcomp  # noqa: E402  (bench/svcomp.py: tasks, limits, answers)

ROOT = svcomp.ROOT
DEFAULT_SUBSET = os.path.join(ROOT, "bench", "ci_subset.txt")
DEFAULT_OUT = os.path.join(ROOT, "bench", "results", "kiss-vs-explore")
ENGINES = ("kiss", "explore")
PAPER_SECONDS, PAPER_MB = 20 * 60, 800  # KISS (PLDI 2004): per field
# kiss_query_status.<target>: 0 no race found, 1 race, 2 unknown (bound,
# over-approximation, cancelled by the time limit).
QUERY_STATUS = {0: "none", 1: "race", 2: "unknown"}

COLUMNS = ["task", "folder", "expected", "loc"]
for _e in ENGINES:
    COLUMNS += [f"{_e}_answer", f"{_e}_correct", f"{_e}_cpu_s", f"{_e}_wall_s",
                f"{_e}_peak_mb", f"{_e}_reason"]
COLUMNS += ["kiss_targets", "kiss_queries", "kiss_encode_s", "kiss_max_query_s",
            "kiss_max_query_target", "kiss_query_s"]


def kiss_stats(stdout: str) -> dict:
    """Per-target query times and the encoding time from kiss's JSON stats."""
    try:
        stats = json.loads(stdout).get("stats") or {}
    except ValueError:
        return {}
    per = {k[len("kiss_query_seconds."):]: float(v) for k, v in stats.items()
           if k.startswith("kiss_query_seconds.")}
    status = {k[len("kiss_query_status."):]: QUERY_STATUS.get(int(v), "?")
              for k, v in stats.items() if k.startswith("kiss_query_status.")}
    return {"targets": stats.get("kiss_targets"), "encode": stats.get("kiss_encode_seconds"),
            "per_target": per, "status": status}


def run_task(args, task, order):
    row = {"task": task.name, "folder": task.folder, "expected": task.expected_str,
           "loc": task.loc}
    for engine in order:
        res = svcomp.run_limited(svcomp.crace_command(args, task, engine, False),
                                 args.cpu_limit, 1.5 * args.cpu_limit + 10)
        answer, reason = svcomp.interpret(res, False)
        row.update({f"{engine}_answer": answer,
                    f"{engine}_correct": svcomp.correctness(task.expected, answer),
                    f"{engine}_cpu_s": f"{res.cpu_s:.2f}", f"{engine}_wall_s": f"{res.wall_s:.2f}",
                    f"{engine}_peak_mb": f"{res.peak_rss_mb:.1f}",
                    f"{engine}_reason": reason.replace("\n", " ")})
        if engine == "kiss":
            st = kiss_stats(res.stdout)
            per = st.get("per_target") or {}
            worst = max(per.items(), key=lambda kv: kv[1]) if per else ("", None)
            row.update({"kiss_targets": "" if st.get("targets") is None else int(st["targets"]),
                        "kiss_queries": len(per),
                        "kiss_encode_s": "" if st.get("encode") is None else f"{st['encode']:.3f}",
                        "kiss_max_query_s": "" if worst[1] is None else f"{worst[1]:.3f}",
                        "kiss_max_query_target": worst[0],
                        "kiss_query_s": ";".join(
                            f"{k}={v:.3f}:{(st.get('status') or {}).get(k, '?')}"
                            for k, v in per.items())})
    return row


def fnum(row, key):
    try:
        return float(row.get(key) or 0)
    except ValueError:
        return 0.0


def summarize(rows, args, command, wall):
    out = [f"# kiss vs explore on SV-COMP NoDataRace", "",
           "```", command, "```", "",
           f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
           f"- machine: {svcomp.machine_description()}",
           f"- crace: `{os.path.relpath(args.crace, ROOT)}` (sha256 "
           f"{svcomp.file_digest(args.crace)[:12]}), `--format=json`, defaults otherwise "
           "(kiss: ts size 0, unwind 8; explore: PDP on, stop at the first race)",
           f"- tasks: {len(rows)} ({args.selection})",
           f"- limits per run: {args.cpu_limit:g} s CPU, {args.mem_limit} MB; the two engines "
           f"run one after the other on each task (first engine alternating), {args.jobs} "
           f"tasks at a time; wall time of the whole run {wall:.0f} s",
           "- answers: FALSE = race reported (confirmed), TRUE = race-free proved, "
           "UNKNOWN otherwise (TIMEOUT: killed at the limit); kiss never answers TRUE",
           "- note: crace's own `--timeout` (CPU limit minus 2 s) is wall-clock, so on a loaded "
           "machine a run may stop (UNKNOWN, \"time limit ... reached\") before it used its CPU "
           "limit; the CPU columns are what the run used", ""]
    head = ["engine", "tasks", "solved", "correct TRUE", "correct FALSE", "incorrect",
            "unknown", "timeouts", "errors", "total CPU s", "max CPU s", "max RSS MB"]
    out += ["## Summary", "", "| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for e in ENGINES:
        ans = [r[f"{e}_answer"] for r in rows]
        corr = [r[f"{e}_correct"] for r in rows]
        ct = sum(1 for a, c in zip(ans, corr) if a == "TRUE" and c == "yes")
        cf = sum(1 for a, c in zip(ans, corr) if a == "FALSE" and c == "yes")
        wrong = sum(1 for c in corr if c == "no")
        solved = sum(1 for a in ans if a in ("TRUE", "FALSE"))
        out.append("| " + " | ".join(str(x) for x in [
            e, len(rows), solved, ct, cf, wrong, ans.count("UNKNOWN"), ans.count("TIMEOUT"),
            ans.count("ERROR") + ans.count("CRASH"),
            f"{sum(fnum(r, e + '_cpu_s') for r in rows):.1f}",
            f"{max((fnum(r, e + '_cpu_s') for r in rows), default=0):.1f}",
            f"{max((fnum(r, e + '_peak_mb') for r in rows), default=0):.0f}"]) + " |")
    falses = [r for r in rows if r["expected"] == "false"]
    both = sum(1 for r in falses if r["kiss_answer"] == "FALSE" and r["explore_answer"] == "FALSE")
    only_k = [r["task"] for r in falses if r["kiss_answer"] == "FALSE" and r["explore_answer"] != "FALSE"]
    only_e = [r["task"] for r in falses if r["explore_answer"] == "FALSE" and r["kiss_answer"] != "FALSE"]
    out += ["", f"Of the {len(falses)} racy tasks (expected FALSE): both find the race on {both}, "
            f"only kiss on {len(only_k)}, only explore on {len(only_e)}."]
    if only_k:
        out.append("Only kiss: " + ", ".join(f"`{t}`" for t in only_k) + ".")
    if only_e:
        out.append("Only explore: " + ", ".join(f"`{t}`" for t in only_e) + ".")
    bad = [(e, r) for r in rows for e in ENGINES if r[f"{e}_correct"] == "no"
           or r[f"{e}_answer"] in ("ERROR", "CRASH")]
    if bad:
        out += ["", "**Incorrect answers, errors, crashes:**", ""]
        out += [f"- {e} on `{r['task']}`: expected {r['expected']}, answer {r[e + '_answer']}"
                + (f" — {r[e + '_reason']}" if r[e + "_reason"] else "") for e, r in bad]
    # Per-target (per-field) cost of kiss.
    queries = []  # (task, target, seconds, status)
    for r in rows:
        for kv in r["kiss_query_s"].split(";"):
            if kv:
                t, rest = kv.rsplit("=", 1)
                secs, _, status = rest.partition(":")
                queries.append((r["task"], t, float(secs), status or "?"))
    kiss_cpu_over = [r["task"] for r in rows if fnum(r, "kiss_cpu_s") > PAPER_SECONDS]
    kiss_mb_over = [r["task"] for r in rows if fnum(r, "kiss_peak_mb") > PAPER_MB]
    out += ["", "## kiss: cost per target (the paper's per-field budget: "
            f"{PAPER_SECONDS // 60} min, {PAPER_MB} MB)", ""]
    answered = [q for q in queries if q[3] in ("none", "race")]
    unknown = [q for q in queries if q[3] not in ("none", "race")]
    ntasks = sum(1 for r in rows if r["kiss_queries"] not in ("", 0, "0"))
    out += [f"- {len(queries)} target queries on {ntasks} tasks: {len(answered)} answered "
            f"({sum(1 for q in answered if q[3] == 'race')} race, "
            f"{sum(1 for q in answered if q[3] == 'none')} no race in the bounded balanced "
            f"executions), {len(unknown)} unknown (bound reached, over-approximation, or "
            "cancelled by the time limit). kiss stops at the first racy target (as in "
            "SV-COMP mode); a run killed before it reports (RLIMIT, wall limit) has no "
            "stats. Times are wall seconds of the bmc query on the task's one shared "
            "encoding."]
    for label, qq in (("answered", answered), ("unknown", unknown)):
        if not qq:
            continue
        worst = max(qq, key=lambda q: q[2])
        qs = sorted(q[2] for q in qq)
        out.append(f"- {label} query time: median {qs[len(qs) // 2]:.3f} s, 90th percentile "
                   f"{qs[min(len(qs) - 1, int(0.9 * len(qs)))]:.3f} s, max {worst[2]:.3f} s "
                   f"(`{worst[1]}` in `{worst[0]}`) — "
                   + ("within" if worst[2] <= PAPER_SECONDS else "over")
                   + f" the paper's {PAPER_SECONDS} s per field")
    if rows:
        out.append(f"- encoding (shared by a task's targets): max "
                   f"{max(fnum(r, 'kiss_encode_s') for r in rows):.3f} s")
    out += [f"- peak RSS of a whole kiss run (an upper bound on one query's memory): max "
            f"{max((fnum(r, 'kiss_peak_mb') for r in rows), default=0):.0f} MB; "
            f"{len(kiss_mb_over)} run(s) over {PAPER_MB} MB",
            f"- kiss runs over {PAPER_SECONDS} s CPU: {len(kiss_cpu_over)} "
            f"(the per-run limit here is {args.cpu_limit:g} s)"]
    reasons = {}
    for r in rows:
        if r["kiss_answer"] in ("UNKNOWN", "TIMEOUT"):
            key = (r["kiss_reason"] or r["kiss_answer"]).split(";")[0][:150]
            reasons[key] = reasons.get(key, 0) + 1
    if reasons:
        out += ["", "## Why kiss answered unknown (first reason, count)", ""]
        out += [f"- {n} × {k}" for k, n in sorted(reasons.items(), key=lambda kv: -kv[1])]
    out += ["", "## Per task", "",
            "| task | expected | kiss | CPU s | MB | max query s | explore | CPU s | MB |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        def ans(e):
            a = r[f"{e}_answer"]
            return a + (" **wrong**" if r[f"{e}_correct"] == "no" else "")
        out.append(f"| {r['task']} | {r['expected']} | {ans('kiss')} | {r['kiss_cpu_s']} | "
                   f"{r['kiss_peak_mb']} | {r['kiss_max_query_s'] or '-'} | {ans('explore')} | "
                   f"{r['explore_cpu_s']} | {r['explore_peak_mb']} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="See bench/README.md.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sel = ap.add_mutually_exclusive_group()
    sel.add_argument("--tasks", help="subset file of task yml relpaths (default: "
                     "bench/ci_subset.txt)")
    sel.add_argument("--all", action="store_true", help="every no-data-race task")
    ap.add_argument("--filter", help="only tasks whose yml relpath matches this regex")
    ap.add_argument("--task-source", default=svcomp.DEFAULT_TASKS,
                    help="tasks.csv or directory of task .yml files (default: %(default)s)")
    ap.add_argument("--crace", default=svcomp.DEFAULT_CRACE, help="crace binary (default: %(default)s)")
    ap.add_argument("--cpu-limit", type=float, default=20.0,
                    help="CPU seconds per engine run (default: %(default)s)")
    ap.add_argument("--mem-limit", type=int, default=4096,
                    help="memory per engine run in MB (default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=2, help="tasks in parallel (default: %(default)s)")
    ap.add_argument("--out", default=DEFAULT_OUT,
                    help="output path without extension (default: %(default)s)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    if not os.access(args.crace, os.X_OK):
        sys.exit(f"error: no crace binary at {args.crace}")
    args.crace = os.path.abspath(args.crace)
    if not os.path.exists(args.task_source):
        sys.exit(f"error: no task source at {args.task_source}")
    subset = None if args.all else os.path.abspath(args.tasks or DEFAULT_SUBSET)
    tasks = svcomp.select_tasks(svcomp.load_tasks(args.task_source), subset, args.filter)
    if not tasks:
        sys.exit("error: no task selected")
    args.selection = ("all tasks" if args.all else f"subset `{os.path.relpath(subset, ROOT)}`") \
        + (f", filter `{args.filter}`" if args.filter else "") \
        + f", from `{os.path.relpath(os.path.abspath(args.task_source), ROOT)}`"
    # crace_command() reads these.
    cmd_args = SimpleNamespace(crace=args.crace, cpu_limit=args.cpu_limit,
                               mem_limit=args.mem_limit, witness_dir=None)
    command = "python3 " + " ".join(shlex.quote(a) for a in
                                    [os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)]
                                    + (sys.argv[1:] if argv is None else argv))

    rows, lock, done = {}, threading.Lock(), [0]
    start = time.monotonic()

    def work(i, task):
        order = ENGINES if i % 2 == 0 else tuple(reversed(ENGINES))
        row = run_task(cmd_args, task, order)
        with lock:
            rows[task.name] = row
            done[0] += 1
            if not args.quiet:
                print(f"[{done[0]}/{len(tasks)}] {task.name} ({task.expected_str}): "
                      f"kiss {row['kiss_answer']} {row['kiss_cpu_s']}s, "
                      f"explore {row['explore_answer']} {row['explore_cpu_s']}s"
                      + (" WRONG" if "no" in (row["kiss_correct"], row["explore_correct"]) else ""),
                      file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for f in concurrent.futures.as_completed(
                [pool.submit(work, i, t) for i, t in enumerate(tasks)]):
            f.result()
    wall = time.monotonic() - start
    ordered = [rows[t.name] for t in tasks]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out + ".csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(ordered)
    md = summarize(ordered, args, command, wall)
    with open(args.out + ".md", "w", encoding="utf-8") as f:
        f.write(md)
    print(md.split("## kiss:")[0].split("## Summary")[1].strip(), file=sys.stderr)
    print(f"-> {os.path.relpath(args.out, ROOT)}.{{csv,md}} ({wall:.0f} s wall)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
