#!/usr/bin/env python3
"""Draws a reproducible sample of possible-race pairs for reading by hand.

Runs `crace --engine=lockset --max-findings=0` (default pair cap) on each
goblint-bench program of pthread/ (race-synthetic/ holds the same programs
with a race injected), collects each program's distinct source-line pairs,
and draws N pairs in all, spread evenly over the programs that have any
(stratified, so that one large program does not make up the sample), with
a fixed seed. For each pair it prints the variable, both accesses (thread,
read/write, locks held), crace's reason why they may run concurrently, and
the source text of both lines, found in the CIL-combined file through its
`#line` directives.

  python3 bench/sample_pairs.py [--crace BIN] [--n 40] [--seed 16]
         [--out sample.md]

The verdict column of the output (real / benign / false alarm, and why) is
for the reader to fill in. With --recheck SAMPLE.md (a sample read by hand,
as committed under bench/results/) it draws nothing: it says which of the
sample's pairs BIN still reports, with their verdicts, so that a change is
measured on pairs already read.
"""
import argparse
import collections
import glob
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = "/work/shared/bench/realworld/goblint-bench/pthread"
LINE = re.compile(r'^#line\s+(\d+)(?:\s+"([^"]*)")?')


def line_index(path):
    """(file, line) as #line directives name it -> physical texts (CIL gives
    several physical lines one #line)."""
    index = {}
    cur_file, cur_line = None, None
    with open(path, errors="replace") as f:
        for number, text in enumerate(f, 1):
            # The file's own lines (a file without #line directives).
            index[(os.path.basename(path), number)] = [text.rstrip()]
            m = LINE.match(text)
            if m:
                cur_line = int(m.group(1))
                if m.group(2):
                    cur_file = os.path.basename(m.group(2))
                continue
            if cur_line is None:
                continue
            index.setdefault((cur_file, cur_line), []).append(text.rstrip())
            cur_line += 1
    return index


def report(crace, path):
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        subprocess.run([crace, "--engine=lockset", "--max-findings=0",
                        "--format=json", "-o", out, path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=900)
        with open(out) as f:
            return json.load(f)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None
    finally:
        os.unlink(out)


def pairs_of(rep):
    """Distinct unordered source-line pairs -> the first finding naming it."""
    out = collections.OrderedDict()
    for f in rep.get("findings", []):
        acc = f.get("accesses", [])
        if f.get("kind") != "data-race" or len(acc) != 2:
            continue
        a = (os.path.basename(acc[0]["file"]), acc[0]["line"])
        b = (os.path.basename(acc[1]["file"]), acc[1]["line"])
        out.setdefault((min(a, b), max(a, b)), f)
    return out


def describe(acc, index):
    where = "%s:%d" % (os.path.basename(acc["file"]), acc["line"])
    texts = index.get((os.path.basename(acc["file"]), acc["line"]), [""])
    # The physical line with code at the access's column, else one that is
    # more than braces (a "}" or a declaration may carry the same #line).
    col = acc.get("column", 0)
    text = next((t for t in texts if 0 < col <= len(t) and not t[col - 1].isspace()),
                next((t for t in texts if t.strip(" {};")), texts[0]))
    locks = ", ".join(acc.get("locks", [])) or "none"
    return "- %s %s in thread `%s`, locks: %s\n\n      %s" % (
        acc["kind"], where, acc.get("thread", "?"), locks,
        text.strip() or "(no source line: library model)")


SAMPLE_PAIR = re.compile(r"^## (\d+)\. (\S+): ", re.M)
SAMPLE_ACCESS = re.compile(r"^- (?:read|write) (\S+):(\d+) in thread", re.M)
SAMPLE_VERDICT = re.compile(r"^Verdict: \*\*(\S+)\*\*", re.M)


def recheck(crace, sample):
    """Which pairs of a hand-read sample crace still reports: a table."""
    with open(sample) as f:
        text = f.read()
    heads = list(SAMPLE_PAIR.finditer(text))
    pairs = []
    for i, h in enumerate(heads):
        body = text[h.end():heads[i + 1].start() if i + 1 < len(heads) else None]
        acc = SAMPLE_ACCESS.findall(body)
        verdict = SAMPLE_VERDICT.search(body)
        if len(acc) != 2:
            continue
        a, b = [(f, int(line)) for f, line in acc]
        pairs.append((int(h.group(1)), h.group(2), (min(a, b), max(a, b)),
                      verdict.group(1) if verdict else "?"))
    reported = {}
    for name in sorted({p[1] for p in pairs}):
        rep = report(crace, os.path.join(CORPUS, name))
        reported[name] = pairs_of(rep) if rep else None
    lines = ["| pair | program | lines | verdict | still reported |",
             "|---|---|---|---|---|"]
    kept = collections.Counter()
    gone = collections.Counter()
    for number, name, key, verdict in pairs:
        rep = reported[name]
        state = "?" if rep is None else ("yes" if key in rep else "no")
        (kept if state == "yes" else gone)[verdict] += 1
        lines.append("| %d | %s | %s:%d, %s:%d | %s | %s |" % (
            number, name, key[0][0], key[0][1], key[1][0], key[1][1],
            verdict, state))
    lines += ["", "%d of %d pairs still reported (%s); gone: %s" % (
        sum(kept.values()), len(pairs),
        ", ".join("%s %d" % kv for kv in sorted(kept.items())) or "none",
        ", ".join("%s %d" % kv for kv in sorted(gone.items())) or "none")]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--crace", default=os.path.join(
        HERE, "..", "build", "tools", "crace", "crace"))
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--out", default="-")
    ap.add_argument("--recheck", metavar="SAMPLE.md",
                    help="report which pairs of this hand-read sample are "
                    "still reported (draws nothing)")
    args = ap.parse_args()
    if args.recheck:
        text = recheck(args.crace, args.recheck)
        if args.out == "-":
            sys.stdout.write(text)
        else:
            with open(args.out, "w") as f:
                f.write(text)
        return

    per_program = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "*.c"))):
        rep = report(args.crace, path)
        if not rep:
            continue
        pairs = pairs_of(rep)
        if pairs:
            per_program.append((os.path.basename(path), path, pairs))
        print("%-32s %6d line pairs" % (os.path.basename(path), len(pairs)),
              file=sys.stderr)
    rng = random.Random(args.seed)
    # Even shares; the first programs (by name) take the remainder.
    k, extra = divmod(args.n, len(per_program))
    lines = ["# Sample of %d possible-race pairs (seed %d)" % (args.n, args.seed),
             "", "Corpus: goblint-bench pthread/, %d programs with pairs; "
             "%d or %d pairs drawn from each." % (len(per_program), k + 1, k),
             ""]
    number = 0
    for i, (name, path, pairs) in enumerate(per_program):
        want = min(len(pairs), k + (1 if i < extra else 0))
        index = line_index(path)
        for key in rng.sample(sorted(pairs), want):
            number += 1
            f = pairs[key]
            lines += ["## %d. %s: `%s`" % (number, name, f.get("variable", "")),
                      ""]
            for acc in f["accesses"]:
                lines.append(describe(acc, index))
            lines += ["", "Why concurrent: " + f.get("concurrency", ""), "",
                      "Verdict: ", ""]
    text = "\n".join(lines) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
