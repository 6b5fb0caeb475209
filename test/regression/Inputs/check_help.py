"""usage: check_help.py CRACE

Every option crace registers is listed by `crace --help`, once, under one
of crace's numbered categories: compares `--help` with `--help-hidden`
(which lists hidden options too). LLVM's own options stay hidden."""
import re
import subprocess
import sys

crace = sys.argv[1]


def sections(flag):
    out = subprocess.run([crace, flag], capture_output=True, text=True,
                         check=True).stdout
    secs, cur = {}, None
    for line in out.splitlines():
        if re.match(r"^\S.*:$", line):
            cur = line[:-1]
            secs.setdefault(cur, [])
        elif cur and (m := re.match(r"^  (-{1,2}[A-Za-z0-9][\w-]*)", line)):
            secs[cur].append(m.group(1).lstrip("-"))
    return secs


shown, everything = sections("--help"), sections("--help-hidden")
ours = {c: opts for c, opts in everything.items() if re.match(r"^\d+\. ", c)}
if len(ours) < 9:
    sys.exit(f"expected crace's 9 option categories, found {sorted(ours)}")
listed = [o for c, opts in shown.items() for o in opts]
dups = sorted({o for o in listed if listed.count(o) > 1})
if dups:
    sys.exit(f"listed more than once by --help: {dups}")
missing = [(c, o) for c, opts in ours.items() for o in opts
           if o not in shown.get(c, [])]
if missing:
    sys.exit(f"hidden from --help: {missing}")
foreign = [c for c in shown if not re.match(r"^\d+\. ", c)
           and c not in ("OPTIONS", "Generic Options")]
if foreign:
    sys.exit(f"--help shows categories that are not crace's: {foreign}")
print(f"{sum(len(o) for o in ours.values())} options in {len(ours)} categories, all listed")
