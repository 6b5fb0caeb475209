#!/usr/bin/env python3
"""usage: stats-keys.py SRC_DIR [DOC.md]

Lists the statistics keys crace's code writes (R.stat("key", ...) and the
driver's {"key", ...} inserts; a key ending in '.' takes a suffix) and its
counters (CRACE_STATISTIC(Name, ...) under #define DEBUG_TYPE "group": the
key group.Name). With DOC.md, exits 1 naming the keys the document does not
mention."""
import os
import re
import sys

src = sys.argv[1]
keys = set()
for root, _, files in os.walk(src):
    for f in files:
        if not f.endswith((".cpp", ".h")):
            continue
        text = open(os.path.join(root, f)).read()
        keys |= set(re.findall(r'\bstat\(\s*"([a-z0-9_.]+)"', text))
        keys |= set(re.findall(r'Stats\.insert\([^;]*?\{"([a-z0-9_]+)"', text, re.S))
        group = re.search(r'#define DEBUG_TYPE "([a-z-]+)"', text)
        for name in re.findall(r'^CRACE_STATISTIC\(\s*(\w+)', text, re.M):
            keys.add("%s.%s" % (group.group(1) if group else "?", name))
if len(sys.argv) < 3:
    print("\n".join(sorted(keys)))
    sys.exit(0)
doc = open(sys.argv[2]).read()
missing = sorted(k for k in keys
                 if "`" + (k + "T" if k.endswith(".") else k) + "`" not in doc)
if missing:
    sys.exit("not documented in %s: %s" % (sys.argv[2], ", ".join(missing)))
print("%d statistics keys, all documented" % len(keys))
