#!/usr/bin/env python3
"""Property-driven pruning (PDP) against plain DPOR in crace's explore engine.

Generates small C program families parameterised by the number of worker
threads N, analogues of the benchmark shapes of the PDP paper (Wang, Yang,
Kahlon, Gupta, "Peephole partial order reduction"/"Property-driven partial
order reduction", TACAS 2008, Table 1: fdrd/qsort, pfscan, aget, bzip2smp),
runs `crace --engine=explore --format=json --stats` on each with PDP and with
`--no-pdp` (plain Flanagan-Godefroid DPOR), alternately, and writes
bench/results/pdp_vs_dpor.csv (one row per run) and .md (a table per family).

Families (race-free unless noted):
  incr           N threads, each one locked increment of a shared counter
                 (N! Mazurkiewicz traces: the orders of the critical sections)
  pool           fdrd/qsort_mt: N workers each take K items from a shared
                 counter under a mutex and add their results into a shared sum
                 under the mutex
  scan           pfscan: shared queue (array + head/tail) with mutex + condvar;
                 main pushes M items, then sets a done flag; workers pop until done
  download       aget: N downloaders, each writes its own slice of a shared
                 buffer (no lock, disjoint indices) and bumps a shared progress
                 counter under a mutex
  bzip           bzip2smp: main -> queue 1 -> N-1 compressors -> queue 2 ->
                 1 writer, two mutexes and three condvars
  pool-racy      pool with the sum update outside the lock (a race)
  download-racy  download with the progress update outside the lock (a race)

  python3 bench/pdp_vs_dpor.py [--min-n 2] [--max-n 8] [--families a,b,...]
      [--timeout 60] [--max-executions 20000] [--crace PATH] [--out-dir DIR]
      [--keep DIR]
"""
import argparse, csv, datetime, json, math, os, platform, shlex, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRACE = os.path.join(ROOT, "build", "tools", "crace", "crace")
K = 2  # work items per thread (pool, download, scan, bzip)

HDR = "#include <pthread.h>\n"


def prog_incr(n):
    return HDR + f"""#define N {n}
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *worker(void *arg) {{
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}}

int main(void) {{
  pthread_t t[N];
  for (int i = 0; i < N; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  return counter;
}}
"""


def prog_pool(n, racy=False):
    if racy:
        add = "    sum += r;                       /* RACE: outside the lock */\n"
    else:
        add = ("    pthread_mutex_lock(&m);\n"
               "    sum += r;\n"
               "    pthread_mutex_unlock(&m);\n")
    return HDR + f"""#define N {n}
#define K {K}
#define ITEMS (N * K)
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int work[ITEMS];   /* written by main before the workers start */
int next;          /* next work item, under m */
int sum;           /* results, under m */

void *worker(void *arg) {{
  for (int k = 0; k < K; k++) {{
    pthread_mutex_lock(&m);
    int i = next;
    next = next + 1;
    pthread_mutex_unlock(&m);
    int r = work[i] * 2 + 1;
{add}  }}
  return 0;
}}

int main(void) {{
  pthread_t t[N];
  for (int i = 0; i < ITEMS; i++) work[i] = i;
  for (int i = 0; i < N; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  return sum;
}}
"""


def prog_scan(n):
    return HDR + f"""#define N {n}
#define M (N * {K})
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
int queue[M];
int head, tail;    /* under m */
int done;          /* under m */
int matches;       /* under m */

void *scanner(void *arg) {{
  for (;;) {{
    pthread_mutex_lock(&m);
    while (head == tail && !done)
      pthread_cond_wait(&nonempty, &m);
    if (head == tail) {{
      pthread_mutex_unlock(&m);
      break;
    }}
    int item = queue[head];
    head = head + 1;
    pthread_mutex_unlock(&m);
    if (item % 2 == 0) {{
      pthread_mutex_lock(&m);
      matches = matches + 1;
      pthread_mutex_unlock(&m);
    }}
  }}
  return 0;
}}

int main(void) {{
  pthread_t t[N];
  for (int i = 0; i < N; i++) pthread_create(&t[i], 0, scanner, 0);
  for (int i = 0; i < M; i++) {{
    pthread_mutex_lock(&m);
    queue[tail] = i;
    tail = tail + 1;
    pthread_cond_signal(&nonempty);
    pthread_mutex_unlock(&m);
  }}
  pthread_mutex_lock(&m);
  done = 1;
  pthread_cond_broadcast(&nonempty);
  pthread_mutex_unlock(&m);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  return matches;
}}
"""


def prog_download(n, racy=False):
    if racy:
        upd = "    progress = progress + 1;        /* RACE: outside the lock */\n"
    else:
        upd = ("    pthread_mutex_lock(&m);\n"
               "    progress = progress + 1;\n"
               "    pthread_mutex_unlock(&m);\n")
    return HDR + f"""#define N {n}
#define CHUNK {K}
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
char buf[N * CHUNK];   /* thread id writes buf[id*CHUNK .. id*CHUNK+CHUNK-1] only */
int progress;          /* under m */
int ids[N];

void *downloader(void *arg) {{
  int id = *(int *)arg;
  for (int j = 0; j < CHUNK; j++) {{
    buf[id * CHUNK + j] = (char)(id + j);
{upd}  }}
  return 0;
}}

int main(void) {{
  pthread_t t[N];
  for (int i = 0; i < N; i++) {{
    ids[i] = i;
    pthread_create(&t[i], 0, downloader, &ids[i]);
  }}
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  int s = 0;
  for (int i = 0; i < N * CHUNK; i++) s += buf[i];
  return s + progress;
}}
"""


def prog_bzip(n):
    c = n - 1  # compressors; the N-th worker is the writer
    return HDR + f"""#define C {c}
#define B (C * {K})
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;   /* queue 1: main -> compressors */
pthread_cond_t ne1 = PTHREAD_COND_INITIALIZER;
int q1[B];
int h1, t1, done1;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;   /* queue 2: compressors -> writer */
pthread_cond_t ne2 = PTHREAD_COND_INITIALIZER;
int q2[B];
int h2, t2;
int out[B];        /* writer only */
int total;         /* writer only, read by main after join */

void *compressor(void *arg) {{
  for (;;) {{
    pthread_mutex_lock(&m1);
    while (h1 == t1 && !done1)
      pthread_cond_wait(&ne1, &m1);
    if (h1 == t1) {{
      pthread_mutex_unlock(&m1);
      break;
    }}
    int blk = q1[h1];
    h1 = h1 + 1;
    pthread_mutex_unlock(&m1);
    int z = blk * 3 + 1;
    pthread_mutex_lock(&m2);
    q2[t2] = z;
    t2 = t2 + 1;
    pthread_cond_signal(&ne2);
    pthread_mutex_unlock(&m2);
  }}
  return 0;
}}

void *writer(void *arg) {{
  for (int k = 0; k < B; k++) {{
    pthread_mutex_lock(&m2);
    while (h2 == t2)
      pthread_cond_wait(&ne2, &m2);
    int z = q2[h2];
    h2 = h2 + 1;
    pthread_mutex_unlock(&m2);
    out[k] = z;
    total = total + z;
  }}
  return 0;
}}

int main(void) {{
  pthread_t t[C], w;
  pthread_create(&w, 0, writer, 0);
  for (int i = 0; i < C; i++) pthread_create(&t[i], 0, compressor, 0);
  for (int i = 0; i < B; i++) {{
    pthread_mutex_lock(&m1);
    q1[t1] = i;
    t1 = t1 + 1;
    pthread_cond_signal(&ne1);
    pthread_mutex_unlock(&m1);
  }}
  pthread_mutex_lock(&m1);
  done1 = 1;
  pthread_cond_broadcast(&ne1);
  pthread_mutex_unlock(&m1);
  for (int i = 0; i < C; i++) pthread_join(t[i], 0);
  pthread_join(w, 0);
  return total;
}}
"""


# family -> (generator, expected verdict, paper analogue)
FAMILIES = {
    "incr": (prog_incr, "race-free", "fdrd (N locked increments; N! traces)"),
    "pool": (prog_pool, "race-free", "fdrd / qsort_mt"),
    "scan": (prog_scan, "race-free", "pfscan"),
    "download": (prog_download, "race-free", "aget"),
    "bzip": (prog_bzip, "race-free", "bzip2smp"),
    "pool-racy": (lambda n: prog_pool(n, racy=True), "race", "fdrd / qsort_mt, one unlocked update"),
    "download-racy": (lambda n: prog_download(n, racy=True), "race", "aget, one unlocked update"),
}

# Race-free by lock discipline (every shared access under a common lock or
# ordered by synchronisation): target (a) applies. `download` is race-free
# by disjoint array indices instead, which the static lockset analysis
# cannot see, so PDP has nothing to prune there; it is reported apart.
LOCK_DISCIPLINED = {"incr", "pool", "scan", "bzip"}

FIELDS = ["family", "n", "mode", "expected", "verdict", "exit_code", "executions", "transitions",
          "explore_seconds", "wall_seconds", "peak_rss_mb", "pdp_pruned_backtracks", "races",
          "limit_hit", "race_lines", "reasons"]


def run_crace(args, path, pdp):
    cmd = [args.crace, "--engine=explore", "--format=json", "--stats",
           f"--timeout={args.timeout}", f"--max-executions={args.max_executions}"]
    if not pdp:
        cmd.append("--no-pdp")
    cmd.append(path)
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout * 2 + 30)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = -1, "", "killed: wall-clock limit"
    wall = time.perf_counter() - start
    row = {"mode": "pdp" if pdp else "dpor", "exit_code": rc, "wall_seconds": round(wall, 3)}
    try:
        d = json.loads(out)
    except ValueError:
        row.update(verdict="error", reasons=(err.strip().splitlines() or ["no output"])[-1], limit_hit="")
        return row
    st = d.get("stats", {})
    reasons = d.get("reasons", [])
    lines = set()
    for f in d.get("findings", []):
        ls = sorted({a.get("line") for a in f.get("accesses", []) if a.get("line") is not None})
        if ls:
            lines.add("-".join(str(x) for x in ls))
    row.update(
        verdict=d.get("verdict", "?"),
        executions=st.get("executions", ""),
        transitions=st.get("transitions", ""),
        explore_seconds=round(st["explore_seconds"], 3) if "explore_seconds" in st else "",
        peak_rss_mb=round(st["peak_rss_mb"], 1) if "peak_rss_mb" in st else "",
        pdp_pruned_backtracks=st.get("pdp_pruned_backtracks", ""),
        races=st.get("races", ""),
        limit_hit="yes" if any(("bound" in r or "time limit" in r) for r in reasons) else "no",
        race_lines=" ".join(sorted(lines)),
        reasons="; ".join(reasons),
    )
    return row


def machine():
    model = platform.processor() or "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {model}, {platform.system()} {platform.release()}"


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def fmt_execs(r):
    e = r.get("executions", "")
    if e == "":
        return "–"
    return (f"≥{e}" if r.get("limit_hit") == "yes" else f"{e}")


def ratio(d, p):
    a, b = num(d.get("executions")), num(p.get("executions"))
    if a is None or b is None or b == 0:
        return "–", None, False
    r = a / b
    lower = d.get("limit_hit") == "yes" and p.get("limit_hit") != "yes"
    unknown = p.get("limit_hit") == "yes"
    if unknown:
        return f"?({r:.1f})", None, False
    txt = f"{r:.0f}" if r >= 100 else f"{r:.1f}"
    return (f"≥{txt}" if lower else txt), r, lower


def write_md(args, rows, path, cmdline, started, elapsed):
    by = {}
    for r in rows:
        by.setdefault((r["family"], int(r["n"])), {})[r["mode"]] = r
    fams = [f for f in args.families if any(k[0] == f for k in by)]
    out = ["# PDP against plain DPOR (crace --engine=explore)", "",
           f"- Date: {started:%Y-%m-%d %H:%M} UTC; total run time {elapsed / 60:.1f} min",
           f"- Machine: {machine()}",
           f"- crace: `{args.crace}`",
           f"- Command: `{cmdline}`",
           f"- Per run: `--timeout={args.timeout} --max-executions={args.max_executions}` "
           "(default `--max-transitions`); DPOR = `--no-pdp`, PDP = default. The two are run "
           "alternately for each (family, N), the order swapped every other N.",
           f"- Programs: generated by the script into a temporary directory, K = {K} items per "
           "worker; see the docstring of bench/pdp_vs_dpor.py for the families.",
           "- `≥` marks a run stopped by a bound or the time limit (its executions are a lower "
           "bound; so is a DPOR/PDP ratio whose DPOR side was stopped). Time = crace's "
           "explore_seconds; memory = peak RSS of the whole crace process.", ""]
    # targets
    a_rows, a_ok, a_na = [], True, []
    other_rows = []
    b_rows, b_ok = [], True
    mismatches = []
    for (f, n), m in sorted(by.items()):
        d, p = m.get("dpor", {}), m.get("pdp", {})
        exp = FAMILIES[f][1]
        # verdict disagreement when both finished
        if d and p and d.get("limit_hit") == "no" and p.get("limit_hit") == "no":
            if d.get("verdict") != p.get("verdict") or (exp == "race" and d.get("race_lines") != p.get("race_lines")):
                mismatches.append((f, n, d, p))
        if exp == "race-free" and n >= 4 and f not in LOCK_DISCIPLINED:
            s, _, _ = ratio(d, p)
            other_rows.append(f"{f}/N={n}: {s}")
        elif exp == "race-free" and n >= 4:
            s, r, _ = ratio(d, p)
            ok = r is not None and r >= 10
            if r is None:
                a_na.append(f"{f}/N={n}")
            a_ok &= ok
            a_rows.append(f"{f}/N={n}: {s}{'' if ok else ' ✗'}")
        if exp == "race":
            same = (d.get("verdict") == "race" and p.get("verdict") == "race"
                    and d.get("race_lines") == p.get("race_lines") and d.get("race_lines"))
            b_ok &= bool(same)
            if not same:
                b_rows.append(f"{f}/N={n}: DPOR {d.get('verdict')} [{d.get('race_lines')}], "
                              f"PDP {p.get('verdict')} [{p.get('race_lines')}]")
    out += ["## Targets", ""]
    out.append(f"- (a) race-free lock-disciplined programs, N ≥ 4: PDP explores ≥ 10× fewer executions "
               f"than DPOR — **{'holds' if a_ok and a_rows else 'does not hold'}**"
               + (f" (no ratio: {', '.join(a_na)})" if a_na else "") + ".")
    bad = [x for x in a_rows if "✗" in x]
    if bad:
        out.append(f"  Failing: {'; '.join(bad)}.")
    if other_rows:
        out.append("- Race-free without lock discipline (disjoint indices; the static lockset analysis "
                   "reports possible races, so PDP can prune little) — DPOR/PDP executions: "
                   + "; ".join(other_rows) + ".")
    out.append(f"- (b) racy variants: DPOR and PDP both report `race` on the same lines — "
               f"**{'holds' if b_ok else 'does not hold'}**" + (": " + "; ".join(b_rows) if b_rows else "") + ".")
    if mismatches:
        out.append("- **Verdict disagreements between two finished runs (a bug):**")
        for f, n, d, p in mismatches:
            out.append(f"  - {f}/N={n}: DPOR {d.get('verdict')} [{d.get('race_lines')}] vs "
                       f"PDP {p.get('verdict')} [{p.get('race_lines')}]")
    else:
        out.append("- No verdict disagreement between a DPOR run and a PDP run that both finished.")
    more = [f"{f}/N={n} ({p.get('executions')} vs {d.get('executions')})"
            for (f, n), m in sorted(by.items())
            for d, p in [(m.get("dpor", {}), m.get("pdp", {}))]
            if d.get("limit_hit") == "no" and p.get("limit_hit") == "no"
            and num(p.get("executions")) is not None and num(d.get("executions")) is not None
            and num(p.get("executions")) > num(d.get("executions"))]
    if more:
        out.append("- PDP explored more executions than plain DPOR (both finished; PDP vs DPOR): "
                   + ", ".join(more) + ". Above every pruned node PDP explores the chosen operation's candidate "
                   "partner threads in both orders (docs/architecture.md, explore/Pdp), since the pruned "
                   "part may hide a dependency plain DPOR would have followed; where little can be pruned "
                   "this costs more executions than it saves.")
    out.append("")
    for f in fams:
        gen, exp, analogue = FAMILIES[f]
        out += [f"## {f} — {analogue} (expected: {exp})", "",
                "| N | DPOR verdict | DPOR execs | DPOR transitions | DPOR s | DPOR MB "
                "| PDP verdict | PDP execs | PDP transitions | PDP s | PDP MB | pruned backtracks "
                "| execs DPOR/PDP | race lines (DPOR / PDP) |",
                "|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|"]
        for (ff, n), m in sorted(by.items()):
            if ff != f:
                continue
            d, p = m.get("dpor", {}), m.get("pdp", {})
            s, _, _ = ratio(d, p)
            rl = f"{d.get('race_lines') or '–'} / {p.get('race_lines') or '–'}" if exp == "race" or d.get("race_lines") or p.get("race_lines") else ""
            out.append(f"| {n} | {d.get('verdict', '–')} | {fmt_execs(d)} | {d.get('transitions', '–')} "
                       f"| {d.get('explore_seconds', '–')} | {d.get('peak_rss_mb', '–')} "
                       f"| {p.get('verdict', '–')} | {fmt_execs(p)} | {p.get('transitions', '–')} "
                       f"| {p.get('explore_seconds', '–')} | {p.get('peak_rss_mb', '–')} "
                       f"| {p.get('pdp_pruned_backtracks', '–')} | {s} | {rl} |")
        if f == "incr":
            out += ["", "DPOR optimality on `incr`: each thread's lock/unlock pair is dependent with every "
                    "other thread's, everything else is thread-local or ordered by create/join, so the "
                    "Mazurkiewicz traces are the N! orders of the critical sections. "
                    "executions/traces = 1.0 would be optimal.", "",
                    "| N | traces (N!) | DPOR executions | DPOR executions / traces | PDP executions |",
                    "|---:|---:|---:|---:|---:|"]
            for (ff, n), m in sorted(by.items()):
                if ff != f:
                    continue
                d, p = m.get("dpor", {}), m.get("pdp", {})
                tr = math.factorial(n)
                e = num(d.get("executions"))
                rr = f"{e / tr:.2f}" if e is not None else "–"
                if d.get("limit_hit") == "yes":
                    rr = "– (stopped)"
                out.append(f"| {n} | {tr} | {fmt_execs(d)} | {rr} | {fmt_execs(p)} |")
        out.append("")
    # a run's non-bound reasons / errors
    odd = [r for r in rows if r.get("verdict") not in ("race", "race-free") and r.get("limit_hit") != "yes"]
    if odd:
        out += ["## Other outcomes", ""]
        for r in odd:
            out.append(f"- {r['family']}/N={r['n']} {r['mode']}: {r['verdict']} (exit {r['exit_code']}): {r.get('reasons', '')}")
        out.append("")
    with open(path, "w") as fh:
        fh.write("\n".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--min-n", type=int, default=2)
    ap.add_argument("--max-n", type=int, default=8)
    ap.add_argument("--families", default=",".join(FAMILIES),
                    help="comma list from: " + ", ".join(FAMILIES))
    ap.add_argument("--timeout", type=int, default=60, help="crace --timeout per run (s)")
    ap.add_argument("--max-executions", type=int, default=20000)
    ap.add_argument("--crace", default=CRACE)
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--keep", metavar="DIR", help="write the generated programs to DIR (kept)")
    args = ap.parse_args()
    args.families = [f.strip() for f in args.families.split(",") if f.strip()]
    for f in args.families:
        if f not in FAMILIES:
            ap.error(f"unknown family {f!r}")
    cmdline = "python3 bench/pdp_vs_dpor.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.perf_counter()
    os.makedirs(args.out_dir, exist_ok=True)
    tmp = None
    if args.keep:
        gdir = args.keep
        os.makedirs(gdir, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="pdp_vs_dpor.")
        gdir = tmp.name
    rows = []
    csv_path = os.path.join(args.out_dir, "pdp_vs_dpor.csv")
    with open(csv_path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS, extrasaction="ignore")
        w.writeheader()
        for f in args.families:
            gen, exp, _ = FAMILIES[f]
            for n in range(args.min_n, args.max_n + 1):
                path = os.path.join(gdir, f"{f}_n{n}.c")
                with open(path, "w") as g:
                    g.write(gen(n))
                order = (False, True) if n % 2 == 0 else (True, False)
                for pdp in order:
                    r = run_crace(args, path, pdp)
                    r.update(family=f, n=n, expected=exp)
                    rows.append(r)
                    w.writerow(r)
                    fh.flush()
                    print(f"{f:14s} N={n} {r['mode']:4s} {r.get('verdict'):12s} execs={r.get('executions', '')} "
                          f"s={r.get('explore_seconds', '')} limit={r.get('limit_hit')} lines={r.get('race_lines', '')}",
                          file=sys.stderr, flush=True)
    md_path = os.path.join(args.out_dir, "pdp_vs_dpor.md")
    write_md(args, rows, md_path, cmdline, started, time.perf_counter() - t0)
    print(f"wrote {csv_path} and {md_path}", file=sys.stderr)
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    main()
