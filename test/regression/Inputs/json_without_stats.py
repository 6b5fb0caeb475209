#!/usr/bin/env python3
"""Prints a crace JSON report without its "stats" (timing figures), keys
sorted, one value per line: two runs on the same input must print the same."""
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)
report.pop("stats", None)
print(json.dumps(report, indent=1, sort_keys=True))
