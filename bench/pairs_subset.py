#!/usr/bin/env python3
"""A precision change may only remove pairs: check it, old binary vs new.

Runs the lockset engine (or --engine whoop) of two crace binaries with every
finding kept on the regression programs, the SV-COMP CI subset and the
goblint-bench programs, and checks that every source-line pair the new one
reports was reported by the old one, and that no program goes from
possible-race to race-free unless the old pairs were all refuted for a
reason the caller accepts (listed, not failed: that is what a precision
change is for). A pair the new binary reports and the old one did not is
a failure: the new analysis is not a refinement of the old one.

  python3 bench/pairs_subset.py --old OLD_BIN --new NEW_BIN [--engine lockset]
         [--jobs 2] [--only SUBSTRING ...] [--skip SUBSTRING ...]
         [--max-pairs 0]

Exit 0 when the new pairs are a subset of the old ones everywhere.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from goblint_default import is_cil_combined  # noqa: E402
from precision import capped, line_pairs  # noqa: E402

SVCOMP = "/work/shared/bench/svcomp"
GOBLINT = "/work/shared/bench/realworld/goblint-bench"


def inputs(only):
    out = []
    for f in sorted(glob.glob(os.path.join(ROOT, "test", "regression", "**",
                                           "*.c"), recursive=True)):
        if "/Inputs/" in f or "/drivers/" in f:
            continue
        out.append((os.path.relpath(f, ROOT), [f]))
    subset = os.path.join(HERE, "ci_subset.txt")
    if os.path.exists(subset):
        for line in open(subset):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            yml = os.path.join(SVCOMP, line)
            if not os.path.exists(yml):
                continue
            text = open(yml).read()
            m = re.search(r"input_files:\s*'?([^'\n]+)'?", text)
            if not m:
                continue
            c = os.path.join(os.path.dirname(yml), m.group(1).strip())
            model = "LP64" if "data_model: LP64" in text else "ILP32"
            out.append(("svcomp/" + line, ["--data-model=" + model, c]))
    for f in sorted(glob.glob(os.path.join(GOBLINT, "*", "*.c"))):
        extra = ["--data-model=ILP32"] if is_cil_combined(f) else []
        out.append((os.path.relpath(f, GOBLINT), extra + [f]))
    if only:
        out = [x for x in out if any(o in x[0] for o in only)]
    return out


def pairs(binary, engine, args, max_pairs=None):
    cmd = [binary, "--engine=" + engine, "--max-findings=0", "--format=json",
           "--timeout=300"] + args
    if max_pairs is not None:
        cmd.append("--max-pairs=%d" % max_pairs)
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        rep = json.loads(p.stdout)
    except ValueError:
        return None, set()
    return (rep.get("verdict"), capped(rep)), line_pairs(rep)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--engine", default="lockset")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--skip", nargs="*", default=[],
                    help="leave out inputs whose name contains one of these")
    ap.add_argument("--max-pairs", type=int,
                    help="pass --max-pairs=N (0: no cap, so a capped old "
                    "run no longer hides new pairs)")
    a = ap.parse_args()
    todo = [x for x in inputs(a.only)
            if not any(s in x[0] for s in a.skip)]

    def one(item):
        name, args = item
        (vo, po) = pairs(a.old, a.engine, args, a.max_pairs)
        (vn, pn) = pairs(a.new, a.engine, args, a.max_pairs)
        return name, vo, po, vn, pn

    bad = fewer = 0
    old_total = new_total = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for name, vo, po, vn, pn in ex.map(one, todo):
            old_total += len(po)
            new_total += len(pn)
            extra = pn - po
            # A capped old run stopped early: pairs past its cap are not new.
            if extra and not (vo and vo[1]):
                bad += 1
                print("NOT A SUBSET: %s: %d new pair(s), e.g. %s" %
                      (name, len(extra), sorted(extra)[0]), flush=True)
            if len(pn) < len(po):
                fewer += 1
                print("fewer: %s: %d -> %d pairs (%s -> %s)" %
                      (name, len(po), len(pn), vo and vo[0], vn and vn[0]),
                      flush=True)
    print("%d inputs: %d with fewer pairs, %d not a subset; pairs %d -> %d" %
          (len(todo), fewer, bad, old_total, new_total))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
