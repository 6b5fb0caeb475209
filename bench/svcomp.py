#!/usr/bin/env python3
"""SV-COMP NoDataRace bench runner for crace.

Runs crace on SV-COMP no-data-race tasks, one engine after another (or several
at once), with per-task CPU-time and memory limits, and scores the answers the
way SV-COMP does.

Tasks come from a tasks.csv (default ../shared/bench/svcomp/tasks.csv, relative
to the repository root) or from a directory searched recursively for task
`.yml` files whose properties include no-data-race.prp (a full sv-benchmarks
checkout works). `--subset FILE` (task yml relpaths, one a line, `#` comments)
and `--filter REGEX` restrict the selection.

Limits: `--cpu-limit` (default 60 s) and `--mem-limit` (default 4096 MB) per
task. SV-COMP itself uses 900 s of CPU time and 15 GB of memory; pass
`--cpu-limit 900 --mem-limit 15000` to reproduce its setting. The CPU limit is
enforced with RLIMIT_CPU on the child and by crace's own `--timeout` a little
below it; memory by crace's `--memlimit` a little below the limit; a wall-clock
limit of 1.5 x CPU limit + 10 s kills whatever is left. CPU time and peak RSS
come from the child's rusage (os.wait4).

Output, per engine, in `--out-dir` (default bench/results/):
  svcomp-<engine>.csv  one row per task, appended as tasks finish, so an
                       interrupted run resumes where it stopped (tasks already
                       in the CSV are skipped; `--fresh` starts over; rows of a
                       different crace binary or limits are never mixed in).
  svcomp-<engine>.md   summary per sub-folder with the SV-COMP score.

`--gate` (CI): exit 1 when any answer is incorrect or any task errored or
crashed (crace exit code 3, 4 or 5 on a valid task, or killed by a signal).

  python3 bench/svcomp.py                                    # all tasks, lockset/auto
  python3 bench/svcomp.py --subset bench/ci_subset.txt --gate --jobs 2
  python3 bench/svcomp.py --engine lockset,explore --filter 'pthread-wmm/'
"""
import argparse
import concurrent.futures
import csv
import datetime
import hashlib
import json
import os
import platform
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Dict, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TASKS = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "svcomp", "tasks.csv"))
DEFAULT_CRACE = os.path.join(ROOT, "build", "tools", "crace", "crace")
DEFAULT_OUT = os.path.join(ROOT, "bench", "results")
PROPERTY = "no-data-race.prp"

CSV_COLUMNS = ["task", "folder", "expected", "answer", "correct", "cpu_s", "wall_s",
               "peak_rss_mb", "engine", "reason"]
ANSWERS = ("TRUE", "FALSE", "UNKNOWN", "ERROR", "CRASH", "TIMEOUT")
# SV-COMP scoring scheme.
SCORE_CORRECT_TRUE, SCORE_CORRECT_FALSE = 2, 1
SCORE_WRONG_TRUE, SCORE_WRONG_FALSE = -32, -16


# --------------------------------------------------------------------------
# Task loading
# --------------------------------------------------------------------------

@dataclass
class Task:
    """One verification task: the yml path relative to the task root is its id."""
    name: str                 # e.g. "pthread/fib_bench-1.yml"
    folder: str               # first path component (SV-COMP sub-folder)
    yml: str                  # absolute path of the .yml
    input_file: str           # absolute path of the .i / .c
    expected: Optional[bool]  # True = no data race, False = race, None = unknown
    data_model: str           # ILP32 or LP64
    property_file: str        # absolute path of no-data-race.prp
    loc: int = 0              # lines of code (from tasks.csv, or counted)

    @property
    def expected_str(self) -> str:
        return {True: "true", False: "false", None: "-"}[self.expected]


def _scalar(text: str):
    """Converts a YAML scalar (as used in task files) to a Python value."""
    text = text.strip()
    if not text:
        return None
    if text[0] in "'\"" and text[-1] == text[0] and len(text) >= 2:
        return text[1:-1]
    low = text.lower()
    if low == "true":
        return True
    if low == "false":
        return False
    if low in ("null", "~"):
        return None
    if text.startswith("[") and text.endswith("]"):
        return [_scalar(t) for t in text[1:-1].split(",") if t.strip()]
    return text


def _strip_comment(line: str) -> str:
    """Removes a ` #` comment outside quotes."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def parse_simple_yaml(text: str):
    """A small YAML subset parser, enough for SV-COMP task files (format 2.0):
    block mappings, block sequences of scalars or mappings, quoted and plain
    scalars, flow lists of scalars, comments. Used when PyYAML is missing."""
    lines = []
    for raw in text.splitlines():
        line = _strip_comment(raw).rstrip()
        if line.strip() and line.strip() != "---":
            lines.append((len(line) - len(line.lstrip(" ")), line.strip()))
    pos = 0

    def block(indent):
        nonlocal pos
        if pos >= len(lines):
            return None
        if lines[pos][1].startswith("- ") or lines[pos][1] == "-":
            return sequence(lines[pos][0])
        return mapping(lines[pos][0])

    def mapping(indent, first=None):
        nonlocal pos
        out = {}
        if first is not None:  # "- key: value" starts a mapping inside a list item
            key_value(first, indent, out)
        while pos < len(lines) and lines[pos][0] == indent and not lines[pos][1].startswith("-"):
            text = lines[pos][1]
            pos += 1
            key_value(text, indent, out)
        return out

    def key_value(text, indent, out):
        nonlocal pos
        key, _, rest = text.partition(":")
        key = _scalar(key)
        if rest.strip():
            out[key] = _scalar(rest)
        elif pos < len(lines) and (lines[pos][0] > indent or
                                   (lines[pos][0] == indent and lines[pos][1].startswith("-"))):
            out[key] = block(lines[pos][0])
        else:
            out[key] = None

    def sequence(indent):
        nonlocal pos
        out = []
        while pos < len(lines) and lines[pos][0] == indent and (
                lines[pos][1].startswith("- ") or lines[pos][1] == "-"):
            item = lines[pos][1][1:].strip()
            pos += 1
            if not item:
                out.append(block(lines[pos][0]) if pos < len(lines) and lines[pos][0] > indent else None)
            elif re.match(r"^[^'\"\[]*?:(\s|$)", item):
                out.append(mapping(indent + 2, first=item))
            else:
                out.append(_scalar(item))
        return out

    return block(0) if lines else {}


def load_yaml(path: str):
    """Parses a task .yml with PyYAML when available, else with the fallback."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        import yaml  # noqa: PLC0415 (optional dependency)
    except ImportError:
        return parse_simple_yaml(text)
    return yaml.safe_load(text)


def task_from_yml(yml: str, root: str, loc: int = 0) -> Optional[Task]:
    """Builds a Task from a task .yml, or None when it has no no-data-race property."""
    doc = load_yaml(yml) or {}
    props = doc.get("properties") or []
    prop = next((p for p in props if isinstance(p, dict)
                 and os.path.basename(str(p.get("property_file", ""))) == PROPERTY), None)
    if prop is None:
        return None
    ydir = os.path.dirname(yml)
    inputs = doc.get("input_files")
    if isinstance(inputs, list):
        inputs = inputs[0]
    expected = prop.get("expected_verdict")
    if isinstance(expected, str):
        expected = {"true": True, "false": False}.get(expected.lower())
    options = doc.get("options") or {}
    name = os.path.relpath(yml, root).replace(os.sep, "/")
    input_file = os.path.normpath(os.path.join(ydir, str(inputs)))
    if not loc and os.path.exists(input_file):
        with open(input_file, "rb") as f:
            loc = sum(1 for _ in f)
    return Task(name=name, folder=name.split("/")[0] if "/" in name else ".", yml=yml,
                input_file=input_file, expected=expected,
                data_model=str(options.get("data_model") or "LP64"),
                property_file=os.path.normpath(os.path.join(ydir, str(prop["property_file"]))),
                loc=loc)


def load_tasks(source: str) -> List[Task]:
    """Loads the tasks of a tasks.csv or of a directory tree of task .yml files."""
    source = os.path.abspath(source)
    tasks = []
    if os.path.isdir(source):
        for dirpath, dirnames, filenames in os.walk(source):
            dirnames.sort()
            for fn in sorted(filenames):
                if fn.endswith((".yml", ".yaml")):
                    try:
                        t = task_from_yml(os.path.join(dirpath, fn), source)
                    except Exception as e:  # a malformed yml is skipped, not fatal
                        print(f"warning: {os.path.join(dirpath, fn)}: {e}", file=sys.stderr)
                        continue
                    if t:
                        tasks.append(t)
    else:
        root = os.path.dirname(source)
        with open(source, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                t = task_from_yml(os.path.join(root, row["task_yml_relpath"]), root,
                                  int(row.get("lines_of_code") or 0))
                if t:
                    tasks.append(t)
    return tasks


def read_subset(path: str) -> List[str]:
    """Task yml relpaths listed in a subset file (one a line, `#` comments)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                out.append(line)
    return out


def select_tasks(tasks: List[Task], subset: Optional[str] = None,
                 pattern: Optional[str] = None) -> List[Task]:
    """Restricts tasks to those of a subset file and/or matching a regex."""
    if subset:
        wanted = read_subset(subset)
        by_name = {t.name: t for t in tasks}
        missing = [w for w in wanted if w not in by_name]
        if missing:
            print(f"warning: {len(missing)} subset task(s) not found, e.g. {missing[0]}",
                  file=sys.stderr)
        tasks = [by_name[w] for w in dict.fromkeys(wanted) if w in by_name]
    if pattern:
        rx = re.compile(pattern)
        tasks = [t for t in tasks if rx.search(t.name)]
    return tasks


def add_selection_args(ap: argparse.ArgumentParser):
    """The task-selection options shared with tsan_baseline.py."""
    ap.add_argument("--tasks", default=DEFAULT_TASKS,
                    help="a tasks.csv, or a directory searched recursively for .yml tasks "
                         "with the no-data-race property (default: %(default)s)")
    ap.add_argument("--subset", help="file of task yml relpaths to run (one a line, # comments)")
    ap.add_argument("--filter", help="only tasks whose yml relpath matches this regex")
    ap.add_argument("--jobs", type=int, default=2, help="tasks run in parallel (default: %(default)s)")
    ap.add_argument("--out-dir", default=DEFAULT_OUT, help="where results go (default: %(default)s)")
    ap.add_argument("--fresh", action="store_true",
                    help="discard earlier results instead of resuming")


def tasks_from_args(args) -> List[Task]:
    """Loads and selects the tasks named by add_selection_args() options."""
    args.tasks = os.path.abspath(args.tasks)
    if args.subset:
        args.subset = os.path.abspath(args.subset)
    if not os.path.exists(args.tasks):
        sys.exit(f"error: no task source at {args.tasks}")
    tasks = select_tasks(load_tasks(args.tasks), args.subset, args.filter)
    if not tasks:
        sys.exit("error: no task selected")
    return tasks


# --------------------------------------------------------------------------
# Running a child under limits
# --------------------------------------------------------------------------

@dataclass
class RunResult:
    """What a limited child process did."""
    exit_code: Optional[int]   # None when killed by a signal
    signal: Optional[int]
    cpu_s: float
    wall_s: float
    peak_rss_mb: float
    stdout: str
    stderr: str
    wall_killed: bool          # the wall-clock limit killed it

    @property
    def cpu_exceeded(self) -> bool:
        return self.signal in (signal.SIGXCPU, signal.SIGKILL) and not self.wall_killed


def run_limited(cmd: List[str], cpu_limit: float, wall_limit: float,
                env: Optional[Dict[str, str]] = None, cwd: Optional[str] = None) -> RunResult:
    """Runs cmd in its own process group with RLIMIT_CPU = cpu_limit (hard limit
    5 s above: SIGXCPU first, then SIGKILL), kills the group after wall_limit
    seconds, and measures CPU time and peak RSS from the child's rusage."""
    soft = max(1, int(cpu_limit + 0.999))

    def limits():
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                preexec_fn=limits, start_new_session=True, env=env, cwd=cwd)
        killed = threading.Event()

        def kill():
            killed.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(wall_limit, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        try:  # children the task left behind (crace forks none; native tasks might)
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        out.seek(0)
        err.seek(0)
        code = proc.returncode
        return RunResult(exit_code=code if code >= 0 else None,
                         signal=-code if code < 0 else None,
                         cpu_s=usage.ru_utime + usage.ru_stime, wall_s=wall,
                         peak_rss_mb=usage.ru_maxrss / 1024.0,
                         stdout=out.read().decode("utf-8", "replace"),
                         stderr=err.read().decode("utf-8", "replace"),
                         wall_killed=killed.is_set())


# --------------------------------------------------------------------------
# crace
# --------------------------------------------------------------------------

def crace_supports_svcomp(crace: str) -> bool:
    """Whether this crace build has the --svcomp interface."""
    try:
        p = subprocess.run([crace, "--help-hidden"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--svcomp" in p.stdout


def file_digest(path: str) -> str:
    """sha256 of a file (identifies the crace binary the results belong to)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def crace_command(args, task: Task, engine: str, svcomp: bool) -> List[str]:
    """The crace command line for one task: its own limits sit a little below
    the runner's, so crace answers UNKNOWN before it gets killed."""
    timeout = max(1, int(args.cpu_limit - max(2.0, 0.05 * args.cpu_limit)))
    memlimit = max(64, int(args.mem_limit * 0.9))
    cmd = [args.crace]
    if svcomp:
        cmd += ["--svcomp", "--property", task.property_file, "--data-model", task.data_model]
        if args.witness_dir:
            wdir = os.path.join(args.witness_dir, engine)
            os.makedirs(wdir, exist_ok=True)
            cmd += ["--witness", os.path.join(wdir, task.name[:-4].replace("/", "__") + ".witness.yml")]
    else:
        cmd += ["--format=json", f"--data-model={task.data_model}"]
    if engine:
        cmd.append(f"--engine={engine}")
    cmd += [f"--timeout={timeout}", f"--memlimit={memlimit}", task.input_file]
    return cmd


MAX_REASON = 400  # characters of reasons kept in the CSV
EXIT_MEANING = {3: "usage or input error", 4: "compile error", 5: "internal error"}


def interpret(res: RunResult, svcomp: bool):
    """Maps a crace run to (answer, reason)."""
    if res.wall_killed:
        return "TIMEOUT", "wall-clock limit"
    if res.cpu_exceeded:
        return "TIMEOUT", "CPU-time limit"
    if res.signal is not None:
        return "CRASH", f"signal {signal.Signals(res.signal).name}"
    code = res.exit_code
    if code in EXIT_MEANING:
        last = next((l for l in reversed(res.stderr.splitlines()) if l.strip()), "")
        return "ERROR", f"exit {code} ({EXIT_MEANING[code]}): {last.strip()[:200]}"
    if code not in (0, 1, 2, 6):
        return "ERROR", f"exit {code}"
    if svcomp:
        lines = [l.strip() for l in res.stdout.splitlines() if l.strip()]
        answer = lines[-1] if lines and lines[-1] in ("TRUE", "FALSE", "UNKNOWN") else None
        if answer is None:
            answer = {0: "TRUE", 1: "FALSE", 2: "UNKNOWN", 6: "UNKNOWN"}[code]
        reasons, in_reasons = [], False
        for l in lines:  # the "- " lines under "crace: not proved race-free because:"
            if l.endswith("because:"):
                in_reasons = True
            elif in_reasons and l.startswith("- "):
                reasons.append(l[2:].strip())
            else:
                in_reasons = False
    else:
        try:
            doc = json.loads(res.stdout)
        except ValueError:
            return "ERROR", f"exit {code}: no JSON report"
        answer = {"race-free": "TRUE", "race": "FALSE"}.get(doc.get("verdict"), "UNKNOWN")
        reasons = list(doc.get("reasons") or [])
    reason = ""
    if answer == "UNKNOWN":
        reason = "; ".join(reasons) or f"exit {code}"
        if re.search(r"time ?out|time limit", reason, re.I):
            reason = "crace timeout: " + reason
    if len(reason) > MAX_REASON:
        reason = reason[:MAX_REASON - 3] + "..."
    return answer, reason


def correctness(expected: Optional[bool], answer: str) -> str:
    """yes/no for a TRUE/FALSE answer on a task with a known verdict, else '-'."""
    if expected is None or answer not in ("TRUE", "FALSE"):
        return "-"
    return "yes" if (answer == "TRUE") == expected else "no"


# --------------------------------------------------------------------------
# Results: CSV (resumable) and Markdown summary
# --------------------------------------------------------------------------

class ResultFile:
    """A results CSV, appended row by row under a lock, keyed by task (or by
    `key`). A JSON sidecar records the setting (crace binary, limits); rows of
    another setting are discarded rather than mixed in."""

    def __init__(self, path: str, meta: dict, fresh: bool, columns: List[str] = CSV_COLUMNS,
                 key=lambda row: row["task"]):
        self.path = path
        self.columns = columns
        self.key = key
        self.meta_path = path[:-4] + ".meta.json"
        self.lock = threading.Lock()
        self.rows: Dict[str, dict] = {}
        old_meta = None
        if os.path.exists(self.meta_path):
            try:
                with open(self.meta_path, encoding="utf-8") as f:
                    old_meta = json.load(f)
            except ValueError:
                pass
        if not fresh and os.path.exists(path) and old_meta != meta:
            print(f"note: {os.path.relpath(path)} was made with another setting (binary, limits);"
                  " starting over", file=sys.stderr)
            fresh = True
        if fresh or not os.path.exists(path):
            with open(path, "w", newline="", encoding="utf-8") as f:
                csv.writer(f).writerow(columns)
        else:
            with open(path, newline="", encoding="utf-8") as f:
                for row in csv.DictReader(f):
                    self.rows[key(row)] = row
        with open(self.meta_path, "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1)

    def add(self, row: dict):
        with self.lock:
            self.rows[self.key(row)] = row
            with open(self.path, "a", newline="", encoding="utf-8") as f:
                csv.DictWriter(f, self.columns).writerow(row)


def machine_description() -> str:
    """uname, number of CPUs and the CPU model."""
    model = "?"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    u = platform.uname()
    return f"{u.system} {u.release} {u.machine}, {os.cpu_count()} CPUs ({model})"


@dataclass
class Tally:
    """Counts of one group of results."""
    tasks: int = 0
    correct_true: int = 0
    correct_false: int = 0
    wrong_true: int = 0
    wrong_false: int = 0
    unknown: int = 0
    timeout: int = 0
    errors: int = 0
    cpu_s: float = 0.0
    max_score: int = 0

    def add(self, expected: str, answer: str, correct: str, cpu_s: float):
        self.tasks += 1
        self.cpu_s += cpu_s
        self.max_score += {"true": SCORE_CORRECT_TRUE, "false": SCORE_CORRECT_FALSE}.get(expected, 0)
        if answer == "TRUE" and correct == "yes":
            self.correct_true += 1
        elif answer == "FALSE" and correct == "yes":
            self.correct_false += 1
        elif answer == "TRUE" and correct == "no":
            self.wrong_true += 1
        elif answer == "FALSE" and correct == "no":
            self.wrong_false += 1
        elif answer in ("ERROR", "CRASH"):
            self.errors += 1
        elif answer == "TIMEOUT":
            self.timeout += 1
        else:
            self.unknown += 1

    @property
    def score(self) -> int:
        return (SCORE_CORRECT_TRUE * self.correct_true + SCORE_CORRECT_FALSE * self.correct_false
                + SCORE_WRONG_TRUE * self.wrong_true + SCORE_WRONG_FALSE * self.wrong_false)

    def cells(self) -> List[str]:
        return [str(self.tasks), str(self.correct_true), str(self.correct_false),
                str(self.wrong_true), str(self.wrong_false), str(self.unknown + self.timeout),
                str(self.errors), f"{self.score} / {self.max_score}", f"{self.cpu_s:.1f}"]


def write_summary(path: str, engine: str, tasks: List[Task], rows: Dict[str, dict], args, svcomp: bool):
    """Writes the Markdown summary of one engine over the selected tasks."""
    total, per_folder = Tally(), {}
    missing = 0
    for t in tasks:
        r = rows.get(t.name)
        if r is None:
            missing += 1
            continue
        cpu = float(r["cpu_s"] or 0)
        total.add(r["expected"], r["answer"], r["correct"], cpu)
        per_folder.setdefault(t.folder, Tally()).add(r["expected"], r["answer"], r["correct"], cpu)
    head = ["tasks", "correct true", "correct false", "incorrect true", "incorrect false",
            "unknown (timeouts)", "errors/crashes", "score / max", "CPU s"]
    out = [f"# crace on SV-COMP NoDataRace — engine `{engine or 'auto'}`", "",
           f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
           f"- machine: {machine_description()}",
           f"- crace: `{os.path.relpath(args.crace, ROOT)}` "
           f"({'--svcomp interface' if svcomp else '--format=json fallback (no --svcomp yet)'})",
           f"- tasks: {len(tasks)} from `{os.path.relpath(args.tasks, ROOT)}`"
           + (f", subset `{os.path.relpath(args.subset, ROOT)}`" if args.subset else "")
           + (f", filter `{args.filter}`" if args.filter else "")
           + (f" ({missing} not run yet)" if missing else ""),
           f"- limits per task: {args.cpu_limit:g} s CPU, {args.mem_limit} MB "
           "(SV-COMP uses 900 s and 15 GB); jobs: " + str(args.jobs),
           f"- score: +{SCORE_CORRECT_TRUE} correct true, +{SCORE_CORRECT_FALSE} correct false, "
           f"{SCORE_WRONG_TRUE} incorrect true, {SCORE_WRONG_FALSE} incorrect false; "
           f"maximum possible for these tasks: {total.max_score}",
           "", "| folder | " + " | ".join(head) + " |", "|---" * (len(head) + 1) + "|"]
    for folder in sorted(per_folder):
        out.append(f"| {folder} | " + " | ".join(per_folder[folder].cells()) + " |")
    out.append("| **total** | " + " | ".join(f"**{c}**" for c in total.cells()) + " |")
    unknown_reasons: Dict[str, int] = {}
    bad = []
    for t in tasks:
        r = rows.get(t.name)
        if r is None:
            continue
        if r["correct"] == "no" or r["answer"] in ("ERROR", "CRASH"):
            bad.append(f"- `{t.name}`: expected {r['expected']}, answer {r['answer']}"
                       + (f" — {r['reason']}" if r["reason"] else ""))
        elif r["answer"] in ("UNKNOWN", "TIMEOUT"):
            key = (r["reason"] or r["answer"]).split(";")[0][:160]
            unknown_reasons[key] = unknown_reasons.get(key, 0) + 1
    if bad:
        out += ["", "## Incorrect answers, errors and crashes", ""] + bad
    if unknown_reasons:
        out += ["", "## Why unknown (first reason, count)", ""]
        for k, n in sorted(unknown_reasons.items(), key=lambda kv: -kv[1]):
            out.append(f"- {n} × {k}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return total


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="See bench/README.md.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_selection_args(ap)
    ap.add_argument("--engine", action="append",
                    help="crace engine(s) to run, repeatable or comma-separated "
                         "(default: auto); each gets its own CSV and summary")
    ap.add_argument("--cpu-limit", type=float, default=60.0,
                    help="CPU seconds per task (default: %(default)s; SV-COMP: 900)")
    ap.add_argument("--mem-limit", type=int, default=4096,
                    help="memory per task in MB (default: %(default)s; SV-COMP: 15000)")
    ap.add_argument("--crace", default=DEFAULT_CRACE, help="crace binary (default: %(default)s)")
    ap.add_argument("--witness-dir", help="with --svcomp crace: write witnesses here")
    ap.add_argument("--gate", action="store_true",
                    help="exit 1 if any answer is incorrect or any task errored or crashed")
    ap.add_argument("--quiet", action="store_true", help="no per-task progress lines")
    args = ap.parse_args(argv)

    engines = []
    for e in args.engine or ["auto"]:
        engines += [x.strip() for x in e.split(",") if x.strip()]
    if not os.access(args.crace, os.X_OK):
        sys.exit(f"error: no crace binary at {args.crace} (build with cmake --build build)")
    args.crace = os.path.abspath(args.crace)
    tasks = tasks_from_args(args)
    os.makedirs(args.out_dir, exist_ok=True)
    svcomp = crace_supports_svcomp(args.crace)
    if not svcomp:
        print("note: crace has no --svcomp option yet; using --format=json", file=sys.stderr)

    digest = file_digest(args.crace)
    files, todo = {}, []
    for engine in engines:
        meta = {"crace_sha256": digest, "svcomp_interface": svcomp, "engine": engine,
                "cpu_limit": args.cpu_limit, "mem_limit": args.mem_limit}
        files[engine] = ResultFile(os.path.join(args.out_dir, f"svcomp-{engine}.csv"), meta, args.fresh)
        todo += [(engine, t) for t in tasks if t.name not in files[engine].rows]
    skipped = len(tasks) * len(engines) - len(todo)
    if skipped:
        print(f"resuming: {skipped} task run(s) already done (--fresh to redo)", file=sys.stderr)

    counter = {"done": 0}
    progress_lock = threading.Lock()
    wall_limit = 1.5 * args.cpu_limit + 10

    def work(engine: str, task: Task):
        res = run_limited(crace_command(args, task, engine, svcomp), args.cpu_limit, wall_limit)
        answer, reason = interpret(res, svcomp)
        row = {"task": task.name, "folder": task.folder, "expected": task.expected_str,
               "answer": answer, "correct": correctness(task.expected, answer),
               "cpu_s": f"{res.cpu_s:.2f}", "wall_s": f"{res.wall_s:.2f}",
               "peak_rss_mb": f"{res.peak_rss_mb:.1f}", "engine": engine,
               "reason": reason.replace("\n", " ")}
        files[engine].add(row)
        with progress_lock:
            counter["done"] += 1
            if not args.quiet:
                mark = " WRONG" if row["correct"] == "no" else ""
                print(f"[{counter['done']}/{len(todo)}] {engine} {task.name} {answer}{mark} "
                      f"{res.cpu_s:.1f}s", file=sys.stderr, flush=True)

    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(work, e, t) for e, t in todo]
        try:
            for f in concurrent.futures.as_completed(futures):
                f.result()
        except KeyboardInterrupt:
            for f in futures:
                f.cancel()
            raise

    failed = False
    for engine in engines:
        md = os.path.join(args.out_dir, f"svcomp-{engine}.md")
        total = write_summary(md, engine, tasks, files[engine].rows, args, svcomp)
        print(f"{engine}: {total.tasks} tasks, {total.correct_true} correct true, "
              f"{total.correct_false} correct false, {total.wrong_true} incorrect true, "
              f"{total.wrong_false} incorrect false, {total.unknown + total.timeout} unknown "
              f"({total.timeout} timeouts), {total.errors} errors/crashes; score "
              f"{total.score} of {total.max_score}; CPU {total.cpu_s:.1f} s -> {os.path.relpath(md)}")
        failed |= total.wrong_true + total.wrong_false + total.errors > 0
    print(f"wall time {time.monotonic() - start:.1f} s", file=sys.stderr)
    if args.gate and failed:
        print("gate: FAILED (incorrect answers or errors/crashes; see the summary)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
