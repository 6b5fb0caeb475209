#!/usr/bin/env python3
"""Prints a crace JSON report without the statistics that vary between runs
(wall times, *_seconds and per-target *_seconds.T, peak_rss_mb, what the cache reused, cache_*, and how
the threads of --jobs shared the work, jobs_*),
keeping the others in their order
(counters included), one value per line: two runs on the same input print
the same."""
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)
report["stats"] = {k: v for k, v in report.get("stats", {}).items()
                   if not k.endswith("_seconds") and "_seconds." not in k
                   and not k.endswith("peak_rss_mb")
                   and not k.split(".")[-1].startswith("cache_")
                   and not k.split(".")[-1].startswith("jobs_")}
print(json.dumps(report, indent=1))
