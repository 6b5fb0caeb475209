#!/usr/bin/env python3
"""Which pairs of a hand-read sample does a crace binary still report?

Reads a sample written by bench/sample_pairs.py and annotated by hand
(bench/results/pair-sample-*.md: sections `## N. PROGRAM: ...`, two access
lines `- read|write FILE:LINE in thread ...`, and `Verdict: **F**`), runs
each binary's lockset engine on the sample's goblint-bench programs with
every finding kept and no pair cap, and prints, per binary, how many pairs
of each verdict it still reports and which pairs are gone. A pair counts
as reported when some finding pairs the same two source lines.

  python3 bench/sample_recheck.py --sample bench/results/pair-sample-5ad37ee.md
         --crace OLD_BIN [NEW_BIN ...]
"""
import argparse
import collections
import json
import os
import re
import subprocess

CORPUS = "/work/shared/bench/realworld/goblint-bench/pthread"


def sample_pairs(path):
    """(number, program, the two (file, line) sorted, verdict) per pair."""
    text = open(path).read()
    parts = re.split(r"\n## (\d+)\. ", text)
    out = []
    for i in range(1, len(parts), 2):
        body = parts[i + 1]
        acc = re.findall(r"^- (?:read|write) (\S+):(\d+) in thread", body,
                         re.M)
        verdict = re.search(r"Verdict: \*\*(\S)\*\*", body)
        if len(acc) < 2:
            continue
        out.append((int(parts[i]), body.split(":")[0],
                    tuple(sorted((f, int(n)) for f, n in acc[:2])),
                    verdict.group(1) if verdict else "-"))
    return out


def reported(binary, program):
    """The unordered (file, line) pairs of every finding on program."""
    p = subprocess.run([binary, "--engine=lockset", "--max-findings=0",
                        "--max-pairs=0", "--format=json",
                        os.path.join(CORPUS, program)],
                       capture_output=True, text=True, timeout=900)
    try:
        rep = json.loads(p.stdout)
    except ValueError:
        return None
    return {tuple(sorted((os.path.basename(a["file"]), a["line"])
                         for a in f["accesses"]))
            for f in rep.get("findings", [])}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", required=True)
    ap.add_argument("--crace", nargs="+", required=True)
    a = ap.parse_args()
    pairs = sample_pairs(a.sample)
    for binary in a.crace:
        seen = {}
        left = collections.Counter()
        gone = []
        for n, program, acc, verdict in pairs:
            if program not in seen:
                seen[program] = reported(binary, program)
            if seen[program] is None:
                gone.append("%d (no report)" % n)
            elif acc in seen[program]:
                left[verdict] += 1
            else:
                gone.append(str(n))
        print("%s: %d of %d pairs still reported (%s); gone: %s" % (
            binary, sum(left.values()), len(pairs),
            ", ".join("%s %d" % kv for kv in sorted(left.items())),
            " ".join(gone) or "none"))


if __name__ == "__main__":
    main()
