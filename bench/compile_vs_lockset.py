#!/usr/bin/env python3
"""Times `crace --engine=lockset` against `clang-19 -c -O0` on the same files,
side by side in one run, and writes the ratios to a Markdown table.

Files: examples/*.c, test/regression/*.c (those clang compiles), the
SV-COMP tasks listed in ../shared/bench/svcomp/tasks.csv when present (ILP32
tasks compiled with -m32 / --data-model=ILP32), and the goblint-bench
programs ../shared/bench/realworld/goblint-bench/pthread/*.c (crace picks
their data model itself, as a user's plain run does). For each file clang and crace
run alternately, so machine noise hits both; the minimum of --repeat runs is
kept. crace's own front end compiles the file too, so two ratios are given:
whole crace run / clang, and analysis only (crace's total_seconds minus its
frontend_seconds) / clang. Target (issue 3): median analysis-only ratio <= 2.

  python3 bench/compile_vs_lockset.py
      [--subset all|examples|regression|svcomp|goblint] [--crace BIN]
      [--limit N] [--repeat N] [--timeout S] [--out FILE]
"""
import argparse, csv, datetime, json, os, platform, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRACE = os.path.join(ROOT, "build", "tools", "crace", "crace")
CLANG = "clang-19"
# The same gcc-compatible leniency crace's front end applies.
LENIENT = ["-Wno-error=implicit-function-declaration", "-Wno-error=int-conversion",
           "-Wno-error=incompatible-function-pointer-types", "-Wno-error=incompatible-pointer-types",
           "-Wno-error=return-type", "-Wno-error=implicit-int"]


def data_model(yml):
    for line in open(yml):
        if "data_model" in line:
            return line.split(":", 1)[1].strip()
    return "LP64"


def files(args):
    out = []
    if args.subset in ("all", "examples"):
        d = os.path.join(ROOT, "examples")
        out += [("examples", os.path.join(d, f), "LP64") for f in sorted(os.listdir(d)) if f.endswith(".c")]
    if args.subset in ("all", "regression"):
        d = os.path.join(ROOT, "test", "regression")
        out += [("regression", os.path.join(d, f), "LP64") for f in sorted(os.listdir(d)) if f.endswith(".c")]
    goblint = os.path.join(os.path.dirname(args.svcomp_dir), "realworld", "goblint-bench", "pthread")
    if args.subset in ("all", "goblint") and os.path.isdir(goblint):
        out += [("goblint", os.path.join(goblint, f), "auto") for f in sorted(os.listdir(goblint))
                if f.endswith(".c")]
    if args.subset in ("all", "svcomp") and os.path.isdir(args.svcomp_dir):
        rows = list(csv.DictReader(open(os.path.join(args.svcomp_dir, "tasks.csv"))))
        if args.limit:
            rows = rows[: args.limit]
        for r in rows:
            yml = os.path.join(args.svcomp_dir, r["task_yml_relpath"])
            out.append(("svcomp", os.path.join(args.svcomp_dir, r["input_file_relpath"]), data_model(yml)))
    return out


def timed(cmd, timeout):
    before = os.times()
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        rc, out = -1, ""
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return rc, out, wall, cpu


def measure(group, path, dm, args):
    m32 = ["-m32"] if dm == "ILP32" else []
    if dm == "auto":
        # As crace's own front end does: a file that only compiles for a
        # 32-bit target (its own size_t typedef) is compiled as ILP32.
        rc, _, _, _ = timed([CLANG, "-c", "-O0", "-w"] + LENIENT + [path, "-o", os.devnull], args.timeout)
        if rc != 0:
            m32 = ["-m32"]
    best = None
    for _ in range(args.repeat):
        rc, _, cwall, ccpu = timed([CLANG, "-c", "-O0", "-w"] + LENIENT + m32 + [path, "-o", os.devnull],
                                   args.timeout)
        if rc != 0:
            return None  # clang -c rejects it (bad-input tests, 64-bit asm in ILP32 tasks): not comparable
        model = [] if dm == "auto" else [f"--data-model={dm}"]
        crc, out, wall, cpu = timed([CRACE, "--engine=lockset", "--format=json", f"--timeout={args.timeout}"]
                                    + model + [path], args.timeout + 10)
        try:
            doc = json.loads(out)
            verdict = doc["verdict"]
            stats = doc.get("stats", {})
            analysis = max(0.0, stats.get("total_seconds", wall) - stats.get("frontend_seconds", 0.0))
        except (ValueError, KeyError):
            verdict, analysis = f"error(rc={crc})", wall
        row = dict(group=group, file=os.path.relpath(path, ROOT), clang_s=cwall,
                   clang_cpu_s=ccpu, crace_s=wall, crace_cpu_s=cpu, analysis_s=analysis, verdict=verdict)
        if best is None or row["crace_s"] + row["clang_s"] < best["crace_s"] + best["clang_s"]:
            best = row
    return best


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.node()}, {os.cpu_count()} cores, {cpu}, {platform.platform()}"


def main():
    global CRACE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--subset", default="all", choices=["all", "examples", "regression", "svcomp", "goblint"])
    ap.add_argument("--crace", default=CRACE)
    ap.add_argument("--svcomp-dir", default=os.path.join(os.path.dirname(ROOT), "shared", "bench", "svcomp"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N SV-COMP tasks")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "compile_vs_lockset.md"))
    args = ap.parse_args()
    CRACE = args.crace
    if not os.path.exists(CRACE):
        sys.exit("build crace first: bash scripts/build.sh")
    todo = files(args)
    rows, skipped = [], []
    for i, (group, path, dm) in enumerate(todo, 1):
        if sys.stderr.isatty() or i % 50 == 0 or i == len(todo):
            print(f"\r[{i}/{len(todo)}] {os.path.basename(path)[:50]:50}", end="", file=sys.stderr, flush=True)
        r = measure(group, path, dm, args)
        if r:
            rows.append(r)
        else:
            skipped.append(os.path.relpath(path, ROOT))
    print(file=sys.stderr)
    csv_path = os.path.splitext(args.out)[0] + ".csv"
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    version = subprocess.run([CRACE, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    lines = [
        "# crace --engine=lockset vs clang -c -O0",
        "",
        f"- date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}",
        f"- machine: {machine()}",
        f"- crace: {version[0] if version else '?'}; clang: `{CLANG}`",
        f"- command: `python3 bench/compile_vs_lockset.py {' '.join(sys.argv[1:])}`",
        f"- per-file rows: `{os.path.relpath(csv_path, ROOT)}`",
        "",
        "Times are wall seconds, minimum of the repeats. *crace* is the whole run (its own clang front end,",
        "the model, the engine); *analysis* is crace's total minus its front end. Ratios are per file, then",
        "the median over files.",
        "",
        "| files | n | clang median s | crace median s | analysis median s | median crace/clang | median analysis/clang | max analysis/clang | verdicts |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    groups = ["examples", "regression", "svcomp", "goblint", "all"]
    target = None
    for g in groups:
        sel = [r for r in rows if g == "all" or r["group"] == g]
        if not sel:
            continue
        ratio = [r["crace_s"] / max(r["clang_s"], 1e-3) for r in sel]
        aratio = [r["analysis_s"] / max(r["clang_s"], 1e-3) for r in sel]
        verdicts = {}
        for r in sel:
            verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
        vtext = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
        lines.append(f"| {g} | {len(sel)} | {statistics.median(r['clang_s'] for r in sel):.3f} | "
                     f"{statistics.median(r['crace_s'] for r in sel):.3f} | "
                     f"{statistics.median(r['analysis_s'] for r in sel):.3f} | {statistics.median(ratio):.2f} | "
                     f"{statistics.median(aratio):.2f} | {max(aratio):.1f} | {vtext} |")
        if g == "all":
            target = statistics.median(aratio)
    lines += ["", f"Target (median analysis-only time <= 2x compile time): "
              f"{'met' if target is not None and target <= 2 else 'NOT met'} (median ratio {target:.2f}).", "",
              f"Not compared ({len(skipped)}: `clang -c` rejects them): "
              + (", ".join(f"`{os.path.basename(x)}`" for x in skipped) or "none") + ".", "",
              "## Slowest files (whole crace run)", "", "| file | clang s | crace s | analysis s | verdict |",
              "|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: -r["crace_s"])[:10]:
        lines.append(f"| {r['file']} | {r['clang_s']:.3f} | {r['crace_s']:.3f} | {r['analysis_s']:.3f} | {r['verdict']} |")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
