#!/usr/bin/env python3
"""usage: gen-man.py CRACE OUT.1

Writes crace's man page from `crace --help`, the option table llvm::cl
prints from the options themselves, so the page lists exactly the options
crace has, in its groups, with their values."""
import re
import subprocess
import sys

crace, out = sys.argv[1], sys.argv[2]
help_text = subprocess.run([crace, "--help"], capture_output=True, text=True,
                           check=True).stdout
version = subprocess.run([crace, "--version"], capture_output=True, text=True,
                         check=True).stdout.strip()


def roff(s):
    s = s.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + s if s.startswith((".", "'")) else s


overview, _, options = help_text.partition("OPTIONS:")
overview = overview.replace("OVERVIEW:", "").strip().splitlines()
lines = [".TH CRACE 1 \"\" \"%s\" \"User Commands\"" % roff(version),
         ".SH NAME", "crace \\- data-race checker for multithreaded C",
         ".SH SYNOPSIS"]
for l in overview:
    if l.strip().startswith("crace ["):
        lines += [".B " + roff(l.strip()), ".br"]
lines.append(".SH DESCRIPTION")
desc = [l for l in overview[1:] if l.strip()
        and not l.strip().startswith(("crace [", "USAGE:"))]
lines += [roff(l.strip()) for l in desc]
lines.append(".SH OPTIONS")
for l in options.splitlines():
    if re.match(r"^\S.*:$", l):
        lines.append(".SS " + roff(l[:-1]))
    elif m := re.match(r"^  (-\S.*?)\s+- (.*)$", l):
        lines += [".TP", ".B " + roff(m.group(1).strip()), roff(m.group(2))]
    elif m := re.match(r"^    (=\S+)\s+-\s+(.*)$", l):
        lines += [".RS", ".TP", ".B " + roff(m.group(1)), roff(m.group(2)), ".RE"]
lines += [".SH SEE ALSO", "docs/usage.md, docs/output.md in crace's sources."]
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
